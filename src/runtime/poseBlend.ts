// Blending two humanoid poses on the per-frame path: the clip player's blend of a layer's clips.

import { HUMAN_IK_GOAL_COUNT, type HumanPose } from "../muscle/humanPose.js";
import { TRANSLATION_DOF_COUNT } from "../muscle/translationDof.js";
import { ALL_MUSCLE_COUNT } from "../muscle/muscles.js";
import { QuaternionSlerpToRef, Vector3LerpToRef } from "../math/hotMath.js";

/**
 * `HumanPose.LerpToRef(a, b, amounts[index], result)`, the amount read from an array (a number
 * passed to a call V8 does not inline is boxed, which allocates): muscles and positions linearly,
 * rotations by shortest-path slerp. The clip player's, to blend a layer's clips each update.
 * Allocation-free.
 * @param a the pose at amount 0
 * @param b the pose at amount 1
 * @param amounts holds the amount (0 to 1) at `index`
 * @param index where in `amounts` the amount is
 * @param result receives the blend; may be `a` or `b`
 */
export function HumanPoseLerpToRef(a: HumanPose, b: HumanPose, amounts: Float64Array, index: number, result: HumanPose): void {
    const amount = amounts[index];
    const av = a.values;
    const bv = b.values;
    const rv = result.values;
    for (let i = 0; i < ALL_MUSCLE_COUNT; i++) rv[i] = av[i] + (bv[i] - av[i]) * amount;
    Vector3LerpToRef(a.bodyPosition, b.bodyPosition, amounts, index, result.bodyPosition);
    QuaternionSlerpToRef(a.bodyRotation, b.bodyRotation, amounts, index, result.bodyRotation);
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
        Vector3LerpToRef(a.goalPositions[g], b.goalPositions[g], amounts, index, result.goalPositions[g]);
        QuaternionSlerpToRef(a.goalRotations[g], b.goalRotations[g], amounts, index, result.goalRotations[g]);
    }
    Vector3LerpToRef(a.hipsPosition, b.hipsPosition, amounts, index, result.hipsPosition);
    QuaternionSlerpToRef(a.hipsRotation, b.hipsRotation, amounts, index, result.hipsRotation);
    for (let t = 0; t < TRANSLATION_DOF_COUNT; t++) Vector3LerpToRef(a.translations[t], b.translations[t], amounts, index, result.translations[t]);
}
