import { Logger } from "@babylonjs/core/Misc/logger.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

describeWithData("limb directions where the source's figure is scaled to a point", () => {
    it("leaves those frames out: KayKit's spawn from the ground onto the X Bot", async () => {
        // The clip's first two frames scale the whole figure to 0 (its joints all at one point), so
        // no segment has a direction there; counted, they read 90 to 180 degrees for any character
        // (AnimatorAvatar's 90, ours up to 176: 6.2 degrees over the clip, all of it from them).
        const p = await MeasureQualityPairAsync(dataFile("glb/kaykit_anims/Med_General.glb"), dataFile("glb/mixamo_xbot.glb"), {
            clip: "Rig_Medium|Spawn_Ground",
            skipAnimatorAvatar: true,
        });
        expect(p.ours.poseErrorDeg).toBeLessThan(1);
        for (const [segment, deg] of Object.entries(p.ours.segmentErrorDeg)) expect([segment, deg < 3]).toEqual([segment, true]);
    });
});
