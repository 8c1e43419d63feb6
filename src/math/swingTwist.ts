import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";

/**
 * What Babylon's math lacks for muscle space: swing-twist decomposition and rotation vectors (log
 * and exp maps). All functions write into caller-owned objects and allocate nothing; for products,
 * inverses and rotating vectors use Babylon's `multiplyToRef`, `conjugateToRef` and
 * `applyRotationQuaternionToRef`.
 *
 * Conventions: quaternions compose as Babylon's `multiply` (the Hamilton product, `a.multiply(b)`
 * applies `b` first); a rotation by +angle about a unit axis is `Quaternion.RotationAxis(axis, angle)`.
 */

/**
 * Splits `q` into `swing * twist`, twist being the rotation about the unit `axis` (applied first)
 * and swing a rotation about an axis perpendicular to `axis`, and writes the twist angle (radians,
 * in (-pi, pi]; 0 for a half-turn swing, whose twist is undefined and written as the identity) into
 * `angles[index]`. `swing` and `twist` may be null when not wanted. `q` is read before any output
 * is written, so it may be one of them.
 *
 * The allocation-free form of {@link SwingTwistDecompose}, for the per-frame path: the angle goes
 * into a caller-owned slot because V8 boxes a double (a heap number, 16 bytes) that is returned from
 * or passed to a call it does not inline, and whether it inlines is its choice, not ours.
 */
export function SwingTwistDecomposeToRef(
    q: Quaternion,
    axis: Vector3,
    swing: Quaternion | null,
    twist: Quaternion | null,
    angles: Float64Array,
    index: number,
): void {
    // Same rotation, hemisphere w >= 0.
    const s = q.w < 0 ? -1 : 1;
    const qx = q.x * s;
    const qy = q.y * s;
    const qz = q.z * s;
    const qw = q.w * s;
    // twist = normalize(w, (v . axis) axis)
    const p = qx * axis.x + qy * axis.y + qz * axis.z;
    const len = Math.sqrt(p * p + qw * qw);
    let tw: number;
    let tx: number;
    let ty: number;
    let tz: number;
    let angle: number;
    if (len < 1e-12) {
        // A half-turn swing: no defined twist.
        tw = 1;
        tx = ty = tz = 0;
        angle = 0;
    } else {
        tw = qw / len;
        tx = (axis.x * p) / len;
        ty = (axis.y * p) / len;
        tz = (axis.z * p) / len;
        angle = 2 * Math.atan2(p, qw);
        if (angle > Math.PI) angle -= 2 * Math.PI;
    }
    if (swing) {
        // swing = q * inverse(twist)  (twist is a unit quaternion: inverse = conjugate)
        const x = qw * -tx + qx * tw + qy * -tz - qz * -ty;
        const y = qw * -ty - qx * -tz + qy * tw + qz * -tx;
        const z = qw * -tz + qx * -ty - qy * -tx + qz * tw;
        const w = qw * tw - qx * -tx - qy * -ty - qz * -tz;
        // Coordinates written one by one (`set` hands the numbers on to another call).
        swing.x = x;
        swing.y = y;
        swing.z = z;
        swing.w = w;
    }
    if (twist) {
        twist.x = tx;
        twist.y = ty;
        twist.z = tz;
        twist.w = tw;
    }
    angles[index] = angle;
}

const _angle = new Float64Array(1);

/**
 * Splits `q` into `swing * twist`, twist being the rotation about the unit `axis` (applied first)
 * and swing a rotation about an axis perpendicular to `axis`. Returns the twist angle in radians, in
 * (-pi, pi] (0 for a half-turn swing, whose twist is undefined and written as the identity).
 * `swing` and `twist` may be null when not wanted. `q` is read before any output is written, so it
 * may be one of them. On the per-frame path prefer {@link SwingTwistDecomposeToRef}: the returned
 * number is boxed when V8 does not inline the call.
 */
export function SwingTwistDecompose(q: Quaternion, axis: Vector3, swing: Quaternion | null, twist: Quaternion | null): number {
    SwingTwistDecomposeToRef(q, axis, swing, twist, _angle, 0);
    return _angle[0];
}

/**
 * The twist angle of `q` about the unit `axis` (radians), on the turn nearest `near`: a rotation
 * gives its twist only modulo a full turn, so a twist tracked past half a turn (a limb's twist
 * with its neighbour's added) is read back on the side it was meant.
 */
export function TwistAngleNear(q: Quaternion, axis: Vector3, near: number): number {
    const a = SwingTwistDecompose(q, axis, null, null);
    return a + 2 * Math.PI * Math.round((near - a) / (2 * Math.PI));
}

/**
 * {@link TwistAngleNear} for the per-frame path: reads `near` from `angles[index]` and writes the
 * twist angle there (same result), so that no number crosses a call (see
 * {@link SwingTwistDecomposeToRef}). Allocation-free.
 * @internal
 */
export function TwistAngleNearInPlace(q: Quaternion, axis: Vector3, angles: Float64Array, index: number): void {
    const near = angles[index];
    SwingTwistDecomposeToRef(q, axis, null, null, angles, index);
    const a = angles[index];
    angles[index] = a + 2 * Math.PI * Math.round((near - a) / (2 * Math.PI));
}

/**
 * The rotation vector (axis times angle, radians) of a unit quaternion, shortest path: the log map.
 * Allocation-free.
 */
export function QuaternionToRotationVectorToRef(q: Quaternion, result: Vector3): Vector3 {
    const s = q.w < 0 ? -1 : 1;
    const x = q.x * s;
    const y = q.y * s;
    const z = q.z * s;
    const w = Math.min(1, q.w * s);
    const sinHalf = Math.sqrt(x * x + y * y + z * z);
    // (Coordinates written one by one: `set` hands the numbers on to another call, see `hotMath`.)
    const k = sinHalf < 1e-12 ? 2 : (2 * Math.atan2(sinHalf, w)) / sinHalf;
    result.x = x * k;
    result.y = y * k;
    result.z = z * k;
    return result;
}

/** The unit quaternion of a rotation vector (axis times angle, radians): the exp map. */
export function RotationVectorToQuaternionToRef(x: number, y: number, z: number, result: Quaternion): Quaternion {
    const angle = Math.sqrt(x * x + y * y + z * z);
    if (angle < 1e-12) {
        return result.set(x * 0.5, y * 0.5, z * 0.5, 1).normalize();
    }
    const s = Math.sin(angle * 0.5) / angle;
    return result.set(x * s, y * s, z * s, Math.cos(angle * 0.5));
}
