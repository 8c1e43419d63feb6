import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { BuildHumanoidAvatar, BuildSampleRig, CreateReferenceRigPose, HumanBone, SampleCharacters } from "../../src/index.js";
import { HumanoidPoseKinematics } from "../../src/runtime/poseKinematics.js";

const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[1]));
const bones = [HumanBone.LeftHand, HumanBone.RightHand, HumanBone.LeftFoot, HumanBone.RightFoot, HumanBone.Head];

/** A pose with every joint turned a little (deterministic). */
function turnedPose(seed: number) {
    const pose = CreateReferenceRigPose(avatar);
    pose.rotations.forEach((r, j) => {
        const axis = new Vector3(Math.sin(seed + j), Math.cos(2 * seed + j), 0.5).normalize();
        r.copyFrom(Quaternion.RotationAxis(axis, 0.1 + 0.01 * j).multiply(r));
    });
    return pose;
}

const same = (a: HumanoidPoseKinematics, b: HumanoidPoseKinematics): void => {
    for (const j of a.joints) {
        expect(a.world[j].asArray()).toEqual(b.world[j].asArray());
        expect(a.positions[j].asArray()).toEqual(b.positions[j].asArray());
    }
};

describe("pose kinematics: partial updates", () => {
    test("after a change within a subtree, updating that subtree gives the full update's numbers, to the bit", () => {
        const full = new HumanoidPoseKinematics(avatar, bones);
        const part = new HumanoidPoseKinematics(avatar, bones);
        const pose = turnedPose(1);
        full.update(pose);
        part.update(pose);
        for (const bone of [HumanBone.LeftUpperArm, HumanBone.RightUpperLeg, HumanBone.Neck]) {
            const j = avatar.getJoint(bone);
            // Change the bone and a joint below it (its local rotation and position).
            pose.rotations[j].copyFrom(Quaternion.RotationAxis(new Vector3(0, 1, 0), 0.4).multiply(pose.rotations[j]));
            const child = part.joints.find((k) => avatar.rig.joints[k].parent === j)!;
            pose.positions[child].scaleInPlace(1.05);
            full.update(pose);
            part.updateBelow(pose, j);
            same(full, part);
        }
    });

    test("updating a path from a changed joint to a joint below it gives the full update's numbers on the path", () => {
        const full = new HumanoidPoseKinematics(avatar, bones);
        const part = new HumanoidPoseKinematics(avatar, bones);
        const pose = turnedPose(2);
        full.update(pose);
        part.update(pose);
        const spine = avatar.getJoint(HumanBone.Spine);
        const head = avatar.getJoint(HumanBone.Head);
        const path: number[] = [];
        for (let j = head; j >= 0; j = avatar.rig.joints[j].parent) {
            path.unshift(j);
            if (j === spine) break;
        }
        pose.rotations[spine].copyFrom(Quaternion.RotationAxis(new Vector3(1, 0, 0), 0.3).multiply(pose.rotations[spine]));
        full.update(pose);
        part.updateJoints(pose, Int32Array.from(path));
        for (const j of path) {
            expect(part.world[j].asArray()).toEqual(full.world[j].asArray());
            expect(part.positions[j].asArray()).toEqual(full.positions[j].asArray());
        }
    });
});
