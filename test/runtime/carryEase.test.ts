import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanPose } from "../../src/index.js";
import { FLOOR_EASE_SECONDS, HumanoidFootPlanting } from "../../src/runtime/footPlanting.js";
import type { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { HumanoidStrideCarry } from "../../src/runtime/strideCarry.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { HumanoidRigSolver as Solver } from "../../src/runtime/rigSolver.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { PlantingPlayerStub } from "../helpers/plantingPlayer.js";

// A foot comes into the stride's carry as firmly as its goal holds it (planting's footGoalHold):
// found on spins (the AnimatedDrawings project's `twirl` takes), whose body's velocity turned
// round at every landing; first taken as the foot was planted (at once), then through an ease of
// the carry's own over 50 ms.

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

describeWithData("the stride's carry with planting: a landing foot comes in over the goal's ease", () => {
    test("the carry's weight rises from the touch-down over FLOOR_EASE_SECONDS, a smootherstep, with no step", async () => {
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"));
        const solver = new Solver(target.avatar);
        const planting = new HumanoidFootPlanting(target.avatar);
        const rate = 120;
        const stub = PlantingPlayerStub(rate);
        const holds: number[] = [];
        for (let f = 0; f < 40; f++) {
            // The right foot in the air, then down from frame 10 on; the left down throughout.
            stub.contacts = f < 10 ? 1 : 3;
            for (let s = 0; s < 2; s++) {
                solver.goalPositions[s].set(s ? -0.1 : 0.1, solver.positionScale[1] + (s === 1 && f < 10 ? 0.05 * (1 - f / 10) : 0), 0);
                solver.goalRotations[s].set(0, 0, 0, 1);
            }
            planting.update(stub.player, solver);
            holds.push(solver.footGoalHold[1]);
        }
        // Planted at once at frame 10 (footGrounded 1), held by its goal over the height's ease.
        expect(holds[9]).toBe(0);
        const easeFrames = Math.round(FLOOR_EASE_SECONDS * rate);
        expect(holds[10 + easeFrames + 1]).toBeCloseTo(1, 9);
        for (let f = 11; f <= 10 + easeFrames; f++) {
            expect(holds[f]).toBeGreaterThanOrEqual(holds[f - 1]);
            // A smootherstep's steepest update is 1.875 / 12 of the way: no step.
            expect(holds[f] - holds[f - 1]).toBeLessThan(0.2);
        }
        target.loaded.dispose();
    }, 60_000);
});
