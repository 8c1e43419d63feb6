import { WithContactEnds, WithProportions } from "../helpers/clips.js";
import fc from "fast-check";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ComputeRigWorldPose,
    ConvertRigPosesToMuscleClip,
    CreateReferenceRigPose,
    DecodeHumanPose,
    FootContact,
    FOOT_CONTACT_BITS,
    MirrorContacts,
    HumanBone,
    HumanoidClipPlayer,
    HumanPose,
    MirrorHumanPoseInPlace,
    MirrorMuscleClip,
    MuscleClipSampler,
    MuscleIndexFromName,
    MuscleSetup,
    SampleCharacters,
    type HumanoidAvatar,
} from "../../src/index.js";
import { LoadHumanoidAvatarFromFileAsync, type ILoadedAvatar } from "../../src/node/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const num = fc.double({ min: -2, max: 2, noNaN: true });
const quat = UnitQuaternionArbitrary(2);
const vec = fc.tuple(num, num, num).map(([x, y, z]) => new Vector3(x, y, z));
const poses = fc
    .record({
        values: fc.array(num, { minLength: 123, maxLength: 123 }),
        bp: vec,
        br: quat,
        gp: fc.array(vec, { minLength: 4, maxLength: 4 }),
        gr: fc.array(quat, { minLength: 4, maxLength: 4 }),
        hp: vec,
        hr: quat,
    })
    .map((r) => {
        const p = new HumanPose();
        p.values.set(r.values);
        p.bodyPosition.copyFrom(r.bp);
        p.bodyRotation.copyFrom(r.br);
        for (let g = 0; g < 4; g++) {
            p.goalPositions[g].copyFrom(r.gp[g]);
            p.goalRotations[g].copyFrom(r.gr[g]);
        }
        p.hipsPosition.copyFrom(r.hp);
        p.hipsRotation.copyFrom(r.hr);
        return p;
    });

/** Every number of a pose, in one list. */
function numbers(p: HumanPose): number[] {
    const out = [
        ...p.values,
        p.bodyPosition.x,
        p.bodyPosition.y,
        p.bodyPosition.z,
        ...p.bodyRotation.asArray(),
        ...p.hipsPosition.asArray(),
        ...p.hipsRotation.asArray(),
    ];
    for (let g = 0; g < 4; g++) out.push(...p.goalPositions[g].asArray(), ...p.goalRotations[g].asArray());
    return out;
}

const sampleAvatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
/** The sample walk, its contacts given still ends (it has none of its own) so that their swap shows. */
const walk = WithContactEnds(ConvertRigPosesToMuscleClip(sampleAvatar, new SampleWalkSource(sampleAvatar, 2.2, 30)));

/** Each `FootContact` flag of one side and its twin of the other. */
const TWINS = [
    [FootContact.Left, FootContact.Right],
    [FootContact.LeftAnkleStill, FootContact.RightAnkleStill],
    [FootContact.LeftToesStill, FootContact.RightToesStill],
] as const;

/** Contact flags with every flag swapped for its twin, flag by flag (the oracle of `MirrorContacts`). */
function swapSides(flags: number): number {
    let out = 0;
    for (const [l, r] of TWINS) out |= (flags & l ? r : 0) | (flags & r ? l : 0);
    return out;
}

describe("mirroring in muscle space", () => {
    test("mirror twice is the identity (poses, to the bit) and the in-place mirror is HumanPose.MirrorToRef", () => {
        fc.assert(
            fc.property(poses, (p) => {
                const want = HumanPose.MirrorToRef(p, new HumanPose());
                const m = MirrorHumanPoseInPlace(p.clone());
                expect(numbers(m)).toEqual(numbers(want));
                expect(numbers(MirrorHumanPoseInPlace(m))).toEqual(numbers(p));
            }),
            { numRuns: 200, seed: 4 },
        );
    });

    test("MirrorContacts swaps each left flag for its right twin (the feet and their still ends), and twice is the identity", () => {
        for (let c = 0; c <= FOOT_CONTACT_BITS; c++) {
            expect(MirrorContacts(c)).toBe(swapSides(c));
            expect(MirrorContacts(MirrorContacts(c))).toBe(c);
        }
        expect(MirrorContacts(FootContact.Left | FootContact.LeftToesStill)).toBe(FootContact.Right | FootContact.RightToesStill);
    });

    test("a mirrored clip samples as the mirrored samples; mirrored twice its curves and contacts are the clip's", () => {
        const m = MirrorMuscleClip(walk);
        const twice = MirrorMuscleClip(m);
        twice.curves.forEach((c, i) => expect(Array.from(c.values)).toEqual(Array.from(walk.curves[i].values)));
        expect(Array.from(twice.contacts)).toEqual(Array.from(walk.contacts));
        expect(twice.source).toBe(walk.source);
        // The trunk's layout is the mirror image's (x turned over), and twice the clip's own.
        const trunk = walk.proportions!.trunkOffsets!;
        expect(trunk).toHaveLength(15);
        m.proportions!.trunkOffsets!.forEach((x, i) => expect(x).toBe(i % 3 === 0 ? -trunk[i] : trunk[i]));
        expect(twice.proportions!.trunkOffsets).toEqual(trunk);
        // The shoulder layout too, its sides swapped (the sample's shoulders are mirror images: left = -x).
        const shoulders = walk.proportions!.shoulderOffsets!;
        expect(shoulders).toHaveLength(12);
        expect(Math.abs(shoulders[0])).toBeGreaterThan(0.01);
        m.proportions!.shoulderOffsets!.forEach((x, i) => expect(x).toBe(i % 3 === 0 ? -shoulders[(i + 6) % 12] : shoulders[(i + 6) % 12]));
        expect(twice.proportions!.shoulderOffsets).toEqual(shoulders);
        const a = new MuscleClipSampler(walk);
        const b = new MuscleClipSampler(m);
        const pa = new HumanPose();
        const pb = new HumanPose();
        const root = new Vector3();
        const mroot = new Vector3();
        for (let f = 0; f < walk.frameCount - 1; f += 0.7) {
            MirrorHumanPoseInPlace(a.sampleFrameToRef(f, pa));
            b.sampleFrameToRef(f, pb);
            numbers(pa).forEach((v, i) => expect(numbers(pb)[i]).toBeCloseTo(v, 5));
            const yaw = a.sampleRootFrameToRef(f, root);
            expect(b.sampleRootFrameToRef(f, mroot)).toBeCloseTo(-yaw, 6);
            expect(mroot.x).toBeCloseTo(-root.x, 6);
            expect(mroot.z).toBeCloseTo(root.z, 6);
            const c = a.contactsAtFrame(f);
            expect(b.contactsAtFrame(f)).toBe(swapSides(c));
        }
        // The walk has contacts on both feet, and both ends of each: the swap is seen.
        for (const [l, r] of TWINS) expect([l, r].every((bit) => walk.contacts.some((c) => c & bit))).toBe(true);
    });

    test("play(clip, { mirror: true }) plays the mirror image: pose, root motion and contacts", () => {
        // Shoulders laid out unlike each other's mirror image, so that a side left unswapped shows.
        const lopsided = WithProportions(walk, {
            ...walk.proportions!,
            shoulderOffsets: [-0.07, 0.1, 0.03, -0.03, 0.01, 0, 0.06, 0.12, 0.02, 0.04, -0.01, 0.005],
        });
        for (const mode of ["in-place", "apply", "clip"] as const) {
            const plain = new HumanoidClipPlayer(mode);
            const mirrored = new HumanoidClipPlayer(mode);
            plain.play(lopsided, { loop: true });
            mirrored.play(lopsided, { loop: true, mirror: true });
            for (let i = 0; i < 200; i++) {
                plain.update(1 / 60);
                mirrored.update(1 / 60);
                const want = numbers(HumanPose.MirrorToRef(plain.pose, new HumanPose()));
                numbers(mirrored.pose).forEach((v, k) => expect(v).toBeCloseTo(want[k], 6));
                expect(mirrored.rootDelta[0]).toBeCloseTo(-plain.rootDelta[0], 9);
                expect(mirrored.rootDelta[1]).toBeCloseTo(plain.rootDelta[1], 9);
                expect(mirrored.rootDelta[2]).toBeCloseTo(-plain.rootDelta[2], 9);
                expect(mirrored.groundRoot[0]).toBeCloseTo(-plain.groundRoot[0], 9);
                expect(mirrored.contacts).toBe(swapSides(plain.contacts));
                // The source's trunk layout as the mirrored clip's file would give it.
                for (let k = 15; k < 30; k++)
                    expect(mirrored.proportions[k]).toBeCloseTo((k - 15) % 3 === 0 ? -plain.proportions[k] : plain.proportions[k], 12);
                // And its shoulder layout: each side's the other's, x turned over.
                for (let k = 30; k < 42; k++) {
                    const other = plain.proportions[30 + ((k - 30 + 6) % 12)];
                    expect(mirrored.proportions[k]).toBeCloseTo((k - 30) % 3 === 0 ? -other : other, 12);
                }
            }
        }
    });
});

/** The upper arm's direction (canonical, unit) in a decoded pose. */
function armDirection(avatar: HumanoidAvatar, pose: HumanPose, side: "left" | "right"): Vector3 {
    const rig = DecodeHumanPose(avatar, pose, CreateReferenceRigPose(avatar));
    const w = ComputeRigWorldPose(avatar.rig, rig).positions;
    const setup = MuscleSetup.For(avatar);
    const [a, b] = side === "left" ? [HumanBone.LeftUpperArm, HumanBone.LeftLowerArm] : [HumanBone.RightUpperArm, HumanBone.RightLowerArm];
    return w[avatar.getJoint(b)].subtract(w[avatar.getJoint(a)]).normalize().applyRotationQuaternion(setup.c0Inverse);
}

describeWithData("mirroring on the public characters", () => {
    const files = [
        "glb/mixamo_xbot.glb",
        "glb/kaykit_mannequin/manny_med_mod.gltf",
        "glb/khronos_RiggedFigure.glb",
        "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm",
    ];
    const loaded: ILoadedAvatar[] = [];
    beforeAll(async () => {
        for (const f of files) loaded.push(await LoadHumanoidAvatarFromFileAsync(dataFile(f)));
    });
    afterAll(() => {
        for (const l of loaded) l.loaded.dispose();
    });

    test("a mirrored left-arm raise is a right-arm raise on every character", () => {
        for (const { avatar } of loaded) {
            const raise = new HumanPose();
            raise.values[MuscleIndexFromName("Left Arm Down-Up")] = 0.6; // 60 degrees up
            raise.values[MuscleIndexFromName("Left Arm Front-Back")] = -0.2; // and 20 forward
            const mirrored = HumanPose.MirrorToRef(raise, new HumanPose());
            const rest = new HumanPose();
            const leftUp = armDirection(avatar, raise, "left");
            const rightUp = armDirection(avatar, mirrored, "right");
            // The right arm goes where the left went, mirrored (x -> -x): up and forward alike.
            expect(Vector3.Distance(rightUp, new Vector3(-leftUp.x, leftUp.y, leftUp.z))).toBeLessThan(0.02);
            // Raised: above the T-pose's level by about 60 degrees.
            const restRight = armDirection(avatar, rest, "right");
            expect(rightUp.y - restRight.y).toBeGreaterThan(0.7);
            // ...and the left arm stays as it was.
            expect(Vector3.Distance(armDirection(avatar, mirrored, "left"), armDirection(avatar, rest, "left"))).toBeLessThan(1e-6);
        }
    });
});
