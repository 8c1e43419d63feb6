import { HumanoidError } from "../errors.js";

/**
 * Smoothing within a band: before a curve is reduced to keys, the jitter finer than the
 * reduction's tolerance is taken out of it, so that a clip is never jerkier than its source for
 * having been reduced, and mocap's own sub-tolerance noise does not reach the character.
 *
 * The curve sought is the one of least jerk energy E(x) = sum over frames of (x[i] - 3 x[i-1] +
 * 3 x[i-2] - x[i-3])^2 whose every sample stays within `band` of the source's, the two end
 * samples kept as they are (so a looping clip's seam stays where the source put it). It is found
 * by projected gradient descent: each round moves every inner sample against the gradient of E
 * and back into its band. The gradient is 2 D^T D x, D the third difference; D^T D is the 7-tap
 * filter (-1, 6, -15, 20, -15, 6, -1) with its largest eigenvalue 64 (at the highest frequency,
 * (2 sin(w/2))^6), so the step 1/128 of the gradient (1/64 of D^T D x) never raises E and takes
 * out the highest frequency whole in one round. Where no band binds, the rounds are a linear
 * filter, (1 - (2 sin(w/2))^6 / 64)^rounds at angular frequency w a frame: over the default eight
 * rounds it keeps 34% of a wave at a quarter of the sample rate, 99.3% at a tenth (3 Hz at 30
 * frames a second) and 99.99% at a twentieth, the motion itself. A few rounds are the point, not
 * convergence: the jitter sits at the top of the spectrum, and E's true minimum would also bend
 * the motion's own slow curves as far as the band lets it.
 *
 * One pass of plain arithmetic over Float64Arrays per round, the third differences rolled along
 * in locals (written out by hand for speed: the readable form is the oracle of
 * `test/clip/smoothing.test.ts`, the same rounds as a dense matrix product).
 */

/** Rounds of {@link SmoothWithinBand} by default: enough to quiet the top of the spectrum (see the file's note). */
export const SMOOTHING_ROUNDS = 8;

/**
 * A curve smoothed towards the least jerk within `band` of every sample, its first and last
 * samples kept: {@link SMOOTHING_ROUNDS} rounds of projected gradient descent on the summed
 * squared third differences (see the file's note; a few rounds, not the minimum): each inner
 * sample ends within `band` of its own (at most float rounding), and the energy never rises from
 * the samples'. `band` 0, or fewer than 5 samples, returns the samples unchanged.
 * @param samples a curve's values, one per frame
 * @param band how far a sample may move, in the curve's unit (>= 0)
 * @param rounds how many rounds (default {@link SMOOTHING_ROUNDS})
 * @returns a new array (the samples are not changed)
 */
export function SmoothWithinBand(samples: ArrayLike<number>, band: number, rounds = SMOOTHING_ROUNDS): Float64Array {
    const n = samples.length;
    const x = Float64Array.from(samples);
    if (!(band > 0) || n < 5 || !(rounds > 0)) return x;
    const { lo, hi } = bandAround(x, band);
    smoothRoundsInPlace(x, lo, hi, rounds);
    return x;
}

/**
 * The rate up to which {@link SmoothWithinBandAtRate} is {@link SmoothWithinBand} (frames per
 * second): above it, rounds on every second, fourth... frame are added so that it takes out, in
 * seconds, what it takes out at this rate (from 15 Hz on). Not 30, where a quarter of the rate is
 * 7.5 Hz: a child's jump at 120 frames a second smoothed so lost more to its bands' clamps than
 * its jitter (its joints' jerk 1.01 of the source's rather than 0.85-0.96).
 */
export const SMOOTHING_REFERENCE_RATE = 60;

/**
 * The largest stride {@link SmoothWithinBandAtRate} uses at a frame rate: the largest power of two
 * at most `frameRate / SMOOTHING_REFERENCE_RATE`, within 1% (1 at 60 frames a second and below, 2
 * at 120 and at a BVH's rounded 119.875, 4 at 240).
 * @param frameRate frames per second (> 0)
 */
export function SmoothingStrideAtRate(frameRate: number): number {
    // 1% of slack: BVH frame times are written rounded (0.008342 s is 119.875 frames a second).
    let stride = 1;
    while (stride * 2 * SMOOTHING_REFERENCE_RATE <= frameRate * RATE_SLACK && stride < 1024) stride *= 2;
    return stride;
}

/** How far under a stride's rate a frame rate may be and still take it: 1% (rounded frame times). */
const RATE_SLACK = 1.01;

/**
 * {@link SmoothWithinBand} with the same reach in seconds at any frame rate. The filter's rounds
 * act on a cycle of 2 to 4 frames; at 120 frames a second that is 30 to 60 Hz, and jitter at 10
 * to 30 Hz (which the third differences of a 120 frames a second curve see as much as the motion
 * itself) stays. So the rounds are run first on every `s`-th frame (the third difference over
 * `x[i], x[i-s], x[i-2s], x[i-3s]`, whose filter takes out a cycle of `2s` to `4s` frames), for
 * `s` = {@link SmoothingStrideAtRate} down to 2 by halves (the rounds of {@link SmoothWithinBand}
 * on each of the `s` interleaved runs of every `s`-th frame, which that difference never mixes;
 * each run's ends kept), then on every frame, each within the same band of the samples; at 60
 * frames a second and below it is {@link SmoothWithinBand}. Each
 * stride's rounds are a filter of gain at most 1 at every frequency (`1 - (2 sin(s w / 2))^6 /
 * 64`), the band a bound on each sample; the finest last, so that where a band binds the last
 * rounds smooth what the clamp left. Every inner sample ends within `band` of its own, the first
 * and last samples are kept.
 * @param samples a curve's values, one per frame
 * @param band how far a sample may move, in the curve's unit (>= 0)
 * @param frameRate the curve's frames per second (> 0)
 * @param rounds rounds per stride (default {@link SMOOTHING_ROUNDS})
 * @returns a new array (the samples are not changed)
 */
export function SmoothWithinBandAtRate(samples: ArrayLike<number>, band: number, frameRate: number, rounds = SMOOTHING_ROUNDS): Float64Array {
    const n = samples.length;
    const x = Float64Array.from(samples);
    if (!(band > 0) || n < 5 || !(rounds > 0)) return x;
    const { lo, hi } = bandAround(x, band);
    const top = SmoothingStrideAtRate(frameRate);
    const run = Math.ceil(n / 2);
    const buffers = top >= 2 ? [new Float64Array(run), new Float64Array(run), new Float64Array(run)] : [];
    for (let s = top; s >= 2; s >>= 1) smoothStridedRoundsInPlace(x, lo, hi, rounds, s, buffers);
    smoothRoundsInPlace(x, lo, hi, rounds);
    return x;
}

/** Each sample's band: `lo[i] = x[i] - band`, `hi[i] = x[i] + band`. */
function bandAround(x: Float64Array, band: number): { lo: Float64Array; hi: Float64Array } {
    const n = x.length;
    const lo = new Float64Array(n);
    const hi = new Float64Array(n);
    for (let i = 0; i < n; i++) {
        lo[i] = x[i] - band;
        hi[i] = x[i] + band;
    }
    return { lo, hi };
}

/**
 * `rounds` rounds of the stride-`s` filter on `x` in place, each sample clamped to `[lo, hi]`:
 * `x[i] -= (D_s^T D_s x)[i] / 64`, `D_s` the third difference over `x[i], x[i-s], x[i-2s],
 * x[i-3s]` (0 where it would reach before the curve), from the round's starting values. `D_s`
 * never mixes samples `s` apart from one another's, so it is {@link SmoothWithinBand}'s rounds on
 * each of the `s` interleaved runs (`x[r], x[r+s], x[r+2s]...`), each run's first and last sample
 * kept (the first and last `s` samples of the curve); a run shorter than 5 is left as it is.
 * `buffers` are scratch: three arrays of at least `ceil(n / s)` numbers.
 */
function smoothStridedRoundsInPlace(x: Float64Array, lo: Float64Array, hi: Float64Array, rounds: number, s: number, buffers: Float64Array[]): void {
    const n = x.length;
    const [y, ylo, yhi] = buffers;
    for (let r = 0; r < s; r++) {
        const m = Math.floor((n - 1 - r) / s) + 1;
        if (m < 5) continue;
        for (let k = 0; k < m; k++) {
            y[k] = x[r + k * s];
            ylo[k] = lo[r + k * s];
            yhi[k] = hi[r + k * s];
        }
        smoothRoundsInPlace(y.subarray(0, m), ylo, yhi, rounds);
        for (let k = 0; k < m; k++) x[r + k * s] = y[k];
    }
}

/** `rounds` rounds of {@link SmoothWithinBand}'s filter on `x` in place, each inner sample clamped to `[lo, hi]`, the ends kept. */
function smoothRoundsInPlace(x: Float64Array, lo: Float64Array, hi: Float64Array, rounds: number): void {
    const n = x.length;
    for (let r = 0; r < rounds; r++) {
        // One pass: sample i's step needs the third differences d[i..i+3] of the round's starting
        // values (d[j] = x[j] - 3 x[j-1] + 3 x[j-2] - x[j-3], 0 where it would reach before the
        // curve or past its end), rolled along in da..dd with the starting values x[i..i+2] in
        // o1..o3, since x[i] is overwritten once used.
        let o1 = x[1];
        let o2 = x[2];
        let o3 = x[3];
        let da = 0;
        let db = 0;
        let dc = x[3] - 3 * x[2] + 3 * x[1] - x[0];
        let i = 1;
        for (; i < n - 3; i++) {
            const o4 = x[i + 3];
            const dd = o4 - 3 * o3 + 3 * o2 - o1;
            // (D^T D x)[i]: each third difference that x[i] takes part in, by its weight in it; / 64 as * 2^-6 (exact).
            const v = o1 - (da - 3 * db + 3 * dc - dd) * 0.015625;
            const l = lo[i];
            const h = hi[i];
            x[i] = v < l ? l : v > h ? h : v;
            da = db;
            db = dc;
            dc = dd;
            o1 = o2;
            o2 = o3;
            o3 = o4;
        }
        for (; i < n - 1; i++) {
            const v = o1 - (da - 3 * db + 3 * dc) * 0.015625;
            const l = lo[i];
            const h = hi[i];
            x[i] = v < l ? l : v > h ? h : v;
            da = db;
            db = dc;
            dc = 0;
            o1 = o2;
            o2 = o3;
        }
    }
}

/**
 * How far either side, in frames, the common share of {@link SmoothCurveGroupWithinBands} looks
 * for the frame that allows the least: the share changes over at least this many frames each way,
 * slower than the jitter it takes out (the top of the spectrum: a cycle of 2 to 4 frames).
 */
export const GROUP_SHARE_REACH = 4;

/**
 * Smooths curves that move together (a trunk whose jitter cancels along it) the same way at every
 * frame, so that whatever sum of them was steady stays steady: each curve becomes its samples
 * plus w(t) times what {@link SmoothWithinBand}'s rounds, unbounded, change of it, the share w(t)
 * in [0, 1] the same for every curve. w(t) is at most what every curve's band allows at every
 * frame within {@link GROUP_SHARE_REACH} (the least of those), averaged twice over half that
 * reach, so it stays under each frame's own limit and changes by at most a fifth a frame; every
 * sample ends within its curve's band, and the first and last samples are kept. Where no band
 * binds (w = 1) each curve is {@link SmoothWithinBand}'s linear filter of itself, but for the
 * first and last few frames: frames past the ends count as allowing nothing, so the share eases
 * in from 0 there (0.68, 0.88 and 0.96 of it on the second to fourth frames). A curve with band
 * 0 never moves, and holds the others still wherever the filter would move it. Throws a
 * HumanoidError (`BAD_OPTION`) when the curves differ in length or there is not one band a curve.
 * @param samples the curves, one value per frame each, all of one length
 * @param bands per curve, how far its samples may move, in its unit (>= 0)
 * @param rounds the filter's rounds (default {@link SMOOTHING_ROUNDS})
 * @returns new arrays, one per curve
 */
export function SmoothCurveGroupWithinBands(samples: readonly ArrayLike<number>[], bands: readonly number[], rounds = SMOOTHING_ROUNDS): Float64Array[] {
    const n = samples.length ? samples[0].length : 0;
    if (bands.length !== samples.length)
        throw new HumanoidError("BAD_OPTION", `SmoothCurveGroupWithinBands: ${samples.length} curves and ${bands.length} bands (one per curve)`);
    samples.forEach((s, i) => {
        if (s.length !== n)
            throw new HumanoidError("BAD_OPTION", `SmoothCurveGroupWithinBands: curve ${i} has ${s.length} samples, curve 0 ${n} (all as long)`);
    });
    const filtered = samples.map((s) => SmoothWithinBand(s, Infinity, rounds));
    // Per frame, the largest share every curve's band allows.
    const limit = new Float64Array(n).fill(1);
    samples.forEach((s, c) => {
        const band = bands[c] > 0 ? bands[c] : 0;
        const f = filtered[c];
        for (let t = 0; t < n; t++) {
            const change = Math.abs(f[t] - s[t]);
            if (change > band) limit[t] = Math.min(limit[t], band / change);
        }
    });
    // The least within reach, then two running means whose reaches add up to it: never above the
    // limit of any frame the means take in. Frames past the ends count as 0 (the share eases in
    // at the ends; the bound would hold without it).
    const reach = GROUP_SHARE_REACH;
    const least = new Float64Array(n);
    for (let t = 0; t < n; t++) {
        let m = 1;
        for (let k = Math.max(0, t - reach); k <= Math.min(n - 1, t + reach); k++) m = Math.min(m, limit[k]);
        least[t] = m;
    }
    const mean = (a: Float64Array, r: number): Float64Array => {
        const out = new Float64Array(n);
        for (let t = 0; t < n; t++) {
            let sum = 0;
            for (let k = Math.max(0, t - r); k <= Math.min(n - 1, t + r); k++) sum += a[k];
            out[t] = sum / (2 * r + 1);
        }
        return out;
    };
    const half = reach >> 1;
    const share = mean(mean(least, half), reach - half);
    return samples.map((s, c) => {
        const f = filtered[c];
        const out = new Float64Array(n);
        for (let t = 0; t < n; t++) out[t] = s[t] + share[t] * (f[t] - s[t]);
        return out;
    });
}
