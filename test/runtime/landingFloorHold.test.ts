import { describeWithData } from "../helpers/data.js";
import { MeasureOntoProportionVariantAsync } from "../helpers/variantPair.js";

// The leg shape's floor limit on a held foot comes in over planting's lift onto the floor (0.1 s
// from touch-down, `HumanoidRigSolver.footFloorHold`), not in the frame the foot lands. The child's
// jump onto the VRM sample with feet twice as long (`feet200`, a character the report does not
// hold): its left foot lands on its toes, whose leg the shape had moved down by 6 mm, and the limit
// engaging at once took 4 mm of it back in one frame: the shin 4.9 times the source's jerk.
describeWithData("a landing on a character with long feet", () => {
    test("the child's jump onto feet twice as long: no leg bone over twice the source's jerk", async () => {
        const pair = await MeasureOntoProportionVariantAsync("bvh/animated_drawings/fair1_jumping_8yo.bvh", "vrm", "feet200");
        const o = pair.ours;
        // Before the change: the left shin 4.87 times the source's jerk, the right 3.81, the body 2.07.
        for (const bone of ["leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg", "rightLowerLeg", "rightFoot"]) {
            expect([bone, o.boneJerkRatio[bone]]).toEqual([bone, expect.any(Number)]);
            expect(o.boneJerkRatio[bone]).toBeLessThan(2);
        }
        expect(o.jerkRatio).toBeLessThan(1.5);
        // Still planted: the change moved no held foot.
        expect(o.footSkate).toBeLessThan(pair.sourceFootSkate);
    }, 60_000);
});
