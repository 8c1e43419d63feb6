import { Logger } from "@babylonjs/core/Misc/logger.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

// The body's lift counts a foot off the ground (by the clip's contacts) only as far as the other
// foot is off it too (src/runtime/bodyPlacement.ts, prepareLegs). Found on KayKit's crouch and
// sneak, whose swinging foot stays low: weighed by its height alone it held the body between what
// the stance leg and the swinging leg needed, and the planted foot floated.

describeWithData("the body's lift in one foot's stance is that leg's need", () => {
    test("KayKit's crouch onto the X Bot: its planted feet no further from the floor than its source's own", async () => {
        // 0.075 leg where the source's own stand 0.07 from its floor, before; 0.067 now.
        const pair = await MeasureQualityPairAsync(dataFile("glb/kaykit_anims/Med_MovementAdvanced.glb"), dataFile("glb/mixamo_xbot.glb"), {
            clip: "Rig_Medium|Crouching",
            skipAnimatorAvatar: true,
        });
        expect(pair.sourceContactHeight).toBeGreaterThan(0.03);
        expect(pair.ours.contactHeightError).toBeLessThanOrEqual(pair.sourceContactHeight);
    }, 120_000);
});
