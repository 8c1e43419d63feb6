import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import fc from "fast-check";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    CreateReferenceRigPose,
    DecodeHumanPose,
    HumanBone,
    HumanoidAnimator,
    HumanPose,
    MuscleIndexFromName,
    SampleCharacters,
    type HumanoidAvatar,
    type MuscleClip,
} from "../../src/index.js";
import { ComputeRigWorldPose, type IRigPose } from "../../src/humanoid/rig.js";
import { CollarboneShake, MatchCollarboneShakeInPlace } from "../../src/muscle/collarboneShake.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { SHOULDER_FAST_SECONDS } from "../../src/muscle/shoulderFold.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import {
    type IArmPaths,
    PlayArmPaths,
    PathSpread as spread,
    ShoulderCoordinateArbitrary,
    ShoulderLayoutArbitrary,
    ShoulderShake,
} from "../helpers/shoulderShake.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const B = HumanBone;
/** A character with shoulders whose collarbones are not the built-in sample's at its scale. */
const VRM = "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm";

/**
 * The readable form of `MatchCollarboneShakeInPlace` for one side, with Babylon's allocating math:
 * the oracle of the fast path.
 */
function referenceShake(
    setup: MuscleSetup,
    q: Quaternion[],
    layout: Float64Array,
    sourceTurn: Quaternion,
    slowSourceBefore: Vector3,
    slowOwnBefore: Vector3,
    follow: number,
    side: 0 | 1,
): { slowSource: Vector3; slowOwn: Vector3; upper: Quaternion; lower: Quaternion } {
    const [sh, ua, la] = side === 0 ? [B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm] : [B.RightShoulder, B.RightUpperArm, B.RightLowerArm];
    const o = side === 0 ? 3 : 9;
    const collarbone = (l: ArrayLike<number>): Vector3 => new Vector3(l[o], l[o + 1], l[o + 2]).scale(setup.scale);
    // The two sockets from the shoulder joint: the source's collarbone at this character's scale
    // turned by the source's turn, this character's own turned by its decoded turn.
    const source = collarbone(layout).applyRotationQuaternion(sourceTurn);
    const own = collarbone(setup.clipShoulderOffsets!).applyRotationQuaternion(q[sh]);
    if (follow >= 1) return { slowSource: source, slowOwn: own, upper: q[ua].clone(), lower: q[la].clone() };
    const slowSource = Vector3.Lerp(slowSourceBefore, source, follow);
    const slowOwn = Vector3.Lerp(slowOwnBefore, own, follow);
    // The elbow's move: the source's fast part less this one's, by the share of the pose with a layout.
    const share = layout.length > 12 ? Math.min(1, Math.max(0, layout[12])) : 1;
    let move = source.subtract(slowSource).subtract(own.subtract(slowOwn)).scale(share);
    // The upper arm in the frame of the bone the shoulders hang from, turned the least that puts
    // its elbow there (the move at most a quarter of the upper arm).
    const ref = setup.avatar.referenceWorld.positions;
    const restArm = ref[setup.joint[la]].subtract(ref[setup.joint[ua]]).applyRotationQuaternion(setup.c0Inverse);
    const arm = restArm.applyRotationQuaternion(q[sh].multiply(q[ua]));
    if (move.length() > 0.25 * arm.length()) move = move.scale((0.25 * arm.length()) / move.length());
    if (move.lengthSquared() === 0) return { slowSource, slowOwn, upper: q[ua].clone(), lower: q[la].clone() };
    const turn = new Quaternion();
    Quaternion.FromUnitVectorsToRef(arm.normalizeToNew(), arm.add(move).normalize(), turn);
    // The turn is in the frame the shoulder hangs in: the shoulder's world turn then the arm's is rho Q_S Q_A.
    const upper = Quaternion.Inverse(q[sh]).multiply(turn).multiply(q[sh]).multiply(q[ua]);
    // The lower arm keeps its turn in the world: Q_S upper' lower' = Q_S Q_A Q_L.
    const lower = Quaternion.Inverse(upper).multiply(q[ua]).multiply(q[la]);
    return { slowSource, slowOwn, upper, lower };
}

describeWithData("a mapped shoulder's socket shakes as the source's", () => {
    let vrm: HumanoidAvatar;
    beforeAll(async () => {
        vrm = (await LoadHumanoidAvatarFromFileAsync(dataFile(VRM))).avatar;
    }, 60_000);

    test("the fast path is its readable form's (random turns, layouts with and without a share, following any way)", () => {
        const setup = MuscleSetup.For(vrm);
        const shake = new CollarboneShake(setup);
        expect(Array.from(shake.sides)).toEqual([1, 1]);
        const turn = UnitQuaternionArbitrary();
        const coordinate = ShoulderCoordinateArbitrary();
        const point = fc.tuple(coordinate, coordinate, coordinate).map(([x, y, z]) => new Vector3(x, y, z));
        const layoutArb = ShoulderLayoutArbitrary();
        const followArb = fc.oneof(fc.double({ min: 0, max: 0.999, noNaN: true }), fc.constant(1));
        fc.assert(
            fc.property(
                fc.constantFrom(0 as const, 1 as const),
                layoutArb,
                fc.array(turn, { minLength: 4, maxLength: 4 }),
                point,
                point,
                followArb,
                (side, layoutValues, turns, slowSourceBefore, slowOwnBefore, follow) => {
                    const layout = Float64Array.from(layoutValues);
                    const q = Array.from({ length: setup.joint.length }, () => Quaternion.Identity());
                    const [sh, ua, la] = side === 0 ? [B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm] : [B.RightShoulder, B.RightUpperArm, B.RightLowerArm];
                    [q[sh], q[ua], q[la]] = [turns[0], turns[1], turns[2]].map((t) => t.clone());
                    const sourceTurn = turns[3];
                    shake.known.fill(1);
                    shake.slowSource[side].copyFrom(slowSourceBefore);
                    shake.slowOwn[side].copyFrom(slowOwnBefore);
                    // The other side holds still: its slow parts are its sockets, its source turn its own.
                    const other = (1 - side) as 0 | 1;
                    const otherShoulder = other === 0 ? B.LeftShoulder : B.RightShoulder;
                    const otherArm = other === 0 ? B.LeftUpperArm : B.RightUpperArm;
                    const so = other === 0 ? 3 : 9;
                    const own = setup.clipShoulderOffsets!;
                    shake.slowOwn[other].copyFrom(new Vector3(own[so], own[so + 1], own[so + 2]).scale(setup.scale).applyRotationQuaternion(q[otherShoulder]));
                    shake.slowSource[other].copyFrom(
                        new Vector3(layout[so], layout[so + 1], layout[so + 2]).scale(setup.scale).applyRotationQuaternion(q[otherShoulder]),
                    );
                    shake.follow[0] = follow;
                    const want = referenceShake(setup, q, layout, sourceTurn, slowSourceBefore, slowOwnBefore, follow, side);
                    const otherBefore = q[otherArm].clone();
                    const left = side === 0 ? sourceTurn : q[otherShoulder];
                    const right = side === 1 ? sourceTurn : q[otherShoulder];
                    MatchCollarboneShakeInPlace(setup, q, layout, left, right, shake);
                    expect(Vector3.Distance(shake.slowSource[side], want.slowSource)).toBeLessThan(1e-12);
                    expect(Vector3.Distance(shake.slowOwn[side], want.slowOwn)).toBeLessThan(1e-12);
                    for (const [got, expected] of [
                        [q[ua], want.upper],
                        [q[la], want.lower],
                    ] as const) {
                        // The same rotation (either sign).
                        expect(Math.abs(Quaternion.Dot(got, expected))).toBeCloseTo(1, 10);
                    }
                    expect(Math.abs(Quaternion.Dot(q[otherArm], otherBefore))).toBeCloseTo(1, 12);
                },
            ),
            { numRuns: 500, seed: 7 },
        );
    });

    test("a side not known yet starts from its sockets and moves nothing; a character without shoulders has nothing to do", async () => {
        const setup = MuscleSetup.For(vrm);
        const shake = new CollarboneShake(setup);
        const q = Array.from({ length: setup.joint.length }, (_, b) => Quaternion.RotationAxis(new Vector3(1, b % 3, 2).normalize(), 0.1 * (b % 7)));
        const before = q.map((r) => r.clone());
        shake.follow[0] = 0.3;
        const layout = Float64Array.from({ length: 12 }, () => 0.1);
        MatchCollarboneShakeInPlace(setup, q, layout, q[B.LeftShoulder].clone(), Quaternion.Identity(), shake);
        expect(Array.from(shake.known)).toEqual([1, 1]);
        q.forEach((r, b) => expect(r.equals(before[b])).toBe(true));
        const figure = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/khronos_RiggedFigure.glb"))).avatar;
        expect(new CollarboneShake(MuscleSetup.For(figure)).isActive).toBe(false);
    }, 60_000);

    test("through the rig (decoded onto the VRM with and without, the source's socket from the same pose decoded onto the source's own skeleton): the elbow moves across the arm by (1 - follow) times the source socket's move less the VRM's; the socket and the hand's turn stay", () => {
        const source = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
        const sv = MuscleSetup.For(vrm);
        const ss = MuscleSetup.For(source);
        /** A joint's place in the canonical frame of the bone the shoulders hang from (metres). */
        const inTop = (a: HumanoidAvatar, pose: IRigPose, bone: HumanBone): Vector3 => {
            const s = MuscleSetup.For(a);
            const top = a.getJoint(s.parentBone[B.LeftShoulder]);
            const w = ComputeRigWorldPose(a.rig, pose);
            return w.positions[a.getJoint(bone)]
                .subtract(w.positions[top])
                .applyRotationQuaternion(Quaternion.Inverse(w.rotations[top]))
                .applyRotationQuaternion(a.referenceWorld.rotations[top])
                .applyRotationQuaternion(s.c0Inverse);
        };
        const handTurn = (pose: IRigPose): Quaternion => {
            const w = ComputeRigWorldPose(vrm.rig, pose);
            return Quaternion.Inverse(w.rotations[vrm.getJoint(sv.parentBone[B.LeftShoulder])]).multiply(w.rotations[vrm.getJoint(B.LeftHand)]);
        };
        const layout = Float64Array.from(ss.clipShoulderOffsets!);
        // The VRM's own trunk layout: no trunk step, so the two chests are one frame.
        const trunk = Float64Array.from(sv.clipTrunkOffsets!);
        const pose = new HumanPose();
        const set = (name: string, value: number): void => void (pose.values[MuscleIndexFromName(name)] = value);
        set("Spine Front-Back", 0.4);
        set("Chest Left-Right", 0.3);
        set("Left Arm Down-Up", 0.3);
        set("Left Arm Front-Back", 0.2);
        set("Left Forearm Stretch", 0.3);
        const shake = new CollarboneShake(sv);
        const [withShake, without, own] = [CreateReferenceRigPose(vrm), CreateReferenceRigPose(vrm), CreateReferenceRigPose(source)];
        const sockets: { source: Vector3; vrm: Vector3 }[] = [];
        for (let f = 0; f < 2; f++) {
            set("Left Shoulder Down-Up", 0.2 + 0.1 * f);
            set("Left Shoulder Front-Back", 0.1 - 0.15 * f);
            shake.noteStep(f === 0 ? null : Float64Array.of(1 / 120));
            DecodeHumanPose(vrm, pose, withShake, null, trunk, layout, null, shake);
            DecodeHumanPose(vrm, pose, without, null, trunk, layout, null, null);
            DecodeHumanPose(source, pose, own);
            // Each socket from its shoulder joint, the source's at the VRM's scale.
            sockets.push({
                source: inTop(source, own, B.LeftUpperArm)
                    .subtract(inTop(source, own, B.LeftShoulder))
                    .scale(sv.scale / ss.scale),
                vrm: inTop(vrm, without, B.LeftUpperArm).subtract(inTop(vrm, without, B.LeftShoulder)),
            });
            // The socket stays; the lower arm keeps its turn, so the hand's is the same.
            expect(Vector3.Distance(inTop(vrm, withShake, B.LeftUpperArm), inTop(vrm, without, B.LeftUpperArm))).toBeLessThan(1e-12);
            expect(Math.abs(Quaternion.Dot(handTurn(withShake), handTurn(without)))).toBeCloseTo(1, 12);
        }
        const want = sockets[1].source
            .subtract(sockets[0].source)
            .subtract(sockets[1].vrm.subtract(sockets[0].vrm))
            .scale(1 - shake.follow[0]);
        const arm = inTop(vrm, without, B.LeftLowerArm)
            .subtract(inTop(vrm, without, B.LeftUpperArm))
            .normalize();
        const across = want.subtract(arm.scale(Vector3.Dot(want, arm)));
        const moved = inTop(vrm, withShake, B.LeftLowerArm).subtract(inTop(vrm, without, B.LeftLowerArm));
        // 2.6 mm, within 1% (a turn of the arm moves its end along an arc, not a line).
        expect(across.length()).toBeGreaterThan(0.001);
        expect(Vector3.Distance(moved, across)).toBeLessThan(0.01 * across.length());
    });
});

describeWithData("a mapped shoulder's shake on a character, played", () => {
    let vrm: HumanoidAvatar;
    let nodes: readonly TransformNode[];
    let scene: Scene;
    let source: HumanoidAvatar;
    beforeAll(async () => {
        vrm = (await LoadHumanoidAvatarFromFileAsync(dataFile(VRM))).avatar;
        scene = new Scene(new NullEngine());
        const { CreateTransformNodesFromRig } = await import("../../src/io/rigNodes.js");
        nodes = CreateTransformNodesFromRig(vrm.rig, scene).nodes;
        source = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    }, 60_000);
    afterAll(() => scene.getEngine().dispose());

    /** The arms' paths on the VRM sample, played with the shake's time constant `fastSeconds`. */
    const play = (clip: MuscleClip, fastSeconds: number): IArmPaths =>
        PlayArmPaths(vrm, nodes, clip, (animator) => void (animator.solver.collarboneShake!.fastSeconds = fastSeconds));

    test("a shake the source's upper arm cancels (30 Hz): the elbow and hand stay nearly still, where turning as the source's shook them", () => {
        const clip = ConvertRigPosesToMuscleClip(source, new ShoulderShake(source, 30, 3, true));
        const matched = play(clip, SHOULDER_FAST_SECONDS);
        const turned = play(clip, 0);
        // Turned as the source's, the VRM's collarbone moves its socket by less than the source's
        // upper arm puts back: the elbow shakes by millimetres (2.5 mm RMS).
        expect(spread(turned.elbow)).toBeGreaterThan(0.001);
        // Matched, what is left is the low-pass's lag (at 30 Hz a first-order low-pass of 20 ms
        // still passes a quarter of the shake, a phase away) and the two collarbones' other
        // directions: 0.36 and 0.39 of it.
        expect(spread(matched.elbow)).toBeLessThan(0.45 * spread(turned.elbow));
        expect(spread(matched.hand)).toBeLessThan(0.45 * spread(turned.hand));
    }, 120_000);

    test("a slow shrug with the arm going along (0.5 Hz): the upper arm points as the rotations have it, within a degree", () => {
        const clip = ConvertRigPosesToMuscleClip(source, new ShoulderShake(source, 0.5, 15, false));
        const matched = play(clip, SHOULDER_FAST_SECONDS);
        const turned = play(clip, 0);
        let most = 0;
        matched.upperArm.forEach((d, f) => (most = Math.max(most, Math.acos(Math.min(1, Vector3.Dot(d, turned.upperArm[f]))))));
        expect((most * 180) / Math.PI).toBeLessThan(1);
        let swing = 0;
        turned.upperArm.forEach((d) => (swing = Math.max(swing, Math.acos(Math.min(1, Vector3.Dot(d, turned.upperArm[0]))))));
        expect((swing * 180) / Math.PI).toBeGreaterThan(5);
    }, 120_000);

    test("on the source's own skeleton nothing changes, to the bit (its sockets are the source's)", async () => {
        const clip = ConvertRigPosesToMuscleClip(source, new ShoulderShake(source, 30, 3, true));
        const { CreateTransformNodesFromRig } = await import("../../src/io/rigNodes.js");
        const own = CreateTransformNodesFromRig(source.rig, scene).nodes;
        const record = (fastSeconds: number): Quaternion[][] => {
            const animator = new HumanoidAnimator(source, own, { rootMotion: "in-place" });
            expect(animator.solver.collarboneShake).not.toBeNull();
            animator.solver.collarboneShake!.fastSeconds = fastSeconds;
            animator.play(clip);
            const out: Quaternion[][] = [];
            for (let f = 0; f < 60; f++) {
                animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                out.push(animator.solver.pose.rotations.map((r) => r.clone()));
            }
            animator.dispose();
            return out;
        };
        const matched = record(SHOULDER_FAST_SECONDS);
        const turned = record(0);
        matched.forEach((frame, f) => frame.forEach((r, j) => expect(r.asArray()).toEqual(turned[f][j].asArray())));
    }, 120_000);
});
