import fc from "fast-check";
import { GetCurveValueStep, ReduceCurve, SplineSlopesToRef, type CurveInterpolation } from "../../src/index.js";
import { DenseSplineSlopes, HermiteValueAt } from "../helpers/splineOracle.js";

/** Catmull-Rom slopes on the uneven key grid (centred differences, one-sided at the ends), written out plainly. */
function catmullRomSlopes(frames: Uint32Array, values: Float32Array): number[] {
    return Array.from(frames, (_, i) => {
        const a = Math.max(0, i - 1);
        const b = Math.min(frames.length - 1, i + 1);
        return (values[b] - values[a]) / (frames[b] - frames[a]);
    });
}

/** The reduced curve's value at a frame, by its interpolation, the slow way (a dense solve for the spline). */
function valueAt(frames: Uint32Array, values: Float32Array, f: number, interpolation: CurveInterpolation = "spline"): number {
    const slopes = interpolation === "spline" ? DenseSplineSlopes(frames, values) : catmullRomSlopes(frames, values);
    return HermiteValueAt(frames, values, slopes, f);
}

describe("natural cubic spline slopes", () => {
    it("match a dense solve of the slope equations, and make a curve through the keys with no jump in acceleration", () => {
        fc.assert(
            fc.property(
                fc.array(fc.tuple(fc.integer({ min: 1, max: 20 }), fc.double({ min: -10, max: 10, noNaN: true })), { minLength: 1, maxLength: 40 }),
                (keys) => {
                    const frames = new Uint32Array(keys.length);
                    const values = new Float32Array(keys.length);
                    for (let k = 1; k < keys.length; k++) frames[k] = frames[k - 1] + keys[k][0];
                    keys.forEach(([, v], k) => (values[k] = v));
                    const s = SplineSlopesToRef(frames, values, new Float64Array(keys.length));
                    const dense = DenseSplineSlopes(frames, values);
                    const scale = 1 + Math.max(...Array.from(values, Math.abs));
                    for (let k = 0; k < keys.length; k++) expect(Math.abs(s[k] - dense[k])).toBeLessThan(1e-9 * scale);
                    // Second derivative of each segment at its ends: equal across every interior key, 0 at both ends.
                    const acc = (k: number, end: 0 | 1): number => {
                        const h = frames[k + 1] - frames[k];
                        const d = (values[k + 1] - values[k]) / h;
                        return end === 0 ? (6 * d - 4 * s[k] - 2 * s[k + 1]) / h : (-6 * d + 2 * s[k] + 4 * s[k + 1]) / h;
                    };
                    if (keys.length >= 2) {
                        expect(Math.abs(acc(0, 0))).toBeLessThan(1e-9 * scale);
                        expect(Math.abs(acc(keys.length - 2, 1))).toBeLessThan(1e-9 * scale);
                    }
                    for (let k = 1; k < keys.length - 1; k++) expect(Math.abs(acc(k - 1, 1) - acc(k, 0))).toBeLessThan(1e-8 * scale);
                },
            ),
            { numRuns: 300 },
        );
    });
});

describe("keyframe reduction", () => {
    it.each(["spline", "catmull-rom"] as const)(
        "(%s) keeps every sample within the tolerance, with keys on the frame grid from the first to the last frame",
        (interpolation) => {
            fc.assert(
                fc.property(
                    fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 300 }),
                    fc.double({ min: 0, max: 1, noNaN: true }),
                    (raw, tol) => {
                        // Samples are float32 as in a clip; keys are stored as float32 too, so a tolerance
                        // below float32 precision cannot be met exactly.
                        const samples = raw.map(Math.fround);
                        const bound = Math.max(tol, 2 ** -22 * Math.max(...samples.map(Math.abs))) + 1e-12;
                        const c = ReduceCurve(samples, tol, 0, interpolation);
                        expect(c.frames[0]).toBe(0);
                        if (c.frames.length > 1) expect(c.frames[c.frames.length - 1]).toBe(samples.length - 1);
                        for (let k = 1; k < c.frames.length; k++) expect(c.frames[k]).toBeGreaterThan(c.frames[k - 1]);
                        for (let f = 0; f < samples.length; f++) {
                            expect(Math.abs(valueAt(c.frames, c.values, f, interpolation) - samples[f])).toBeLessThanOrEqual(bound);
                        }
                    },
                ),
                { numRuns: 300 },
            );
        },
    );

    it("a spline adds no jerk spike at its keys: a smooth motion reduced plays about as smooth as it was", () => {
        // Two waves reduced within 1% of their size: the third difference of the played curve
        // (jerk) against the source's, Catmull-Rom's jumps in acceleration at each key against the spline's.
        const samples = Array.from({ length: 120 }, (_, f) => 0.5 * Math.sin(f / 10) + 0.2 * Math.sin(f / 4.6 + 1));
        const jerk = (v: (f: number) => number): number => {
            let sum = 0;
            for (let f = 3; f < samples.length; f++) sum += (v(f) - 3 * v(f - 1) + 3 * v(f - 2) - v(f - 3)) ** 2;
            return Math.sqrt(sum);
        };
        const source = jerk((f) => samples[f]);
        const played = (interpolation: CurveInterpolation): number => {
            const c = ReduceCurve(samples, 0.01, 0, interpolation);
            return jerk((f) => valueAt(c.frames, c.values, f, interpolation)) / source;
        };
        expect(played("spline")).toBeLessThan(1.2);
        expect(played("catmull-rom")).toBeGreaterThan(1.3 * played("spline"));
    });

    it("with a value step, keeps every key on its grid and every sample still within the tolerance", () => {
        fc.assert(
            fc.property(
                fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 300 }),
                fc.double({ min: 1e-4, max: 1, noNaN: true }),
                fc.boolean(),
                (raw, tol, smooth) => {
                    // Noise, or a smooth wave through the same values (the case the grid is for).
                    const samples = (smooth ? raw.map((_, f) => raw[0] * Math.sin(f / 7)) : raw).map(Math.fround);
                    const bound = Math.max(tol, 2 ** -22 * Math.max(...samples.map(Math.abs))) + 1e-12;
                    const step = GetCurveValueStep(tol);
                    const c = ReduceCurve(samples, tol, step);
                    expect(c.step).toBe(step);
                    for (const v of c.values) expect(Math.fround((Math.round(v / step) + 0) * step)).toBe(v);
                    for (let f = 0; f < samples.length; f++) {
                        expect(Math.abs(valueAt(c.frames, c.values, f) - samples[f])).toBeLessThanOrEqual(bound);
                    }
                    // The grid costs few keys: never more than a few over the curve without it.
                    expect(c.frames.length).toBeLessThanOrEqual(ReduceCurve(samples, tol).frames.length * 1.25 + 2);
                },
            ),
            { numRuns: 300 },
        );
        // No tolerance, no grid.
        expect(GetCurveValueStep(0)).toBe(0);
        expect(ReduceCurve([1, 2, 3], 0, GetCurveValueStep(0)).step).toBeUndefined();
    });

    it("drops keys where the motion is straight or still, and keeps a key at every corner", () => {
        const line = Array.from({ length: 100 }, (_, f) => 0.5 + f * 0.01);
        expect(Array.from(ReduceCurve(line, 1e-4).frames)).toEqual([0, 99]);
        expect(ReduceCurve(new Array(50).fill(0.25), 0).frames).toHaveLength(1);
        const vee = Array.from({ length: 21 }, (_, f) => Math.abs(f - 10));
        const corner = Array.from(ReduceCurve(vee, 1e-6, 0, "catmull-rom").frames);
        expect(corner).toContain(10);
        // A smooth curve rounds a corner: it needs a few keys beside it, not one per frame.
        expect(corner.length).toBeLessThan(12);
        // A spline rings on each side of a corner (each key moves every segment a little): more
        // keys beside it at a fine tolerance, still not one per frame.
        const splineCorner = Array.from(ReduceCurve(vee, 1e-3).frames);
        expect(splineCorner).toContain(10);
        expect(splineCorner.length).toBeLessThan(vee.length - 2);
        // A sine at 120 fps within 0.1 degree needs a handful of keys per period, not 120.
        const sine = Array.from({ length: 120 }, (_, f) => Math.sin((2 * Math.PI * f) / 120));
        const keys = ReduceCurve(sine, (0.1 * Math.PI) / 180 / 1).frames.length;
        expect(keys).toBeGreaterThan(8);
        expect(keys).toBeLessThan(40);
    });
});
