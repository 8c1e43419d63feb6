import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HumanBoneChainChild, HUMAN_BONE_COUNT, IsFingerBone } from "../humanoid/humanBones.js";
import { FarthestBoneChildOffset } from "../humanoid/boneChildOffset.js";
import { BoneMuscles, Muscles } from "./muscles.js";

const B = HumanBone;

/**
 * The bone whose direction is a bone's twist axis, when it is not its own: the hand twists about
 * the forearm, so its twist (which has no muscle) can move there exactly. The foot twists about
 * its own axis, heel to toes (its roll, an extra muscle), as Mecanim's foot frame does.
 */
const TWIST_AXIS_OF: Readonly<Partial<Record<HumanBone, HumanBone>>> = {
    [B.LeftHand]: B.LeftLowerArm,
    [B.RightHand]: B.RightLowerArm,
};

/** Canonical directions: R right, U up, F forward. */
const CANON_U = new Vector3(0, 1, 0);
const CANON_F = new Vector3(0, 0, 1);

/** Each human bone's muscle axes, canonical (see `BuildBoneAxes`). */
export interface IBoneAxes {
    /** Per bone, its twist axis (unit): see `MuscleSetup.twistAxis`. */
    readonly twistAxis: Vector3[];
    /** The collarbones' own T-pose directions (unit), left and right: see `MuscleSetup.collarbone`. */
    readonly collarbone: readonly [Vector3, Vector3];
    /** Per bone, its first swing axis (unit, perpendicular to the twist axis). */
    readonly axisY: Vector3[];
    /** Per bone, its second swing axis (unit, perpendicular to both). */
    readonly axisZ: Vector3[];
    /** Per bone, +1 or -1: the sign that makes its twist muscle turn as the muscle table's motion does. */
    readonly twistSign: Float32Array;
    /** Per bone, +1 or -1: the handedness of its (twist, y, z) axes. */
    readonly hingeSign: Float32Array;
}

/**
 * Each human bone's twist and swing axes, canonical, from the avatar's T-pose: the twist axis is
 * the bone's T-pose direction (limbs, fingers, feet, toes; to its next mapped bone, else its
 * farthest child; a foot without toes to its tip), the canonical up (trunk, neck, head) or forward
 * (eyes, jaw), the body's side for a shoulder, the forearm's for the hand; the swing axes come from
 * the muscle table's motions, made perpendicular to it. Cold path; allocates.
 * @param avatar the avatar
 * @param c0Inverse rig space to canonical (`MuscleSetup.c0Inverse`)
 * @param joint each human bone's rig joint (-1 unmapped)
 * @param footTip each foot's front joint (-1 none; `MuscleSetup.footTip`)
 * @param children each rig joint's children (`GetRigChildren`)
 */
export function BuildBoneAxes(
    avatar: HumanoidAvatar,
    c0Inverse: Quaternion,
    joint: Int32Array,
    footTip: readonly [number, number],
    children: readonly (readonly number[])[],
): IBoneAxes {
    const ref = avatar.referenceWorld;
    const toCanon = (v: Vector3): Vector3 => v.applyRotationQuaternion(c0Inverse);
    const tipOf = (j: number): Vector3 | null => FarthestBoneChildOffset(avatar.rig, children, ref.positions, j);
    /** A bone's T-pose direction (canonical): to its next bone, else to its farthest child. */
    const direction = (b: HumanBone): Vector3 | null => {
        const j = joint[b];
        if (j < 0) return null;
        const next = HumanBoneChainChild[b];
        if (next >= 0 && joint[next] >= 0) return toCanon(ref.positions[joint[next]].subtract(ref.positions[j]));
        // A foot with no toes points to its own tip (none: the muscle table's direction).
        if (b === B.LeftFoot || b === B.RightFoot) {
            const tip = footTip[b === B.LeftFoot ? 0 : 1];
            return tip >= 0 ? toCanon(ref.positions[tip].subtract(ref.positions[j])) : null;
        }
        const tip = tipOf(j);
        return tip ? toCanon(tip) : null;
    };
    const twistAxis: Vector3[] = [];
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        let t: Vector3 | null;
        if (b <= B.Head) t = CANON_U.clone();
        else if (b === B.LeftEye || b === B.RightEye || b === B.Jaw) t = CANON_F.clone();
        // Shoulders have no twist muscle: measured about the body's side axis (the muscle
        // table's direction, canonical), not the collarbone's own, which rigs tilt up, down
        // and back as they like: about a tilted axis the same "Front-Back" turns the arm
        // elsewhere (the Mixamo walk onto the VRM avatar had its arms 3.8 deg off, 0.1 so).
        else if (b === B.LeftShoulder || b === B.RightShoulder) t = new Vector3(...Muscles[BoneMuscles[b][2]].motion.tip);
        else t = direction(b);
        // A distal digit with no tip points like the digit before it.
        if (!t && IsFingerBone(b) && (b - B.LeftThumbProximal) % 3 > 0 && joint[b - 1] >= 0) t = twistAxis[b - 1].clone();
        // Unmapped, or nothing to measure: the muscle table's direction for the bone.
        if (!t || t.lengthSquared() < 1e-12) t = new Vector3(...Muscles[BoneMuscles[b][2]].motion.tip);
        twistAxis.push(t.normalize());
    }
    const collar = (b: HumanBone): Vector3 => {
        const d = direction(b);
        return d && d.lengthSquared() > 1e-12 ? d.normalize() : twistAxis[b].clone();
    };
    const collarbone: [Vector3, Vector3] = [collar(B.LeftShoulder), collar(B.RightShoulder)];
    for (const [bone, from] of Object.entries(TWIST_AXIS_OF)) {
        twistAxis[Number(bone)] = twistAxis[from!].clone();
    }
    // Swing axes from the muscle table's motions, made perpendicular to the twist axis.
    const axisY: Vector3[] = [];
    const axisZ: Vector3[] = [];
    const twistSign = new Float32Array(HUMAN_BONE_COUNT).fill(1);
    const hingeSign = new Float32Array(HUMAN_BONE_COUNT).fill(1);
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const t = twistAxis[b];
        const [mx, my, mz] = BoneMuscles[b];
        const swingAxis = (mi: number): Vector3 => {
            const m = Muscles[mi].motion;
            const a = Vector3.Cross(new Vector3(...m.tip), new Vector3(...m.toward));
            return a.subtractInPlace(t.scale(Vector3.Dot(a, t))).normalize();
        };
        const az = mz >= 0 ? swingAxis(mz) : perpendicular(t);
        let ay: Vector3;
        if (my >= 0) {
            ay = swingAxis(my);
            ay.subtractInPlace(az.scale(Vector3.Dot(ay, az))).normalize();
        } else {
            ay = Vector3.Cross(az, t).normalize();
        }
        axisY.push(ay);
        axisZ.push(az);
        hingeSign[b] = Vector3.Dot(Vector3.Cross(ay, az), t) < 0 ? -1 : 1;
        if (mx >= 0) {
            const m = Muscles[mx].motion;
            const turn = Vector3.Dot(Vector3.Cross(t, new Vector3(...m.tip)), new Vector3(...m.toward));
            twistSign[b] = turn < 0 ? -1 : 1;
        }
    }
    return { twistAxis, collarbone, axisY, axisZ, twistSign, hingeSign };
}

/** A unit vector perpendicular to `v`. */
function perpendicular(v: Vector3): Vector3 {
    const a = Math.abs(v.x) < 0.9 ? new Vector3(1, 0, 0) : new Vector3(0, 1, 0);
    return Vector3.Cross(v, a).normalize();
}
