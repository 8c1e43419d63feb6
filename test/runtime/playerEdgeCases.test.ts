import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBodyPart,
    HumanBone,
    HumanoidAnimator,
    HumanoidClipPlayer,
    HumanoidError,
    MAX_LOOPS_PER_STEP,
    SampleCharacters,
    type MuscleClip,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { MUSCLE_PART } from "../../src/runtime/bodyParts.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

// The clip player's calls in unusual orders and with unusual numbers (found in a review of the
// playback API): each of these failed before its fix.

/** The sample walk converted on the first sample character (2.2 s at 30 fps, contacts found by conversion). */
function sampleWalk(seconds = 2.2): MuscleClip {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    return ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, seconds, 30));
}

const walk = sampleWalk();
const shorter = sampleWalk(1.3);

describe("the clip player's edge cases", () => {
    test('"clip" root motion: a cross-fade is no jump (planting and the body\'s smoothing go on)', () => {
        // Cross-fading the walk into itself at the same time shows the same motion: the left
        // foot must go where it goes without the fade. Taken for a jump, the ground was
        // re-anchored and planting reset mid-stride: the held foot popped by up to 3 cm.
        const feet: number[][] = [];
        for (const fade of [false, true]) {
            const scene = new Scene(new NullEngine());
            const rig = BuildSampleRig(SampleCharacters[0]);
            const avatar = BuildHumanoidAvatar(rig);
            const { root, nodes } = CreateTransformNodesFromRig(rig, scene);
            const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip", rootNode: root, rigSpace: root });
            const foot = nodes[avatar.getJoint(HumanBone.LeftFoot)] as TransformNode;
            animator.play(walk, { loop: true });
            animator.update(0);
            const path: number[] = [];
            for (let f = 1; f <= 40; f++) {
                if (fade && f === 20) {
                    const now = animator.player.layers[0].states.find((s) => s.clip)!.timeSeconds;
                    animator.crossFade(walk, 0.3, { loop: true, startSeconds: now + 1 / 30 });
                }
                animator.update(1 / 30);
                if (fade && f === 20) expect(animator.player.jumped).toBe(false);
                root.computeWorldMatrix(true);
                for (const n of nodes) n.computeWorldMatrix(true);
                path.push(...foot.getAbsolutePosition().asArray());
            }
            feet.push(path);
        }
        let worst = 0;
        for (let i = 0; i < feet[0].length; i++) worst = Math.max(worst, Math.abs(feet[0][i] - feet[1][i]));
        expect(worst).toBeLessThan(1e-3);
    });

    test("a second cross-fade during a fade keeps an upper layer's full share on its parts", () => {
        // Every outgoing clip fades at its share's rate, so the layer's weights keep their sum:
        // at the full rate each, they summed to 0.67 for a while and the base showed through.
        const p = new HumanoidClipPlayer("in-place");
        p.play(walk, { loop: true, speed: 0 });
        const upper = p.addLayer(1, [HumanBodyPart.LeftArm, HumanBodyPart.RightArm]);
        const held = { loop: true, speed: 0, startSeconds: 0.5 };
        p.play(walk, held, upper);
        p.update(0);
        const base = new HumanoidClipPlayer("in-place");
        base.play(walk, { loop: true, speed: 0 });
        base.update(0);
        // The left arm's muscle where the two times differ most.
        let arm = -1;
        MUSCLE_PART.forEach((part, i) => {
            if (part !== HumanBodyPart.LeftArm) return;
            const d = Math.abs(p.pose.values[i] - base.pose.values[i]);
            if (arm < 0 || d > Math.abs(p.pose.values[arm] - base.pose.values[arm])) arm = i;
        });
        const shown = p.pose.values[arm];
        expect(Math.abs(shown - base.pose.values[arm])).toBeGreaterThan(1e-2);
        p.crossFade(walk, 0.3, held, upper);
        for (const step of [0.1, 0, 0.05]) {
            p.update(step);
            if (step === 0) p.crossFade(walk, 0.3, held, upper);
            expect(p.layers[upper].total).toBeCloseTo(1, 9);
            expect(p.pose.values[arm]).toBeCloseTo(shown, 6);
        }
        for (let i = 0; i < 10; i++) {
            p.update(0.05);
            expect(p.pose.values[arm]).toBeCloseTo(shown, 6);
        }
        expect(p.layers[upper].states.filter((s) => s.clip).length).toBe(1);
    });

    test("clip weights are shares among a layer's clips on an upper layer as on the base", () => {
        // A lone clip of weight 0.5 on an upper layer gave the layer half its strength.
        const muscles: number[][] = [];
        for (const weight of [1, 0.5]) {
            const p = new HumanoidClipPlayer("in-place");
            p.play(walk, { loop: true, speed: 0 });
            const upper = p.addLayer(1, [HumanBodyPart.LeftArm, HumanBodyPart.RightArm]);
            p.play(walk, { loop: true, speed: 0, startSeconds: 0.5, weight }, upper);
            p.update(0);
            muscles.push(Array.from(p.pose.values));
        }
        expect(muscles[1]).toEqual(muscles[0]);
    });

    test("a loop handler that plays another clip gets no loop events of the new clip", () => {
        const p = new HumanoidClipPlayer("in-place");
        const events: MuscleClip[] = [];
        p.onLoopObservable.add((s) => {
            events.push(s.clip!);
            if (s.clip === walk) p.play(shorter, { loop: true });
        });
        p.play(walk, { loop: true });
        p.update(0);
        // One step across three loops of the walk: its first loop event switches the clip.
        p.update(3 * walk.durationSeconds + 0.1);
        expect(events).toEqual([walk]);
        const s = p.layers[0].states.find((x) => x.clip)!;
        expect(s.clip).toBe(shorter);
        expect(s.wraps).toBe(0);
        expect(p.looped).toBe(false);
    });

    test("speeds and steps of any size: no hang, no NaN; bad options are refused before anything changes", () => {
        const p = new HumanoidClipPlayer("delta");
        let loops = 0;
        p.onLoopObservable.add(() => loops++);
        p.play(walk, { loop: true });
        p.update(1 / 30);
        // A clear error at the call, and the layer plays on as it did.
        expect(() => p.play(shorter, { speed: Infinity })).toThrow(HumanoidError);
        expect(() => p.crossFade(shorter, 0.2, { startSeconds: NaN })).toThrow(HumanoidError);
        expect(() => p.play(shorter, { weight: -1 })).toThrow(HumanoidError);
        expect(() => p.seek(NaN)).toThrow(HumanoidError);
        expect(() => p.addLayer(NaN)).toThrow(HumanoidError);
        expect(p.layers[0].states.filter((s) => s.clip).map((s) => s.clip)).toEqual([walk]);
        // A state's speed set to millions: the step counts MAX_LOOPS_PER_STEP loops at most.
        const s = p.layers[0].states.find((x) => x.clip)!;
        s.speed = 1e9;
        expect(p.update(1 / 30)).toBe(true);
        expect(loops).toBe(MAX_LOOPS_PER_STEP);
        expect(p.rootDelta.every(Number.isFinite)).toBe(true);
        // ... and set to no number at all: it stands still.
        s.speed = Infinity;
        const at = s.timeSeconds;
        expect(p.update(1 / 30)).toBe(true);
        expect(s.timeSeconds).toBe(at);
        s.speed = 1;
        // A fade too short to take a step is a play (1 / 1e-320 is Infinity, times a step of 0 NaN).
        p.crossFade(shorter, 1e-320);
        p.update(0);
        const now = p.layers[0].states.filter((x) => x.clip);
        expect(now.map((x) => [x.clip, x.fade])).toEqual([[shorter, 1]]);
        // A layer whose weight is set to no number counts as 0.
        const upper = p.addLayer(1, [HumanBodyPart.LeftArm]);
        p.play(walk, { loop: true }, upper);
        p.layers[upper].weight = NaN;
        p.update(1 / 30);
        expect(Array.from(p.pose.values).every(Number.isFinite)).toBe(true);
        expect([p.pose.bodyPosition.x, p.pose.bodyPosition.y, p.pose.bodyPosition.z].every(Number.isFinite)).toBe(true);
    });

    test("the next contact looks the way the clip plays (a clip played backwards comes to its earlier frames)", () => {
        // Planting shortens a release when the foot lands again sooner: it asks the player when.
        for (const speed of [1, -1]) {
            const p = new HumanoidClipPlayer("in-place");
            p.play(walk, { loop: true, speed, startSeconds: 1.1 });
            p.update(0);
            const dt = 1 / 30;
            const predicted: number[] = [];
            const down: boolean[] = [];
            const io = new Float64Array(1);
            for (let i = 0; i < 70; i++) {
                io[0] = 1;
                p.nextContactToRef(0, io, 0);
                predicted.push(io[0]);
                down.push((p.contacts & 1) !== 0);
                p.update(dt);
            }
            let checked = 0;
            for (let i = 0; i < 30; i++) {
                if (down[i]) continue;
                const j = down.findIndex((d, k) => k > i && d);
                expect(j).toBeGreaterThan(i);
                expect(predicted[i]).toBeCloseTo((j - i) * dt, 6);
                checked++;
            }
            expect(checked).toBeGreaterThan(5);
        }
    });
});
