import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BuildHumanoidAvatar,
    ConvertRigPosesToMuscleClip,
    DEFAULT_TOLERANCE_DEG,
    GetCurveTolerance,
    GetRigRestPose,
    HumanBone,
    MuscleCurveNames,
    MuscleSetup,
    type HumanoidAvatar,
    type IRigPose,
    type IRigPoseSource,
} from "../../src/index.js";
import { LoadRigFromFileAsync, type ILoadedRig } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

/** Two seconds of the rest pose with the left wrist bent by `amplitude * sin(pi t / 2)` radians about `axis` (its local space): one slow swell. */
function swell(avatar: HumanoidAvatar, axis: Vector3, amplitude: number): IRigPoseSource {
    const rest = GetRigRestPose(avatar.rig);
    const hand = avatar.getJoint(HumanBone.LeftHand);
    const turn = new Quaternion();
    return {
        name: "swell",
        source: "test",
        frameRate: 30,
        durationSeconds: 2,
        warnings: [],
        samplePoseToRef(time: number, result: IRigPose): void {
            rest.rotations.forEach((q, j) => result.rotations[j].copyFrom(q));
            rest.positions.forEach((p, j) => result.positions[j].copyFrom(p));
            Quaternion.RotationAxisToRef(axis, amplitude * Math.sin((Math.PI * time) / 2), turn);
            rest.rotations[hand].multiplyToRef(turn, result.rotations[hand]);
        },
    };
}

describeWithData("a curve one value holds within its tolerance", () => {
    let loaded: ILoadedRig;
    afterAll(() => loaded?.dispose());

    it("is one key though it spans more than the reduction's half of the tolerance (a slow swell the smoothing keeps)", async () => {
        loaded = await LoadRigFromFileAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"));
        const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
        const curve = MuscleCurveNames.indexOf("Left Hand Down-Up");
        const tolerance = GetCurveTolerance(MuscleSetup.For(avatar), curve, DEFAULT_TOLERANCE_DEG);
        /** The curve's range over the clip, with every frame kept (tolerance 0). */
        const rangeAt = (axis: Vector3, amplitude: number): number => {
            const v = ConvertRigPosesToMuscleClip(avatar, swell(avatar, axis, amplitude), { toleranceDeg: 0 }).curves[curve].values;
            return Math.max(...v) - Math.min(...v);
        };
        // The wrist's local axis that moves the curve most, and its turn for a swell of 1.6
        // tolerances (the curve is linear in it this close to rest).
        const axis = [Vector3.Right(), Vector3.Up(), Vector3.Forward()].reduce((a, b) => (rangeAt(b, 0.01) > rangeAt(a, 0.01) ? b : a));
        const amplitude = (0.01 * 1.6 * tolerance) / rangeAt(axis, 0.01);
        expect(rangeAt(axis, amplitude) / tolerance).toBeCloseTo(1.6, 1);
        const keys = (a: number): number => ConvertRigPosesToMuscleClip(avatar, swell(avatar, axis, a)).curves[curve].frames.length;
        // Within the whole tolerance of one value: one key (smoothed within half the tolerance and
        // keyed within the other half, as every other curve is, it would take several: a slow
        // swell is the motion itself, which the smoothing keeps).
        expect(keys(amplitude)).toBe(1);
        // A swell of 2.4 tolerances is keyed as motion.
        expect(keys(1.5 * amplitude)).toBeGreaterThan(1);
    }, 60_000);
});
