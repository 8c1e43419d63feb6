import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanPose } from "../../src/index.js";
import type { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { CARRY_EASE_SECONDS, HumanoidStrideCarry } from "../../src/runtime/strideCarry.js";

// A foot that lands comes into the stride's carry over CARRY_EASE_SECONDS: found on a spin (the
// AnimatedDrawings project's `twirl` takes) onto a VRM, whose hips jerked at every landing.

/** A solver as the carry reads it: a stance offset, foot IK on, the left foot held from `landing` on. */
function stubSolver(): { solver: HumanoidRigSolver; grounded: Float64Array } {
    const grounded = new Float64Array(2);
    const solver = {
        positionScale: Float64Array.of(1, 0.1, 0.1, 0.05),
        positionWeights: Float32Array.of(1, 1, 0, 0),
        footGrounded: grounded,
        groundYaw: new Float64Array(1),
    };
    return { solver: solver as unknown as HumanoidRigSolver, grounded };
}

/** The carry's steps of a pelvis turning at a steady rate, the left foot held from update `landing` on (or as `held` gives it per update). */
function steps(dtSeconds: number, landing: number, count: number, stepArray: boolean, held?: (i: number) => number): Vector3[] {
    const carry = new HumanoidStrideCarry();
    const { solver, grounded } = stubSolver();
    const human = new HumanPose();
    const out: Vector3[] = [];
    const step = Float64Array.of(dtSeconds);
    for (let i = 0; i < count; i++) {
        // Held from `landing` on (planting's hold, read from the last update).
        grounded[0] = held ? held(i) : i > landing ? 1 : 0;
        human.hipsRotation.copyFrom(Quaternion.RotationAxis(Vector3.Up(), 3 * i * dtSeconds));
        carry.noteStep(stepArray ? step : null);
        carry.update(solver, human, true);
        out.push(new Vector3(carry.carry[0], 0, carry.carry[1]));
    }
    return out;
}

describe("the stride's carry: a foot that lands comes in over CARRY_EASE_SECONDS", () => {
    test("at 120 updates a second, the carry's step grows from 0 to the held foot's over the ease, smoothly (at once before: a step in the body's velocity)", () => {
        const dt = 1 / 120;
        const s = steps(dt, 10, 40, true);
        const full = s[39].length();
        expect(full).toBeGreaterThan(1e-4);
        // Nothing before the foot is held; then a smootherstep's worth of the full step.
        for (let i = 0; i <= 10; i++) expect(s[i].length()).toBe(0);
        const easeUpdates = Math.round(CARRY_EASE_SECONDS / dt);
        let last = 0;
        for (let i = 11; i < 11 + easeUpdates; i++) {
            const x = Math.min(1, (i - 10) / easeUpdates);
            const want = full * x * x * x * (x * (6 * x - 15) + 10);
            expect(Math.abs(s[i].length() - want)).toBeLessThan(1e-3 * full);
            // The step grows by at most a third of the full one an update (the smootherstep's
            // steepest, 1.875 over the ease's 6 updates; before, all of it in one).
            expect(s[i].length() - last).toBeLessThan(0.35 * full);
            last = s[i].length();
        }
        for (let i = 11 + easeUpdates; i < 40; i++) expect(Math.abs(s[i].length() - full)).toBeLessThan(1e-9 * full + 1e-12);
    });

    test("a release that runs up to the next touch-down (its hold eased out to just above 0, never 0) eases the landing foot in as well (at once before)", () => {
        // Found on a child's dab onto the KayKit mannequin: the release was cut to end at the
        // next touch-down, its last update's hold 1e-6, and the body's velocity stepped.
        const dt = 1 / 120;
        const easeUpdates = Math.round(CARRY_EASE_SECONDS / dt);
        // Held over updates 1-10, released over 11-20 (a smootherstep down to 1e-6), held from 21 on.
        const held = (i: number): number => {
            if (i <= 10) return i > 0 ? 1 : 0;
            if (i <= 20) {
                const u = (20 - i) / 10;
                return Math.max(1e-6, u * u * u * (u * (6 * u - 15) + 10));
            }
            return 1;
        };
        const s = steps(dt, 0, 50, true, held);
        const full = s[49].length();
        expect(full).toBeGreaterThan(1e-4);
        // Over the release the step follows the hold down, with no jump.
        for (let i = 12; i <= 21; i++) expect(Math.abs(s[i].length() - s[i - 1].length())).toBeLessThan(0.35 * full);
        // The landing: the step grows from (nearly) nothing over the ease, as from a foot not held.
        expect(s[21].length()).toBeLessThan(0.05 * full);
        for (let i = 22; i <= 21 + easeUpdates; i++) expect(s[i].length() - s[i - 1].length()).toBeLessThan(0.35 * full);
        for (let i = 22 + easeUpdates; i < 50; i++) expect(Math.abs(s[i].length() - full)).toBeLessThan(1e-9 * full + 1e-12);
    });

    test("a hold that rises from part way (a foot landing again while its release eases out) is eased from where it was", () => {
        const dt = 1 / 120;
        const easeUpdates = Math.round(CARRY_EASE_SECONDS / dt);
        // Held from update 1, released to 0.4 by update 15, held again from 16.
        const held = (i: number): number => (i === 0 ? 0 : i <= 10 ? 1 : i <= 15 ? 1 - (0.6 * (i - 10)) / 5 : 1);
        const s = steps(dt, 0, 40, true, held);
        const full = s[39].length();
        // Before the landing the step is the hold's share of the full one; after it, no jump.
        expect(s[15].length()).toBeCloseTo(0.4 * full, 6);
        for (let i = 16; i <= 15 + easeUpdates; i++) {
            expect(s[i].length()).toBeGreaterThanOrEqual(s[i - 1].length() - 1e-12);
            expect(s[i].length() - s[i - 1].length()).toBeLessThan(0.25 * full);
        }
    });

    test("a foot that lands again while its ease still runs: a new ease from where the weight was, no jump back onto the old one", () => {
        // Found by a review: the ease restarted only once the last one had run out.
        const dt = 1 / 120;
        // Held at update 1, let down to 0.2 at 3, held again from 4 on (the ease takes 6 updates).
        const held = (i: number): number => (i === 0 ? 0 : i === 3 ? 0.2 : 1);
        const s = steps(dt, 0, 30, true, held);
        const full = s[29].length();
        for (let i = 2; i < 30; i++) expect(Math.abs(s[i].length() - s[i - 1].length())).toBeLessThan(0.35 * full);
    });

    test("with no time step known (a pose set directly), a held foot is in at once", () => {
        const s = steps(1 / 120, 10, 20, false);
        const full = s[19].length();
        expect(s[11].length()).toBeCloseTo(full, 12);
    });
});
