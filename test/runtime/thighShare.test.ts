import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBone,
    HumanoidAnimator,
    MuscleClip,
    MuscleSetup,
    SampleCharacters,
    type IRig,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

/**
 * "legs" with the source's thigh share: the built-in walk plays on a copy of its skeleton whose
 * thighs are 30% longer and shins as much shorter (the same leg length, the knee higher up, as a
 * cartoon character's). The feet go where that leg bent as the source's puts them, so the knees
 * keep the source's bend; without the share (a version 2 clip) the IK bends them to reach where
 * the source's feet were.
 */
describe('"legs": the knee keeps the source\'s bend on a leg shared otherwise between thigh and shin', () => {
    Logger.LogLevels = Logger.ErrorLogLevel;
    const rig = BuildSampleRig(SampleCharacters[1]);
    const source = BuildHumanoidAvatar(rig);
    const clip = ConvertRigPosesToMuscleClip(source, new SampleWalkSource(source, 2.2, 30), { loop: false });
    const { thighShare: _share, ...rest } = clip.proportions!;
    const withoutShare = new MuscleClip({ ...clip, proportions: rest, curves: [...clip.curves], contacts: clip.contacts, warnings: [...clip.warnings] });

    /** Thigh 30% longer, shin as much shorter (the knee moves down the leg, the foot stays). */
    const moved: IRig = (() => {
        const joints = rig.joints.map((j) => ({ ...j }));
        for (const [knee, foot] of [
            [HumanBone.LeftLowerLeg, HumanBone.LeftFoot],
            [HumanBone.RightLowerLeg, HumanBone.RightFoot],
        ] as const) {
            const k = source.getJoint(knee);
            const f = source.getJoint(foot);
            const thigh = rig.joints[k].restPosition;
            const shin = rig.joints[f].restPosition;
            const d = 0.3 * Math.min(thigh.length(), shin.length());
            joints[k].restPosition = thigh.scale(1 + d / thigh.length());
            joints[f].restPosition = shin.scale(1 - d / shin.length());
        }
        return { ...rig, joints };
    })();

    const LEGS = [
        [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, HumanBone.LeftFoot],
        [HumanBone.RightUpperLeg, HumanBone.RightLowerLeg, HumanBone.RightFoot],
    ] as const;

    /** Per frame, the direction of each thigh and shin (world) on a rig playing a clip, and each knee's bend (degrees). */
    const play = (target: IRig, played: MuscleClip): { directions: Vector3[][]; bends: number[] } => {
        const avatar = BuildHumanoidAvatar(target);
        const scene = new Scene(new NullEngine());
        const { nodes } = CreateTransformNodesFromRig(target, scene);
        const animator = new HumanoidAnimator(avatar, nodes as TransformNode[], { rootMotion: "clip" });
        animator.play(played, { loop: false });
        const at = (b: HumanBone): Vector3 => nodes[avatar.getJoint(b)].getAbsolutePosition();
        const directions: Vector3[][] = [];
        const bends: number[] = [];
        for (let f = 0; f < played.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / played.frameRate);
            for (const n of nodes) n.computeWorldMatrix(true);
            const frame: Vector3[] = [];
            for (const [hip, knee, foot] of LEGS) {
                const thigh = at(knee).subtract(at(hip)).normalize();
                const shin = at(foot).subtract(at(knee)).normalize();
                frame.push(thigh, shin);
                bends.push((Math.acos(Math.min(1, Vector3.Dot(thigh, shin))) * 180) / Math.PI);
            }
            directions.push(frame);
        }
        scene.getEngine().dispose();
        return { directions, bends };
    };
    /** Mean angle between two runs' thigh and shin directions, degrees. */
    const meanAngle = (a: Vector3[][], b: Vector3[][]): number => {
        let sum = 0;
        let n = 0;
        for (let f = 0; f < a.length; f++) {
            for (let k = 0; k < a[f].length; k++, n++) sum += (Math.acos(Math.min(1, Vector3.Dot(a[f][k], b[f][k]))) * 180) / Math.PI;
        }
        return sum / n;
    };

    it("the clip records the source's thigh share", () => {
        expect(clip.proportions!.thighShare).toBeCloseTo(MuscleSetup.For(source).thighShare, 12);
        expect(MuscleSetup.For(BuildHumanoidAvatar(moved)).thighShare).toBeGreaterThan(clip.proportions!.thighShare! + 0.1);
    });

    it("thighs and shins point as the source's, much closer than without the share", () => {
        const own = play(rig, clip);
        // The walk bends its knees (else there is nothing to keep).
        expect(Math.max(...own.bends) - Math.min(...own.bends)).toBeGreaterThan(20);
        const withShare = meanAngle(play(moved, clip).directions, own.directions);
        const without = meanAngle(play(moved, withoutShare).directions, own.directions);
        expect(withShare).toBeLessThan(1);
        expect(withShare).toBeLessThan(0.5 * without);
    });
});
