import fc from "fast-check";
import { CriticallyDampedRampStepInPlace, CriticallyDampedStepInPlace } from "../../src/math/dampedSpring.js";

/**
 * The slow, obvious reference: the ODEs integrated by classical Runge-Kutta in many small steps,
 * the target moving linearly from `from` to `to` over the step.
 * - order 2: x'' = w^2 (c - x) - 2 w x' (the spring; its target held at `to`);
 * - order 3: (D + w)^3 x = 3 w^2 c' + w^3 c, i.e. x''' = w^3 (c - x) + 3 w^2 (c' - x') - 3 w x''.
 */
function integrate(order: 2 | 3, state: number[], from: number, to: number, w: number, dt: number, substeps = 4000): number[] {
    const speed = (to - from) / dt;
    const target = (t: number): number => (order === 2 ? to : from + speed * t);
    const deriv = (t: number, s: number[]): number[] => {
        const [x, v, a] = s;
        if (order === 2) return [v, w * w * (target(t) - x) - 2 * w * v, 0];
        return [v, a, w ** 3 * (target(t) - x) + 3 * w * w * (speed - v) - 3 * w * a];
    };
    let s = state.slice();
    const h = dt / substeps;
    for (let k = 0; k < substeps; k++) {
        const t = k * h;
        const add = (p: number[], q: number[], f: number): number[] => p.map((x, i) => x + f * q[i]);
        const k1 = deriv(t, s);
        const k2 = deriv(t + h / 2, add(s, k1, h / 2));
        const k3 = deriv(t + h / 2, add(s, k2, h / 2));
        const k4 = deriv(t + h, add(s, k3, h));
        s = s.map((x, i) => x + (h / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]));
    }
    return s;
}

const real = (min: number, max: number): fc.Arbitrary<number> => fc.double({ min, max, noNaN: true });

describe("CriticallyDampedRampStepInPlace", () => {
    it("matches the third-order ODE integrated in small steps, for any state, target move, rate and step", () => {
        fc.assert(
            fc.property(real(-1, 1), real(-5, 5), real(-50, 50), real(-1, 1), real(-1, 1), real(1, 40), real(0.002, 0.1), (x, v, a, from, to, w, dt) => {
                const state = Float64Array.of(x, v, a);
                const target = Float64Array.of(to, from);
                CriticallyDampedRampStepInPlace(state, 0, 1, 2, target, 0, 1, 1, Float64Array.of(w, dt));
                const ref = integrate(3, [x, v, a], from, to, w, dt);
                for (let i = 0; i < 3; i++) expect(Math.abs(state[i] - ref[i])).toBeLessThan(1e-7 * (1 + Math.abs(ref[i])));
            }),
            { numRuns: 60 },
        );
    });

    it("follows a target moving at constant speed without lag, where the spring trails it by 2 / w seconds", () => {
        const w = 25 / Math.sqrt(3);
        const dt = 1 / 60;
        const speed = 0.5;
        const ramp = Float64Array.of(0, 0, 0);
        const spring = Float64Array.of(0, 0);
        const targets = new Float64Array(2);
        const p = Float64Array.of(w, dt);
        let c = 0;
        for (let f = 1; f <= 120; f++) {
            targets[1] = c;
            c = speed * f * dt;
            targets[0] = c;
            CriticallyDampedRampStepInPlace(ramp, 0, 1, 2, targets, 0, 1, 1, p);
            p[0] = 25;
            CriticallyDampedStepInPlace(spring, 0, 1, targets, 0, 1, p);
            p[0] = w;
        }
        // Two seconds in: the follower on the target, moving at its speed; the spring 2 / 25 s behind
        // (less half a step: it is handed each step's end target for the whole step).
        expect(Math.abs(ramp[0] - c)).toBeLessThan(1e-6);
        expect(Math.abs(ramp[1] - speed)).toBeLessThan(1e-5);
        expect(Math.abs(ramp[2])).toBeLessThan(1e-3);
        expect(c - spring[0]).toBeCloseTo((2 / 25 - dt / 2) * speed, 4);
    });

    it("changes its acceleration at a start of motion by 3 w^2 times the target's speed, the same as a spring at w sqrt(3)", () => {
        // A target that starts moving at speed s from rest: over a short first step the follower's
        // acceleration grows to 3 w^2 s dt, as the 25/s spring's to 25^2 s dt.
        const w = 25 / Math.sqrt(3);
        const dt = 1e-4;
        const s = 1;
        const ramp = Float64Array.of(0, 0, 0);
        CriticallyDampedRampStepInPlace(ramp, 0, 1, 2, Float64Array.of(s * dt, 0), 0, 1, 1, Float64Array.of(w, dt));
        const spring = Float64Array.of(0, 0);
        // The spring's acceleration after the step, from its ODE: 25^2 (c - x) - 2 25 v.
        CriticallyDampedStepInPlace(spring, 0, 1, Float64Array.of(s * dt), 0, 1, Float64Array.of(25, dt));
        const springAcceleration = 625 * (s * dt - spring[0]) - 50 * spring[1];
        expect(Math.abs(ramp[2] / dt / (3 * w * w * s) - 1)).toBeLessThan(0.01);
        expect(Math.abs(ramp[2] / springAcceleration - 1)).toBeLessThan(0.01);
    });

    it("stays finite over a step too short for the target's move to be a speed (the target taken to jump)", () => {
        const state = Float64Array.of(0.2, 0.5, -3);
        CriticallyDampedRampStepInPlace(state, 0, 1, 2, Float64Array.of(1, 0), 0, 1, 1, Float64Array.of(14, 1e-310));
        expect(Array.from(state).every(Number.isFinite)).toBe(true);
        // As a jump: after a normal step the follower heads for the new target.
        CriticallyDampedRampStepInPlace(state, 0, 1, 2, Float64Array.of(1, 1), 0, 1, 1, Float64Array.of(14, 0.5));
        expect(Array.from(state).every(Number.isFinite)).toBe(true);
        expect(state[0]).toBeGreaterThan(0.5);
    });

    it("steps several coordinates independently and writes nothing but its state", () => {
        // Positions [0.1, -0.2], rates [1, 2], accelerations [3, -4], one number after them.
        const state = Float64Array.of(0.1, -0.2, 1, 2, 3, -4, 99);
        const target = Float64Array.of(0.5, 0.4, 0.3, 0.2);
        const before = Float64Array.from(target);
        CriticallyDampedRampStepInPlace(state, 0, 2, 4, target, 0, 2, 2, Float64Array.of(10, 0.02));
        const coordinates = [
            [0.1, 1, 3, 0.5, 0.3],
            [-0.2, 2, -4, 0.4, 0.2],
        ];
        coordinates.forEach(([x, v, a, to, from], i) => {
            const one = Float64Array.of(x, v, a);
            CriticallyDampedRampStepInPlace(one, 0, 1, 2, Float64Array.of(to, from), 0, 1, 1, Float64Array.of(10, 0.02));
            expect([state[i], state[2 + i], state[4 + i]]).toEqual(Array.from(one));
        });
        expect(state[6]).toBe(99);
        expect(Array.from(target)).toEqual(Array.from(before));
    });
});

describe("CriticallyDampedStepInPlace", () => {
    it("matches the spring's ODE integrated in small steps", () => {
        fc.assert(
            fc.property(real(-1, 1), real(-5, 5), real(-1, 1), real(1, 40), real(0.002, 0.1), (x, v, to, w, dt) => {
                const state = Float64Array.of(x, v);
                CriticallyDampedStepInPlace(state, 0, 1, Float64Array.of(to), 0, 1, Float64Array.of(w, dt));
                const ref = integrate(2, [x, v, 0], to, to, w, dt);
                for (let i = 0; i < 2; i++) expect(Math.abs(state[i] - ref[i])).toBeLessThan(1e-7 * (1 + Math.abs(ref[i])));
            }),
            { numRuns: 30 },
        );
    });
});
