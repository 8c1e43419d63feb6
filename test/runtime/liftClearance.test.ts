import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { HumanoidFootPlanting } from "../../src/runtime/footPlanting.js";
import { FLOOR_EASE_SECONDS } from "../../src/runtime/plantingEases.js";
import { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { PlantingPlayerStub } from "../helpers/plantingPlayer.js";

const RATE = 120;

/**
 * Planting on the VRM sample at {@link RATE} updates a second, level feet 0.2 apart: per update,
 * the contact flags `contacts(f)` and the right foot's height above its T-pose height `up(f)`
 * (pose units; the left foot stays on the floor). Returns the right foot's clearance handed to the
 * solver per update (metres) and the pose's scale.
 */
async function rightClearance(count: number, contacts: (f: number) => number, up: (f: number) => number): Promise<{ clearance: number[]; scale: number }> {
    const target = await LoadHumanoidAvatarFromFileAsync(dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"));
    const solver = new HumanoidRigSolver(target.avatar);
    const planting = new HumanoidFootPlanting(target.avatar);
    const stub = PlantingPlayerStub(RATE);
    const clearance: number[] = [];
    for (let f = 0; f < count; f++) {
        stub.contacts = contacts(f);
        for (let s = 0; s < 2; s++) {
            solver.goalPositions[s].set(s ? -0.1 : 0.1, solver.positionScale[1] + (s === 1 ? up(f) : 0), 0);
            solver.goalRotations[s].set(0, 0, 0, 1);
        }
        planting.update(stub.player, solver);
        clearance.push(solver.footClearance[1]);
    }
    target.loaded.dispose();
    return { clearance, scale: solver.positionScale[0] };
}

// A foot whose heel rises as its hold ends: the most its clearance is taken as over the release
// (how far the leg's shape may move it down) goes on rising as it was, slowing to a stop, rather
// than stopping at once. Found on CMU walks (the AnimatedDrawings project's `cmu_new` takes) onto
// the VRM sample, whose knee jerked at every lift-off.
describeWithData("planting: the clearance over a release", () => {
    test("a foot rising as its hold ends: its clearance's rise goes on into the release and slows to a stop (it stopped at once)", async () => {
        const rise = 0.001;
        // Held for 20 frames, rising 1 mm a frame from frame 10 on.
        const { clearance, scale } = await rightClearance(
            40,
            (f) => (f < 20 ? 3 : 1),
            (f) => (f >= 10 ? rise * (f - 9) : 0),
        );
        // Held, the clearance rises with the foot (about 1 mm a frame, in metres by the pose's
        // scale; the floor's rounding takes a little off).
        const held = clearance[19] - clearance[18];
        expect(held).toBeGreaterThan(0.8 * rise * scale);
        expect(held).toBeLessThan(1.05 * rise * scale);
        // Released at frame 20: it goes on rising at about that rate (before: 0 at once) ...
        expect(clearance[20] - clearance[19]).toBeGreaterThan(0.9 * held);
        // ... slowing every frame, never faster than the foot, to a stop at the release's end.
        for (let f = 21; f < 40; f++) {
            const d = clearance[f] - clearance[f - 1];
            expect(d).toBeLessThanOrEqual(clearance[f - 1] - clearance[f - 2] + 1e-12);
            expect(d).toBeGreaterThanOrEqual(-1e-12);
        }
        // What it adds over a 0.2 s release (24 frames at 120): half the rate times the release.
        expect(clearance[39]).toBeLessThan(clearance[19] + 0.5 * (held * 120) * 0.2 + 1e-9);
    }, 60_000);

    test("a foot that lands above the floor after a release: its clearance eases in from what it was in the air (it stepped by the whole of it)", async () => {
        const landed = 0.012;
        // Held on the floor for 20 frames, lifted 3 cm over the next 20, down to 12 mm above the
        // floor by frame 60, where it touches down and stays.
        const { clearance, scale } = await rightClearance(
            100,
            (f) => (f < 20 ? 3 : f < 60 ? 1 : 3),
            (f) => (f < 20 ? 0 : f < 40 ? (0.03 * (f - 20)) / 20 : f < 60 ? 0.03 - ((0.03 - landed) * (f - 40)) / 20 : landed),
        );
        // Held at 12 mm up (the floor lifts a foot below it, never lowers one above), in metres;
        // the floor's rounding takes 2 mm off.
        expect(clearance[99]).toBeGreaterThan(0.75 * landed * scale);
        expect(clearance[99]).toBeLessThan(1.01 * landed * scale);
        // In the air before it lands, the clearance stays what the release left it (under 2 mm).
        expect(clearance[59]).toBeLessThan(0.002 * scale);
        // From there to its own over the height's ease (0.1 s, 12 frames): a smootherstep's
        // steepest frame is under a sixth of the way (the whole way in the touch-down's frame before).
        let most = 0;
        for (let f = 60; f < 100; f++) most = Math.max(most, Math.abs(clearance[f] - clearance[f - 1]));
        expect(most).toBeLessThan((clearance[99] - clearance[59]) / 6);
    }, 60_000);

    test("a hold shorter than the clearance's ease lets go of it from where it was handed on, with no step (found by a review)", async () => {
        const landed = 0.012;
        const holdFrames = Math.round(FLOOR_EASE_SECONDS * RATE) / 2;
        // As above, but the foot lifts off again half way through the ease, rising 1 mm a frame.
        const { clearance, scale } = await rightClearance(
            90,
            (f) => (f < 20 ? 3 : f < 60 ? 1 : f < 60 + holdFrames ? 3 : 1),
            (f) =>
                f < 20
                    ? 0
                    : f < 40
                      ? (0.03 * (f - 20)) / 20
                      : f < 60
                        ? 0.03 - ((0.03 - landed) * (f - 40)) / 20
                        : f < 60 + holdFrames
                          ? landed
                          : landed + 0.001 * (f - 59 - holdFrames),
        );
        // The step at lift-off no larger than the ease's own steps before it (the foot's own
        // clearance, 7 mm more, came in at once before).
        let easing = 0;
        for (let f = 61; f < 60 + holdFrames; f++) easing = Math.max(easing, Math.abs(clearance[f] - clearance[f - 1]));
        const lift = 60 + holdFrames;
        expect(Math.abs(clearance[lift] - clearance[lift - 1])).toBeLessThanOrEqual(easing + 1e-9);
        expect(clearance[lift - 1]).toBeLessThan(0.9 * landed * scale);
    }, 60_000);
});
