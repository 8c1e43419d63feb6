import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { ConvertRigPosesToMuscleClip } from "../../src/clip/convert.js";
import {
    ClipProportionsToArray,
    CLIP_PROPORTION_COUNT,
    CLIP_PROPORTION_SHOULDER_OFFSETS,
    CLIP_PROPORTION_TRUNK_OFFSETS,
} from "../../src/clip/clipProportions.js";
import { MuscleClipSampler } from "../../src/clip/clipSampler.js";
import type { MuscleClip } from "../../src/clip/muscleClip.js";
import type { HumanoidAvatar } from "../../src/humanoid/avatar.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../../src/humanoid/humanBones.js";
import { ComputeRigWorldPose, GetRigRestPose, type IRigWorldPose } from "../../src/humanoid/rig.js";
import { BvhPoseSource } from "../../src/io/bvhClip.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../../src/muscle/decode.js";
import { HumanPose } from "../../src/muscle/humanPose.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { MatchShoulderLine } from "../../src/muscle/shoulderLine.js";
import fc from "fast-check";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";
import { MatchShoulderLineReference } from "../helpers/shoulderLineReference.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { HumanoidAnimator } from "../../src/plugin/humanoidAnimator.js";
import { WithoutProportionKeys } from "../helpers/clips.js";
import { dataFile, describeWithData } from "../helpers/data.js";

// The line between a character's upper-arm joints turns about its trunk as the source's did
// (`MatchShoulderLine`, docs/runtime.md, the shoulders): a mocap walk's collarbones swing the arms'
// roots forward and back by 15-20 degrees, which a trunk without them (the KayKit mannequin,
// RiggedFigure) left square and the X Bot's collarbones, 2.5 times as long for their width as the
// Bandai skeleton's, turned 2.5 times as far.

const B = HumanBone;

/**
 * Yaw (degrees, about up) of the line from the right upper-arm joint to the left, less the
 * pelvis's (right to left upper leg), less the same in the avatar's T-pose: how far its shoulder
 * line has turned over its pelvis.
 */
function shoulderTurnOverPelvis(avatar: HumanoidAvatar, w: { positions: readonly Vector3[] }): number {
    const at = (p: readonly Vector3[]): number => {
        const yaw = (l: HumanBone, r: HumanBone): number => {
            const d = p[avatar.getJoint(l)].subtract(p[avatar.getJoint(r)]);
            return Math.atan2(d.z, d.x);
        };
        return yaw(B.LeftUpperArm, B.RightUpperArm) - yaw(B.LeftUpperLeg, B.RightUpperLeg);
    };
    let a = ((at(w.positions) - at(avatar.referenceWorld.positions)) * 180) / Math.PI;
    while (a > 180) a -= 360;
    while (a < -180) a += 360;
    return a;
}

/** Every frame of a clip decoded onto a character, with the clip's trunk layout and, unless `shoulders` is false, its shoulder layout. */
function decodeFrames(clip: MuscleClip, avatar: HumanoidAvatar, shoulders: boolean): IRigWorldPose[] {
    const props = ClipProportionsToArray(clip.proportions, new Float64Array(CLIP_PROPORTION_COUNT));
    const trunk = props.subarray(CLIP_PROPORTION_TRUNK_OFFSETS, CLIP_PROPORTION_SHOULDER_OFFSETS);
    const layout = props.subarray(CLIP_PROPORTION_SHOULDER_OFFSETS);
    const sampler = new MuscleClipSampler(clip);
    const pose = new HumanPose();
    const rig = CreateReferenceRigPose(avatar);
    const out: IRigWorldPose[] = [];
    for (let f = 0; f < clip.frameCount; f++) {
        sampler.sampleFrameToRef(f, pose);
        DecodeHumanPose(avatar, pose, rig, null, trunk, shoulders ? layout : null);
        out.push(ComputeRigWorldPose(avatar.rig, rig));
    }
    return out;
}

describeWithData("the shoulder line turns about the trunk as the source's", () => {
    let source: HumanoidAvatar;
    let sourceFrames: IRigWorldPose[];
    let clip: MuscleClip;
    let manny: HumanoidAvatar;
    let xbot: HumanoidAvatar;
    beforeAll(async () => {
        const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile("bvh/bandai/dataset-1_walk_giant_001.bvh"));
        source = loaded.avatar;
        const poses = new BvhPoseSource(loaded.loaded.bvh!);
        clip = ConvertRigPosesToMuscleClip(source, poses);
        const rest = GetRigRestPose(source.rig);
        sourceFrames = Array.from({ length: clip.frameCount }, (_, f) => {
            poses.samplePoseToRef(Math.min(f / clip.frameRate, poses.durationSeconds), rest);
            return ComputeRigWorldPose(source.rig, rest);
        });
        manny = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"))).avatar;
        xbot = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"))).avatar;
    });
    /**
     * How far a character's shoulder line turned over its pelvis from the source's, on average over
     * the clip, about their mean difference (on this clip they stay a constant half a degree apart
     * as well, with the step or without: the shoulders' level in the T-poses).
     */
    const meanDifference = (avatar: HumanoidAvatar, frames: IRigWorldPose[]): number => {
        const d = frames.map((w, f) => shoulderTurnOverPelvis(avatar, w) - shoulderTurnOverPelvis(source, sourceFrames[f]));
        const mean = d.reduce((a, b) => a + b, 0) / d.length;
        return d.reduce((a, b) => a + Math.abs(b - mean), 0) / d.length;
    };
    const relative = (avatar: HumanoidAvatar, w: IRigWorldPose, b: HumanBone): Quaternion =>
        Quaternion.Inverse(w.rotations[avatar.getJoint(B.Hips)]).multiply(w.rotations[avatar.getJoint(b)]);
    const angle = (a: Quaternion, b: Quaternion): number => (2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(a, b)))) * 180) / Math.PI;

    test("the clip keeps the source's shoulder layout: each side's shoulder joint from the chest and upper-arm joint from the shoulder", () => {
        const offsets = clip.proportions!.shoulderOffsets!;
        const setup = MuscleSetup.For(source);
        expect(offsets).toEqual(Array.from(setup.clipShoulderOffsets!));
        expect(offsets).toHaveLength(12);
        const p = source.referenceWorld.positions;
        const collar = p[source.getJoint(B.LeftUpperArm)].subtract(p[source.getJoint(B.LeftShoulder)]).length() / setup.scale;
        expect(Math.hypot(offsets[3], offsets[4], offsets[5])).toBeCloseTo(collar, 9);
        // The two shoulder joints on either side of the chest, mirror images of each other.
        expect(Math.abs(offsets[0])).toBeGreaterThan(0.02);
        expect(offsets[6]).toBeCloseTo(-offsets[0], 2);
        // A character without both shoulders has no layout.
        expect(MuscleSetup.For(manny).clipShoulderOffsets).toBeNull();
    });

    test("onto the mannequin (no shoulders) and the X Bot (collarbones 2.5 times as long for their width): the shoulder line turns over the pelvis within 0.25 degree of the source's on average", () => {
        expect(manny.getJoint(B.LeftShoulder)).toBe(-1);
        for (const avatar of [manny, xbot]) {
            const matched = meanDifference(avatar, decodeFrames(clip, avatar, true));
            const copied = meanDifference(avatar, decodeFrames(clip, avatar, false));
            expect(matched).toBeLessThan(0.25);
            // Without the step: the mannequin's stays square (1.8), the X Bot's turns too far (0.76).
            expect(copied).toBeGreaterThan(0.7);
        }
    });

    test("without shoulders only the bone the arms hang from turns, about the trunk's axis: the head, the arms and the spine keep their rotations", () => {
        const turned = decodeFrames(clip, manny, true);
        const square = decodeFrames(clip, manny, false);
        let chestMost = 0;
        for (let f = 0; f < clip.frameCount; f++) {
            for (const b of [B.Head, B.LeftUpperArm, B.RightUpperArm, B.LeftLowerArm, B.RightHand, B.Spine])
                expect(angle(relative(manny, turned[f], b), relative(manny, square[f], b))).toBeLessThan(1e-3);
            chestMost = Math.max(chestMost, angle(relative(manny, turned[f], B.Chest), relative(manny, square[f], B.Chest)));
        }
        // Collarbones swing the arms' roots by a few degrees of the chest's turn at most.
        expect(chestMost).toBeGreaterThan(1);
        expect(chestMost).toBeLessThan(10);
        // About the trunk's axis alone: the head moves by under 2% of its height over the chest.
        for (let f = 0; f < clip.frameCount; f++) {
            const head = (w: IRigWorldPose): Vector3 => w.positions[manny.getJoint(B.Head)].subtract(w.positions[manny.getJoint(B.Hips)]);
            const over = Vector3.Distance(square[f].positions[manny.getJoint(B.Head)], square[f].positions[manny.getJoint(B.Chest)]);
            expect(Vector3.Distance(head(turned[f]), head(square[f]))).toBeLessThan(0.02 * over);
        }
    });

    test("with shoulders only they turn: the arms, the chest and the head keep their rotations", () => {
        const matched = decodeFrames(clip, xbot, true);
        const copied = decodeFrames(clip, xbot, false);
        let shoulderMost = 0;
        for (let f = 0; f < clip.frameCount; f++) {
            for (const b of [B.Chest, B.UpperChest, B.Head, B.LeftUpperArm, B.RightUpperArm, B.LeftHand, B.RightLowerArm])
                expect(angle(relative(xbot, matched[f], b), relative(xbot, copied[f], b))).toBeLessThan(1e-3);
            shoulderMost = Math.max(shoulderMost, angle(relative(xbot, matched[f], B.LeftShoulder), relative(xbot, copied[f], B.LeftShoulder)));
        }
        expect(shoulderMost).toBeGreaterThan(1);
        expect(shoulderMost).toBeLessThan(15);
    });

    test("the clip on its own skeleton decodes as without the step, to the bit", () => {
        const matched = decodeFrames(clip, source, true);
        const copied = decodeFrames(clip, source, false);
        for (let f = 0; f < clip.frameCount; f += 3)
            for (let j = 0; j < source.rig.joints.length; j++) {
                expect(matched[f].rotations[j].asArray()).toEqual(copied[f].rotations[j].asArray());
                expect(matched[f].positions[j].asArray()).toEqual(copied[f].positions[j].asArray());
            }
    });
});

describe("collarbones too short to give the line the source's turn", () => {
    // A character whose shoulder joints sit 13 out from its chest's middle on collarbones 5 long
    // (the Bandai skeleton's) under a source whose collarbones reach 12 from its middle (the X
    // Bot's): its line can turn by asin(10 / 26) = 22.6 degrees at most.
    const own = Float64Array.from([-0.13, 0.1, 0, -0.05, 0, 0, 0.13, 0.1, 0, 0.05, 0, 0]);
    const source = Float64Array.from([-0.02, 0.1, 0, -0.12, 0, 0, 0.02, 0.1, 0, 0.12, 0, 0]);
    const joint = new Int32Array(HUMAN_BONE_COUNT).fill(1);
    const parentBone = new Int32Array(HUMAN_BONE_COUNT).fill(-1);
    parentBone[B.LeftShoulder] = parentBone[B.RightShoulder] = B.Chest;
    parentBone[B.Chest] = B.Spine;
    parentBone[B.Spine] = B.Hips;
    const setup = { joint, parentBone, clipShoulderOffsets: own } as unknown as MuscleSetup;
    /** How far (degrees, about up) a layout's line has turned from its rest, its collarbones turned by `left` and `right`. */
    const turnOf = (layout: Float64Array, left: Quaternion, right: Quaternion): number => {
        const at = (l: Quaternion, r: Quaternion): number => {
            const a = new Vector3(layout[3], layout[4], layout[5]).applyRotationQuaternion(l);
            const b = new Vector3(layout[9], layout[10], layout[11]).applyRotationQuaternion(r);
            return Math.atan2(layout[2] + a.z - layout[8] - b.z, layout[0] + a.x - layout[6] - b.x);
        };
        let d = ((at(left, right) - at(Quaternion.Identity(), Quaternion.Identity())) * 180) / Math.PI;
        d -= 360 * Math.round(d / 360);
        return d;
    };
    /** The source's and the character's line turns after the step, both of the source's collarbones turned `deg` about up. */
    const turns = (deg: number): [number, number] => {
        const q = Array.from({ length: HUMAN_BONE_COUNT }, () => new Quaternion());
        const y = Quaternion.RotationAxis(Vector3.Up(), (deg * Math.PI) / 180);
        MatchShoulderLine(setup, q, source, y, y, new Quaternion());
        // The arms keep their world rotation.
        expect(Math.abs(Quaternion.Dot(q[B.LeftShoulder].multiply(q[B.LeftUpperArm]), Quaternion.Identity()))).toBeCloseTo(1, 12);
        return [turnOf(source, y, y), turnOf(own, q[B.LeftShoulder], q[B.RightShoulder])];
    };
    const reach = (Math.asin(0.1 / 0.26) * 180) / Math.PI;

    test("within reach the line turns as the source's; beyond it, to the edge of reach and no further back, continuously", () => {
        for (const deg of [-8, -3, 1, 5, 12]) {
            const [wanted, got] = turns(deg);
            expect(Math.abs(wanted)).toBeGreaterThan(0.5);
            expect(got).toBeCloseTo(wanted, 6);
        }
        expect(Math.abs(turns(30)[0])).toBeGreaterThan(reach);
        let previous = Math.abs(turns(10)[1]);
        for (let deg = 10.25; deg <= 80; deg += 0.25) {
            const got = Math.abs(turns(deg)[1]);
            expect(got).toBeGreaterThanOrEqual(previous - 1e-9);
            expect(got).toBeLessThanOrEqual(reach + 1e-9);
            expect(got - previous).toBeLessThan(0.5);
            previous = got;
        }
        expect(previous).toBeCloseTo(reach, 6);
    });
});

describeWithData("a cross-fade from a clip without a shoulder layout eases the step in", () => {
    test("the mannequin's chest turns no faster at the fade's start than with neither clip's layout (2.07 against 0.60 degree an update when the step came on at once)", async () => {
        const manny = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        const dance = (await ConvertFileToMuscleClipsAsync(dataFile("bvh/bandai/dataset-1_dance-short_normal_001.bvh")))[0].clip;
        const walk = (await ConvertFileToMuscleClipsAsync(dataFile("bvh/bandai/dataset-1_walk_normal_001.bvh")))[0].clip;
        expect(walk.proportions!.shoulderOffsets).toHaveLength(12);
        const older = WithoutProportionKeys(dance, "shoulderOffsets");
        /** The chest's local rotation change per update (degrees) over 200 updates, a fade into `next` starting at the 100th. */
        const steps = (next: MuscleClip): number[] => {
            const animator = new HumanoidAnimator(manny.avatar, manny.loaded.binding!.nodes, { footPlanting: false });
            const chest = manny.avatar.getJoint(B.Chest);
            animator.play(older, { loop: true });
            const out: number[] = [];
            let previous: Quaternion | null = null;
            for (let i = 0; i < 200; i++) {
                if (i === 100) animator.crossFade(next, 0.5, { loop: true });
                animator.update(1 / 60);
                const r = animator.solver.pose.rotations[chest].clone();
                if (previous) out.push((2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(previous, r)))) * 180) / Math.PI);
                previous = r;
            }
            animator.dispose();
            return out;
        };
        const eased = steps(walk);
        const neither = steps(WithoutProportionKeys(walk, "shoulderOffsets"));
        for (let i = 98; i < 104; i++) expect(eased[i]).toBeLessThan(neither[i] + 0.1);
        expect(Math.max(...eased.slice(100))).toBeLessThan(Math.max(...neither.slice(100)) + 0.2);
    });
});

describe("the step's written-out form against its readable one", () => {
    // Angles as unit complex numbers (the library's) against atan2, cos and sin (the oracle,
    // test/helpers/shoulderLineReference.ts), on random layouts, shoulder turns and trunk turns,
    // for a character with shoulders and one without.
    const joint = new Int32Array(HUMAN_BONE_COUNT).fill(1);
    const parentBone = new Int32Array(HUMAN_BONE_COUNT).fill(-1);
    parentBone[B.LeftShoulder] = parentBone[B.RightShoulder] = parentBone[B.Neck] = B.Chest;
    parentBone[B.LeftUpperArm] = B.LeftShoulder;
    parentBone[B.RightUpperArm] = B.RightShoulder;
    parentBone[B.Chest] = B.Spine;
    parentBone[B.Spine] = B.Hips;
    const noShoulders = Int32Array.from(joint);
    noShoulders[B.LeftShoulder] = noShoulders[B.RightShoulder] = -1;
    const armsOnChest = Int32Array.from(parentBone);
    armsOnChest[B.LeftUpperArm] = armsOnChest[B.RightUpperArm] = B.Chest;
    const side = fc.tuple(
        fc.double({ min: 0.02, max: 0.2, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.double({ min: 0.02, max: 0.2, noNaN: true }),
    );
    /** A layout: each side's root out by r along -x / +x and its collarbone by c further, with small forward and up parts. */
    const layout = fc
        .tuple(side, side)
        .map(([[r1, f1, c1], [r2, f2, c2]]) => Float64Array.from([-r1, 0.1, f1, -c1, 0.01, f1 / 2, r2, 0.1, f2, c2, 0.01, f2 / 2]));
    /** A turn of up to `degrees` about a random axis (poses, not the half turns where a line's direction flips and either sign of pi is right). */
    const turnUpTo = (degrees: number): fc.Arbitrary<Quaternion> =>
        fc
            .tuple(UnitQuaternionArbitrary(1), fc.double({ min: -degrees, max: degrees, noNaN: true }))
            .map(([axis, deg]) => Quaternion.RotationAxis(new Vector3(axis.x, axis.y, axis.z + 1e-3).normalize(), (deg * Math.PI) / 180));
    test("the same rotations to 1e-12, with shoulders, without, at any share, past the collarbones' reach", () => {
        fc.assert(
            fc.property(
                layout,
                layout,
                fc.boolean(),
                fc.double({ min: 0.05, max: 1, noNaN: true }),
                turnUpTo(60),
                turnUpTo(60),
                turnUpTo(45),
                turnUpTo(45),
                (own, source, withShoulders, share, left, right, trunk, chest) => {
                    const setup = {
                        joint: withShoulders ? joint : noShoulders,
                        parentBone: withShoulders ? parentBone : armsOnChest,
                        clipShoulderOffsets: withShoulders ? own : null,
                    } as unknown as MuscleSetup;
                    const start = (): Quaternion[] => {
                        const q = Array.from({ length: HUMAN_BONE_COUNT }, () => new Quaternion());
                        q[B.LeftShoulder].copyFrom(left);
                        q[B.RightShoulder].copyFrom(right);
                        q[B.Chest].copyFrom(chest);
                        return q;
                    };
                    const fast = start();
                    const slow = start();
                    const src = Float64Array.from([...source, share]);
                    MatchShoulderLine(setup, fast, src, left, right, trunk);
                    MatchShoulderLineReference(setup, slow, src, left, right, trunk);
                    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
                        const d = Math.abs(Math.abs(Quaternion.Dot(fast[b], slow[b])) - 1);
                        expect(d).toBeLessThan(1e-12);
                    }
                },
            ),
            { numRuns: 400, seed: 31 },
        );
    });
});
