import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { BuildHumanoidAvatar, BvhPoseSource, ConvertRigPosesToMuscleClip, MuscleSetup, type IRigPose, type IRigPoseSource } from "../../src/index.js";
import { LoadRigFromFileAsync, type ILoadedRig } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

/** A pose source that plays another with its root joint raised by `lift` avatar scales (a take on a higher floor), for its first `seconds`. */
function raised(source: IRigPoseSource, rootJoint: number, up: Vector3, lift: number, seconds: number): IRigPoseSource {
    return {
        name: source.name,
        source: source.source,
        frameRate: source.frameRate,
        durationSeconds: Math.min(seconds, source.durationSeconds),
        warnings: source.warnings,
        samplePoseToRef(time: number, result: IRigPose): void {
            source.samplePoseToRef(time, result);
            result.positions[rootJoint].addInPlace(up.scale(lift));
        },
    };
}

describeWithData("the clip's floor height", () => {
    let loaded: ILoadedRig;
    afterAll(() => loaded?.dispose());

    it("follows a raised floor exactly, takes a floor a little above the T-pose ground in full, and moves continuously across the same-ground zone below it (no jump of the body at its edge)", async () => {
        loaded = await LoadRigFromFileAsync(dataFile("bvh/bandai/dataset-1_walk_normal_001.bvh"));
        const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
        const setup = MuscleSetup.For(avatar);
        const up = new Vector3(0, 1, 0).applyRotationQuaternion(setup.c0);
        const root = loaded.rig.joints.findIndex((j) => j.parent < 0);
        const source = new BvhPoseSource(loaded.bvh!);
        // The root's parent frame is the rig's space: a lift of its local position lifts the take.
        const floorAt = (lift: number): number => ConvertRigPosesToMuscleClip(avatar, raised(source, root, up.scale(setup.scale), lift, 2)).groundHeight;

        // Far from the T-pose ground the floor moves one for one with the take.
        expect(floorAt(0.3) - floorAt(0.2)).toBeCloseTo(0.1, 3);
        // From 0.075 below the take to 0.035 below (its own floor is about 0.035 up): every step of 0.001 moves the estimate by a
        // bounded amount (the smooth share's slope, 1 + 0.03 * 1.5 / 0.01 = 5.5 at most); a hard
        // edge jumps by the whole zone (0.02) in one step.
        const step = 0.001;
        const lifts = Array.from({ length: 41 }, (_, i) => -0.075 + i * step);
        const floors = lifts.map(floorAt);
        for (let i = 1; i < floors.length; i++) {
            expect(floors[i]).toBeGreaterThanOrEqual(floors[i - 1] - 1e-9);
            expect(floors[i] - floors[i - 1]).toBeLessThanOrEqual(5.5 * step + 1e-6);
        }
        // Within the zone below the T-pose ground it counts as that ground.
        expect(floors.some((f) => f === 0)).toBe(true);
        expect(Math.min(...floors)).toBeLessThan(-0.02);
        // A little above it, the floor counts in full (feet that stand 1 cm higher than in the
        // T-pose all take long would float by that on every character): one for one with the take.
        const far = floorAt(0.3) - 0.3;
        for (const lift of [-0.03, -0.025, -0.02, -0.015]) {
            expect(far + lift).toBeGreaterThan(0);
            expect(floorAt(lift)).toBeCloseTo(far + lift, 3);
        }
    }, 120_000);
});
