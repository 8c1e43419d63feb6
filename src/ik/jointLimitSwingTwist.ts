// A bone's rotation read against its joint limits as a swing and a twist: the bone's direction under
// the rotation (what its swing polygon limits), and where its twist lies against its twist range (on
// it, a whole turn either way, or nearer which end), with the slots those numbers pass through. The
// clamp (`JointLimits`) and the soft limit (`SoftLimitSwingTwist`) both read a rotation so.
import type { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanBone } from "../humanoid/humanBones.js";
import { TWIST_EPSILON, TWO_PI } from "./jointLimitTables.js";

/**
 * Numbers of the bone being limited, in an array (no number crosses a call): [0] its twist
 * (radians), [1] the twist to rebuild with (`JointLimits`' rebuild), [2] the nearer end of its range and
 * [3] the twist on that end's turn ({@link NearerEndOfTwist}), or the twist's turn on its range
 * ({@link TwistOnRange}). Module scratch, shared by the clamp and the soft limit (the per-frame path
 * is single-threaded and nothing here is re-entered).
 */
export const angleSlots = new Float64Array(4);

/**
 * The bone's direction `d = q t q^-1 = t + 2 w (v x t) + 2 v x (v x t)` (either sign of q), written out.
 * @param q the bone's rotation (unit quaternion, canonical axes)
 * @param t its twist axis (unit, canonical axes)
 * @param d receives the direction (unit)
 */
export function BoneDirectionToRef(q: Quaternion, t: Vector3, d: Vector3): void {
    const qx = q.x;
    const qy = q.y;
    const qz = q.z;
    const qw = q.w;
    const cx = qy * t.z - qz * t.y;
    const cy = qz * t.x - qx * t.z;
    const cz = qx * t.y - qy * t.x;
    d.x = t.x + 2 * (qw * cx + (qy * cz - qz * cy));
    d.y = t.y + 2 * (qw * cy + (qz * cx - qx * cz));
    d.z = t.z + 2 * (qw * cz + (qx * cy - qy * cx));
}

/**
 * Whether the twist `angleSlots[0]` lies in the bone's twist range (its ends widened by
 * `TWIST_EPSILON`), as it is or a whole turn either way; that turn of it into `angleSlots[3]` when it does.
 * @param range every bone's twist range, low and high end (radians, 2 per bone: `JointLimitTables.twist`)
 * @param bone the human bone
 */
export function TwistOnRange(range: Float64Array, bone: HumanBone): boolean {
    const a = angleSlots;
    const lo = range[2 * bone] - TWIST_EPSILON;
    const hi = range[2 * bone + 1] + TWIST_EPSILON;
    const twist = a[0];
    for (let k = -1; k <= 1; k++) {
        const t = k === 0 ? twist : twist + k * TWO_PI;
        if (t >= lo && t <= hi) {
            a[3] = t;
            return true;
        }
    }
    return false;
}

/**
 * The end of the bone's twist range nearer to the twist `angleSlots[0]` (either way round) into
 * `angleSlots[2]`, and the twist on that end's turn (a whole turn off, when nearer so) into `angleSlots[3]`.
 * @param range every bone's twist range, low and high end (radians, 2 per bone: `JointLimitTables.twist`)
 * @param bone the human bone
 */
export function NearerEndOfTwist(range: Float64Array, bone: HumanBone): void {
    const a = angleSlots;
    const twist = a[0];
    const lo = range[2 * bone];
    const hi = range[2 * bone + 1];
    let dl = lo - twist;
    dl -= TWO_PI * Math.round(dl / TWO_PI);
    let dh = hi - twist;
    dh -= TWO_PI * Math.round(dh / TWO_PI);
    const low = (dl < 0 ? -dl : dl) <= (dh < 0 ? -dh : dh);
    a[2] = low ? lo : hi;
    a[3] = low ? lo - dl : hi - dh;
}
