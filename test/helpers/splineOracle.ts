/**
 * The natural cubic spline through keys, the slow obvious way, as the oracle of `SplineSlopesToRef`
 * and the sampler: the slopes solved from the slope form of the C2 conditions (not the second
 * derivatives the library solves for) by dense Gaussian elimination with partial pivoting.
 * Interior key k: h_k s_{k-1} + 2 (h_{k-1} + h_k) s_k + h_{k-1} s_{k+1} = 3 (h_k d_{k-1} + h_{k-1} d_k),
 * d the segments' slopes; natural ends: 2 s_0 + s_1 = 3 d_0, s_{n-2} + 2 s_{n-1} = 3 d_{n-2}.
 */
export function DenseSplineSlopes(frames: ArrayLike<number>, values: ArrayLike<number>): number[] {
    const n = frames.length;
    if (n === 1) return [0];
    const h = (k: number): number => frames[k + 1] - frames[k];
    const d = (k: number): number => (values[k + 1] - values[k]) / h(k);
    const a = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
    a[0][0] = 2;
    a[0][1] = 1;
    a[0][n] = 3 * d(0);
    a[n - 1][n - 2] = 1;
    a[n - 1][n - 1] = 2;
    a[n - 1][n] = 3 * d(n - 2);
    for (let k = 1; k < n - 1; k++) {
        a[k][k - 1] = h(k);
        a[k][k] = 2 * (h(k - 1) + h(k));
        a[k][k + 1] = h(k - 1);
        a[k][n] = 3 * (h(k) * d(k - 1) + h(k - 1) * d(k));
    }
    for (let c = 0; c < n; c++) {
        let p = c;
        for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
        [a[c], a[p]] = [a[p], a[c]];
        for (let r = 0; r < n; r++) {
            if (r === c) continue;
            const f = a[r][c] / a[c][c];
            for (let k = c; k <= n; k++) a[r][k] -= f * a[c][k];
        }
    }
    return a.map((row, i) => row[n] / row[i]);
}

/** A curve's value at a frame: cubic Hermite between the keys with the given slopes (value per frame), written out plainly. */
export function HermiteValueAt(frames: ArrayLike<number>, values: ArrayLike<number>, slopes: ArrayLike<number>, f: number): number {
    if (frames.length === 1) return values[0];
    let k = 0;
    while (k < frames.length - 2 && frames[k + 1] <= f) k++;
    const h = frames[k + 1] - frames[k];
    const t = Math.min(1, Math.max(0, (f - frames[k]) / h));
    const h00 = 2 * t ** 3 - 3 * t ** 2 + 1;
    const h10 = t ** 3 - 2 * t ** 2 + t;
    const h01 = -2 * t ** 3 + 3 * t ** 2;
    const h11 = t ** 3 - t ** 2;
    return h00 * values[k] + h10 * h * slopes[k] + h01 * values[k + 1] + h11 * h * slopes[k + 1];
}
