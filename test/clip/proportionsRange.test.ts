import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HUMAN_BONE_COUNT,
    HumanBone,
    MuscleSetup,
    ParseMuscleClipBinary,
    SampleCharacters,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
    ParseMuscleClipJson,
} from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

describe("a leg with next to no thigh", () => {
    it("converts without the thigh share (a file could not hold it) and still writes and reads", () => {
        const rig = BuildSampleRig(SampleCharacters[0]);
        const person = BuildHumanoidAvatar(rig);
        // Both knees a hundredth of their distance from the hips: thighs 1% of a person's.
        const knees = new Set([person.getJoint(HumanBone.LeftLowerLeg), person.getJoint(HumanBone.RightLowerLeg)]);
        const joints = rig.joints.map((j, i) => (knees.has(i) ? { ...j, restPosition: j.restPosition.scale(0.01) } : j));
        // Mapped as the person's (the mapper would not take it for a humanoid).
        const declaredBoneMap = new Map<HumanBone, number>();
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) if (person.getJoint(b) >= 0) declaredBoneMap.set(b, person.getJoint(b));
        const avatar = BuildHumanoidAvatar({ ...rig, joints }, { declaredBoneMap });
        expect(MuscleSetup.For(avatar).thighShare).toBeLessThan(0.05);
        const clip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 0.5, 30));
        expect(clip.proportions!.thighShare).toBeUndefined();
        expect(ParseMuscleClipBinary(SerializeMuscleClipToBinary(clip), "short-thigh.muscle.bin").proportions!.thighShare).toBeUndefined();
        expect(ParseMuscleClipJson(SerializeMuscleClipToJson(clip), "short-thigh.muscle.json").proportions!.legLength).toBeCloseTo(
            clip.proportions!.legLength,
            6,
        );
        // A person's share is kept.
        const share = ConvertRigPosesToMuscleClip(person, new SampleWalkSource(person, 0.5, 30)).proportions!.thighShare;
        expect(share).toBeCloseTo(MuscleSetup.For(person).thighShare, 9);
    });
});
