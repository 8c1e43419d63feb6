import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBone,
    HumanoidAnimator,
    HumanoidPoseKinematics,
    HumanPose,
    LOOK_AT_BODY_SHARE,
    MuscleIndexFromName,
    MuscleSetup,
    SampleCharacters,
    type HumanoidAvatar,
    type MuscleClip,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { LoadHumanoidAvatarFromFileAsync, type ILoadedAvatar } from "../../src/node/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;
const DEG = Math.PI / 180;

/** The head's canonical frame (X right, Y up, Z forward) in rig space after the last update, and where it looks from. */
function headFrame(animator: HumanoidAnimator): { forward: Vector3; up: Vector3; right: Vector3; head: Vector3 } {
    const setup = MuscleSetup.For(animator.avatar);
    const kin = animator.goals.kinematics;
    kin.update(animator.solver.pose); // the pose as written (the look-at may not have run)
    const j = setup.joint[HumanBone.Head];
    const f = kin.world[j].multiply(setup.tposeCanonicalInverseC0[HumanBone.Head]);
    return {
        forward: new Vector3(0, 0, 1).applyRotationQuaternion(f),
        up: new Vector3(0, 1, 0).applyRotationQuaternion(f),
        right: new Vector3(1, 0, 0).applyRotationQuaternion(f),
        head: kin.positions[j].clone(),
    };
}

/** A point `distance` away from the head, `yaw` right and `pitch` up of its forward (its frame now). */
function pointFromHead(animator: HumanoidAnimator, yaw: number, pitch: number, distance = 20): Vector3 {
    const { forward, up, right, head } = headFrame(animator);
    const d = forward
        .scale(Math.cos(yaw) * Math.cos(pitch))
        .add(right.scale(Math.sin(yaw) * Math.cos(pitch)))
        .add(up.scale(Math.sin(pitch)));
    return head.add(d.scale(distance));
}

const angleBetween = (a: Vector3, b: Vector3): number => Math.acos(Math.min(1, Math.max(-1, Vector3.Dot(a.normalizeToNew(), b.normalizeToNew()))));

/** The forward of an eye (its canonical Z) in rig space after the last update. */
function eyeForward(animator: HumanoidAnimator, eye: HumanBone): { forward: Vector3; at: Vector3 } {
    const setup = MuscleSetup.For(animator.avatar);
    const j = setup.joint[eye];
    const kin = animator.goals.kinematics;
    kin.update(animator.solver.pose);
    const w = kin.world[j];
    return { forward: new Vector3(0, 0, 1).applyRotationQuaternion(w.multiply(setup.tposeCanonicalInverseC0[eye])), at: kin.positions[j].clone() };
}

/** The checks every character gets: the head faces the point, the clamp holds, the body share, no NaN. */
function checkHead(avatar: HumanoidAvatar, nodes: ReadonlyArray<TransformNode | null | undefined>): void {
    const animator = new HumanoidAnimator(avatar, nodes);
    const tpose = new HumanPose();
    animator.applyPose(tpose);
    // Weight 0 changes nothing; the frame of the T-pose first.
    const target = pointFromHead(animator, 45 * DEG, 20 * DEG);
    const before = headFrame(animator);
    animator.lookAt.position.copyFrom(target);
    animator.lookAt.setWeights(1, 0, 1, 0, 0.5);
    animator.applyPose(tpose);
    let h = headFrame(animator);
    expect(angleBetween(h.forward, target.subtract(before.head))).toBeLessThan(0.5 * DEG);
    // No roll: the head's right stays level with the T-pose's up.
    expect(Math.abs(Vector3.Dot(h.right, before.up))).toBeLessThan(1e-6);
    // The clamp: 135 degrees to the side, clampWeight 0.5 -> 90 degrees; 0 -> all of it.
    animator.lookAt.setWeights(0);
    animator.applyPose(tpose);
    const behind = pointFromHead(animator, 135 * DEG, 0);
    animator.lookAt.position.copyFrom(behind);
    animator.lookAt.setWeights(1, 0, 1, 0, 0.5);
    animator.applyPose(tpose);
    h = headFrame(animator);
    expect(Math.abs(angleBetween(h.forward, before.forward) - 90 * DEG)).toBeLessThan(0.5 * DEG);
    animator.lookAt.setWeights(1, 0, 1, 0, 0);
    animator.applyPose(tpose);
    h = headFrame(animator);
    expect(angleBetween(h.forward, behind.subtract(before.head))).toBeLessThan(0.5 * DEG);
    // The body: bodyWeight 1, headWeight 0 -> the head faces LOOK_AT_BODY_SHARE of the turn, the chest turned.
    const chestJoint = avatar.getJoint(HumanBone.Spine);
    const chestBefore = animator.solver.pose.rotations[chestJoint].clone();
    animator.lookAt.setWeights(0);
    animator.applyPose(tpose);
    chestBefore.copyFrom(animator.solver.pose.rotations[chestJoint]);
    animator.lookAt.position.copyFrom(pointFromHead(animator, 60 * DEG, 0));
    animator.lookAt.setWeights(1, 1, 0, 0, 0.5);
    animator.applyPose(tpose);
    h = headFrame(animator);
    expect(Math.abs(angleBetween(h.forward, before.forward) - LOOK_AT_BODY_SHARE * 60 * DEG)).toBeLessThan(0.5 * DEG);
    expect(Math.abs(Quaternion.Dot(animator.solver.pose.rotations[chestJoint], chestBefore))).toBeLessThan(Math.cos(1 * DEG));
    // Eyes on a character with or without them: no NaN, nothing thrown.
    animator.lookAt.setWeights(1, 0.5, 1, 1, 0.5);
    animator.applyPose(tpose);
    for (const q of animator.solver.pose.rotations) expect(Number.isFinite(q.x + q.y + q.z + q.w)).toBe(true);
}

describe("look-at on the sample characters", () => {
    test.each(SampleCharacters.map((s, i) => [s.name, i] as const))("%s: the head faces the point, clamped, shared with the body, no roll", (_n, index) => {
        const scene = new Scene(new NullEngine());
        const rig = BuildSampleRig(SampleCharacters[index]);
        const avatar = BuildHumanoidAvatar(rig);
        const { nodes } = CreateTransformNodesFromRig(rig, scene);
        checkHead(avatar, nodes);
    });

    test.each(SampleCharacters.map((s, i) => [s.name, i] as const))(
        "%s: after the trunk, neck and head turn, the kinematics are those of the pose, to the bit (only what moved is brought up to date)",
        (_n, index) => {
            const scene = new Scene(new NullEngine());
            const rig = BuildSampleRig(SampleCharacters[index]);
            const avatar = BuildHumanoidAvatar(rig);
            const { nodes } = CreateTransformNodesFromRig(rig, scene);
            const clip: MuscleClip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 1.4, 30));
            // No limits (they act after the look-at), no eyes (they turn after the kinematics).
            const animator = new HumanoidAnimator(avatar, nodes, { jointLimits: false });
            animator.play(clip, { loop: true });
            animator.update(0);
            animator.lookAt.position.copyFrom(pointFromHead(animator, 50 * DEG, 20 * DEG, 3));
            animator.lookAt.setWeights(1, 0.8, 1, 0, 0.2);
            const kin = animator.goals.kinematics;
            const fresh = new HumanoidPoseKinematics(avatar);
            for (let i = 0; i < 40; i++) {
                animator.update(1 / 30);
                fresh.update(animator.solver.pose);
                for (const j of kin.joints) {
                    for (const c of ["x", "y", "z", "w"] as const) expect(kin.world[j][c]).toBe(fresh.world[j][c]);
                    for (const c of ["x", "y", "z"] as const) expect(kin.positions[j][c]).toBe(fresh.positions[j][c]);
                }
            }
            expect(animator.lookAt.bodyTurned).toBe(true);
        },
    );

    test("smooth when the target jumps: no step in the turn or its speed, no overshoot, and the same path at 30, 60 and 120 Hz", () => {
        const scene = new Scene(new NullEngine());
        const rig = BuildSampleRig(SampleCharacters[0]);
        const avatar = BuildHumanoidAvatar(rig);
        const { nodes } = CreateTransformNodesFromRig(rig, scene);
        const clip: MuscleClip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 1, 30));
        const paths: Array<Map<number, number>> = [];
        for (const hz of [30, 60, 120]) {
            const animator = new HumanoidAnimator(avatar, nodes);
            animator.play(clip, { loop: true, speed: 0, startSeconds: 0.3 });
            animator.update(0);
            const right = pointFromHead(animator, 60 * DEG, 0);
            const left = pointFromHead(animator, -60 * DEG, 0);
            animator.lookAt.position.copyFrom(right);
            animator.lookAt.setWeights(1, 0.3, 1, 0, 0.5);
            for (let i = 0; i < hz; i++) animator.update(1 / hz); // settled on the right
            expect(Math.abs(animator.lookAt.angles[0] - 60 * DEG)).toBeLessThan(1 * DEG);
            const settled = animator.lookAt.angles[0];
            animator.lookAt.position.copyFrom(left); // the jump
            const path = new Map<number, number>();
            const yaws: number[] = [];
            let last = settled;
            let lastSpeed = 0;
            const dt = 1 / hz;
            for (let i = 1; i <= 2 * hz; i++) {
                animator.update(dt);
                const yaw = animator.lookAt.angles[0];
                const speed = (yaw - last) / dt;
                // The speed changes by at most (its peak) * omega * dt per frame: no step.
                expect(Math.abs(speed - lastSpeed)).toBeLessThan(120 * DEG * (2 / 0.1) ** 2 * dt * 1.01);
                if (i === 1) expect(Math.abs(yaw - settled)).toBeLessThan(120 * DEG * 0.25); // not a jump
                yaws.push(yaw);
                last = yaw;
                lastSpeed = speed;
                if (Math.round(i * (120 / hz)) % 12 === 0 && i <= hz) path.set(Math.round((i * 120) / hz), yaw);
            }
            // Settled on the left within a second (0.1 degree of where it rests); no overshoot past it, no turning back.
            const rest = yaws[yaws.length - 1];
            expect(Math.abs(rest + 60 * DEG)).toBeLessThan(1 * DEG);
            expect(Math.abs(yaws[hz - 1] - rest)).toBeLessThan(0.1 * DEG);
            for (let i = 1; i < hz; i++) expect(yaws[i]).toBeLessThanOrEqual(yaws[i - 1] + 0.01 * DEG);
            expect(Math.min(...yaws)).toBeGreaterThan(rest - 0.1 * DEG);
            const h = headFrame(animator);
            expect(angleBetween(h.forward, left.subtract(h.head))).toBeLessThan(1 * DEG);
            paths.push(path);
        }
        // Frame-rate independent: the same angle at the same times (every 0.1 s).
        // (The clip stands still, but the legs' IK settles by fractions of a millimetre, so the
        // target's angle is not exactly the same at every rate.)
        for (const [t, yaw] of paths[2]) {
            expect(Math.abs(paths[0].get(t)! - yaw)).toBeLessThan(0.05 * DEG);
            expect(Math.abs(paths[1].get(t)! - yaw)).toBeLessThan(0.05 * DEG);
        }
        expect(paths[2].size).toBeGreaterThanOrEqual(9);
    });
});

describeWithData("look-at on real characters", () => {
    // The VRM and the X Bot have eyes; the KayKit mannequin has no eyes, neck or upper chest; the RiggedFigure no eyes or upper chest.
    const files = [
        "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm",
        "glb/mixamo_xbot.glb",
        "glb/kaykit_mannequin/manny_med_mod.gltf",
        "glb/khronos_RiggedFigure.glb",
    ];
    const loaded = new Map<string, ILoadedAvatar>();
    beforeAll(async () => {
        for (const f of files) loaded.set(f, await LoadHumanoidAvatarFromFileAsync(dataFile(f)));
    });
    afterAll(() => {
        for (const l of loaded.values()) l.loaded.dispose();
    });

    test.each(files)("%s: the head faces the point, clamped, shared with the body, no roll", (file) => {
        const { avatar, loaded: l } = loaded.get(file)!;
        checkHead(avatar, l.binding!.nodes);
    });

    test.each(files.slice(0, 2))("%s: the eyes turn toward the point through their muscles, within their ranges", (file) => {
        const { avatar, loaded: l } = loaded.get(file)!;
        expect(avatar.getJoint(HumanBone.LeftEye)).toBeGreaterThanOrEqual(0);
        const animator = new HumanoidAnimator(avatar, l.binding!.nodes);
        const tpose = new HumanPose();
        animator.applyPose(tpose);
        const setup = MuscleSetup.For(avatar);
        // Eyes only: a point 10 degrees right and 5 up is within their reach: each eye looks at it.
        const near = pointFromHead(animator, 10 * DEG, 5 * DEG);
        animator.lookAt.position.copyFrom(near);
        animator.lookAt.setWeights(1, 0, 0, 1, 0.5);
        animator.applyPose(tpose);
        for (const eye of [HumanBone.LeftEye, HumanBone.RightEye]) {
            const e = eyeForward(animator, eye);
            expect(angleBetween(e.forward, near.subtract(e.at))).toBeLessThan(0.5 * DEG);
        }
        // 40 degrees right is past the in-out range (20 degrees): each eye stops at its range.
        const far = pointFromHead(animator, 40 * DEG, 0);
        animator.lookAt.position.copyFrom(far);
        animator.applyPose(tpose);
        const headForward = headFrame(animator).forward;
        for (const [eye, name] of [
            [HumanBone.LeftEye, "Left Eye In-Out"],
            [HumanBone.RightEye, "Right Eye In-Out"],
        ] as const) {
            const e = eyeForward(animator, eye);
            const m = MuscleIndexFromName(name);
            const limit = Math.max(-setup.minDeg[m], setup.maxDeg[m]) * DEG;
            const turned = angleBetween(e.forward, headForward);
            expect(turned).toBeLessThanOrEqual(limit + 0.01 * DEG); // (the eye's rest may differ from the head's forward by a hair)
            expect(turned).toBeGreaterThan(limit - 0.5 * DEG);
        }
    });

    test("the KayKit mannequin (no eyes, neck or upper chest): eyes asked for, the head looks, nothing breaks", () => {
        const { avatar, loaded: l } = loaded.get(files[2])!;
        expect(avatar.getJoint(HumanBone.LeftEye)).toBe(-1);
        expect(avatar.getJoint(HumanBone.Neck)).toBe(-1);
        const animator = new HumanoidAnimator(avatar, l.binding!.nodes);
        const tpose = new HumanPose();
        animator.applyPose(tpose);
        const target = pointFromHead(animator, 30 * DEG, -10 * DEG);
        const before = headFrame(animator);
        animator.lookAt.position.copyFrom(target);
        animator.lookAt.setWeights(1, 0.5, 1, 1, 0.5);
        animator.applyPose(tpose);
        expect(angleBetween(headFrame(animator).forward, target.subtract(before.head))).toBeLessThan(0.5 * DEG);
        for (const q of animator.solver.pose.rotations) expect(Number.isFinite(q.x + q.y + q.z + q.w)).toBe(true);
    });
});
