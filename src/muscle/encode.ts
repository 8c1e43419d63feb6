import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HUMAN_BONE_COUNT, LimbBones } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { QuaternionConjugateToRef, QuaternionFromUnitVectorsToRef, QuaternionMultiplyToRef, QuaternionNormalizeInPlace } from "../math/hotMath.js";
import type { HumanPose } from "./humanPose.js";
import { BodyFrameToRef, CenterOfMassToRef, ForwardKinematicsToRef } from "./kinematics.js";
import { ALL_MUSCLE_COUNT } from "./muscles.js";
import { MuscleSetup } from "./setup.js";
import {
    HasTranslationDof,
    TRANSLATION_DOF_COUNT,
    TranslationDofBones,
    TranslationDofFromOffsetToRef,
    TranslationDofOffsetToRef,
    TranslationDofSlot,
} from "./translationDof.js";
import { EncodeLimb, MoveTwistToChild, WriteBone } from "./encodeLimb.js";

const B = HumanBone;
const tmpQ = new Quaternion();
const tmpV = new Vector3();
const chordNow = new Vector3();
const bodyQ = new Quaternion();
const bodyInv = new Quaternion();
/** `result` = the rig-space point `p` in canonical avatar scales, relative to the T-pose ground origin. Allocation-free; `result` may be `p`. */
export function CanonicalPointToRef(setup: MuscleSetup, p: Vector3, result: Vector3): Vector3 {
    result.x = p.x - setup.groundOrigin.x;
    result.y = p.y - setup.groundOrigin.y;
    result.z = p.z - setup.groundOrigin.z;
    result.applyRotationQuaternionInPlace(setup.c0Inverse);
    const k = 1 / setup.scale;
    result.x *= k;
    result.y *= k;
    result.z *= k;
    return result;
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
        QuaternionMultiplyToRef(setup.c0Inverse, world[j], tmpQ);
        QuaternionMultiplyToRef(tmpQ, setup.tposeCanonicalInverseC0[b], dc[b]);
    }
    // A trunk bone whose next trunk bone hangs from it through joints the avatar does not map
    // (the CMU skeleton's Neck1 between its neck and head, the Animated Drawings' Spine1 between
    // spine and chest) swings so that its chord to that bone points as the pose's does: decoded,
    // those joints keep their T-pose, and a bone turned as its own joint puts the next trunk joint
    // where the in-between joints' turns no longer move it (mocap turns them against the bones
    // around them: the head jerked 1.6 times the source's on the CMU skeleton's own walk). The
    // next bone keeps its own world rotation (its Q is taken from the Dc below). The chord ends
    // where the next bone's joint sits below its rig parent at its T-pose offset: its translation
    // DoF offset, encoded below, is not taken in twice.
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const chord = setup.trunkChord[b];
        if (!chord) continue;
        const from = pos[setup.joint[b]];
        const c = setup.joint[chord.child];
        const rp = setup.rigParent[c];
        setup.scaledReferencePositions[c].applyRotationQuaternionToRef(world[rp], tmpV);
        tmpV.x += pos[rp].x - from.x;
        tmpV.y += pos[rp].y - from.y;
        tmpV.z += pos[rp].z - from.z;
        tmpV.applyRotationQuaternionInPlace(setup.c0Inverse);
        // (Written out: a number handed to or returned from a call may be boxed.)
        const l = Math.sqrt(tmpV.x * tmpV.x + tmpV.y * tmpV.y + tmpV.z * tmpV.z);
        if (!(l > 1e-12)) continue;
        tmpV.x /= l;
        tmpV.y /= l;
        tmpV.z /= l;
        chord.rest.applyRotationQuaternionToRef(dc[b], chordNow);
        QuaternionFromUnitVectorsToRef(chordNow, tmpV, tmpQ);
        QuaternionMultiplyToRef(tmpQ, dc[b], dc[b]);
        // ...and its world rotation with it (W = c0 * S * c0^-1 * W), for the body measured below.
        const w = world[setup.joint[b]];
        QuaternionMultiplyToRef(setup.c0, tmpQ, tmpQ);
        QuaternionMultiplyToRef(tmpQ, setup.c0Inverse, tmpQ);
        QuaternionMultiplyToRef(tmpQ, w, w);
    }
    // Q = Dc(parent)^-1 * Dc: rotation relative to the nearest mapped human parent.
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        if (setup.joint[b] < 0) continue;
        QuaternionConjugateToRef(dc[setup.parentBone[b]], tmpQ);
        QuaternionMultiplyToRef(tmpQ, dc[b], q[b]);
    }
    const muscles = result.values;
    muscles.fill(0);
    EncodeLimb(setup, q, B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm, B.LeftHand, muscles);
    EncodeLimb(setup, q, B.RightShoulder, B.RightUpperArm, B.RightLowerArm, B.RightHand, muscles);
    EncodeLimb(setup, q, -1, B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot, muscles);
    EncodeLimb(setup, q, -1, B.RightUpperLeg, B.RightLowerLeg, B.RightFoot, muscles);
    // Fingers have no twist muscle: a digit's twist goes to the next digit (as a prefix about its
    // own axis), so every digit keeps its direction; the last digit's twist is dropped.
    for (let side = 0; side < 2; side++) {
        for (let f = 0; f < 5; f++) {
            const first = (side === 0 ? B.LeftThumbProximal : B.RightThumbProximal) + f * 3;
            for (let d = 0; d < 2; d++) {
                const b = first + d;
                if (setup.joint[b] < 0 || setup.joint[b + 1] < 0 || setup.parentBone[b + 1] !== b) continue;
                MoveTwistToChild(q[b], q[b + 1], setup.twistAxis[b]);
            }
        }
    }
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        if (setup.joint[b] < 0 || LIMB[b]) continue;
        WriteBone(setup, b, q[b], muscles, -1);
    }
    for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
        if (!Number.isFinite(muscles[i])) muscles[i] = 0;
    }
    const refPos = avatar.referencePose.positions;
    // Translation DoF: each listed joint's world offset from its T-pose place below its parent,
    // into its parent bone's frame (see `TranslationDofBones`).
    const translations = result.translations;
    for (let s = 0; s < TRANSLATION_DOF_COUNT; s++) {
        const j = setup.joint[TranslationDofBones[s]];
        const p = j >= 0 ? setup.rigParent[j] : -1;
        if (p < 0 || setup.parentBone[TranslationDofBones[s]] < 0) {
            translations[s].setAll(0);
            continue;
        }
        const at = pose.positions[j];
        const rest = refPos[j];
        tmpV.x = at.x - rest.x;
        tmpV.y = at.y - rest.y;
        tmpV.z = at.z - rest.z;
        tmpV.multiplyInPlace(setup.worldScale[p]).applyRotationQuaternionInPlace(world[p]);
        TranslationDofFromOffsetToRef(setup, dc, s, tmpV, translations[s]);
    }
    // The body is measured on the skeleton as decoding will build it: joints between mapped bones
    // in their T-pose and joints below the hips at their T-pose offsets, so that a round trip
    // puts the hips back exactly. Without the translations: they ride on the body as placed
    // (`DecodeHumanPose`), so a hip or shoulder moved about on a body of other proportions does
    // not turn the body with it.
    placeBelowHips(setup, avatar, false, translations);
    // Body: centre of mass and orientation, canonical frame, avatar scales.
    CenterOfMassToRef(setup, world, pos, tmpV);
    CanonicalPointToRef(setup, tmpV, result.bodyPosition);
    BodyFrameToRef(setup, pos, bodyQ);
    // bodyRotation = c0^-1 * (B * B0^-1) * c0
    QuaternionConjugateToRef(setup.bodyFrameTPose, tmpQ);
    QuaternionMultiplyToRef(bodyQ, tmpQ, tmpQ);
    QuaternionMultiplyToRef(setup.c0Inverse, tmpQ, tmpQ);
    QuaternionMultiplyToRef(tmpQ, setup.c0, result.bodyRotation);
    QuaternionNormalizeInPlace(result.bodyRotation);
    // Goals and hips where the translations put them (as the joints will be after decoding).
    if (HasTranslationDof(translations)) placeBelowHips(setup, avatar, true, translations);
    // Goals: ankles and wrists relative to the body.
    QuaternionConjugateToRef(result.bodyRotation, bodyInv);
    for (let g = 0; g < GOAL_BONES.length; g++) {
        const bone = GOAL_BONES[g];
        CanonicalPointToRef(setup, pos[setup.joint[bone]], tmpV);
        tmpV.subtractInPlace(result.bodyPosition).applyRotationQuaternionToRef(bodyInv, result.goalPositions[g]);
        QuaternionMultiplyToRef(bodyInv, dc[bone], result.goalRotations[g]);
    }
    // The hips (middle of the two upper-leg joints) relative to the body, as the goals.
    const lul = pos[setup.joint[B.LeftUpperLeg]];
    const rul = pos[setup.joint[B.RightUpperLeg]];
    tmpV.x = (lul.x + rul.x) * 0.5;
    tmpV.y = (lul.y + rul.y) * 0.5;
    tmpV.z = (lul.z + rul.z) * 0.5;
    CanonicalPointToRef(setup, tmpV, tmpV).subtractInPlace(result.bodyPosition).applyRotationQuaternionToRef(bodyInv, result.hipsPosition);
    // ...and the hips' rotation relative to the body's.
    QuaternionMultiplyToRef(bodyInv, dc[B.Hips], result.hipsRotation);
    return result;
}

/**
 * Forward kinematics below the hips on the encoder's work arrays, as decoding builds the skeleton:
 * intermediate joints in their T-pose, every joint at its T-pose offset, plus (`moved`) the
 * translation DoF offsets. Mapped bones keep their world rotations.
 */
function placeBelowHips(setup: MuscleSetup, avatar: HumanoidAvatar, moved: boolean, translations: readonly Vector3[]): void {
    const { world, pos, dc } = setup.work;
    const refRot = avatar.referencePose.rotations;
    const fk = setup.fkJoints;
    const hips = setup.joint[B.Hips];
    for (let k = 0; k < fk.length; k++) {
        const j = fk[k];
        if (j === hips || !setup.belowHips[j]) continue;
        const p = setup.rigParent[j];
        const bone = setup.boneOfJoint[j];
        if (bone < 0) QuaternionMultiplyToRef(world[p], refRot[j], world[j]);
        setup.scaledReferencePositions[j].applyRotationQuaternionToRef(world[p], tmpV);
        pos[p].addToRef(tmpV, pos[j]);
        const slot = moved && bone >= 0 ? TranslationDofSlot[bone] : -1;
        if (slot >= 0) pos[j].addInPlace(TranslationDofOffsetToRef(setup, dc, slot, translations[slot], tmpV));
    }
}

/** The bones the IK goals follow, in {@link HumanIKGoal} order. */
export const GOAL_BONES: readonly HumanBone[] = [B.LeftFoot, B.RightFoot, B.LeftHand, B.RightHand];

/** Bones handled by `encodeLimb`. */
const LIMB: readonly boolean[] = (() => {
    const l = new Array<boolean>(HUMAN_BONE_COUNT).fill(false);
    for (const b of LimbBones) l[b] = true;
    return l;
})();
