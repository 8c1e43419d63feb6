import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HUMAN_BONE_COUNT, LimbBones } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { QuaternionToRotationVectorToRef, SwingTwistDecompose } from "../math/swingTwist.js";
import type { HumanPose } from "./humanPose.js";
import { BodyFrameToRef, CenterOfMassToRef, ForwardKinematicsToRef } from "./kinematics.js";
import { ALL_MUSCLE_COUNT, BoneMuscles } from "./muscles.js";
import { HINGE_MIN_BEND_DEG, MuscleSetup } from "./setup.js";

const B = HumanBone;
const swing = new Quaternion();
const tmpQ = new Quaternion();
const rv = new Vector3();
const dir = new Vector3();
const tmpV = new Vector3();
const bodyQ = new Quaternion();
const bodyInv = new Quaternion();
const COS_MIN_BEND = Math.cos((HINGE_MIN_BEND_DEG * Math.PI) / 180);

/** Muscles of one bone from its rotation relative to its mapped parent (canonical axes). */
function writeBone(setup: MuscleSetup, bone: number, q: Quaternion, muscles: Float32Array): void {
    const t = setup.twistAxis[bone];
    const twist = SwingTwistDecompose(q, t, swing, null);
    QuaternionToRotationVectorToRef(swing, rv);
    const [mx, my, mz] = BoneMuscles[bone];
    if (mx >= 0) muscles[mx] = setup.radiansToMuscle(mx, setup.twistSign[bone] * twist);
    if (my >= 0) muscles[my] = setup.radiansToMuscle(my, Vector3.Dot(rv, setup.axisY[bone]));
    if (mz >= 0) muscles[mz] = setup.radiansToMuscle(mz, Vector3.Dot(rv, setup.axisZ[bone]));
}

/** Moves a bone's twist about `axis` onto its parent: the child keeps only its swing, the world stays. */
function moveTwistToParent(child: Quaternion, parent: Quaternion, axis: Vector3): void {
    // child = swing * twist(a)  ->  child = twist(-a) * child = swing', parent = parent * twist(a)
    const a = SwingTwistDecompose(child, axis, null, null);
    Quaternion.RotationAxisToRef(axis, a, tmpQ);
    parent.multiplyInPlace(tmpQ);
    Quaternion.RotationAxisToRef(axis, -a, tmpQ);
    tmpQ.multiplyToRef(child, child);
}

/** An angle wrapped into (-pi, pi]. */
function wrap(a: number): number {
    return a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
}

/** Of two angles, the one nearest zero. */
function nearestToZero(a: number, b: number): number {
    return Math.abs(a) <= Math.abs(b) ? a : b;
}

/** Moves a bone's twist about `axis` onto its child: the bone keeps only its swing, the world stays. */
function moveTwistToChild(parent: Quaternion, child: Quaternion, axis: Vector3): void {
    // parent = swing * twist(a) -> parent = swing, child = twist(a) * child
    const a = SwingTwistDecompose(parent, axis, parent, null);
    Quaternion.RotationAxisToRef(axis, a, tmpQ);
    tmpQ.multiplyToRef(child, child);
}

/**
 * One limb (arm or leg): shoulder twist onto the upper arm, hand (foot) twist onto the forearm
 * (lower leg), the twist share undone, and the elbow (knee) made a pure hinge by turning the upper
 * bone about its own axis, which keeps every bone's direction.
 */
function encodeLimb(setup: MuscleSetup, q: Quaternion[], root: number, upper: number, lower: number, end: number, share: number, muscles: Float32Array): void {
    const tu = setup.twistAxis[upper];
    const tl = setup.twistAxis[lower];
    if (root >= 0 && setup.joint[root] >= 0 && setup.parentBone[upper] === root) {
        // The shoulder has no twist muscle: its twist about its own axis (which keeps the upper
        // arm where it is) goes to the upper arm.
        moveTwistToChild(q[root], q[upper], setup.twistAxis[root]);
    }
    moveTwistToParent(q[end], q[lower], tl);
    // Undo the twist share: decoding gives the upper bone (1 - share) of its twist and the lower
    // bone the rest as a prefix about the upper bone's axis.
    if (share < 0.999) {
        const a = SwingTwistDecompose(q[upper], tu, null, null);
        const extra = a / (1 - share) - a;
        Quaternion.RotationAxisToRef(tu, extra, tmpQ);
        q[upper].multiplyInPlace(tmpQ);
        Quaternion.RotationAxisToRef(tu, -extra, tmpQ);
        tmpQ.multiplyToRef(q[lower], q[lower]);
    }
    // Hinge: turn the upper bone about its axis by the angle tau that puts the lower bone in its
    // bending plane (perpendicular to its Z axis): d.az = 0 after turning d by -tau about tu.
    // With d = dPar tu + dPerp: dPar (tu.az) + |dPerp| |azPerp| cos(phi - tau) = 0.
    tl.applyRotationQuaternionToRef(q[lower], dir);
    const bent = Vector3.Dot(dir, tl) < COS_MIN_BEND;
    const dPar = Vector3.Dot(dir, tu);
    dir.subtractInPlace(tu.scaleToRef(dPar, tmpV));
    const r = dir.length();
    if (bent && r > 1e-9) {
        const az = setup.axisZ[lower];
        const azTu = Vector3.Dot(az, tu);
        az.subtractToRef(tu.scaleToRef(azTu, tmpV), tmpV);
        const sLen = tmpV.length();
        if (sLen > 1e-9) {
            const phi = Math.atan2(Vector3.Dot(Vector3.CrossToRef(tmpV, dir, rv), tu), Vector3.Dot(tmpV, dir));
            const c = Math.max(-1, Math.min(1, (-dPar * azTu) / (r * sLen)));
            const alpha = Math.acos(c);
            const tau = nearestToZero(wrap(phi - alpha), wrap(phi + alpha));
            Quaternion.RotationAxisToRef(tu, tau, tmpQ);
            q[upper].multiplyInPlace(tmpQ);
            Quaternion.RotationAxisToRef(tu, -tau, tmpQ);
            tmpQ.multiplyToRef(q[lower], q[lower]);
        }
    }
    if (root >= 0 && setup.joint[root] >= 0) writeBone(setup, root, q[root], muscles);
    writeBone(setup, upper, q[upper], muscles);
    writeBone(setup, lower, q[lower], muscles);
    writeBone(setup, end, q[end], muscles);
}

/**
 * Encodes a pose of an avatar's rig as a {@link HumanPose}: muscles, centre of mass, body
 * orientation and IK goals. Writes into `result` and returns it; allocates nothing after the
 * avatar's first use. See docs/muscles.md for the formulas.
 * @param avatar the avatar the pose belongs to
 * @param pose local rotation and position of every rig joint (rig space)
 * @param result the pose to write
 */
export function EncodeHumanPose(avatar: HumanoidAvatar, pose: IRigPose, result: HumanPose): HumanPose {
    const setup = MuscleSetup.For(avatar);
    const { world, pos, dc, q } = setup.work;
    ForwardKinematicsToRef(setup, pose.rotations, pose.positions, world, pos);
    // Dc = c0^-1 * W * W0^-1 * c0: each bone's world rotation relative to its T-pose, canonical axes.
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const j = setup.joint[b];
        if (j < 0) continue;
        setup.c0Inverse.multiplyToRef(world[j], tmpQ);
        tmpQ.multiplyToRef(setup.tposeCanonicalInverseC0[b], dc[b]);
    }
    // Q = Dc(parent)^-1 * Dc: rotation relative to the nearest mapped human parent.
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        if (setup.joint[b] < 0) continue;
        dc[setup.parentBone[b]].conjugateToRef(tmpQ);
        tmpQ.multiplyToRef(dc[b], q[b]);
    }
    const muscles = result.values;
    muscles.fill(0);
    const s = setup.twistShare;
    encodeLimb(setup, q, B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm, B.LeftHand, s.upperArm, muscles);
    encodeLimb(setup, q, B.RightShoulder, B.RightUpperArm, B.RightLowerArm, B.RightHand, s.upperArm, muscles);
    encodeLimb(setup, q, -1, B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot, s.upperLeg, muscles);
    encodeLimb(setup, q, -1, B.RightUpperLeg, B.RightLowerLeg, B.RightFoot, s.upperLeg, muscles);
    // Fingers have no twist muscle: a digit's twist goes to the next digit (as a prefix about its
    // own axis), so every digit keeps its direction; the last digit's twist is dropped.
    for (let side = 0; side < 2; side++) {
        for (let f = 0; f < 5; f++) {
            const first = (side === 0 ? B.LeftThumbProximal : B.RightThumbProximal) + f * 3;
            for (let d = 0; d < 2; d++) {
                const b = first + d;
                if (setup.joint[b] < 0 || setup.joint[b + 1] < 0 || setup.parentBone[b + 1] !== b) continue;
                moveTwistToChild(q[b], q[b + 1], setup.twistAxis[b]);
            }
        }
    }
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        if (setup.joint[b] < 0 || LIMB[b]) continue;
        writeBone(setup, b, q[b], muscles);
    }
    for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
        if (!Number.isFinite(muscles[i])) muscles[i] = 0;
    }
    // The body is measured on the skeleton as decoding will build it: joints between mapped bones
    // in their T-pose and joints below the hips at their T-pose offsets (muscle space has no
    // translations), so that a round trip puts the hips back exactly.
    const refRot = avatar.referencePose.rotations;
    const refPos = avatar.referencePose.positions;
    const fk = setup.fkJoints;
    const hips = setup.joint[B.Hips];
    for (let k = 0; k < fk.length; k++) {
        const j = fk[k];
        if (j === hips || !setup.belowHips[j]) continue;
        const p = setup.rigParent[j];
        if (setup.boneOfJoint[j] < 0) world[p].multiplyToRef(refRot[j], world[j]);
        refPos[j].multiplyToRef(setup.worldScale[p], tmpV);
        tmpV.applyRotationQuaternionToRef(world[p], tmpV);
        pos[p].addToRef(tmpV, pos[j]);
    }
    // Body: centre of mass and orientation, canonical frame, avatar scales.
    CenterOfMassToRef(setup, world, pos, tmpV);
    tmpV.subtractInPlace(setup.groundOrigin)
        .applyRotationQuaternionToRef(setup.c0Inverse, result.bodyPosition)
        .scaleInPlace(1 / setup.scale);
    BodyFrameToRef(setup, pos, bodyQ);
    // bodyRotation = c0^-1 * (B * B0^-1) * c0
    setup.bodyFrameTPose.conjugateToRef(tmpQ);
    bodyQ.multiplyToRef(tmpQ, tmpQ);
    setup.c0Inverse.multiplyToRef(tmpQ, tmpQ);
    tmpQ.multiplyToRef(setup.c0, result.bodyRotation);
    result.bodyRotation.normalize();
    // Goals: ankles and wrists relative to the body.
    result.bodyRotation.conjugateToRef(bodyInv);
    for (let g = 0; g < GOAL_BONES.length; g++) {
        const bone = GOAL_BONES[g];
        const j = setup.joint[bone];
        pos[j]
            .subtractToRef(setup.groundOrigin, tmpV)
            .applyRotationQuaternionToRef(setup.c0Inverse, tmpV)
            .scaleInPlace(1 / setup.scale);
        tmpV.subtractInPlace(result.bodyPosition).applyRotationQuaternionToRef(bodyInv, result.goalPositions[g]);
        bodyInv.multiplyToRef(dc[bone], result.goalRotations[g]);
    }
    return result;
}

/** The bones the IK goals follow, in {@link HumanIKGoal} order. */
export const GOAL_BONES: readonly HumanBone[] = [B.LeftFoot, B.RightFoot, B.LeftHand, B.RightHand];

/** Bones handled by `encodeLimb`. */
const LIMB: readonly boolean[] = (() => {
    const l = new Array<boolean>(HUMAN_BONE_COUNT).fill(false);
    for (const b of LimbBones) l[b] = true;
    return l;
})();
