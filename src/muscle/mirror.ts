import type { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { TRANSLATION_DOF_COUNT, TranslationDofMirrors } from "./translationDof.js";
import { HUMAN_IK_GOAL_COUNT, type HumanPose } from "./humanPose.js";
import { ALL_MUSCLE_COUNT, MuscleMirrors } from "./muscles.js";

/** Scratch of {@link MirrorHumanPoseInPlace}: the muscle values before mirroring. */
const values = new Float32Array(ALL_MUSCLE_COUNT);

/** A vector mirrored across the body's middle plane in place: (x, y, z) -> (-x, y, z). */
function mirrorVector(v: Vector3): void {
    v.x = -v.x;
}

/** A rotation mirrored across the body's middle plane in place: (x, y, z, w) -> (x, -y, -z, w). */
function mirrorRotation(q: Quaternion): void {
    q.y = -q.y;
    q.z = -q.z;
}

/** Swaps two vectors' coordinates. */
function swapVectors(a: Vector3, b: Vector3): void {
    const x = a.x;
    const y = a.y;
    const z = a.z;
    a.x = b.x;
    a.y = b.y;
    a.z = b.z;
    b.x = x;
    b.y = y;
    b.z = z;
}

/** Swaps two quaternions' components. */
function swapRotations(a: Quaternion, b: Quaternion): void {
    const x = a.x;
    const y = a.y;
    const z = a.z;
    const w = a.w;
    a.x = b.x;
    a.y = b.y;
    a.z = b.z;
    a.w = b.w;
    b.x = x;
    b.y = y;
    b.z = z;
    b.w = w;
}

/**
 * Mirrors a pose across the body's middle plane (canonical x = 0) in place, as
 * `HumanPose.MirrorToRef` does into another pose: left and right muscles swap, the centre bones'
 * sideways and twist muscles change sign, the body's position and rotation, the hips, every
 * goal and every translation are mirrored, and the left and right goals and translations swap. Mirroring twice gives the pose back (to
 * the bit). The per-frame form: allocation-free (coordinates written one by one). Returns `pose`.
 */
export function MirrorHumanPoseInPlace(pose: HumanPose): HumanPose {
    const v = pose.values;
    values.set(v);
    for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
        const m = MuscleMirrors[i];
        v[m.muscle] = m.sign * values[i];
    }
    mirrorVector(pose.bodyPosition);
    mirrorRotation(pose.bodyRotation);
    mirrorVector(pose.hipsPosition);
    mirrorRotation(pose.hipsRotation);
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
        mirrorVector(pose.goalPositions[g]);
        mirrorRotation(pose.goalRotations[g]);
    }
    // Goals in HumanIKGoal order: left foot, right foot, left hand, right hand.
    swapVectors(pose.goalPositions[0], pose.goalPositions[1]);
    swapRotations(pose.goalRotations[0], pose.goalRotations[1]);
    swapVectors(pose.goalPositions[2], pose.goalPositions[3]);
    swapRotations(pose.goalRotations[2], pose.goalRotations[3]);
    // Translations: each mirrored, left and right bones' swapped.
    const t = pose.translations;
    for (let s = 0; s < TRANSLATION_DOF_COUNT; s++) mirrorVector(t[s]);
    for (let s = 0; s < TRANSLATION_DOF_COUNT; s++) if (TranslationDofMirrors[s] > s) swapVectors(t[s], t[TranslationDofMirrors[s]]);
    return pose;
}

/**
 * A root (x, z on the ground, yaw about up: `out[0..2]`, canonical) mirrored across the body's
 * middle plane in place: (-x, z, -yaw). Allocation-free.
 */
export function MirrorRootInPlace(root: Float64Array): void {
    root[0] = -root[0];
    root[2] = -root[2];
}

/**
 * Foot contact flags (`FootContact`: bit 0 left, bit 1 right, then each foot's still end, left
 * then right) of the mirrored motion: each left bit and its right twin swap.
 */
export function MirrorContacts(flags: number): number {
    return ((flags & 0x15) << 1) | ((flags & 0x2a) >> 1);
}
