/**
 * Cubic spline slopes through keys on an uneven frame grid: the interpolating cubic whose second
 * derivative is continuous at every key (C2), with zero curvature at both ends ("natural"). As a
 * Hermite curve: each segment the cubic through its two keys with these slopes. Unlike the
 * Catmull-Rom slopes (one key's neighbours only, C1), the acceleration does not jump at keys, so
 * a reduced curve adds no jerk spikes where its keys are; each slope depends on every key (a
 * tridiagonal system, solved in O(n) by the Thomas algorithm).
 */

/**
 * The slopes (value per frame) of the natural cubic spline through keys, into `out`.
 * @param frames key frames, strictly increasing
 * @param values key values
 * @param out one slope per key (a Float64Array as long as `frames`)
 * @param scratch two arrays as long as `frames` (the solver's working space), or none to allocate them
 * @returns `out`
 */
export function SplineSlopesToRef(
    frames: ArrayLike<number>,
    values: ArrayLike<number>,
    out: Float64Array,
    scratch?: { c: Float64Array; d: Float64Array },
): Float64Array {
    const n = frames.length;
    if (n === 1) {
        out[0] = 0;
        return out;
    }
    if (n === 2) {
        const s = (values[1] - values[0]) / (frames[1] - frames[0]);
        out[0] = s;
        out[1] = s;
        return out;
    }
    // Second derivatives M (M_0 = M_{n-1} = 0): for 0 < k < n-1,
    // h_{k-1} M_{k-1} + 2 (h_{k-1} + h_k) M_k + h_k M_{k+1} = 6 (delta_k - delta_{k-1}),
    // delta_k = (y_{k+1} - y_k) / h_k. Thomas algorithm over the n - 2 unknowns.
    const c = scratch?.c ?? new Float64Array(n);
    const d = scratch?.d ?? new Float64Array(n);
    for (let k = 1; k < n - 1; k++) {
        const h0 = frames[k] - frames[k - 1];
        const h1 = frames[k + 1] - frames[k];
        const rhs = 6 * ((values[k + 1] - values[k]) / h1 - (values[k] - values[k - 1]) / h0);
        const diag = 2 * (h0 + h1) - (k > 1 ? h0 * c[k - 1] : 0);
        c[k] = h1 / diag;
        d[k] = (rhs - (k > 1 ? h0 * d[k - 1] : 0)) / diag;
    }
    // Back substitution into out (as M for now).
    out[n - 1] = 0;
    for (let k = n - 2; k >= 1; k--) out[k] = d[k] - c[k] * out[k + 1];
    out[0] = 0;
    // Slopes from the second derivatives: s_k = delta_k - h_k (2 M_k + M_{k+1}) / 6, and at the end
    // s_{n-1} = delta_{n-2} + h_{n-2} (M_{n-2} + 2 M_{n-1}) / 6.
    let prevM = out[0];
    for (let k = 0; k < n - 1; k++) {
        const h = frames[k + 1] - frames[k];
        const delta = (values[k + 1] - values[k]) / h;
        const mk = prevM;
        const mk1 = out[k + 1];
        out[k] = delta - (h * (2 * mk + mk1)) / 6;
        prevM = mk1;
        if (k === n - 2) out[n - 1] = delta + (h * (mk + 2 * mk1)) / 6;
    }
    return out;
}
