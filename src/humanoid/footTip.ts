import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { IBodyFrame } from "./bodyFrame.js";
import { RigJointKind, type IRig } from "./rig.js";

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
