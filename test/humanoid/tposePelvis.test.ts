import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { AngleBetweenDeg, BuildHumanoidAvatar, HumanBone, type HumanoidAvatar } from "../../src/index.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData, listDataFiles } from "../helpers/data.js";
import { PlainHumanoid, PlainHumanoidPoints, RigFromPoints } from "../helpers/rigs.js";

/** Degrees the line from the left to the right upper-leg joint rises out of the ground plane in the avatar's T-pose (+: right hip higher). */
function pelvisRollDeg(avatar: HumanoidAvatar): number {
    const p = avatar.referenceWorld.positions;
    const line = p[avatar.getJoint(HumanBone.RightUpperLeg)].subtract(p[avatar.getJoint(HumanBone.LeftUpperLeg)]).normalize();
    return (Math.asin(Vector3.Dot(line, avatar.frame.up)) * 180) / Math.PI;
}

/** Degrees a foot (ankle to toes) points away from the body's forward on the ground plane in the T-pose. */
function footTurnDeg(avatar: HumanoidAvatar, foot: HumanBone, toes: HumanBone): number {
    const p = avatar.referenceWorld.positions;
    const up = avatar.frame.up;
    const d = p[avatar.getJoint(toes)].subtract(p[avatar.getJoint(foot)]);
    d.subtractInPlace(up.scale(Vector3.Dot(d, up)));
    const f = avatar.frame.forward.subtract(up.scale(Vector3.Dot(avatar.frame.forward, up)));
    return AngleBetweenDeg(d, f);
}

describe("the reference T-pose's pelvis", () => {
    // The hip joints are 0.18 m apart: 5 degrees of roll raises one 15.7 mm over the other.
    const rise = (deg: number): number => 0.18 * Math.tan((deg * Math.PI) / 180);

    it("is levelled when the rest pose rolls it past the rest tolerance (2 degrees), the trunk kept", () => {
        const avatar = BuildHumanoidAvatar(RigFromPoints("rolled pelvis", PlainHumanoidPoints(rise(5))));
        expect(Math.abs(pelvisRollDeg(avatar))).toBeLessThan(0.01);
        const hips = avatar.tPoseCorrections.find((c) => c.bone === HumanBone.Hips);
        expect(hips?.angleDeg).toBeCloseTo(5, 1);
        // The trunk keeps its turn (it moves aside with its joint on the hips, by the roll): the
        // chest straight above the spine as it was.
        const p = avatar.referenceWorld.positions;
        const trunk = p[avatar.getJoint(HumanBone.Chest)].subtract(p[avatar.getJoint(HumanBone.Spine)]);
        expect(AngleBetweenDeg(trunk, avatar.frame.up)).toBeLessThan(0.01);
        // Only one entry for the hips, however many turns it took.
        expect(avatar.tPoseCorrections.filter((c) => c.bone === HumanBone.Hips)).toHaveLength(1);
    });

    it("is kept within the rest tolerance, and as it is with tPose 'rest'", () => {
        expect(pelvisRollDeg(BuildHumanoidAvatar(RigFromPoints("slight roll", PlainHumanoidPoints(rise(1)))))).toBeCloseTo(1, 2);
        expect(pelvisRollDeg(BuildHumanoidAvatar(RigFromPoints("rolled pelvis", PlainHumanoidPoints(rise(5))), { tPose: "rest" }))).toBeCloseTo(5, 2);
    });

    it("is already level on a symmetric rig: nothing turned", () => {
        const avatar = BuildHumanoidAvatar(PlainHumanoid());
        expect(Math.abs(pelvisRollDeg(avatar))).toBeLessThan(1e-6);
        expect(avatar.tPoseCorrections.find((c) => c.bone === HumanBone.Hips)).toBeUndefined();
    });
});

describeWithData("T-poses made from a motion frame (the BVH files of ../shared/data)", () => {
    // Bandai's mocap starts mid-stride: its first frame rolls the pelvis 1.5 to 3 degrees and turns
    // a foot out by up to 10 degrees; left so, every frame of the clip is encoded as turned from
    // them, and a character of other proportions carries the roll (one hip higher all clip long)
    // and the foot's turn.
    it.each(listDataFiles(/\.bvh$/i))("%s: the pelvis level and both feet forward", async (file) => {
        const loaded = await LoadRigFromFileAsync(dataFile(file));
        try {
            const avatar = BuildHumanoidAvatar(loaded.rig);
            if (avatar.tPoseSource === "rest pose") {
                expect(Math.abs(pelvisRollDeg(avatar))).toBeLessThanOrEqual(2 + 1e-6);
                return;
            }
            expect(Math.abs(pelvisRollDeg(avatar))).toBeLessThan(0.01);
            expect(footTurnDeg(avatar, HumanBone.LeftFoot, HumanBone.LeftToes)).toBeLessThan(0.05);
            expect(footTurnDeg(avatar, HumanBone.RightFoot, HumanBone.RightToes)).toBeLessThan(0.05);
        } finally {
            loaded.dispose();
        }
    });
});
