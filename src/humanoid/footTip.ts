import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "./avatar.js";
import type { IBodyFrame } from "./bodyFrame.js";
import { HumanBone } from "./humanBones.js";
import { ComputeRigWorldPose, GetRigRestPose, RigJointKind, type IRig, type IRigWorldPose } from "./rig.js";

/**
 * Most a foot's tip may point up, as a share of its length (the sine of about 17 degrees above
 * level), and least it must point forward (the cosine of about 73 degrees off forward): a toe
 * points forward, level or down (steeply in a high heel), never up the shin or back past the heel.
 */
const TIP_MAX_UP = 0.3;
const TIP_MIN_FORWARD = 0.3;

/**
 * The front of a foot that has no toes mapped: the foot's longest child joint that no human bone
 * is mapped to and that points forward and not up (a toe node the map left out, or a toe end: not
 * an IK pole up the shin nor a helper behind the heel, which a longest child alone would take:
 * the T-pose enforcement then turned the foot round to point the helper forward). -1 when the
 * foot has no such child. Used for the foot's direction (its twist axis, the T-pose enforcement)
 * and the point it stands on once its heel is up (`MuscleSetup.footTip`).
 * @param rig the rig
 * @param children each joint's children (`GetRigChildren`)
 * @param positions the joints' world positions (rig space) in the pose the frame is of
 * @param foot the foot's joint
 * @param frame the body's frame in that pose (forward and up)
 * @param mapped whether a joint carries a human bone
 */
export function FootTipChild(
    rig: IRig,
    children: readonly (readonly number[])[],
    positions: readonly Vector3[],
    foot: number,
    frame: Pick<IBodyFrame, "forward" | "up">,
    mapped: (joint: number) => boolean,
): number {
    let best = -1;
    let bestLength = 1e-6;
    for (const c of children[foot] ?? []) {
        if (rig.joints[c].kind === RigJointKind.Node || mapped(c)) continue;
        const d = positions[c].subtract(positions[foot]);
        const length = d.length();
        if (!(Vector3.Dot(d, frame.forward) > TIP_MIN_FORWARD * length && Vector3.Dot(d, frame.up) < TIP_MAX_UP * length)) continue;
        if (length > bestLength) {
            bestLength = length;
            best = c;
        }
    }
    return best;
}

/**
 * The ball of a foot, which it stands on once its heel is up, lies about this share of the way
 * from its ankle to how far its surface reaches forward: where the toe joints of the characters
 * that have them sit, by the median (the X Bot's 0.54, the Soldier's 0.53-0.60, Paladin's 0.64,
 * the KayKit mannequin's 0.41, RobotExpressive's 0.39, RiggedFigure's 0.19).
 */
export const FOOT_BALL_SHARE = 0.5;

/**
 * How nearly a foot's forward must lie along an axis of the rig for its surface's box to tell how
 * far the foot reaches (the cosine of about 10 degrees): a box's reach along a slanted direction
 * is its corner's, further than the surface's.
 */
const BOX_AXIS_COSINE = 0.985;

/**
 * The front of a foot that ends at its ankle (no toes mapped, no tip joint: `FootTipChild` found
 * none), read from its surface: the point of its sole under the ball of the foot,
 * {@link FOOT_BALL_SHARE} of the way from the ankle to the surface's furthest reach forward, as far
 * below the ankle as the surface reaches down. The foot's surface is the box of the vertices bound
 * to it in the rest pose (`IRig.surfaceBounds`), read along the T-pose's forward and up as the foot
 * turned from the rest pose into the T-pose carries them (each reach the box's furthest corner
 * along it: exact along an axis, further along a slanted direction). The body's forward, not the
 * foot's own: a foot turned out puts its front that much off its length. Null when the rig knows no
 * surface for the foot (or not a finite one), the foot's forward in the rest pose lies slanted to
 * the rig's axes, or the surface does not reach forward of the ankle.
 * @param rig the rig (its `surfaceBounds`)
 * @param rest the rig's rest pose, world (rig space)
 * @param reference the T-pose the frame is of, world (rig space)
 * @param foot the foot's joint
 * @param frame the body's frame in the T-pose (forward and up)
 * @returns the front in the T-pose (rig space, metres), or null
 */
export function SurfaceFootFront(
    rig: IRig,
    rest: IRigWorldPose,
    reference: IRigWorldPose,
    foot: number,
    frame: Pick<IBodyFrame, "forward" | "up">,
): Vector3 | null {
    const box = rig.surfaceBounds;
    if (!box || foot < 0 || 6 * foot + 5 >= box.length) return null;
    for (let k = 0; k < 6; k++) if (!Number.isFinite(box[6 * foot + k])) return null;
    // The T-pose's forward and up as the foot's turn from the T-pose back to the rest pose carries them.
    const back = rest.rotations[foot].multiply(Quaternion.Inverse(reference.rotations[foot]));
    const forward = frame.forward.applyRotationQuaternion(back);
    const up = frame.up.applyRotationQuaternion(back);
    if (Math.max(Math.abs(forward.x), Math.abs(forward.y), Math.abs(forward.z)) < BOX_AXIS_COSINE * forward.length()) return null;
    // The box's reach along each: its furthest corner.
    const reach = (d: Vector3): number => {
        let most = -Infinity;
        for (let c = 0; c < 8; c++) {
            const x = box[6 * foot + (c & 1 ? 3 : 0)];
            const y = box[6 * foot + 1 + (c & 2 ? 3 : 0)];
            const z = box[6 * foot + 2 + (c & 4 ? 3 : 0)];
            most = Math.max(most, x * d.x + y * d.y + z * d.z);
        }
        return most;
    };
    const ahead = reach(forward);
    const below = Math.max(0, reach(up.negate()));
    if (!(ahead > 0 && ahead < Infinity && below < Infinity)) return null;
    return reference.positions[foot].add(frame.forward.scale(FOOT_BALL_SHARE * ahead)).subtract(frame.up.scale(below));
}

/** The fronts of an avatar's feet in its T-pose, per foot (left, right): what `MuscleSetup` keeps of them. */
export interface IFootFronts {
    /** The joint at the front of the foot: its toes', else its tip joint (`FootTipChild`), else -1 (`MuscleSetup.footTip`). */
    readonly tip: readonly [number, number];
    /** The front in the T-pose (rig space, metres): the tip's position, else read from the foot's surface (`SurfaceFootFront`), else null (`MuscleSetup.footFront`). */
    readonly front: readonly [Vector3 | null, Vector3 | null];
    /** A front read from the surface in the foot joint's own frame (metres), null for a foot whose front is a joint or that has none (`MuscleSetup.footFrontLocal`). */
    readonly frontLocal: readonly [Vector3 | null, Vector3 | null];
    /** From the ankle joint to the front in the T-pose (metres), 0 for a foot without a front (`MuscleSetup.footLength`). */
    readonly length: readonly [number, number];
}

/**
 * The front of each of an avatar's feet, which it stands on when its heel is up: its toes when they
 * are mapped, else its own tip joint (`FootTipChild`), else, for a foot that ends at its ankle, the
 * point of its sole under its ball read from its surface where the rig knows it
 * (`SurfaceFootFront`); with that front in the foot joint's own frame and the foot's length.
 * @param avatar the avatar (its rig, T-pose and frame)
 * @param joint the rig joint of each human bone, -1 when unmapped
 * @param boneOfJoint the human bone carried by each joint, -1 for none
 * @param children each joint's children (`GetRigChildren`)
 */
export function BuildFootFronts(avatar: HumanoidAvatar, joint: Int32Array, boneOfJoint: Int32Array, children: readonly (readonly number[])[]): IFootFronts {
    const rig = avatar.rig;
    const ref = avatar.referenceWorld;
    const f = avatar.frame;
    // The front of each foot: its toes, or where none are mapped its own tip joint (`FootTipChild`).
    const tipJoint = (foot: HumanBone, toes: HumanBone): number =>
        joint[toes] >= 0 ? joint[toes] : joint[foot] >= 0 ? FootTipChild(rig, children, ref.positions, joint[foot], f, (c) => boneOfJoint[c] >= 0) : -1;
    const tip: [number, number] = [tipJoint(HumanBone.LeftFoot, HumanBone.LeftToes), tipJoint(HumanBone.RightFoot, HumanBone.RightToes)];
    // A foot that ends at its ankle: its front read from its surface, where the rig knows it
    // (the rest pose's world made only for such a foot).
    const restWorld = rig.surfaceBounds && tip.some((t) => t < 0) ? ComputeRigWorldPose(rig, GetRigRestPose(rig)) : null;
    const frontOf = (foot: HumanBone, s: number): Vector3 | null =>
        tip[s] >= 0 ? ref.positions[tip[s]].clone() : restWorld && joint[foot] >= 0 ? SurfaceFootFront(rig, restWorld, ref, joint[foot], f) : null;
    const front: [Vector3 | null, Vector3 | null] = [frontOf(HumanBone.LeftFoot, 0), frontOf(HumanBone.RightFoot, 1)];
    const localOf = (foot: HumanBone, s: number): Vector3 | null => {
        const j = joint[foot];
        const at = front[s];
        if (j < 0 || tip[s] >= 0 || !at) return null;
        return at.subtract(ref.positions[j]).applyRotationQuaternionInPlace(Quaternion.Inverse(ref.rotations[j]));
    };
    const lengthOf = (foot: HumanBone, s: number): number => {
        const at = front[s];
        return joint[foot] >= 0 && at ? Vector3.Distance(ref.positions[joint[foot]], at) : 0;
    };
    return {
        tip,
        front,
        frontLocal: [localOf(HumanBone.LeftFoot, 0), localOf(HumanBone.RightFoot, 1)],
        length: [lengthOf(HumanBone.LeftFoot, 0), lengthOf(HumanBone.RightFoot, 1)],
    };
}
