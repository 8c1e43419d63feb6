import type { Quaternion } from "@babylonjs/core/Maths/math.vector.js";

/**
 * Spherical linear interpolation of rotations on a chosen path, at constant angular speed.
 *
 * A rotation has two unit quaternions, `q` and `-q`. Between two rotations `a` and `b` there are
 * therefore two great arcs on the unit sphere of quaternions: the short one (half-angle
 * `theta <= pi/2`, the rotation from `a` to `b` turns by `2 theta <= pi`) and the long one
 * (half-angle `pi - theta`, the rotation turns the other way round the same axis by
 * `2 pi - 2 theta`). Babylon's `Quaternion.Slerp` always takes the short one.
 *
 * Both paths are computed from the relative rotation `d = conjugate(a) * b` with its sign chosen
 * so that `d.w >= 0` (short) or `d.w <= 0` (long); the half-angle of the arc is then
 * `phi = acos(d.w)`, acute on the short path and **obtuse** on the long one, and the result is
 * `a * (cos(t phi), sin(t phi) * axis)`. This is the textbook
 * `sin((1-t) phi)/sin(phi) a + sin(t phi)/sin(phi) b'` with `b' = +-b`, written so that the angle
 * turned is exactly proportional to `t` on both paths. (Flipping the sign of one factor of the short
 * formula instead, while keeping the acute angle, does not give a great arc at constant speed:
 * its steps are unequal.) `acos` is evaluated as `atan2(|d.xyz|, d.w)`, which keeps full precision
 * near 0 and pi where `acos` loses half the digits.
 *
 * Conventions: quaternions compose as Babylon's `multiply` (`a.multiply(b)` applies `b` first).
 */

/**
 * Below this norm of the vector part of the relative rotation (a sine of a half-angle, so about
 * radians) the two rotations are treated as equal: the short path is then `a` (nothing to turn),
 * and the long path is a full turn about {@link LONG_PATH_DEFAULT_AXIS}, the axis being undefined.
 * 1e-15 is a few ulps of 1: any larger difference still gives an axis to float precision.
 */
export const SLERP_PARALLEL_EPSILON = 1e-15;

/**
 * The axis (unit, in `a`'s local frame) of the full turn that {@link SlerpLongToRef} makes
 * between two equal rotations, where no axis follows from the inputs: local +Y.
 */
export const LONG_PATH_DEFAULT_AXIS: {
    /** X component (0). */
    readonly x: number;
    /** Y component (1). */
    readonly y: number;
    /** Z component (0). */
    readonly z: number;
} = { x: 0, y: 1, z: 0 };

function slerpPath(a: Quaternion, b: Quaternion, t: number, long: boolean, result: Quaternion): Quaternion {
    const ax = a.x;
    const ay = a.y;
    const az = a.z;
    const aw = a.w;
    const bx = b.x;
    const by = b.y;
    const bz = b.z;
    const bw = b.w;
    // d = conjugate(a) * b (the rotation from a to b, in a's local frame)
    let dx = aw * bx - ax * bw - ay * bz + az * by;
    let dy = aw * by + ax * bz - ay * bw - az * bx;
    let dz = aw * bz - ax * by + ay * bx - az * bw;
    let dw = aw * bw + ax * bx + ay * by + az * bz;
    // Pick the hemisphere of the path: d.w >= 0 short (acute half-angle), d.w <= 0 long (obtuse).
    if (long ? dw > 0 : dw < 0) {
        dx = -dx;
        dy = -dy;
        dz = -dz;
        dw = -dw;
    }
    const s = Math.sqrt(dx * dx + dy * dy + dz * dz);
    let ux: number;
    let uy: number;
    let uz: number;
    if (s < SLERP_PARALLEL_EPSILON) {
        if (!long) {
            result.x = ax;
            result.y = ay;
            result.z = az;
            result.w = aw;
            return result;
        }
        ux = LONG_PATH_DEFAULT_AXIS.x;
        uy = LONG_PATH_DEFAULT_AXIS.y;
        uz = LONG_PATH_DEFAULT_AXIS.z;
    } else {
        ux = dx / s;
        uy = dy / s;
        uz = dz / s;
    }
    // phi = acos(d.w), the half-angle of the arc (obtuse on the long path; pi for equal inputs).
    const phi = s < SLERP_PARALLEL_EPSILON ? Math.PI : Math.atan2(s, dw);
    const c = Math.cos(t * phi);
    const sn = Math.sin(t * phi);
    const ex = ux * sn;
    const ey = uy * sn;
    const ez = uz * sn;
    // result = a * e, e = (cos(t phi), sin(t phi) u)
    result.x = ax * c + aw * ex + ay * ez - az * ey;
    result.y = ay * c + aw * ey + az * ex - ax * ez;
    result.z = az * c + aw * ez + ax * ey - ay * ex;
    result.w = aw * c - ax * ex - ay * ey - az * ez;
    return result;
}

/**
 * Slerp on the short path: the rotation a fraction `t` of the way from `a` to `b`, turning by at
 * most pi radians in all, at constant angular speed. Same rotations as Babylon's
 * `Quaternion.SlerpToRef` (up to sign), with full precision when `a` and `b` are close.
 * @param a start rotation (unit quaternion), returned (exactly) at `t = 0`
 * @param b end rotation (unit quaternion), returned up to sign at `t = 1`
 * @param t fraction, usually in [0, 1]; values outside extrapolate along the same arc
 * @param result written; may be `a` or `b`
 * @returns `result`
 */
export function SlerpShortToRef(a: Quaternion, b: Quaternion, t: number, result: Quaternion): Quaternion {
    return slerpPath(a, b, t, false, result);
}

/**
 * Slerp on the forced long path: the rotation a fraction `t` of the way from `a` to `b` turning
 * the other way round, by `2 pi` minus the short path's angle (between pi and 2 pi radians in all),
 * at constant angular speed. For equal inputs it makes a full turn about
 * {@link LONG_PATH_DEFAULT_AXIS}.
 * @param a start rotation (unit quaternion), returned (exactly) at `t = 0`
 * @param b end rotation (unit quaternion), returned up to sign at `t = 1`
 * @param t fraction, usually in [0, 1]
 * @param result written; may be `a` or `b`
 * @returns `result`
 */
export function SlerpLongToRef(a: Quaternion, b: Quaternion, t: number, result: Quaternion): Quaternion {
    return slerpPath(a, b, t, true, result);
}

/**
 * The angle in radians (in [0, 2 pi]) that {@link SlerpShortToRef} (`long = false`, at most pi) or
 * {@link SlerpLongToRef} (`long = true`, at least pi) turns through from `a` to `b`. The two add up to
 * 2 pi.
 */
export function SlerpPathAngle(a: Quaternion, b: Quaternion, long: boolean): number {
    const dot = Math.abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
    // |conjugate(a) * b|'s vector part, from |d|^2 = 1 (unit inputs): accurate near 0 through atan2.
    const dx = a.w * b.x - a.x * b.w - a.y * b.z + a.z * b.y;
    const dy = a.w * b.y + a.x * b.z - a.y * b.w - a.z * b.x;
    const dz = a.w * b.z - a.x * b.y + a.y * b.x - a.z * b.w;
    const shortAngle = 2 * Math.atan2(Math.sqrt(dx * dx + dy * dy + dz * dz), dot);
    return long ? 2 * Math.PI - shortAngle : shortAngle;
}
