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

/** The carry's steps of a pelvis turning at a steady rate, the left foot held from update `landing` on. */
function steps(dtSeconds: number, landing: number, count: number, stepArray: boolean): Vector3[] {
    const carry = new HumanoidStrideCarry();
    const { solver, grounded } = stubSolver();
    const human = new HumanPose();
    const out: Vector3[] = [];
    const step = Float64Array.of(dtSeconds);
    for (let i = 0; i < count; i++) {
        // Held from `landing` on (planting's hold, read from the last update).
        grounded[0] = i > landing ? 1 : 0;
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

    test("with no time step known (a pose set directly), a held foot is in at once", () => {
        const s = steps(1 / 120, 10, 20, false);
        const full = s[19].length();
        expect(s[11].length()).toBeCloseTo(full, 12);
    });
});
