import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { MeasureOntoProportionVariantAsync } from "../helpers/variantPair.js";

// A character bound in an A-pose (its upper arms 45 degrees down, its thighs 8 degrees apart, as
// many rigs outside Mixamo and VRM are) plays a clip as the same character bound in a T-pose:
// the avatar's T-pose enforcement (`tPose: "auto"`) turns those bones back, and everything after
// it works from that reference. The X Bot and the VRM sample remade so (`apose` of
// `npm run report:variants`) against themselves, on the CMU walk: without the enforcement the arms
// would hang 45 degrees off the source's, the limb directions tens of degrees off.
describeWithData("a character bound in an A-pose", () => {
    const SOURCE = "bvh/cmu_cgspeed/cmu_walk.bvh";
    for (const [base, file] of [
        ["xbot", "glb/mixamo_xbot.glb"],
        ["vrm", "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"],
    ]) {
        test(`${base}: plays the CMU walk as its T-pose original`, async () => {
            const original = (await MeasureQualityPairAsync(dataFile(SOURCE), dataFile(file), { skipAnimatorAvatar: true })).ours;
            const aPose = (await MeasureOntoProportionVariantAsync(SOURCE, base, "apose")).ours;
            // Both are aligned exactly (the original's arms and legs from their rest, the
            // A-pose's from 45 and 8 degrees away), the feet flat in both: the same figures
            // (measured: within 1e-4 on every one).
            expect(Math.abs(aPose.poseErrorDeg - original.poseErrorDeg)).toBeLessThan(0.005);
            for (const segment of Object.keys(original.segmentErrorDeg)) {
                expect(Math.abs(aPose.segmentErrorDeg[segment] - original.segmentErrorDeg[segment])).toBeLessThan(0.01);
            }
            expect(Math.abs(aPose.jerkRatio / original.jerkRatio - 1)).toBeLessThan(0.002);
            expect(Math.abs(aPose.footSkate - original.footSkate)).toBeLessThan(0.0005);
            expect(Math.abs(aPose.contactHeightError - original.contactHeightError)).toBeLessThan(0.001);
            expect(aPose.maxStretch).toBeLessThanOrEqual(1.05 + 1e-6);
        }, 60_000);
    }
});
