import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, type HumanoidAvatar, type IRigPose, type IRigPoseSource } from "../../src/index.js";
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
