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
import { SourceShoulderOffsets } from "../../src/muscle/shoulderLine.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

// A character without shoulder bones (the KayKit mannequin, RiggedFigure) turns the bone its arms
// hang from so that the line between its upper-arm joints turns as the source's did
// (`TurnTrunkForShoulders`, docs/runtime.md, the shoulders): a mocap walk's collarbones swing the
// arms' roots forward and back by 15-20 degrees, which a trunk without them left square.

const B = HumanBone;

/** Yaw (degrees, about up) of the line from the right bone's joint to the left's, less the pelvis's (right to left upper leg). */
function shoulderYawOverPelvis(avatar: HumanoidAvatar, w: IRigWorldPose): number {
    const yaw = (l: HumanBone, r: HumanBone): number => {
        const d = w.positions[avatar.getJoint(l)].subtract(w.positions[avatar.getJoint(r)]);
        return Math.atan2(d.z, d.x);
    };
    let a = ((yaw(B.LeftUpperArm, B.RightUpperArm) - yaw(B.LeftUpperLeg, B.RightUpperLeg)) * 180) / Math.PI;
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

describeWithData("a character without shoulders turns its shoulder line as the source's", () => {
    let source: HumanoidAvatar;
    let sourceFrames: IRigWorldPose[];
    let clip: MuscleClip;
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
    });

    test("the clip keeps the source's shoulder layout: each side's shoulder joint from the chest and upper-arm joint from the shoulder", () => {
        const offsets = clip.proportions!.shoulderOffsets!;
        expect(offsets).toEqual(SourceShoulderOffsets(MuscleSetup.For(source)));
        expect(offsets).toHaveLength(12);
        const setup = MuscleSetup.For(source);
        const p = source.referenceWorld.positions;
        const collar = p[source.getJoint(B.LeftUpperArm)].subtract(p[source.getJoint(B.LeftShoulder)]).length() / setup.scale;
        expect(Math.hypot(offsets[3], offsets[4], offsets[5])).toBeCloseTo(collar, 9);
        // The two shoulder joints on either side of the chest, mirror images of each other.
        expect(Math.abs(offsets[0])).toBeGreaterThan(0.02);
        expect(offsets[6]).toBeCloseTo(-offsets[0], 2);
    });

    test("the giant walk onto the KayKit mannequin: its shoulder line turns over its pelvis within 0.3 degree of the source's on average (1.8 without)", async () => {
        const manny = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"))).avatar;
        expect(manny.getJoint(B.LeftShoulder)).toBe(-1);
        const meanDifference = (frames: IRigWorldPose[]): number => {
            let sum = 0;
            frames.forEach((w, f) => (sum += Math.abs(shoulderYawOverPelvis(manny, w) - shoulderYawOverPelvis(source, sourceFrames[f]))));
            return sum / frames.length;
        };
        const turned = meanDifference(decodeFrames(clip, manny, true));
        const square = meanDifference(decodeFrames(clip, manny, false));
        expect(turned).toBeLessThan(0.3);
        expect(square).toBeGreaterThan(1.2);
    });

    test("only the bone the arms hang from turns: the head and the arms keep their rotations, and a character with shoulders is decoded as before to the bit", async () => {
        const manny = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"))).avatar;
        const turned = decodeFrames(clip, manny, true);
        const square = decodeFrames(clip, manny, false);
        const relative = (w: IRigWorldPose, b: HumanBone): Quaternion =>
            Quaternion.Inverse(w.rotations[manny.getJoint(B.Hips)]).multiply(w.rotations[manny.getJoint(b)]);
        const angle = (a: Quaternion, b: Quaternion): number => (2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(a, b)))) * 180) / Math.PI;
        let chestMost = 0;
        for (let f = 0; f < clip.frameCount; f++) {
            for (const b of [B.Head, B.LeftUpperArm, B.RightUpperArm, B.LeftLowerArm, B.RightHand, B.Spine])
                expect(angle(relative(turned[f], b), relative(square[f], b))).toBeLessThan(1e-3);
            chestMost = Math.max(chestMost, angle(relative(turned[f], B.Chest), relative(square[f], B.Chest)));
        }
        // Collarbones swing the arms' roots by a few degrees of the chest's turn at most.
        expect(chestMost).toBeGreaterThan(1);
        expect(chestMost).toBeLessThan(10);
        // The turn is about the trunk's axis alone: the head moves by under 2% of its height over the chest.
        for (let f = 0; f < clip.frameCount; f++) {
            const head = (w: IRigWorldPose): Vector3 => w.positions[manny.getJoint(B.Head)].subtract(w.positions[manny.getJoint(B.Hips)]);
            const over = Vector3.Distance(square[f].positions[manny.getJoint(B.Head)], square[f].positions[manny.getJoint(B.Chest)]);
            expect(Vector3.Distance(head(turned[f]), head(square[f]))).toBeLessThan(0.02 * over);
        }
        const xbot = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"))).avatar;
        const withShoulders = decodeFrames(clip, xbot, true);
        const without = decodeFrames(clip, xbot, false);
        for (let f = 0; f < clip.frameCount; f += 5)
            for (let j = 0; j < xbot.rig.joints.length; j++) {
                expect(withShoulders[f].rotations[j].asArray()).toEqual(without[f].rotations[j].asArray());
                expect(withShoulders[f].positions[j].asArray()).toEqual(without[f].positions[j].asArray());
            }
    });
});
