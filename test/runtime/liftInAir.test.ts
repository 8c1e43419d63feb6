import { describeWithData } from "../helpers/data.js";
import { MeasureOntoProportionVariantAsync } from "../helpers/variantPair.js";

// In the air the body keeps the mean of what the legs' shape needs of it (bodyPlacement.ts,
// `prepareLegs`): it fell to 0 as both feet left their ground weights' band and came back within the
// few frames a landing foot falls through it (8 frames of the child's 120 fps jump), and the body
// moved by it then, in mid-air. The child's jump onto the VRM sample with a thigh 1.2 times as long
// over a shin 0.8 times (a character of `npm run report:variants`, not in the report): 1.33 times
// the source's jerk before, its head 1.42 times; one frame of its flight held a tenth of the clip's
// excess jerk.
describeWithData("the body's lift in the air on a character of other leg proportions", () => {
    test("the child's jump onto a longer thigh: within the issue's jerk thresholds", async () => {
        const pair = await MeasureOntoProportionVariantAsync("bvh/animated_drawings/fair1_jumping_8yo.bvh", "vrm", "thigh120");
        const o = pair.ours;
        expect(o.jerkRatio).toBeLessThan(1.3);
        // The head, which the body's move in mid-air shook most: 1.42 before, 1.30 now.
        expect(o.boneJerkRatio.head).toBeLessThan(1.35);
        expect(o.boneJerkMax).toBeLessThan(2);
        // The feet still held where they land.
        expect(o.footSkate).toBeLessThan(pair.sourceFootSkate);
    }, 60_000);
});
