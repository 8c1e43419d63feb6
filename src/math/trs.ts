import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";

/**
 * A transform kept as translation, rotation and a separate per-axis scale, composed the way
 * Unreal's `FTransform` composes them: rotation and scale never mix, so a chain of transforms
 * never picks up shear.
 *
 * A point `p` in the transform's own (local) space goes to its parent's space as
 * `rotation * (scale * p) + translation` (scale first, then rotation, then translation; the same
 * order as Babylon's `Matrix.Compose(scale, rotation, translation)`).
 *
 * **Local to world.** A child `c` under a parent `P` (both TRS) gets
 * - rotation `P.rotation * c.rotation`,
 * - scale `P.scale * c.scale` (per axis),
 * - translation `P.rotation * (P.scale * c.translation) + P.translation`.
 *
 * **Where this differs from matrices.** Babylon's scene graph (like Unity's) multiplies 4x4
 * matrices: `world = local * parentWorld` (row vectors). The child's origin lands at the same
 * place either way, and when every scale is uniform the two agree exactly. With a non-uniform
 * parent scale and a child rotated relative to it, the matrix product applies the parent's scale
 * along the *parent's* axes to the child's rotated frame: the child's world matrix is sheared (not a
 * rotation times a scale), and points of the child's space land elsewhere than here. The TRS
 * composition applies the accumulated scale along the child's *own* axes instead (Unreal's
 * behaviour), and drops the shear. The round trip local -> world -> local is exact in either case
 * for TRS; a sheared matrix decomposes into a TRS only approximately.
 *
 * Conventions: quaternions compose as Babylon's `multiply` (`a.multiply(b)` applies `b` first).
 */
export interface ITrs {
    /** Translation (metres, in the parent's space). */
    readonly translation: Vector3;
    /** Rotation relative to the parent (unit quaternion). */
    readonly rotation: Quaternion;
    /** Scale per axis of the transform's own space (1 = none). Components must not be 0 for the inverse operations. */
    readonly scale: Vector3;
}

/** A new identity {@link ITrs} (zero translation, identity rotation, unit scale), or a copy of the given parts. */
export function CreateTrs(translation?: Vector3, rotation?: Quaternion, scale?: Vector3): ITrs {
    return {
        translation: translation ? translation.clone() : Vector3.Zero(),
        rotation: rotation ? rotation.clone() : Quaternion.Identity(),
        scale: scale ? scale.clone() : Vector3.One(),
    };
}

/** Copies `source` into `result`. Returns `result`. */
export function CopyTrsToRef(source: ITrs, result: ITrs): ITrs {
    result.translation.copyFrom(source.translation);
    result.rotation.copyFrom(source.rotation);
    result.scale.copyFrom(source.scale);
    return result;
}

const scratchT = new Vector3();
const scratchConj = new Quaternion();
const scratchV = new Vector3();

/**
 * Local to world: the transform of a child `local` under a parent whose world transform is
 * `parentWorld` (see {@link ITrs} for the formula). `result` may be `local` or `parentWorld`.
 * Allocation-free. Returns `result`.
 */
export function ComposeTrsToRef(local: ITrs, parentWorld: ITrs, result: ITrs): ITrs {
    const ps = parentWorld.scale;
    // translation = parentRotation * (parentScale * localTranslation) + parentTranslation
    local.translation.multiplyToRef(ps, scratchT);
    scratchT.applyRotationQuaternionInPlace(parentWorld.rotation).addInPlace(parentWorld.translation);
    const sx = ps.x * local.scale.x;
    const sy = ps.y * local.scale.y;
    const sz = ps.z * local.scale.z;
    // rotation = parentRotation * localRotation
    parentWorld.rotation.multiplyToRef(local.rotation, result.rotation);
    result.translation.copyFrom(scratchT);
    result.scale.set(sx, sy, sz);
    return result;
}

/**
 * World to local: the local transform that puts a child at `world` under a parent at
 * `parentWorld`, the exact inverse of {@link ComposeTrsToRef}:
 * rotation `inverse(parentRotation) * worldRotation`, scale `worldScale / parentScale`, translation
 * `(inverse(parentRotation) * (worldTranslation - parentTranslation)) / parentScale`.
 * `result` may be `world` or `parentWorld`. Allocation-free. Returns `result`.
 */
export function RelativeTrsToRef(world: ITrs, parentWorld: ITrs, result: ITrs): ITrs {
    const ps = parentWorld.scale;
    const sx = world.scale.x / ps.x;
    const sy = world.scale.y / ps.y;
    const sz = world.scale.z / ps.z;
    parentWorld.rotation.conjugateToRef(scratchConj);
    world.translation.subtractToRef(parentWorld.translation, scratchV);
    scratchV.applyRotationQuaternionInPlace(scratchConj);
    const tx = scratchV.x / ps.x;
    const ty = scratchV.y / ps.y;
    const tz = scratchV.z / ps.z;
    // local rotation = inverse(parentRotation) * worldRotation
    scratchConj.multiplyToRef(world.rotation, result.rotation);
    result.translation.set(tx, ty, tz);
    result.scale.set(sx, sy, sz);
    return result;
}

/** Local to world for a point: `rotation * (scale * point) + translation`. `result` may be `point`. Returns `result`. */
export function TransformPointByTrsToRef(trs: ITrs, point: Vector3, result: Vector3): Vector3 {
    point.multiplyToRef(trs.scale, result);
    result.applyRotationQuaternionInPlace(trs.rotation);
    return result.addInPlace(trs.translation);
}

/** World to local for a point, the inverse of {@link TransformPointByTrsToRef}: `(inverse(rotation) * (point - translation)) / scale`. `result` may be `point`. Returns `result`. */
export function InverseTransformPointByTrsToRef(trs: ITrs, point: Vector3, result: Vector3): Vector3 {
    trs.rotation.conjugateToRef(scratchConj);
    point.subtractToRef(trs.translation, result);
    result.applyRotationQuaternionInPlace(scratchConj);
    return result.divideInPlace(trs.scale);
}

/** The Babylon matrix of a TRS (`Matrix.Compose(scale, rotation, translation)`, row vectors). Returns `result`. */
export function TrsToMatrixToRef(trs: ITrs, result: Matrix): Matrix {
    Matrix.ComposeToRef(trs.scale, trs.rotation, trs.translation, result);
    return result;
}
