import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanoidRigSolver, type MuscleClip } from "../../src/index.js";
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
});
