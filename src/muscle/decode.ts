import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { RotationVectorToQuaternionToRef, TwistAngleNear } from "../math/swingTwist.js";
import type { HumanPose } from "./humanPose.js";
import { BodyFrameToRef, CenterOfMassToRef } from "./kinematics.js";
import { BoneMuscles } from "./muscles.js";
import { MuscleSetup } from "./setup.js";

const B = HumanBone;
const tmpQ = new Quaternion();
const tmpQ2 = new Quaternion();
const bodyFk = new Quaternion();
const delta = new Quaternion();
const comFk = new Vector3();
const comTarget = new Vector3();
const tmpV = new Vector3();

/** Twist angle (radians, about the bone's twist axis) a bone's muscles ask for. */
function twistOf(setup: MuscleSetup, bone: number, muscles: Float32Array): number {
    const mx = BoneMuscles[bone][0];
    return mx >= 0 ? setup.twistSign[bone] * setup.muscleToRadians(mx, muscles[mx]) : 0;
}

/** The swing of a bone (Y and Z muscles) into `result`. */
function swingOf(setup: MuscleSetup, bone: number, muscles: Float32Array, result: Quaternion): Quaternion {
    const my = BoneMuscles[bone][1];
    const mz = BoneMuscles[bone][2];
    const y = my >= 0 ? setup.muscleToRadians(my, muscles[my]) : 0;
    const z = mz >= 0 ? setup.muscleToRadians(mz, muscles[mz]) : 0;
    const ay = setup.axisY[bone];
    const az = setup.axisZ[bone];
    return RotationVectorToQuaternionToRef(ay.x * y + az.x * z, ay.y * y + az.y * z, ay.z * y + az.z * z, result);
}

/** q = swing * twist(angle about the bone's twist axis). */
function swingTwist(setup: MuscleSetup, bone: number, muscles: Float32Array, twist: number, result: Quaternion): Quaternion {
    swingOf(setup, bone, muscles, result);
    Quaternion.RotationAxisToRef(setup.twistAxis[bone], twist, tmpQ);
    return result.multiplyInPlace(tmpQ);
}

/**
 * A limb's twist shares: the upper bone keeps (1 - share) of its twist (measured after a missing
 * shoulder was folded in), the lower bone starts with the rest about the upper bone's axis; the
 * same between the lower bone and the hand or foot, which has no twist of its own.
 */
function shareLimbTwist(
    setup: MuscleSetup,
    q: Quaternion[],
    muscles: Float32Array,
    upper: number,
    lower: number,
    end: number,
    shareUpper: number,
    shareLower: number,
): void {
    const tu = setup.twistAxis[upper];
    // The upper bone's twist as its muscle asks (past half a turn too), with what a missing
    // shoulder folded in.
    const a = TwistAngleNear(q[upper], tu, twistOf(setup, upper, muscles)) * shareUpper;
    Quaternion.RotationAxisToRef(tu, -a, tmpQ);
    q[upper].multiplyInPlace(tmpQ);
    const tl = setup.twistAxis[lower];
    const b = twistOf(setup, lower, muscles) * shareLower;
    Quaternion.RotationAxisToRef(tl, -b, tmpQ);
    q[lower].multiplyInPlace(tmpQ);
    Quaternion.RotationAxisToRef(tu, a, tmpQ);
    tmpQ.multiplyToRef(q[lower], q[lower]);
    Quaternion.RotationAxisToRef(tl, b, tmpQ);
    tmpQ.multiplyToRef(q[end], q[end]);
}

/**
 * Decodes a {@link HumanPose} onto an avatar's rig: local rotations of every mapped bone and of the
 * joints between them (which keep their T-pose rotation), and the hips' local position and
 * rotation placed so that the centre of mass and the body orientation are the pose's. Writes into
 * `result` (initialise it once with {@link CreateReferenceRigPose}; joints outside the humanoid,
 * such as twist bones and tips, are left as they are) and returns it. Allocates nothing after the
 * avatar's first use. Missing optional bones: the motion of a missing chest or upper chest goes to
 * the spine bone below it, a missing neck's to the head, a missing shoulder's to the upper arm.
 */
export function DecodeHumanPose(avatar: HumanoidAvatar, pose: HumanPose, result: IRigPose): IRigPose {
    const setup = MuscleSetup.For(avatar);
    const { world, pos, dc, q } = setup.work;
    const muscles = pose.values;
    const joint = setup.joint;
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        swingTwist(setup, b, muscles, twistOf(setup, b, muscles), q[b]);
    }
    // Missing optional bones hand their rotation on.
    if (joint[B.Chest] < 0) q[B.Spine].multiplyInPlace(q[B.Chest]);
    if (joint[B.UpperChest] < 0) q[joint[B.Chest] >= 0 ? B.Chest : B.Spine].multiplyInPlace(q[B.UpperChest]);
    if (joint[B.Neck] < 0) q[B.Neck].multiplyToRef(q[B.Head], q[B.Head]);
    if (joint[B.LeftShoulder] < 0) q[B.LeftShoulder].multiplyToRef(q[B.LeftUpperArm], q[B.LeftUpperArm]);
    if (joint[B.RightShoulder] < 0) q[B.RightShoulder].multiplyToRef(q[B.RightUpperArm], q[B.RightUpperArm]);
    const s = setup.twistShare;
    shareLimbTwist(setup, q, muscles, B.LeftUpperArm, B.LeftLowerArm, B.LeftHand, s.upperArm, s.lowerArm);
    shareLimbTwist(setup, q, muscles, B.RightUpperArm, B.RightLowerArm, B.RightHand, s.upperArm, s.lowerArm);
    shareLimbTwist(setup, q, muscles, B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot, s.upperLeg, s.lowerLeg);
    shareLimbTwist(setup, q, muscles, B.RightUpperLeg, B.RightLowerLeg, B.RightFoot, s.upperLeg, s.lowerLeg);
    // World rotations of mapped bones with the hips in their T-pose orientation:
    // Dc = Dc(parent) * Q, W = c0 * Dc * c0^-1 * W0.
    dc[B.Hips].set(0, 0, 0, 1);
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        if (joint[b] < 0) continue;
        dc[setup.parentBone[b]].multiplyToRef(q[b], dc[b]);
    }
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const j = joint[b];
        if (j < 0) continue;
        setup.c0.multiplyToRef(dc[b], tmpQ);
        tmpQ.multiplyToRef(setup.tposeCanonical[b], world[j]);
    }
    // Forward kinematics: mapped joints as computed, every other joint in its T-pose.
    const refRot = avatar.referencePose.rotations;
    const refPos = avatar.referencePose.positions;
    const parent = setup.rigParent;
    const fk = setup.fkJoints;
    for (let k = 0; k < fk.length; k++) {
        const j = fk[k];
        const p = parent[j];
        if (p < 0) {
            if (setup.boneOfJoint[j] < 0) world[j].copyFrom(refRot[j]);
            pos[j].copyFrom(refPos[j]);
        } else {
            if (setup.boneOfJoint[j] < 0) world[p].multiplyToRef(refRot[j], world[j]);
            refPos[j].multiplyToRef(setup.worldScale[p], tmpV);
            tmpV.applyRotationQuaternionToRef(world[p], tmpV);
            pos[p].addToRef(tmpV, pos[j]);
        }
    }
    // Local rotations below the hips (the hips themselves are placed next).
    const hips = joint[B.Hips];
    for (let k = 0; k < fk.length; k++) {
        const j = fk[k];
        if (j === hips || !setup.belowHips[j]) continue;
        world[parent[j]].conjugateToRef(tmpQ);
        tmpQ.multiplyToRef(world[j], result.rotations[j]);
    }
    // Place the body: turn about the hips so the body frame is the pose's, then move the hips so
    // the centre of mass is.
    CenterOfMassToRef(setup, world, pos, comFk);
    BodyFrameToRef(setup, pos, bodyFk);
    // target body frame = c0 * bodyRotation * c0^-1 * B0; delta = target * Bfk^-1
    setup.c0.multiplyToRef(pose.bodyRotation, tmpQ);
    tmpQ.multiplyToRef(setup.c0Inverse, tmpQ);
    tmpQ.multiplyToRef(setup.bodyFrameTPose, tmpQ);
    bodyFk.conjugateToRef(tmpQ2);
    tmpQ.multiplyToRef(tmpQ2, delta);
    delta.normalize();
    pose.bodyPosition.scaleToRef(setup.scale, comTarget).applyRotationQuaternionToRef(setup.c0, comTarget).addInPlace(setup.groundOrigin);
    // hips position = target CoM - delta * (CoM - hips)
    comFk.subtractInPlace(pos[hips]).applyRotationQuaternionToRef(delta, comFk);
    comTarget.subtractInPlace(comFk);
    delta.multiplyToRef(world[hips], tmpQ);
    const hp = parent[hips];
    if (hp >= 0) {
        world[hp].conjugateToRef(tmpQ2);
        tmpQ2.multiplyToRef(tmpQ, result.rotations[hips]);
        comTarget.subtractInPlace(pos[hp]).applyRotationQuaternionToRef(tmpQ2, tmpV);
        tmpV.divideToRef(setup.worldScale[hp], result.positions[hips]);
    } else {
        result.rotations[hips].copyFrom(tmpQ);
        result.positions[hips].copyFrom(comTarget);
    }
    return result;
}

/** A rig pose for an avatar, set to its reference T-pose: the buffer to decode into. */
export function CreateReferenceRigPose(avatar: HumanoidAvatar): IRigPose {
    return {
        label: "T-pose",
        rotations: avatar.referencePose.rotations.map((r) => r.clone()),
        positions: avatar.referencePose.positions.map((p) => p.clone()),
    };
}
