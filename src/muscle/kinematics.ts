import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { QuaternionMultiplyToRef, QuaternionNormalizeInPlace, Vector3CopyToRef, Vector3DirectionToRef, Vector3NormalizeInPlace } from "../math/hotMath.js";
import type { MuscleSetup } from "./setup.js";

const tmpV = new Vector3();
const tmpV2 = new Vector3();
const left = new Vector3();
const up = new Vector3();
const fwd = new Vector3();
const right = new Vector3();

/**
 * World rotation and position of the joints the muscle setup needs (the mapped bones and their
 * ancestors, `joints` if given: any of them, parents first), from local rotations and positions.
 * Joints outside that set are not written. Allocation-free, and written out (no number passed to
 * a call, see `hotMath`): the runtime's solver and pose kinematics run it every frame.
 * @param local rotation of every joint relative to its parent
 * @param localPos position of every joint relative to its parent (parent's scaled space)
 * @param joints the joints to compute, parents first; default `setup.fkJoints`
 */
export function ForwardKinematicsToRef(
    setup: MuscleSetup,
    local: readonly Quaternion[],
    localPos: readonly Vector3[],
    world: Quaternion[],
    pos: Vector3[],
    joints: Int32Array = setup.fkJoints,
): void {
    const parent = setup.rigParent;
    const scale = setup.worldScale;
    for (let k = 0; k < joints.length; k++) {
        const j = joints[k];
        const p = parent[j];
        if (p < 0) {
            world[j].copyFrom(local[j]);
            Vector3CopyToRef(localPos[j], pos[j]);
        } else {
            // world = parentWorld * local; position = parentPosition + parentWorld * (parentScale * localPosition)
            const q = world[p];
            QuaternionMultiplyToRef(q, local[j], world[j]);
            // Babylon's multiplyToRef, applyRotationQuaternionInPlace and addToRef, written out.
            const l = localPos[j];
            const s = scale[p];
            const vx = l.x * s.x;
            const vy = l.y * s.y;
            const vz = l.z * s.z;
            const qx = q.x;
            const qy = q.y;
            const qz = q.z;
            const qw = q.w;
            const tx = 2 * (qy * vz - qz * vy);
            const ty = 2 * (qz * vx - qx * vz);
            const tz = 2 * (qx * vy - qy * vx);
            const from = pos[p];
            const to = pos[j];
            to.x = from.x + (vx + qw * tx + qy * tz - qz * ty);
            to.y = from.y + (vy + qw * ty + qz * tx - qx * tz);
            to.z = from.z + (vz + qw * tz + qx * ty - qy * tx);
        }
    }
}

/** Centre of mass (rig space) of the pose given by world rotations and positions. Allocation-free. */
export function CenterOfMassToRef(setup: MuscleSetup, world: readonly Quaternion[], pos: readonly Vector3[], result: Vector3): Vector3 {
    // Sums kept in locals and coordinates written one by one: no number is passed to a call
    // (V8 boxes those it does not inline, see `hotMath`).
    let x = 0;
    let y = 0;
    let z = 0;
    let total = 0;
    for (let i = 0; i < setup.massJoint.length; i++) {
        const j = setup.massJoint[i];
        const m = setup.massWeight[i];
        setup.massOffset[i].applyRotationQuaternionToRef(world[j], tmpV);
        const p = pos[j];
        x += (tmpV.x + p.x) * m;
        y += (tmpV.y + p.y) * m;
        z += (tmpV.z + p.z) * m;
        total += m;
    }
    const k = 1 / total;
    result.x = x * k;
    result.y = y * k;
    result.z = z * k;
    return result;
}

/** Scratch matrix for {@link BodyFrameToRef} (Babylon's storage: the same rounding as `Quaternion.RotationQuaternionFromAxisToRef`). */
const axes = new Matrix();

/**
 * The body's orientation from joint positions (reference §3.3): left from the right to the left
 * upper legs and upper arms, up from the legs' middle to the arms' middle, forward = up x left;
 * written as the rotation taking X, Y, Z to right, up, forward (rig space). Allocation-free.
 */
export function BodyFrameToRef(setup: MuscleSetup, pos: readonly Vector3[], result: Quaternion): Quaternion {
    // The arithmetic of Babylon's vector methods and of `Quaternion.RotationQuaternionFromAxisToRef`,
    // written out so that no number is passed to or returned from a call (see `hotMath`).
    const j = setup.joint;
    const lul = pos[j[HumanBone.LeftUpperLeg]];
    const rul = pos[j[HumanBone.RightUpperLeg]];
    const lua = pos[j[HumanBone.LeftUpperArm]];
    const rua = pos[j[HumanBone.RightUpperArm]];
    // left = normalize(normalize(lul - rul) + normalize(lua - rua))
    Vector3DirectionToRef(rul, lul, tmpV);
    Vector3DirectionToRef(rua, lua, tmpV2);
    left.x = tmpV.x + tmpV2.x;
    left.y = tmpV.y + tmpV2.y;
    left.z = tmpV.z + tmpV2.z;
    Vector3NormalizeInPlace(left);
    // up = mid(arms) - mid(legs), made perpendicular to left
    const ux = lua.x + rua.x - lul.x - rul.x;
    const uy = lua.y + rua.y - lul.y - rul.y;
    const uz = lua.z + rua.z - lul.z - rul.z;
    const d = ux * left.x + uy * left.y + uz * left.z;
    up.x = ux - left.x * d;
    up.y = uy - left.y * d;
    up.z = uz - left.z * d;
    Vector3NormalizeInPlace(up);
    // forward = up x left
    fwd.x = up.y * left.z - up.z * left.y;
    fwd.y = up.z * left.x - up.x * left.z;
    fwd.z = up.x * left.y - up.y * left.x;
    Vector3NormalizeInPlace(fwd);
    right.x = left.x * -1;
    right.y = left.y * -1;
    right.z = left.z * -1;
    // Quaternion.RotationQuaternionFromAxisToRef(right, up, fwd): the axes normalized, as the rows of a rotation matrix.
    Vector3NormalizeInPlace(right);
    Vector3NormalizeInPlace(up);
    Vector3NormalizeInPlace(fwd);
    const m = axes.m as Float32Array | number[];
    m[0] = right.x;
    m[1] = right.y;
    m[2] = right.z;
    m[4] = up.x;
    m[5] = up.y;
    m[6] = up.z;
    m[8] = fwd.x;
    m[9] = fwd.y;
    m[10] = fwd.z;
    return QuaternionNormalizeInPlace(Quaternion.FromRotationMatrixToRef(axes, result));
}
