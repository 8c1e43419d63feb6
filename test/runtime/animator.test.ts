import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBodyPart,
    HumanBone,
    HumanoidAnimator,
    HumanoidScenePlugin,
    MuscleIndexFromName,
    RegisterHumanoidPlugin,
    SampleCharacters,
    SolveTwoBonePositionsToRef,
    type HumanoidAvatar,
    type MuscleClip,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { gc, HEAP_GROWTH_LIMIT, HeapGrowth, YoungBytesPerCall } from "../helpers/allocation.js";

/** A sample character with nodes in a NullEngine scene. */
function sampleCharacter(index: number, scene: Scene): { avatar: HumanoidAvatar; nodes: readonly TransformNode[]; root: TransformNode } {
    const rig = BuildSampleRig(SampleCharacters[index]);
    const avatar = BuildHumanoidAvatar(rig);
    const { root, nodes } = CreateTransformNodesFromRig(rig, scene);
    return { avatar, nodes, root };
}

/** The sample walk converted on a sample character. */
function sampleWalkClip(index = 0, seconds = 2.2): MuscleClip {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[index]));
    return ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, seconds, 30));
}

function newScene(): Scene {
    return new Scene(new NullEngine());
}

const world = (n: TransformNode): Vector3 => n.computeWorldMatrix(true).getTranslation();

/** World matrices of a node hierarchy, top-down. */
function refresh(nodes: readonly TransformNode[]): void {
    for (const n of nodes) n.computeWorldMatrix(true);
}

describe("two-bone IK positions", () => {
    const a = new Vector3(0, 1, 0);
    const b = new Vector3(0, 0.55, 0.05);
    const c = new Vector3(0, 0.1, 0);
    const pole = new Vector3(0, 0, 1);
    const nb = new Vector3();
    const nc = new Vector3();

    test("a reachable target is met with bone lengths kept and the knee on its side", () => {
        const l1 = Vector3.Distance(a, b);
        const l2 = Vector3.Distance(b, c);
        const k = SolveTwoBonePositionsToRef(a, b, c, new Vector3(0.2, 0.3, 0.1), pole, l1, l2, 0.05, 0, nb, nc);
        expect(k).toBe(1);
        expect(Vector3.Distance(nc, new Vector3(0.2, 0.3, 0.1))).toBeLessThan(1e-9);
        expect(Vector3.Distance(a, nb)).toBeCloseTo(l1, 9);
        expect(Vector3.Distance(nb, nc)).toBeCloseTo(l2, 9);
        expect(nb.z).toBeGreaterThan(0.01); // the knee stays on its side
    });

    test("stretch starts at 95% reach, is smooth, never passes 5%, and flags what is out of reach", () => {
        const l1 = 0.45;
        const l2 = 0.45;
        const L = l1 + l2;
        let last = 1;
        for (let d = 0.5 * L; d < 1.2 * L; d += 0.001 * L) {
            const target = new Vector3(0, 1 - d, 0);
            const k = SolveTwoBonePositionsToRef(a, b, c, target, pole, l1, l2, 0.05, 0, nb, nc);
            if (d <= 0.95 * L) expect(k).toBe(1);
            expect(k).toBeLessThanOrEqual(1.05 + 1e-12);
            expect(k - last).toBeLessThan(0.002); // no jump
            expect(k).toBeGreaterThanOrEqual(last - 1e-12);
            last = k;
            const reached = Vector3.Distance(nc, target) < 1e-9;
            if (d < 1.03 * L) expect(reached).toBe(true);
            if (d > 1.06 * L) expect(reached).toBe(false);
            // The knee never snaps straight while stretching.
            expect(Vector3.Distance(a, nb) + Vector3.Distance(nb, nc)).toBeGreaterThan(Vector3.Distance(a, nc) - 1e-9);
        }
        expect(last).toBeCloseTo(1.05, 9);
    });

    test("the soft start has no kink where the pose's own reach crosses (1 - s) L: the knee moves smoothly with it", () => {
        // A target past the pose's reach, the pose's reach (the soft start) swept across 95% of L:
        // the knee's second differences stay those of a smooth curve (a plain max of the two
        // gives a slope step there: about 40 times larger at this step).
        const L = 0.9;
        const step = 0.0001 * L;
        const target = new Vector3(0, 1 - 0.985 * L, 0);
        const knees: Vector3[] = [];
        for (let start = 0.9 * L; start <= 0.99 * L; start += step) {
            SolveTwoBonePositionsToRef(a, b, c, target, pole, 0.45, 0.45, 0.05, start, nb, nc);
            expect(Vector3.Distance(nc, target)).toBeLessThan(1e-9);
            knees.push(nb.clone());
        }
        let worst = 0;
        for (let i = 2; i < knees.length; i++)
            worst = Math.max(
                worst,
                knees[i]
                    .subtract(knees[i - 1].scale(2))
                    .add(knees[i - 2])
                    .length(),
            );
        expect((worst / (step * step)) * L).toBeLessThan(400);
    });

    test("stretch 0 keeps the bones rigid and clamps at full length", () => {
        const k = SolveTwoBonePositionsToRef(a, b, c, new Vector3(0, -2, 0), pole, 0.45, 0.45, 0, 0, nb, nc);
        expect(k).toBe(1);
        expect(Vector3.Distance(a, nc)).toBeCloseTo(0.9, 9);
    });
});

describe("HumanoidAnimator on sample characters", () => {
    const clip = sampleWalkClip(0);

    test.each(SampleCharacters.map((s, i) => [s.name, i] as const))("%s: walks with feet on their goals, limbs at most 5%% longer, no NaN", (_name, index) => {
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(index, scene);
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
        animator.play(clip);
        const leg = animator.solver.ik.limbLength(0);
        const goal = new Vector3();
        const q = new Quaternion();
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            refresh(nodes);
            for (let g = 0; g < 4; g++) {
                const s = animator.solver.status[g];
                expect(s.stretch).toBeLessThanOrEqual(1.05 + 1e-9);
                if (g < 2 && !s.unreachable) {
                    // The foot node is where the solver aimed (its goal, moved by planting).
                    animator.solver.goalToRig(g, goal, q);
                    const foot = world(nodes[avatar.getJoint(g === 0 ? HumanBone.LeftFoot : HumanBone.RightFoot)]);
                    expect(Number.isFinite(foot.x + foot.y + foot.z)).toBe(true);
                    expect(s.error).toBeLessThan(0.01 * leg);
                }
            }
        }
        scene.getEngine().dispose();
    });

    test("root motion: in-place stays, clip travels, apply moves the root node and keeps the same world pose as clip", () => {
        const scene = newScene();
        const results: Record<string, { hips: Vector3; root: Vector3; foot: Vector3 }> = {};
        for (const mode of ["in-place", "clip", "apply"] as const) {
            const { avatar, nodes, root } = sampleCharacter(0, scene);
            const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: mode, rootNode: root, footPlanting: false });
            animator.play(clip, { loop: false });
            for (let f = 0; f < clip.frameCount; f++) animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            refresh([root, ...nodes]);
            results[mode] = {
                hips: world(nodes[avatar.getJoint(HumanBone.Hips)]),
                root: root.position.clone(),
                foot: world(nodes[avatar.getJoint(HumanBone.LeftFoot)]),
            };
        }
        const travel = Math.hypot(results.clip.hips.x, results.clip.hips.z);
        expect(travel).toBeGreaterThan(1.5); // the sample walks about 1.25 m/s for 2.2 s
        expect(Math.hypot(results["in-place"].hips.x, results["in-place"].hips.z)).toBeLessThan(0.1);
        expect(results["in-place"].root.length()).toBe(0);
        expect(Math.hypot(results.apply.root.x, results.apply.root.z)).toBeGreaterThan(1.5);
        expect(Vector3.Distance(results.apply.hips, results.clip.hips)).toBeLessThan(1e-3);
        expect(Vector3.Distance(results.apply.foot, results.clip.foot)).toBeLessThan(1e-3);
    });

    test("delta mode hands the travel over and it adds up to the clip's", () => {
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(1, scene);
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "delta" });
        const sum = new Vector3();
        let yaw = 0;
        animator.onRootMotionObservable.add((m) => {
            sum.addInPlace(m.deltaPosition);
            yaw += m.deltaYaw;
        });
        animator.play(clip, { loop: false });
        for (let f = 0; f < clip.frameCount; f++) animator.update(f === 0 ? 0 : 1 / clip.frameRate);
        // Sample walk: straight ahead (canonical +Z, the character's forward) at 1.25 m/s times the size ratio.
        const forward = Vector3.Dot(sum, avatar.frame.forward);
        expect(forward).toBeGreaterThan(1.5);
        expect(Math.abs(Vector3.Dot(sum, avatar.frame.left))).toBeLessThan(0.2 * forward);
        expect(Math.abs(yaw)).toBeLessThan(0.1);
    });

    test("planted feet hold still on the ground while the clip says they touch it", () => {
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(2, scene);
        const footNode = nodes[avatar.getJoint(HumanBone.LeftFoot)];
        const toeNode = nodes[avatar.getJoint(HumanBone.LeftToes)];
        const drift = (planting: boolean): number => {
            const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip", footPlanting: planting });
            animator.play(clip, { loop: false });
            let total = 0;
            const prev = new Vector3();
            const prevToe = new Vector3();
            let was = false;
            for (let f = 0; f < clip.frameCount; f++) {
                animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                refresh(nodes);
                const p = world(footNode);
                const t = world(toeNode);
                const contact = (animator.player.contacts & 1) !== 0;
                // The point the foot stands on (ankle, or toes once the heel lifts) is the one that moves least.
                if (was && contact) total += Math.min(Math.hypot(p.x - prev.x, p.z - prev.z), Math.hypot(t.x - prevToe.x, t.z - prevToe.z));
                was = contact;
                prev.copyFrom(p);
                prevToe.copyFrom(t);
            }
            animator.dispose();
            return total;
        };
        const held = drift(true);
        const free = drift(false);
        expect(free).toBeGreaterThan(0);
        expect(held).toBeLessThan(0.2 * free + 1e-4);
    });

    test("layers: an upper-body layer drives the arms only; cross-fade blends; loop and end events fire", () => {
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(0, scene);
        const animator = new HumanoidAnimator(avatar, nodes, { footIK: false });
        const walk = clip;
        animator.play(walk);
        const layer = animator.addLayer(1, [HumanBodyPart.LeftArm, HumanBodyPart.RightArm]);
        animator.play(walk, { startSeconds: 0.5 }, layer);
        animator.update(0);
        const base = animator.player.layers[0].pose.values;
        const top = animator.player.layers[layer].pose.values;
        const out = animator.player.pose.values;
        const arm = MuscleIndexFromName("Left Arm Front-Back");
        const leg = MuscleIndexFromName("Left Upper Leg Front-Back");
        expect(top[arm]).not.toBeCloseTo(base[arm], 3);
        expect(out[arm]).toBeCloseTo(top[arm], 6);
        expect(out[leg]).toBeCloseTo(base[leg], 6);
        animator.stop(layer);

        let loops = 0;
        let ends = 0;
        animator.onLoopObservable.add(() => loops++);
        animator.onEndObservable.add(() => ends++);
        animator.play(walk, { loop: true });
        for (let i = 0; i < 100; i++) animator.update(0.05); // 5 s of a 2.2 s loop
        expect(loops).toBe(2);
        animator.play(walk, { loop: false });
        for (let i = 0; i < 60; i++) animator.update(0.05);
        expect(ends).toBe(1);

        // Cross-fade: halfway, both clips weigh half; at the end only the new one plays.
        animator.play(walk, { loop: true });
        animator.update(0);
        const other = animator.crossFade(walk, 1, { loop: true, startSeconds: 1.1 });
        animator.update(0.5);
        expect(other.fade).toBeCloseTo(0.5, 6);
        animator.update(0.6);
        expect(animator.player.layers[0].states.filter((s) => s.clip).length).toBe(1);
    });

    test("the scene plugin: registration is idempotent, frames drive the animators, disposing removes every observer", () => {
        const scene = newScene();
        new FreeCamera("camera", new Vector3(0, 1, -5), scene);
        const before = scene.onAfterAnimationsObservable.observers.length;
        const plugin = RegisterHumanoidPlugin(scene);
        expect(RegisterHumanoidPlugin(scene)).toBe(plugin);
        expect(scene.onAfterAnimationsObservable.observers.length).toBe(before + 1);
        const { avatar, nodes } = sampleCharacter(0, scene);
        const animator = new HumanoidAnimator(avatar, nodes, { scene });
        expect(plugin.animators).toEqual([animator]);
        const hips = nodes[avatar.getJoint(HumanBone.Hips)];
        const rest = hips.rotationQuaternion!.clone();
        animator.play(clip, { startSeconds: 0.3 });
        scene.render();
        expect(hips.rotationQuaternion!.equalsWithEpsilon(rest, 1e-6)).toBe(false);
        // Stopping leaves the pose (no snap to rest).
        const posed = hips.rotationQuaternion!.clone();
        animator.stop();
        scene.render();
        expect(hips.rotationQuaternion!.equalsWithEpsilon(posed, 1e-9)).toBe(true);
        animator.dispose();
        expect(plugin.animators.length).toBe(0);
        scene.dispose();
        expect(HumanoidScenePlugin.For(scene)).toBeNull();
        expect(scene.onAfterAnimationsObservable.observers.length).toBe(0);
    });

    test("bad options get one clear error", () => {
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(0, scene);
        expect(() => new HumanoidAnimator(avatar, nodes, { stretch: 2 })).toThrow(/stretch.legs must be a share/);
        expect(() => new HumanoidAnimator(avatar, nodes, { footIK: 3 })).toThrow(/footIK must be/);
        expect(() => new HumanoidAnimator(avatar, nodes, { rootMotion: "fly" as "clip" })).toThrow(/rootMotion must be/);
        expect(() => new HumanoidAnimator(avatar, nodes.slice(1))).toThrow(/targets given for a rig of/);
    });

    test("the per-frame path does not grow the heap over 100,000 frames", () => {
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(0, scene);
        const animator = new HumanoidAnimator(avatar, nodes, { handIK: true });
        animator.play(clip, { loop: true });
        const layer = animator.addLayer(0.5, [HumanBodyPart.LeftArm]);
        animator.play(clip, { loop: true, startSeconds: 0.4 }, layer);
        for (let i = 0; i < 20_000; i++) animator.update(1 / 60);
        expect(HeapGrowth(() => animator.update(1 / 60), 100_000)).toBeLessThan(HEAP_GROWTH_LIMIT);
        for (const n of nodes) expect(Number.isFinite(n.rotationQuaternion!.w)).toBe(true);
    });

    test("the per-frame path makes no short-lived garbage either (no number boxed per frame)", () => {
        if (!gc) return; // needs --expose-gc, as npm run test:unit gives
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(0, scene);
        for (const rootMotion of ["in-place", "apply"] as const) {
            const animator = new HumanoidAnimator(avatar, nodes, { handIK: true, rootMotion });
            animator.play(clip, { loop: true });
            animator.crossFade(clip, 1e6, { loop: true, startSeconds: 0.7 });
            const layer = animator.addLayer(0.5, [HumanBodyPart.LeftArm, HumanBodyPart.Body]);
            animator.play(clip, { loop: true, startSeconds: 0.4 }, layer);
            for (let i = 0; i < 20_000; i++) animator.update(1 / 60);
            // Young-generation bytes per update. Before the per-frame path kept its numbers
            // unboxed, this was several kilobytes.
            expect(YoungBytesPerCall(() => animator.update(1 / 60))).toBeLessThan(64);
            animator.dispose();
        }
    });
});

describe("HumanoidAnimator edge cases (found in review)", () => {
    const clip = sampleWalkClip(0);

    test("a cross-fade followed by an update of no time keeps the incoming clip", () => {
        // A state fading in sits at fade 0 until time passes, and the one fading out at 1: they
        // were taken for a finished fade-out and fade-in, so a cross-fade started on a paused
        // frame (or before the scene's first frame, whose step is 0) freed the incoming clip and
        // kept the outgoing one for good.
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(0, scene);
        const animator = new HumanoidAnimator(avatar, nodes);
        animator.play(clip, { loop: true });
        animator.update(0.1);
        const incoming = animator.crossFade(clip, 1, { loop: true, startSeconds: 0.7 });
        animator.update(0);
        animator.update(0);
        expect(incoming.clip).toBe(clip);
        expect(incoming.fade).toBe(0);
        animator.update(0.5);
        expect(incoming.clip).toBe(clip);
        expect(incoming.fade).toBeCloseTo(0.5, 6);
        // The outgoing clip still fades out and is freed at the end.
        animator.update(0.6);
        const playing = animator.player.layers[0].states.filter((s) => s.clip);
        expect(playing).toEqual([incoming]);
        expect(incoming.fade).toBe(1);
    });

    test("apply mode follows the character's own frame when its rig space is turned and moved", () => {
        const scene = newScene();
        const ends: Vector3[] = [];
        for (const mode of ["clip", "apply"] as const) {
            const { avatar, nodes, root } = sampleCharacter(0, scene);
            root.rotationQuaternion = Quaternion.RotationAxis(Vector3.Up(), Math.PI / 2);
            root.position.set(5, 0, -2.8);
            refresh([root, ...nodes]);
            const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: mode, rigSpace: root, rootNode: root, footPlanting: false });
            animator.play(clip, { loop: false });
            let worst = 0;
            for (let f = 0; f < clip.frameCount; f++) {
                animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                refresh([root, ...nodes]);
                if (mode === "apply") worst = Math.max(worst, Vector3.Distance(world(nodes[avatar.getJoint(HumanBone.Hips)]), ends[f]));
                else ends.push(world(nodes[avatar.getJoint(HumanBone.Hips)]));
            }
            if (mode === "apply") expect(worst).toBeLessThan(1e-3);
        }
        // Turned a quarter about up: the walk goes along world +X.
        expect(ends[ends.length - 1].x - ends[0].x).toBeGreaterThan(1.5);
    });

    test("one long step travels and loops as many short ones", () => {
        const scene = newScene();
        const run = (steps: number, dt: number): [number, number] => {
            const { avatar, nodes } = sampleCharacter(1, scene);
            const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "delta" });
            let loops = 0;
            let travel = 0;
            animator.onLoopObservable.add(() => loops++);
            animator.onRootMotionObservable.add((m) => (travel += Vector3.Dot(m.deltaPosition, avatar.frame.forward)));
            animator.play(clip, { loop: true });
            animator.update(0);
            for (let i = 0; i < steps; i++) animator.update(dt);
            return [travel, loops];
        };
        const [shortTravel, shortLoops] = run(150, 1 / 30);
        const [longTravel, longLoops] = run(1, 5);
        expect(longLoops).toBe(shortLoops);
        expect(Math.abs(longTravel - shortTravel)).toBeLessThan(0.02 * shortTravel);
    });

    test("a clip on an upper layer alone still moves the root and keeps feet planted", () => {
        const scene = newScene();
        const { avatar, nodes, root } = sampleCharacter(0, scene);
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "apply", rootNode: root, rigSpace: root });
        const layer = animator.addLayer(1);
        animator.play(clip, { loop: false }, layer);
        let planted = 0;
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            if (animator.planting.planted[0]) planted++;
        }
        expect(root.position.length()).toBeGreaterThan(1.5);
        expect(planted).toBeGreaterThan(3);
    });

    test("bad time steps (NaN, infinite, negative) change nothing and make no NaN", () => {
        const scene = newScene();
        const { avatar, nodes } = sampleCharacter(2, scene);
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
        animator.play(clip, { loop: true });
        for (let i = 0; i < 20; i++) animator.update(1 / 30);
        const foot = nodes[avatar.getJoint(HumanBone.LeftFoot)];
        for (const bad of [NaN, Infinity, -Infinity, -0.5, 0]) {
            refresh(nodes);
            const before = world(foot);
            animator.update(bad);
            refresh(nodes);
            expect(Vector3.Distance(world(foot), before)).toBeLessThan(1e-6);
            animator.update(1 / 30);
            for (const n of nodes) expect(Number.isFinite(n.rotationQuaternion!.w + n.position.x + n.position.y + n.position.z)).toBe(true);
        }
    });

    test("two-bone IK of zero-length bones or a pole along the line stays finite", () => {
        const out = [new Vector3(), new Vector3()];
        const a = new Vector3(0, 1, 0);
        SolveTwoBonePositionsToRef(a, a, a, new Vector3(0, 0, 0), new Vector3(0, 0, 1), 0, 0, 0.05, 0, out[0], out[1]);
        expect(out.every((v) => Number.isFinite(v.x + v.y + v.z))).toBe(true);
        const d = new Vector3(1, 1, 1).normalize();
        SolveTwoBonePositionsToRef(Vector3.Zero(), d.scale(0.5), d, d.scale(0.5), d, 0.5, 0.5, 0, 0, out[0], out[1]);
        expect(out.every((v) => Number.isFinite(v.x + v.y + v.z))).toBe(true);
        expect(out[0].length()).toBeCloseTo(0.5, 6);
    });

    test("an animator that leaves the scene from its own end event does not make the next one skip a frame", () => {
        const scene = newScene();
        new FreeCamera("camera", new Vector3(0, 1, -5), scene);
        const a = sampleCharacter(0, scene);
        const b = sampleCharacter(1, scene);
        const first = new HumanoidAnimator(a.avatar, a.nodes, { scene });
        const second = new HumanoidAnimator(b.avatar, b.nodes, { scene });
        first.onEndObservable.add(() => first.dispose());
        first.play(clip, { loop: false, startSeconds: clip.durationSeconds });
        const state = second.play(clip, { loop: true });
        const engine = scene.getEngine() as NullEngine & { getDeltaTime: () => number };
        engine.getDeltaTime = () => 50;
        for (let i = 0; i < 5; i++) scene.render();
        // The first render shows the start (a fresh clip does not advance); four steps of 50 ms follow.
        expect(state.timeSeconds).toBeCloseTo(0.2, 6);
    });
});
