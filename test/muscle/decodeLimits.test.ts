import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import {
    CreateReferenceRigPose,
    DecodeHumanPose,
    HumanBone,
    HumanPose,
    JointLimits,
    MuscleIndexFromName,
    MuscleSetup,
    type HumanoidAvatar,
} from "../../src/index.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const DEG = Math.PI / 180;

/** Angle between two rotations, degrees (either sign of a quaternion). */
function angleDeg(a: Quaternion, b: Quaternion): number {
    const dot = Math.abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
    return (2 * Math.acos(Math.min(1, dot))) / DEG;
}

/**
 * Decodes `pose` with and without every limit; per bone, its canonical rotation from the T-pose
 * (`Dc`, the hips at their T-pose turn) and its rotation relative to its human parent (`Q`, limited).
 */
function decodeBoth(avatar: HumanoidAvatar, pose: HumanPose): { free: Quaternion[]; held: Quaternion[]; heldLocal: Quaternion[]; freeLocal: Quaternion[] } {
    const setup = MuscleSetup.For(avatar);
    const rig = CreateReferenceRigPose(avatar);
    DecodeHumanPose(avatar, pose, rig);
    const free = setup.work.dc.map((q) => q.clone());
    const freeLocal = setup.work.q.map((q) => q.clone());
    DecodeHumanPose(avatar, pose, rig, new JointLimits(avatar, "all"));
    return { free, freeLocal, held: setup.work.dc.map((q) => q.clone()), heldLocal: setup.work.q.map((q) => q.clone()) };
}

/** A pose with the given muscles at their angles (degrees from the T-pose) and every other at 0. */
function poseWith(avatar: HumanoidAvatar, muscles: Record<string, number>): HumanPose {
    const pose = new HumanPose();
    for (const [name, deg] of Object.entries(muscles)) {
        const m = MuscleIndexFromName(name);
        pose.values[m] = MuscleSetup.For(avatar).radiansToMuscle(m, deg * DEG);
    }
    return pose;
}

describeWithData("decode with joint limits: what a spine bone's or a shoulder's limits take off goes on to the bones above", () => {
    let avatar: HumanoidAvatar;
    let dispose = (): void => undefined;
    beforeAll(async () => {
        const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        avatar = loaded.avatar;
        dispose = () => loaded.loaded.dispose();
    });
    afterAll(() => dispose());

    it("a shoulder shrugged past its limit: the shoulder is held, and the arm still points where the unlimited pose put it", () => {
        const limits = new JointLimits(avatar, "all");
        const { free, held, heldLocal, freeLocal } = decodeBoth(
            avatar,
            // The arm turned on its own too (up, forward, twisted): the excess goes on before the arm's own turn.
            poseWith(avatar, { "Left Shoulder Down-Up": 70, "Left Arm Down-Up": 30, "Left Arm Front-Back": 25, "Left Arm Twist In-Out": 20 }),
        );
        const S = HumanBone.LeftShoulder;
        // The shoulder was turned back onto its limit (tens of degrees: the test can fail) ...
        expect(angleDeg(heldLocal[S], freeLocal[S])).toBeGreaterThan(10);
        expect(limits.isCanonicalInside(S, heldLocal[S])).toBe(true);
        // ... and the arm, forearm and hand keep their world rotations: the upper arm took the rest.
        for (const b of [HumanBone.LeftUpperArm, HumanBone.LeftLowerArm, HumanBone.LeftHand]) expect(angleDeg(held[b], free[b])).toBeLessThan(1e-4);
        expect(limits.isCanonicalInside(HumanBone.LeftUpperArm, heldLocal[HumanBone.LeftUpperArm])).toBe(true);
    });

    it("a spine bent past its limit: the spine is held, and the chest above takes the rest (head and arms as unlimited)", () => {
        const limits = new JointLimits(avatar, "all");
        const { free, held, heldLocal, freeLocal } = decodeBoth(
            avatar,
            poseWith(avatar, { "Spine Front-Back": 65, "Chest Front-Back": 10, "Chest Left-Right": 15 }),
        );
        expect(angleDeg(heldLocal[HumanBone.Spine], freeLocal[HumanBone.Spine])).toBeGreaterThan(10);
        expect(limits.isCanonicalInside(HumanBone.Spine, heldLocal[HumanBone.Spine])).toBe(true);
        for (const b of [HumanBone.Chest, HumanBone.Head, HumanBone.LeftUpperArm, HumanBone.RightHand]) expect(angleDeg(held[b], free[b])).toBeLessThan(1e-4);
    });

    it("on a skeleton without upper chest, neck or shoulders (the KayKit mannequin): a chest bent past its limit hands the rest to the head and the upper arms", async () => {
        const kaykit = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        try {
            const a = kaykit.avatar;
            for (const b of [HumanBone.UpperChest, HumanBone.Neck, HumanBone.LeftShoulder]) expect(a.getJoint(b)).toBeLessThan(0);
            const limits = new JointLimits(a, "all");
            const { free, held, heldLocal, freeLocal } = decodeBoth(
                a,
                poseWith(a, { "Chest Front-Back": 110, "Head Nod Down-Up": 10, "Left Arm Down-Up": 20 }),
            );
            expect(angleDeg(heldLocal[HumanBone.Chest], freeLocal[HumanBone.Chest])).toBeGreaterThan(10);
            expect(limits.isCanonicalInside(HumanBone.Chest, heldLocal[HumanBone.Chest])).toBe(true);
            for (const b of [HumanBone.Head, HumanBone.LeftUpperArm, HumanBone.RightUpperArm, HumanBone.LeftHand])
                expect(angleDeg(held[b], free[b])).toBeLessThan(1e-4);
        } finally {
            kaykit.loaded.dispose();
        }
    });

    it("limbs hand nothing on: a thigh past its limit leaves the knee's own rotation as decoded", () => {
        const { heldLocal, freeLocal } = decodeBoth(avatar, poseWith(avatar, { "Left Upper Leg Front-Back": -150 }));
        expect(angleDeg(heldLocal[HumanBone.LeftUpperLeg], freeLocal[HumanBone.LeftUpperLeg])).toBeGreaterThan(10);
        expect(angleDeg(heldLocal[HumanBone.LeftLowerLeg], freeLocal[HumanBone.LeftLowerLeg])).toBeLessThan(1e-6);
    });
});
