import fc from "fast-check";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { SlerpLongToRef, SlerpPathAngle, SlerpShortToRef } from "../../src/math/slerp.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";

/** The 3D angle (radians, [0, pi]) of the rotation from p to q. */
function rotationAngle(p: Quaternion, q: Quaternion): number {
    const d = Quaternion.Inverse(p).multiply(q);
    return 2 * Math.atan2(Math.hypot(d.x, d.y, d.z), Math.abs(d.w));
}

/** Angles of the successive steps of a path sampled at t = k / steps. */
function stepAngles(path: (t: number, out: Quaternion) => Quaternion, steps: number): number[] {
    const out: number[] = [];
    let prev = path(0, new Quaternion());
    for (let k = 1; k <= steps; k++) {
        const q = path(k / steps, new Quaternion());
        out.push(rotationAngle(prev, q));
        prev = q;
    }
    return out;
}

/** Up to sign. */
function quatDistance(p: Quaternion, q: Quaternion): number {
    const plus = Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z, p.w - q.w);
    const minus = Math.hypot(p.x + q.x, p.y + q.y, p.z + q.z, p.w + q.w);
    return Math.min(plus, minus);
}

const unitQuat = UnitQuaternionArbitrary();

/** Random pairs: any two rotations, or b a small/large turn away from a, with either sign of b. */
const pairs = fc.oneof(
    fc.tuple(unitQuat, unitQuat),
    fc
        .tuple(
            unitQuat,
            fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
            fc.oneof(fc.double({ min: 1e-9, max: 1e-3, noNaN: true }), fc.double({ min: 3.1, max: Math.PI, noNaN: true })),
            fc.boolean(),
        )
        .filter(([, axis]) => Math.hypot(...axis) > 0.1)
        .map(([a, axis, angle, flip]) => {
            const b = a.multiply(Quaternion.RotationAxis(new Vector3(...axis).normalize(), angle));
            return [a, flip ? b.scale(-1) : b] as [Quaternion, Quaternion];
        }),
);

const STEPS = 16;

describe("slerp on the short and the long path", () => {
    it("takes equal successive angles on both paths, the long one covering 2 pi minus the short one", () => {
        fc.assert(
            fc.property(pairs, ([a, b]) => {
                const short = stepAngles((t, o) => SlerpShortToRef(a, b, t, o), STEPS);
                const long = stepAngles((t, o) => SlerpLongToRef(a, b, t, o), STEPS);
                const shortTotal = short.reduce((s, x) => s + x, 0);
                const longTotal = long.reduce((s, x) => s + x, 0);
                for (const x of short) expect(Math.abs(x - shortTotal / STEPS)).toBeLessThan(1e-6);
                for (const x of long) expect(Math.abs(x - longTotal / STEPS)).toBeLessThan(1e-6);
                expect(Math.abs(shortTotal + longTotal - 2 * Math.PI)).toBeLessThan(1e-6);
                expect(shortTotal).toBeLessThanOrEqual(Math.PI + 1e-9);
                expect(Math.abs(shortTotal - SlerpPathAngle(a, b, false))).toBeLessThan(1e-6);
                expect(Math.abs(longTotal - SlerpPathAngle(a, b, true))).toBeLessThan(1e-6);
                // Ends: a exactly-ish, b up to sign.
                for (const f of [SlerpShortToRef, SlerpLongToRef]) {
                    expect(quatDistance(f(a, b, 0, new Quaternion()), a)).toBeLessThan(1e-12);
                    expect(quatDistance(f(a, b, 1, new Quaternion()), b)).toBeLessThan(1e-9);
                }
            }),
            { numRuns: 500 },
        );
    });

    it("agrees with Babylon's Quaternion.Slerp on the short path and with the textbook formula on the long one", () => {
        fc.assert(
            fc.property(unitQuat, unitQuat, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, t) => {
                expect(quatDistance(SlerpShortToRef(a, b, t, new Quaternion()), Quaternion.Slerp(a, b, t))).toBeLessThan(1e-6);
                // Slow reference for the long path: b' on the far hemisphere, the obtuse angle inside acos.
                const dot = Quaternion.Dot(a, b);
                const bFar = dot > 0 ? b.scale(-1) : b;
                const theta = Math.acos(Math.min(1, Math.max(-1, Quaternion.Dot(a, bFar))));
                if (Math.sin(theta) < 1e-3) return; // textbook formula ill-conditioned there
                const ref = a.scale(Math.sin((1 - t) * theta) / Math.sin(theta)).add(bFar.scale(Math.sin(t * theta) / Math.sin(theta)));
                expect(quatDistance(SlerpLongToRef(a, b, t, new Quaternion()), ref)).toBeLessThan(1e-9);
            }),
            { numRuns: 300 },
        );
    });

    it("a long path made by only flipping a factor's sign (acute angle kept) has unequal steps: the check above would catch it", () => {
        const a = Quaternion.Identity();
        const b = Quaternion.RotationAxis(Vector3.Up(), 1);
        const theta = Math.acos(Quaternion.Dot(a, b)); // acute: 0.5 rad
        const naive = (t: number, o: Quaternion): Quaternion => {
            const q = a.scale(Math.sin((1 - t) * theta) / Math.sin(theta)).add(b.scale(-Math.sin(t * theta) / Math.sin(theta)));
            o.copyFrom(q.normalize());
            return o;
        };
        const steps = stepAngles(naive, STEPS);
        const spread = Math.max(...steps) - Math.min(...steps);
        expect(spread).toBeGreaterThan(1e-3);
    });

    it("handles equal and opposite-sign equal inputs: the short path stays put, the long path makes one full turn at constant speed", () => {
        const a = new Quaternion(0.1, 0.2, 0.3, 0.9).normalize();
        for (const b of [a.clone(), a.scale(-1)]) {
            const short = stepAngles((t, o) => SlerpShortToRef(a, b, t, o), STEPS);
            const long = stepAngles((t, o) => SlerpLongToRef(a, b, t, o), STEPS);
            for (const x of short) expect(x).toBeLessThan(1e-12);
            for (const x of long) expect(Math.abs(x - (2 * Math.PI) / STEPS)).toBeLessThan(1e-9);
            const mid = SlerpLongToRef(a, b, 0.5, new Quaternion());
            expect(rotationAngle(a, mid)).toBeCloseTo(Math.PI, 9);
            expect(Number.isFinite(mid.w)).toBe(true);
        }
    });

    it("writes into one of its inputs safely", () => {
        const a = Quaternion.RotationAxis(Vector3.Right(), 0.3);
        const b = Quaternion.RotationAxis(Vector3.Up(), 2);
        const expected = SlerpLongToRef(a, b, 0.3, new Quaternion());
        SlerpLongToRef(a, b, 0.3, a);
        expect(quatDistance(a, expected)).toBeLessThan(1e-15);
    });
});
