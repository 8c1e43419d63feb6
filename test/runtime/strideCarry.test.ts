import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanBone, HumanoidAnimator, type RootMotionMode } from "../../src/index.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const LEG_BONES = [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, HumanBone.LeftFoot, HumanBone.RightUpperLeg, HumanBone.RightLowerLeg, HumanBone.RightFoot];

// The stride's carry (HumanoidRigSolver.carry, docs/runtime.md): a pelvis wider than the source's,
// scaled, turning over a held foot moves the body rather than leaning the leg.
describeWithData("the stride's carry", () => {
    test("the spinning kick onto the KayKit mannequin: its legs within 8 degrees of the source's (10.6 and 8.002 without the carry)", async () => {
        const pair = await MeasureQualityPairAsync(dataFile("bvh/bandai/dataset-1_kick_normal_001.bvh"), dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"), {
            skipAnimatorAvatar: true,
        });
        const seg = pair.ours.segmentErrorDeg;
        for (const s of ["left thigh", "left shin", "right thigh", "right shin"]) expect(seg[s]).toBeLessThan(8);
        expect(pair.ours.footSkate).toBeLessThan(pair.sourceFootSkate);
    }, 60_000);

    test("every root motion mode bends the legs alike: the carry moves the body where the clip places it, and the ground under it otherwise", async () => {
        // The giant walk onto the mannequin: the carry adds up stance after stance.
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile("bvh/bandai/dataset-1_walk_giant_001.bvh")))[0].clip;
        const legs = async (mode: RootMotionMode): Promise<{ rotations: Quaternion[][]; carried: number }> => {
            const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
            const a = new HumanoidAnimator(loaded.avatar, loaded.loaded.binding!.nodes, { rootMotion: mode });
            a.play(clip, { loop: false });
            const rotations: Quaternion[][] = [];
            let carried = 0;
            for (let f = 0; f < clip.frameCount; f++) {
                a.update(f === 0 ? 0 : 1 / clip.frameRate);
                carried = Math.max(carried, Math.hypot(a.solver.carry[2], a.solver.carry[3]));
                rotations.push(LEG_BONES.map((b) => a.solver.pose.rotations[loaded.avatar.getJoint(b)].clone()));
            }
            loaded.loaded.dispose();
            return { rotations, carried };
        };
        const clipMode = await legs("clip");
        // The carry is there (a tenth of a source's scale or more by the end of the walk).
        expect(clipMode.carried).toBeGreaterThan(0.1);
        for (const mode of ["in-place", "apply", "delta"] as const) {
            const other = await legs(mode);
            let worst = 0;
            other.rotations.forEach((frame, f) =>
                frame.forEach((q, k) => {
                    const d = Math.abs(Quaternion.Dot(q, clipMode.rotations[f][k]));
                    worst = Math.max(worst, (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI);
                }),
            );
            expect(worst).toBeLessThan(0.5);
        }
    }, 120_000);
});
