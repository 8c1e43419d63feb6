import { SplineSlopesToRef } from "./spline.js";

/**
 * How a clip's curves pass between their keys: cubic Hermite segments, with at each key the
 * slope of
 * - `"spline"` (clips this library makes, file version 3): the natural cubic spline through the
 *   keys (`SplineSlopesToRef`): velocity and acceleration continuous across keys, so a reduced
 *   curve adds no jerk where its keys are;
 * - `"catmull-rom"` (files of version 1 and 2): the centred difference of its neighbours
 *   (one-sided at the ends, {@link EvaluateCurveSegment}): velocity continuous, the acceleration
 *   jumps at keys (at the reduction's tolerance, a jerk spike at each key).
 *
 * Either way a curve with one key is constant and two keys make a straight line.
 */
export type CurveInterpolation = "spline" | "catmull-rom";

/**
 * One curve: keys on the clip's frame grid, interpolated as the clip's
 * {@link CurveInterpolation} says.
 */
export interface IMuscleCurve {
    /** Frame index of every key, strictly increasing, the first 0 and the last `frameCount - 1` (or a single key at 0). */
    readonly frames: Uint32Array;
    /** Value of every key, in the unit of the curve's {@link MuscleCurveKind} (a muscle curve's as the clip's `muscleUnit` says). */
    readonly values: Float32Array;
    /**
     * When set (> 0), every value is a whole multiple of it (as float32, see `SnapToStep`): the
     * binary file then stores the values as integer differences, a byte or two a key. The
     * converter sets it to a sixteenth of the curve's reduction tolerance; absent, values are any
     * float32 (stored as four bytes).
     */
    readonly step?: number;
}

/** Slope (value per frame) of a curve at key k: the centred difference of its neighbours, one-sided at the ends. */
function keySlope(frames: ArrayLike<number>, values: ArrayLike<number>, k: number): number {
    const last = frames.length - 1;
    const a = k > 0 ? k - 1 : 0;
    const b = k < last ? k + 1 : last;
    return (values[b] - values[a]) / (frames[b] - frames[a]);
}

/**
 * A curve's value between keys `k` and `k + 1` (at least two keys): the cubic Hermite segment
 * through both keys with the keys' slopes (see {@link IMuscleCurve}). `frame` is clamped to the
 * segment. Allocation-free.
 * @param frames key frames
 * @param values key values
 * @param k the segment's first key
 * @param frame frame position
 */
export function EvaluateCurveSegment(frames: ArrayLike<number>, values: ArrayLike<number>, k: number, frame: number): number {
    const f0 = frames[k];
    const h = frames[k + 1] - f0;
    let t = (frame - f0) / h;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const t2 = t * t;
    const t3 = t2 * t;
    const m0 = keySlope(frames, values, k) * h;
    const m1 = keySlope(frames, values, k + 1) * h;
    return (2 * t3 - 3 * t2 + 1) * values[k] + (t3 - 2 * t2 + t) * m0 + (3 * t2 - 2 * t3) * values[k + 1] + (t3 - t2) * m1;
}

/**
 * A clip's curves laid out flat for the per-frame path: every key of every curve in one array, and
 * per key the segment that starts there as a cubic in frames since the key,
 * `c0 + u (c1 + u (c2 + u c3))`: the clip's Hermite segment (the slopes of its
 * {@link CurveInterpolation}; {@link EvaluateCurveSegment} for Catmull-Rom) expanded once, so a sample reads four numbers and does no division). A curve's last key
 * carries the constant segment of its value. One shape of arrays for every clip, so the sampler's
 * reads stay monomorphic; shared by every sampler of a clip.
 * @internal
 */
export interface ICurveSegmentTable {
    /** Per curve, the index of its first key in {@link keyFrames}; one more entry closes the last curve. */
    readonly keyStart: Uint32Array;
    /** Frame of every key, curve after curve. */
    readonly keyFrames: Float64Array;
    /** Four coefficients per key, in {@link keyFrames} order (value, per frame, per frame squared, per frame cubed). */
    readonly coefficients: Float64Array;
}

/**
 * Builds the {@link ICurveSegmentTable} of a set of curves (each at least one key).
 * @param curves the curves, in clip order
 * @param interpolation how they pass between keys
 * @internal
 */
export function BuildCurveSegmentTable(curves: readonly IMuscleCurve[], interpolation: CurveInterpolation): ICurveSegmentTable {
    const keyStart = new Uint32Array(curves.length + 1);
    for (let c = 0; c < curves.length; c++) keyStart[c + 1] = keyStart[c] + curves[c].frames.length;
    const total = keyStart[curves.length];
    const keyFrames = new Float64Array(total);
    const coefficients = new Float64Array(total * 4);
    for (let c = 0; c < curves.length; c++) {
        const { frames, values } = curves[c];
        const s = keyStart[c];
        const last = frames.length - 1;
        const slopes = interpolation === "spline" ? SplineSlopesToRef(frames, values, new Float64Array(frames.length)) : null;
        for (let k = 0; k <= last; k++) {
            keyFrames[s + k] = frames[k];
            const o = (s + k) * 4;
            const v0 = values[k];
            coefficients[o] = v0;
            if (k === last) continue;
            // The Hermite segment of EvaluateCurveSegment in t = u / h, expanded in u.
            const h = frames[k + 1] - frames[k];
            const v1 = values[k + 1];
            const m0 = (slopes ? slopes[k] : keySlope(frames, values, k)) * h;
            const m1 = (slopes ? slopes[k + 1] : keySlope(frames, values, k + 1)) * h;
            coefficients[o + 1] = m0 / h;
            coefficients[o + 2] = (3 * (v1 - v0) - 2 * m0 - m1) / (h * h);
            coefficients[o + 3] = (2 * (v0 - v1) + m0 + m1) / (h * h * h);
        }
    }
    return { keyStart, keyFrames, coefficients };
}
