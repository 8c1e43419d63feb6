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
    type MuscleClip,
} from "../../src/index.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { FoldMissingShouldersFastInPlace, MissingShoulderFold, SHOULDER_FAST_SECONDS } from "../../src/muscle/shoulderFold.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import fc from "fast-check";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { type IArmPaths, PlayArmPaths, PathSpread as spread, ShoulderLayoutArbitrary, ShoulderShake } from "../helpers/shoulderShake.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const B = HumanBone;
const FIGURE = "glb/khronos_RiggedFigure.glb";

/**
 * The readable form of `FoldMissingShouldersFastInPlace` for one side, with Babylon's allocating
 * math: the oracle of the fast path.
 */
function referenceFold(
    setup: MuscleSetup,
    q: Quaternion[],
    layout: Float64Array,
    slowBefore: Quaternion,
    follow: number,
    side: 0 | 1,
): { slow: Quaternion; upper: Quaternion; lower: Quaternion } {
    const [sh, ua, la] = side === 0 ? [B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm] : [B.RightShoulder, B.RightUpperArm, B.RightLowerArm];
    const raw = q[sh];
    // Following all the way: the pose's own turn, folded as a rotation only.
    if (follow >= 1) return { slow: raw.clone(), upper: q[ua].clone(), lower: q[la].clone() };
    // The slow turn follows the pose's by `follow` (a normalized lerp, on raw's side of the sphere).
    const near = Quaternion.Dot(slowBefore, raw) < 0 ? raw.scale(-1) : raw;
    const slow = slowBefore.add(near.subtract(slowBefore).scale(follow)).normalize();
    // The collarbone (this character's scale, times the share of the pose with a layout) turned by
    // the whole turn, less by the slow part.
    const o = side === 0 ? 3 : 9;
    const share = layout.length > 12 ? Math.min(1, layout[12]) : 1;
    const collar = new Vector3(layout[o], layout[o + 1], layout[o + 2]).scale(setup.scale * share);
    let socketMove = collar.applyRotationQuaternion(raw).subtract(collar.applyRotationQuaternion(slow));
    // The upper arm as folded, and the least turn that puts its elbow where the socket's move (at
    // most a quarter of the upper arm) takes it.
    const ref = setup.avatar.referenceWorld.positions;
    const upperArm = ref[setup.joint[la]].subtract(ref[setup.joint[ua]]).applyRotationQuaternion(setup.c0Inverse).applyRotationQuaternion(q[ua]);
    if (socketMove.length() > 0.25 * upperArm.length()) socketMove = socketMove.scale((0.25 * upperArm.length()) / socketMove.length());
    const turn = new Quaternion();
    Quaternion.FromUnitVectorsToRef(upperArm.normalizeToNew(), upperArm.add(socketMove).normalize(), turn);
    const upper = turn.multiply(q[ua]);
    // The lower arm keeps its turn in the world: upper' * lower' = upper * lower.
    const lower = Quaternion.Inverse(upper).multiply(q[ua]).multiply(q[la]);
    return { slow, upper, lower };
}

describeWithData("a missing shoulder's fast turns fold in by place", () => {
    let figure: HumanoidAvatar;
    beforeAll(async () => {
        figure = (await LoadHumanoidAvatarFromFileAsync(dataFile(FIGURE))).avatar;
    }, 60_000);

    test("the fast path is its readable form's (random turns on either side of the sphere, layouts with and without a share, following any way)", () => {
        const setup = MuscleSetup.For(figure);
        const fold = new MissingShoulderFold(setup);
        expect(Array.from(fold.sides)).toEqual([1, 1]);
        const turn = UnitQuaternionArbitrary();
        const layoutArb = ShoulderLayoutArbitrary();
        const followArb = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(1));
        fc.assert(
            fc.property(
                fc.constantFrom(0 as const, 1 as const),
                layoutArb,
                fc.array(turn, { minLength: 4, maxLength: 4 }),
                followArb,
                (side, layoutValues, turns, follow) => {
                    const layout = Float64Array.from(layoutValues);
                    const q = Array.from({ length: setup.joint.length }, () => Quaternion.Identity());
                    const [sh, ua, la] = side === 0 ? [B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm] : [B.RightShoulder, B.RightUpperArm, B.RightLowerArm];
                    [q[sh], q[ua], q[la]] = [turns[0], turns[1], turns[2]].map((t) => t.clone());
                    const slowBefore = turns[3];
                    fold.slow[side].copyFrom(slowBefore);
                    // The other side: its slow turn is its pose's own, so nothing moves there.
                    const other = side === 0 ? B.RightUpperArm : B.LeftUpperArm;
                    fold.slow[1 - side].copyFrom(q[side === 0 ? B.RightShoulder : B.LeftShoulder]);
                    fold.known.fill(1);
                    fold.follow[0] = follow;
                    const want = referenceFold(setup, q, layout, slowBefore, follow, side);
                    const otherBefore = q[other].clone();
                    FoldMissingShouldersFastInPlace(setup, q, layout, fold);
                    for (const [got, expected] of [
                        [fold.slow[side], want.slow],
                        [q[ua], want.upper],
                        [q[la], want.lower],
                    ] as const) {
                        // The same rotation (either sign).
                        expect(Math.abs(Quaternion.Dot(got, expected))).toBeCloseTo(1, 10);
                    }
                    expect(Math.abs(Quaternion.Dot(q[other], otherBefore))).toBeCloseTo(1, 12);
                    expect(Array.from(fold.applied)).toEqual([1, 1]);
                },
            ),
            { numRuns: 500, seed: 11 },
        );
    });

    test("a side whose slow turn is not known yet starts from the pose's own and moves nothing; a layout of NaN does nothing", () => {
        const setup = MuscleSetup.For(figure);
        const fold = new MissingShoulderFold(setup);
        const q = Array.from({ length: setup.joint.length }, (_, b) => Quaternion.RotationAxis(new Vector3(1, b % 3, 2).normalize(), 0.1 * (b % 7)));
        const before = q.map((r) => r.clone());
        const layout = Float64Array.from({ length: 12 }, () => 0.1);
        FoldMissingShouldersFastInPlace(setup, q, layout, fold);
        expect(Array.from(fold.known)).toEqual([1, 1]);
        q.forEach((r, b) => expect(r.equals(before[b])).toBe(true));
        fold.known.fill(1);
        fold.slow[0].copyFromFloats(0, 0, 0, 1);
        FoldMissingShouldersFastInPlace(setup, q, new Float64Array(12).fill(NaN), fold);
        q.forEach((r, b) => expect(r.equals(before[b])).toBe(true));
        // ... and forgets the slow turns, so a layout coming back starts them afresh.
        expect(Array.from(fold.known)).toEqual([0, 0]);
        expect(Array.from(fold.applied)).toEqual([0, 0]);
    });

    test("noteStep: the slow turns follow by 1 - exp(-step / fastSeconds); over a zero step not at all; with no step, or fastSeconds 0, all the way", () => {
        const fold = new MissingShoulderFold(MuscleSetup.For(figure));
        fold.noteStep(Float64Array.of(1 / 120));
        expect(fold.follow[0]).toBeCloseTo(1 - Math.exp(-1 / 120 / SHOULDER_FAST_SECONDS), 15);
        fold.noteStep(Float64Array.of(0));
        expect(fold.follow[0]).toBe(0);
        fold.noteStep(null);
        expect(fold.follow[0]).toBe(1);
        fold.fastSeconds = 0;
        fold.noteStep(Float64Array.of(1 / 120));
        expect(fold.follow[0]).toBe(1);
    });
});

describeWithData("a missing shoulder's fold on a character, played", () => {
    let figure: HumanoidAvatar;
    let nodes: readonly TransformNode[];
    let scene: Scene;
    let source: HumanoidAvatar;
    beforeAll(async () => {
        figure = (await LoadHumanoidAvatarFromFileAsync(dataFile(FIGURE))).avatar;
        scene = new Scene(new NullEngine());
        const { CreateTransformNodesFromRig } = await import("../../src/io/rigNodes.js");
        nodes = CreateTransformNodesFromRig(figure.rig, scene).nodes;
        source = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    }, 60_000);
    afterAll(() => scene.getEngine().dispose());

    /** The arms' paths on RiggedFigure, played with the fold's time constant `fastSeconds`. */
    const play = (clip: MuscleClip, fastSeconds: number): IArmPaths =>
        PlayArmPaths(figure, nodes, clip, (animator) => void (animator.solver.shoulderFold!.fastSeconds = fastSeconds));

    test("a shake the source's upper arm cancels (30 Hz): the figure's elbow and hand stay nearly still, where the rotation fold shook them", () => {
        const clip = ConvertRigPosesToMuscleClip(source, new ShoulderShake(source, 30, 3, true));
        const folded = play(clip, SHOULDER_FAST_SECONDS);
        const turned = play(clip, 0);
        // The rotation fold moves the elbow by the upper arm's shake: millimetres.
        expect(spread(turned.elbow)).toBeGreaterThan(0.002);
        // Folded by place, what is left is the low-pass's lag: at 30 Hz a first-order low-pass of
        // 20 ms still passes a quarter of the shake, a phase away (|1 / (1 + i w tau)| = 0.26).
        expect(spread(folded.elbow)).toBeLessThan(0.4 * spread(turned.elbow));
        expect(spread(folded.hand)).toBeLessThan(0.4 * spread(turned.hand));
    }, 120_000);

    test("a shake forward and back that the source's upper arms cancel, both sides (30 Hz): the elbows stay nearly still from the hips (the shoulder line's step turns the chest by the slow part only)", () => {
        // Found by a review: the line's step turned the chest by the whole turn, so the fast part
        // moved the elbows twice (once by place, once with the chest).
        const clip = ConvertRigPosesToMuscleClip(source, new ShoulderShake(source, 30, 3, true, "up", true));
        const folded = play(clip, SHOULDER_FAST_SECONDS);
        const turned = play(clip, 0);
        for (const s of [0, 1]) {
            expect(spread(turned.elbowsFromHips[s])).toBeGreaterThan(0.001);
            expect(spread(folded.elbowsFromHips[s])).toBeLessThan(0.6 * spread(turned.elbowsFromHips[s]));
        }
    }, 120_000);

    test("after a seek (a jump in time), nothing moves by place on the next frame: the slow turns start afresh", () => {
        const clip = ConvertRigPosesToMuscleClip(source, new ShoulderShake(source, 0.5, 20, false));
        const animator = new HumanoidAnimator(figure, nodes, { rootMotion: "in-place" });
        animator.play(clip);
        for (let f = 0; f < 30; f++) animator.update(f === 0 ? 0 : 1 / clip.frameRate);
        // Half a period on: the shoulder turned the other way.
        animator.seek(1.0);
        animator.update(0);
        const fold = animator.solver.shoulderFold!;
        expect(fold.known[0]).toBe(1);
        const after = animator.solver.pose.rotations.map((r) => r.clone());
        // The same frame decoded as a rotation fold only: the same pose.
        fold.fastSeconds = 0;
        animator.seek(1.0);
        animator.update(0);
        animator.solver.pose.rotations.forEach((r, j) => expect(Math.abs(Quaternion.Dot(r, after[j]))).toBeCloseTo(1, 9));
        animator.dispose();
    }, 120_000);

    test("a slow shrug with the arm going along (0.5 Hz): the upper arm points as the rotation fold has it, within a degree", () => {
        const clip = ConvertRigPosesToMuscleClip(source, new ShoulderShake(source, 0.5, 15, false));
        const folded = play(clip, SHOULDER_FAST_SECONDS);
        const turned = play(clip, 0);
        let most = 0;
        folded.upperArm.forEach((d, f) => (most = Math.max(most, Math.acos(Math.min(1, Vector3.Dot(d, turned.upperArm[f]))))));
        expect((most * 180) / Math.PI).toBeLessThan(1);
        // ... and the shrug does move it (the test would pass on a figure that ignores shoulders).
        let swing = 0;
        turned.upperArm.forEach((d) => (swing = Math.max(swing, Math.acos(Math.min(1, Vector3.Dot(d, turned.upperArm[0]))))));
        expect((swing * 180) / Math.PI).toBeGreaterThan(5);
    }, 120_000);
});
