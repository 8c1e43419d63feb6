import {
    AngleBetweenDeg,
    BuildHumanoidAvatar,
    BuildSampleRig,
    ComputeRigWorldPose,
    CreateRigFromBvh,
    HumanBone,
    HumanBoneNames,
    ParseBvh,
    RigJointKind,
    SampleCharacters,
} from "../src/index.js";
import { WriteBvhRestPose } from "../src/io/bvhWriter.js";

describe("built-in sample characters", () => {
    it.each(SampleCharacters.map((s) => [s.name, s] as const))("%s maps every required bone and reaches a T-pose", (_name, spec) => {
        const avatar = BuildHumanoidAvatar(BuildSampleRig(spec));
        const w = avatar.referenceWorld.positions;
        const seg = (a: HumanBone, b: HumanBone) => w[avatar.getJoint(b)].subtract(w[avatar.getJoint(a)]);
        expect(AngleBetweenDeg(seg(HumanBone.LeftUpperArm, HumanBone.LeftLowerArm), avatar.frame.left)).toBeLessThan(2.5);
        expect(AngleBetweenDeg(seg(HumanBone.RightLowerArm, HumanBone.RightHand), avatar.frame.left.scale(-1))).toBeLessThan(2.5);
        expect(AngleBetweenDeg(seg(HumanBone.LeftLowerLeg, HumanBone.LeftFoot), avatar.frame.up.scale(-1))).toBeLessThan(2.5);
        expect(avatar.frame.forward.z).toBeGreaterThan(0.999);
    });

    it("finds the same bones by geometry alone: the unnamed chibi and a Mixamo sample with names removed", () => {
        // Joint order of the chibi: root, hips .. headTop (0-7), left shoulder .. eye (8-17), right (18-27).
        const chibi = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[2])).toBoneMapJson();
        expect(chibi).toEqual({
            hips: "#1",
            spine: "#2",
            chest: "#3",
            upperChest: "#4",
            neck: "#5",
            head: "#6",
            leftEye: "#17",
            rightEye: "#27",
            leftShoulder: "#8",
            leftUpperArm: "#9",
            leftLowerArm: "#10",
            leftHand: "#11",
            rightShoulder: "#18",
            rightUpperArm: "#19",
            rightLowerArm: "#20",
            rightHand: "#21",
            leftUpperLeg: "#12",
            leftLowerLeg: "#13",
            leftFoot: "#14",
            leftToes: "#15",
            rightUpperLeg: "#22",
            rightLowerLeg: "#23",
            rightFoot: "#24",
            rightToes: "#25",
        });
        const named = BuildSampleRig(SampleCharacters[0]);
        const nameless = { ...named, joints: named.joints.map((j) => ({ ...j, name: "" })) };
        const a = BuildHumanoidAvatar(named);
        const b = BuildHumanoidAvatar(nameless);
        for (let bone = 0; bone < HumanBoneNames.length; bone++) {
            expect([HumanBoneNames[bone], b.getJoint(bone)]).toEqual([HumanBoneNames[bone], a.getJoint(bone)]);
        }
    });

    it("writes a BVH of the rest pose that reads back to the same joint positions", () => {
        for (const upAxis of ["y", "z"] as const) {
            const rig = BuildSampleRig(SampleCharacters[1]);
            const text = WriteBvhRestPose(rig, { upAxis, units: "cm" });
            const back = CreateRigFromBvh(ParseBvh(text, "sample.bvh"));
            expect(back.conversion.upAxis).toBe(upAxis);
            expect(back.conversion.unitsName).toBe("cm");
            const want = ComputeRigWorldPose(rig).positions;
            const got = ComputeRigWorldPose(back.rig).positions;
            const bones = back.rig.joints.map((j, i) => [j, i] as const).filter(([j]) => j.kind === RigJointKind.Bone);
            for (const [j, i] of bones) {
                const k = rig.joints.findIndex((r) => r.name === j.name);
                expect(got[i].subtract(want[k]).length()).toBeLessThan(1e-6);
            }
        }
    });
});
