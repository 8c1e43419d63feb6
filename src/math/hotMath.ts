import { Epsilon } from "@babylonjs/core/Maths/math.constants.js";
import type { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";

/**
 * Babylon math for the per-frame path, written so that V8 allocates nothing: the same arithmetic
 * as Babylon's methods (the same results, to the bit), but no number is passed to or returned from
 * a call and coordinates are read and written through the `x`/`y`/`z`/`w` accessors, which V8
 * always inlines. Babylon's own methods often hand numbers on to another method (`set`,
 * `multiplyToRef` and `conjugateToRef` call `copyFromFloats`, `normalize` calls `length`);
 * inlined into a large function, that inner call may not be, and V8 then boxes every number
 * crossing it (a heap allocation per number, per call). Internal: not part of the package's API.
 */

/** `result = a * b` (as `a.multiplyToRef(b, result)`: `b` applied first). `result` may be `a` or `b`. Returns `result`. */
export function QuaternionMultiplyToRef(a: Quaternion, b: Quaternion, result: Quaternion): Quaternion {
    const ax = a.x;
    const ay = a.y;
    const az = a.z;
    const aw = a.w;
    const bx = b.x;
    const by = b.y;
    const bz = b.z;
    const bw = b.w;
    result.x = ax * bw + ay * bz - az * by + aw * bx;
    result.y = -ax * bz + ay * bw + az * bx + aw * by;
    result.z = ax * by - ay * bx + az * bw + aw * bz;
    result.w = -ax * bx - ay * by - az * bz + aw * bw;
    return result;
}

/** `result = conjugate(q)` (as `q.conjugateToRef(result)`). `result` may be `q`. Returns `result`. */
export function QuaternionConjugateToRef(q: Quaternion, result: Quaternion): Quaternion {
    const x = q.x;
    const y = q.y;
    const z = q.z;
    result.x = -x;
    result.y = -y;
    result.z = -z;
    result.w = q.w;
    return result;
}

/** Negates `q` in place when it lies on the other side of `reference` (their dot product below 0): the same rotation, on the reference's side, for a caller that blends. Returns `q`. */
export function QuaternionToSideOfInPlace(q: Quaternion, reference: Quaternion): Quaternion {
    if (q.x * reference.x + q.y * reference.y + q.z * reference.z + q.w * reference.w < 0) {
        q.x = -q.x;
        q.y = -q.y;
        q.z = -q.z;
        q.w = -q.w;
    }
    return q;
}

/** Normalizes `q` in place (as `q.normalize()`). Returns `q`. */
export function QuaternionNormalizeInPlace(q: Quaternion): Quaternion {
    const x = q.x;
    const y = q.y;
    const z = q.z;
    const w = q.w;
    const len = Math.sqrt(x * x + y * y + z * z + w * w);
    if (len === 0 || len === 1) return q;
    const k = 1 / len;
    q.x = x * k;
    q.y = y * k;
    q.z = z * k;
    q.w = w * k;
    return q;
}

/** Normalizes `v` in place (as `v.normalize()`). Returns `v`. */
export function Vector3NormalizeInPlace(v: Vector3): Vector3 {
    const x = v.x;
    const y = v.y;
    const z = v.z;
    const len = Math.sqrt(x * x + y * y + z * z);
    if (len === 0 || len === 1) return v;
    const k = 1 / len;
    v.x = x * k;
    v.y = y * k;
    v.z = z * k;
    return v;
}

/** `result = normalize(to - from)` (as `to.subtractToRef(from, result).normalize()`): the direction from one point to another. Returns `result`. */
export function Vector3DirectionToRef(from: Vector3, to: Vector3, result: Vector3): Vector3 {
    result.x = to.x - from.x;
    result.y = to.y - from.y;
    result.z = to.z - from.z;
    return Vector3NormalizeInPlace(result);
}

/**
 * `result = v * M` for an affine `M` (row vector, translation in `m[12..14]`; as
 * `Vector3.TransformCoordinatesToRef` without the division by w, which is 1). `result` may be `v`.
 * Returns `result`.
 */
export function Vector3TransformAffineToRef(v: Vector3, matrix: Matrix, result: Vector3): Vector3 {
    const m = matrix.m;
    const x = v.x;
    const y = v.y;
    const z = v.z;
    result.x = x * m[0] + y * m[4] + z * m[8] + m[12];
    result.y = x * m[1] + y * m[5] + z * m[9] + m[13];
    result.z = x * m[2] + y * m[6] + z * m[10] + m[14];
    return result;
}

/** `result = source` (as `result.copyFrom(source)`). Returns `result`. */
export function Vector3CopyToRef(source: Vector3, result: Vector3): Vector3 {
    result.x = source.x;
    result.y = source.y;
    result.z = source.z;
    return result;
}

/**
 * `result` = the rotation by `angles[index]` radians about `axis` (as `Quaternion.RotationAxisToRef`;
 * the angle read from an array rather than passed). Returns `result`.
 */
export function QuaternionRotationAxisToRef(axis: Vector3, angles: Float64Array, index: number, result: Quaternion): Quaternion {
    const angle = angles[index];
    const ax = axis.x;
    const ay = axis.y;
    const az = axis.z;
    const w = Math.cos(angle / 2);
    const sinByLength = Math.sin(angle / 2) / Math.sqrt(ax * ax + ay * ay + az * az);
    result.w = w;
    result.x = ax * sinByLength;
    result.y = ay * sinByLength;
    result.z = az * sinByLength;
    return result;
}

/**
 * `result` = the rotation taking the unit vector `from` onto the unit vector `to` (as
 * `Quaternion.FromUnitVectorsToRef` with its default epsilon). Returns `result`.
 */
export function QuaternionFromUnitVectorsToRef(from: Vector3, to: Vector3, result: Quaternion): Quaternion {
    const fx = from.x;
    const fy = from.y;
    const fz = from.z;
    const tx = to.x;
    const ty = to.y;
    const tz = to.z;
    const r = fx * tx + fy * ty + fz * tz + 1;
    if (r < Epsilon) {
        if (Math.abs(fx) > Math.abs(fz)) {
            result.x = -fy;
            result.y = fx;
            result.z = 0;
            result.w = 0;
        } else {
            result.x = 0;
            result.y = -fz;
            result.z = fy;
            result.w = 0;
        }
    } else {
        result.x = fy * tz - fz * ty;
        result.y = fz * tx - fx * tz;
        result.z = fx * ty - fy * tx;
        result.w = r;
    }
    return QuaternionNormalizeInPlace(result);
}

/**
 * `result` = the slerp from `left` to `right` by `amounts[index]` (as `Quaternion.SlerpToRef`; the
 * amount read from an array rather than passed). `result` may be `left` or `right`. Returns `result`.
 */
export function QuaternionSlerpToRef(left: Quaternion, right: Quaternion, amounts: Float64Array, index: number, result: Quaternion): Quaternion {
    const amount = amounts[index];
    const lx = left.x;
    const ly = left.y;
    const lz = left.z;
    const lw = left.w;
    const rx = right.x;
    const ry = right.y;
    const rz = right.z;
    const rw = right.w;
    let num2: number;
    let num3: number;
    let num4 = lx * rx + ly * ry + lz * rz + lw * rw;
    let flag = false;
    if (num4 < 0) {
        flag = true;
        num4 = -num4;
    }
    if (num4 > 0.999999) {
        num3 = 1 - amount;
        num2 = flag ? -amount : amount;
    } else {
        const num5 = Math.acos(num4);
        const num6 = 1.0 / Math.sin(num5);
        num3 = Math.sin((1.0 - amount) * num5) * num6;
        num2 = flag ? -Math.sin(amount * num5) * num6 : Math.sin(amount * num5) * num6;
    }
    result.x = num3 * lx + num2 * rx;
    result.y = num3 * ly + num2 * ry;
    result.z = num3 * lz + num2 * rz;
    result.w = num3 * lw + num2 * rw;
    return result;
}

/**
 * `result` = `start + (end - start) * amounts[index]` (as `Vector3.LerpToRef`; the amount read from
 * an array rather than passed). `result` may be `start` or `end`. Returns `result`.
 */
export function Vector3LerpToRef(start: Vector3, end: Vector3, amounts: Float64Array, index: number, result: Vector3): Vector3 {
    const amount = amounts[index];
    const sx = start.x;
    const sy = start.y;
    const sz = start.z;
    result.x = sx + (end.x - sx) * amount;
    result.y = sy + (end.y - sy) * amount;
    result.z = sz + (end.z - sz) * amount;
    return result;
}
