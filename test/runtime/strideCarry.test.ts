import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanBone, HumanoidAnimator, HumanPose, type RootMotionMode } from "../../src/index.js";
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

    test("where the body goes where the clip puts it, the carry jumps back with the clip at a loop, and a cross-fade moves the body no more than a frame's walk", async () => {
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("bvh/bandai/dataset-1_walk_giant_001.bvh"));
        const giant = clips[0].clip;
        const normal = (await ConvertFileToMuscleClipsAsync(dataFile("bvh/bandai/dataset-1_walk_normal_001.bvh")))[0].clip;
        const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        const nodes = loaded.loaded.binding!.nodes;
        const hips = nodes[loaded.avatar.getJoint(HumanBone.Hips)];
        const a = new HumanoidAnimator(loaded.avatar, nodes, { rootMotion: "clip" });
        a.play(giant, { loop: true });
        const dt = 1 / giant.frameRate;
        // Three loops: the carry's largest total in each is about the same (it does not add up across loops).
        const most: number[] = [];
        for (let loop = 0; loop < 3; loop++) {
            let m = 0;
            for (let f = 0; f < giant.frameCount - 1; f++) {
                a.update(loop === 0 && f === 0 ? 0 : dt);
                m = Math.max(m, Math.hypot(a.solver.carry[2], a.solver.carry[3]));
            }
            most.push(m);
        }
        expect(most[0]).toBeGreaterThan(0.1);
        expect(most[2]).toBeLessThan(1.2 * most[0]);
        // A cross-fade: the hips move no more in its first frame than in the frames before it.
        const at = (): number[] => {
            hips.computeWorldMatrix(true);
            const p = hips.getAbsolutePosition();
            return [p.x, p.y, p.z];
        };
        let last = at();
        let usual = 0;
        for (let f = 0; f < 20; f++) {
            a.update(dt);
            const p = at();
            usual = Math.max(usual, Math.hypot(p[0] - last[0], p[2] - last[2]));
            last = p;
        }
        a.crossFade(normal, 0.5, { loop: true });
        a.update(dt);
        const p = at();
        expect(Math.hypot(p[0] - last[0], p[2] - last[2])).toBeLessThan(2 * usual);
        loaded.loaded.dispose();
    }, 120_000);

    test("a pose set directly takes no carry step, and one that is not finite leaves the next frames finite (its NaN stayed in the body's filters before)", async () => {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile("bvh/bandai/dataset-1_walk_giant_001.bvh")))[0].clip;
        const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        const a = new HumanoidAnimator(loaded.avatar, loaded.loaded.binding!.nodes, { rootMotion: "apply" });
        a.play(clip, { loop: true });
        const dt = 1 / clip.frameRate;
        let usual = 0;
        for (let f = 0; f < 120; f++) {
            a.update(f === 0 ? 0 : dt);
            usual = Math.max(usual, Math.hypot(a.solver.carry[0], a.solver.carry[1]));
        }
        // The clip's pose turned by 1.6 radians, set directly: the next update steps as usual.
        const turned = a.player.pose.clone();
        Quaternion.RotationYawPitchRollToRef(1.6, 0, 0, turned.bodyRotation);
        a.applyPose(turned);
        a.update(dt);
        expect(Math.hypot(a.solver.carry[0], a.solver.carry[1])).toBeLessThanOrEqual(1.5 * usual);
        // A pose with a rotation that is not a number, then the clip again.
        const bad = new HumanPose();
        bad.bodyRotation.set(NaN, NaN, NaN, NaN);
        a.applyPose(bad);
        for (let f = 0; f < 60; f++) a.update(dt);
        expect([...a.player.groundRoot].every(Number.isFinite)).toBe(true);
        // The hips in the world: the root node above them moved by the root motion, finite.
        const hips = loaded.loaded.binding!.nodes[loaded.avatar.getJoint(HumanBone.Hips)];
        hips.computeWorldMatrix(true);
        const hp = hips.getAbsolutePosition();
        expect(Number.isFinite(hp.x + hp.y + hp.z)).toBe(true);
        loaded.loaded.dispose();
    }, 120_000);
});
