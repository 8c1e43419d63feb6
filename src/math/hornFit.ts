import type { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { JacobiEigenSymmetric } from "./jacobiEigen.js";

/**
 * Weighted least-squares rigid fit between two point sets by Horn's closed form (B. K. P. Horn,
 * "Closed-form solution of absolute orientation using unit quaternions", JOSA A 4(4), 1987): the
 * rotation `R` and translation `t` that minimize `sum_i a_i |R x_i + t - y_i|^2`. The rotation is
 * the eigenvector of the largest eigenvalue of a 4x4 symmetric matrix built from the weighted
 * cross-covariance, found exactly by Jacobi rotations ({@link JacobiEigenSymmetric}).
 *
 * Points are added one at a time into running sums (no arrays kept), so one instance serves any
 * number of fits. Quaternions follow Babylon's convention: `R x` is
 * `x.applyRotationQuaternion(rotation)`.
 */
export class WeightedRigidFit {
    private _w = 0;
    private _sx = 0;
    private _sy = 0;
    private _sz = 0;
    private _tx = 0;
    private _ty = 0;
    private _tz = 0;
    // sum a x y^T, row = source component, column = target component
    private readonly _c = new Float64Array(9);
    private readonly _n = new Float64Array(16);
    private readonly _values = new Float64Array(4);
    private readonly _vectors = new Float64Array(16);
    private readonly _work = new Float64Array(16);
    private readonly _s = new Float64Array(9);

    /** Total weight added since the last {@link reset}. */
    public get totalWeight(): number {
        return this._w;
    }

    /** Forgets every point. */
    public reset(): void {
        this._w = this._sx = this._sy = this._sz = this._tx = this._ty = this._tz = 0;
        this._c.fill(0);
    }

    /**
     * Adds the pair (source `x`, target `y`) with weight `a` (>= 0; 0 is ignored).
     * Coordinates in any consistent unit and space.
     */
    public add(xx: number, xy: number, xz: number, yx: number, yy: number, yz: number, a: number): void {
        if (!(a > 0)) return;
        this._w += a;
        this._sx += a * xx;
        this._sy += a * xy;
        this._sz += a * xz;
        this._tx += a * yx;
        this._ty += a * yy;
        this._tz += a * yz;
        const c = this._c;
        c[0] += a * xx * yx;
        c[1] += a * xx * yy;
        c[2] += a * xx * yz;
        c[3] += a * xy * yx;
        c[4] += a * xy * yy;
        c[5] += a * xy * yz;
        c[6] += a * xz * yx;
        c[7] += a * xz * yy;
        c[8] += a * xz * yz;
    }

    /**
     * Solves the fit of every pair added. With `pivot` null, rotation and translation are both free
     * (the centroids are matched). With a pivot `p` and its image `pivotImage` (`R p + t =
     * pivotImage`, a joint held where its parent puts it), only the rotation about `p` is fitted.
     * `prior` (a rotation, or null) breaks ties when the points do not fix a rotation (fewer than
     * three non-collinear points): a pull of relative weight {@link HORN_PRIOR_WEIGHT} towards it,
     * too small to move a well-posed fit measurably. With no weight added, writes `prior` (or the
     * identity) and `t` = `pivotImage - R pivot` (or zero). Allocation-free.
     * @returns the largest eigenvalue minus the others' maximum: how well the rotation is determined (0: not at all)
     */
    public solveToRef(
        rotation: Quaternion,
        translation: Vector3,
        prior: Quaternion | null,
        pivot: Vector3 | null = null,
        pivotImage: Vector3 | null = null,
    ): number {
        const w = this._w;
        const s = this._s;
        // Centres: the weighted centroids, or the pivot and its image.
        let px = 0;
        let py = 0;
        let pz = 0;
        let qx = 0;
        let qy = 0;
        let qz = 0;
        if (pivot && pivotImage) {
            px = pivot.x;
            py = pivot.y;
            pz = pivot.z;
            qx = pivotImage.x;
            qy = pivotImage.y;
            qz = pivotImage.z;
        } else if (w > 0) {
            px = this._sx / w;
            py = this._sy / w;
            pz = this._sz / w;
            qx = this._tx / w;
            qy = this._ty / w;
            qz = this._tz / w;
        }
        if (!(w > 0)) {
            if (prior) rotation.copyFrom(prior);
            else rotation.set(0, 0, 0, 1);
            // t = q - R p
            translation.set(px, py, pz).applyRotationQuaternionInPlace(rotation);
            translation.set(qx - translation.x, qy - translation.y, qz - translation.z);
            return 0;
        }
        // S = sum a (x - p)(y - q)^T = C - p (sum a y)^T - (sum a x) q^T + w p q^T
        const sxv = [this._sx, this._sy, this._sz];
        const syv = [this._tx, this._ty, this._tz];
        const pv = [px, py, pz];
        const qv = [qx, qy, qz];
        for (let i = 0; i < 3; i++) {
            for (let j = 0; j < 3; j++) s[i * 3 + j] = this._c[i * 3 + j] - pv[i] * syv[j] - sxv[i] * qv[j] + w * pv[i] * qv[j];
        }
        if (prior) {
            // Tie-breaker: + mu * R_prior^T (three virtual pairs e_i -> R_prior e_i), mu relative to the spread.
            const scale =
                Math.abs(s[0]) +
                Math.abs(s[4]) +
                Math.abs(s[8]) +
                Math.abs(s[1]) +
                Math.abs(s[2]) +
                Math.abs(s[3]) +
                Math.abs(s[5]) +
                Math.abs(s[6]) +
                Math.abs(s[7]);
            const mu = HORN_PRIOR_WEIGHT * (scale > 0 ? scale : w);
            const x = prior.x;
            const y = prior.y;
            const z = prior.z;
            const qw = prior.w;
            // R (column-vector convention, R x = rotated x); R^T[i][j] = R[j][i]
            const r00 = 1 - 2 * (y * y + z * z);
            const r01 = 2 * (x * y - z * qw);
            const r02 = 2 * (x * z + y * qw);
            const r10 = 2 * (x * y + z * qw);
            const r11 = 1 - 2 * (x * x + z * z);
            const r12 = 2 * (y * z - x * qw);
            const r20 = 2 * (x * z - y * qw);
            const r21 = 2 * (y * z + x * qw);
            const r22 = 1 - 2 * (x * x + y * y);
            s[0] += mu * r00;
            s[1] += mu * r10;
            s[2] += mu * r20;
            s[3] += mu * r01;
            s[4] += mu * r11;
            s[5] += mu * r21;
            s[6] += mu * r02;
            s[7] += mu * r12;
            s[8] += mu * r22;
        }
        const sxx = s[0];
        const sxy = s[1];
        const sxz = s[2];
        const syx = s[3];
        const syy = s[4];
        const syz = s[5];
        const szx = s[6];
        const szy = s[7];
        const szz = s[8];
        // Horn's N, in the order (w, x, y, z)
        const n = this._n;
        n[0] = sxx + syy + szz;
        n[1] = syz - szy;
        n[2] = szx - sxz;
        n[3] = sxy - syx;
        n[5] = sxx - syy - szz;
        n[6] = sxy + syx;
        n[7] = szx + sxz;
        n[10] = -sxx + syy - szz;
        n[11] = syz + szy;
        n[15] = -sxx - syy + szz;
        n[4] = n[1];
        n[8] = n[2];
        n[9] = n[6];
        n[12] = n[3];
        n[13] = n[7];
        n[14] = n[11];
        JacobiEigenSymmetric(n, 4, this._values, this._vectors, this._work);
        let best = 0;
        for (let k = 1; k < 4; k++) if (this._values[k] > this._values[best]) best = k;
        let second = -Infinity;
        for (let k = 0; k < 4; k++) if (k !== best && this._values[k] > second) second = this._values[k];
        const v = this._vectors;
        let ow = v[0 * 4 + best];
        let ox = v[1 * 4 + best];
        let oy = v[2 * 4 + best];
        let oz = v[3 * 4 + best];
        const len = Math.sqrt(ow * ow + ox * ox + oy * oy + oz * oz);
        ow /= len;
        ox /= len;
        oy /= len;
        oz /= len;
        // Keep the sign nearest the prior (same rotation either way; continuity for callers).
        if (prior && ow * prior.w + ox * prior.x + oy * prior.y + oz * prior.z < 0) {
            ow = -ow;
            ox = -ox;
            oy = -oy;
            oz = -oz;
        }
        rotation.set(ox, oy, oz, ow);
        // t = q - R p
        translation.set(px, py, pz).applyRotationQuaternionInPlace(rotation);
        translation.set(qx - translation.x, qy - translation.y, qz - translation.z);
        return this._values[best] - second;
    }
}

/**
 * Relative weight of the prior rotation in {@link WeightedRigidFit.solveToRef}: a fraction of the
 * cross-covariance's size. 1e-10 moves a well-posed fit by about 1e-10 rad (more for thin point sets), far below every tolerance
 * of the surface fit, and still picks one rotation when the points leave some free.
 */
export const HORN_PRIOR_WEIGHT = 1e-10;
