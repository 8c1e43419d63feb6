import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BuildHumanoidAvatar,
    EncodeHumanPose,
    GetCurveTolerance,
    HumanPose,
    MuscleClipSampler,
    MuscleCurveNames,
    MuscleSetup,
    PLACEMENT_CLIP_CURVES,
} from "../../src/index.js";
import { GetRigRestPose } from "../../src/humanoid/rig.js";
import { AnimationGroupPoseSource } from "../../src/io/animationGroupClip.js";
import { ConvertRigPosesToMuscleClip } from "../../src/clip/convert.js";
import { PickClipByName } from "../../src/node/convertFile.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";

// The body's placement curves keyed together where the trunk's are not (`PLACEMENT_CLIP_CURVES`):
// a keyframed clip's hips stay where the source's were in the world.

const KAYKIT_CLIPS = "glb/kaykit_anims/Med_General.glb";
const MANNEQUIN = "glb/kaykit_mannequin/manny_med_mod.gltf";

describeWithData("the body's placement keyed together (KayKit's keyframed clips)", () => {
    it("keys the body's and the hips' curves on shared frames, the trunk's muscles on frames of their own", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile(KAYKIT_CLIPS));
        try {
            const avatar = BuildHumanoidAvatar(loaded.rig);
            const group = PickClipByName(loaded.container!.animationGroups, "Hit_A", KAYKIT_CLIPS);
            const clip = ConvertRigPosesToMuscleClip(avatar, new AnimationGroupPoseSource(group, avatar, KAYKIT_CLIPS));
            // A keyframed clip: its hips are its trunk's steadiest point, the trunk's keys not shared.
            expect(clip.proportions!.trunkSteadyPoint).toBe(0);
            const framesOf = (c: number): string => Array.from(clip.curves[c].frames).join(",");
            const moving = PLACEMENT_CLIP_CURVES.filter((c) => clip.curves[c].frames.length > 1);
            expect(moving.map((c) => MuscleCurveNames[c])).toEqual(expect.arrayContaining(["bodyPosition.z", "hips.position.z"]));
            for (const c of moving) expect(framesOf(c)).toBe(framesOf(moving[0]));
            expect(framesOf(MuscleCurveNames.indexOf("Spine Front-Back"))).not.toBe(framesOf(moving[0]));
        } finally {
            loaded.dispose();
        }
    });

    it("keeps a still pair of hips still: the clip's hips in the world within a quarter of the tolerance of the source's", async () => {
        // Hit_A: the hips stay while the centre of mass sways (the body's curve and the hips' offset
        // from it move, opposite). Each keyed on its own, the clip's hips moved by up to 1.8 mm at 1 m.
        const loaded = await LoadRigFromFileAsync(dataFile(KAYKIT_CLIPS));
        try {
            const avatar = BuildHumanoidAvatar(loaded.rig);
            const group = PickClipByName(loaded.container!.animationGroups, "Hit_A", KAYKIT_CLIPS);
            const poses = new AnimationGroupPoseSource(group, avatar, KAYKIT_CLIPS);
            const clip = ConvertRigPosesToMuscleClip(avatar, poses);
            const tolerance = GetCurveTolerance(MuscleSetup.For(avatar), MuscleCurveNames.indexOf("hips.position.x"), clip.toleranceDeg);
            const sampler = new MuscleClipSampler(clip);
            const rig = GetRigRestPose(avatar.rig);
            const source = new HumanPose();
            const ours = new HumanPose();
            const worldHips = (p: HumanPose): Vector3 => p.hipsPosition.applyRotationQuaternion(p.bodyRotation).add(p.bodyPosition);
            let worst = 0;
            let bodyMoved = 0;
            let first: Vector3 | null = null;
            for (let f = 0; f < clip.frameCount; f++) {
                poses.samplePoseToRef(Math.min(f / clip.frameRate, poses.durationSeconds), rig);
                EncodeHumanPose(avatar, rig, source);
                first ??= source.bodyPosition.clone();
                bodyMoved = Math.max(bodyMoved, Vector3.Distance(source.bodyPosition, first));
                sampler.sampleFrameToRef(f, ours);
                worst = Math.max(worst, Vector3.Distance(worldHips(source), worldHips(ours)));
            }
            process.stdout.write(
                `Hit_A: the body moves ${(bodyMoved / tolerance).toFixed(1)} tolerances; the clip's hips at most ${(worst / tolerance).toFixed(3)} of one from the source's\n`,
            );
            expect(bodyMoved).toBeGreaterThan(10 * tolerance);
            expect(worst).toBeLessThan(tolerance / 4);
        } finally {
            loaded.dispose();
        }
    });

    it.each(["Hit_B", "Death_B"])("%s on its own mannequin, foot IK on: no more jerk than the exact copy's", async (name) => {
        const pair = await MeasureQualityPairAsync(dataFile(KAYKIT_CLIPS), dataFile(MANNEQUIN), { clip: `Rig_Medium|${name}`, skipAnimatorAvatar: true });
        process.stdout.write(`${name} on its own mannequin: ${pair.ours.jerkRatio.toFixed(4)}x the source's jerk\n`);
        // AnimatorAvatar, an exact copy here, is 1.000x (the report's chibi limit).
        expect(pair.ours.jerkRatio).toBeLessThanOrEqual(1);
    });
});
