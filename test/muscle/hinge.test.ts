import { readFileSync } from "node:fs";
import fc from "fast-check";
import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ComputeRigWorldPose,
    CreateReferenceRigPose,
    CreateRigFromBvh,
    DecodeHumanPose,
    EncodeHumanPose,
    GetBvhFramePose,
    HumanBone,
    HumanPose,
    MuscleIndexFromName,
    MuscleSetup,
    ParseBvh,
    SampleCharacters,
    type HumanoidAvatar,
    type IRigPose,
} from "../../src/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

/**
 * Elbows and knees through the hinge zone: encoding reads a bent limb as a hinge and a straight one
 * by its twist, blended continuously (docs/muscles.md step 5). Here: no muscle moves much more than
 * the joints do, along any smooth path of the limb, and on the real clip where the old reading
 * jumped.
 */

/** Most a limb muscle may move (degrees) per degree the limb's bones turn (the old reading reached 40-56 on these paths). */
const MAX_MUSCLE_DEG_PER_JOINT_DEG = 8;

type Limb = { side: "Left" | "Right"; bones: [HumanBone, HumanBone, HumanBone]; muscles: string[] };
const LIMBS: Limb[] = [
    {
        side: "Left",
        bones: [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, HumanBone.LeftFoot],
        muscles: [
            "Upper Leg Front-Back",
            "Upper Leg In-Out",
            "Upper Leg Twist In-Out",
            "Lower Leg Stretch",
            "Lower Leg In-Out",
            "Lower Leg Twist In-Out",
            "Foot Up-Down",
            "Foot Twist In-Out",
            "Foot Roll In-Out",
        ],
    },
    {
        side: "Right",
        bones: [HumanBone.RightUpperArm, HumanBone.RightLowerArm, HumanBone.RightHand],
        muscles: [
            "Arm Down-Up",
            "Arm Front-Back",
            "Arm Twist In-Out",
            "Forearm Stretch",
            "Forearm Down-Up",
            "Forearm Twist In-Out",
            "Hand Down-Up",
            "Hand In-Out",
        ],
    },
];

/** The limb's muscles in degrees. */
function muscleDegrees(avatar: HumanoidAvatar, pose: HumanPose, indices: number[]): number[] {
    const s = MuscleSetup.For(avatar);
    return indices.map((i) => (pose.values[i] >= 0 ? pose.values[i] * s.maxDeg[i] : pose.values[i] * -s.minDeg[i]));
}

/** World rotations of the limb's bones. */
function boneRotations(avatar: HumanoidAvatar, pose: IRigPose, bones: readonly HumanBone[]): Quaternion[] {
    const w = ComputeRigWorldPose(avatar.rig, pose).rotations;
    return bones.map((b) => w[avatar.getJoint(b)].clone());
}

/** Largest turn (degrees) of any of the bones between two poses. */
function jointMotionDeg(a: Quaternion[], b: Quaternion[]): number {
    return Math.max(...a.map((q, k) => (2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(q, b[k])))) * 180) / Math.PI));
}

/** Largest muscle change (degrees) per degree of joint motion along a sequence of poses. */
function worstSlope(avatar: HumanoidAvatar, poses: IRigPose[], limb: Limb): { slope: number; at: number } {
    const indices = limb.muscles.map((n) => MuscleIndexFromName(`${limb.side} ${n}`));
    let prevDeg: number[] | null = null;
    let prevRot: Quaternion[] | null = null;
    let slope = 0;
    let at = -1;
    const enc = new HumanPose();
    poses.forEach((pose, k) => {
        const deg = muscleDegrees(avatar, EncodeHumanPose(avatar, pose, enc), indices);
        const rot = boneRotations(avatar, pose, limb.bones);
        if (prevDeg && prevRot) {
            const joint = jointMotionDeg(prevRot, rot);
            const change = Math.max(...deg.map((d, i) => Math.abs(d - prevDeg![i])));
            if (joint > 1e-4 && change / joint > slope) {
                slope = change / joint;
                at = k;
            }
        }
        prevDeg = deg;
        prevRot = rot;
    });
    return { slope, at };
}

describe("hinge reading of elbows and knees", () => {
    const avatars = SampleCharacters.map((spec) => [spec.name, BuildHumanoidAvatar(BuildSampleRig(spec))] as const);

    it.each(avatars)(
        "%s: along random smooth limb paths through the hinge zone, no muscle moves more than 8 degrees per degree of joint motion",
        (_n, avatar) => {
            for (const limb of LIMBS) {
                const m = (n: string): number => MuscleIndexFromName(`${limb.side} ${n}`);
                const knee = limb.bones[0] === HumanBone.LeftUpperLeg;
                const [upTwist, stretch, side, loTwist, swing1, swing2] = knee
                    ? [
                          m("Upper Leg Twist In-Out"),
                          m("Lower Leg Stretch"),
                          m("Lower Leg In-Out"),
                          m("Lower Leg Twist In-Out"),
                          m("Upper Leg Front-Back"),
                          m("Upper Leg In-Out"),
                      ]
                    : [m("Arm Twist In-Out"), m("Forearm Stretch"), m("Forearm Down-Up"), m("Forearm Twist In-Out"), m("Arm Down-Up"), m("Arm Front-Back")];
                const setup = MuscleSetup.For(avatar);
                const deg = (i: number, d: number): number => (d >= 0 ? d / setup.maxDeg[i] : d / -setup.minDeg[i]);
                // One end of a path: the lower bone bent by 0 to 60 degrees in a direction within 100
                // degrees of flexing (a limb bent backwards against its own twist by the blend angle is
                // where the reading has to choose a side), twists and the upper bone's swing.
                const end = fc.record({
                    bend: fc.double({ min: 0, max: 60, noNaN: true }),
                    dir: fc.double({ min: -100, max: 100, noNaN: true }),
                    up: fc.double({ min: -40, max: 40, noNaN: true }),
                    lo: fc.double({ min: -30, max: 30, noNaN: true }),
                    s1: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
                    s2: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
                });
                fc.assert(
                    fc.property(end, end, (a, b) => {
                        const poses: IRigPose[] = [];
                        for (let k = 0; k <= 60; k++) {
                            const t = k / 60;
                            const lerp = (x: number, y: number): number => x + (y - x) * t;
                            const bend = lerp(a.bend, b.bend);
                            const dir = (lerp(a.dir, b.dir) * Math.PI) / 180;
                            const p = new HumanPose();
                            p.values[stretch] = deg(stretch, -bend * Math.cos(dir));
                            p.values[side] = deg(side, bend * Math.sin(dir));
                            p.values[upTwist] = deg(upTwist, lerp(a.up, b.up));
                            p.values[loTwist] = deg(loTwist, lerp(a.lo, b.lo));
                            p.values[swing1] = lerp(a.s1, b.s1);
                            p.values[swing2] = lerp(a.s2, b.s2);
                            poses.push(DecodeHumanPose(avatar, p, CreateReferenceRigPose(avatar)));
                        }
                        const { slope } = worstSlope(avatar, poses, limb);
                        expect(slope).toBeLessThanOrEqual(MAX_MUSCLE_DEG_PER_JOINT_DEG);
                    }),
                    { numRuns: 40, seed: 11 },
                );
            }
        },
    );

    it("a decoded pose encodes back to the same muscles inside the zone too (the reading is a fixed point)", () => {
        const avatar = avatars[0][1];
        const p = new HumanPose();
        p.values[MuscleIndexFromName("Left Lower Leg Stretch")] = -0.2; // 16 degrees: inside the zone
        p.values[MuscleIndexFromName("Left Lower Leg In-Out")] = 0.3;
        p.values[MuscleIndexFromName("Left Upper Leg Twist In-Out")] = 0.2;
        const once = EncodeHumanPose(avatar, DecodeHumanPose(avatar, p, CreateReferenceRigPose(avatar)), new HumanPose());
        const twice = EncodeHumanPose(avatar, DecodeHumanPose(avatar, once, CreateReferenceRigPose(avatar)), new HumanPose());
        for (let i = 0; i < once.values.length; i++) expect(Math.abs(twice.values[i] - once.values[i])).toBeLessThan(1e-5);
    });
});

describeWithData("hinge reading on real mocap", () => {
    it("fair1_jumping_8yo frames 300-360 (a knee straightening through the zone, where the old reading jumped): every limb muscle moves at most 8 degrees per degree of joint motion", () => {
        const file = dataFile("bvh/animated_drawings/fair1_jumping_8yo.bvh");
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(file, "utf8"), file));
        const avatar = BuildHumanoidAvatar(bvh.rig);
        const poses = Array.from({ length: 61 }, (_, k) => GetBvhFramePose(bvh, 300 + k));
        const legs: Limb[] = (["Left", "Right"] as const).flatMap((side) => [
            { ...LIMBS[0], side, bones: side === "Left" ? LIMBS[0].bones : [HumanBone.RightUpperLeg, HumanBone.RightLowerLeg, HumanBone.RightFoot] },
            { ...LIMBS[1], side, bones: side === "Right" ? LIMBS[1].bones : [HumanBone.LeftUpperArm, HumanBone.LeftLowerArm, HumanBone.LeftHand] },
        ]);
        for (const limb of legs) {
            const { slope, at } = worstSlope(avatar, poses, limb);
            expect([limb.side, limb.muscles[0], at, slope <= MAX_MUSCLE_DEG_PER_JOINT_DEG]).toEqual([limb.side, limb.muscles[0], at, true]);
        }
        // The thigh's twist, which jumped 20 degrees a frame at 325-326, moves with the knee now.
        const twist = MuscleIndexFromName("Left Upper Leg Twist In-Out");
        const values = poses.map((pose) => EncodeHumanPose(avatar, pose, new HumanPose()).values[twist] * 60);
        const steps = values.slice(1).map((v, k) => Math.abs(v - values[k]));
        expect(Math.max(...steps)).toBeLessThan(3);
    });
});
