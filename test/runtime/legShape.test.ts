import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    DecodeHumanPose,
    HumanBone,
    HumanoidAnimator,
    HumanPose,
    SampleCharacters,
    type HumanoidAvatar,
    type IRig,
    type IRigPose,
    type IRigPoseSource,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";

/**
 * "legs" keeps the source's knees where a millimetre of foot would be degrees of knee: a character
 * stands still with straight legs while its body sways a millimetre or two (the feet held by
 * planting), and plays on a copy of its skeleton whose left shin is 5 mm longer (as the CMU walk's
 * skeleton, whose legs differ by 4 mm). Without the give (`LEG_SHAPE_SLACK` 0) the long leg
 * bends 8 degrees.
 */
describe('"legs": the knee keeps the source\'s bend near straight', () => {
    Logger.LogLevels = Logger.ErrorLogLevel;
    const rig = BuildSampleRig(SampleCharacters[1]);
    const source = BuildHumanoidAvatar(rig);

    /** Standing still, straight legs, the body swaying 2 mm side to side every second. */
    class Sway implements IRigPoseSource {
        public readonly name = "sway";
        public readonly source = "test";
        public readonly frameRate = 30;
        public readonly durationSeconds = 3;
        public readonly warnings: readonly string[] = [];
        private readonly _pose = new HumanPose();
        constructor(private readonly _avatar: HumanoidAvatar) {}
        public samplePoseToRef(t: number, result: IRigPose): void {
            this._pose.bodyPosition.x = 0.002 * Math.sin(2 * Math.PI * t);
            DecodeHumanPose(this._avatar, this._pose, result);
        }
    }
    const clip = ConvertRigPosesToMuscleClip(source, new Sway(source));

    /** The same skeleton with the left foot 5 mm further from the knee. */
    const longer: IRig = {
        ...rig,
        joints: rig.joints.map((j, i) =>
            i === source.getJoint(HumanBone.LeftFoot) ? { ...j, restPosition: j.restPosition.scale(1 + 0.005 / j.restPosition.length()) } : j,
        ),
    };

    /** The most any knee's bend differs from its T-pose bend over the clip, and the left knee's range, degrees. */
    const kneeBends = (target: IRig): { most: number; swing: number } => {
        const avatar = BuildHumanoidAvatar(target);
        const rest = avatar.referenceWorld.positions;
        const scene = new Scene(new NullEngine());
        const { nodes } = CreateTransformNodesFromRig(target, scene);
        const animator = new HumanoidAnimator(avatar, nodes as TransformNode[], { rootMotion: "clip" });
        animator.play(clip, { loop: false });
        const at = (b: HumanBone): Vector3 => nodes[avatar.getJoint(b)].computeWorldMatrix(true).getTranslation();
        const angle = (p: (b: HumanBone) => Vector3, hip: HumanBone, knee: HumanBone, foot: HumanBone): number => {
            const a = p(knee).subtract(p(hip)).normalize();
            const b = p(foot).subtract(p(knee)).normalize();
            return (Math.acos(Math.min(1, Vector3.Dot(a, b))) * 180) / Math.PI;
        };
        const bend = (hip: HumanBone, knee: HumanBone, foot: HumanBone): number =>
            Math.abs(angle(at, hip, knee, foot) - angle((b) => rest[avatar.getJoint(b)], hip, knee, foot));
        let most = 0;
        let lo = Infinity;
        let hi = -Infinity;
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            for (const [h, k, ft] of [
                [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, HumanBone.LeftFoot],
                [HumanBone.RightUpperLeg, HumanBone.RightLowerLeg, HumanBone.RightFoot],
            ] as const) {
                const d = bend(h, k, ft);
                most = Math.max(most, d);
                if (k === HumanBone.LeftLowerLeg) {
                    lo = Math.min(lo, d);
                    hi = Math.max(hi, d);
                }
            }
        }
        scene.getEngine().dispose();
        return { most, swing: hi - lo };
    };

    it("the clip holds its feet (the sway is slow enough to count as standing)", () => {
        expect(Array.from(clip.contacts).every((c) => (c & 3) === 3)).toBe(true);
    });

    it("on its own skeleton, the knees stay straight and still through the sway", () => {
        const { most, swing } = kneeBends(rig);
        expect(most).toBeLessThan(0.5);
        expect(swing).toBeLessThan(0.5);
    });

    it("on a skeleton with one shin 5 mm longer, both knees stay straight", () => {
        const { most, swing } = kneeBends(longer);
        expect(most).toBeLessThan(0.5);
        expect(swing).toBeLessThan(0.5);
    });
});
