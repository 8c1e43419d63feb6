// Joint limits as decode applies them: the hook that limits each bone's rotation
// (`ICanonicalRotationLimiter`, which `JointLimits` implements), and the pass that calls it bone by
// bone, handing what a trunk bone's or a shoulder's limits take off on to its children.
import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { MuscleSetup } from "./setup.js";

/**
 * What limits bone rotations as decode builds them (`JointLimits` implements it): called once per
 * mapped bone below the hips, parents first, after the twist shares and missing bones are settled
 * and before the body is placed. What it takes off a spine bone, the neck or a shoulder is handed
 * on to that bone's children before they are limited (see `DecodeHumanPose`), so a child's `q` may
 * differ from its muscles' rotation. Must not allocate or throw.
 */
export interface ICanonicalRotationLimiter {
    /**
     * Per human bone, 0 where {@link clampCanonicalToRef} leaves the rotation as it is (returns
     * false, writes `out` only when it is not `q`): decode then does not call it for that bone.
     * Optional: without it, every mapped bone is handed over.
     */
    readonly enabled?: Uint8Array;
    /**
     * Writes the bone's rotation within its limits into `out` (may be `q`); returns whether it changed.
     * @param bone the human bone
     * @param q its rotation from its T-pose relative to its mapped human parent, canonical axes
     * @param out receives the limited rotation
     */
    clampCanonicalToRef(bone: HumanBone, q: Quaternion, out: Quaternion): boolean;
    /**
     * Optional: a softer limit for the bones that hand what their limits take off on to their
     * children (spine, chest, upper chest, neck, shoulders): a rotation within its limits that
     * eases in before it reaches them (as `JointLimits.softLimitCanonicalToRef`), so that a
     * motion running into a limit does not stop on it in one frame. Without it, those bones are
     * clamped too. Same arguments and result as {@link clampCanonicalToRef}.
     * @param bone the human bone
     * @param q its rotation from its T-pose relative to its mapped human parent, canonical axes
     * @param out receives the limited rotation
     */
    softLimitCanonicalToRef?(bone: HumanBone, q: Quaternion, out: Quaternion): boolean;
    /**
     * Optional: the limit for every other bone (limbs, head, hands, feet...), which may let a bone
     * go a little past its limits, easing into them (as `JointLimits.giveCanonicalToRef`: an
     * elbow past straight), so that a motion running past a limit has no kink where it crosses.
     * Without it, those bones are clamped. Same arguments and result as {@link clampCanonicalToRef}.
     * @param bone the human bone
     * @param q its rotation from its T-pose relative to its mapped human parent, canonical axes
     * @param out receives the limited rotation
     */
    giveCanonicalToRef?(bone: HumanBone, q: Quaternion, out: Quaternion): boolean;
}

/**
 * The bones whose rotation, as far as their limits take it off, goes on to their human children
 * (the spine's bones, the neck and the shoulders): the children keep the world rotation the
 * unlimited pose gave them, within their own limits. Mocap often puts a motion into a bone that a
 * humanoid's ranges give partly to its neighbour (a shoulder shrugged 45 degrees, a chest bent
 * further than its range while the spine stays straight); held bone by bone, the arm or head above
 * would point elsewhere than the source's (with every bone held, the right arm of a child's jump
 * onto the X Bot was 0.88 degrees off the source's, 0.19 with the hand-on as without limits). Limbs
 * hand nothing on: a limited knee or elbow is a different pose, not a different split of the same
 * one. Only here, as decode builds the pose: the pass after IK (`JointLimits.clampRigPoseInPlace`)
 * clamps each bone on its own.
 */
const HANDS_ON_EXCESS: Uint8Array = (() => {
    const m = new Uint8Array(HUMAN_BONE_COUNT);
    for (const b of [HumanBone.Spine, HumanBone.Chest, HumanBone.UpperChest, HumanBone.Neck, HumanBone.LeftShoulder, HumanBone.RightShoulder]) m[b] = 1;
    return m;
})();
/** Per bone, while limits are applied: the rotation its limits took off it (`Q'^-1 Q`), and whether there is one. */
const excess: Quaternion[] = Array.from({ length: HUMAN_BONE_COUNT }, () => new Quaternion());
const hasExcess = new Uint8Array(HUMAN_BONE_COUNT);
const unlimited = new Quaternion();

/**
 * Limits every held bone's canonical rotation `q[b]` (parents first), and hands what a
 * {@link HANDS_ON_EXCESS} bone's limits took off on to its children: with `L_b` the limited
 * rotation of such a bone b, each child c's `Q_c` becomes `L_b^-1 Q_b Q_c`, so that
 * `Dc_c = Dc(parent of b) L_b (L_b^-1 Q_b Q_c) = Dc(parent of b) Q_b Q_c` is what the unlimited pose
 * gave it; then the child's own limit applies (and a child that hands on passes the sum on).
 * Allocation-free; called by `DecodeHumanPose` once the twist shares and missing bones are settled.
 * @param setup the avatar's muscle setup (its joints and mapped parents)
 * @param q every bone's rotation relative to its mapped human parent, canonical axes: limited in place
 * @param limits what limits each bone
 */
export function LimitBonesInPlace(setup: MuscleSetup, q: Quaternion[], limits: ICanonicalRotationLimiter): void {
    const held = limits.enabled;
    const joint = setup.joint;
    const parent = setup.parentBone;
    hasExcess.fill(0);
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        if (joint[b] < 0) continue;
        const p = parent[b];
        if (p >= 0 && hasExcess[p]) QuaternionMultiplyToRef(excess[p], q[b], q[b]);
        if (held && !held[b]) continue;
        if (!HANDS_ON_EXCESS[b]) {
            if (limits.giveCanonicalToRef) limits.giveCanonicalToRef(b, q[b], q[b]);
            else limits.clampCanonicalToRef(b, q[b], q[b]);
            continue;
        }
        unlimited.copyFrom(q[b]);
        if (limits.softLimitCanonicalToRef ? limits.softLimitCanonicalToRef(b, q[b], q[b]) : limits.clampCanonicalToRef(b, q[b], q[b])) {
            QuaternionConjugateToRef(q[b], excess[b]);
            QuaternionMultiplyToRef(excess[b], unlimited, excess[b]);
            hasExcess[b] = 1;
        }
    }
}
