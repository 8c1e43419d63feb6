import {
    HumanBone,
    HUMAN_BONE_COUNT,
    HumanBoneNames,
    HumanBoneParents,
    RequiredHumanBones,
    HumanBoneMirrors,
    HumanBoneSides,
    BodySide,
    GetFingerBone,
    HumanBoneFromName,
    GetMappedHumanParent,
} from "../../src/index.js";

describe("human bone table", () => {
    it("has 55 uniquely named bones, parents before children", () => {
        expect(HumanBoneNames).toHaveLength(HUMAN_BONE_COUNT);
        expect(new Set(HumanBoneNames).size).toBe(HUMAN_BONE_COUNT);
        expect(HumanBoneParents[HumanBone.Hips]).toBe(-1);
        for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
            expect(HumanBoneParents[b]).toBeGreaterThanOrEqual(0);
            expect(HumanBoneParents[b]).toBeLessThan(b);
        }
    });

    it("requires the 15 bones of Unity's humanoid", () => {
        expect(RequiredHumanBones.map((b) => HumanBoneNames[b]).sort()).toEqual(
            [
                "hips",
                "spine",
                "head",
                "leftUpperArm",
                "leftLowerArm",
                "leftHand",
                "rightUpperArm",
                "rightLowerArm",
                "rightHand",
                "leftUpperLeg",
                "leftLowerLeg",
                "leftFoot",
                "rightUpperLeg",
                "rightLowerLeg",
                "rightFoot",
            ].sort(),
        );
    });

    it("pairs every left bone with its right twin and the same parent chain", () => {
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            const m = HumanBoneMirrors[b];
            expect(HumanBoneMirrors[m]).toBe(b);
            if (HumanBoneSides[b] === BodySide.Center) {
                expect(m).toBe(b);
            } else {
                expect(HumanBoneSides[m]).not.toBe(HumanBoneSides[b]);
                const p = HumanBoneParents[b];
                expect(HumanBoneParents[m]).toBe(HumanBoneSides[p] === BodySide.Center ? p : HumanBoneMirrors[p]);
            }
        }
    });

    it("numbers fingers thumb to little, proximal to distal", () => {
        expect(HumanBoneNames[GetFingerBone(BodySide.Left, 0, 0)]).toBe("leftThumbProximal");
        expect(HumanBoneNames[GetFingerBone(BodySide.Right, 4, 2)]).toBe("rightLittleDistal");
        expect(HumanBoneFromName("leftIndexIntermediate")).toBe(HumanBone.LeftIndexIntermediate);
        expect(HumanBoneFromName("LeftIndexIntermediate")).toBeUndefined();
    });

    it("walks past unmapped optional parents", () => {
        const mapped = new Set([HumanBone.Hips, HumanBone.Spine, HumanBone.Head, HumanBone.LeftUpperArm]);
        expect(GetMappedHumanParent(HumanBone.Head, (b) => mapped.has(b))).toBe(HumanBone.Spine);
        expect(GetMappedHumanParent(HumanBone.LeftUpperArm, (b) => mapped.has(b))).toBe(HumanBone.Spine);
        expect(GetMappedHumanParent(HumanBone.Hips, (b) => mapped.has(b))).toBe(-1);
    });
});
