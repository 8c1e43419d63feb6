import type { Matrix, Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { QuaternionNormalizeInPlace } from "./hotMath.js";

/** The rows of the linear part, normalized (and negated for a mirror): scratch of {@link MatrixTurnToRef}. */
const rows = new Float64Array(9);

/**
 * The turn of an affine `matrix` (Babylon's row-vector order; a scale and a mirror allowed) into
 * `result`: its linear part with the rows normalized (scale off), negated when it mirrors (a
 * mirror -I commutes with every rotation, so conjugating by the proper rotation left is the
 * same), as a quaternion (column-vector form: the transpose of Babylon's row-vector matrix).
 * Allocation-free; no number passed to or returned from a call (see `hotMath`).
 * @param matrix the affine matrix (Babylon's row-vector order)
 * @param result the turn, a unit quaternion
 */
export function MatrixTurnToRef(matrix: Matrix, result: Quaternion): void {
    const m = matrix.m;
    const n = rows;
    for (let row = 0; row < 3; row++) {
        const x = m[4 * row];
        const y = m[4 * row + 1];
        const z = m[4 * row + 2];
        const length = Math.sqrt(x * x + y * y + z * z);
        const k = length > 1e-12 ? 1 / length : 0;
        n[3 * row] = x * k;
        n[3 * row + 1] = y * k;
        n[3 * row + 2] = z * k;
    }
    // det < 0: a mirror; negate to a proper rotation.
    const det = n[0] * (n[4] * n[8] - n[5] * n[7]) - n[1] * (n[3] * n[8] - n[5] * n[6]) + n[2] * (n[3] * n[7] - n[4] * n[6]);
    if (det < 0) for (let i = 0; i < 9; i++) n[i] = -n[i];
    // Column form c[i][j] = row-form n[j][i].
    const m00 = n[0];
    const m01 = n[3];
    const m02 = n[6];
    const m10 = n[1];
    const m11 = n[4];
    const m12 = n[7];
    const m20 = n[2];
    const m21 = n[5];
    const m22 = n[8];
    const q = result;
    const trace = m00 + m11 + m22;
    if (trace > 0) {
        const s = 0.5 / Math.sqrt(trace + 1);
        q.w = 0.25 / s;
        q.x = (m21 - m12) * s;
        q.y = (m02 - m20) * s;
        q.z = (m10 - m01) * s;
    } else if (m00 > m11 && m00 > m22) {
        const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
        q.w = (m21 - m12) / s;
        q.x = 0.25 * s;
        q.y = (m01 + m10) / s;
        q.z = (m02 + m20) / s;
    } else if (m11 > m22) {
        const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
        q.w = (m02 - m20) / s;
        q.x = (m01 + m10) / s;
        q.y = 0.25 * s;
        q.z = (m12 + m21) / s;
    } else {
        const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
        q.w = (m10 - m01) / s;
        q.x = (m02 + m20) / s;
        q.y = (m12 + m21) / s;
        q.z = 0.25 * s;
    }
    QuaternionNormalizeInPlace(q);
}
