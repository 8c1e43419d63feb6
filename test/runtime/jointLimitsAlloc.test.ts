import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBodyPart,
    HumanBone,
    HumanoidAnimator,
    SampleCharacters,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { HEAP_GROWTH_LIMIT, HeapGrowth, YoungBytesPerCall } from "../helpers/allocation.js";

/**
 * The per-frame path with every joint limit on and a mirrored clip: no heap growth and no
 * short-lived garbage (the pattern of test/runtime/animator.test.ts).
 */
describe("joint limits and mirroring on the per-frame path", () => {
    const rig = BuildSampleRig(SampleCharacters[0]);
    // Tight limits (a knee that bends 10 degrees at most, an upper arm that hardly twists, a spine
    // that hardly turns: decode eases it in), so the clamps and the soft limit act every frame.
    const avatar = BuildHumanoidAvatar(rig, {
        jointLimits: {
            limits: {
                spine: {
                    twistDeg: [-1, 1],
                    swingDeg: [
                        [-1, -1],
                        [1, -1],
                        [1, 1],
                        [-1, 1],
                    ],
                },
                leftLowerLeg: {
                    swingDeg: [
                        [-5, 1],
                        [5, 1],
                        [5, -10],
                        [-5, -10],
                    ],
                },
                rightUpperArm: { twistDeg: [-1, 1] },
                // An elbow that bends 10 degrees at most either way: decode gives it past that.
                leftLowerArm: {
                    swingDeg: [
                        [-5, 10],
                        [5, 10],
                        [5, -10],
                        [-5, -10],
                    ],
                },
            },
        },
    });
    const clip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30));

    test("every limit on, a mirrored layer: the heap does not grow and an update leaves no garbage", () => {
        const scene = new Scene(new NullEngine());
        const { nodes } = CreateTransformNodesFromRig(rig, scene);
        const animator = new HumanoidAnimator(avatar, nodes, { handIK: true, jointLimits: "all" });
        animator.play(clip, { loop: true });
        const layer = animator.addLayer(0.5, [HumanBodyPart.LeftArm, HumanBodyPart.Body]);
        animator.play(clip, { loop: true, startSeconds: 0.4, mirror: true }, layer);
        // The limits act on this walk (something to be allocation-free about): the clamps after IK,
        // and decode's soft limit on the spine (counted through a wrapper while it is there).
        const limits = animator.solver.jointLimits!;
        const soft = limits.softLimitCanonicalToRef.bind(limits);
        let eased = 0;
        limits.softLimitCanonicalToRef = (b, q, out) => {
            const moved = soft(b, q, out);
            if (moved && b === HumanBone.Spine) eased++;
            return moved;
        };
        let clamped = 0;
        for (let i = 0; i < 200; i++) {
            animator.update(1 / 60);
            if (limits.changed.some((c) => c > 0)) clamped++;
        }
        delete (limits as { softLimitCanonicalToRef?: unknown }).softLimitCanonicalToRef;
        for (let i = 0; i < 10_000; i++) animator.update(1 / 60);
        expect(clamped).toBeGreaterThan(0);
        expect(eased).toBeGreaterThan(100);
        expect(HeapGrowth(() => animator.update(1 / 60), 30_000)).toBeLessThan(HEAP_GROWTH_LIMIT);
        const perUpdate = YoungBytesPerCall(() => animator.update(1 / 60));
        if (perUpdate !== null) expect(perUpdate).toBeLessThan(64); // the count needs --expose-gc, as npm run test:unit gives
        for (const n of nodes) expect(Number.isFinite(n.rotationQuaternion!.w)).toBe(true);
        animator.dispose();
    });

    test("an elbow given past its limit (no hand IK): the heap does not grow and an update leaves no garbage", () => {
        const scene = new Scene(new NullEngine());
        const { nodes } = CreateTransformNodesFromRig(rig, scene);
        const animator = new HumanoidAnimator(avatar, nodes, {});
        animator.play(clip, { loop: true });
        const limits = animator.solver.jointLimits!;
        const give = limits.giveCanonicalToRef.bind(limits);
        let given = 0;
        limits.giveCanonicalToRef = (b, q, out) => {
            const moved = give(b, q, out);
            if (moved && b === HumanBone.LeftLowerArm && limits.overshootShare[b] === 1) given++;
            return moved;
        };
        for (let i = 0; i < 200; i++) animator.update(1 / 60);
        delete (limits as { giveCanonicalToRef?: unknown }).giveCanonicalToRef;
        expect(given).toBeGreaterThan(50);
        for (let i = 0; i < 10_000; i++) animator.update(1 / 60);
        expect(HeapGrowth(() => animator.update(1 / 60), 30_000)).toBeLessThan(HEAP_GROWTH_LIMIT);
        const perUpdate = YoungBytesPerCall(() => animator.update(1 / 60));
        if (perUpdate !== null) expect(perUpdate).toBeLessThan(64);
        animator.dispose();
    });
});
