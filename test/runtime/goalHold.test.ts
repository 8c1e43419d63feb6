import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { HumanoidFootPlanting } from "../../src/runtime/footPlanting.js";
import { FLOOR_EASE_SECONDS } from "../../src/runtime/plantingEases.js";
import { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { PlantingPlayerStub } from "../helpers/plantingPlayer.js";

// How firmly a planted foot's IK goal holds it against the leg's own shape
// (`HumanoidRigSolver.footGoalHold`) eases in from touch-down, where `footGrounded` is 1 at once:
// with "legs" a foot above the floor follows its goal only in part, and a held one fully, so a
// foot landing above the floor stepped onto its goal in the frame it landed (a child's dab onto
// the KayKit mannequin, 120 fps: the ankle 2.5 cm in a frame, the foot 12 times the source's jerk).
describeWithData("a planted foot's goal comes in over the touch-down's ease", () => {
    const VRM = "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm";
    const RATE = 120;

    /** Runs planting over `frames` updates with the left foot down where `down(f)`, its goal 3 cm above the floor; the left foot's [footGrounded, footGoalHold] per update. */
    async function run(frames: number, down: (f: number) => boolean): Promise<Array<[number, number]>> {
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile(VRM));
        const solver = new HumanoidRigSolver(target.avatar);
        const planting = new HumanoidFootPlanting(target.avatar);
        const stub = PlantingPlayerStub(RATE);
        const out: Array<[number, number]> = [];
        for (let f = 0; f < frames; f++) {
            stub.contacts = (down(f) ? 1 : 0) | 2;
            for (let s = 0; s < 2; s++) {
                solver.goalPositions[s].set(s ? -0.1 : 0.1, solver.positionScale[1] + (s === 0 ? 0.03 : 0), 0.002 * f);
                solver.goalRotations[s].set(0, 0, 0, 1);
            }
            planting.update(stub.player, solver);
            out.push([solver.footGrounded[0], solver.footGoalHold[0]]);
        }
        return out;
    }

    test("a touch-down: held at once, its goal eased in along a smootherstep over FLOOR_EASE_SECONDS", async () => {
        const landing = 10;
        const h = await run(40, (f) => f >= landing);
        const ease = Math.round(FLOOR_EASE_SECONDS * RATE);
        for (let f = 0; f < landing; f++) expect(h[f]).toEqual([0, 0]);
        for (let f = landing; f < 40; f++) {
            expect(h[f][0]).toBe(1);
            const x = Math.min(1, (f - landing) / ease);
            expect(h[f][1]).toBeCloseTo(x * x * x * (x * (6 * x - 15) + 10), 9);
            // Before: 0 -> 1 in the landing's frame.
            if (f > 0) expect(Math.abs(h[f][1] - h[f - 1][1])).toBeLessThan(0.2);
        }
    }, 60_000);

    test("a foot that lands again while a release the clip did not announce eases out: its goal eases in from where it was, never back to 0", async () => {
        // Found by a review: the ease restarted from 0, the goal's weight 0.965 -> 0 in a frame.
        const h = await run(70, (f) => (f >= 10 && f < 40) || f >= 44);
        expect(h[43][1]).toBeGreaterThan(0.5);
        expect(h[44][0]).toBe(1);
        for (let f = 11; f < 70; f++) expect(Math.abs(h[f][1] - h[f - 1][1])).toBeLessThan(0.2);
        expect(h[69][1]).toBeCloseTo(1, 12);
    }, 60_000);

    test("a contact shorter than the ease: the goal eases out from where it had come to, never up to 1", async () => {
        // Down for 4 frames (a third of the ease), then up.
        const h = await run(40, (f) => f >= 10 && f < 14);
        const top = h[13][1];
        expect(top).toBeGreaterThan(0);
        expect(top).toBeLessThan(0.5);
        for (let f = 14; f < 40; f++) {
            // The hold eases out from 1, the goal's from what it was, both together.
            expect(h[f][1]).toBeLessThanOrEqual(h[f - 1][1] + 1e-12);
            expect(h[f][1]).toBeCloseTo(top * h[f][0], 12);
        }
        expect(h[39]).toEqual([0, 0]);
    }, 60_000);
});
