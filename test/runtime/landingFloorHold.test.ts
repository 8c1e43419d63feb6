import { describeWithData } from "../helpers/data.js";
import { MeasureOntoProportionVariantAsync } from "../helpers/variantPair.js";

// The leg shape's floor limit is on before a foot lands, as the clip's contacts say it is about to
// (`HumanoidRigSolver.footFloorHold`: held, or the ground share that comes in before a contact),
// not only from the frame the foot is held. The child's jump onto the VRM sample with feet twice as
// long (`feet200`, a character the report does not hold): its left foot lands on its toes, which
// the leg's shape had taken 6 mm down in the air, and the limit stepping in at the touch-down took
// 4 mm of it back in one frame: the shin 4.9 times the source's jerk.
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
