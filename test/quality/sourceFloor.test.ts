import { Logger } from "@babylonjs/core/Misc/logger.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { MAX_CONTACT_HEIGHT } from "../../src/quality/grade.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

// The report allows a character's planted feet as far from the floor as the source's own are
// (a crawl whose feet rest on their tops). The source's own were measured from its T-pose ground,
// and a BVH's zero pose hangs anywhere: the CMU takes' a leg and more below where their feet stand,
// so the allowance read 1.1-1.2 legs and no character's planted feet could miss it there.
describeWithData("the source's own planted heights, the report's allowance, are taken from its clip's floor", () => {
    test("the CMU walk: its planted feet within a few hundredths of a leg of its floor (1.21 legs from its T-pose ground)", async () => {
        const pair = await MeasureQualityPairAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"), dataFile("glb/mixamo_xbot.glb"), { skipAnimatorAvatar: true });
        // Its floor climbs 0.05 of its scale over the take, so its planted feet (the source as it
        // is) stand up to about half that above and below the one level floor the leveled clip has
        // (`FitFloorTilt`): 0.019 legs by the mean (0.027 from the floor of a clip not leveled).
        expect(pair.sourceContactHeight).toBeGreaterThan(0);
        expect(pair.sourceContactHeight).toBeLessThan(2 * MAX_CONTACT_HEIGHT);
    }, 60_000);

    test("Bandai's walk, whose rest pose stands a little off its floor: 0.0006 legs (0.047 from its T-pose ground)", async () => {
        const pair = await MeasureQualityPairAsync(dataFile("bvh/bandai/dataset-1_walk_normal_001.bvh"), dataFile("glb/mixamo_xbot.glb"), {
            skipAnimatorAvatar: true,
        });
        expect(pair.sourceContactHeight).toBeLessThan(0.005);
    }, 60_000);
});
