import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HUMAN_BONE_COUNT, LimbBones } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { QuaternionToRotationVectorToRef, SwingTwistDecompose, TwistAngleNear } from "../math/swingTwist.js";
import type { HumanPose } from "./humanPose.js";
import { BodyFrameToRef, CenterOfMassToRef, ForwardKinematicsToRef } from "./kinematics.js";
import { ALL_MUSCLE_COUNT, BoneMuscles } from "./muscles.js";
import { HINGE_BLEND_BEND_DEG, MuscleSetup } from "./setup.js";
import { HasTranslationDof, TRANSLATION_DOF_COUNT, TranslationDofBones, TranslationDofFromOffsetToRef, TranslationDofOffsetToRef, TranslationDofSlot } from "./translationDof.js";

const B = HumanBone;
const swing = new Quaternion();
const tmpQ = new Quaternion();
const rv = new Vector3();
const tmpV = new Vector3();
const bodyQ = new Quaternion();
const bodyInv = new Quaternion();
/** Steps of the hinge split (one when the limb's two axes are parallel; 3 or 4 to rounding on real rigs). */
const HINGE_STEPS = 8;
/** Trial turns of the hinge split's fallback scan. */
const HINGE_SCAN = 72;
const turned = new Quaternion();
/** {@link HINGE_BLEND_BEND_DEG} in radians. */
const HINGE_BLEND = (HINGE_BLEND_BEND_DEG * Math.PI) / 180;

/**
 * Muscles of one bone from its rotation relative to its mapped parent (canonical axes). `twist`
 * overrides the twist angle (radians) read from `q`, for limbs whose twist is tracked past half a turn.
 */
function writeBone(setup: MuscleSetup, bone: number, q: Quaternion, muscles: Float32Array, twist?: number): void {
    const t = setup.twistAxis[bone];
    const measured = SwingTwistDecompose(q, t, swing, null);
    QuaternionToRotationVectorToRef(swing, rv);
    const m = BoneMuscles[bone];
    const mx = m[0];
    const my = m[1];
    const mz = m[2];
    if (mx >= 0) muscles[mx] = setup.radiansToMuscle(mx, setup.twistSign[bone] * (twist ?? measured));
    if (my >= 0) muscles[my] = setup.radiansToMuscle(my, Vector3.Dot(rv, setup.axisY[bone]));
    if (mz >= 0) muscles[mz] = setup.radiansToMuscle(mz, Vector3.Dot(rv, setup.axisZ[bone]));
}

/** Moves a bone's twist about `axis` onto its parent: the child keeps only its swing, the world stays. Returns the angle moved. */
function moveTwistToParent(child: Quaternion, parent: Quaternion, axis: Vector3): number {
    // child = swing * twist(a)  ->  child = twist(-a) * child = swing', parent = parent * twist(a)
    const a = SwingTwistDecompose(child, axis, null, null);
    Quaternion.RotationAxisToRef(axis, a, tmpQ);
    parent.multiplyInPlace(tmpQ);
    Quaternion.RotationAxisToRef(axis, -a, tmpQ);
    tmpQ.multiplyToRef(child, child);
    return a;
}

const aim = new Vector3();
const across = new Vector3();
const p0 = new Vector3();
const p1 = new Vector3();
const turnS = new Quaternion();

/**
 * The shoulder's turn split in two: the turn `S` about an axis across `side` (what the shoulder's
 * two muscles hold) that points the collarbone where `parent` points it (`S * collar = parent *
 * collar`), and the rest, a turn about the collarbone that moves no joint, put onto the child as a
 * prefix: `parent = S`, `child = (S^-1 * parent) * child` (the child's world stays). S's axis keeps
 * the same angle to the collarbone before and after, so it is across `d1 - d0` as well as across
 * `side`: `normalize(side x (d1 - d0))`, and its angle the turn between `d0` and `d1` seen along
 * it. Returns the angle moved onto the child (about the collarbone).
 */
function shoulderTurnToChild(parent: Quaternion, child: Quaternion, side: Vector3, collar: Vector3): number {
    collar.applyRotationQuaternionToRef(parent, aim);
    aim.subtractToRef(collar, tmpV);
    Vector3.CrossToRef(side, tmpV, across);
    const len = across.length();
    if (!(len > 1e-9 * (tmpV.length() + 1e-30)) || !(tmpV.lengthSquared() > 1e-24)) {
        // The collarbone points as in the T-pose (all of the turn is about it), or moved along
        // the side axis only: the twist about the side axis goes to the child, as for any bone.
        return moveTwistToChild(parent, child, side);
    }
    across.scaleInPlace(1 / len);
    // p0, p1: the collarbone before and after, across the axis.
    across.scaleToRef(Vector3.Dot(collar, across), tmpV);
    collar.subtractToRef(tmpV, p0);
    across.scaleToRef(Vector3.Dot(aim, across), tmpV);
    aim.subtractToRef(tmpV, p1);
    Vector3.CrossToRef(p0, p1, tmpV);
    const angle = Math.atan2(Vector3.Dot(across, tmpV), Vector3.Dot(p0, p1));
    Quaternion.RotationAxisToRef(across, angle, turnS);
    // rest = S^-1 * parent (a turn about the collarbone), onto the child; the parent keeps S.
    turnS.conjugateToRef(tmpQ);
    tmpQ.multiplyToRef(parent, tmpQ);
    tmpQ.multiplyToRef(child, child);
    parent.copyFrom(turnS);
    return SwingTwistDecompose(tmpQ, collar, null, null);
}

/** Moves a bone's twist about `axis` onto its child: the bone keeps only its swing, the world stays. Returns the angle moved. */
function moveTwistToChild(parent: Quaternion, child: Quaternion, axis: Vector3): number {
    // parent = swing * twist(a) -> parent = swing, child = twist(a) * child
    const a = SwingTwistDecompose(parent, axis, parent, null);
    Quaternion.RotationAxisToRef(axis, a, tmpQ);
    tmpQ.multiplyToRef(child, child);
    return a;
}

/** Turns a bone about its own axis `t` by `tau` and its child back, so no bone's direction changes. */
function turnWithChild(q: Quaternion[], bone: number, child: number, t: Vector3, tau: number): void {
    Quaternion.RotationAxisToRef(t, tau, tmpQ);
    q[bone].multiplyInPlace(tmpQ);
    Quaternion.RotationAxisToRef(t, -tau, tmpQ);
    tmpQ.multiplyToRef(q[child], q[child]);
}

/** Y and Z swing angles (radians) of the last {@link lowerSwing} call. */
let swingY = 0;
let swingZ = 0;

/** Swing of a bone about its Y and Z axes (into swingY, swingZ); returns the swing angle (radians). */
function lowerSwing(setup: MuscleSetup, bone: number, q: Quaternion): number {
    SwingTwistDecompose(q, setup.twistAxis[bone], swing, null);
    QuaternionToRotationVectorToRef(swing, rv);
    swingY = Vector3.Dot(rv, setup.axisY[bone]);
    swingZ = Vector3.Dot(rv, setup.axisZ[bone]);
    return Math.sqrt(swingY * swingY + swingZ * swingZ);
}

/** Real and imaginary parts of the hinge blend z of the last {@link blendAfter} call (see encodeLimb's hinge step). */
let blendRe = 0;
let blendIm = 0;

/**
 * The hinge blend `z = bend e^(i psi) + HINGE_BLEND e^(i chi)` of a lower bone (rotation `qLower`
 * relative to its upper bone, twist `lowerTwist` tracked as a number) once the upper bone turns by
 * `tau` about its axis `tu` (and the lower bone back), into blendRe and blendIm.
 */
function blendAfter(setup: MuscleSetup, qLower: Quaternion, tu: Vector3, lower: number, lowerTwist: number, along: number, tau: number): void {
    Quaternion.RotationAxisToRef(tu, -tau, turned);
    turned.multiplyInPlace(qLower);
    const twist = TwistAngleNear(turned, setup.twistAxis[lower], lowerTwist - tau * along);
    const bend = lowerSwing(setup, lower, turned);
    const psi = Math.atan2(swingY, -swingZ);
    const chi = (setup.hingeSign[lower] * twist) / (along > 0.5 ? along : 0.5);
    blendRe = bend * Math.cos(psi) + HINGE_BLEND * Math.cos(chi);
    blendIm = bend * Math.sin(psi) + HINGE_BLEND * Math.sin(chi);
}

/** The turn (radians) that brings the hinge blend to the flexing way, exact when the two axes are parallel: `s * arg z`. */
function hingeTurn(setup: MuscleSetup, qLower: Quaternion, tu: Vector3, lower: number, lowerTwist: number, along: number): number {
    blendAfter(setup, qLower, tu, lower, lowerTwist, along, 0);
    return setup.hingeSign[lower] * Math.atan2(blendIm, blendRe);
}

/**
 * One limb (arm or leg): shoulder twist onto the upper arm, hand twist onto the forearm, the twist
 * shares undone, and the elbow (knee) made a pure hinge by turning the upper
 * bone about its own axis, which keeps every bone's direction. Twists are tracked as numbers along
 * the way, so a limb twisted more than half a turn in total (upper arm with the shoulder's twist,
 * forearm with the hand's) keeps its value instead of wrapping to the other side.
 */
function encodeLimb(
    setup: MuscleSetup,
    q: Quaternion[],
    root: number,
    upper: number,
    lower: number,
    end: number,
    share: number,
    lowerShare: number,
    muscles: Float32Array,
): void {
    const tu = setup.twistAxis[upper];
    const tl = setup.twistAxis[lower];
    const along = Vector3.Dot(tu, tl);
    let upperTwist = SwingTwistDecompose(q[upper], tu, null, null);
    let lowerTwist = SwingTwistDecompose(q[lower], tl, null, null);
    if (root >= 0 && setup.joint[root] >= 0 && setup.parentBone[upper] === root) {
        // The shoulder has two muscles, read about the body's side axis (`MuscleSetup.twistAxis`):
        // it keeps the one turn without a part about that axis that puts the collarbone where it
        // points, and what is left, a turn about the collarbone itself (which keeps the upper arm
        // where it is), goes to the upper arm.
        const collar = setup.collarbone[root === B.LeftShoulder ? 0 : 1];
        upperTwist += shoulderTurnToChild(q[root], q[upper], setup.twistAxis[root], collar) * Vector3.Dot(collar, tu);
    }
    // The hand has no twist muscle: its twist about the forearm's axis goes to the forearm (and
    // decoding hands the forearm's share back). The foot keeps its own (its roll).
    const endTwists = BoneMuscles[end][0] >= 0;
    if (!endTwists) lowerTwist += moveTwistToParent(q[end], q[lower], tl);
    // Undo the twist share: decoding gives the upper bone (1 - share) of its twist and the lower
    // bone the rest as a prefix about the upper bone's axis.
    if (share < 0.999) {
        const a = TwistAngleNear(q[upper], tu, upperTwist);
        const extra = a / (1 - share) - a;
        turnWithChild(q, upper, lower, tu, extra);
        upperTwist = a + extra;
        lowerTwist -= extra * along;
    }
    // Hinge. Turning the upper bone about its own axis by tau and the lower bone back moves no
    // bone, so how the limb's twist is split between the two is a choice. It is made from the
    // lower bone's own muscles, so that encoding a decoded pose turns nothing on any avatar (with
    // or without shoulders), and continuously. In the plane across the bones, the lower bone's
    // bend is the vector b e^(i psi) (b its angle, psi its direction: 0 flexes, pi hyperextends)
    // and its twist the direction e^(i chi), chi = s * twist / along (s = setup.hingeSign); a turn
    // tau moves both by -s tau. The upper bone turns until their blend
    //     z = b e^(i psi) + HINGE_BLEND e^(i chi)
    // points the flexing way (arg z = 0): a limb bent well past HINGE_BLEND flexes as a pure hinge
    // (the sideways bend becomes twist of the upper bone), a straight one keeps no twist of its own
    // (a straight knee is locked: its twist is the thigh's), and in between z turns smoothly (it
    // is 0 only for a limb bent backwards by exactly HINGE_BLEND against its twist). The
    // sideways part left stays in the lower bone's extra muscle. Where the two axes are not
    // parallel a turn moves psi and the twist a little differently: a few steps settle it.
    let tau = hingeTurn(setup, q[lower], tu, lower, lowerTwist, along);
    for (let k = 0; k < HINGE_STEPS && Math.abs(tau) > 1e-10; k++) {
        turnWithChild(q, upper, lower, tu, tau);
        upperTwist += tau;
        // The lower bone's twist as it now is (a turn changes it by tau * along only when the axes are parallel).
        lowerTwist = TwistAngleNear(q[lower], tl, lowerTwist - tau * along);
        tau = hingeTurn(setup, q[lower], tu, lower, lowerTwist, along);
    }
    if (Math.abs(tau) > 1e-8) {
        // Not settled (a limb bent backwards against its twist by about HINGE_BLEND, where z is
        // near 0 and the axes are far from parallel): the best of a scan over the whole turn.
        let best = 0;
        let bestRe = -Infinity;
        for (let k = 0; k < HINGE_SCAN; k++) {
            const trial = ((k - HINGE_SCAN / 2) * 2 * Math.PI) / HINGE_SCAN;
            blendAfter(setup, q[lower], tu, lower, lowerTwist, along, trial);
            if (blendRe > bestRe) {
                bestRe = blendRe;
                best = trial;
            }
        }
        // Refine: the root of Im z beside the best trial, by bisection.
        const step = (2 * Math.PI) / HINGE_SCAN;
        let lo = best - step;
        let hi = best + step;
        blendAfter(setup, q[lower], tu, lower, lowerTwist, along, lo);
        const imLo = blendIm;
        blendAfter(setup, q[lower], tu, lower, lowerTwist, along, hi);
        if (imLo * blendIm < 0) {
            for (let k = 0; k < 50; k++) {
                const mid = 0.5 * (lo + hi);
                blendAfter(setup, q[lower], tu, lower, lowerTwist, along, mid);
                if (blendIm * imLo > 0) lo = mid;
                else hi = mid;
            }
            best = 0.5 * (lo + hi);
        }
        turnWithChild(q, upper, lower, tu, best);
        upperTwist += best;
        lowerTwist = TwistAngleNear(q[lower], tl, lowerTwist - best * along);
    }
    // Undo the lower bone's share for a foot: decoding gives the shin (1 - share) of its twist and
    // the foot the rest as a prefix about the shin's axis.
    if (endTwists && lowerShare < 0.999) {
        const a = TwistAngleNear(q[lower], tl, lowerTwist);
        const extra = a / (1 - lowerShare) - a;
        turnWithChild(q, lower, end, tl, extra);
        lowerTwist = a + extra;
    }
    if (root >= 0 && setup.joint[root] >= 0) writeBone(setup, root, q[root], muscles);
    writeBone(setup, upper, q[upper], muscles, TwistAngleNear(q[upper], tu, upperTwist));
    writeBone(setup, lower, q[lower], muscles, TwistAngleNear(q[lower], tl, lowerTwist));
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
    encodeLimb(setup, q, B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm, B.LeftHand, s.upperArm, s.lowerArm, muscles);
    encodeLimb(setup, q, B.RightShoulder, B.RightUpperArm, B.RightLowerArm, B.RightHand, s.upperArm, s.lowerArm, muscles);
    encodeLimb(setup, q, -1, B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot, s.upperLeg, s.lowerLeg, muscles);
    encodeLimb(setup, q, -1, B.RightUpperLeg, B.RightLowerLeg, B.RightFoot, s.upperLeg, s.lowerLeg, muscles);
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
        pose.positions[j].subtractToRef(refPos[j], tmpV).multiplyInPlace(setup.worldScale[p]).applyRotationQuaternionInPlace(world[p]);
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
    // Goals and hips where the translations put them (as the joints will be after decoding).
    if (HasTranslationDof(translations)) placeBelowHips(setup, avatar, true, translations);
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
    // The hips (middle of the two upper-leg joints) relative to the body, as the goals.
    pos[setup.joint[B.LeftUpperLeg]].addToRef(pos[setup.joint[B.RightUpperLeg]], tmpV).scaleInPlace(0.5);
    tmpV.subtractInPlace(setup.groundOrigin)
        .applyRotationQuaternionInPlace(setup.c0Inverse)
        .scaleInPlace(1 / setup.scale)
        .subtractInPlace(result.bodyPosition)
        .applyRotationQuaternionToRef(bodyInv, result.hipsPosition);
    // ...and the hips' rotation relative to the body's.
    bodyInv.multiplyToRef(dc[B.Hips], result.hipsRotation);
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
    const refPos = avatar.referencePose.positions;
    const fk = setup.fkJoints;
    const hips = setup.joint[B.Hips];
    for (let k = 0; k < fk.length; k++) {
        const j = fk[k];
        if (j === hips || !setup.belowHips[j]) continue;
        const p = setup.rigParent[j];
        const bone = setup.boneOfJoint[j];
        if (bone < 0) world[p].multiplyToRef(refRot[j], world[j]);
        refPos[j].multiplyToRef(setup.worldScale[p], tmpV);
        tmpV.applyRotationQuaternionToRef(world[p], tmpV);
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
