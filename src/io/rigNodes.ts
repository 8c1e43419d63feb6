import { Animation } from "@babylonjs/core/Animations/animation.js";
import { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { IRigPoseSource } from "../clip/convertOptions.js";
import { HumanoidError } from "../errors.js";
import { RigPoseFrameCount } from "../clip/frameGrid.js";
import { GetRigRestPose, RigJointKind, type IRig } from "../humanoid/rig.js";

/** Options of {@link CreateTransformNodesFromRig}. */
export interface ICreateRigNodesOptions {
    /** Put before every node's name (for example `"SRC_"`, to keep two rigs in one scene apart). Default `""`. */
    prefix?: string;
    /** The node to put the rig's top joints under. Default: a new node `<prefix>__rig__` at the origin. */
    root?: TransformNode;
}

/** Nodes made for a rig by {@link CreateTransformNodesFromRig}. */
export interface IRigTransformNodes {
    /** The node above the rig's top joints (the given root, or the new one). */
    readonly root: TransformNode;
    /** One node per rig joint, in the rig's joint order. */
    readonly nodes: readonly TransformNode[];
}

/**
 * Makes a Babylon node hierarchy for a rig: one `TransformNode` per joint (same order as
 * `rig.joints`), parented as in the rig, each at its joint's rest position, rotation
 * (`rotationQuaternion`) and scale. Rig space is Babylon's world space (left-handed, Y-up, metres),
 * so no handedness mirror is needed: under a root at the origin, the nodes' world transforms are
 * the rig's rest world transforms. Names are the joints' names with the prefix, `joint<N>` (N the
 * joint index) for joints without a name. The rig is not modified.
 * @param rig the skeleton
 * @param scene where to make the nodes
 * @param options name prefix, root node
 */
export function CreateTransformNodesFromRig(rig: IRig, scene: Scene, options: ICreateRigNodesOptions = {}): IRigTransformNodes {
    const prefix = options.prefix ?? "";
    const root = options.root ?? new TransformNode(`${prefix}__rig__`, scene);
    const nodes: TransformNode[] = [];
    rig.joints.forEach((j, i) => {
        const node = new TransformNode(`${prefix}${j.name || `joint${i}`}`, scene);
        node.position.copyFrom(j.restPosition);
        node.rotationQuaternion = j.restRotation.clone();
        node.scaling.copyFrom(j.restScale);
        node.parent = j.parent >= 0 ? nodes[j.parent] : root;
        nodes.push(node);
    });
    return { root, nodes };
}

/** What {@link CreateAnimationGroupFromRigPoses} reads: rig poses at any time (a `BvhPoseSource`, an `AnimationGroupPoseSource`...). */
export type IRigPoseSampler = Pick<IRigPoseSource, "samplePoseToRef" | "durationSeconds" | "frameRate">;

/** Options of {@link CreateAnimationGroupFromRigPoses}. */
export interface IRigPoseAnimationOptions {
    /** Frames per second of the keys. Default: the source's own rate. */
    frameRate?: number;
}

/** A joint's local position is animated when it moves further than this from its rest in some frame (metres; 1 µm, float noise). */
export const ANIMATED_POSITION_EPSILON = 1e-6;

/**
 * Samples a clip of rig poses on a fixed grid and makes a Babylon `AnimationGroup` of it: one
 * `rotationQuaternion` animation per joint (End Sites excepted: they never turn), and one
 * `position` animation for each joint whose local position leaves its rest (the hips of a walk).
 * Keys sit at whole frames: frame `f` holds the pose at `min(f / frameRate, durationSeconds)`
 * seconds, `framePerSecond` is the rate, and the group runs from 0 to the last frame. The grid is
 * the one the muscle-clip conversion uses for the same rate (the last step kept when it is nearly
 * whole), so frame `f` here is frame `f` of the converted clip.
 *
 * The values are rig-space local transforms, so `nodes` must hold rig-space local transforms too,
 * as the nodes of {@link CreateTransformNodesFromRig} do (not the nodes of a glTF file, which sit
 * below the loader's handedness mirror).
 * @param name the group's name
 * @param nodes one node per rig joint, in the rig's order
 * @param source the poses (for example `new BvhPoseSource(bvhRig)`)
 * @param rig the skeleton the poses belong to
 * @param scene where to make the group
 * @param options frame rate
 */
export function CreateAnimationGroupFromRigPoses(
    name: string,
    nodes: readonly TransformNode[],
    source: IRigPoseSampler,
    rig: IRig,
    scene: Scene,
    options: IRigPoseAnimationOptions = {},
): AnimationGroup {
    const rate = options.frameRate ?? source.frameRate;
    if (!(rate > 0 && rate <= 10_000)) {
        throw new HumanoidError("BAD_OPTION", `${rig.source}: frame rate must be a number of frames per second in (0, 10000], not ${rate}`);
    }
    if (nodes.length !== rig.joints.length) {
        throw new HumanoidError("BAD_OPTION", `${rig.source}: ${nodes.length} nodes given for ${rig.joints.length} joints`);
    }
    const duration = source.durationSeconds;
    if (!(duration >= 0) || !Number.isFinite(duration)) {
        throw new HumanoidError("CONVERT", `${rig.source}: the clip has no length (duration ${duration})`);
    }
    const frameCount = RigPoseFrameCount(duration, rate);
    const n = rig.joints.length;
    const pose = GetRigRestPose(rig);
    const rotations: Quaternion[][] = Array.from({ length: n }, () => []);
    const positions: Vector3[][] = Array.from({ length: n }, () => []);
    const moves = new Array<boolean>(n).fill(false);
    for (let f = 0; f < frameCount; f++) {
        source.samplePoseToRef(Math.min(f / rate, duration), pose);
        for (let j = 0; j < n; j++) {
            const q = pose.rotations[j].clone();
            // Keep consecutive keys in one hemisphere, so that no key-to-key blend goes the long way.
            const previous = f > 0 ? rotations[j][f - 1] : rig.joints[j].restRotation;
            if (Quaternion.Dot(previous, q) < 0) q.scaleInPlace(-1);
            rotations[j].push(q);
            positions[j].push(pose.positions[j].clone());
            if (!moves[j] && Vector3.Distance(pose.positions[j], rig.joints[j].restPosition) > ANIMATED_POSITION_EPSILON) moves[j] = true;
        }
    }
    const group = new AnimationGroup(name, scene);
    for (let j = 0; j < n; j++) {
        const node = nodes[j];
        if (rig.joints[j].kind !== RigJointKind.EndSite) {
            const a = new Animation(`${name}.${node.name}.rotationQuaternion`, "rotationQuaternion", rate, Animation.ANIMATIONTYPE_QUATERNION);
            a.setKeys(rotations[j].map((value, frame) => ({ frame, value })));
            group.addTargetedAnimation(a, node);
        }
        if (moves[j]) {
            const a = new Animation(`${name}.${node.name}.position`, "position", rate, Animation.ANIMATIONTYPE_VECTOR3);
            a.setKeys(positions[j].map((value, frame) => ({ frame, value })));
            group.addTargetedAnimation(a, node);
        }
    }
    return group;
}

export { RigPoseFrameCount } from "../clip/frameGrid.js";
