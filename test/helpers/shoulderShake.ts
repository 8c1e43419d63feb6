import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import fc from "fast-check";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { HumanBone, HumanoidAnimator, type HumanoidAvatar, type IRigPose, type IRigPoseSource, type MuscleClip } from "../../src/index.js";
import { ComputeRigWorldPose, GetRigRestPose } from "../../src/humanoid/rig.js";

const B = HumanBone;

/**
 * A character (the tests take the built-in Mixamo-named sample) standing in its T-pose while its left collarbone turns up and
 * down by `amplitudeDeg` at `hz`; with `cancel`, its upper arm turns against it so that its elbow
 * stays where it was and its lower arm keeps its turn in the world (a mocap solver's shake, which
 * the markers at the elbow and wrist do not see), else the arm goes along with the collarbone (a shrug).
 */
export class ShoulderShake implements IRigPoseSource {
    public readonly name = "shoulder shake";
    public readonly source = "test";
    public readonly warnings: readonly string[] = [];
    public readonly frameRate = 120;
    public readonly durationSeconds = 2;
    private readonly _rest: IRigPose;

    /**
     * @param about "forward": the collarbones turn up and down (both: the same way, so one rises as
     *   the other drops); "up": forward and back (both: one forward as the other goes back, so the
     *   shoulder line turns about the trunk)
     * @param both both collarbones (else the left only)
     */
    constructor(
        private readonly _avatar: HumanoidAvatar,
        private readonly _hz: number,
        private readonly _amplitudeDeg: number,
        private readonly _cancel: boolean,
        private readonly _about: "forward" | "up" = "forward",
        private readonly _both = false,
    ) {
        this._rest = GetRigRestPose(_avatar.rig);
    }

    public samplePoseToRef(timeSeconds: number, result: IRigPose): void {
        const a = this._avatar;
        const rig = a.rig;
        rig.joints.forEach((_, j) => {
            result.rotations[j].copyFrom(this._rest.rotations[j]);
            result.positions[j].copyFrom(this._rest.positions[j]);
        });
        const restWorld = ComputeRigWorldPose(rig, result);
        const angle = ((this._amplitudeDeg * Math.PI) / 180) * Math.sin(2 * Math.PI * this._hz * timeSeconds);
        const sides = this._both
            ? [
                  [B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm, 1],
                  [B.RightShoulder, B.RightUpperArm, B.RightLowerArm, 1],
              ]
            : [[B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm, 1]];
        // Each collarbone turned about the body's axis, in the world.
        for (const [sh, , , sign] of sides) {
            const shoulder = a.getJoint(sh as HumanBone);
            const turn = Quaternion.RotationAxis(this._about === "up" ? a.frame.up : a.frame.forward, angle * sign);
            const parentWorld = restWorld.rotations[rig.joints[shoulder].parent];
            result.rotations[shoulder].copyFrom(Quaternion.Inverse(parentWorld).multiply(turn.multiply(restWorld.rotations[shoulder])));
        }
        if (!this._cancel) return;
        const w = ComputeRigWorldPose(rig, result);
        for (const [sh, ua, la] of sides) {
            const [shoulder, upper, lower] = [sh, ua, la].map((b) => a.getJoint(b as HumanBone));
            // The upper arm aimed from its moved joint back at the elbow's rest place.
            const from = w.positions[lower].subtract(w.positions[upper]).normalize();
            const to = restWorld.positions[lower].subtract(w.positions[upper]).normalize();
            const aim = new Quaternion();
            Quaternion.FromUnitVectorsToRef(from, to, aim);
            const upperWorld = aim.multiply(w.rotations[upper]);
            result.rotations[upper].copyFrom(Quaternion.Inverse(w.rotations[shoulder]).multiply(upperWorld));
            // The lower arm keeps its place in the world (a marker pins the wrist too).
            result.rotations[lower].copyFrom(Quaternion.Inverse(upperWorld).multiply(restWorld.rotations[lower]));
        }
    }
}

/** RMS of a path's moves from its mean (metres), over its second half (a low-pass settled by then). */
export function PathSpread(path: readonly Vector3[]): number {
    const half = path.slice(path.length >> 1);
    const mean = half.reduce((s, p) => s.add(p), Vector3.Zero()).scale(1 / half.length);
    return Math.sqrt(half.reduce((s, p) => s + Vector3.DistanceSquared(p, mean), 0) / half.length);
}

/** A coordinate of a shoulder layout for the property tests (over the scale, within 0.15 of 0). */
export function ShoulderCoordinateArbitrary(): fc.Arbitrary<number> {
    return fc.double({ min: -0.15, max: 0.15, noNaN: true });
}

/** A shoulder layout for the property tests: 12 coordinates, and sometimes a 13th, the share of the pose from clips with a layout (0.01 to 1). */
export function ShoulderLayoutArbitrary(): fc.Arbitrary<number[]> {
    const coordinate = ShoulderCoordinateArbitrary();
    return fc.oneof(
        fc.array(coordinate, { minLength: 12, maxLength: 12 }),
        fc.tuple(fc.array(coordinate, { minLength: 12, maxLength: 12 }), fc.double({ min: 0.01, max: 1, noNaN: true })).map(([l, share]) => [...l, share]),
    );
}

/** The arm's paths {@link PlayArmPaths} records, one entry a frame (metres). */
export interface IArmPaths {
    /** The left elbow from the chest, in the chest's frame. */
    readonly elbow: Vector3[];
    /** The left hand from the chest, in the chest's frame. */
    readonly hand: Vector3[];
    /** The left upper arm's direction, in the chest's frame (unit). */
    readonly upperArm: Vector3[];
    /** Both elbows (left, right) from the hips, in the hips' frame. */
    readonly elbowsFromHips: Vector3[][];
}

/**
 * Plays `clip` on `avatar` through `nodes` (root motion in place, every frame at the clip's rate)
 * and records its arms' paths as the solver poses them; `setUp` adjusts the animator before it plays.
 */
export function PlayArmPaths(
    avatar: HumanoidAvatar,
    nodes: readonly TransformNode[],
    clip: MuscleClip,
    setUp: (animator: HumanoidAnimator) => void,
): IArmPaths {
    const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "in-place" });
    setUp(animator);
    animator.play(clip);
    const chest = avatar.getJoint(B.Chest);
    const hips = avatar.getJoint(B.Hips);
    const out: IArmPaths = { elbow: [], hand: [], upperArm: [], elbowsFromHips: [[], []] };
    for (let f = 0; f < clip.frameCount; f++) {
        animator.update(f === 0 ? 0 : 1 / clip.frameRate);
        const world = ComputeRigWorldPose(avatar.rig, animator.solver.pose);
        const inFrameOf = (j: number, of: number): Vector3 =>
            world.positions[j].subtract(world.positions[of]).applyRotationQuaternion(Quaternion.Inverse(world.rotations[of]));
        const e = inFrameOf(avatar.getJoint(B.LeftLowerArm), chest);
        out.elbow.push(e);
        out.hand.push(inFrameOf(avatar.getJoint(B.LeftHand), chest));
        out.upperArm.push(e.subtract(inFrameOf(avatar.getJoint(B.LeftUpperArm), chest)).normalize());
        [B.LeftLowerArm, B.RightLowerArm].forEach((b, side) => out.elbowsFromHips[side].push(inFrameOf(avatar.getJoint(b), hips)));
    }
    animator.dispose();
    return out;
}
