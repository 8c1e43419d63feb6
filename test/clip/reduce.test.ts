import fc from "fast-check";
import { GetCurveValueStep, ReduceCurve } from "../../src/index.js";

/** The reduced curve's value at a frame: Catmull-Rom on the uneven key grid, written out plainly. */
function valueAt(frames: Uint32Array, values: Float32Array, f: number): number {
    if (frames.length === 1) return values[0];
    let k = 0;
    while (k < frames.length - 2 && frames[k + 1] <= f) k++;
    const slope = (i: number): number => {
        const a = Math.max(0, i - 1);
        const b = Math.min(frames.length - 1, i + 1);
        return (values[b] - values[a]) / (frames[b] - frames[a]);
    };
    const h = frames[k + 1] - frames[k];
    const t = (f - frames[k]) / h;
    const h00 = 2 * t ** 3 - 3 * t ** 2 + 1;
    const h10 = t ** 3 - 2 * t ** 2 + t;
    const h01 = -2 * t ** 3 + 3 * t ** 2;
    const h11 = t ** 3 - t ** 2;
    return h00 * values[k] + h10 * h * slope(k) + h01 * values[k + 1] + h11 * h * slope(k + 1);
}

describe("keyframe reduction", () => {
    it("keeps every sample within the tolerance, with keys on the frame grid from the first to the last frame", () => {
        fc.assert(
            fc.property(
                fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 300 }),
                fc.double({ min: 0, max: 1, noNaN: true }),
                (raw, tol) => {
                    // Samples are float32 as in a clip; keys are stored as float32 too, so a tolerance
                    // below float32 precision cannot be met exactly.
                    const samples = raw.map(Math.fround);
                    const bound = Math.max(tol, 2 ** -22 * Math.max(...samples.map(Math.abs))) + 1e-12;
                    const c = ReduceCurve(samples, tol);
                    expect(c.frames[0]).toBe(0);
                    if (c.frames.length > 1) expect(c.frames[c.frames.length - 1]).toBe(samples.length - 1);
                    for (let k = 1; k < c.frames.length; k++) expect(c.frames[k]).toBeGreaterThan(c.frames[k - 1]);
                    for (let f = 0; f < samples.length; f++) {
                        expect(Math.abs(valueAt(c.frames, c.values, f) - samples[f])).toBeLessThanOrEqual(bound);
                    }
                },
            ),
            { numRuns: 300 },
        );
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
        const corner = Array.from(ReduceCurve(vee, 1e-6).frames);
        expect(corner).toContain(10);
        // A smooth curve rounds a corner: it needs a few keys beside it, not one per frame.
        expect(corner.length).toBeLessThan(12);
        // A sine at 120 fps within 0.1 degree needs a handful of keys per period, not 120.
        const sine = Array.from({ length: 120 }, (_, f) => Math.sin((2 * Math.PI * f) / 120));
        const keys = ReduceCurve(sine, (0.1 * Math.PI) / 180 / 1).frames.length;
        expect(keys).toBeGreaterThan(8);
        expect(keys).toBeLessThan(40);
    });
});
