import fc from "fast-check";
import {
    GROUP_SHARE_REACH,
    SmoothCurveGroupWithinBands,
    SmoothingStrideAtRate,
    SmoothWithinBand,
    SmoothWithinBandAtRate,
    SMOOTHING_REFERENCE_RATE,
    SMOOTHING_ROUNDS,
} from "../../src/index.js";

/** The summed squared third differences of a curve: the energy the smoothing lowers. */
function jerkEnergy(x: ArrayLike<number>): number {
    let e = 0;
    for (let i = 3; i < x.length; i++) e += (x[i] - 3 * x[i - 1] + 3 * x[i - 2] - x[i - 3]) ** 2;
    return e;
}

/**
 * The oracle: the same rounds written out plainly, the third difference as a dense matrix D
 * (rows i = 3..n-1), the step x - (D^T D x) / 64 over every inner sample at once, then the clamp
 * into the band; the end samples stay.
 */
function smoothReference(samples: number[], band: number, rounds: number): number[] {
    const n = samples.length;
    let x = samples.slice();
    if (!(band > 0) || n < 5) return x;
    const D: number[][] = [];
    for (let i = 3; i < n; i++) {
        const row = new Array<number>(n).fill(0);
        row[i] = 1;
        row[i - 1] = -3;
        row[i - 2] = 3;
        row[i - 3] = -1;
        D.push(row);
    }
    for (let r = 0; r < rounds; r++) {
        const dx = D.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));
        const grad = x.map((_, j) => D.reduce((s, row, k) => s + row[j] * dx[k], 0));
        x = x.map((v, j) => (j === 0 || j === n - 1 ? v : Math.min(samples[j] + band, Math.max(samples[j] - band, v - grad[j] / 64))));
    }
    return x;
}

/**
 * The oracle of the rate's rounds: for each stride from the largest down to 1, the rounds with the
 * third difference over every `stride`-th frame as a dense matrix (rows i = 3 stride..n-1), each
 * clamped into the band of the samples; the first and last `stride` samples stay, and so does a
 * run of every `stride`-th sample shorter than 5.
 */
function smoothAtRateReference(samples: number[], band: number, rate: number, rounds: number): number[] {
    const n = samples.length;
    let x = samples.slice();
    if (!(band > 0) || n < 5) return x;
    for (let s = SmoothingStrideAtRate(rate); s >= 1; s /= 2) {
        const D: number[][] = [];
        for (let i = 3 * s; i < n; i++) {
            const row = new Array<number>(n).fill(0);
            row[i] = 1;
            row[i - s] = -3;
            row[i - 2 * s] = 3;
            row[i - 3 * s] = -1;
            D.push(row);
        }
        for (let r = 0; r < rounds; r++) {
            const dx = D.map((row) => row.reduce((sum, a, j) => sum + a * x[j], 0));
            const grad = x.map((_, j) => D.reduce((sum, row, k) => sum + row[j] * dx[k], 0));
            // Each run of every s-th sample keeps its ends (the first and last s samples), and a run shorter than 5 stays.
            const runLength = (j: number): number => Math.floor((n - 1 - (j % s)) / s) + 1;
            x = x.map((v, j) => (j < s || j >= n - s || runLength(j) < 5 ? v : Math.min(samples[j] + band, Math.max(samples[j] - band, v - grad[j] / 64))));
        }
    }
    return x;
}

/** The amplitude of a curve's part at `cycles` per sample (its correlation with that wave, over the middle half). */
function amplitudeAt(x: ArrayLike<number>, cycles: number): number {
    const n = x.length;
    let c = 0;
    let s = 0;
    let k = 0;
    for (let i = Math.floor(n / 4); i < Math.floor((3 * n) / 4); i++, k++) {
        c += x[i] * Math.cos(2 * Math.PI * cycles * i);
        s += x[i] * Math.sin(2 * Math.PI * cycles * i);
    }
    return (2 * Math.hypot(c, s)) / k;
}

/** A smoothed curve: the oracle's to rounding, each sample within the band of its own, the first and last kept. */
function expectOracleWithinBand(x: Float64Array, ref: number[], samples: number[], band: number): void {
    expect(x.length).toBe(samples.length);
    const scale = 1 + Math.max(0, ...samples.map(Math.abs));
    for (let i = 0; i < samples.length; i++) {
        expect(Math.abs(x[i] - ref[i])).toBeLessThanOrEqual(1e-9 * scale);
        expect(Math.abs(x[i] - samples[i])).toBeLessThanOrEqual(band + 1e-12 * scale);
    }
    if (samples.length) {
        expect(x[0]).toBe(samples[0]);
        expect(x[samples.length - 1]).toBe(samples[samples.length - 1]);
    }
}

const curve = fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 0, maxLength: 60 });

describe("smoothing within a band", () => {
    it("matches the dense oracle, stays within the band, keeps the ends and never raises the jerk energy", () => {
        fc.assert(
            fc.property(curve, fc.double({ min: 0, max: 5, noNaN: true }), fc.integer({ min: 0, max: 12 }), (samples, band, rounds) => {
                const x = SmoothWithinBand(samples, band, rounds);
                const ref = smoothReference(samples, band, rounds);
                expectOracleWithinBand(x, ref, samples, band);
                expect(jerkEnergy(x)).toBeLessThanOrEqual(jerkEnergy(samples) * (1 + 1e-12) + 1e-18);
            }),
        );
    });

    it("leaves a curve alone where it has no jerk, or no band is given", () => {
        const quadratic = Array.from({ length: 40 }, (_, i) => 0.5 * i * i - 3 * i + 2);
        expect(Array.from(SmoothWithinBand(quadratic, 1))).toEqual(quadratic);
        const noisy = Array.from({ length: 40 }, (_, i) => Math.sin(i) * 3);
        expect(Array.from(SmoothWithinBand(noisy, 0))).toEqual(noisy);
        expect(Array.from(SmoothWithinBand(Float32Array.of(1, 2, 4, 8), 1))).toEqual([1, 2, 4, 8]);
    });

    it("takes out jitter at the top of the spectrum and keeps slow motion", () => {
        // A slow wave (a twentieth of the sample rate) with jitter of the band's size on every frame.
        const n = 300;
        const slow = Array.from({ length: n }, (_, i) => 10 * Math.sin((2 * Math.PI * i) / 20));
        let seed = 7;
        const noise = (): number => {
            seed = (seed * 16807) % 2147483647;
            return seed / 2147483647 - 0.5;
        };
        const band = 0.05;
        const samples = slow.map((v) => v + 2 * band * noise());
        const x = SmoothWithinBand(samples, band);
        // The jitter's energy mostly gone: within a quarter of the way from the noisy curve's to the clean wave's.
        expect(jerkEnergy(x) - jerkEnergy(slow)).toBeLessThan(0.25 * (jerkEnergy(samples) - jerkEnergy(slow)));
        // The wave itself kept: the smoothed curve stays within the noise's own size of it.
        for (let i = 0; i < n; i++) expect(Math.abs(x[i] - slow[i])).toBeLessThanOrEqual(2 * band);
        // Jitter alone, far under the band: the default rounds quiet it to a small share.
        const jitter = Array.from({ length: n }, () => 0.01 * noise());
        expect(jerkEnergy(SmoothWithinBand(jitter, 1))).toBeLessThan(0.05 * jerkEnergy(jitter));
        expect(SMOOTHING_ROUNDS).toBeGreaterThan(0);
    });
});

describe("smoothing within a band at a frame rate", () => {
    it("uses strides of every second, fourth... frame up to the rate over the reference rate (60)", () => {
        expect(SMOOTHING_REFERENCE_RATE).toBe(60);
        // Within 1%: BVH frame times are rounded (0.008342 s: 119.875 frames a second).
        expect([1, 24, 30, 58, 59.5, 59.9988, 60, 100, 118, 119.875, 120, 240, 1000].map(SmoothingStrideAtRate)).toEqual([
            1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 16,
        ]);
    });

    it("matches the dense oracle, stays within the band, keeps the ends, and is SmoothWithinBand at the reference rate", () => {
        fc.assert(
            fc.property(
                curve,
                fc.double({ min: 0, max: 5, noNaN: true }),
                fc.constantFrom(24, 30, 60, 120, 240),
                fc.integer({ min: 0, max: 6 }),
                (samples, band, rate, rounds) => {
                    const x = SmoothWithinBandAtRate(samples, band, rate, rounds);
                    const ref = smoothAtRateReference(samples, band, rate, rounds);
                    expectOracleWithinBand(x, ref, samples, band);
                    if (rate <= 60) expect(Array.from(x)).toEqual(Array.from(SmoothWithinBand(samples, band, rounds)));
                },
            ),
        );
    });

    it("takes out at 120 frames a second what it takes out at 60, and keeps the motion", () => {
        // Waves at 3 Hz (motion), 10 and 20 Hz, no band binding: the gain at each.
        const wave = (hz: number, rate: number): number[] => Array.from({ length: 8 * rate }, (_, i) => Math.sin((2 * Math.PI * hz * i) / rate));
        const gain = (hz: number, rate: number, atRate: boolean): number => {
            const x = wave(hz, rate);
            return amplitudeAt(atRate ? SmoothWithinBandAtRate(x, 10, rate) : SmoothWithinBand(x, 10), hz / rate);
        };
        // 3 Hz kept at both rates.
        expect(gain(3, 60, false)).toBeGreaterThan(0.999);
        expect(gain(3, 120, true)).toBeGreaterThan(0.999);
        // 10 Hz: at 120 frames a second with the strides about as much as at 60 (0.88), with rounds on every frame only next to nothing.
        const at60 = gain(10, 60, false);
        expect(at60).toBeLessThan(0.95);
        expect(Math.abs(gain(10, 120, true) - at60)).toBeLessThan(0.05);
        expect(gain(10, 120, false)).toBeGreaterThan(0.99);
        // 20 Hz jitter at 120 frames a second: the strides take it out, the rounds on every frame keep most of it.
        expect(gain(20, 120, true)).toBeLessThan(0.02);
        expect(gain(20, 120, false)).toBeGreaterThan(0.8);
    });
});

describe("smoothing a group of curves together", () => {
    const group = fc
        .integer({ min: 0, max: 40 })
        .chain((n) =>
            fc.tuple(
                fc.array(fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: n, maxLength: n }), { minLength: 1, maxLength: 4 }),
                fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { minLength: 4, maxLength: 4 }),
            ),
        );

    it("keeps every curve within its band and its ends, and any sum of the curves that was steady steady", () => {
        fc.assert(
            fc.property(group, fc.double({ min: -2, max: 2, noNaN: true }), ([curves, bands], k) => {
                // A last curve made of the others (here -k times the first): the group's jitter cancels in their sum.
                const all = [...curves, curves[0].map((v) => -k * v)];
                const b = [...bands.slice(0, curves.length), bands[3]];
                const out = SmoothCurveGroupWithinBands(all, b);
                const n = all[0].length;
                all.forEach((s, c) => {
                    const scale = 1 + Math.max(0, ...s.map(Math.abs));
                    for (let t = 0; t < n; t++) expect(Math.abs(out[c][t] - s[t])).toBeLessThanOrEqual(b[c] + 1e-12 * scale);
                    // (== : a -0 sample may come back +0)
                    if (n) expect(out[c][0] === s[0] && out[c][n - 1] === s[n - 1]).toBe(true);
                });
                // The sum that was 0 on every frame stays 0 (to rounding).
                const last = out.length - 1;
                const scale = 1 + Math.max(0, ...all[0].map(Math.abs)) * (1 + Math.abs(k));
                for (let t = 0; t < n; t++) expect(Math.abs(out[last][t] + k * out[0][t])).toBeLessThanOrEqual(1e-9 * scale);
            }),
        );
    });

    it("is each curve's own filter where no band binds, nothing where a band is 0, and a share that eases in", () => {
        const n = 60;
        const a = Array.from({ length: n }, (_, i) => Math.sin(i * 2.7) * 0.01 + i * 0.1);
        const b = Array.from({ length: n }, (_, i) => Math.cos(i * 1.9) * 0.02);
        const free = SmoothCurveGroupWithinBands([a, b], [1, 1]);
        // Away from the ends (where the share eases in from 0) each is the unbounded filter of itself.
        const fa = SmoothWithinBand(a, Infinity);
        const fb = SmoothWithinBand(b, Infinity);
        for (let t = 2 * GROUP_SHARE_REACH; t < n - 2 * GROUP_SHARE_REACH; t++) {
            expect(free[0][t]).toBeCloseTo(fa[t], 12);
            expect(free[1][t]).toBeCloseTo(fb[t], 12);
        }
        const held = SmoothCurveGroupWithinBands([a, b], [1, 0]);
        expect(Array.from(held[0])).toEqual(a);
        expect(Array.from(held[1])).toEqual(b);
        // One frame's tight band lowers the whole group's share around it, gradually.
        const tight = SmoothCurveGroupWithinBands([a, b], [1e-4, 1]);
        for (let t = 0; t < n; t++) expect(Math.abs(tight[0][t] - a[t])).toBeLessThanOrEqual(1e-4 + 1e-15);
        expect(Math.abs(tight[1][30] - b[30])).toBeLessThan(Math.abs(fb[30] - b[30]));
    });

    it("changes its share of the filter by at most a fifth a frame, and eases it in at the ends", () => {
        // A curve the filter moves on every frame (jitter at the top of the spectrum), and a
        // partner whose band binds hard on one frame only: the share dips there, gradually.
        const n = 80;
        const a = Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1) + 0.01 * i);
        const fa = SmoothWithinBand(a, Infinity);
        const b = Array.from({ length: n }, (_, i) => (i === 40 ? 1 : 0));
        const bandsB = 1e-3;
        const [sa] = SmoothCurveGroupWithinBands([a, b], [10, bandsB]);
        const share = Array.from({ length: n }, (_, t) => (Math.abs(fa[t] - a[t]) > 1e-9 ? (sa[t] - a[t]) / (fa[t] - a[t]) : NaN));
        const known = share.map((w, t) => [t, w] as const).filter(([, w]) => w === w);
        for (let k = 1; k < known.length; k++) {
            const [t0, w0] = known[k - 1];
            const [t1, w1] = known[k];
            expect(Math.abs(w1 - w0)).toBeLessThanOrEqual((t1 - t0) / 5 + 1e-9);
        }
        // Held near the tight frame, free away from it and from the ends, easing in at the start.
        expect(share[40]).toBeLessThan(0.01);
        expect(share[20]).toBeCloseTo(1, 9);
        expect(share[1]).toBeGreaterThan(0.5);
        expect(share[1]).toBeLessThan(share[3]);
    });

    it("refuses curves of different lengths and bands that do not match the curves", () => {
        expect(() =>
            SmoothCurveGroupWithinBands(
                [
                    [1, 2, 3, 4, 5, 6],
                    [1, 2, 3],
                ],
                [1, 1],
            ),
        ).toThrow(/curve 1 has 3 samples, curve 0 6/);
        expect(() =>
            SmoothCurveGroupWithinBands(
                [
                    [1, 2, 3, 4, 5, 6],
                    [1, 2, 3, 4, 5, 6],
                ],
                [1],
            ),
        ).toThrow(/2 curves and 1 bands/);
        expect(SmoothCurveGroupWithinBands([], [])).toEqual([]);
    });
});
