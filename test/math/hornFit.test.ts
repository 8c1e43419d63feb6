import fc from "fast-check";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { JacobiEigenSymmetric } from "../../src/math/jacobiEigen.js";
import { WeightedRigidFit } from "../../src/math/hornFit.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";

const rot = UnitQuaternionArbitrary();

function angleBetween(a: Quaternion, b: Quaternion): number {
    return 2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(a, b))));
}

/** Deterministic pseudo-random numbers for fixtures. */
function rng(seed: number): () => number {
    let s = seed >>> 0;
    return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

function cost(points: Vector3[], targets: Vector3[], weights: number[], r: Quaternion, t: Vector3): number {
    let c = 0;
    points.forEach((p, i) => (c += weights[i] * p.applyRotationQuaternion(r).add(t).subtract(targets[i]).lengthSquared()));
    return c;
}

describe("Jacobi eigen-decomposition of symmetric matrices", () => {
    it("gives A V = V diag(values) with V orthonormal, to 1e-12, on random symmetric 4x4 and 6x6 matrices", () => {
        fc.assert(
            fc.property(fc.integer({ min: 1, max: 1e9 }), fc.constantFrom(4, 6), (seed, n) => {
                const r = rng(seed);
                const a = new Float64Array(n * n);
                for (let i = 0; i < n; i++) for (let j = i; j < n; j++) a[i * n + j] = a[j * n + i] = r() * 10;
                const values = new Float64Array(n);
                const vectors = new Float64Array(n * n);
                JacobiEigenSymmetric(a, n, values, vectors);
                for (let k = 0; k < n; k++) {
                    for (let i = 0; i < n; i++) {
                        let av = 0;
                        for (let j = 0; j < n; j++) av += a[i * n + j] * vectors[j * n + k];
                        expect(Math.abs(av - values[k] * vectors[i * n + k])).toBeLessThan(1e-12 * 10 * n);
                    }
                    for (let l = 0; l < n; l++) {
                        let d = 0;
                        for (let i = 0; i < n; i++) d += vectors[i * n + k] * vectors[i * n + l];
                        expect(Math.abs(d - (k === l ? 1 : 0))).toBeLessThan(1e-12);
                    }
                }
            }),
            { numRuns: 100 },
        );
    });

    it("separates two nearly equal largest eigenvalues exactly (where power iteration stalls)", () => {
        const values = new Float64Array(4);
        const vectors = new Float64Array(16);
        // diag(1, 1 - 1e-9, 0.2, -3) turned by a fixed rotation of R^4
        const d = [1, 1 - 1e-9, 0.2, -3];
        const c = Math.cos(0.7);
        const s = Math.sin(0.7);
        const q = [c, -s, 0, 0, s, c, 0, 0, 0, 0, c, -s, 0, 0, s, c];
        const a = new Float64Array(16);
        for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) a[i * 4 + j] += q[i * 4 + k] * d[k] * q[j * 4 + k];
        JacobiEigenSymmetric(a, 4, values, vectors);
        const sorted = Array.from(values).sort((x, y) => y - x);
        expect(Math.abs(sorted[0] - 1)).toBeLessThan(1e-14);
        expect(Math.abs(sorted[1] - (1 - 1e-9))).toBeLessThan(1e-14);
    });
});

describe("Horn's weighted rigid fit", () => {
    it("recovers a random rigid motion exactly from noise-free points (free, and about a pivot)", () => {
        fc.assert(
            fc.property(rot, fc.integer({ min: 1, max: 1e9 }), (r, seed) => {
                const g = rng(seed);
                const t = new Vector3(g() * 2, g() * 2, g() * 2);
                const fit = new WeightedRigidFit();
                const xs: Vector3[] = [];
                for (let i = 0; i < 20; i++) {
                    const x = new Vector3(g(), g() * 0.3, g() * 0.1).scale(0.5);
                    const y = x.applyRotationQuaternion(r).add(t);
                    fit.add(x.x, x.y, x.z, y.x, y.y, y.z, 0.1 + Math.abs(g()));
                    xs.push(x);
                }
                const rq = new Quaternion();
                const tv = new Vector3();
                fit.solveToRef(rq, tv, null);
                expect(angleBetween(rq, r)).toBeLessThan(1e-7);
                expect(tv.subtract(t).length()).toBeLessThan(1e-8);
                // About a pivot that the motion carries to its image: same rotation.
                const pivot = new Vector3(0.3, -0.2, 0.1);
                fit.solveToRef(rq, tv, Quaternion.Identity(), pivot, pivot.applyRotationQuaternion(r).add(t));
                expect(angleBetween(rq, r)).toBeLessThan(1e-7);
                expect(tv.subtract(t).length()).toBeLessThan(1e-8);
            }),
            { numRuns: 200 },
        );
    });

    it("with noise, no nearby rotation or translation has a lower weighted cost (slow check of optimality)", () => {
        const g = rng(42);
        const r = Quaternion.RotationAxis(new Vector3(1, 2, 3).normalize(), 1.1);
        const t = new Vector3(0.3, 0.1, -0.5);
        const xs: Vector3[] = [];
        const ys: Vector3[] = [];
        const ws: number[] = [];
        const fit = new WeightedRigidFit();
        for (let i = 0; i < 40; i++) {
            const x = new Vector3(g(), g(), g());
            const y = x
                .applyRotationQuaternion(r)
                .add(t)
                .add(new Vector3(g(), g(), g()).scale(0.05));
            const w = 0.2 + Math.abs(g());
            xs.push(x);
            ys.push(y);
            ws.push(w);
            fit.add(x.x, x.y, x.z, y.x, y.y, y.z, w);
        }
        const rq = new Quaternion();
        const tv = new Vector3();
        fit.solveToRef(rq, tv, null);
        const best = cost(xs, ys, ws, rq, tv);
        for (let k = 0; k < 200; k++) {
            const dq = Quaternion.RotationAxis(new Vector3(g(), g(), g()).normalize(), 1e-3 * Math.abs(g()));
            const r2 = dq.multiply(rq);
            const t2 = tv.add(new Vector3(g(), g(), g()).scale(1e-3));
            expect(cost(xs, ys, ws, r2, t2)).toBeGreaterThanOrEqual(best - 1e-12);
        }
    });

    it("keeps the prior when the points do not fix the rotation (all on one line)", () => {
        const fit = new WeightedRigidFit();
        for (let i = 0; i < 5; i++) fit.add(i * 0.1, 0, 0, i * 0.1, 0, 0, 1);
        const prior = Quaternion.RotationAxis(Vector3.Right(), 0.5);
        const rq = new Quaternion();
        const tv = new Vector3();
        fit.solveToRef(rq, tv, prior);
        expect(angleBetween(rq, prior)).toBeLessThan(1e-5);
        // and with no points at all
        fit.reset();
        fit.solveToRef(rq, tv, prior, new Vector3(1, 0, 0), new Vector3(1, 2, 0));
        expect(angleBetween(rq, prior)).toBeLessThan(1e-7);
        expect(
            new Vector3(1, 0, 0)
                .applyRotationQuaternion(rq)
                .add(tv)
                .subtract(new Vector3(1, 2, 0))
                .length(),
        ).toBeLessThan(1e-12);
    });
});
