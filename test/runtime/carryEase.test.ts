import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanPose } from "../../src/index.js";
import type { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { HumanoidStrideCarry } from "../../src/runtime/strideCarry.js";

// A foot comes into the stride's carry as firmly as its goal holds it (planting's footGoalHold,
// whose ease from touch-down test/runtime/goalHold.test.ts checks): found on spins (the
// AnimatedDrawings project's `twirl` takes), whose body's velocity turned round at every landing;
// first taken as the foot was planted (at once), then through an ease of the carry's own over 50 ms.

/** A solver as the carry reads it: a stance offset, foot IK on, the feet's holds and groundings to set. */
function stubSolver(): { solver: HumanoidRigSolver; hold: Float64Array; grounded: Float64Array } {
    const hold = new Float64Array(2);
    const grounded = new Float64Array(2);
    const solver = {
        positionScale: Float64Array.of(1, 0.1, 0.1, 0.05),
        positionWeights: Float32Array.of(1, 1, 0, 0),
        footGoalHold: hold,
        footGrounded: grounded,
        groundYaw: new Float64Array(1),
    };
    return { solver: solver as unknown as HumanoidRigSolver, hold, grounded };
}

/** The carry's steps of a pelvis turning at a steady rate, the left foot's goal hold per update from `held`, its grounding from `grounded`. */
function steps(count: number, held: (i: number) => number, grounded: (i: number) => number = held): Vector3[] {
    const carry = new HumanoidStrideCarry();
    const stub = stubSolver();
    const human = new HumanPose();
    const out: Vector3[] = [];
    for (let i = 0; i < count; i++) {
        stub.hold[0] = held(i);
        stub.grounded[0] = grounded(i);
        human.hipsRotation.copyFrom(Quaternion.RotationAxis(Vector3.Up(), 0.025 * i));
        carry.update(stub.solver, human, true);
        out.push(new Vector3(carry.carry[0], 0, carry.carry[1]));
    }
    return out;
}

describe("the stride's carry: each foot as firmly as its goal holds it", () => {
    test("the carry's step is the held foot's full step times its goal's hold, whatever its grounding", () => {
        // The hold eases in over updates 10-22 (a smootherstep), the foot planted (grounded) at once at 10.
        const ease = (i: number): number => {
            const x = Math.min(1, Math.max(0, (i - 10) / 12));
            return x * x * x * (x * (6 * x - 15) + 10);
        };
        const s = steps(40, ease, (i) => (i >= 10 ? 1 : 0));
        const full = s[39].length();
        expect(full).toBeGreaterThan(1e-4);
        for (let i = 1; i < 40; i++) expect(Math.abs(s[i].length() - full * ease(i))).toBeLessThan(1e-9 * full + 1e-12);
        // No step while the goal does not hold the foot, planted or not.
        for (let i = 0; i <= 10; i++) expect(s[i].length()).toBe(0);
    });

    test("a hold past 1 or below 0 counts as 1 or 0", () => {
        const s = steps(10, (i) => (i < 5 ? -0.5 : 1.5));
        const t = steps(10, (i) => (i < 5 ? 0 : 1));
        for (let i = 0; i < 10; i++) expect(s[i].length()).toBeCloseTo(t[i].length(), 12);
    });
});
