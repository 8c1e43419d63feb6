import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBone,
    HumanoidAnimator,
    SampleCharacters,
    type HumanoidAvatar,
    type IRigPose,
    type IRigPoseSource,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

/**
 * The built-in walk, its whole figure turned about its hips' right axis by a full turn over the
 * clip (a somersault through upside down, as a back handspring's flight), the turn about the
 * T-pose hips' height.
 */
class SomersaultSource implements IRigPoseSource {
    public readonly name = "somersault";
    public readonly source = "test";
    public readonly warnings: readonly string[] = [];
    public readonly frameRate: number;
    public readonly durationSeconds: number;
    private readonly _walk: SampleWalkSource;

    constructor(avatar: HumanoidAvatar) {
        this._walk = new SampleWalkSource(avatar, 2, 60);
        this.frameRate = this._walk.frameRate;
        this.durationSeconds = this._walk.durationSeconds;
        // The rig's root (above the hips), turned about a point at the T-pose hips' height.
        let root = avatar.getJoint(HumanBone.Hips);
        while (avatar.rig.joints[root].parent >= 0) root = avatar.rig.joints[root].parent;
        this._root = root;
        const joint = avatar.rig.joints[root];
        this._rest = { rotation: joint.restRotation.clone(), position: joint.restPosition.clone() };
        this._pivot = new Vector3(0, avatar.referenceWorld.positions[avatar.getJoint(HumanBone.Hips)].y, 0);
    }

    private readonly _root: number;
    private readonly _rest: { rotation: Quaternion; position: Vector3 };
    private readonly _pivot: Vector3;

    public samplePoseToRef(timeSeconds: number, result: IRigPose): void {
        this._walk.samplePoseToRef(timeSeconds, result);
        const turn = Quaternion.RotationAxis(Vector3.Right(), (2 * Math.PI * timeSeconds) / this.durationSeconds);
        // (The walk leaves the root as it was, so it is set from its rest each time.)
        const r = this._root;
        result.rotations[r].copyFrom(turn.multiply(this._rest.rotation));
        result.positions[r].copyFrom(this._rest.position.subtract(this._pivot).applyRotationQuaternion(turn).add(this._pivot));
    }
}

// A body upside down has no heading: its turn about up swings through half a turn as it passes
// through upside down, and the feet's rotations, taken relative to it, flipped with it on a
// character whose feet point otherwise than the source's (a back handspring onto RiggedFigure: its
// toes 10.7 times the source's jerk). They go over to the body's whole rotation from
// FOOT_FRAME_TILT_FROM_DEG (src/runtime/footRotations.ts) of tilt on.
describe("feet of a body turning through upside down", () => {
    Logger.LogLevels = Logger.ErrorLogLevel;
    const sourceAvatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    const clip = ConvertRigPosesToMuscleClip(sourceAvatar, new SomersaultSource(sourceAvatar), { loop: false });

    it.each(SampleCharacters.slice(1).map((c) => [c.name, c] as const))("%s: its toes turn smoothly through the somersault (no frame turns them by more than 3 times the body's turn)", (_name, character) => {
        // Its toes turned 40 degrees down about the ankle (as KayKit's mannequin's, 46): the feet's
        // rotations carry a turn between the source's foot direction and this one's.
        const base = BuildSampleRig(character);
        const baseAvatar = BuildHumanoidAvatar(base);
        const joints = base.joints.map((j) => ({ ...j }));
        for (const toes of [HumanBone.LeftToes, HumanBone.RightToes]) {
            const j = baseAvatar.getJoint(toes);
            joints[j].restPosition = joints[j].restPosition.applyRotationQuaternion(Quaternion.RotationAxis(Vector3.Right(), (40 * Math.PI) / 180));
        }
        const rig = { ...base, joints };
        const avatar = BuildHumanoidAvatar(rig);
        const { nodes } = CreateTransformNodesFromRig(rig, new Scene(new NullEngine()));
        const animator = new HumanoidAnimator(avatar, nodes as TransformNode[], { rootMotion: "clip", footPlanting: false });
        animator.play(clip, { loop: false });
        const bodyTurnPerFrame = 360 / (clip.frameCount - 1);
        let worst = 0;
        const last: Array<Vector3 | null> = [null, null];
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            for (const n of nodes) n.computeWorldMatrix(true);
            [
                [HumanBone.LeftFoot, HumanBone.LeftToes],
                [HumanBone.RightFoot, HumanBone.RightToes],
            ].forEach(([foot, toes], s) => {
                const d = nodes[avatar.getJoint(toes)].getAbsolutePosition().subtract(nodes[avatar.getJoint(foot)].getAbsolutePosition()).normalize();
                const before = last[s];
                if (before) worst = Math.max(worst, (Math.acos(Math.min(1, Vector3.Dot(before, d))) * 180) / Math.PI);
                last[s] = d;
            });
        }
        // Before: up to 7.4 and 15.6 times the body's turn in a frame as it passed upside down (here
        // 2.5 and 2.6; the walk's own swing of the feet turns them 2.4 times as fast at most).
        expect(worst).toBeLessThan(3 * bodyTurnPerFrame);
        animator.dispose();
    });
});
