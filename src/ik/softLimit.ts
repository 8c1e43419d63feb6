// The soft limit (`JointLimits.softLimitCanonicalToRef`): within the last quarter of the way to a
// joint limit a bone's twist and swing direction are eased in, so that a motion running into a limit
// slows down before it instead of stopping on it in one frame. Here the eased twist and direction are
// computed; the limits rebuild the rotation from them as the clamp does.
import { Vector3, type Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanBone } from "../humanoid/humanBones.js";
import type { SphericalPolygon } from "../math/sphericalPolygon.js";
import { SwingTwistDecomposeToRef } from "../math/swingTwist.js";
import { BONE_STRIDE, SOFT_LIMIT_KNEE, TWO_PI, type JointLimitTables } from "./jointLimitTables.js";
import { angleSlots, BoneDirectionToRef, NearerEndOfTwist, TwistOnRange } from "./jointLimitSwingTwist.js";

// Scratch shared by every call (the per-frame path is single-threaded and nothing here is re-entered).
/** The bone's direction under the rotation asked about. */
const softDir = new Vector3();
/** The eased direction. */
const softDirOut = new Vector3();
/** The polygon's reach toward a direction (an array: no number crosses a call). */
const reachSlot = new Float64Array(1);
/** A share of the way to a range's end, eased in place ({@link EaseShareInPlace}). */
const easeSlot = new Float64Array(1);

/**
 * A share of the way to a range's end past {@link SOFT_LIMIT_KNEE}, eased in place in `e[0]`:
 * `K + (1 - K) tanh((r - K) / (1 - K))`. In an array: a number a call returns or is handed may
 * be boxed (V8's choice), 16 bytes of garbage a call.
 */
function EaseShareInPlace(e: Float64Array): void {
    const k = SOFT_LIMIT_KNEE;
    e[0] = k + (1 - k) * Math.tanh((e[0] - k) / (1 - k));
}

/**
 * The soft limit of a held bone with limits (`JointLimits.softLimitCanonicalToRef`, which
 * describes it): the twist's share of the way to the end of its range and the bone direction's share
 * of the way from its polygon's centre to the boundary, each eased past {@link SOFT_LIMIT_KNEE}.
 * Returns the direction to rebuild the rotation with (module scratch: the eased one, or the bone's
 * own when only the twist is eased), the twist to rebuild it with in `angleSlots[1]`; null when the
 * rotation stays as it is. Allocation-free; never throws.
 * @param tables the avatar's limit tables
 * @param polygon the bone's swing polygon
 * @param bone the human bone
 * @param t its twist axis (unit, canonical axes)
 * @param q its rotation (unit quaternion, canonical axes: `Q_b` of docs/muscles.md)
 */
export function SoftLimitSwingTwist(tables: JointLimitTables, polygon: SphericalPolygon, bone: HumanBone, t: Vector3, q: Quaternion): Vector3 | null {
    const f = tables.bone;
    const o = BONE_STRIDE * bone;
    // The fast tests of the clamp, on the eased zone's bounds.
    const p = q.x * t.x + q.y * t.y + q.z * t.z;
    const twistEasy = p * p <= tables.soft[2 * bone + 1] * (p * p + q.w * q.w);
    const d = softDir;
    BoneDirectionToRef(q, t, d);
    const dc = d.x * f[o + 4] + d.y * f[o + 5] + d.z * f[o + 6];
    const swingEasy = dc >= tables.soft[2 * bone];
    if (twistEasy && swingEasy) return null;
    // Twist (only past the eased zone's fast bound): its share of the way from 0 to the end of
    // the range on its side, on the range's own turn (a range may reach past a half turn); past
    // the range, from its nearer end's side (the clamp's choice); an end at 0 has no way to ease
    // along: a twist past it stops there.
    let twistMoved = false;
    if (!twistEasy) {
        SwingTwistDecomposeToRef(q, t, null, null, angleSlots, 0);
        const lo = tables.twist[2 * bone];
        const hi = tables.twist[2 * bone + 1];
        const a = angleSlots;
        a[1] = a[0];
        if (hi - lo < TWO_PI) {
            let end: number;
            let along: number;
            if (TwistOnRange(tables.twist, bone)) {
                along = a[3];
                end = along >= 0 ? hi : lo;
            } else {
                NearerEndOfTwist(tables.twist, bone);
                end = a[2];
                along = a[3];
                if (end === 0) a[1] = 0;
            }
            if (end !== 0) {
                const e = easeSlot;
                e[0] = along / end;
                if (e[0] > SOFT_LIMIT_KNEE) {
                    EaseShareInPlace(e);
                    a[1] = end * e[0];
                }
            }
        }
        twistMoved = a[1] !== a[0];
    }
    // Swing: along the great circle from the polygon's centre through d.
    const dOut = softDirOut;
    let swingMoved = false;
    if (swingEasy) reachSlot[0] = NaN;
    else polygon.boundaryAngleTowardsToRef(d, reachSlot);
    const reach = reachSlot[0];
    if (reach === reach) {
        const ux = d.x - dc * f[o + 4];
        const uy = d.y - dc * f[o + 5];
        const uz = d.z - dc * f[o + 6];
        const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        const angle = Math.atan2(ul, dc);
        const e = easeSlot;
        e[0] = angle / reach;
        if (e[0] > SOFT_LIMIT_KNEE) {
            EaseShareInPlace(e);
            const a = e[0] * reach;
            const cs = Math.cos(a);
            const sn = Math.sin(a) / ul;
            dOut.x = cs * f[o + 4] + sn * ux;
            dOut.y = cs * f[o + 5] + sn * uy;
            dOut.z = cs * f[o + 6] + sn * uz;
            swingMoved = true;
        }
    } else if (!swingEasy) {
        // At the centre (nothing to ease) or opposite it (the nearest direction inside).
        swingMoved = polygon.clampDirectionToRef(d, dOut);
    }
    if (!swingMoved && !twistMoved) return null;
    // The twist as it is when it needs no easing (decomposed only now, as the clamp does).
    if (twistEasy) SwingTwistDecomposeToRef(q, t, null, null, angleSlots, 1);
    return swingMoved ? dOut : d;
}
