import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import type { HumanoidLegShape } from "../../src/runtime/legShape.js";
import { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { dataFile, describeWithData } from "../helpers/data.js";

/** A rig solver on the VRM sample, its leg shape, and its left hip and ankle as its T-pose holds them (the leg hanging straight down). */
async function leftLegOnVrm(): Promise<{
    target: Awaited<ReturnType<typeof LoadHumanoidAvatarFromFileAsync>>;
    solver: HumanoidRigSolver;
    shape: HumanoidLegShape;
    hip: Vector3;
    end: Vector3;
}> {
    const target = await LoadHumanoidAvatarFromFileAsync(dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"));
    const solver = new HumanoidRigSolver(target.avatar);
    const shape = (solver as unknown as { _legShape: HumanoidLegShape })._legShape;
    return { target, solver, shape, hip: solver.positions[solver.ik.upperJoint(0)], end: solver.positions[solver.ik.endJoint(0)] };
}

// A held foot rolling onto its toes while the leg's shape pushes it down (its knee bent as the
// source's asks for the foot a little further away than the clip puts it): the floor limit keeps
// it out of the floor, and opens as the heel rises. Found on a CMU skipping take onto the VRM
// sample (not in the repository: its knees 1.97 times the source's jerk at every lift-off) and
// a CMU walk onto the KayKit mannequin.
describeWithData("the leg shape's floor limit as a rolling foot's clearance opens", () => {
    test("moves the foot without a step in its velocity (the limit's corner crossed within a frame before)", async () => {
        const { target, solver, shape, hip, end } = await leftLegOnVrm();
        const reach = Vector3.Distance(hip, end);
        const up = target.avatar.frame.up;
        // The goal 3 cm short of the leg's reach: the shape's push down saturates at its slack.
        const goal = hip.add(
            end
                .subtract(hip)
                .normalize()
                .scale(reach - 0.03),
        );
        solver.footFloorHold[0] = 1;
        // The clearance opens from frame 10, smoothly up to 2.5 mm a frame over 4 frames (the heel
        // rising at 30 cm a second at 120 frames a second): its velocity changes by at most a
        // quarter of that in a frame.
        const rate = 0.0025;
        const clearance = (f: number): number => (f <= 10 ? 0 : f <= 14 ? (rate * (f - 10) ** 2) / 8 : rate * (f - 12));
        const heights: number[] = [];
        for (let f = 0; f < 30; f++) {
            solver.footClearance[0] = clearance(f);
            const t = goal.clone();
            shape.keepLegShape(0, t, true);
            heights.push(Vector3.Dot(t.subtract(goal), up));
        }
        // Held at first, the foot goes down as the limit opens, and stops at the shape's push.
        expect(heights[0]).toBeLessThan(0);
        expect(heights[29]).toBeLessThan(heights[0] - 0.5 * rate);
        // Its velocity changes by no more in a frame than the clearance's does (a quarter of the
        // rate); the limit's corner, crossed within a frame, stepped it by most of the rate.
        let most = 0;
        for (let f = 2; f < 30; f++) most = Math.max(most, Math.abs(heights[f] - 2 * heights[f - 1] + heights[f - 2]));
        expect(most).toBeLessThan(0.3 * rate);
        // Never deeper than the limit: the clearance and a quarter of the slack (0.01 of the leg).
        for (let f = 0; f < 30; f++) expect(heights[f]).toBeGreaterThanOrEqual(-clearance(f) - 0.25 * 0.01 * solver.ik.limbLengths[0] - 1e-9);
        target.loaded.dispose();
    }, 60_000);

    test("does not lift a held foot the leg's shape does not push (the rounding stays within the depth the limit allows)", async () => {
        const { target, solver, shape, hip, end } = await leftLegOnVrm();
        solver.footFloorHold[0] = 1;
        // The goal where the leg reaches (no push), and a little short of it (a push down within the limit).
        for (const short of [0, 0.0005, 0.001]) {
            const goal = hip.add(end.subtract(hip).scale(1 - short / Vector3.Distance(hip, end)));
            for (const clearance of [0, 0.001]) {
                solver.footClearance[0] = clearance;
                const t = goal.clone();
                shape.keepLegShape(0, t, true);
                // Half a slack wide always, the foot with no push rose 0.26 mm.
                expect([short, clearance, Vector3.Dot(t.subtract(goal), target.avatar.frame.up) <= 1e-12]).toEqual([short, clearance, true]);
            }
        }
        target.loaded.dispose();
    }, 60_000);
});
