/**
 * The AnimatorAvatar baseline's shared scene: the source loaded into the target's scene (a BVH's
 * nodes and AnimationGroup made from its poses, a glTF-format file loaded a second time, every
 * source node's name prefixed), a Babylon skeleton linked to a character's nodes for characters
 * with no skinned mesh, and nodes put into a pose of their rig (the T-poses Babylon transfers
 * between). Node only (reads files).
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { Bone } from "@babylonjs/core/Bones/bone.js";
import { Skeleton } from "@babylonjs/core/Bones/skeleton.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Node } from "@babylonjs/core/node.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import { ComputeRigWorldPose, type IRig, type IRigPose } from "../humanoid/rig.js";
import { GetGltfNodeIndex } from "../io/babylonRig.js";
import { AnimationGroupPoseSource } from "../io/animationGroupClip.js";
import { BvhPoseSource } from "../io/bvhClip.js";
import { CreateAnimationGroupFromRigPoses, CreateTransformNodesFromRig } from "../io/rigNodes.js";
import { PickClipByName } from "./convertFile.js";
import { GetRigFileFormat, LoadRigFromFileAsync } from "./loadFile.js";

/** Name prefix of the source's nodes in the shared scene, so that a rig retargeted onto itself keeps two sets of names. */
export const SOURCE_NODE_PREFIX = "SRC_";

/** The topmost ancestor of a node (a glTF file's `__root__`). */
export function GetTopAncestor(node: TransformNode): TransformNode {
    let n: Node = node;
    while (n.parent) n = n.parent;
    return n as TransformNode;
}

/**
 * A Babylon skeleton whose bones are linked to a rig's nodes (rest = the nodes' current local
 * transforms), for characters with no skinned mesh, where `AnimatorAvatar` finds no skeleton.
 * @param name the skeleton's name and id
 * @param nodes the rig's nodes, in its joints' order
 * @param parents each joint's parent index (-1 for a root), as the rig's joints have them
 * @param scene the scene the nodes are in
 */
export function CreateLinkedSkeleton(name: string, nodes: readonly TransformNode[], parents: readonly number[], scene: Scene): Skeleton {
    const skeleton = new Skeleton(name, name, scene);
    const bones: Bone[] = [];
    nodes.forEach((node, i) => {
        const local = Matrix.Compose(node.scaling, node.rotationQuaternion ?? Quaternion.FromEulerVector(node.rotation), node.position);
        const bone = new Bone(node.name, skeleton, parents[i] >= 0 ? bones[parents[i]] : null, local, local.clone());
        bone.linkTransformNode(node);
        bones.push(bone);
    });
    return skeleton;
}

const MIRROR_Z = Matrix.Scaling(1, 1, -1);

/**
 * Puts nodes into a pose of their rig and returns their new local matrices (Babylon's). The nodes
 * may sit below a handedness mirror (glTF's `__root__`): each node's rig-space world transform is
 * turned back into a Babylon world matrix of the same handedness as the node's current one, and
 * `local = world * inverse(parentWorld)`, parents first.
 * @param nodes the rig's nodes, in its joints' order (undefined for a joint with no node, left alone)
 * @param rig the rig
 * @param pose the pose to put them in
 * @returns each node's new local matrix, undefined where there is no node
 */
export function SetNodesToRigPose(nodes: readonly (TransformNode | undefined)[], rig: IRig, pose: IRigPose): (Matrix | undefined)[] {
    const world = ComputeRigWorldPose(rig, pose);
    const worlds: (Matrix | undefined)[] = [];
    const locals: (Matrix | undefined)[] = [];
    const inverse = new Matrix();
    nodes.forEach((node, i) => {
        if (!node) return;
        const mirrored = node.computeWorldMatrix(true).determinant() < 0;
        const proper = Matrix.Compose(world.scales[i], world.rotations[i], world.positions[i]);
        // rig world = MIRROR_Z * babylon world for a mirrored node, so babylon world = MIRROR_Z * rig world.
        const w = mirrored ? MIRROR_Z.multiply(proper) : proper;
        const parent = node.parent as TransformNode | null;
        const parentIndex = rig.joints[i].parent;
        const parentWorld = parentIndex >= 0 && worlds[parentIndex] ? worlds[parentIndex]! : parent ? parent.computeWorldMatrix(true) : Matrix.Identity();
        parentWorld.invertToRef(inverse);
        const local = w.multiply(inverse);
        const scaling = new Vector3();
        const rotation = new Quaternion();
        local.decompose(scaling, rotation, node.position);
        node.scaling.copyFrom(scaling);
        node.rotationQuaternion = rotation;
        worlds[i] = w;
        locals[i] = local;
    });
    for (const n of nodes) n?.computeWorldMatrix(true);
    return locals;
}

/** A source loaded into the shared scene: its avatar, the node behind every rig joint, and the clip. */
export interface ISourceInScene {
    /** The source skeleton's avatar. */
    readonly avatar: HumanoidAvatar;
    /** The source's node of every joint of `avatar.rig`, in its joints' order (undefined for a joint with no node in the scene). */
    readonly nodes: readonly (TransformNode | undefined)[];
    /** The clip, on the source's nodes in the shared scene. */
    readonly group: AnimationGroup;
    /** The clip's name (the BVH file's base name, or the AnimationGroup's name). */
    readonly clipName: string;
    /** Frames per second: the option's, or the source's own rate (a BVH's 1 / Frame Time, a glTF clip's key rate). */
    readonly frameRate: number;
    /** The clip's length, seconds. */
    readonly durationSeconds: number;
    /** Frees what the source's own load holds (a glTF-format source's first load); undefined when nothing is held. */
    readonly dispose?: () => void;
}

/** Options of {@link LoadSourceIntoSceneAsync}. */
export interface ILoadSourceIntoSceneOptions {
    /** For glTF sources: the name of the AnimationGroup to load. Default: the first. */
    clip?: string;
    /** Frames per second (a BVH's AnimationGroup is keyed at it). Default: the source's own rate. */
    frameRate?: number;
}

/**
 * Loads a source clip into the target's scene, at rest (Babylon's retargeting plays source and
 * target together): a BVH's nodes and AnimationGroup made from its poses with
 * `CreateTransformNodesFromRig` and `CreateAnimationGroupFromRigPoses`, a GLB/VRM/VRMA (or a .gltf
 * with embedded buffers) loaded a second time into the scene. Every source node's name is prefixed
 * with {@link SOURCE_NODE_PREFIX}.
 * @param file the clip: .bvh, .glb, .vrm, .vrma (or a .gltf with embedded buffers)
 * @param scene the shared scene
 * @param options clip name (glTF sources) and frame rate
 */
export async function LoadSourceIntoSceneAsync(file: string, scene: Scene, options: ILoadSourceIntoSceneOptions = {}): Promise<ISourceInScene> {
    if (GetRigFileFormat(file) === "bvh") {
        const source = await LoadRigFromFileAsync(file);
        const avatar = BuildHumanoidAvatar(source.rig);
        const poses = new BvhPoseSource(source.bvh!);
        const frameRate = options.frameRate ?? poses.frameRate;
        const clipName = poses.name;
        const made = CreateTransformNodesFromRig(source.rig, scene, { prefix: SOURCE_NODE_PREFIX });
        const group = CreateAnimationGroupFromRigPoses(clipName, made.nodes, poses, source.rig, scene, { frameRate });
        return { avatar, nodes: made.nodes, group, clipName, frameRate, durationSeconds: poses.durationSeconds };
    }
    const source = await loadGltfSourceAsync(file, scene, options.clip);
    return { ...source, frameRate: options.frameRate ?? source.frameRate };
}

/**
 * Loads a glTF-format source (GLB, VRM, VRMA, a .gltf with embedded buffers) into the target's
 * scene: the rig and avatar from its own load, the nodes and clips from a second load into the
 * shared scene (Babylon's retargeting plays source and target together), every node's name
 * prefixed with {@link SOURCE_NODE_PREFIX}.
 */
async function loadGltfSourceAsync(file: string, scene: Scene, clip: string | undefined): Promise<ISourceInScene> {
    const own = await LoadRigFromFileAsync(file);
    try {
        const avatar = BuildHumanoidAvatar(own.rig, { declaredBoneMap: own.declaredBoneMap });
        const ownGroups = own.container?.animationGroups ?? [];
        if (!ownGroups.length) throw new HumanoidError("CONVERT", `${file}: the file has no animations to retarget`);
        const ownGroup = clip === undefined ? ownGroups[0] : PickClipByName(ownGroups, clip, file);
        const groupIndex = ownGroups.indexOf(ownGroup);
        const poses = new AnimationGroupPoseSource(ownGroup, avatar, file);
        const bytes = new Uint8Array(await readFile(file));
        const format = GetRigFileFormat(file);
        let data: string | Uint8Array = bytes;
        if (format === "gltf") {
            const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: Array<{ uri?: string }> };
            if ((json.buffers ?? []).some((b) => typeof b?.uri === "string" && !b.uri.startsWith("data:"))) {
                throw new HumanoidError(
                    "UNSUPPORTED_FORMAT",
                    `${file}: a .gltf source with external buffers is not supported by the AnimatorAvatar baseline; use a .glb`,
                );
            }
            data = "data:" + new TextDecoder().decode(bytes);
        }
        let container;
        try {
            container = await LoadAssetContainerAsync(data, scene, {
                name: basename(file),
                pluginExtension: format === "gltf" ? ".gltf" : ".glb",
                pluginOptions: { gltf: { animationStartMode: GLTFLoaderAnimationStartMode.NONE, skipMaterials: true } },
            });
        } catch (e) {
            throw new HumanoidError("GLTF_PARSE", `${file}: Babylon's glTF loader failed: ${String((e as Error)?.message ?? e).slice(0, 400)}`);
        }
        container.addAllToScene();
        // Its names may be the target's too (a rig retargeted onto itself): Babylon matches by name.
        for (const n of container.transformNodes) n.name = SOURCE_NODE_PREFIX + n.name;
        const byIndex = new Map<number, TransformNode>();
        for (const n of container.transformNodes) {
            const i = GetGltfNodeIndex(n);
            if (i >= 0) byIndex.set(i, n);
        }
        const nodes = own.rig.joints.map((j) => (j.sourceIndex >= 0 ? byIndex.get(j.sourceIndex) : undefined));
        const group = container.animationGroups[groupIndex];
        if (!group || group.name !== ownGroup.name) throw new HumanoidError("GLTF_PARSE", `${file}: the clip '${ownGroup.name}' did not load again`);
        return {
            avatar,
            nodes,
            group,
            clipName: group.name,
            frameRate: poses.frameRate,
            durationSeconds: poses.durationSeconds,
            dispose: () => own.dispose(),
        };
    } catch (e) {
        own.dispose();
        throw e;
    }
}
