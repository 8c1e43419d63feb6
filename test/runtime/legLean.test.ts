import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanBone, type MuscleClip } from "../../src/index.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { MeasureQualityPairAsync, RecordHumanoidRetarget } from "../../src/node/qualityReport.js";
import { WithoutProportionKeys } from "../helpers/clips.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** A copy of a clip without the source's T-pose leg directions (as a file before version 6 reads). */
function withoutLegDirections(c: MuscleClip): MuscleClip {
    return WithoutProportionKeys(c, "thighDirection", "shinDirection");
}

const MANNEQUIN = "glb/kaykit_mannequin/manny_med_mod.gltf";

describeWithData("feet placed by the leg turned from the character's own T-pose (the clip's leg directions)", () => {
    // The T-pose enforcement hangs every leg straight ("auto", "strict"); a T-pose taken as the rig
    // is bound ("rest") keeps its lean: the mannequin's thighs 2.0 degrees and shins 10.2 off
    // straight down (its knees bent 12.2).
    it("the VRMA (legs hanging straight, standing) onto the KayKit mannequin as bound (its T-pose leans the leg forward): its legs as a rotation copy's", async () => {
        // The report's measure: each limb segment's direction against the source's, each turned from its own T-pose.
        const pair = await MeasureQualityPairAsync(dataFile("vrm/three-vrm_test.vrma"), dataFile(MANNEQUIN), { skipAnimatorAvatar: true, tPose: "rest" });
        for (const segment of ["left thigh", "left shin", "right thigh", "right shin"]) expect(pair.ours.segmentErrorDeg[segment]).toBeLessThan(0.05);
        // Without the leg directions the feet went straight under the hips, as the source's do: the legs a degree off.
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile("vrm/three-vrm_test.vrma"), { tPose: "rest" }))[0].clip;
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile(MANNEQUIN), { tPose: "rest" });
        try {
            const nodes = target.loaded.binding!.nodes;
            const [hip, knee] = [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg].map((b) => target.avatar.getJoint(b));
            const thigh = (positions: readonly Float32Array[], f: number): Vector3 =>
                Vector3.FromArray(positions[f], 3 * knee)
                    .subtract(Vector3.FromArray(positions[f], 3 * hip))
                    .normalize();
            const leaning = RecordHumanoidRetarget(clip, target.avatar, nodes).positions;
            const straight = RecordHumanoidRetarget(withoutLegDirections(clip), target.avatar, nodes).positions;
            const f = Math.floor(leaning.length / 2);
            const angle = (Math.acos(Math.min(1, Vector3.Dot(thigh(leaning, f), thigh(straight, f)))) * 180) / Math.PI;
            // 1.0 degree (0.2 of it the width of the stance).
            expect(angle).toBeGreaterThan(0.8);
        } finally {
            target.loaded.dispose();
        }
    });

    it("a KayKit clip onto the KayKit mannequin (the same legs): nothing moves, as without the leg directions", async () => {
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_General.glb"));
        const fall = clips.find((c) => c.clip.name === "Rig_Medium|Death_A")!.clip;
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile(MANNEQUIN));
        try {
            const nodes = target.loaded.binding!.nodes;
            const a = RecordHumanoidRetarget(fall, target.avatar, nodes).positions;
            const b = RecordHumanoidRetarget(withoutLegDirections(fall), target.avatar, nodes).positions;
            let worst = 0;
            for (let f = 0; f < a.length; f++) for (let i = 0; i < a[f].length; i++) worst = Math.max(worst, Math.abs(a[f][i] - b[f][i]));
            expect(a.length).toBeGreaterThan(20);
            expect(worst).toBeLessThan(1e-5);
        } finally {
            target.loaded.dispose();
        }
    });
});
