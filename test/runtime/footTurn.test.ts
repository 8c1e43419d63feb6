import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ComputeRigWorldPose,
    ConvertRigPosesToMuscleClip,
    GetRigRestPose,
    HumanBone,
    HumanoidAnimator,
    SampleCharacters,
    type IRig,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

/**
 * Foot goal rotations are carried from the source's foot onto the character's by the turn between
 * their T-pose foot directions; a clip keeps the left foot's, and the right foot's turn is its
 * mirror image. On a skeleton whose right foot is not the mirror of its left (its toes 15 degrees
 * out, as mocap skeletons' feet often are), a clip played on its own skeleton keeps both feet as
 * they were (mirroring the left foot's direction instead would turn the right foot by 15 degrees).
 */
describe("foot rotations on a skeleton whose feet are not mirror images", () => {
    Logger.LogLevels = Logger.ErrorLogLevel;
    const base = BuildSampleRig(SampleCharacters[1]);
    const baseAvatar = BuildHumanoidAvatar(base);
    const rig: IRig = (() => {
        const joints = base.joints.map((j) => ({ ...j }));
        const toes = baseAvatar.getJoint(HumanBone.RightToes);
        joints[toes].restPosition = joints[toes].restPosition.applyRotationQuaternion(Quaternion.RotationAxis(Vector3.Up(), (15 * Math.PI) / 180));
        return { ...base, joints };
    })();
    const avatar = BuildHumanoidAvatar(rig);
    const walk = new SampleWalkSource(avatar, 2.2, 30);
    const clip = ConvertRigPosesToMuscleClip(avatar, walk, { loop: false });

    it("each foot points as the source's, with foot IK on", () => {
        expect(avatar.getJoint(HumanBone.RightToes)).toBeGreaterThanOrEqual(0);
        const scene = new Scene(new NullEngine());
        const { nodes } = CreateTransformNodesFromRig(rig, scene);
        const animator = new HumanoidAnimator(avatar, nodes as TransformNode[], { rootMotion: "clip", footPlanting: false });
        animator.play(clip, { loop: false });
        const pose = GetRigRestPose(rig);
        let worst = 0;
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            for (const n of nodes) n.computeWorldMatrix(true);
            walk.samplePoseToRef(f / clip.frameRate, pose);
            const source = ComputeRigWorldPose(rig, pose).positions;
            for (const [foot, toes] of [
                [HumanBone.LeftFoot, HumanBone.LeftToes],
                [HumanBone.RightFoot, HumanBone.RightToes],
            ] as const) {
                const a = avatar.getJoint(foot);
                const b = avatar.getJoint(toes);
                const ours = nodes[b].getAbsolutePosition().subtract(nodes[a].getAbsolutePosition()).normalize();
                const theirs = source[b].subtract(source[a]).normalize();
                worst = Math.max(worst, (Math.acos(Math.min(1, Vector3.Dot(ours, theirs))) * 180) / Math.PI);
            }
        }
        scene.getEngine().dispose();
        expect(worst).toBeLessThan(0.5);
    });
});
