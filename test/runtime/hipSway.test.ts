import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { FootContact, HumanoidRigSolver, HumanPose, MuscleClipSampler, type MuscleClip } from "../../src/index.js";
import { ClipProportionsToArray } from "../../src/clip/clipProportions.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { ForEachFootGoalOffset } from "../helpers/clips.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/**
 * Over a clip's frames, the mean and the largest horizontal distance (legs) between each foot goal
 * as decode puts it and the foot where the character's own legs, as decoded, put it.
 */
async function goalsFromLegs(file: string, clipName: RegExp, target: string): Promise<{ mean: number; worst: number }> {
    const clips = await ConvertFileToMuscleClipsAsync(dataFile(file));
    const clip: MuscleClip | undefined = clips.map((c) => c.clip).find((c) => clipName.test(c.name));
    expect(clip).toBeDefined();
    const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile(target));
    try {
        const solver = new HumanoidRigSolver(loaded.avatar);
        const up = loaded.avatar.frame.up;
        const leg = solver.ik.limbLengths[0];
        let sum = 0;
        let worst = 0;
        ForEachFootGoalOffset(clip!, solver, (d) => {
            d.subtractInPlace(up.scale(Vector3.Dot(d, up)));
            sum += d.length() / leg;
            worst = Math.max(worst, d.length() / leg);
        });
        return { mean: sum / (2 * clip!.frameCount), worst };
    } finally {
        loaded.loaded.dispose();
    }
}

describeWithData("hip joints a clip sways (translation DoF) on a pelvis of another width", () => {
    it("moves the foot goals with the difference: KayKit's run holding a bow onto RiggedFigure", async () => {
        // The run swings the hip joints forward and back by half the mannequin's hip width, which
        // RiggedFigure's narrow pelvis does by half its own: with the goals where the source's feet
        // were from its hips, a foot was 0.15 leg (0.19 at most) across from where the legs put it.
        const r = await goalsFromLegs("glb/kaykit_anims/Med_MovementAdvanced.glb", /Running_HoldingBow/, "glb/khronos_RiggedFigure.glb");
        expect(r.mean).toBeLessThan(0.01);
        expect(r.worst).toBeLessThan(0.02);
    });

    it("moves the foot goals with the difference: KayKit's sneak onto the X Bot", async () => {
        // 0.04 leg on average and 0.11 at most before.
        const r = await goalsFromLegs("glb/kaykit_anims/Med_MovementAdvanced.glb", /Sneaking/, "glb/mixamo_xbot.glb");
        expect(r.mean).toBeLessThan(0.01);
        expect(r.worst).toBeLessThan(0.02);
    });

    it("has the body go down by the up-and-down part: KayKit's run holding a bow onto the X Bot, the stance foot's goal where its leg reaches", async () => {
        // The sway's up-and-down part is not the feet's (a foot on the floor stays on it), so the
        // stance leg, hanging from a hip joint 0.04 leg above the source's (scaled), fell that
        // short of its goal over the run's two contact frames (0.030 leg), and the leg's shape
        // lifted the foot off the floor (0.031 leg: the report's planted feet, 0.03 allowed, on
        // six characters). The body now goes down by it (`hipSwayRise`).
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_MovementAdvanced.glb"));
        const clip = clips.map((c) => c.clip).find((c) => /Running_HoldingBow/.test(c.name))!;
        const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        try {
            const solver = new HumanoidRigSolver(loaded.avatar);
            const up = loaded.avatar.frame.up;
            const leg = solver.ik.limbLengths[0];
            ClipProportionsToArray(clip.proportions, solver.sourceProportions);
            const sampler = new MuscleClipSampler(clip);
            const pose = new HumanPose();
            const goal = new Vector3();
            const rotation = new Quaternion();
            const flags = [FootContact.Left, FootContact.Right];
            let rise = 0;
            let worst = 0;
            let count = 0;
            // Twice over the clip: without a time step (the body's lift at its need), then at the
            // clip's rate (the lift through its spring, afresh at the first frame).
            const passes = 2;
            const step = new Float64Array([1 / clip.frameRate]);
            for (let f = 0; f < passes * clip.frameCount; f++) {
                const frame = f % clip.frameCount;
                const timed = f >= clip.frameCount;
                if (timed && frame === 0) solver.resetSmoothing();
                // The clip's contacts as the player hands them over: a foot in contact is on the ground.
                for (let g = 0; g < 2; g++) solver.footGroundShare[g] = clip.contacts[frame] & flags[g] ? 1 : 0;
                sampler.sampleFrameToRef(frame, pose);
                pose.bodyPosition.y -= clip.groundHeight;
                if (timed) solver.decode(pose, step);
                else solver.decode(pose);
                rise = Math.max(rise, Math.abs(solver.hipSwayRise[0]));
                for (let g = 0; g < 2; g++) {
                    if (!(clip.contacts[frame] & flags[g])) continue;
                    solver.goalToRig(g, goal, rotation);
                    worst = Math.max(worst, Math.abs(Vector3.Dot(goal.subtractInPlace(solver.positions[solver.ik.endJoint(g)]), up)) / leg);
                    count++;
                }
            }
            // The sway does lift one hip joint over the other here: 0.04 of the source's leg.
            expect(rise / solver.sourceProportions[0]).toBeGreaterThan(0.03);
            // Both of the run's contact frames (0 and 1), once per pass.
            expect(count).toBe(2 * passes);
            // 0.0009 leg, 0.0010 with the lift's spring; 0.030 before.
            expect(worst).toBeLessThan(0.005);
        } finally {
            loaded.loaded.dispose();
        }
    });
});
