import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { AngleBetweenDeg, BuildHumanoidAvatar, BuildSampleRig, HumanBone, SampleCharacters, type HumanoidAvatar } from "../../src/index.js";

/** How far a limb segment (joint `a` to joint `b`) points from `dir` in the avatar's T-pose, degrees. */
function offDeg(avatar: HumanoidAvatar, a: HumanBone, b: HumanBone, dir: Vector3): number {
    const p = avatar.referenceWorld.positions;
    return AngleBetweenDeg(p[avatar.getJoint(b)].subtract(p[avatar.getJoint(a)]), dir);
}

// Both sides of a retarget turn each limb from their T-pose, so a limb a little off in one rest
// pose would be that far off on every character: "auto" aligns arms and legs exactly from a rest
// pose (its build is kept elsewhere: spine, shoulders, hands, feet), "rest" keeps them as bound.
// The built-in sample's rest holds its upper arms 0.67 degree, forearms 1.44, thighs 1.07 and
// shins 5.35 off (no data files needed).
describe("the reference T-pose's arms and legs", () => {
    const rig = BuildSampleRig(SampleCharacters[0]);
    const limbs = (avatar: HumanoidAvatar): [string, number][] => {
        const f = avatar.frame;
        const down = f.up.negate();
        return [
            ["left upper arm", offDeg(avatar, HumanBone.LeftUpperArm, HumanBone.LeftLowerArm, f.left)],
            ["left forearm", offDeg(avatar, HumanBone.LeftLowerArm, HumanBone.LeftHand, f.left)],
            ["right upper arm", offDeg(avatar, HumanBone.RightUpperArm, HumanBone.RightLowerArm, f.left.negate())],
            ["right forearm", offDeg(avatar, HumanBone.RightLowerArm, HumanBone.RightHand, f.left.negate())],
            ["left thigh", offDeg(avatar, HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, down)],
            ["left shin", offDeg(avatar, HumanBone.LeftLowerLeg, HumanBone.LeftFoot, down)],
            ["right thigh", offDeg(avatar, HumanBone.RightUpperLeg, HumanBone.RightLowerLeg, down)],
            ["right shin", offDeg(avatar, HumanBone.RightLowerLeg, HumanBone.RightFoot, down)],
        ];
    };

    it("are aligned exactly from a rest pose a little off (tPose auto, the default)", () => {
        for (const [limb, deg] of limbs(BuildHumanoidAvatar(rig))) expect([limb, deg]).toEqual([limb, expect.closeTo(0, 2)]);
    });

    it("are kept as bound with tPose rest", () => {
        const rest = limbs(BuildHumanoidAvatar(rig, { tPose: "rest" }));
        // Every limb of the sample is off by more than the old 2 degree tolerance's lower half.
        for (const [limb, deg] of rest) expect([limb, deg > 0.5]).toEqual([limb, true]);
    });
});
