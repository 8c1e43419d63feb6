import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../../src/humanoid/humanBones.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData, SHARED_DATA } from "../helpers/data.js";
import { EditGlbJson } from "../helpers/glbJson.js";
import { WriteProportionVariant } from "../helpers/proportionVariants.js";
import { MeasureOntoProportionVariantAsync } from "../helpers/variantPair.js";

// A foot with no toes mapped (VRM 0.x avatars and many game rigs have none) rolls onto its front
// as a foot with toes does: planting and the report take the foot's own tip joint where the map
// has no toes (`MuscleSetup.footTip`). Held at its ankle, its heel could not come up without its
// front sliding back, and a take-off on the toes fought the clip: the child's jump onto the X Bot
// and the VRM sample with their toes unmapped (`notoes` of `npm run report:variants`) 2.2 times the
// source's jerk at the shin, the Mixamo walk onto the X Bot 0.51 degree from the exact copy (0.08
// with toes).
type GltfNode = { name?: string; translation?: number[]; rotation?: number[]; children?: number[] };
type Gltf = { nodes: GltfNode[] };
const parentOf = (json: Gltf, i: number): number => json.nodes.findIndex((n) => n.children?.includes(i));

/**
 * The VRM sample with its toes unmapped (`notoes`) and, beside each foot's toe node, a joint
 * `name` at the translation `at` gives (the foot's frame); `check` runs on that file and on the
 * toe-less one, both removed after.
 */
async function withHelperJointsAsync(
    name: string,
    at: (json: Gltf, foot: number, tip: GltfNode) => number[],
    check: (file: string, toeless: string) => Promise<void>,
): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), `notoes-${name}-`));
    try {
        const toeless = WriteProportionVariant(SHARED_DATA, "vrm", "notoes", join(dir, "vrm_notoes.vrm"));
        const file = join(dir, `vrm_notoes_${name}.vrm`);
        EditGlbJson<Gltf>(
            toeless,
            (json) => {
                for (const tip of json.nodes.filter((n) => n.name?.startsWith("tip_"))) {
                    const foot = parentOf(json, json.nodes.indexOf(tip));
                    json.nodes.push({ name, translation: at(json, foot, tip) });
                    json.nodes[foot].children!.push(json.nodes.length - 1);
                }
            },
            file,
        );
        await check(file, toeless);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

describeWithData("feet with no toes mapped", () => {
    test("the foot's tip is its toes, or where none are mapped, its own tip joint", async () => {
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

    test("a helper joint up the shin, longer than the toes, is not taken for the foot's tip", async () => {
        // An IK pole or a socket 25 cm straight up from each ankle: world up in the foot's frame.
        await withHelperJointsAsync(
            "shin_helper",
            (json, foot) => {
                let q = Quaternion.Identity();
                for (let k = foot; k >= 0; k = parentOf(json, k)) q = Quaternion.FromArray(json.nodes[k].rotation ?? [0, 0, 0, 1]).multiply(q);
                return new Vector3(0, 0.25, 0).applyRotationQuaternion(Quaternion.Inverse(q)).asArray();
            },
            async (file) => {
                const avatar = (await LoadHumanoidAvatarFromFileAsync(file)).avatar;
                const tip = MuscleSetup.For(avatar).footTip;
                // Before: the helper, and planting held a point 25 cm above the floor as the heel rose
                // (the Mixamo walk slid 0.2 leg a second).
                expect(tip.map((j) => avatar.rig.joints[j]?.name.startsWith("tip_"))).toEqual([true, true]);
            },
        );
    }, 60_000);

    test("a helper joint behind the heel, longer than the toes, neither is the tip nor turns the foot round", async () => {
        // Pointing the other way from the toe node, half as long again.
        await withHelperJointsAsync(
            "heel_helper",
            (_json, _foot, tip) => (tip.translation ?? [0, 0, 0]).map((v) => -1.5 * v),
            async (file, toeless) => {
                const plain = MuscleSetup.For((await LoadHumanoidAvatarFromFileAsync(toeless)).avatar);
                const avatar = (await LoadHumanoidAvatarFromFileAsync(file)).avatar;
                const setup = MuscleSetup.For(avatar);
                expect(setup.footTip.map((j) => avatar.rig.joints[j]?.name.startsWith("tip_"))).toEqual([true, true]);
                // Before: the T-pose enforcement turned each foot to point the helper forward (its toes
                // back), and the foot's twist axis followed the helper.
                for (const foot of [HumanBone.LeftFoot, HumanBone.RightFoot]) {
                    expect(Vector3.Distance(setup.twistAxis[foot], plain.twistAxis[foot])).toBeLessThan(1e-6);
                }
                for (let s = 0; s < 2; s++) {
                    const foot = avatar.getJoint(s === 0 ? HumanBone.LeftFoot : HumanBone.RightFoot);
                    const toe = avatar.referenceWorld.positions[setup.footTip[s]].subtract(avatar.referenceWorld.positions[foot]);
                    expect(Vector3.Dot(toe.normalize(), avatar.frame.forward)).toBeGreaterThan(0.8);
                }
            },
        );
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
