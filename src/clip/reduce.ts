import type { CurveInterpolation, IMuscleCurve } from "./curve.js";
import { HumanoidError } from "../errors.js";
import { SplineSlopesToRef } from "./spline.js";

/** Relative precision of a float32 (2^-23): key values are stored as float32 and may move this much. */
const FLOAT32_EPSILON = 1.1920928955078125e-7;

/**
 * Segments either side of a new key that a spline reduction's next round checks (a key's effect
 * on a natural spline shrinks about 3.7 times a key away, to under 1% four keys off); a last
 * round checks every segment, so the bound holds whatever this is.
 */
const SPLINE_CHECK_REACH = 4;

/**
 * How many value steps one tolerance spans when key values are kept on a grid
 * ({@link GetCurveValueStep}): fine enough that the grid costs the fit a sixteenth of its
 * tolerance (an eighth of the half the reduction gets after the converter's smoothing), coarse
 * enough that a key's change from the last takes one or two bytes in a binary file instead of a
 * float's four.
 */
export const VALUE_STEPS_PER_TOLERANCE = 16;

/**
 * How much finer the grid of curves keyed on shared frames ({@link ReduceCurveGroup}) is: such a
 * curve has keys where the others need them, often closer together than its own motion needs,
 * and rounding each key to the grid puts a step of noise at every key. On the grid of curves of
 * their own, the VRM animation's still body (the centre of mass moving with a waving arm, the
 * hips against it) shook its legs and head at 2.8 times the floor of the report's per-bone jerk;
 * 16 times finer, not at all.
 */
export const SHARED_GRID_REFINEMENT = 16;

/**
 * The grid step of a curve's key values for a reduction tolerance (see {@link VALUE_STEPS_PER_TOLERANCE}): a float32, 0 for a tolerance of 0 (no grid).
 * @param tolerance the curve's reduction tolerance, in its unit
 * @param shared whether the curve is keyed on frames shared with others ({@link ReduceCurveGroup}): a grid {@link SHARED_GRID_REFINEMENT} times finer. Default false.
 */
export function GetCurveValueStep(tolerance: number, shared = false): number {
    return tolerance > 0 ? Math.fround(tolerance / (VALUE_STEPS_PER_TOLERANCE * (shared ? SHARED_GRID_REFINEMENT : 1))) : 0;
}

/** `v` on the grid of `step` (whole multiples, as float32, never -0); `v` as float32 when `step` is 0. */
export function SnapToStep(v: number, step: number): number {
    return step > 0 ? Math.fround((Math.round(v / step) + 0) * step) : Math.fround(v);
}

/**
 * Keyframe reduction of one curve sampled on a frame grid, with an error bound: the curve the
 * returned keys make (cubic Hermite with the slopes of `interpolation`, see `CurveInterpolation`)
 * is within `tolerance` of every sample.
 *
 * First a linear pass, O(n) ("swing door" / fan), chooses the key frames: from the last key, keep
 * the range of slopes that pass within `tolerance` of every sample so far; when the next sample
 * closes that range, put a key on the previous frame. Keys take the samples' values. Then the smooth
 * curve through the keys is checked on every sample, and the worst sample of each segment that
 * misses becomes a key, until none misses (rounds after the first look near new keys only; a spline
 * key moves every segment a little, so a spline reduction ends with a round over every segment
 * and goes on if that finds a miss). A curve that stays within `tolerance` of one value becomes a
 * single key.
 *
 * With a `step`, key values are whole multiples of it ({@link SnapToStep}), which the binary file
 * stores as small integer differences; the check runs on the snapped values, so the bound holds
 * as stated. A curve that fits one value but no multiple of the step (its range all but twice the
 * tolerance, its middle between two) is its one key off the grid, returned without a step.
 * @param samples the value at every frame (at least one)
 * @param tolerance largest allowed error, in the curve's unit (>= 0; 0 keeps every change of slope)
 * @param step grid of the key values, in the curve's unit (default 0: none; at most a quarter of `tolerance`)
 * @param interpolation how the curve passes between keys (default `"spline"`, what clips are made with)
 */
export function ReduceCurve(samples: ArrayLike<number>, tolerance: number, step = 0, interpolation: CurveInterpolation = "spline"): IMuscleCurve {
    const n = samples.length;
    const bounds = reductionBounds(samples, tolerance, step);
    step = bounds.step;
    const tol = bounds.tol;
    const snap = step > 0;
    const done = (frames: Uint32Array, values: Float32Array): IMuscleCurve => (snap ? { frames, values, step } : { frames, values });
    if (bounds.oneKey) {
        // Off the grid (no step) when no value on it is within the tolerance of every sample.
        const v = Float32Array.of(bounds.oneValue);
        return bounds.oneOnGrid ? done(Uint32Array.of(0), v) : { frames: Uint32Array.of(0), values: v };
    }
    // The fan leaves the grid its half step each side; the check below is on the snapped keys.
    // Never negative: with values so large that float32 rounding takes the whole tolerance (tol 0),
    // a negative fan would end segments on their own anchor and key a frame twice.
    const fan = Math.max(0, tol - step);
    const frames: number[] = [0];
    let anchor = 0;
    let anchorValue = samples[0];
    let minSlope = -Infinity;
    let maxSlope = Infinity;
    for (let k = 1; k < n; k++) {
        const d = k - anchor;
        const a = (samples[k] - fan - anchorValue) / d;
        const b = (samples[k] + fan - anchorValue) / d;
        const newMin = a > minSlope ? a : minSlope;
        const newMax = b < maxSlope ? b : maxSlope;
        if (newMin <= newMax) {
            minSlope = newMin;
            maxSlope = newMax;
            continue;
        }
        // Sample k cannot join: end the segment on frame k - 1 (> anchor, as one step always fits).
        const end = Math.max(k - 1, anchor + 1);
        anchorValue += ((minSlope + maxSlope) / 2) * (end - anchor);
        anchor = end;
        frames.push(end);
        minSlope = samples[k] - fan - anchorValue;
        maxSlope = samples[k] + fan - anchorValue;
    }
    frames.push(n - 1);
    // The smooth curve through the keys, which go on the samples: add the worst missed sample of
    // each segment until none misses. A segment's curve depends on keys k-1..k+2, so after the first
    // round only segments near a new key are checked again.
    let keyFrames = Uint32Array.from(frames);
    let check: Uint8Array | null = null;
    const spline = interpolation === "spline";
    for (;;) {
        const keyValues = keyValuesOf(samples, keyFrames, step);
        const slopes = spline ? SplineSlopesToRef(keyFrames, keyValues, new Float64Array(keyFrames.length)) : null;
        const add: number[] = [];
        const last = keyFrames.length - 1;
        for (let k = 0; k < last; k++) {
            if (check && !check[k]) continue;
            // The segment as the sampler's table has it (EvaluateCurveSegment's operations for
            // Catmull-Rom), with its slopes worked out once rather than per sample.
            const f0 = keyFrames[k];
            const f1 = keyFrames[k + 1];
            const h = f1 - f0;
            const a0 = k > 0 ? k - 1 : 0;
            const b1 = k + 2 <= last ? k + 2 : last;
            const m0 = (slopes ? slopes[k] : (keyValues[k + 1] - keyValues[a0]) / (keyFrames[k + 1] - keyFrames[a0])) * h;
            const m1 = (slopes ? slopes[k + 1] : (keyValues[b1] - keyValues[k]) / (keyFrames[b1] - keyFrames[k])) * h;
            const v0 = keyValues[k];
            const v1 = keyValues[k + 1];
            let worst = tol;
            let at = -1;
            for (let f = f0 + 1; f < f1; f++) {
                const t = (f - f0) / h;
                const t2 = t * t;
                const t3 = t2 * t;
                const e = Math.abs((2 * t3 - 3 * t2 + 1) * v0 + (t3 - 2 * t2 + t) * m0 + (3 * t2 - 2 * t3) * v1 + (t3 - t2) * m1 - samples[f]);
                if (e > worst) {
                    worst = e;
                    at = f;
                }
            }
            if (at >= 0) add.push(at);
        }
        if (!add.length) {
            // A spline key moves every segment a little: rounds that looked only near new keys
            // end with one over them all.
            if (!check || !spline) return done(keyFrames, keyValues);
            check = null;
            continue;
        }
        // The segments a new key changes: k-2..k+1 around it (Catmull-Rom), further for a spline.
        check = new Uint8Array(keyFrames.length + add.length);
        keyFrames = mergeKeys(keyFrames, add, spline ? SPLINE_CHECK_REACH : 2, check);
    }
}

/**
 * What a reduction needs of a curve before choosing keys: its range, the tolerance left once key
 * values are rounded to float32 (`2 * FLOAT32_EPSILON * peak`), the grid step it may use (0 when
 * `step` is not between 0 and a quarter of `tolerance`), and whether one key holds it (one
 * sample, or one value within the tolerance of every sample) with that key's value and whether
 * it is on the grid.
 */
function reductionBounds(
    samples: ArrayLike<number>,
    tolerance: number,
    step: number,
): { lo: number; hi: number; tol: number; step: number; oneKey: boolean; oneValue: number; oneOnGrid: boolean } {
    let lo = Infinity;
    let hi = -Infinity;
    let peak = 0;
    for (let i = 0; i < samples.length; i++) {
        const v = samples[i];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
        peak = Math.max(peak, Math.abs(v));
    }
    const grid = step >= 0 && step <= tolerance / 4 ? step : 0;
    // Leave room for rounding the key values to float32 (and to the grid).
    const tol = Math.max(0, tolerance - 2 * FLOAT32_EPSILON * peak);
    // One key when one value is within the tolerance of every sample: the grid's nearest to the
    // middle when it is, else the middle itself (a curve that fits one value is never keyed more
    // for the grid; such a curve then has no step).
    if (samples.length === 1) return { lo, hi, tol, step: grid, oneKey: true, oneValue: SnapToStep(samples[0], grid), oneOnGrid: true };
    if (hi - lo <= 2 * tol) {
        const middle = (lo + hi) / 2;
        const snapped = SnapToStep(middle, grid);
        if (snapped - lo <= tol && hi - snapped <= tol) return { lo, hi, tol, step: grid, oneKey: true, oneValue: snapped, oneOnGrid: true };
        // (Without a grid the snapped middle is this one: only a grid gets here.)
        const plain = Math.fround(middle);
        if (plain - lo <= tol && hi - plain <= tol) return { lo, hi, tol, step: grid, oneKey: true, oneValue: plain, oneOnGrid: false };
    }
    return { lo, hi, tol, step: grid, oneKey: false, oneValue: NaN, oneOnGrid: true };
}

/**
 * New keys merged into the key frames (both in order, each new key inside its segment), marking
 * in `check` (as long as the result) the segments within `reach` keys of each new key: the ones
 * whose curve it changes. Returns the merged frames.
 */
function mergeKeys(keyFrames: Uint32Array, add: readonly number[], reach: number, check: Uint8Array): Uint32Array<ArrayBuffer> {
    const merged = new Uint32Array(keyFrames.length + add.length);
    for (let i = 0, j = 0, m = 0; m < merged.length; m++) {
        if (j >= add.length || (i < keyFrames.length && keyFrames[i] < add[j])) {
            merged[m] = keyFrames[i++];
        } else {
            merged[m] = add[j++];
            for (let c = m > reach ? m - reach : 0; c <= m + reach - 1 && c < merged.length; c++) check[c] = 1;
        }
    }
    return merged;
}

/**
 * Keyframe reduction of curves that move together, each within its own tolerance as
 * {@link ReduceCurve} keeps it, on key frames they share (a curve within its tolerance of one
 * value stays one key).
 *
 * Why: the spline through keys is linear in the key values, the same linear filter for every
 * curve keyed on the same frames. Mocap's curves carry jitter that cancels between them: the
 * hips move one way as the spine turns back, so the head keeps still (on a child's jump the
 * head's third differences are 0.6 of the hips'). Reduced on frames of their own, each curve keeps
 * a different part of its jitter and the cancellation goes: played on the CMU skeleton, that
 * head jerked 1.37 times as much as with every frame kept, and keeping some of the curves exact
 * and not the others was worse still. On shared frames, what goes goes from all of them alike:
 * 0.91 times. Throws a `HumanoidError` (`BAD_OPTION`) when the curves are not all as long, or
 * the tolerances and steps are not one per curve, or a tolerance is not 0 or more.
 *
 * The key frames are chosen as {@link ReduceCurve} chooses one curve's, for all at once: the
 * linear pass ends a segment when any curve's range of slopes closes, and each round of checks
 * adds, per segment, the sample that misses its curve's tolerance by the largest share of it.
 * @param samples each curve's value at every frame (all as long, at least one frame)
 * @param tolerances each curve's largest allowed error, in its unit (>= 0)
 * @param steps each curve's grid of key values (0: none; at most a quarter of its tolerance)
 */
export function ReduceCurveGroup(samples: readonly ArrayLike<number>[], tolerances: readonly number[], steps: readonly number[]): IMuscleCurve[] {
    if (tolerances.length !== samples.length || steps.length !== samples.length) {
        throw new HumanoidError(
            "BAD_OPTION",
            `ReduceCurveGroup: ${samples.length} curves, ${tolerances.length} tolerances and ${steps.length} steps (one of each per curve)`,
        );
    }
    samples.forEach((s, i) => {
        if (s.length !== samples[0].length)
            throw new HumanoidError("BAD_OPTION", `ReduceCurveGroup: curve ${i} has ${s.length} samples, curve 0 ${samples[0].length} (all as long)`);
        if (!(tolerances[i] >= 0)) throw new HumanoidError("BAD_OPTION", `ReduceCurveGroup: curve ${i}'s tolerance is ${tolerances[i]} (0 or more)`);
    });
    // A curve its own reduction keeps as one key (ReduceCurve's own test) stays one key.
    const out: IMuscleCurve[] = new Array<IMuscleCurve>(samples.length);
    const moving: number[] = [];
    const step: number[] = [];
    const tol: number[] = [];
    samples.forEach((s, i) => {
        const bounds = reductionBounds(s, tolerances[i], steps[i]);
        if (bounds.oneKey) out[i] = ReduceCurve(s, tolerances[i], steps[i], "spline");
        else {
            moving.push(i);
            step.push(bounds.step);
            tol.push(bounds.tol);
        }
    });
    if (moving.length < 2) {
        for (const i of moving) out[i] = ReduceCurve(samples[i], tolerances[i], steps[i], "spline");
        return out;
    }
    const n = samples[moving[0]].length;
    // The linear pass, every curve at once: a segment ends where any curve's fan closes.
    const m = moving.length;
    const fan = tol.map((t, k) => Math.max(0, t - step[k]));
    const anchorValue = moving.map((i) => samples[i][0]);
    const minSlope = new Float64Array(m).fill(-Infinity);
    const maxSlope = new Float64Array(m).fill(Infinity);
    const nextMin = new Float64Array(m);
    const nextMax = new Float64Array(m);
    const frames: number[] = [0];
    let anchor = 0;
    for (let f = 1; f < n; f++) {
        const d = f - anchor;
        let closed = false;
        for (let k = 0; k < m; k++) {
            const v = samples[moving[k]][f];
            const lo = (v - fan[k] - anchorValue[k]) / d;
            const hi = (v + fan[k] - anchorValue[k]) / d;
            nextMin[k] = lo > minSlope[k] ? lo : minSlope[k];
            nextMax[k] = hi < maxSlope[k] ? hi : maxSlope[k];
            if (nextMin[k] > nextMax[k]) closed = true;
        }
        if (!closed) {
            minSlope.set(nextMin);
            maxSlope.set(nextMax);
            continue;
        }
        const end = Math.max(f - 1, anchor + 1);
        for (let k = 0; k < m; k++) {
            anchorValue[k] += ((minSlope[k] + maxSlope[k]) / 2) * (end - anchor);
            const v = samples[moving[k]][f];
            minSlope[k] = v - fan[k] - anchorValue[k];
            maxSlope[k] = v + fan[k] - anchorValue[k];
        }
        anchor = end;
        frames.push(end);
    }
    frames.push(n - 1);
    let keyFrames = Uint32Array.from(new Set(frames));
    // Checks: per segment, the sample missing its curve's tolerance by the largest share of it.
    // A key moves every segment of a spline a little, most near it: after the first round only
    // segments near new keys are checked, and a round over them all ends it (as `ReduceCurve`).
    let check: Uint8Array | null = null;
    // Buffers for a round's key values and slopes, grown as keys are added (rounds are many, curves dozens).
    let capacity = 0;
    let values = new Float32Array(0);
    let slopes = new Float64Array(0);
    let scratch = { c: new Float64Array(0), d: new Float64Array(0) };
    for (;;) {
        const segments = keyFrames.length - 1;
        if (keyFrames.length > capacity) {
            capacity = 2 * keyFrames.length;
            values = new Float32Array(capacity);
            slopes = new Float64Array(capacity);
            scratch = { c: new Float64Array(capacity), d: new Float64Array(capacity) };
        }
        const keyCount = keyFrames.length;
        const vals = values.subarray(0, keyCount);
        const slo = slopes.subarray(0, keyCount);
        const worst = new Float64Array(segments).fill(1);
        const at = new Int32Array(segments).fill(-1);
        for (let k = 0; k < m; k++) {
            const s = samples[moving[k]];
            for (let q = 0; q < keyCount; q++) vals[q] = SnapToStep(s[keyFrames[q]], step[k]);
            SplineSlopesToRef(keyFrames, vals, slo, scratch);
            for (let j = 0; j < segments; j++) {
                if (check && !check[j]) continue;
                const f0 = keyFrames[j];
                const h = keyFrames[j + 1] - f0;
                const m0 = slo[j] * h;
                const m1 = slo[j + 1] * h;
                const v0 = vals[j];
                const v1 = vals[j + 1];
                for (let f = f0 + 1; f < f0 + h; f++) {
                    const t = (f - f0) / h;
                    const t2 = t * t;
                    const t3 = t2 * t;
                    const e = Math.abs((2 * t3 - 3 * t2 + 1) * v0 + (t3 - 2 * t2 + t) * m0 + (3 * t2 - 2 * t3) * v1 + (t3 - t2) * m1 - s[f]);
                    const share = tol[k] > 0 ? e / tol[k] : e > 0 ? Infinity : 0;
                    if (share > worst[j]) {
                        worst[j] = share;
                        at[j] = f;
                    }
                }
            }
        }
        const add: number[] = [];
        for (let j = 0; j < segments; j++) if (at[j] >= 0) add.push(at[j]);
        if (!add.length) {
            if (!check) break;
            check = null;
            continue;
        }
        check = new Uint8Array(keyFrames.length + add.length);
        keyFrames = mergeKeys(keyFrames, add, SPLINE_CHECK_REACH, check);
    }
    moving.forEach((i, k) => {
        const values = keyValuesOf(samples[i], keyFrames, step[k]);
        out[i] = step[k] > 0 ? { frames: keyFrames.slice(), values, step: step[k] } : { frames: keyFrames.slice(), values };
    });
    return out;
}

/** Key values for key frames: the samples there, on the grid of `step`. */
function keyValuesOf(samples: ArrayLike<number>, keyFrames: Uint32Array, step: number): Float32Array {
    const keyValues = new Float32Array(keyFrames.length);
    for (let k = 0; k < keyFrames.length; k++) keyValues[k] = SnapToStep(samples[keyFrames[k]], step);
    return keyValues;
}
