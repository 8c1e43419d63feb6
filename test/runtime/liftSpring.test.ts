import { Logger } from "@babylonjs/core/Misc/logger.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

describeWithData("the feet's lift of the body follows its need through a spring (proportions 'legs')", () => {
    // KayKit's clips (a cartoon rig, legs half its height) onto the X Bot: every landing foot's
    // weight comes in over the few frames it takes to cross its height band, and the body's lift,
    // applied at once, stepped in velocity there (the death 1.43x the source's jerk, the forward
    // dodge 1.28x); through the spring, 1.19x and 1.03x.
    it.each([
        ["glb/kaykit_anims/Med_General.glb", "Rig_Medium|Death_A", 1.3],
        ["glb/kaykit_anims/Med_MovementAdvanced.glb", "Rig_Medium|Dodge_Forward", 1.15],
    ])("%s %s onto the X Bot: jerk under %fx the source's", async (file, clip, most) => {
        const pair = await MeasureQualityPairAsync(dataFile(file), dataFile("glb/mixamo_xbot.glb"), { clip, skipAnimatorAvatar: true });
        expect(pair.ours.jerkRatio).toBeLessThan(most);
    });
});
