import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanBone } from "../../src/humanoid/humanBones.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData, SHARED_DATA } from "../helpers/data.js";
import { WriteProportionVariant } from "../helpers/proportionVariants.js";
import { MeasureOntoProportionVariantAsync } from "../helpers/variantPair.js";

// A foot with no toes mapped (VRM 0.x avatars and many game rigs have none) rolls onto its front
// as a foot with toes does: planting and the report take the foot's own tip joint where the map
// has no toes (`MuscleSetup.footTip`). Held at its ankle, its heel could not come up without its
// front sliding back, and a take-off on the toes fought the clip: the child's jump onto the X Bot
// and the VRM sample with their toes unmapped (`notoes` of `npm run report:variants`) 2.2 times the
// source's jerk at the shin, the Mixamo walk onto the X Bot 0.51 degree from the exact copy (0.08
// with toes).
describeWithData("feet with no toes mapped", () => {
    test("the foot's tip is its toes, or where none are mapped, its longest child joint", async () => {
        const xbot = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"))).avatar;
        const withToes = MuscleSetup.For(xbot);
        expect(withToes.footTip).toEqual([xbot.getJoint(HumanBone.LeftToes), xbot.getJoint(HumanBone.RightToes)]);
        const dir = mkdtempSync(join(tmpdir(), "notoes-"));
        try {
            const file = WriteProportionVariant(SHARED_DATA, "xbot", "notoes", join(dir, "xbot_notoes.glb"));
            const avatar = (await LoadHumanoidAvatarFromFileAsync(file)).avatar;
            expect(avatar.getJoint(HumanBone.LeftToes)).toBe(-1);
            expect(avatar.getJoint(HumanBone.RightToes)).toBe(-1);
            const tip = MuscleSetup.For(avatar).footTip;
            // The same joint as the X Bot's toes: where it is in the T-pose.
            for (let s = 0; s < 2; s++) {
                expect(tip[s]).toBeGreaterThanOrEqual(0);
                const at = avatar.referenceWorld.positions[tip[s]];
                const toes = xbot.referenceWorld.positions[withToes.footTip[s]];
                expect(at.subtract(toes).length()).toBeLessThan(1e-4);
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    }, 60_000);

    for (const [base, file] of [
        ["xbot", "glb/mixamo_xbot.glb"],
        ["vrm", "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"],
    ]) {
        test(`${base}: the child's jump takes off and lands as on the character with toes`, async () => {
            const source = "bvh/animated_drawings/fair1_jumping_8yo.bvh";
            const original = (await MeasureQualityPairAsync(dataFile(source), dataFile(file), { skipAnimatorAvatar: true })).ours;
            const toeless = (await MeasureOntoProportionVariantAsync(source, base, "notoes")).ours;
            // Before: the shins 2.22 and 2.23 times the source's jerk (1.33 and 1.32 with toes).
            expect(toeless.boneJerkMax).toBeLessThan(original.boneJerkMax * 1.05);
            expect(toeless.jerkRatio).toBeLessThan(original.jerkRatio * 1.05);
            expect(toeless.footSkate).toBeLessThan(Math.max(2 * original.footSkate, 0.001));
        }, 60_000);
    }

    test("the Mixamo walk onto the X Bot without toes: as near the exact copy as with them", async () => {
        const source = "bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh";
        const original = (await MeasureQualityPairAsync(dataFile(source), dataFile("glb/mixamo_xbot.glb"), { skipAnimatorAvatar: true })).ours;
        const toeless = (await MeasureOntoProportionVariantAsync(source, "xbot", "notoes")).ours;
        // Before: 0.51 degree (0.08 with toes); a rotation copy is exact here.
        expect(toeless.poseErrorDeg).toBeLessThan(original.poseErrorDeg + 0.1);
    }, 60_000);
});
