import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { MuscleSetup } from "./setup.js";

const tmpV = new Vector3();
const tmpV2 = new Vector3();
const left = new Vector3();
const up = new Vector3();
const fwd = new Vector3();
const right = new Vector3();

/**
 * World rotation and position of the joints the muscle setup needs (the mapped bones and their
 * ancestors), from local rotations and positions, parents first. Joints outside that set are not
 * written. Allocation-free.
 * @param local rotation of every joint relative to its parent
 * @param localPos position of every joint relative to its parent (parent's scaled space)
 */
export function ForwardKinematicsToRef(
    setup: MuscleSetup,
    local: readonly Quaternion[],
    localPos: readonly Vector3[],
    world: Quaternion[],
    pos: Vector3[],
): void {
    const joints = setup.fkJoints;
    const parent = setup.rigParent;
    const scale = setup.worldScale;
    for (let k = 0; k < joints.length; k++) {
        const j = joints[k];
        const p = parent[j];
        if (p < 0) {
            world[j].copyFrom(local[j]);
            pos[j].copyFrom(localPos[j]);
        } else {
            // world = parentWorld * local; position = parentPosition + parentWorld * (parentScale * localPosition)
            world[p].multiplyToRef(local[j], world[j]);
            localPos[j].multiplyToRef(scale[p], tmpV);
            tmpV.applyRotationQuaternionToRef(world[p], tmpV);
            pos[p].addToRef(tmpV, pos[j]);
        }
    }
}

/** Centre of mass (rig space) of the pose given by world rotations and positions. Allocation-free. */
export function CenterOfMassToRef(setup: MuscleSetup, world: readonly Quaternion[], pos: readonly Vector3[], result: Vector3): Vector3 {
    result.setAll(0);
    let total = 0;
    for (let i = 0; i < setup.massJoint.length; i++) {
        const j = setup.massJoint[i];
        const m = setup.massWeight[i];
        setup.massOffset[i].applyRotationQuaternionToRef(world[j], tmpV);
        tmpV.addInPlace(pos[j]);
        result.addInPlace(tmpV.scaleInPlace(m));
        total += m;
    }
    return result.scaleInPlace(1 / total);
}

/**
 * The body's orientation from joint positions (reference §3.3): left from the right to the left
 * upper legs and upper arms, up from the legs' middle to the arms' middle, forward = up x left;
 * written as the rotation taking X, Y, Z to right, up, forward (rig space). Allocation-free.
 */
export function BodyFrameToRef(setup: MuscleSetup, pos: readonly Vector3[], result: Quaternion): Quaternion {
    const j = setup.joint;
    const lul = pos[j[HumanBone.LeftUpperLeg]];
    const rul = pos[j[HumanBone.RightUpperLeg]];
    const lua = pos[j[HumanBone.LeftUpperArm]];
    const rua = pos[j[HumanBone.RightUpperArm]];
    lul.subtractToRef(rul, tmpV).normalize();
    lua.subtractToRef(rua, tmpV2).normalize();
    tmpV.addToRef(tmpV2, left).normalize();
    // up = mid(arms) - mid(legs), made perpendicular to left
    lua.addToRef(rua, tmpV).subtractInPlace(lul).subtractInPlace(rul);
    tmpV.subtractToRef(left.scaleToRef(Vector3.Dot(tmpV, left), tmpV2), up).normalize();
    Vector3.CrossToRef(up, left, fwd);
    fwd.normalize();
    left.scaleToRef(-1, right);
    return Quaternion.RotationQuaternionFromAxisToRef(right, up, fwd, result).normalize();
}
