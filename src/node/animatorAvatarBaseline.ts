/**
 * The baseline the quality report compares against: Babylon's own retargeting,
 * `AnimatorAvatar.retargetAnimationGroup`, run on the same source clip and target character, and
 * the target's joint positions recorded frame by frame. Node only (reads files, NullEngine).
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import "@babylonjs/core/Animations/animatable.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { AnimatorAvatar, type IRetargetOptions } from "@babylonjs/core/Animations/animatorAvatar.js";
import { Bone } from "@babylonjs/core/Bones/bone.js";
import { Skeleton } from "@babylonjs/core/Bones/skeleton.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import type { Node } from "@babylonjs/core/node.js";
import { Scene } from "@babylonjs/core/scene.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import { FootFrontNodes } from "./footFrontNodes.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HumanBoneNames, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { ComputeRigWorldPose, type IRig, type IRigPose } from "../humanoid/rig.js";
import { GetGltfNodeIndex } from "../io/babylonRig.js";
import { AnimationGroupPoseSource } from "../io/animationGroupClip.js";
import { BvhPoseSource } from "../io/bvhClip.js";
import { CreateAnimationGroupFromRigPoses, CreateTransformNodesFromRig, RigPoseFrameCount } from "../io/rigNodes.js";
import { PickClipByName } from "./convertFile.js";
import { GetRigFileFormat, LoadRigFromFileAsync, type ILoadedRig } from "./loadFile.js";

/**
 * Which of `retargetAnimationGroup`'s root fixes the baseline asks for.
 * - `"none"`: `fixRootPosition: false`. The target's hips take the source's hips motion as a world
 *   transform applied to the target's rest, unscaled: strides keep the source's length, and a source
 *   whose rest has the hips at the origin (a CMU BVH) lifts the target by its hips height and swings
 *   it about that point.
 * - `"rootPosition"`: `fixRootPosition: true`, with the source's hips as `rootNodeName` and its
 *   left foot as `groundReferenceNodeName`: the target's hips go to their rest position plus the
 *   source's hips motion scaled by the ratio of the hips heights above the left foot at rest
 *   (target over source).
 * - `"rootPositionAndGround"`: also `fixGroundReference: true`: every frame, the hips are moved
 *   vertically so that the target's left foot is as high as the source's.
 *
 * The vertical axis is given as Y (rig space is Y-up); left to guess, Babylon takes the largest
 * component of hips minus foot at rest, which is X for a BVH whose zero pose has the legs along +X.
 */
export type AnimatorAvatarRootFix = "none" | "rootPosition" | "rootPositionAndGround";

/**
 * The root fix used by default, `"rootPositionAndGround"`: the fairest to Babylon. Measured on
 * the CMU, Bandai and Mixamo walks onto the X Bot, KayKit mannequin, RiggedFigure and VRM
 * skeleton: scaling the root motion makes feet slide 2 to 13 times less on the characters whose
 * proportions differ most (mannequin, RiggedFigure), the same on the X Bot, up to 1.8 times more on
 * the VRM (its hips joint sits below its thighs, so the hips-height ratio undershoots the leg ratio). The
 * ground fix only moves the body vertically, so it changes no horizontal drift, and it is what
 * puts the feet on the ground at all when the source's rest has its hips at the origin (CMU).
 */
export const DEFAULT_ANIMATOR_AVATAR_ROOT_FIX: AnimatorAvatarRootFix = "rootPositionAndGround";

/**
 * The rest poses Babylon transfers between (it moves each target bone by its source bone's world
 * rotation away from the source's rest, applied to the target's rest).
 * - `"file"`: the rests the files have (a glTF's node transforms, a BVH's zero pose with the hips
 *   at their OFFSET): Babylon as its users get it. A rest-pose difference (A-pose against T-pose,
 *   a BVH zero pose with every bone along +X) stays in every frame.
 * - `"tPose"`: source and target are both put in their avatars' reference T-poses first (this
 *   library's T-pose; the target's skeleton takes it as its rest), so Babylon transfers T-pose to
 *   T-pose: its method measured without the rest-pose handling it lacks.
 */
export type AnimatorAvatarRestPose = "file" | "tPose";

/**
 * The rest poses used by default, `"tPose"`: the fairest to Babylon, whose method assumes matching
 * rests. With the files' rests, a BVH zero pose that is no T-pose ruins every frame (the Bandai
 * files', every bone along +X: feet slide 20 leg lengths a second) and the CMU zero pose (legs
 * apart) makes feet slide 2.5 times more on the X Bot. Use `"file"` for what Babylon's users get.
 */
export const DEFAULT_ANIMATOR_AVATAR_REST_POSE: AnimatorAvatarRestPose = "tPose";

/** Options of {@link RetargetWithAnimatorAvatarAsync}. */
export interface IAnimatorAvatarBaselineOptions {
    /** For glTF sources: the name of the AnimationGroup to retarget. Default: the first. */
    clip?: string;
    /** Frames per second of the recorded grid. Default: the source's own rate (a BVH's 1 / Frame Time, a glTF clip's key rate). */
    frameRate?: number;
    /**
     * Where the grid starts in the clip, seconds from its start (a muscle clip's
     * `sourceStartSeconds`, so that both record the same frames). Default 0.
     */
    startSeconds?: number;
    /** The most frames to record (a muscle clip's `frameCount`, where its conversion left a held pose out at the end). Default: to the clip's end. */
    frameCount?: number;
    /** Root fix to ask `retargetAnimationGroup` for. Default {@link DEFAULT_ANIMATOR_AVATAR_ROOT_FIX}. */
    rootFix?: AnimatorAvatarRootFix;
    /** Rest poses to transfer between. Default {@link DEFAULT_ANIMATOR_AVATAR_REST_POSE}. */
    restPose?: AnimatorAvatarRestPose;
    /**
     * The fronts of the target's feet that end at their ankles, in the feet's own frames, to record
     * (`footFronts`; `FootFrontOffsets` of the avatar the recording is measured on, whose T-pose may
     * be another than the default this baseline builds). Default: the baseline's own avatar's.
     */
    footFrontOffsets?: readonly (Vector3 | null)[];
}

/** Babylon's retargeting of one clip onto one character, recorded on a fixed grid. */
export interface IBaselineRetarget {
    /** The source file, as given. */
    readonly sourceFile: string;
    /** The target file, as given. */
    readonly targetFile: string;
    /** The clip's name (the BVH file's base name, or the AnimationGroup's name). */
    readonly clipName: string;
    /** Frames per second of the recording. */
    readonly frameRate: number;
    /**
     * Frames recorded: frame `f` is the clip at `min(start + f / frameRate, durationSeconds)`
     * seconds, `start` the option's `startSeconds` (the muscle conversion's grid for the same rate).
     */
    readonly frameCount: number;
    /** The source clip's length, seconds. */
    readonly durationSeconds: number;
    /** The source skeleton's avatar (its bone map chose the node names Babylon was given). */
    readonly sourceAvatar: HumanoidAvatar;
    /** The target character's avatar: its rig's joints are the ones recorded (feet, leg lengths...). */
    readonly targetAvatar: HumanoidAvatar;
    /**
     * Per frame, the world position of every joint of `targetAvatar.rig` (3 floats per joint, in the
     * rig's joint order), metres, rig space (= Babylon world positions: the glTF loader's handedness
     * mirror changes orientations, not where points are).
     */
    readonly jointWorldPositions: Float32Array[];
    /**
     * Per frame, where the fronts of the target's feet that end at their ankles are (6 floats, the
     * left's then the right's, as {@link jointWorldPositions}; NaN for a foot without one; see
     * `FootFrontOffsets`, {@link IAnimatorAvatarBaselineOptions.footFrontOffsets}); undefined when
     * no foot of the target has such a front. Followed by child nodes under the target's feet,
     * which {@link dispose} takes away with the rest.
     */
    readonly footFronts?: Float32Array[];
    /** The `mapNodeNames` given to Babylon: source node name -> target node name. */
    readonly mapNodeNames: ReadonlyMap<string, string>;
    /** Human bones mapped on both avatars, whose source node is in `mapNodeNames`. */
    readonly mappedBones: readonly HumanBone[];
    /** Tracks (targeted animations) of the source group and of Babylon's retargeted group. */
    readonly trackCounts: {
        /** Targeted animations of the source group. */
        readonly source: number;
        /** Targeted animations of the group Babylon's retarget made (tracks it could not match are dropped). */
        readonly retargeted: number;
    };
    /** The root fix used. */
    readonly rootFix: AnimatorAvatarRootFix;
    /** The rest poses used. */
    readonly restPose: AnimatorAvatarRestPose;
    /** What went wrong or was worked around: Babylon's own warnings (summarized), skeletons made for it, bones it cannot drive. */
    readonly warnings: readonly string[];
    /** The scene that holds both characters and both groups (NullEngine); alive until `dispose`. */
    readonly scene: Scene;
    /** Babylon's retargeted group, on the target's nodes. */
    readonly group: AnimationGroup;
    /** Frees the engines and scenes. */
    dispose(): void;
}

/** Name prefix of the source's nodes in the shared scene, so that a rig retargeted onto itself keeps two sets of names. */
export const SOURCE_NODE_PREFIX = "SRC_";

/** Longest list of names in one warning. */
const WARN_NAMES = 12;

function listNames(names: string[]): string {
    return names.length > WARN_NAMES ? `${names.slice(0, WARN_NAMES).join(", ")} and ${names.length - WARN_NAMES} more` : names.join(", ");
}

/** The topmost ancestor of a node (a glTF file's `__root__`). */
function topOf(node: TransformNode): TransformNode {
    let n: Node = node;
    while (n.parent) n = n.parent;
    return n as TransformNode;
}

/**
 * A Babylon skeleton whose bones are linked to a rig's nodes (rest = the nodes' current local
 * transforms), for characters with no skinned mesh, where `AnimatorAvatar` finds no skeleton.
 */
function makeLinkedSkeleton(name: string, nodes: readonly TransformNode[], parents: readonly number[], scene: Scene): Skeleton {
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
 */
function setNodesToRigPose(nodes: readonly (TransformNode | undefined)[], rig: IRig, pose: IRigPose): (Matrix | undefined)[] {
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

/** Babylon's retargeting warnings, one line per kind, with the dropped nodes named. */
function summarizeBabylonWarnings(messages: string[]): string[] {
    const dropped: string[] = [];
    const other = new Set<string>();
    for (const m of messages) {
        const d = /"(.*)" bone not found in any skeleton of avatar: animation removed/.exec(m);
        if (d) dropped.push(d[1]);
        else other.add(`AnimatorAvatar: ${m.replace(/^RetargetAnimationGroup - /, "")}`);
    }
    const out: string[] = [];
    if (dropped.length) {
        const names = [...new Set(dropped)].sort();
        out.push(`AnimatorAvatar dropped ${dropped.length} tracks of ${names.length} source nodes it found no target bone for: ${listNames(names)}`);
    }
    return [...out, ...other];
}

/** A loaded glTF-format source in the shared scene: its avatar, the node behind every rig joint, and the clip. */
interface ISourceInScene {
    readonly avatar: HumanoidAvatar;
    readonly nodes: readonly (TransformNode | undefined)[];
    readonly group: AnimationGroup;
    readonly frameRate: number;
    readonly durationSeconds: number;
    readonly dispose: () => void;
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
        return { avatar, nodes, group, frameRate: poses.frameRate, durationSeconds: poses.durationSeconds, dispose: () => own.dispose() };
    } catch (e) {
        own.dispose();
        throw e;
    }
}

/**
 * Retargets a clip onto a character with Babylon's `AnimatorAvatar.retargetAnimationGroup` and
 * records the character's joint positions frame by frame: the baseline our retargeting is
 * measured against.
 *
 * - The target (GLB, glTF, VRM, or a BVH skeleton) is read with `LoadRigFromFileAsync` and mapped
 *   with `BuildHumanoidAvatar` (a VRM's own map trusted). A BVH target gets nodes from
 *   `CreateTransformNodesFromRig`. A target with no skinned mesh (a skeleton-only VRM, a BVH) gives
 *   `AnimatorAvatar` no skeleton; a `Skeleton` linked to its joint nodes is made for it (and said in
 *   `warnings`).
 * - The source is a BVH file (nodes and an AnimationGroup made in the target's scene from its
 *   poses, with `CreateTransformNodesFromRig` and `CreateAnimationGroupFromRigPoses`) or a
 *   GLB/VRM/VRMA with clips (loaded a second time into the target's scene, its nodes renamed with
 *   {@link SOURCE_NODE_PREFIX}).
 * - `mapNodeNames` maps the source node of every human bone mapped on both avatars to the target's
 *   node of that bone; other animated source nodes whose name the target's skeleton also has (same
 *   rig family: twist, toe-end, CMU's hip joints) map to it too, as Babylon's name matching would.
 * - Source and target are put at their rests (`options.restPose`, default
 *   {@link DEFAULT_ANIMATOR_AVATAR_REST_POSE}: both avatars' reference T-poses) and Babylon is called
 *   with `retargetAnimationKeys` on and the root fix of `options.rootFix` (default
 *   {@link DEFAULT_ANIMATOR_AVATAR_ROOT_FIX}: `fixRootPosition` and `fixGroundReference`, the
 *   source's hips and left foot as root and ground reference, Y up).
 * - The retargeted group is started, paused and sent with `goToFrame` to each frame of the grid,
 *   and every target joint's world position is read.
 *
 * Retargeting a file onto itself reproduces its joint positions within a few micrometres (a test
 * checks it), so what differs on other pairs is Babylon's method.
 *
 * Throws a {@link HumanoidError} naming the file: unreadable or unsupported files, non-humanoid
 * skeletons, no clip, no bone Babylon can drive. Babylon's log output is silenced meanwhile.
 * @param sourceFile the clip: .bvh, .glb, .vrm, .vrma (or a .gltf with embedded buffers)
 * @param targetFile the character: .glb, .gltf, .vrm or .bvh
 * @param options clip name (glTF sources), frame rate, start and frames, root fix, rest poses
 */
export async function RetargetWithAnimatorAvatarAsync(
    sourceFile: string,
    targetFile: string,
    options: IAnimatorAvatarBaselineOptions = {},
): Promise<IBaselineRetarget> {
    const rootFix = options.rootFix ?? DEFAULT_ANIMATOR_AVATAR_ROOT_FIX;
    const restPose = options.restPose ?? DEFAULT_ANIMATOR_AVATAR_REST_POSE;
    if (!["file", "tPose"].includes(restPose)) {
        throw new HumanoidError("BAD_OPTION", `${sourceFile}: restPose must be "file" or "tPose", got ${JSON.stringify(restPose)}`);
    }
    if (!["none", "rootPosition", "rootPositionAndGround"].includes(rootFix)) {
        throw new HumanoidError(
            "BAD_OPTION",
            `${sourceFile}: rootFix must be "none", "rootPosition" or "rootPositionAndGround", got ${JSON.stringify(rootFix)}`,
        );
    }
    if (options.frameRate !== undefined && !(options.frameRate > 0 && options.frameRate <= 10_000)) {
        throw new HumanoidError("BAD_OPTION", `${sourceFile}: frame rate must be a number of frames per second in (0, 10000], not ${options.frameRate}`);
    }
    const start = options.startSeconds ?? 0;
    if (!(start >= 0 && start < Infinity)) {
        throw new HumanoidError("BAD_OPTION", `${sourceFile}: startSeconds must be a number of seconds >= 0, not ${options.startSeconds}`);
    }
    if (options.frameCount !== undefined && !(Number.isInteger(options.frameCount) && options.frameCount >= 1)) {
        throw new HumanoidError("BAD_OPTION", `${sourceFile}: frameCount must be a whole number >= 1, not ${options.frameCount}`);
    }
    const sourceFormat = GetRigFileFormat(sourceFile);
    GetRigFileFormat(targetFile);
    const saved = { log: Logger.Log, warn: Logger.Warn };
    const babylonWarnings: string[] = [];
    Logger.Log = () => undefined;
    Logger.Warn = (message: string | unknown[]) => void babylonWarnings.push(String(message));
    const disposers: Array<() => void> = [];
    const disposeAll = (): void => {
        for (const d of disposers.splice(0).reverse()) d();
    };
    try {
        const warnings: string[] = [];
        // The target, its scene and the node of every rig joint (feet kept beside the legs for IK
        // moved under them, as the runtime's target loads).
        const target: ILoadedRig = await LoadRigFromFileAsync(targetFile, { attachDetachedFeet: true });
        disposers.push(() => target.dispose());
        const targetAvatar = BuildHumanoidAvatar(target.rig, { declaredBoneMap: target.declaredBoneMap });
        let scene: Scene;
        let targetNodes: readonly TransformNode[];
        let targetRoot: TransformNode;
        if (target.binding && target.container) {
            scene = target.container.scene;
            target.container.addAllToScene();
            targetNodes = target.binding.nodes;
            targetRoot = topOf(targetNodes[0]);
        } else {
            const engine = new NullEngine();
            scene = new Scene(engine);
            disposers.push(() => {
                scene.dispose();
                engine.dispose();
            });
            const made = CreateTransformNodesFromRig(target.rig, scene);
            targetNodes = made.nodes;
            targetRoot = made.root;
        }
        // The fronts of feet that end at their ankles, followed by child nodes under the feet until
        // the baseline is disposed.
        const fronts = new FootFrontNodes(targetAvatar, targetNodes, options.footFrontOffsets);
        disposers.push(() => fronts.dispose());

        // The source, in the same scene, at rest.
        let sourceAvatar: HumanoidAvatar;
        let sourceNodes: readonly (TransformNode | undefined)[];
        let group: AnimationGroup;
        let rate: number;
        let durationSeconds: number;
        let clipName: string;
        if (sourceFormat === "bvh") {
            const source = await LoadRigFromFileAsync(sourceFile);
            sourceAvatar = BuildHumanoidAvatar(source.rig);
            const poses = new BvhPoseSource(source.bvh!);
            rate = options.frameRate ?? poses.frameRate;
            durationSeconds = poses.durationSeconds;
            clipName = poses.name;
            const made = CreateTransformNodesFromRig(source.rig, scene, { prefix: SOURCE_NODE_PREFIX });
            sourceNodes = made.nodes;
            group = CreateAnimationGroupFromRigPoses(clipName, made.nodes, poses, source.rig, scene, { frameRate: rate });
        } else {
            const source = await loadGltfSourceAsync(sourceFile, scene, options.clip);
            disposers.push(source.dispose);
            sourceAvatar = source.avatar;
            sourceNodes = source.nodes;
            group = source.group;
            rate = options.frameRate ?? source.frameRate;
            durationSeconds = source.durationSeconds;
            clipName = group.name;
        }

        // Babylon's avatar, with a skeleton of its own when the character has no skinned mesh.
        const animator = new AnimatorAvatar("AnimatorAvatarBaseline", targetRoot, false, false);
        if (!animator.skeletons.size) {
            animator.skeletons.add(
                makeLinkedSkeleton(
                    "AnimatorAvatarBaseline",
                    targetNodes,
                    target.rig.joints.map((j) => j.parent),
                    scene,
                ),
            );
            warnings.push(
                `${targetFile}: no skinned mesh, so AnimatorAvatar finds no skeleton; one linked to its ${targetNodes.length} joint nodes was made for it`,
            );
        }
        if (restPose === "tPose") {
            // Both at their T-poses; the target's skeleton takes its T-pose as its rest, since Babylon returns it to rest.
            setNodesToRigPose(sourceNodes, sourceAvatar.rig, sourceAvatar.referencePose);
            const locals = setNodesToRigPose(targetNodes, targetAvatar.rig, targetAvatar.referencePose);
            const index = new Map<TransformNode, number>(targetNodes.map((n, i) => [n, i]));
            for (const s of animator.skeletons) {
                for (const b of s.bones) {
                    const i = index.get(b.getTransformNode() as TransformNode);
                    if (i !== undefined && locals[i]) b.setRestMatrix(locals[i]!);
                }
            }
        }
        // How many joint nodes go by each name. A character whose meshes have a skin each over the
        // same joints (three.js's RobotExpressive) has a skeleton per skin, their bones linked to
        // the same nodes: one node, driven once (counted per bone, every human bone of it had "N
        // bones of that name" and AnimatorAvatar drove none).
        const boneNodes = new Map<string, number>();
        const seen = new Set<TransformNode>();
        for (const s of animator.skeletons) {
            for (const b of s.bones) {
                const n = b.getTransformNode();
                if (!n || seen.has(n)) continue;
                seen.add(n);
                boneNodes.set(n.name, (boneNodes.get(n.name) ?? 0) + 1);
            }
        }

        // mapNodeNames: human bones first, then same-named nodes of one rig family.
        const mapNodeNames = new Map<string, string>();
        const mappedBones: HumanBone[] = [];
        const undrivable: string[] = [];
        for (let b = 0 as HumanBone; b < HUMAN_BONE_COUNT; b++) {
            const sj = sourceAvatar.getJoint(b);
            const tj = targetAvatar.getJoint(b);
            if (sj < 0 || tj < 0 || !sourceNodes[sj]) continue;
            const targetName = targetNodes[tj].name;
            const count = boneNodes.get(targetName) ?? 0;
            if (count !== 1) {
                undrivable.push(`${HumanBoneNames[b]} ('${targetName}'${count ? `, ${count} bones of that name` : ", not a skin joint"})`);
                continue;
            }
            mapNodeNames.set(sourceNodes[sj]!.name, targetName);
            mappedBones.push(b);
        }
        if (undrivable.length) warnings.push(`${targetFile}: AnimatorAvatar cannot drive these human bones: ${listNames(undrivable)}`);
        if (!mappedBones.length) {
            throw new HumanoidError("CONVERT", `${targetFile}: AnimatorAvatar can drive none of the human bones mapped on both skeletons (${sourceFile})`);
        }
        const targetsTaken = new Set(mapNodeNames.values());
        for (const ta of group.targetedAnimations) {
            const name = (ta.target as TransformNode)?.name;
            if (typeof name !== "string" || mapNodeNames.has(name)) continue;
            const own = name.slice(SOURCE_NODE_PREFIX.length);
            if (boneNodes.get(own) === 1 && !targetsTaken.has(own)) {
                mapNodeNames.set(name, own);
                targetsTaken.add(own);
            }
        }

        // Retarget.
        const retargetOptions: IRetargetOptions = { mapNodeNames, retargetAnimationKeys: true, fixRootPosition: false };
        if (rootFix !== "none") {
            const hips = sourceNodes[sourceAvatar.getJoint(HumanBone.Hips)];
            const foot = sourceNodes[sourceAvatar.getJoint(HumanBone.LeftFoot)];
            retargetOptions.fixRootPosition = true;
            retargetOptions.fixGroundReference = rootFix === "rootPositionAndGround";
            retargetOptions.rootNodeName = hips?.name;
            retargetOptions.groundReferenceNodeName = foot?.name;
            // Rig space is Y-up. Left to guess, Babylon takes the largest component of hips - foot
            // in the source's rest, which is X for a BVH whose zero pose has the legs along +X (Bandai).
            retargetOptions.groundReferenceVerticalAxis = "Y";
        }
        const retargeted = animator.retargetAnimationGroup(group, retargetOptions);
        warnings.push(...summarizeBabylonWarnings(babylonWarnings.splice(0)));
        if (!retargeted.targetedAnimations.length) {
            throw new HumanoidError("CONVERT", `${targetFile}: AnimatorAvatar kept no track of ${sourceFile}`);
        }

        // Play it on the grid and record the target's joints.
        if (start > durationSeconds) {
            throw new HumanoidError("BAD_OPTION", `${sourceFile}: startSeconds ${start} is past the clip's end (${durationSeconds} s)`);
        }
        const frameCount = Math.min(RigPoseFrameCount(durationSeconds - start, rate), options.frameCount ?? Infinity);
        const fps = retargeted.targetedAnimations[0].animation.framePerSecond;
        const from = group.from;
        const n = target.rig.joints.length;
        const jointWorldPositions: Float32Array[] = [];
        const footFronts: Float32Array[] = [];
        retargeted.start(false, 1, retargeted.from, retargeted.to);
        retargeted.pause();
        for (let f = 0; f < frameCount; f++) {
            retargeted.goToFrame(from + Math.min(start + f / rate, durationSeconds) * fps);
            const out = new Float32Array(3 * n);
            for (let j = 0; j < n; j++) {
                const p = targetNodes[j].computeWorldMatrix(true).getTranslation();
                out[3 * j] = p.x;
                out[3 * j + 1] = p.y;
                out[3 * j + 2] = p.z;
            }
            jointWorldPositions.push(out);
            if (fronts.any) footFronts.push(fronts.readInto(new Float32Array(6)));
        }
        retargeted.stop();
        warnings.push(...summarizeBabylonWarnings(babylonWarnings.splice(0)));
        return {
            sourceFile,
            targetFile,
            clipName,
            frameRate: rate,
            frameCount,
            durationSeconds,
            sourceAvatar,
            targetAvatar,
            jointWorldPositions,
            ...(footFronts.length ? { footFronts } : {}),
            mapNodeNames,
            mappedBones,
            trackCounts: { source: group.targetedAnimations.length, retargeted: retargeted.targetedAnimations.length },
            rootFix,
            restPose,
            warnings,
            scene,
            group: retargeted,
            dispose: disposeAll,
        };
    } catch (e) {
        disposeAll();
        throw e;
    } finally {
        Logger.Log = saved.log;
        Logger.Warn = saved.warn;
    }
}
