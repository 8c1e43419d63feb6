import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { ConvertFileToMuscleClipsAsync } from "../../src/node/convertFile.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { HumanoidAnimator } from "../../src/plugin/humanoidAnimator.js";
import { HumanoidFootPlanting } from "../../src/runtime/footPlanting.js";
import { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { PlantingPlayerStub } from "../helpers/plantingPlayer.js";

// A foot planting let go stays let go: found by a review of the foot-tip and floor-limit changes.
describeWithData("planting's release at its edges", () => {
    const VRM = "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm";

    test("planting turned off while a release eases out, then on again: the foot starts afresh", async () => {
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile(VRM));
        const [converted] = await ConvertFileToMuscleClipsAsync(dataFile("bvh/animated_drawings/fair1_jumping_8yo.bvh"));
        const clip = converted.clip;
        const nodes = CreateTransformNodesFromRig(target.avatar.rig, new Scene(new NullEngine())).nodes;
        const a = new HumanoidAnimator(target.avatar, nodes, { rootMotion: "clip" });
        a.play(clip, { loop: false });
        const s = a.solver;
        let offAt = -1;
        let checked = false;
        for (let f = 0; f < clip.frameCount && !checked; f++) {
            // Off while the right foot eases out of a hold in the air, for three frames.
            if (offAt < 0 && f > 0 && !a.planting.planted[1] && s.footGrounded[1] > 0.5 && s.footGrounded[1] < 0.9) {
                offAt = f;
                a.footPlanting = false;
            }
            if (offAt >= 0 && f === offAt + 3) a.footPlanting = true;
            a.update(f === 0 ? 0 : 1 / clip.frameRate);
            if (offAt >= 0 && f === offAt + 3) {
                // Before: the old release went on where it was, the foot 1.6 cm off its goal at once.
                expect(a.planting.planted[1]).toBe(false);
                expect(s.footGrounded[1]).toBe(0);
                expect(s.footCorrections[1].length()).toBeLessThan(1e-4);
                checked = true;
            }
        }
        expect(checked).toBe(true);
    }, 60_000);

    test("a release cut short for a touch-down that does not come eases out without holding the foot again", async () => {
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile(VRM));
        const solver = new HumanoidRigSolver(target.avatar);
        const planting = new HumanoidFootPlanting(target.avatar);
        // A player as planting reads it: the right foot down for 10 frames, then up with a contact
        // announced 0.1 s away that never comes (the clip changed).
        const stub = PlantingPlayerStub(30);
        const grounded: number[] = [];
        for (let f = 0; f < 20; f++) {
            stub.contacts = f < 10 ? 3 : 1;
            stub.nextContact = f === 10 ? 0.1 : Infinity;
            for (let s = 0; s < 2; s++) {
                solver.goalPositions[s].set((s ? -0.1 : 0.1) + 0.003 * f, solver.positionScale[1] + (f >= 10 && s === 1 ? 0.01 * (f - 9) : 0), 0);
                solver.goalRotations[s].set(0, 0, 0, 1);
            }
            planting.update(stub.player, solver);
            grounded.push(solver.footGrounded[1]);
        }
        // Let go at frame 10, fully by the cut-short end (0.1 s); never held again after.
        const out = grounded.indexOf(0, 10);
        expect(out).toBeGreaterThan(10);
        // Before: 0 -> 0.965 on the frame the rest was eased out afresh.
        for (let f = out; f < grounded.length; f++) expect(grounded[f]).toBe(0);
    }, 60_000);
});
