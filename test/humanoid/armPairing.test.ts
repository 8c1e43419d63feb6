import { BuildHumanoidAvatar, HumanBone } from "../../src/index.js";
import { PlainHumanoidPoints, RigFromPoints } from "../helpers/rigs.js";

/**
 * A rest pose that leaves every joint's place to its position channels (a TCD talk's BVH: both
 * shoulders at one offset, every arm bone straight up from there): the arms' roots show no side,
 * and the arm paired with each leg by its zero-length offset went the other way round (the left arm
 * mapped to `RightArm`: each arm of a character did what the other side's did, limb directions
 * 3.02 degrees onto the X Bot, 0.18 paired by names). Here: `PlainHumanoid` (facing +Z, left at
 * -X) with both arms straight up from one point.
 */
function CoincidentArms(rightFirst: boolean): ReturnType<typeof RigFromPoints> {
    const j = PlainHumanoidPoints().filter(([name]) => !/Shoulder|Arm|Hand/.test(name));
    for (const s of rightFirst ? ["Right", "Left"] : ["Left", "Right"]) {
        j.push(
            [`${s}Shoulder`, "Chest", 0, 1.33, 0.05],
            [`${s}Arm`, `${s}Shoulder`, 0, 1.51, 0.05],
            [`${s}ForeArm`, `${s}Arm`, 0, 1.8, 0.05],
            [`${s}Hand`, `${s}ForeArm`, 0, 2.04, 0.05],
            [`${s}HandEnd`, `${s}Hand`, 0, 2.2, 0.05],
        );
    }
    return RigFromPoints(`coincident arms (${rightFirst ? "right" : "left"} first)`, j);
}

describe("arms whose roots show no side are paired with the legs by their names", () => {
    test.each([true, false])("right arm first in the file: %s", (rightFirst) => {
        const rig = CoincidentArms(rightFirst);
        const avatar = BuildHumanoidAvatar(rig);
        const name = (b: HumanBone): string => rig.joints[avatar.getJoint(b)].name;
        expect([name(HumanBone.LeftUpperLeg), name(HumanBone.RightUpperLeg)]).toEqual(["LeftUpLeg", "RightUpLeg"]);
        expect([name(HumanBone.LeftShoulder), name(HumanBone.LeftUpperArm), name(HumanBone.LeftHand)]).toEqual(["LeftShoulder", "LeftArm", "LeftHand"]);
        expect([name(HumanBone.RightShoulder), name(HumanBone.RightUpperArm), name(HumanBone.RightHand)]).toEqual(["RightShoulder", "RightArm", "RightHand"]);
    });
});
