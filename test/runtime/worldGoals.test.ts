import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BindRigToTransformNode,
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBone,
    HumanIKGoal,
    HumanoidAnimator,
    SampleCharacters,
    type HumanoidAvatar,
    type IJointClamp,
    type MuscleClip,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { YoungBytesPerCall } from "../helpers/allocation.js";

/** A sample character with nodes in a NullEngine scene, its rig root moved and turned in the world. */
function character(index: number): { avatar: HumanoidAvatar; nodes: readonly TransformNode[]; root: TransformNode; scene: Scene } {
    const scene = new Scene(new NullEngine());
    const rig = BuildSampleRig(SampleCharacters[index]);
    const avatar = BuildHumanoidAvatar(rig);
    const { root, nodes } = CreateTransformNodesFromRig(rig, scene);
    root.position.set(3, 0.5, -2);
    root.rotationQuaternion = Quaternion.RotationAxis(Vector3.Up(), 0.7);
    return { avatar, nodes, root, scene };
}

function walk(index = 0): MuscleClip {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[index]));
    return ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30));
}

function refresh(nodes: readonly TransformNode[]): void {
    for (const n of nodes) n.computeWorldMatrix(true);
}
const worldOf = (n: TransformNode): Vector3 => n.computeWorldMatrix(true).getTranslation();
const node = (c: { avatar: HumanoidAvatar; nodes: readonly TransformNode[] }, bone: HumanBone): TransformNode => c.nodes[c.avatar.getJoint(bone)];

/** A right-hand goal 60% of the arm's length from the shoulder as it stands, forward and down in the character's own frame (world). */
function reachableGoal(animator: HumanoidAnimator, c: { avatar: HumanoidAvatar; nodes: readonly TransformNode[] }, root: TransformNode): Vector3 {
    const arm = animator.solver.ik.limbLength(HumanIKGoal.RightHand);
    const forward = new Vector3(0, -0.5, 1).normalize().applyRotationQuaternion(root.rotationQuaternion!);
    return worldOf(node(c, HumanBone.RightUpperArm)).add(forward.scale(0.6 * arm));
}

describe("world goals on the animator (Unity's SetIKPosition, weights, hints)", () => {
    const clip = walk(0);

    test.each(SampleCharacters.map((s, i) => [s.name, i] as const))(
        "%s: a reachable hand goal in the world is met within 1 mm, at half weight half-way",
        (_n, index) => {
            const c = character(index);
            const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root });
            animator.play(clip, { loop: true });
            animator.update(0);
            animator.update(0.3);
            refresh(c.nodes);
            const hand = node(c, HumanBone.RightHand);
            const free = worldOf(hand);
            const goal = reachableGoal(animator, c, c.root);
            animator.seek(0.3);
            animator.goals.setPosition(HumanIKGoal.RightHand, goal, 1);
            animator.update(0);
            refresh(c.nodes);
            expect(Vector3.Distance(worldOf(hand), goal)).toBeLessThan(0.001);
            expect(animator.goals.status[HumanIKGoal.RightHand].error).toBeLessThan(0.001);
            // Half weight: half-way between the clip's hand and the goal.
            animator.seek(0.3);
            animator.goals.positionWeights[HumanIKGoal.RightHand] = 0.5;
            animator.update(0);
            refresh(c.nodes);
            expect(Vector3.Distance(worldOf(hand), Vector3.Lerp(free, goal, 0.5))).toBeLessThan(0.001);
            // Weight 0: the clip's hand again, and the feet untouched by a hand goal.
            animator.goals.positionWeights[HumanIKGoal.RightHand] = 0;
            animator.seek(0.3);
            animator.update(0);
            refresh(c.nodes);
            expect(Vector3.Distance(worldOf(hand), free)).toBeLessThan(1e-6);
        },
    );

    test("with every bone limited, a hand held short of its goal by a limit says so: its status is the distance left", () => {
        const c = character(0);
        const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root, jointLimits: "all" });
        animator.play(clip, { loop: true });
        animator.update(0);
        refresh(c.nodes);
        const hand = node(c, HumanBone.RightHand);
        const shoulder = worldOf(node(c, HumanBone.RightUpperArm));
        const arm = animator.solver.ik.limbLength(HumanIKGoal.RightHand);
        let held = 0;
        // Goals at 80% of the arm's length around the shoulder, behind and across the body too.
        for (const [x, y, z] of [
            [0, 0, -1],
            [-1, 0, -1],
            [-1, 1, 0],
            [0, 1, -1],
            [0, -1, 1],
            [1, 0, 1],
        ]) {
            const dir = new Vector3(x, y, z).normalize().applyRotationQuaternion(c.root.rotationQuaternion!);
            const goal = shoulder.add(dir.scale(0.8 * arm));
            animator.goals.setPosition(HumanIKGoal.RightHand, goal, 1);
            animator.seek(0);
            animator.update(0);
            refresh(c.nodes);
            const left = Vector3.Distance(worldOf(hand), goal);
            const status = animator.goals.status[HumanIKGoal.RightHand];
            expect(Math.abs(status.error - left)).toBeLessThan(1e-3);
            expect(status.unreachable).toBe(left > 1e-4 * arm + 1e-6);
            if (left > 0.01 * arm) held++;
        }
        expect(held).toBeGreaterThan(0);
    });

    test("a rotation goal turns the hand to it (its turn from the T-pose, world); weight 0.5 is half-way", () => {
        const c = character(0);
        const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root });
        animator.play(clip, { loop: true });
        animator.update(0);
        const hand = node(c, HumanBone.LeftHand);
        const turn = Quaternion.RotationAxis(new Vector3(0.3, 1, -0.2).normalize(), 1.2);
        animator.goals.setRotation(HumanIKGoal.LeftHand, turn, 1);
        animator.update(0);
        refresh(c.nodes);
        // World rotation = turn * (the T-pose world rotation, rig space, carried into the world by the root).
        const rest = c.avatar.referenceWorld.rotations[c.avatar.getJoint(HumanBone.LeftHand)];
        const expected = turn.multiply(c.root.rotationQuaternion!.multiply(rest));
        const got = Quaternion.FromRotationMatrix(hand.computeWorldMatrix(true).getRotationMatrix());
        expect(Math.abs(Quaternion.Dot(got, expected))).toBeGreaterThan(Math.cos((0.05 * Math.PI) / 360));
        // Half weight: half-way (slerp) from the clip's hand rotation.
        animator.goals.rotationWeights[HumanIKGoal.LeftHand] = 0;
        animator.update(0);
        refresh(c.nodes);
        const clipRotation = Quaternion.FromRotationMatrix(hand.computeWorldMatrix(true).getRotationMatrix());
        animator.goals.rotationWeights[HumanIKGoal.LeftHand] = 0.5;
        animator.update(0);
        refresh(c.nodes);
        const half = Quaternion.FromRotationMatrix(hand.computeWorldMatrix(true).getRotationMatrix());
        expect(Math.abs(Quaternion.Dot(half, Quaternion.Slerp(clipRotation, expected, 0.5)))).toBeGreaterThan(Math.cos((0.05 * Math.PI) / 360));
    });

    test("a hint turns the elbow toward it, the hand staying where it was", () => {
        const c = character(0);
        const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root });
        animator.play(clip, { loop: true });
        animator.update(0);
        refresh(c.nodes);
        const hand = node(c, HumanBone.LeftHand);
        const elbow = node(c, HumanBone.LeftLowerArm);
        const shoulderNode = node(c, HumanBone.LeftUpperArm);
        const arm = animator.solver.ik.limbLength(HumanIKGoal.LeftHand);
        const shoulder = worldOf(shoulderNode);
        const goal = shoulder.add(new Vector3(0, -0.3, 0.5).normalize().scale(0.7 * arm));
        const hint = shoulder.add(new Vector3(-1, 0.5, 0).scale(arm));
        animator.goals.setPosition(HumanIKGoal.LeftHand, goal, 1);
        const across = (): number => {
            refresh(c.nodes);
            const a = worldOf(shoulderNode);
            const axis = worldOf(hand).subtract(a).normalize();
            const u = worldOf(elbow).subtract(a);
            const v = hint.subtract(a);
            u.subtractInPlace(axis.scale(Vector3.Dot(u, axis))).normalize();
            v.subtractInPlace(axis.scale(Vector3.Dot(v, axis))).normalize();
            return Math.acos(Math.min(1, Vector3.Dot(u, v)));
        };
        animator.update(0);
        const before = across();
        animator.goals.setHint(HumanIKGoal.LeftHand, hint, 1);
        animator.update(0);
        expect(across()).toBeLessThan(1e-3);
        expect(Vector3.Distance(worldOf(hand), goal)).toBeLessThan(0.001);
        animator.goals.hintWeights[HumanIKGoal.LeftHand] = 0.5;
        animator.update(0);
        expect(Math.abs(across() - before / 2)).toBeLessThan(0.02);
        expect(before).toBeGreaterThan(0.1); // the hint did turn something
    });

    test("a hand goal past the arm's reach moves the chest and spine and is met; without the body adjustment it stops short", () => {
        const c = character(0);
        const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root });
        animator.play(clip, { loop: true });
        animator.update(0);
        refresh(c.nodes);
        const hand = node(c, HumanBone.RightHand);
        const spine = node(c, HumanBone.Spine);
        const arm = animator.solver.ik.limbLength(HumanIKGoal.RightHand);
        const shoulder = worldOf(node(c, HumanBone.RightUpperArm));
        const dir = new Vector3(0.3, -0.2, 1).normalize().applyRotationQuaternion(c.root.rotationQuaternion!);
        const goal = shoulder.add(dir.scale(1.3 * arm));
        const spineBefore = spine.rotationQuaternion!.clone();
        animator.goals.setPosition(HumanIKGoal.RightHand, goal, 1);
        animator.update(0);
        refresh(c.nodes);
        expect(Vector3.Distance(worldOf(hand), goal)).toBeLessThan(0.001);
        const status = animator.goals.bodyStatus[1];
        expect(status.iterations).toBeGreaterThan(0);
        expect(Math.abs(Quaternion.Dot(spine.rotationQuaternion!, spineBefore))).toBeLessThan(Math.cos(0.01)); // the spine bent
        animator.goals.bodyAdjust = false;
        animator.update(0);
        refresh(c.nodes);
        expect(Vector3.Distance(worldOf(hand), goal)).toBeGreaterThan(0.1 * arm);
        expect(animator.goals.status[HumanIKGoal.RightHand].unreachable).toBe(true);
    });

    test("the body adjustment stays within the joint limits it is given", () => {
        const c = character(0);
        const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root });
        animator.play(clip, { loop: true });
        animator.update(0);
        refresh(c.nodes);
        // A clamp that holds the spine and chest within 10 degrees of their rest rotation.
        const rest = c.avatar.referencePose.rotations;
        const limited = new Set([HumanBone.Spine, HumanBone.Chest, HumanBone.UpperChest]);
        const max = (10 * Math.PI) / 180;
        const clamp: IJointClamp = {
            clampLocalToRef(bone, local, out) {
                const r = rest[c.avatar.getJoint(bone)];
                const delta = local.multiply(Quaternion.Inverse(r));
                if (delta.w < 0) delta.scaleInPlace(-1);
                const angle = 2 * Math.acos(Math.min(1, delta.w));
                if (!limited.has(bone) || angle <= max) {
                    out.copyFrom(local);
                    return false;
                }
                Quaternion.SlerpToRef(Quaternion.Identity(), delta, max / angle, out);
                out.multiplyToRef(r, out);
                return true;
            },
        };
        animator.goals.clamp = clamp;
        const shoulder = worldOf(node(c, HumanBone.RightUpperArm));
        const arm = animator.solver.ik.limbLength(HumanIKGoal.RightHand);
        const goal = shoulder.add(
            new Vector3(0, -0.6, 1)
                .normalize()
                .applyRotationQuaternion(c.root.rotationQuaternion!)
                .scale(1.4 * arm),
        );
        animator.goals.setPosition(HumanIKGoal.RightHand, goal, 1);
        animator.update(0);
        for (const bone of limited) {
            const j = c.avatar.getJoint(bone);
            if (j < 0) continue;
            const delta = animator.solver.pose.rotations[j].multiply(Quaternion.Inverse(rest[j]));
            expect(2 * Math.acos(Math.min(1, Math.abs(delta.w)))).toBeLessThanOrEqual(max + 1e-6);
        }
        for (const q of animator.solver.pose.rotations) expect(Number.isFinite(q.x + q.y + q.z + q.w)).toBe(true);
    });

    test("hands pinned by the clip's IK stay pinned when the look-at turns the trunk; feet stay planted", () => {
        const c = character(0);
        const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root, handIK: true });
        animator.play(clip, { loop: true });
        animator.update(0);
        animator.update(0.2);
        animator.seek(0.2);
        animator.update(0);
        refresh(c.nodes);
        const hands = [HumanBone.LeftHand, HumanBone.RightHand].map((b) => worldOf(node(c, b)));
        const feet = [HumanBone.LeftFoot, HumanBone.RightFoot].map((b) => worldOf(node(c, b)));
        const chest = node(c, HumanBone.Chest) ?? node(c, HumanBone.Spine);
        const chestBefore = chest.rotationQuaternion!.clone();
        animator.seek(0.2);
        animator.lookAt.position.copyFrom(worldOf(node(c, HumanBone.Head)).add(new Vector3(2, 0.5, 0)));
        animator.lookAt.setWeights(1, 1, 1, 0, 0.5);
        animator.update(0);
        refresh(c.nodes);
        expect(Math.abs(Quaternion.Dot(chest.rotationQuaternion!, chestBefore))).toBeLessThan(Math.cos(0.02));
        // Each hand back where the clip's IK put it, or, when the turned trunk took its shoulder out of
        // reach, as near as the arm's stretch allows (and flagged).
        [HumanBone.LeftHand, HumanBone.RightHand].forEach((b, i) => {
            const s = animator.goals.status[HumanIKGoal.LeftHand + i];
            const off = Vector3.Distance(worldOf(node(c, b)), hands[i]);
            expect(Math.abs(off - s.error)).toBeLessThan(1e-5);
            if (!s.unreachable) expect(off).toBeLessThan(0.001);
            else expect(s.stretch).toBeCloseTo(1.05, 6);
        });
        expect(animator.goals.status[HumanIKGoal.LeftHand].unreachable).toBe(false);
        [HumanBone.LeftFoot, HumanBone.RightFoot].forEach((b, i) => expect(Vector3.Distance(worldOf(node(c, b)), feet[i])).toBeLessThan(1e-6));
    });

    test("the per-frame path with world goals, hints, body adjustment and look-at makes no garbage (no number boxed)", () => {
        const c = character(0);
        // ("delta" rather than "apply": with "apply" the character walks away from the fixed goals,
        // and after the first mode's run the new paths take longer to compile than this warm-up.)
        for (const rootMotion of ["in-place", "delta"] as const) {
            const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root, handIK: 0.5, rootMotion });
            animator.play(clip, { loop: true });
            animator.update(0);
            refresh(c.nodes);
            const shoulder = worldOf(node(c, HumanBone.RightUpperArm));
            const arm = animator.solver.ik.limbLength(HumanIKGoal.RightHand);
            const forward = new Vector3(0.2, -0.3, 1).normalize().applyRotationQuaternion(c.root.rotationQuaternion!);
            animator.goals.setPosition(HumanIKGoal.RightHand, shoulder.add(forward.scale(1.2 * arm)), 1);
            animator.goals.setRotation(HumanIKGoal.RightHand, Quaternion.RotationAxis(Vector3.Up(), 0.5), 0.7);
            animator.goals.setPosition(HumanIKGoal.LeftFoot, worldOf(node(c, HumanBone.LeftFoot)).add(new Vector3(0, 0.2, 0.1)), 0.8);
            animator.goals.setHint(HumanIKGoal.LeftFoot, worldOf(node(c, HumanBone.LeftLowerLeg)).add(new Vector3(0, 0, 1)), 1);
            animator.lookAt.position.set(5, 1.5, 3);
            animator.lookAt.setWeights(1, 0.5, 1, 1, 0.5);
            for (let i = 0; i < 6000; i++) {
                if (i % 60 === 0) animator.lookAt.position.x = -animator.lookAt.position.x; // the target jumps
                animator.update(1 / 60);
            }
            for (const q of animator.solver.pose.rotations) expect(Number.isFinite(q.x + q.y + q.z + q.w)).toBe(true);
            expect(animator.goals.bodyStatus[1].iterations).toBeGreaterThan(0); // the body adjustment runs
            const perUpdate = YoungBytesPerCall(() => animator.update(1 / 60));
            if (perUpdate !== null) expect(perUpdate).toBeLessThan(64);
            animator.dispose();
        }
    });
});

describe("world goals: a foot out of reach moves the hips", () => {
    test("a foot goal on a step past the leg's reach (forward, level with the knee): the hips move toward it, the foot is met, the other foot stays", () => {
        const c = character(0);
        const animator = new HumanoidAnimator(c.avatar, c.nodes, { rigSpace: c.root, footPlanting: false });
        const clip = walk(0);
        animator.play(clip, { loop: true, speed: 0, startSeconds: 0.5 });
        animator.update(0);
        refresh(c.nodes);
        const foot = node(c, HumanBone.LeftFoot);
        const other = node(c, HumanBone.RightFoot);
        const hips = node(c, HumanBone.Hips);
        const otherBefore = worldOf(other);
        const hipsBefore = worldOf(hips);
        const leg = animator.solver.ik.limbLength(0);
        const hip = worldOf(node(c, HumanBone.LeftUpperLeg));
        // Forward and a little down (a step), 8% past the leg's reach from the hip.
        const dir = new Vector3(0, -0.35, 1).normalize().applyRotationQuaternion(c.root.rotationQuaternion!);
        const goal = hip.add(dir.scale(1.08 * leg * 1.05));
        animator.goals.setPosition(HumanIKGoal.LeftFoot, goal, 1);
        animator.update(0);
        refresh(c.nodes);
        expect(Vector3.Distance(worldOf(foot), goal)).toBeLessThan(0.001);
        expect(Vector3.Distance(worldOf(other), otherBefore)).toBeLessThan(0.001);
        expect(Vector3.Distance(worldOf(hips), hipsBefore)).toBeGreaterThan(0.01 * leg);
        // Without the body adjustment the leg stops short.
        animator.goals.bodyAdjust = false;
        animator.update(0);
        refresh(c.nodes);
        expect(animator.goals.status[HumanIKGoal.LeftFoot].unreachable).toBe(true);
    });
});

describe("world goals on a character read from the scene (BindRigToTransformNode) and moved before its animator is made", () => {
    test("the rig is in the world as it was at the binding: a world hand goal is met within 1 mm, and again once it moves on", () => {
        const scene = new Scene(new NullEngine());
        const made = CreateTransformNodesFromRig(BuildSampleRig(SampleCharacters[0]), scene);
        const binding = BindRigToTransformNode(made.root);
        const avatar = BuildHumanoidAvatar(binding.rig);
        const c = { avatar, nodes: binding.nodes };
        // Placed in the world after the binding, before the animator: a user's usual order.
        made.root.position.set(3, 0.5, -2);
        made.root.rotationQuaternion = Quaternion.RotationAxis(Vector3.Up(), 0.7);
        const animator = new HumanoidAnimator(avatar, binding.nodes);
        animator.play(walk(0), { loop: true });
        animator.update(0);
        animator.update(0.3);
        refresh(binding.nodes);
        const hand = node(c, HumanBone.RightHand);
        const goal = reachableGoal(animator, c, made.root);
        animator.seek(0.3);
        animator.goals.setPosition(HumanIKGoal.RightHand, goal, 1);
        animator.update(0);
        refresh(binding.nodes);
        expect(Vector3.Distance(worldOf(hand), goal)).toBeLessThan(0.001);
        // Moved again after the animator was made: still met.
        made.root.position.set(-1, 0, 4);
        made.root.computeWorldMatrix(true);
        refresh(binding.nodes);
        const moved = reachableGoal(animator, c, made.root);
        animator.goals.setPosition(HumanIKGoal.RightHand, moved, 1);
        animator.seek(0.3);
        animator.update(0);
        refresh(binding.nodes);
        expect(Vector3.Distance(worldOf(hand), moved)).toBeLessThan(0.001);
        scene.getEngine().dispose();
    });

    test('root motion "apply" carries the moved and turned character along its own facing, as far as an unmoved one', () => {
        const travel = (move: boolean): Vector3 => {
            const scene = new Scene(new NullEngine());
            const made = CreateTransformNodesFromRig(BuildSampleRig(SampleCharacters[0]), scene);
            const binding = BindRigToTransformNode(made.root);
            const avatar = BuildHumanoidAvatar(binding.rig);
            if (move) {
                made.root.position.set(3, 0.5, -2);
                made.root.rotationQuaternion = Quaternion.RotationAxis(Vector3.Up(), 0.7);
            }
            const start = made.root.position.clone();
            const animator = new HumanoidAnimator(avatar, binding.nodes, { rootMotion: "apply" });
            animator.play(walk(0), { loop: true });
            animator.update(0);
            for (let f = 0; f < 30; f++) animator.update(1 / 30);
            const moved = made.root.position.subtract(start);
            scene.getEngine().dispose();
            return moved;
        };
        const still = travel(false);
        const turned = travel(true);
        expect(still.length()).toBeGreaterThan(0.5);
        expect(Vector3.Distance(turned, still.applyRotationQuaternion(Quaternion.RotationAxis(Vector3.Up(), 0.7)))).toBeLessThan(0.001);
    });
});
