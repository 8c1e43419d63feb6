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
import { HumanBone } from "../../src/humanoid/humanBones.js";
import { ComputeRigWorldPose, GetRigRestPose, type IRigWorldPose } from "../../src/humanoid/rig.js";
import { BvhPoseSource } from "../../src/io/bvhClip.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../../src/muscle/decode.js";
import { HumanPose } from "../../src/muscle/humanPose.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
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
