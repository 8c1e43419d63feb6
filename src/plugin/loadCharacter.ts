import type { AssetContainer } from "@babylonjs/core/assetContainer.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar, type HumanoidAvatar, type IHumanoidAvatarOptions } from "../humanoid/avatar.js";
import type { HumanBone } from "../humanoid/humanBones.js";
import { BindRigToTransformNode, GetGltfNodeIndex, type IRigNodeBinding } from "../io/babylonRig.js";
import { AttachDetachedFeetInGltf, type IAttachedFoot } from "../io/detachedFeetGltf.js";
import { ReadGltfJson, type IGltfDocument } from "../io/gltfJson.js";
import { EmbedGltfResources, ListGltfResources } from "../io/gltfResources.js";
import { ReadVrmHumanoid, type IVrmHumanoid } from "../io/vrm.js";

/**
 * Which nodes of a glTF document are joints: the skins' joints when it has skins, else every node
 * without a mesh. Used to read a loaded glTF's node hierarchy as a rig.
 * @param doc the file's JSON
 */
export function GltfJointFilter(doc: IGltfDocument): (node: TransformNode) => boolean {
    const skinJoints = new Set<number>((doc.skins ?? []).flatMap((s) => s.joints));
    return (n: TransformNode): boolean => {
        const i = GetGltfNodeIndex(n);
        if (i < 0) return false;
        return skinJoints.size ? skinJoints.has(i) : doc.nodes![i]?.mesh === undefined;
    };
}

/** A character loaded into a scene by {@link LoadHumanoidCharacterAsync}. */
export interface IHumanoidCharacter {
    /** What the loader made (already added to the scene). */
    readonly container: AssetContainer;
    /** The rig read from the loaded nodes, with the node of every joint (the animator's targets). */
    readonly binding: IRigNodeBinding;
    /** The avatar. */
    readonly avatar: HumanoidAvatar;
    /** The file's JSON. */
    readonly gltf: IGltfDocument;
    /** For VRM files: the humanoid map the file declares. */
    readonly vrm?: IVrmHumanoid;
    /** The map the file declares, human bone -> rig joint (VRM), for rebuilding the avatar with other options. */
    readonly declaredBoneMap?: ReadonlyMap<HumanBone, number>;
    /** Feet the rig kept beside its legs for IK, moved under its lower legs at load (`AttachDetachedFeetInGltf`); none for most files. */
    readonly attachedFeet: readonly IAttachedFoot[];
}

/**
 * Loads a GLB, glTF or VRM file's bytes into a scene (browser or Node) with
 * Babylon's glTF loader, adds it to the scene, and builds its humanoid avatar (a VRM file's own map
 * is trusted). Animations are loaded but not started. Throws one {@link HumanoidError} naming the
 * file; on error nothing stays in the scene. The glTF loader must be registered
 * (`registerBuiltInLoaders()` from `@babylonjs/loaders/dynamic.js`, or a static import).
 * A `.gltf` must hold its buffers (as `data:` URIs): one that names a `.bin` beside it is refused
 * with a `FILE_READ` error naming the file, and an image it names outside it is shown blank;
 * {@link EmbedGltfResources} puts the files given with it inside it (what a browser has after a
 * drop or a file picker). Nothing is fetched. A rig that keeps its feet beside its legs for IK
 * (three.js's RobotExpressive, Blender rigs with `FootControl` IK) has them moved under its lower
 * legs as it loads, each at its place in the world ({@link AttachDetachedFeetInGltf}), so that it
 * maps; its own clips then no longer place those feet.
 * @param bytes the file's content
 * @param fileName the file's name (its extension picks the format), for messages
 * @param scene where to load it
 * @param options avatar options (bone map overrides, T-pose mode, muscle ranges, twist) and `attachDetachedFeet`
 */
export async function LoadHumanoidCharacterAsync(
    bytes: Uint8Array,
    fileName: string,
    scene: Scene,
    options: Omit<IHumanoidAvatarOptions, "declaredBoneMap"> & {
        /** Move feet kept beside the legs for IK under the lower legs ({@link AttachDetachedFeetInGltf}). Default true; false for a file read for its clips (their feet's keys are relative to their old parents). */
        attachDetachedFeet?: boolean;
    } = {},
): Promise<IHumanoidCharacter> {
    const ext = (/\.[^.]+$/.exec(fileName)?.[0] ?? "").toLowerCase();
    if (![".glb", ".gltf", ".vrm"].includes(ext)) {
        throw new HumanoidError("UNSUPPORTED_FORMAT", `${fileName}: a character must be a .glb, .gltf or .vrm file`);
    }
    const gltf = ReadGltfJson(bytes, fileName);
    if (!gltf.nodes?.length) throw new HumanoidError("GLTF_PARSE", `${fileName}: the glTF file has no nodes, so no skeleton`);
    const vrm = ReadVrmHumanoid(gltf, fileName);
    // A .gltf goes to the loader as its text ("data:" and the JSON): from bytes the loader takes
    // only the binary form. Its buffers must be inside it (a missing one is named here); an image
    // outside it is shown blank (nothing is fetched).
    let source: string | Uint8Array = bytes;
    if (ext === ".gltf") {
        const external = ListGltfResources(bytes, fileName);
        if (external.buffers.length) {
            throw new HumanoidError(
                "FILE_READ",
                `${fileName}: its data is in ${external.buffers.join(", ")}, outside the bytes given: put ${external.buffers.length > 1 ? "them" : "it"} in the file with EmbedGltfResources (or use a .glb)`,
            );
        }
        const embedded = external.images.length ? EmbedGltfResources(bytes, fileName, new Map()).bytes : bytes;
        source = "data:" + new TextDecoder().decode(embedded);
    }
    let container: AssetContainer;
    const attachedFeet: IAttachedFoot[] = [];
    try {
        container = await LoadAssetContainerAsync(source, scene, {
            name: fileName,
            pluginExtension: ext === ".gltf" ? ".gltf" : ".glb",
            pluginOptions: {
                gltf: {
                    animationStartMode: 0 /* NONE */,
                    // Before the loader reads the nodes: feet kept beside the legs go under them.
                    onParsed:
                        options.attachDetachedFeet === false
                            ? undefined
                            : (data: { json: object }) => attachedFeet.push(...AttachDetachedFeetInGltf(data.json as never)),
                    preprocessUrlAsync: async (url: string) => {
                        if (url.startsWith("data:")) return url;
                        throw new HumanoidError("GLTF_PARSE", `${fileName}: refers to '${url}', outside the bytes given`);
                    },
                },
            },
        });
    } catch (e) {
        if (e instanceof HumanoidError) throw e;
        // Babylon quotes the URL it loaded from, for a .gltf the whole file: name the file instead.
        let message = String((e as Error)?.message ?? e);
        if (typeof source === "string") message = message.split(source).join(fileName);
        if (message.length > 400) message = message.slice(0, 400) + "...";
        throw new HumanoidError("GLTF_PARSE", `${fileName}: Babylon's glTF loader failed: ${message}`);
    }
    try {
        const root = container.meshes.find((m) => m.name === "__root__" && !m.parent) ?? container.rootNodes[0];
        if (!root) throw new HumanoidError("GLTF_PARSE", `${fileName}: the glTF file has no scene nodes`);
        const binding = BindRigToTransformNode(root, { source: fileName, gltfNodeNames: gltf.nodes.map((n) => n.name), isJoint: GltfJointFilter(gltf) });
        let declaredBoneMap: Map<HumanBone, number> | undefined;
        if (vrm) {
            const byNode = new Map<number, number>(binding.rig.joints.map((j, i) => [j.sourceIndex, i]));
            declaredBoneMap = new Map();
            for (const [bone, node] of vrm.nodes) {
                const joint = byNode.get(node);
                if (joint === undefined)
                    throw new HumanoidError(
                        "BAD_BONE_MAP",
                        `${fileName}: the ${vrm.kind} humanoid map points at node ${node}, which is not in the loaded hierarchy`,
                    );
                declaredBoneMap.set(bone, joint);
            }
        }
        const { attachDetachedFeet: _, ...avatarOptions } = options;
        const avatar = BuildHumanoidAvatar(binding.rig, { ...avatarOptions, declaredBoneMap });
        container.addAllToScene();
        return { container, binding, avatar, gltf, vrm, declaredBoneMap, attachedFeet };
    } catch (e) {
        container.dispose();
        throw e;
    }
}
