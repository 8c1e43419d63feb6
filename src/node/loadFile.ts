import { AttachDetachedFeetInGltf, type IAttachedFoot } from "../io/detachedFeetGltf.js";
import { readFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import type { AssetContainer } from "@babylonjs/core/assetContainer.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import { HumanoidError } from "../errors.js";
import type { HumanBone } from "../humanoid/humanBones.js";
import type { IRig } from "../humanoid/rig.js";
import { ParseBvh } from "../io/bvh.js";
import { CreateRigFromBvh, type IBvhRig, type IBvhRigOptions } from "../io/bvhRig.js";
import { BindRigToTransformNode, type IRigNodeBinding } from "../io/babylonRig.js";
import { ReadGltfJson, type IGltfDocument } from "../io/gltfJson.js";
import { EmbedGltfResources, ListGltfResources } from "../io/gltfResources.js";
import { ReadVrmHumanoid, type IVrmHumanoid } from "../io/vrm.js";
import { GltfJointFilter } from "../plugin/loadCharacter.js";

/** File formats {@link LoadRigFromFileAsync} reads. */
export type RigFileFormat = "glb" | "gltf" | "vrm" | "vrma" | "bvh";

/** A skeleton read from a file in Node. */
export interface ILoadedRig {
    /** The path as given. */
    readonly file: string;
    /** The format, from the extension. */
    readonly format: RigFileFormat;
    /** The skeleton in rig space (left-handed, Y-up, metres). */
    readonly rig: IRig;
    /** For VRM/VRMA files: the humanoid map the file declares (human bone -> rig joint index). */
    readonly declaredBoneMap?: ReadonlyMap<HumanBone, number>;
    /** For VRM/VRMA files: which humanoid extension declared the map. */
    readonly vrm?: IVrmHumanoid;
    /** For BVH files: the parsed file and the axis/unit conversion used. */
    readonly bvh?: IBvhRig;
    /** For glTF files: the JSON document. */
    readonly gltf?: IGltfDocument;
    /** For glTF files: the loaded scene content (a NullEngine scene), for clips and nodes. */
    readonly container?: AssetContainer;
    /** For glTF files: the node behind every rig joint, to read poses while clips play. */
    readonly binding?: IRigNodeBinding;
    /** For glTF files loaded with {@link ILoadRigOptions.attachDetachedFeet}: the feet moved under their lower legs (none when the rig had none beside its legs). */
    readonly attachedFeet?: readonly IAttachedFoot[];
    /** Frees the engine and scene made for the file (glTF formats). */
    dispose(): void;
}

/** Options of {@link LoadRigFromFileAsync}. */
export interface ILoadRigOptions {
    /** How to read BVH files (up axis, units). */
    bvh?: IBvhRigOptions;
    /** Load the glTF file's materials and textures too (for writing the character out again). Default false: skeleton and meshes only. */
    materials?: boolean;
    /**
     * Move feet that the rig keeps beside its legs for IK under their lower legs before loading
     * (`AttachDetachedFeetInGltf`: three.js's RobotExpressive, Blender rigs with `FootControl` IK),
     * each keeping its place in the world, so that the skeleton maps as a humanoid's. The feet's
     * own animation channels then no longer place them: for a character to retarget onto, not a
     * source of clips. Default false here; {@link LoadHumanoidAvatarFromFileAsync} turns it on.
     */
    attachDetachedFeet?: boolean;
}

const FORMATS: Readonly<Record<string, RigFileFormat>> = { ".glb": "glb", ".gltf": "gltf", ".vrm": "vrm", ".vrma": "vrma", ".bvh": "bvh" };

let loadersRegistered = false;

/**
 * The JSON text of a .gltf file with every external buffer (and, when asked, image) read from disk
 * (relative to the file) and inlined as a data URI (`EmbedGltfResources`). Throws a
 * {@link HumanoidError} naming the missing file.
 */
async function InlineGltfFilesAsync(bytes: Uint8Array, file: string, images: boolean): Promise<string> {
    const listed = ListGltfResources(bytes, file);
    const resources = new Map<string, Uint8Array>();
    for (const [noun, paths] of [
        ["buffer", listed.buffers],
        ["image", images ? listed.images : []],
    ] as const) {
        for (const path of paths) {
            try {
                resources.set(path, await readBytes(join(dirname(file), path)));
            } catch (e) {
                throw new HumanoidError("FILE_READ", `${file}: its ${noun} '${path}' cannot be read (${(e as Error).message.replace(/^.*\((.*)\)$/, "$1")})`);
            }
        }
    }
    return new TextDecoder().decode(EmbedGltfResources(bytes, file, resources, { images }).bytes);
}

/** The format of a file from its extension, or a {@link HumanoidError} `UNSUPPORTED_FORMAT`. */
export function GetRigFileFormat(file: string): RigFileFormat {
    const format = FORMATS[extname(file).toLowerCase()];
    if (!format) {
        throw new HumanoidError("UNSUPPORTED_FORMAT", `${file}: unsupported file type '${extname(file) || "(none)"}' (use .glb, .gltf, .vrm, .vrma or .bvh)`);
    }
    return format;
}

async function readBytes(file: string): Promise<Uint8Array> {
    try {
        return new Uint8Array(await readFile(file));
    } catch (e) {
        const err = e as NodeJS.ErrnoException;
        const why = err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "is a directory" : err.message;
        throw new HumanoidError("FILE_READ", `${file}: cannot read the file (${why})`);
    }
}

/**
 * Reads a skeleton from a GLB, glTF (with external buffers), VRM, VRMA or BVH file, in Node. glTF
 * formats go through Babylon's glTF loader in a NullEngine scene (animations not started); BVH goes
 * through this library's reader (Babylon's BVH loader gives no line numbers and needs a scene).
 * Throws one {@link HumanoidError} naming the file.
 */
export async function LoadRigFromFileAsync(file: string, options: ILoadRigOptions = {}): Promise<ILoadedRig> {
    const format = GetRigFileFormat(file);
    const bytes = await readBytes(file);
    const name = basename(file);
    if (format === "bvh") {
        const text = new TextDecoder().decode(bytes);
        const bvh = CreateRigFromBvh(ParseBvh(text, file), options.bvh);
        return { file, format, rig: bvh.rig, bvh, dispose: () => undefined };
    }
    const doc = ReadGltfJson(bytes, file);
    if (!doc.nodes?.length) {
        throw new HumanoidError("GLTF_PARSE", `${file}: the glTF file has no nodes, so no skeleton`);
    }
    const vrm = ReadVrmHumanoid(doc, file);
    if (!loadersRegistered) {
        registerBuiltInLoaders();
        loadersRegistered = true;
    }
    // Babylon logs its banner and warnings through Logger; keep them quiet while loading and put the
    // caller's logger back after (Logger.LogLevels has no getter, so save the functions).
    const saved = { log: Logger.Log, warn: Logger.Warn };
    Logger.Log = () => undefined;
    Logger.Warn = () => undefined;
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const dispose = (): void => {
        scene.dispose();
        engine.dispose();
    };
    let container: AssetContainer;
    let source: string | Uint8Array = bytes;
    const attachedFeet: IAttachedFoot[] = [];
    try {
        // Every external buffer is read first and inlined, so the loader never waits on the disk
        // (Babylon's loader crashes the process if it fails while such a read is pending).
        source = format === "gltf" ? "data:" + (await InlineGltfFilesAsync(bytes, file, !!options.materials)) : bytes;
        container = await LoadAssetContainerAsync(source, scene, {
            name,
            pluginExtension: format === "gltf" ? ".gltf" : ".glb",
            pluginOptions: {
                gltf: {
                    animationStartMode: GLTFLoaderAnimationStartMode.NONE,
                    skipMaterials: !options.materials,
                    // Before the loader reads the nodes: feet kept beside the legs go under them.
                    onParsed: options.attachDetachedFeet ? (data: { json: object }) => attachedFeet.push(...AttachDetachedFeetInGltf(data.json as never)) : undefined,
                    preprocessUrlAsync: async (url: string) => {
                        if (url.startsWith("data:")) return url;
                        throw new HumanoidError("GLTF_PARSE", `${file}: refers to '${url}', which was not read`);
                    },
                },
            },
        });
    } catch (e) {
        dispose();
        if (e instanceof HumanoidError) {
            throw e;
        }
        // Babylon quotes the URL it loaded from, here the whole file as a data URL: name the file instead.
        let message = String((e as Error)?.message ?? e);
        if (typeof source === "string") message = message.split(source).join(name);
        if (message.length > 400) message = message.slice(0, 400) + "...";
        throw new HumanoidError("GLTF_PARSE", `${file}: Babylon's glTF loader failed: ${message}`);
    } finally {
        Logger.Log = saved.log;
        Logger.Warn = saved.warn;
    }
    const root = container.meshes.find((m) => m.name === "__root__" && !m.parent) ?? container.rootNodes[0];
    if (!root) {
        dispose();
        throw new HumanoidError("GLTF_PARSE", `${file}: the glTF file has no scene nodes`);
    }
    const nodeNames = doc.nodes.map((n) => n.name);
    const isJoint = GltfJointFilter(doc);
    let binding: IRigNodeBinding;
    try {
        binding = BindRigToTransformNode(root, { source: file, gltfNodeNames: nodeNames, isJoint });
    } catch (e) {
        dispose();
        throw e;
    }
    const rig = binding.rig;
    let declaredBoneMap: Map<HumanBone, number> | undefined;
    if (vrm) {
        const byNode = new Map<number, number>(rig.joints.map((j, i) => [j.sourceIndex, i]));
        declaredBoneMap = new Map();
        for (const [bone, node] of vrm.nodes) {
            const joint = byNode.get(node);
            if (joint === undefined) {
                dispose();
                throw new HumanoidError("BAD_BONE_MAP", `${file}: the ${vrm.kind} humanoid map points at node ${node}, which is not in the loaded hierarchy`);
            }
            declaredBoneMap.set(bone, joint);
        }
    }
    return { file, format, rig, declaredBoneMap, vrm, gltf: doc, container, binding, attachedFeet, dispose };
}
