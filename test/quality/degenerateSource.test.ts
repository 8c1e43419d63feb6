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

    it("leaves out the frames where the source shows its figure at no size: KayKit's spawn from the air onto the X Bot", async () => {
        // Its first two frames scale every bone to 0 while the poses (which drop scale) point the
        // legs up: read from the poses, the source's thighs were 151 degrees from ours there
        // (AnimatorAvatar's collapsed copy 90), 5.55 degrees over the clip for us, 4.84 for it.
        const p = await MeasureQualityPairAsync(dataFile("glb/kaykit_anims/Med_General.glb"), dataFile("glb/mixamo_xbot.glb"), {
            clip: "Rig_Medium|Spawn_Air",
            skipAnimatorAvatar: true,
        });
        expect(p.ours.poseErrorDeg).toBeLessThan(1);
        for (const [segment, deg] of Object.entries(p.ours.segmentErrorDeg)) expect([segment, deg < 3]).toEqual([segment, true]);
    });
});
