import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { HumanoidFootPlanting } from "../../src/runtime/footPlanting.js";
import { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { FootAtRest, PlantingPlayerStub } from "../helpers/plantingPlayer.js";

// A held foot that leaves the ground while its contact still holds: found on a circle walk (the
// AnimatedDrawings project's `sst` takes) onto RiggedFigure, whose feet jerked 4-5 times the
// source's at every lift-off.
describeWithData("planting: a held foot leaving the ground keeps the point it stands on", () => {
    test("rolled onto its toes, then rising with its toes faster than its ankle: its toes stay held to the end of the contact (the hold went back to the ankle)", async () => {
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"));
        const solver = new HumanoidRigSolver(target.avatar);
        const planting = new HumanoidFootPlanting(target.avatar);
        // The right foot's toe offset from its ankle at rest (canonical, pose units: this solver's scale).
        const { ankle: restAnkle, toeOffset: off } = FootAtRest(target.avatar, 1);
        const toeRest = restAnkle.add(off);
        const stub = PlantingPlayerStub(120);
        const pitch = (deg: number): Quaternion => Quaternion.RotationAxis(new Vector3(1, 0, 0), (deg * Math.PI) / 180);
        const heldToe: Vector3[] = [];
        let ankle = restAnkle.clone();
        for (let f = 0; f < 24; f++) {
            // Frames 0-9: the heel rises, the foot rolling about its toes (held where they rest).
            // Frames 10-15: still in contact, the foot leaves: its ankle rises and goes forward, and
            // it pitches back, its toes rising faster. From frame 16 the contact is over.
            const deg = f < 10 ? 3 * f : 27 - 6 * (f - 9);
            const q = pitch(deg);
            if (f < 10) ankle = toeRest.subtract(off.applyRotationQuaternion(q));
            else ankle = ankle.add(new Vector3(0, 0.012, 0.004));
            stub.contacts = f < 16 ? 3 : 1;
            solver.goalPositions[0].copyFrom(restAnkle.multiplyByFloats(-1, 1, 1));
            solver.goalRotations[0].set(0, 0, 0, 1);
            solver.goalPositions[1].copyFrom(ankle);
            solver.goalRotations[1].copyFrom(q);
            planting.update(stub.player, solver);
            // Where the foot's toes are shown (the goal as planting left it).
            heldToe.push(solver.goalPositions[1].add(off.applyRotationQuaternion(q)));
        }
        // The clip's toes leave the ground from frame 10 (its ankle 7 cm up by then).
        expect(ankle.y - restAnkle.y).toBeGreaterThan(0.05);
        // Held on their spot across the ground (from frame 1, once the hold has gone over from the
        // flat foot's ankle to its toes) to the end of the contact. Before: from frame 14, the
        // toes higher over their rest than the ankle, the hold went back to the ankle, and the
        // toes slid forward.
        for (let f = 2; f < 16; f++) {
            expect(Math.hypot(heldToe[f].x - heldToe[1].x, heldToe[f].z - heldToe[1].z)).toBeLessThan(1e-6);
        }
        target.loaded.dispose();
    }, 60_000);
});
