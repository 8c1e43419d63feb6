import { Animation } from "@babylonjs/core/Animations/animation.js";
import { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import type { IAnimationKey } from "@babylonjs/core/Animations/animationKey.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { MuscleSetup } from "../muscle/setup.js";
import { HumanoidAnimator } from "./humanoidAnimator.js";
import type { IHumanoidAnimatorOptions } from "./animatorOptions.js";
import type { HumanoidJointTarget, HumanoidTargets } from "./rigTargets.js";

/** Root motion modes a bake can record (`"delta"` hands motion to a caller each frame, which a baked clip cannot do). */
export type BakeRootMotionMode = "clip" | "in-place" | "apply";

/** What a bake measured, filled by {@link BakeMuscleClipToAnimationGroup} when passed as `options.stats`. */
export interface IBakeStats {
    /** Keys per animation (frames baked). */
    frames: number;
    /** Frames per second of the keys. */
    frameRate: number;
    /** Length of the baked group, seconds: `(frames - 1) / frameRate` (at least the clip's length). */
    durationSeconds: number;
    /** Largest distance left between a foot and its IK goal over the bake (metres, rig space); 0 with foot IK off. */
    maxFootErrorMetres: number;
    /** Largest squash-and-stretch factor any limb got over the bake (1 = rest length; at most 1 + stretch). */
    maxStretch: number;
    /** Frames in which some weighted limb goal was out of reach. */
    unreachableFrames: number;
    /** Animations made (`rotationQuaternion` and `position` tracks). */
    animationCount: number;
    /** Nodes (or bones) whose local position is keyed: the hips, stretched or squashed limb joints, the root in `"apply"` mode. */
    positionTrackCount: number;
}

/** Options of {@link BakeMuscleClipToAnimationGroup}. */
export interface IBakeMuscleClipOptions extends Pick<
    IHumanoidAnimatorOptions,
    "rigSpace" | "footIK" | "handIK" | "stretch" | "footPlanting" | "contactBlendSeconds" | "rootNode" | "proportions" | "translationDoF" | "jointLimits"
> {
    /** The scene object of every rig joint, in `avatar.rig.joints` order (null where there is none), as for `HumanoidAnimator`. */
    targets: HumanoidTargets;
    /** Scene of the new AnimationGroup. Default: the scene of the first target. */
    scene?: Scene;
    /** Frames per second of the keys (above 0, at most 10000). Default: the clip's own rate. */
    frameRate?: number;
    /** Name of the group (and prefix of its animations' names). Default: the clip's name. */
    name?: string;
    /**
     * What happens to the clip's travel. Default `"clip"`: the hips carry it (the character walks
     * away from its place and jumps back when the group loops). `"in-place"`: the body stays over
     * its start. `"apply"`: the travel moves the root node (`rootNode`, default the top ancestor of
     * the hips' node), which is keyed too.
     */
    rootMotion?: BakeRootMotionMode;
    /** Filled with what the bake measured (frames, IK reach, stretch). */
    stats?: IBakeStats;
}

/** Most frames per second a bake accepts (as the clip conversion). */
const MAX_BAKE_RATE = 10_000;
/** Frames short of a whole frame that still count as whole: clip lengths come from rounded BVH frame times (1/100 of a frame). */
const WHOLE_FRAME_SLACK = 0.01;
/** A local position is keyed when it leaves its value from before the bake by more than this share of its length (at least 1 µm in its units): float noise stays below. */
const MOVED_POSITION_EPSILON = 1e-6;

const BAKE_ROOT_MOTIONS: readonly BakeRootMotionMode[] = ["clip", "in-place", "apply"];

/** A target's local transform before the bake, to put back. */
interface ISavedTransform {
    readonly target: HumanoidJointTarget;
    readonly isNode: boolean;
    /** The node's own rotationQuaternion object (null when it used Euler angles). */
    readonly quaternionObject: Quaternion | null;
    readonly rotationQuaternion: Quaternion | null;
    readonly rotation: Vector3 | null;
    readonly position: Vector3;
}

function isNode(target: HumanoidJointTarget): target is TransformNode {
    return typeof (target as TransformNode).computeWorldMatrix === "function";
}

function save(target: HumanoidJointTarget): ISavedTransform {
    if (isNode(target)) {
        const q = target.rotationQuaternion;
        return {
            target,
            isNode: true,
            quaternionObject: q,
            rotationQuaternion: q ? q.clone() : null,
            rotation: target.rotation.clone(),
            position: target.position.clone(),
        };
    }
    return {
        target,
        isNode: false,
        quaternionObject: null,
        rotationQuaternion: target.rotationQuaternion.clone(),
        rotation: null,
        position: target.position.clone(),
    };
}

function restore(s: ISavedTransform): void {
    if (s.isNode) {
        const node = s.target as TransformNode;
        if (s.quaternionObject) {
            s.quaternionObject.copyFrom(s.rotationQuaternion!);
            node.rotationQuaternion = s.quaternionObject;
        } else {
            node.rotationQuaternion = null;
            node.rotation.copyFrom(s.rotation!);
        }
        node.position.copyFrom(s.position);
    } else {
        const bone = s.target;
        bone.rotationQuaternion = s.rotationQuaternion!;
        bone.position = s.position;
    }
}

/** The rotation of a target as a quaternion (a node with Euler angles converted). */
function rotationOf(target: HumanoidJointTarget, result: Quaternion): Quaternion {
    if (isNode(target) && !target.rotationQuaternion) return Quaternion.FromEulerVectorToRef(target.rotation, result);
    return result.copyFrom(target.rotationQuaternion!);
}

/** Name of a target for animation names. */
function nameOf(target: HumanoidJointTarget, index: number): string {
    return target.name || `joint${index}`;
}

/**
 * Bakes a muscle clip onto a character as a Babylon `AnimationGroup`: a {@link HumanoidAnimator}
 * (no scene) plays the clip once from its start, updated by hand at a fixed rate (the first update
 * 0 s, then `1 / frameRate` each), with the same foot and hand IK, squash-and-stretch and foot
 * planting it would do live, and every frame is recorded as keys:
 * - `rotationQuaternion` of every node the animator writes (the hips and every joint below them),
 *   `Animation.ANIMATIONTYPE_QUATERNION`, keys kept in one hemisphere from key to key;
 * - `position` of the nodes whose local position moves (the hips; limb joints when a limb
 *   stretches; the root node in `"apply"` mode), `ANIMATIONTYPE_VECTOR3`.
 *
 * Keys sit at whole frames, `framePerSecond` is the rate, and the group runs from frame 0 to the
 * last: frame `f` holds the pose at `min(f / frameRate, clip.durationSeconds)` seconds, so a clip
 * whose length is not a whole number of frames gets one more frame holding its end. Values are the
 * targets' own local transforms (what the animator writes), so the group plays on these targets
 * (or on nodes of the same file loaded again, once retargeted by name).
 *
 * Every target (and the root node) is put back to its local transform from before the bake, also
 * on error; nothing else is changed. Throws a {@link HumanoidError} `BAD_OPTION` naming the option
 * for a bad rate, root motion mode, IK weight or stretch, or targets that do not match the rig.
 * @param clip the clip to bake (played once, not looped)
 * @param avatar the character's avatar (built from the rig of `options.targets`)
 * @param options targets, scene, rate, name, root motion, IK, stretch, `stats` to fill
 * @returns the new group, in the scene, not started
 */
export function BakeMuscleClipToAnimationGroup(clip: MuscleClip, avatar: HumanoidAvatar, options: IBakeMuscleClipOptions): AnimationGroup {
    const what = clip.source ? `${clip.source} (${clip.name})` : clip.name;
    const targets = options?.targets;
    if (!targets || typeof targets.length !== "number") {
        throw new HumanoidError("BAD_OPTION", `${what}: options.targets must give the scene object of every rig joint (avatar.rig.joints order)`);
    }
    const rate = options.frameRate ?? clip.frameRate;
    if (!(Number.isFinite(rate) && rate > 0 && rate <= MAX_BAKE_RATE)) {
        throw new HumanoidError("BAD_OPTION", `${what}: frameRate must be a number of frames per second above 0 and at most ${MAX_BAKE_RATE} (got ${rate})`);
    }
    const rootMotion = options.rootMotion ?? "clip";
    if (!BAKE_ROOT_MOTIONS.includes(rootMotion)) {
        throw new HumanoidError("BAD_OPTION", `${what}: rootMotion must be "clip", "in-place" or "apply" for a bake (got ${JSON.stringify(rootMotion)})`);
    }
    const n = targets.length;
    const first = targets.find((t): t is HumanoidJointTarget => !!t);
    const scene = options.scene ?? (first && isNode(first) ? first.getScene() : first?.getSkeleton().getScene());
    if (!scene) throw new HumanoidError("BAD_OPTION", `${what}: options.scene is needed when no target belongs to a scene`);
    const duration = clip.durationSeconds;
    const frames = Math.max(1, Math.ceil(duration * rate - WHOLE_FRAME_SLACK) + 1);
    const name = options.name ?? clip.name;

    // The root node "apply" moves: the caller's, else the top node above the hips (as the animator picks it).
    const hipsTarget = targets[avatar.getJoint(HumanBone.Hips)];
    let root: TransformNode | null = options.rootNode ?? null;
    if (!root && hipsTarget && isNode(hipsTarget)) {
        root = hipsTarget;
        while (root.parent && isNode(root.parent as TransformNode)) root = root.parent as TransformNode;
    }

    // Everything the animator may touch, saved before it is made (it turns Euler rotations into quaternions).
    const saved: ISavedTransform[] = [];
    const seen = new Set<HumanoidJointTarget>();
    for (const t of targets) {
        if (t && !seen.has(t)) {
            seen.add(t);
            saved.push(save(t));
        }
    }
    const rootIsJoint = !!root && seen.has(root);
    if (root && !rootIsJoint) saved.push(save(root));

    let group: AnimationGroup | null = null;
    let animator: HumanoidAnimator | null = null;
    try {
        animator = new HumanoidAnimator(avatar, targets, {
            rootMotion,
            rootNode: root ?? undefined,
            footIK: options.footIK,
            handIK: options.handIK,
            stretch: options.stretch,
            footPlanting: options.footPlanting,
            jointLimits: options.jointLimits,
            contactBlendSeconds: options.contactBlendSeconds,
            rigSpace: options.rigSpace,
            proportions: options.proportions,
            translationDoF: options.translationDoF,
        });
        // Tracked: one slot per rig joint, then the root when it is not a joint.
        const tracked: Array<HumanoidJointTarget | null> = targets.map((t) => t ?? null);
        if (root && !rootIsJoint) tracked.push(root);
        const count = tracked.length;
        const rotations = tracked.map((t) => (t ? new Float64Array(frames * 4) : null));
        const positions = tracked.map((t) => (t ? new Float64Array(frames * 3) : null));
        const before = tracked.map((t) => (t ? { q: rotationOf(t, new Quaternion()), p: t.position.clone() } : null));
        // Rotations keyed: every joint the animator writes (decode places the hips and all below them)...
        const keyRotation = new Array<boolean>(count).fill(false);
        const setup = MuscleSetup.For(avatar);
        for (const j of setup.fkJoints) if (setup.belowHips[j] && tracked[j]) keyRotation[j] = true;
        // ...and the root in "apply" mode; anything else that turns is found below.
        if (rootMotion === "apply" && root) keyRotation[rootIsJoint ? tracked.indexOf(root) : n] = true;
        const keyPosition = new Array<boolean>(count).fill(false);

        const status = animator.solver.status;
        const footWeights = animator.solver.positionWeights;
        let maxFootError = 0;
        let maxStretch = 1;
        let unreachableFrames = 0;
        const q = new Quaternion();
        animator.play(clip, { loop: false });
        for (let f = 0; f < frames; f++) {
            animator.update(f === 0 ? 0 : 1 / rate);
            let unreachable = false;
            for (let g = 0; g < 4; g++) {
                const s = status[g];
                if (s.stretch > maxStretch) maxStretch = s.stretch;
                if (s.unreachable) unreachable = true;
                if (g < 2 && footWeights[g] > 0 && s.error > maxFootError) maxFootError = s.error;
            }
            if (unreachable) unreachableFrames++;
            for (let i = 0; i < count; i++) {
                const t = tracked[i];
                if (!t) continue;
                const b = before[i]!;
                rotationOf(t, q);
                // One hemisphere from key to key (from the pose before the bake for the first).
                const r = rotations[i]!;
                const pdot = f === 0 ? Quaternion.Dot(q, b.q) : q.x * r[4 * f - 4] + q.y * r[4 * f - 3] + q.z * r[4 * f - 2] + q.w * r[4 * f - 1];
                if (pdot < 0) q.scaleInPlace(-1);
                r[4 * f] = q.x;
                r[4 * f + 1] = q.y;
                r[4 * f + 2] = q.z;
                r[4 * f + 3] = q.w;
                if (!keyRotation[i] && Math.abs(Math.abs(Quaternion.Dot(q, b.q)) - 1) > 1e-12) keyRotation[i] = true;
                const p = t.position;
                const pa = positions[i]!;
                pa[3 * f] = p.x;
                pa[3 * f + 1] = p.y;
                pa[3 * f + 2] = p.z;
                if (!keyPosition[i] && Vector3.Distance(p, b.p) > MOVED_POSITION_EPSILON * Math.max(1, b.p.length())) keyPosition[i] = true;
            }
        }
        if (rootMotion === "apply" && root) keyPosition[rootIsJoint ? tracked.indexOf(root) : n] = true;

        group = new AnimationGroup(name, scene);
        let animationCount = 0;
        let positionTracks = 0;
        for (let i = 0; i < count; i++) {
            const t = tracked[i];
            if (!t) continue;
            const label = nameOf(t, i);
            if (keyRotation[i]) {
                const r = rotations[i]!;
                const keys: IAnimationKey[] = new Array(frames);
                for (let f = 0; f < frames; f++) keys[f] = { frame: f, value: new Quaternion(r[4 * f], r[4 * f + 1], r[4 * f + 2], r[4 * f + 3]) };
                const a = new Animation(`${name}.${label}.rotationQuaternion`, "rotationQuaternion", rate, Animation.ANIMATIONTYPE_QUATERNION);
                a.setKeys(keys);
                group.addTargetedAnimation(a, t);
                animationCount++;
            }
            if (keyPosition[i]) {
                const pa = positions[i]!;
                const keys: IAnimationKey[] = new Array(frames);
                for (let f = 0; f < frames; f++) keys[f] = { frame: f, value: new Vector3(pa[3 * f], pa[3 * f + 1], pa[3 * f + 2]) };
                const a = new Animation(`${name}.${label}.position`, "position", rate, Animation.ANIMATIONTYPE_VECTOR3);
                a.setKeys(keys);
                group.addTargetedAnimation(a, t);
                animationCount++;
                positionTracks++;
            }
        }
        group.normalize(0, frames - 1);
        if (options.stats) {
            const st = options.stats;
            st.frames = frames;
            st.frameRate = rate;
            st.durationSeconds = (frames - 1) / rate;
            st.maxFootErrorMetres = maxFootError;
            st.maxStretch = maxStretch;
            st.unreachableFrames = unreachableFrames;
            st.animationCount = animationCount;
            st.positionTrackCount = positionTracks;
        }
        const done = group;
        group = null;
        return done;
    } finally {
        animator?.dispose();
        group?.dispose();
        for (const s of saved) restore(s);
    }
}

/** A zeroed {@link IBakeStats}, to pass as `options.stats`. */
export function CreateBakeStats(): IBakeStats {
    return {
        frames: 0,
        frameRate: 0,
        durationSeconds: 0,
        maxFootErrorMetres: 0,
        maxStretch: 1,
        unreachableFrames: 0,
        animationCount: 0,
        positionTrackCount: 0,
    };
}
