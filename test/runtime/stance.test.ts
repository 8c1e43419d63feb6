import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    HumanBone,
    HumanoidAnimator,
    HumanPose,
    HumanoidRigSolver,
    SampleCharacters,
    type MuscleClip,
} from "../../src/index.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { ForEachFootGoalOffset } from "../helpers/clips.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** A solver on a sample character told its clip's source had hips of `hipShare` of its leg length. */
function solverWithSourceHips(hipShare: number): HumanoidRigSolver {
    const solver = new HumanoidRigSolver(BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0])));
    // leg over scale, ankle height, hip width over leg; foot direction unknown (NaN); no thigh share
    solver.sourceProportions.set([0.5, 0.08, hipShare, NaN, NaN, NaN, 0]);
    // No IK: the goals as decode maps them, nothing fitted onto the legs.
    solver.positionWeights.fill(0);
    return solver;
}

describe("stance along the pelvis", () => {
    it("moves the feet with a rolled pelvis: a hip that rolls up carries its foot up", () => {
        const solver = solverWithSourceHips(0.6);
        const pose = new HumanPose();
        const level = [new Vector3(), new Vector3()];
        solver.decode(pose);
        for (let g = 0; g < 2; g++) level[g].copyFrom(solver.goalPositions[g]);
        // The same pose with the hips rolled 20 degrees about the body's forward (canonical +z).
        const roll = (20 * Math.PI) / 180;
        Quaternion.RotationAxisToRef(new Vector3(0, 0, 1), roll, pose.hipsRotation);
        solver.decode(pose);
        const out = solver.positionScale[3] / solver.positionScale[0];
        expect(Math.abs(out)).toBeGreaterThan(0.05);
        // The stance moves each foot along the hips' right: its change is out times the change of that right.
        const right = new Vector3(Math.cos(roll), Math.sin(roll), 0);
        for (let g = 0; g < 2; g++) {
            const sign = g === 0 ? -1 : 1;
            const expected = right.subtract(new Vector3(1, 0, 0)).scale(sign * out);
            const moved = solver.goalPositions[g].subtract(level[g]);
            expect(Vector3.Distance(moved, expected)).toBeLessThan(1e-9);
            // Along a level line the feet did not move up at all.
            expect(Math.abs(moved.y)).toBeGreaterThan(0.3 * Math.abs(out) * Math.sin(roll));
        }
    });

    it("leaves a level pelvis as before: no stance without a hip width difference", () => {
        const solver = new HumanoidRigSolver(BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0])));
        const pose = new HumanPose();
        Quaternion.RotationAxisToRef(new Vector3(0, 0, 1), 0.3, pose.hipsRotation);
        solver.decode(pose);
        expect(solver.positionScale[3]).toBe(0);
    });
});

describeWithData("stance on a short-legged source's crawl", () => {
    it("puts the foot goals where the target's legs, bent as the source's, put the feet", async () => {
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_MovementAdvanced.glb"));
        const clip: MuscleClip | undefined = clips.map((c) => c.clip).find((c) => /Crawling/.test(c.name));
        expect(clip).toBeDefined();
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        const solver = new HumanoidRigSolver(target.avatar);
        const leg = solver.ik.limbLengths[0];
        let worst = 0;
        // The decoded legs are the source's bends (the clip's muscles); their feet should be where
        // the clip's goals are, up to what the leg shares fit leaves.
        ForEachFootGoalOffset(clip!, solver, (offset) => (worst = Math.max(worst, offset.length() / leg)));
        // Along a level line (the old stance) the goals were up to 0.2 leg off, in every cycle.
        expect(worst).toBeLessThan(0.08);
        target.loaded.dispose();
    });
});

describeWithData("a foot on the floor from the first frame", () => {
    it("is lifted onto it at once, not over the floor ease (it would rise in the clip's first frames)", async () => {
        // The X Bot's first clip onto the KayKit mannequin: both feet down from frame 0, the left one
        // (with the stance along the rolled pelvis) below the floor.
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile("glb/mixamo_xbot.glb")))[0].clip;
        expect(clip.contacts[0] & 3).toBe(3);
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        const nodes = target.loaded.binding!.nodes;
        const animator = new HumanoidAnimator(target.avatar, nodes, { rootMotion: "clip" });
        animator.play(clip, { loop: false });
        const foot = nodes[target.avatar.getJoint(HumanBone.LeftFoot)]!;
        const heights: number[] = [];
        for (let f = 0; f < 6; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            foot.computeWorldMatrix(true);
            heights.push(foot.getAbsolutePosition().y);
        }
        // Eased over 0.1 s from frame 0 the foot rose 2.8 mm over frames 1 to 3.
        expect(Math.max(...heights) - Math.min(...heights)).toBeLessThan(5e-4);
        animator.dispose();
        target.loaded.dispose();
    });
});

describeWithData("foot rotations of a large swing", () => {
    it("follow the source's feet on a skeleton whose T-pose foot points elsewhere (KayKit's crawl onto the CMU skeleton)", async () => {
        const p = await MeasureQualityPairAsync(dataFile("glb/kaykit_anims/Med_MovementAdvanced.glb"), dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"), {
            clip: "Rig_Medium|Crawling",
            skipAnimatorAvatar: true,
        });
        // The crawl's feet point back; turning the whole goal rotation by the turn between the two
        // T-pose foot directions put them 22 and 21 degrees from the source's (the muscles' own
        // feet, without IK: 4).
        expect(p.ours.segmentErrorDeg["left foot"]).toBeLessThan(10);
        expect(p.ours.segmentErrorDeg["right foot"]).toBeLessThan(10);
    });
});
