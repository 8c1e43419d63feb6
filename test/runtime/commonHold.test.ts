import { readFileSync } from "node:fs";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    ConvertRigPosesToMuscleClip,
    CreateRigFromBvh,
    HumanBone,
    HumanoidAnimator,
    ParseBvh,
    type HumanoidAvatar,
    type IRigPose,
    type IRigPoseSource,
    type MuscleClip,
} from "../../src/index.js";
import { AnimationGroupPoseSource } from "../../src/io/animationGroupClip.js";
import { BvhPoseSource } from "../../src/io/bvhClip.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { HumanoidCommonHold } from "../../src/runtime/commonHold.js";
import type { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** Plays a clip and returns, per frame, the left knee's bend (degrees) and the left ankle's ground position (x, z, metres). */
function playLeftLeg(clip: MuscleClip, avatar: HumanoidAvatar, nodes: readonly TransformNode[]): { bend: number[]; ankle: number[][] } {
    const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
    animator.play(clip, { loop: false });
    const joints = [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, HumanBone.LeftFoot].map((b) => avatar.getJoint(b));
    const bend: number[] = [];
    const ankle: number[][] = [];
    for (let f = 0; f < clip.frameCount; f++) {
        animator.update(f === 0 ? 0 : 1 / clip.frameRate);
        const [hip, knee, foot] = joints.map((j) => {
            nodes[j].computeWorldMatrix(true);
            return nodes[j].getAbsolutePosition().clone();
        });
        const up = hip.subtract(knee).normalize();
        const down = foot.subtract(knee).normalize();
        bend.push(180 - (Math.acos(Math.max(-1, Math.min(1, Vector3.Dot(up, down)))) * 180) / Math.PI);
        ankle.push([foot.x, foot.z]);
    }
    animator.dispose();
    return { bend, ankle };
}

describeWithData("planting: a figure sliding over the floor on both feet keeps its legs", () => {
    test("the CMU jump's standing start with its whole body drifting sideways, onto another skeleton: feet held, knees bent as without the drift", () => {
        const file = "bvh/cmu_cgspeed/cmu_jump.bvh";
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file));
        const source = BuildHumanoidAvatar(bvh.rig);
        const base = new BvhPoseSource(bvh);
        // The first two seconds (standing, then the jump's take-off), and the same with the root drifting
        // along x at a tenth of the source's scale per second from 0.5 s to 1.5 s: the feet slide
        // with the body, slowly enough that they still count as in contact.
        const speed = 0.1 * MuscleSetup.For(source).scale;
        const drift = (t: number): number => (Math.min(Math.max(t, 0.5), 1.5) - 0.5) * speed;
        const window = (shift: (t: number) => number): IRigPoseSource => ({
            name: "cmu_jump start",
            source: file,
            frameRate: base.frameRate,
            durationSeconds: 2,
            warnings: [],
            samplePoseToRef(t: number, pose: IRigPose): void {
                base.samplePoseToRef(t, pose);
                pose.positions[0].x += shift(t);
            },
        });
        const still = ConvertRigPosesToMuscleClip(
            source,
            window(() => 0),
        );
        const slid = ConvertRigPosesToMuscleClip(source, window(drift));
        // The feet are down on the same frames. (Which end of a foot stands still may differ: a
        // foot the drift slides is not standing still, `DetectContactEnds` step 4.)
        expect(Array.from(slid.contacts, (c) => c & 3)).toEqual(Array.from(still.contacts, (c) => c & 3));
        // Both feet down from the second frame to past the drift (the jump leaves at 1.8 s).
        expect(slid.contacts.slice(2, Math.round(1.6 * slid.frameRate)).every((c) => (c & 3) === 3)).toBe(true);

        const target = "bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh";
        const rig = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(target), "utf8"), target)).rig;
        const avatar = BuildHumanoidAvatar(rig);
        const scene = new Scene(new NullEngine());
        const nodes = CreateTransformNodesFromRig(rig, scene).nodes;
        const a = playLeftLeg(still, avatar, nodes);
        const b = playLeftLeg(slid, avatar, nodes);
        // The knee bends as without the drift: the body follows the held feet (at most 0.17 deg
        // measured, through the body's follower, as through the spring before); bending the legs to
        // reach feet held back gave 4.5 deg.
        let worst = 0;
        for (let f = 0; f < a.bend.length; f++) worst = Math.max(worst, Math.abs(a.bend[f] - b.bend[f]));
        expect(worst).toBeLessThan(1);
        // And the feet stay held while both are down (0.4 s to 1.6 s, the drift inside): the ankle
        // moves no more than without the drift, where the source's own drift (0.1 of its scale) is
        // 9 cm on this target. (After 1.6 s the jump takes off and a held foot eases back onto the
        // clip's path, which the drift moved: that is the release, not the hold.)
        const travel = (p: number[][]): number => {
            let sum = 0;
            const from = Math.round(0.4 * slid.frameRate);
            const to = Math.round(1.6 * slid.frameRate);
            for (let f = from + 1; f <= to; f++) sum += Math.hypot(p[f][0] - p[f - 1][0], p[f][1] - p[f - 1][1]);
            return sum;
        };
        expect(travel(b.ankle)).toBeLessThan(travel(a.ankle) + 0.005);
        scene.getEngine().dispose();
    }, 120_000);
});

/**
 * KayKit's Idle_A (its first 1.5 s, both feet down throughout) and the same with its whole figure
 * drifting along x at `speed` leg lengths a second from 0.3 s to 0.8 s: both feet slide with the
 * body, slowly enough to count as in contact, as a clip whose root drifts does.
 */
async function driftingIdle(speed: number): Promise<{ still: MuscleClip; slid: MuscleClip }> {
    const general = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_anims/Med_General.glb"));
    const group = general.loaded.container!.animationGroups.find((g) => g.name === "Rig_Medium|Idle_A")!;
    const base = new AnimationGroupPoseSource(group, general.avatar, "Med_General.glb");
    const leg = MuscleSetup.For(general.avatar).legLength;
    const window = (shift: (t: number) => number): IRigPoseSource => ({
        name: "Idle_A",
        source: "Med_General.glb",
        frameRate: base.frameRate,
        durationSeconds: Math.min(1.5, base.durationSeconds),
        warnings: [],
        samplePoseToRef(t: number, pose: IRigPose): void {
            base.samplePoseToRef(t, pose);
            pose.positions[0].x += shift(t);
        },
    });
    const still = ConvertRigPosesToMuscleClip(
        general.avatar,
        window(() => 0),
    );
    const slid = ConvertRigPosesToMuscleClip(
        general.avatar,
        window((t) => (Math.min(Math.max(t, 0.3), 0.8) - 0.3) * speed * leg),
    );
    general.loaded.dispose();
    return { still, slid };
}

describeWithData("planting: the body follows a steady slide of both held feet without lag", () => {
    // A figure sliding over the floor with both feet down at half a leg a second for half a second.
    // Planting holds the feet and the body follows the hold: without it the knees bent 17.9 degrees
    // to reach feet held back; a follower lagging the slide (a critically damped spring at 8 per
    // second) bent them by 1.4; the third-order follower by 0.5 at most.
    it.each(["glb/kaykit_mannequin/manny_med_mod.gltf", "glb/mixamo_xbot.glb"])(
        "KayKit's idle sliding onto %s: knees bent as without the slide, feet held",
        async (target) => {
            const { still, slid } = await driftingIdle(0.5);
            // The feet are down on the same frames. (Which end of a foot stands still may differ: a
            // foot the drift slides is not standing still, `DetectContactEnds` step 4.)
            expect(Array.from(slid.contacts, (c) => c & 3)).toEqual(Array.from(still.contacts, (c) => c & 3));
            expect(slid.contacts.every((c) => (c & 3) === 3)).toBe(true);
            const { avatar } = await LoadHumanoidAvatarFromFileAsync(dataFile(target));
            const scene = new Scene(new NullEngine());
            const nodes = CreateTransformNodesFromRig(avatar.rig, scene).nodes;
            const a = playLeftLeg(still, avatar, nodes);
            const b = playLeftLeg(slid, avatar, nodes);
            let worst = 0;
            for (let f = 0; f < a.bend.length; f++) worst = Math.max(worst, Math.abs(a.bend[f] - b.bend[f]));
            expect(worst).toBeLessThan(0.75);
            // The planted ankle stays where it is (a tenth of a millimetre over the clip).
            let travel = 0;
            for (let f = 1; f < b.ankle.length; f++) travel += Math.hypot(b.ankle[f][0] - b.ankle[f - 1][0], b.ankle[f][1] - b.ankle[f - 1][1]);
            expect(travel).toBeLessThan(1e-3);
            scene.getEngine().dispose();
        },
        120_000,
    );
});

describe("HumanoidCommonHold", () => {
    /** What the follower reads of a solver: both feet's corrections and holds, and the position scale (1: pose units are metres). */
    const solverWith = (a: Vector3, b: Vector3): HumanoidRigSolver =>
        ({ footCorrections: [a, b], footGrounded: Float64Array.of(1, 1), positionScale: Float64Array.of(1, 0, 0, 0) }) as unknown as HumanoidRigSolver;
    const setup = { c0: Quaternion.Identity() } as unknown as MuscleSetup;

    test("follows both feet sliding together at a steady speed without lag, and starts where the hold is after a reset", () => {
        const hold = new HumanoidCommonHold(setup);
        const a = new Vector3();
        const b = new Vector3();
        const solver = solverWith(a, b);
        const shift = new Vector3();
        const dt = 1 / 30;
        const step = Float64Array.of(dt);
        // Both feet held back along x at 0.5 m/s (the clip's figure sliding forward), for a second.
        for (let f = 1; f <= 30; f++) {
            a.x = b.x = 0.5 * f * dt;
            hold.update(solver, step, shift);
        }
        expect(shift.x).toBeCloseTo(0.5, 3);
        expect(shift.z).toBeCloseTo(0, 9);
        // The feet held apart (one back, one forward): nothing in common, the body eases back to 0.
        a.x = 0.1;
        b.x = -0.1;
        for (let f = 0; f < 60; f++) hold.update(solver, step, shift);
        expect(Math.abs(shift.x)).toBeLessThan(1e-3);
        // After a reset the next update is at the hold at once.
        a.x = b.x = 0.3;
        hold.reset();
        expect(hold.update(solver, step, shift)).toBe(true);
        expect(shift.x).toBeCloseTo(0.3, 12);
    });

    test("a zero step (paused) holds it still; with no time known it goes to the hold at once", () => {
        const hold = new HumanoidCommonHold(setup);
        const a = new Vector3();
        const b = new Vector3();
        const solver = solverWith(a, b);
        const shift = new Vector3();
        const step = Float64Array.of(1 / 30);
        hold.update(solver, step, shift);
        // The hold jumps by 0.2 m: after one step the body is on its way, not there.
        a.x = b.x = 0.2;
        hold.update(solver, step, shift);
        const under = shift.x;
        expect(under).toBeGreaterThan(0);
        expect(under).toBeLessThan(0.2);
        // Paused (the frame's own step is 0, or not a number): where it was.
        const paused = Float64Array.of(0);
        for (let k = 0; k < 5; k++) hold.update(solver, paused, shift);
        paused[0] = NaN;
        hold.update(solver, paused, shift);
        expect(shift.x).toBe(under);
        // Going on, it goes on as without the pause.
        const other = new HumanoidCommonHold(setup);
        const a2 = new Vector3();
        const b2 = new Vector3();
        const solver2 = solverWith(a2, b2);
        const shift2 = new Vector3();
        other.update(solver2, step, shift2);
        a2.x = b2.x = 0.2;
        other.update(solver2, step, shift2);
        for (let f = 0; f < 10; f++) {
            hold.update(solver, step, shift);
            other.update(solver2, step, shift2);
            expect(shift.x).toBe(shift2.x);
        }
        // No time known (a pose set directly): at the hold at once.
        a.x = b.x = 0.5;
        paused[0] = 0;
        hold.update(solver, paused, shift, true);
        expect(shift.x).toBeCloseTo(0.5, 12);
    });
});

describeWithData("planting: a paused clip holds the body where it is", () => {
    // A figure sliding over the floor with both feet down, the body following the hold through its
    // follower. Paused mid-slide (steps of 0, as a paused animator gives), the body stays where it
    // is instead of snapping onto the hold (the follower trails it by a little during a slide), and
    // once playing again the motion goes on as if the pause had not been.
    test("KayKit's idle sliding onto the KayKit mannequin, paused mid-slide: nothing moves while paused, the same frames after", async () => {
        const clip = (await driftingIdle(0.5)).slid;
        const { avatar } = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        const scene = new Scene(new NullEngine());
        const nodes = CreateTransformNodesFromRig(avatar.rig, scene).nodes;
        const hips = nodes[avatar.getJoint(HumanBone.Hips)];
        const dt = 1 / clip.frameRate;
        const pauseAt = Math.round(0.5 * clip.frameRate);
        /** Plays every frame, pausing (6 updates of 0 s) after `pauseAt` when asked; the hips' world position per update. */
        const play = (pause: boolean): { frames: Vector3[]; paused: Vector3[] } => {
            const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
            animator.play(clip, { loop: false });
            const frames: Vector3[] = [];
            const paused: Vector3[] = [];
            const at = (): Vector3 => hips.computeWorldMatrix(true).getTranslation().clone();
            for (let f = 0; f < clip.frameCount; f++) {
                animator.update(f === 0 ? 0 : dt);
                frames.push(at());
                if (pause && f === pauseAt)
                    for (let k = 0; k < 6; k++) {
                        animator.update(0);
                        paused.push(at());
                    }
            }
            animator.dispose();
            return { frames, paused };
        };
        const plain = play(false);
        const held = play(true);
        // The slide is under way at the pause (the hips move a few millimetres a frame there).
        const moving = Vector3.Distance(plain.frames[pauseAt], plain.frames[pauseAt - 1]);
        expect(moving).toBeGreaterThan(1e-3);
        // Still while paused: not a hundredth of a millimetre.
        for (const p of held.paused) expect(Vector3.Distance(p, held.frames[pauseAt])).toBeLessThan(1e-5);
        // And the frames after the pause as without it.
        let worst = 0;
        for (let f = 0; f < plain.frames.length; f++) worst = Math.max(worst, Vector3.Distance(plain.frames[f], held.frames[f]));
        expect(worst).toBeLessThan(1e-5);
        scene.getEngine().dispose();
    }, 120_000);
});
