import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "./humanBones.js";

/** A body whose hips-to-shoulders direction is within this angle of +Y (degrees) is taken as upright. */
export const UPRIGHT_SNAP_DEG = 45;

/** The character's own frame in rig space: three orthonormal unit vectors. */
export interface IBodyFrame {
    /** Up: from the middle of the hips to the middle of the shoulders (exactly +Y when the body stands near upright). */
    readonly up: Vector3;
    /** The direction the character faces, perpendicular to {@link up}. */
    readonly forward: Vector3;
    /** The character's left: `forward x up` (rig space is left-handed). */
    readonly left: Vector3;
}

/**
 * The body frame of a mapped skeleton in a pose, as Unity's `AvatarComputeOrientation` does it:
 * left from the right to the left upper legs and upper arms, up from the legs' middle to the arms'
 * middle, forward = up x left. When up is within {@link UPRIGHT_SNAP_DEG} of +Y it is snapped to +Y
 * (rig space is Y-up) and left is flattened to the ground.
 * @param positions world position of every rig joint
 * @param boneToJoint joint of every human bone (-1 when not mapped); the limb roots must be mapped
 * @param snapUpright snap a near-upright body to +Y (default true)
 */
export function ComputeBodyFrame(positions: readonly Vector3[], boneToJoint: ArrayLike<number>, snapUpright = true): IBodyFrame {
    const p = (b: HumanBone): Vector3 => positions[boneToJoint[b]];
    const legs = p(HumanBone.LeftUpperLeg).subtract(p(HumanBone.RightUpperLeg));
    const arms = p(HumanBone.LeftUpperArm).subtract(p(HumanBone.RightUpperArm));
    const left = safeNormalize(safeNormalize(legs).add(safeNormalize(arms)));
    const midArms = p(HumanBone.LeftUpperArm).add(p(HumanBone.RightUpperArm)).scaleInPlace(0.5);
    const midLegs = p(HumanBone.LeftUpperLeg).add(p(HumanBone.RightUpperLeg)).scaleInPlace(0.5);
    let up = midArms.subtract(midLegs);
    up = safeNormalize(up.subtract(left.scale(Vector3.Dot(up, left))));
    let l = left;
    if (snapUpright && Vector3.Dot(up, Vector3.Up()) > Math.cos((UPRIGHT_SNAP_DEG * Math.PI) / 180)) {
        up = Vector3.Up();
        const flat = new Vector3(l.x, 0, l.z);
        if (flat.lengthSquared() > 1e-12) {
            l = flat.normalize();
        }
    }
    // forward = up x left (from left = forward x up with orthonormal vectors)
    const forward = safeNormalize(Vector3.Cross(up, l));
    l = Vector3.Cross(forward, up).normalize();
    return { up, forward, left: l };
}

/** Unit vector of `v`, or zero when `v` has no length. */
export function safeNormalize(v: Vector3): Vector3 {
    const len = v.length();
    return len > 1e-12 ? v.scale(1 / len) : Vector3.Zero();
}

/** Angle between two vectors in degrees (0 when either has no length). */
export function AngleBetweenDeg(a: Vector3, b: Vector3): number {
    const la = a.length();
    const lb = b.length();
    if (la < 1e-12 || lb < 1e-12) {
        return 0;
    }
    const c = Vector3.Dot(a, b) / (la * lb);
    return (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
}
