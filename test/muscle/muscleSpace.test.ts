import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    ALL_MUSCLE_COUNT,
    BuildHumanoidAvatar,
    BuildSampleRig,
    ComputeRigWorldPose,
    CreateReferenceRigPose,
    DecodeHumanPose,
    EncodeHumanPose,
    HumanBoneNames,
    HumanPose,
    MuscleNames,
    Muscles,
    SampleCharacters,
    type HumanoidAvatar,
    type IRigPose,
} from "../../src/index.js";
import { ComparePoses } from "../helpers/poseMetrics.js";
import { ReferenceDecodeWorldRotations, ReferenceEncode } from "../helpers/referenceMuscles.js";

function rng(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
    };
}

/**
 * A random pose with every muscle of a mapped bone within [-amp, amp], in canonical form: decoded
 * and encoded once on the avatar. Encoding chooses how each limb's twist is split between its two
 * bones (docs/muscles.md step 5), so a random set of values is one of many that give the same
 * pose; the encoder's own output is the one it gives back.
 */
function randomPose(avatar: HumanoidAvatar, rand: () => number, amp = 0.8): HumanPose {
    const p = new HumanPose();
    for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
        p.values[i] = avatar.isMapped(Muscles[i].bone) ? (rand() * 2 - 1) * amp : 0;
    }
    p.bodyPosition.set(rand() - 0.5, 0.9 + 0.2 * rand(), rand() - 0.5);
    p.bodyRotation.copyFrom(Quaternion.RotationAxis(new Vector3(rand() - 0.5, 1, rand() - 0.5).normalize(), rand() * 2 - 1));
    return EncodeHumanPose(avatar, DecodeHumanPose(avatar, p, CreateReferenceRigPose(avatar)), p);
}

const avatars = SampleCharacters.map((spec) => [spec.name, BuildHumanoidAvatar(BuildSampleRig(spec))] as const);

describe("muscle space on the built-in samples", () => {
    it.each(avatars)("%s: the T-pose is all zero muscles, centre of mass height 1, no rotation", (_n, avatar) => {
        const pose = EncodeHumanPose(avatar, avatar.referencePose, new HumanPose());
        expect(Math.max(...Array.from(pose.values).map(Math.abs))).toBeLessThan(1e-6);
        expect(pose.bodyPosition.y).toBeCloseTo(1, 9);
        expect(Math.abs(pose.bodyRotation.w)).toBeCloseTo(1, 9);
        // ...and all zero muscles decode to the T-pose.
        const rig = DecodeHumanPose(avatar, pose, CreateReferenceRigPose(avatar));
        const d = ComparePoses(avatar, avatar.referencePose, rig);
        expect(d.swingMaxDeg).toBeLessThan(1e-4);
        expect(d.hips).toBeLessThan(1e-6);
    });

    it.each(avatars)("%s: decoding then encoding gives the same muscles and body", (_n, avatar) => {
        const rand = rng(11);
        const rig = CreateReferenceRigPose(avatar);
        const back = new HumanPose();
        for (let k = 0; k < 50; k++) {
            const p = randomPose(avatar, rand);
            DecodeHumanPose(avatar, p, rig);
            EncodeHumanPose(avatar, rig, back);
            for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
                if (Math.abs(back.values[i] - p.values[i]) > 1e-3) {
                    throw new Error(`${MuscleNames[i]}: ${p.values[i]} -> ${back.values[i]} (pose ${k})`);
                }
            }
            expect(back.bodyPosition.subtract(p.bodyPosition).length()).toBeLessThan(1e-5);
            expect(Math.abs(Quaternion.Dot(back.bodyRotation, p.bodyRotation))).toBeCloseTo(1, 8);
        }
    });

    it.each(avatars)("%s: the fast path agrees with the slow reference (matrices, nothing cached)", (_n, avatar) => {
        const rand = rng(5);
        const rig = CreateReferenceRigPose(avatar);
        const enc = new HumanPose();
        for (let k = 0; k < 20; k++) {
            const p = randomPose(avatar, rand);
            DecodeHumanPose(avatar, p, rig);
            // decode: the world rotation of every mapped bone, up to the body's placement
            const fast = ComputeRigWorldPose(avatar.rig, rig);
            const slow = ReferenceDecodeWorldRotations(avatar, p.values);
            const hips = avatar.getJoint(0);
            const place = fast.rotations[hips].multiply(Quaternion.Inverse(slow.get(0)!));
            for (const [bone, q] of slow) {
                const expected = place.multiply(q);
                const got = fast.rotations[avatar.getJoint(bone)];
                expect([HumanBoneNames[bone], Math.abs(Quaternion.Dot(expected, got)) > 1 - 1e-9]).toEqual([HumanBoneNames[bone], true]);
            }
            // encode
            EncodeHumanPose(avatar, rig, enc);
            const ref = ReferenceEncode(avatar, rig);
            for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
                if (Math.abs(ref[i] - enc.values[i]) > 1e-4) throw new Error(`${MuscleNames[i]}: fast ${enc.values[i]}, reference ${ref[i]}`);
            }
        }
    });

    it("a mirrored pose encodes to the mirrored muscles", () => {
        const avatar = avatars[0][1]; // Mixamo sample: identity local frames, mirror-symmetric
        const rig = avatar.rig;
        const mirrorOf = rig.joints.map((j) => {
            const other = j.name.includes("Left") ? j.name.replace("Left", "Right") : j.name.includes("Right") ? j.name.replace("Right", "Left") : j.name;
            return rig.joints.findIndex((x) => x.name === other);
        });
        const rand = rng(21);
        const decoded = CreateReferenceRigPose(avatar);
        for (let k = 0; k < 20; k++) {
            const p = randomPose(avatar, rand, 0.6);
            DecodeHumanPose(avatar, p, decoded);
            // Mirror the pose across the body's middle plane (x = 0): every joint takes its twin's
            // local transform reflected; identity rest frames make that exact.
            const mirrored: IRigPose = {
                label: "mirrored",
                rotations: decoded.rotations.map((_, i) => {
                    const q = decoded.rotations[mirrorOf[i]];
                    return new Quaternion(q.x, -q.y, -q.z, q.w);
                }),
                positions: decoded.positions.map((_, i) => {
                    const v = decoded.positions[mirrorOf[i]];
                    return new Vector3(-v.x, v.y, v.z);
                }),
            };
            const got = EncodeHumanPose(avatar, mirrored, new HumanPose());
            const want = HumanPose.MirrorToRef(p, new HumanPose());
            for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
                if (Math.abs(got.values[i] - want.values[i]) > 1e-3) throw new Error(`${MuscleNames[i]}: ${got.values[i]} vs mirrored ${want.values[i]}`);
            }
            expect(got.bodyPosition.subtract(want.bodyPosition).length()).toBeLessThan(1e-5);
            expect(Math.abs(Quaternion.Dot(got.bodyRotation, want.bodyRotation))).toBeCloseTo(1, 8);
        }
    });

    it("reports bad per-avatar settings when the avatar is built, so encoding never throws", () => {
        const rig = BuildSampleRig(SampleCharacters[0]);
        expect(() => BuildHumanoidAvatar(rig, { muscleRanges: { "Left Elbow Bend": [-10, 10] } })).toThrow(/muscleRanges: unknown muscle 'Left Elbow Bend'/);
        expect(() => BuildHumanoidAvatar(rig, { muscleRanges: { "Left Arm Down-Up": [10, 20] } })).toThrow(/min < 0 < max/);
        expect(() => BuildHumanoidAvatar(rig, { twist: { upperArm: 2 } })).toThrow(/twist.upperArm must be between 0 and 1/);
        expect(() => BuildHumanoidAvatar(rig, { twist: { elbow: 0.5 } as never })).toThrow(/twist: unknown share 'elbow'/);
    });

    it("foot muscles mean what Mecanim's do: Foot Twist turns the toes about the vertical, Foot Roll turns the sole", () => {
        for (const [, avatar] of avatars) {
            const foot = avatar.getJoint(HumanBoneNames.indexOf("leftFoot"));
            const turnOf = (muscle: string): { axis: Vector3; angleDeg: number } => {
                const p = new HumanPose();
                p.values[MuscleNames.indexOf(muscle)] = 0.5;
                const w = ComputeRigWorldPose(avatar.rig, DecodeHumanPose(avatar, p, CreateReferenceRigPose(avatar)));
                // The foot's world turn from its T-pose.
                const d = w.rotations[foot].multiply(Quaternion.Inverse(avatar.referenceWorld.rotations[foot]));
                const s = Math.sign(d.w) || 1;
                const axis = new Vector3(d.x * s, d.y * s, d.z * s).normalize();
                return { axis, angleDeg: (2 * Math.acos(Math.min(1, Math.abs(d.w))) * 180) / Math.PI };
            };
            const twist = turnOf("Left Foot Twist In-Out");
            expect(twist.angleDeg).toBeCloseTo(15, 3); // 0.5 of 30 degrees
            expect(Math.abs(Vector3.Dot(twist.axis, avatar.frame.up))).toBeGreaterThan(0.8); // about the vertical (the foot points a little down)
            const roll = turnOf("Left Foot Roll In-Out");
            expect(roll.angleDeg).toBeCloseTo(15, 3);
            expect(Math.abs(Vector3.Dot(roll.axis, avatar.frame.forward))).toBeGreaterThan(0.8); // about the foot, heel to toes
        }
    });

    it("range overrides and twist shares change the encoding as asked", () => {
        const rig = BuildSampleRig(SampleCharacters[0]);
        const a = BuildHumanoidAvatar(rig);
        const b = BuildHumanoidAvatar(rig, { muscleRanges: { "Left Arm Down-Up": [-30, 50] } });
        const p = new HumanPose();
        p.values[MuscleNames.indexOf("Left Arm Down-Up")] = 0.5;
        const pose = DecodeHumanPose(a, p, CreateReferenceRigPose(a)); // 0.5 * 100 deg up
        const enc = EncodeHumanPose(b, pose, new HumanPose());
        expect(enc.values[MuscleNames.indexOf("Left Arm Down-Up")]).toBeCloseTo(1, 4); // 50 deg is b's max
        // Twist share 0: the whole upper arm twist stays on the upper arm bone.
        const c = BuildHumanoidAvatar(rig, { twist: { upperArm: 0 } });
        const t = new HumanPose();
        t.values[MuscleNames.indexOf("Left Arm Twist In-Out")] = 0.5;
        const tc = DecodeHumanPose(c, t, CreateReferenceRigPose(c));
        const ta = DecodeHumanPose(a, t, CreateReferenceRigPose(a));
        const upper = a.getJoint(HumanBoneNames.indexOf("leftUpperArm"));
        // The bone's turn from its T-pose (the sample's rest arm is turned a little to make it).
        const reference = CreateReferenceRigPose(a).rotations[upper];
        const angle = (q: Quaternion): number => {
            const d = Quaternion.Inverse(reference).multiply(q);
            return (2 * Math.acos(Math.min(1, Math.abs(d.w))) * 180) / Math.PI;
        };
        expect(angle(tc.rotations[upper])).toBeCloseTo(45, 3);
        expect(angle(ta.rotations[upper])).toBeCloseTo(22.5, 3);
    });
});
