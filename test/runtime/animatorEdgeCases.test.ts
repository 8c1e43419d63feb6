import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBone,
    HumanIKGoal,
    HumanoidAnimator,
    HumanoidError,
    JointLimits,
    SampleCharacters,
    type HumanoidAvatar,
    type IHumanoidAnimatorOptions,
    type MuscleClip,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

// The animator's world goals, look-at and options at their edges (found in a review of the
// runtime's API): each of these failed before its fix.

const avatar: HumanoidAvatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
const walk: MuscleClip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30));

/** An animator on a fresh copy of the first sample character, and its nodes. */
function character(options: IHumanoidAnimatorOptions = {}): { animator: HumanoidAnimator; nodes: readonly TransformNode[]; scene: Scene } {
    const scene = new Scene(new NullEngine());
    const { nodes } = CreateTransformNodesFromRig(avatar.rig, scene);
    return { animator: new HumanoidAnimator(avatar, nodes, options), nodes, scene };
}

/** Every node's local rotation and position, flat. */
function snapshot(nodes: readonly TransformNode[]): number[] {
    return nodes.flatMap((n) => [...n.rotationQuaternion!.asArray(), ...n.position.asArray()]);
}

const largestDifference = (a: number[], b: number[]): number => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

describe("the animator's goals, look-at and options at their edges", () => {
    test("a look-at target passing behind the head turns it the short way, once", () => {
        // atan2's yaw jumps from +pi to -pi straight behind: smoothed, the head swept back through
        // the front (43 degrees in one frame); clamped, it flipped to the other side of the clamp
        // as the target crossed (the clamp's whole width in one frame), and every frame for a
        // target held there.
        for (const [clampWeight, smoothTime] of [
            [0, 0.1],
            [0.5, 0],
        ]) {
            const { animator, nodes } = character();
            animator.play(walk, { loop: true, speed: 0 });
            animator.update(0);
            const head = nodes[avatar.getJoint(HumanBone.Head)];
            const at = head.computeWorldMatrix(true).getTranslation();
            animator.lookAt.setWeights(1, 0, 1, 0, clampWeight);
            animator.lookAt.smoothTime = smoothTime;
            // The sample character faces +Z: from its left round behind it (0.5 degree a frame),
            // then held a degree either side of straight behind. The largest turn of the head in
            // one frame, while it sweeps and while it is held.
            const worst = [0, 0];
            let previous: Quaternion | null = null;
            const look = (deg: number, phase: number): void => {
                const r = (deg * Math.PI) / 180;
                animator.lookAt.position.set(at.x + 2 * Math.sin(r), at.y, at.z + 2 * Math.cos(r));
                animator.update(1 / 60);
                head.computeWorldMatrix(true);
                const q = head.absoluteRotationQuaternion.clone();
                if (previous) worst[phase] = Math.max(worst[phase], (2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(previous, q)))) * 180) / Math.PI);
                previous = q;
            };
            // (Unclamped, a target further round than BEHIND_BAND past straight behind has the head
            // unwind the other way: a sweep, smoothed.)
            for (let deg = 90; deg <= 192; deg += 0.5) look(deg, 0);
            for (let deg = 192; deg >= 181; deg -= 0.5) look(deg, 0);
            for (let i = 0; i < 20; i++) look(i % 2 ? 179 : 181, 1);
            // Before: 43 degrees in one frame (smoothed, unclamped) and 180 (clamped, not smoothed).
            expect(worst[0]).toBeLessThan(5);
            // A target jumping 2 degrees across straight behind every frame: the head wobbles by a few.
            expect(worst[1]).toBeLessThan(10);
        }
    });

    test("the world goals' trunk moves within the joint limits the solver has now", () => {
        // The goals took the solver's limits once, when first made; limits set after kept the old.
        const poses: number[][] = [];
        for (const goalsFirst of [true, false]) {
            const { animator, nodes } = character({ jointLimits: "all" });
            animator.play(walk, { loop: true });
            animator.update(0);
            const far = new Vector3(-150, 150, 60);
            if (goalsFirst) animator.goals.setPosition(HumanIKGoal.LeftHand, far);
            animator.solver.jointLimits = null;
            if (!goalsFirst) animator.goals.setPosition(HumanIKGoal.LeftHand, far);
            animator.seek(0.3);
            animator.update(0);
            poses.push(snapshot(nodes));
        }
        expect(largestDifference(poses[0], poses[1])).toBeLessThan(1e-9);
        // And the other way: limits put on after the goals.
        const { animator } = character({ jointLimits: false });
        animator.goals.setPosition(HumanIKGoal.LeftHand, new Vector3(-150, 150, 60));
        animator.solver.jointLimits = new JointLimits(avatar, "all");
        animator.play(walk, { loop: true });
        animator.update(1 / 30);
        expect((animator.goals as unknown as { clamp: unknown }).clamp).toBe(animator.solver.jointLimits);
    });

    test("goals that are not finite are refused at the call, and never reach the nodes", () => {
        const { animator, nodes } = character({ handIK: true });
        animator.play(walk, { loop: true });
        animator.update(1 / 30);
        expect(() => animator.goals.setRotation(HumanIKGoal.LeftHand, new Quaternion(NaN, 0, 0, 1))).toThrow(HumanoidError);
        expect(() => animator.goals.setPosition(HumanIKGoal.LeftHand, new Vector3(0, Infinity, 0))).toThrow(HumanoidError);
        expect(() => animator.goals.setHint(HumanIKGoal.LeftHand, new Vector3(NaN, 0, 0))).toThrow(HumanoidError);
        // Written straight into the public arrays: that goal counts as none.
        animator.goals.rotations[HumanIKGoal.LeftHand].set(NaN, 0, 0, 1);
        animator.goals.rotationWeights[HumanIKGoal.LeftHand] = 1;
        animator.goals.positions[HumanIKGoal.RightHand].set(NaN, 1, 0);
        animator.goals.positionWeights[HumanIKGoal.RightHand] = 1;
        animator.update(1 / 30);
        expect(snapshot(nodes).every(Number.isFinite)).toBe(true);
        const status = animator.goals.status[HumanIKGoal.RightHand];
        expect(Number.isFinite(status.error)).toBe(true);
    });

    test("weights written straight into the public arrays count within 0..1", () => {
        const poses: number[][] = [];
        for (const weight of [1, 2]) {
            const { animator, nodes } = character({ handIK: true });
            animator.play(walk, { loop: true });
            animator.update(0);
            animator.goals.setPosition(HumanIKGoal.LeftHand, new Vector3(0.5, 1.2, 0.3));
            animator.goals.positionWeights[HumanIKGoal.LeftHand] = weight;
            animator.lookAt.position.set(1, 1.5, 1);
            animator.lookAt.setWeights(1, 0.5);
            animator.lookAt.weight = weight;
            animator.lookAt.headWeight = weight;
            animator.update(1 / 30);
            poses.push(snapshot(nodes));
        }
        expect(largestDifference(poses[0], poses[1])).toBeLessThan(1e-9);
    });

    test("options of the wrong kind, and calls on a disposed animator, get one clear error", () => {
        const wrong: IHumanoidAnimatorOptions[] = [
            { contactBlendSeconds: -1 },
            { contactBlendSeconds: NaN },
            { footPlanting: "no" as unknown as boolean },
            { translationDoF: 1 as unknown as boolean },
            { stretch: "0.3" as unknown as number },
            { rootNode: {} as unknown as TransformNode },
            { rigSpace: 42 as unknown as TransformNode },
        ];
        for (const options of wrong) expect(() => character(options)).toThrow(HumanoidError);
        const { animator, scene } = character();
        expect(() => {
            (animator.player as { rootMotion: string }).rootMotion = "bogus";
        }).toThrow(HumanoidError);
        expect(animator.player.rootMotion).toBe("in-place");
        animator.dispose();
        expect(() => animator.attachToScene(scene)).toThrow(HumanoidError);
        expect(() => animator.play(walk)).toThrow(HumanoidError);
        expect(animator.scene).toBe(null);
        expect(animator.player.isPlaying).toBe(false);
    });
});
