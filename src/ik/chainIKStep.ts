import type { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { ChainIKSolver } from "./chainIK.js";

/**
 * One iteration's step of `solver`'s solve (the algebra is in {@link ChainIKSolver}'s notes): the
 * damped least-squares step plus the nullspace bias toward the preferred rotations, world rotation
 * vectors per joint, into `_step` (from the accepted pose in `_wq`/`_p`), the whole step scaled down
 * to the largest turn per iteration (`_num[7]`; the step's own largest turn in `_num[3]`).
 * Allocation-free.
 * @param solver the chain solver in its solve: its accepted pose, target, weights and damping read, its `_step` written
 */
export function ComputeChainIKStep(solver: ChainIKSolver): void {
    const n = solver._n;
    const p = solver._p;
    const w = solver._w;
    const end = p[n - 1];
    const t = solver._target;
    const l2 = solver._num[2];
    // M = Σ W_i (|r|² I - r r^T) + λ² I (symmetric)
    let m00 = l2;
    let m01 = 0;
    let m02 = 0;
    let m11 = l2;
    let m12 = 0;
    let m22 = l2;
    for (let i = 0; i < n - 1; i++) {
        const wi = w[i];
        if (!(wi > 0)) continue;
        const rx = end.x - p[i].x;
        const ry = end.y - p[i].y;
        const rz = end.z - p[i].z;
        const rr = rx * rx + ry * ry + rz * rz;
        m00 += wi * (rr - rx * rx);
        m11 += wi * (rr - ry * ry);
        m22 += wi * (rr - rz * rz);
        m01 -= wi * rx * ry;
        m02 -= wi * rx * rz;
        m12 -= wi * ry * rz;
    }
    // M^-1 by cofactors (M is positive definite: λ² > 0).
    const c00 = m11 * m22 - m12 * m12;
    const c01 = m02 * m12 - m01 * m22;
    const c02 = m01 * m12 - m02 * m11;
    const c11 = m00 * m22 - m02 * m02;
    const c12 = m01 * m02 - m00 * m12;
    const c22 = m00 * m11 - m01 * m01;
    const det = m00 * c00 + m01 * c01 + m02 * c02;
    const inv = det > 0 ? 1 / det : 0;
    const ex = t.x - end.x;
    const ey = t.y - end.y;
    const ez = t.z - end.z;
    const yx = (c00 * ex + c01 * ey + c02 * ez) * inv;
    const yy = (c01 * ex + c11 * ey + c12 * ez) * inv;
    const yz = (c02 * ex + c12 * ey + c22 * ez) * inv;
    // Nullspace bias: z_i toward the preferred rotation (world rotation vector), and J z.
    const bias = solver._bias;
    let jx = 0;
    let jy = 0;
    let jz = 0;
    let anyBias = false;
    for (let i = 0; i < n - 1; i++) {
        bias[3 * i] = bias[3 * i + 1] = bias[3 * i + 2] = 0;
        const g = solver.preferredWeight[i];
        if (!(w[i] > 0 && g > 0)) continue;
        towardPreferred(solver, i, solver._local[i]);
        const k = g > 1 ? 1 : g;
        const bx = solver._v.x * k;
        const by = solver._v.y * k;
        const bz = solver._v.z * k;
        bias[3 * i] = bx;
        bias[3 * i + 1] = by;
        bias[3 * i + 2] = bz;
        const rx = end.x - p[i].x;
        const ry = end.y - p[i].y;
        const rz = end.z - p[i].z;
        // end velocity of joint i's turn: z × r
        jx += by * rz - bz * ry;
        jy += bz * rx - bx * rz;
        jz += bx * ry - by * rx;
        anyBias = true;
    }
    let ux = 0;
    let uy = 0;
    let uz = 0;
    if (anyBias) {
        ux = (c00 * jx + c01 * jy + c02 * jz) * inv;
        uy = (c01 * jx + c11 * jy + c12 * jz) * inv;
        uz = (c02 * jx + c12 * jy + c22 * jz) * inv;
    }
    const dx = yx - ux;
    const dy = yy - uy;
    const dz = yz - uz;
    const step = solver._step;
    const num = solver._num;
    const cap = num[7];
    num[3] = 0;
    for (let i = 0; i < n; i++) {
        const wi = w[i];
        if (!(wi > 0) || i === n - 1) {
            step[3 * i] = step[3 * i + 1] = step[3 * i + 2] = 0;
            continue;
        }
        const rx = end.x - p[i].x;
        const ry = end.y - p[i].y;
        const rz = end.z - p[i].z;
        // ω = W (r × (y - u)) + z
        const sx = wi * (ry * dz - rz * dy) + bias[3 * i];
        const sy = wi * (rz * dx - rx * dz) + bias[3 * i + 1];
        const sz = wi * (rx * dy - ry * dx) + bias[3 * i + 2];
        const len = Math.sqrt(sx * sx + sy * sy + sz * sz);
        if (len > num[3]) num[3] = len;
        step[3 * i] = sx;
        step[3 * i + 1] = sy;
        step[3 * i + 2] = sz;
    }
    // The trust region: the whole step scaled (not joint by joint, which could turn it off the descent).
    if (num[3] > cap) {
        const k = cap / num[3];
        for (let i = 0; i < 3 * n; i++) step[i] *= k;
    }
}

/**
 * The world rotation vector turning joint `i` from `local` to its preferred rotation, into `_v`
 * (`log(preferred * local^-1)` in the parent's frame, turned into world axes by the parent's world rotation).
 */
function towardPreferred(solver: ChainIKSolver, i: number, local: Quaternion): void {
    const q = solver._q;
    QuaternionConjugateToRef(local, q);
    QuaternionMultiplyToRef(solver.preferred[i], q, q);
    if (q.w < 0) {
        q.x = -q.x;
        q.y = -q.y;
        q.z = -q.z;
        q.w = -q.w;
    }
    const s = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    const angle = 2 * Math.atan2(s, q.w);
    const k = s > 1e-12 ? angle / s : 2;
    const v = solver._v;
    v.x = q.x * k;
    v.y = q.y * k;
    v.z = q.z * k;
    v.applyRotationQuaternionInPlace(i > 0 ? solver._wq[i - 1] : solver._baseQ);
}
