import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import {
    QuaternionConjugateToRef,
    QuaternionMultiplyToRef,
    QuaternionNormalizeInPlace,
    QuaternionRotationAxisToRef,
    Vector3CopyToRef,
} from "../math/hotMath.js";
import { TwistAngleNearInPlace } from "../math/swingTwist.js";
import type { HumanPose } from "./humanPose.js";
import { BodyFrameToRef, CenterOfMassToRef } from "./kinematics.js";
import { ALL_MUSCLE_COUNT, BoneMuscles } from "./muscles.js";
import { MuscleSetup, TRUNK_BONES } from "./setup.js";
import { HasTranslationDof, TRANSLATION_DOF_COUNT, TranslationDofBones, TranslationDofOffsetToRef } from "./translationDof.js";
import { MatchTrunkToSource, TRUNK_NUMBERS, type TrunkPlaceLowPass } from "./trunkMatch.js";
import { FoldMissingShouldersFastInPlace, type MissingShoulderFold } from "./shoulderFold.js";
import { MatchShoulderLine, SHOULDER_NUMBERS } from "./shoulderLine.js";
import { MatchCollarboneShakeInPlace, type CollarboneShake } from "./collarboneShake.js";
import { LimitBonesInPlace, type ICanonicalRotationLimiter } from "./decodeLimits.js";

const B = HumanBone;
const tmpQ = new Quaternion();
const tmpQ2 = new Quaternion();
const bodyFk = new Quaternion();
const delta = new Quaternion();
const comFk = new Vector3();
const comTarget = new Vector3();
const tmpV = new Vector3();
/** Every muscle's angle (radians) of the pose being decoded. */
const angles = new Float64Array(ALL_MUSCLE_COUNT);
/** An angle handed to {@link QuaternionRotationAxisToRef} or {@link TwistAngleNearInPlace}. */
const slot = new Float64Array(1);

// Numbers are handed between the functions below in typed arrays, never as arguments or return
// values, and quaternions are combined with the helpers of `hotMath`: V8 boxes a number passed to
// or returned from a call it does not inline, which would allocate on every decode. The per-bone
// loops write their products out by hand (the same arithmetic as `QuaternionMultiplyToRef`, to the
// bit: no call per bone); the readable form is the test oracle, `ReferenceDecodeWorldRotations`
// (test/helpers/referenceMuscles.ts, checked in test/muscle/muscleSpace.test.ts).

/** The twist angle (radians, about the bone's twist axis) a bone's muscles ask for, into `out[index]`, from the muscles' angles. */
function twistInto(setup: MuscleSetup, bone: number, angles: Float64Array, out: Float64Array, index: number): void {
    const mx = BoneMuscles[bone][0];
    out[index] = mx >= 0 ? setup.twistSign[bone] * angles[mx] : 0;
}

/**
 * Every bone's rotation from its muscles' angles (radians), from the hips' first child on:
 * `q[b] = swing * twist`, the swing the rotation vector `y * axisY + z * axisZ` (Y and Z muscles)
 * and the twist about the bone's twist axis (X muscle). The arithmetic of
 * `RotationVectorToQuaternionToRef`, `Quaternion.RotationAxisToRef` and `multiplyToRef`, written
 * out so that no number crosses a call.
 */
function boneRotationsToRef(setup: MuscleSetup, angles: Float64Array, q: Quaternion[]): void {
    const twistSign = setup.twistSign;
    const twistLength = setup.twistAxisLength;
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        const m = BoneMuscles[b];
        const mx = m[0];
        const my = m[1];
        const mz = m[2];
        const twist = mx >= 0 ? twistSign[b] * angles[mx] : 0;
        const y = my >= 0 ? angles[my] : 0;
        const z = mz >= 0 ? angles[mz] : 0;
        // Swing: the exp map of the rotation vector.
        const ay = setup.axisY[b];
        const az = setup.axisZ[b];
        const rx = ay.x * y + az.x * z;
        const ry = ay.y * y + az.y * z;
        const rz = ay.z * y + az.z * z;
        const angle = Math.sqrt(rx * rx + ry * ry + rz * rz);
        let sx: number;
        let sy: number;
        let sz: number;
        let sw: number;
        if (angle < 1e-12) {
            sx = rx * 0.5;
            sy = ry * 0.5;
            sz = rz * 0.5;
            sw = 1;
            const len = Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw);
            if (len !== 0 && len !== 1) {
                const k = 1 / len;
                sx *= k;
                sy *= k;
                sz *= k;
                sw *= k;
            }
        } else {
            const k = Math.sin(angle * 0.5) / angle;
            sx = rx * k;
            sy = ry * k;
            sz = rz * k;
            sw = Math.cos(angle * 0.5);
        }
        // Twist about the twist axis (a bone without a twist muscle: cos 0 and sin 0, exactly, without the calls).
        const t = setup.twistAxis[b];
        const tw = mx >= 0 ? Math.cos(twist / 2) : 1;
        const sinByLength = mx >= 0 ? Math.sin(twist / 2) / twistLength[b] : 0;
        const tx = t.x * sinByLength;
        const ty = t.y * sinByLength;
        const tz = t.z * sinByLength;
        // swing * twist
        const r = q[b];
        r.x = sx * tw + sy * tz - sz * ty + sw * tx;
        r.y = -sx * tz + sy * tw + sz * tx + sw * ty;
        r.z = sx * ty - sy * tx + sz * tw + sw * tz;
        r.w = -sx * tx - sy * ty - sz * tz + sw * tw;
    }
}

/**
 * A limb's twist shares: the upper bone keeps (1 - share) of its twist (measured after a missing
 * shoulder was folded in), the lower bone starts with the rest about the upper bone's axis; the
 * same between the lower bone and the hand or foot, which has no twist of its own.
 */
function shareLimbTwist(setup: MuscleSetup, q: Quaternion[], angles: Float64Array, upper: number, lower: number, end: number, arm: boolean): void {
    const share = setup.twistShare;
    const tu = setup.twistAxis[upper];
    const tl = setup.twistAxis[lower];
    // The upper bone's twist as its muscle asks (past half a turn too), with what a missing
    // shoulder folded in.
    twistInto(setup, upper, angles, slot, 0);
    TwistAngleNearInPlace(q[upper], tu, slot, 0);
    const a = slot[0] * (arm ? share.upperArm : share.upperLeg);
    twistInto(setup, lower, angles, slot, 0);
    const b = slot[0] * (arm ? share.lowerArm : share.lowerLeg);
    slot[0] = -a;
    QuaternionMultiplyToRef(q[upper], QuaternionRotationAxisToRef(tu, slot, 0, tmpQ), q[upper]);
    slot[0] = -b;
    QuaternionMultiplyToRef(q[lower], QuaternionRotationAxisToRef(tl, slot, 0, tmpQ), q[lower]);
    slot[0] = a;
    QuaternionMultiplyToRef(QuaternionRotationAxisToRef(tu, slot, 0, tmpQ), q[lower], q[lower]);
    slot[0] = b;
    QuaternionMultiplyToRef(QuaternionRotationAxisToRef(tl, slot, 0, tmpQ), q[end], q[end]);
}

/** Trunk bones' rotations from their muscles before missing bones fold in (`TRUNK_BONES` order): what the source's own trunk did. */
const trunkRaw: Quaternion[] = TRUNK_BONES.map(() => new Quaternion());
/** The left and right shoulders' decoded rotations before the trunk's step, and the source's trunk below them (`MatchShoulderLine` reads the source's line from them). */
const shoulderRaw: Quaternion[] = [new Quaternion(), new Quaternion(), new Quaternion()];
/** The shoulders' turns after the trunk's step, for `MatchCollarboneShakeInPlace` (left, right). */
const shakeTurns: Quaternion[] = [new Quaternion(), new Quaternion()];

/**
 * Decodes a {@link HumanPose} onto an avatar's rig: local rotations of every mapped bone and of the
 * joints between them (which keep their T-pose rotation), and the hips' local position and
 * rotation placed so that the centre of mass and the body orientation are the pose's. Writes into
 * `result` (initialise it once with {@link CreateReferenceRigPose}; joints outside the humanoid,
 * such as twist bones and tips, are left as they are) and returns it. Allocates nothing after the
 * avatar's first use. Missing optional bones: the motion of a missing chest or upper chest goes to
 * the spine bone below it, a missing neck's to the head, a missing shoulder's to the upper arm.
 * With `limits` (optional, default none), every mapped bone's rotation is limited before the body
 * is placed, parents first; what the limits take off a spine bone (spine, chest, upper chest), the
 * neck or a shoulder goes on to its children, which keep the world rotation the unlimited pose gave
 * them as far as their own limits allow (docs/runtime.md, joint limits). With `sourceTrunk`
 * (optional, default none: each trunk bone turns as its muscles say), the source's trunk layout
 * as a clip keeps it (`IClipProportions.trunkOffsets`, 15 numbers; NaN in the first for none), the
 * trunk's segments first turn as the source's trunk turns over the same shares of its length
 * (see `MatchTrunkToSource`; docs/runtime.md, the trunk). With `sourceShoulders` (optional,
 * default none), the source's shoulder layout as a clip keeps it (`IClipProportions.shoulderOffsets`,
 * 12 numbers, NaN in the first for none; a 13th, the share of the pose with a layout, scales the
 * step), the line between the upper-arm joints turns about the
 * trunk's axis as the source's did: both shoulders turn, or on a character without them the bone
 * its arms hang from (see `MatchShoulderLine`; docs/runtime.md, the shoulders). With
 * `shoulderFold` as well (optional, default none: a missing shoulder's turn goes to the upper arm
 * as a rotation), a missing shoulder's fast turns move the elbow by place instead, its slow ones
 * carried in `shoulderFold` from one call to the next (see `FoldMissingShouldersFastInPlace`).
 * With `collarboneShake` (optional, default none), a mapped shoulder's socket moves as fast as the
 * source's did, its elbow put back by the upper arm (see `MatchCollarboneShakeInPlace`). With
 * `trunkPlace` as well as `sourceTrunk` (optional, default none), the fast part of the turn of the
 * piece between the hip joints and the spine joint goes on to the spine, so that the trunk's
 * joints keep the source's places (see `MatchTrunkToSource`).
 */
export function DecodeHumanPose(
    avatar: HumanoidAvatar,
    pose: HumanPose,
    result: IRigPose,
    limits?: ICanonicalRotationLimiter | null,
    sourceTrunk?: Float64Array | null,
    sourceShoulders?: Float64Array | null,
    shoulderFold?: MissingShoulderFold | null,
    collarboneShake?: CollarboneShake | null,
    trunkPlace?: TrunkPlaceLowPass | null,
): IRigPose {
    const setup = MuscleSetup.For(avatar);
    const { world, pos, dc, q } = setup.work;
    const joint = setup.joint;
    boneRotationsToRef(setup, setup.musclesToRadiansToRef(pose.values, angles), q);
    const matchSource = !!sourceTrunk && sourceTrunk.length >= TRUNK_NUMBERS && sourceTrunk[0] === sourceTrunk[0];
    if (matchSource) for (let i = 0; i < TRUNK_BONES.length; i++) trunkRaw[i].copyFrom(q[TRUNK_BONES[i]]);
    // The source's trunk below its shoulders as the muscles turn it (before missing bones fold in and the trunk's step).
    const matchShoulders = !!sourceShoulders && sourceShoulders.length >= SHOULDER_NUMBERS && sourceShoulders[0] === sourceShoulders[0];
    if (matchShoulders) {
        QuaternionMultiplyToRef(q[B.Spine], q[B.Chest], shoulderRaw[2]);
        QuaternionMultiplyToRef(shoulderRaw[2], q[B.UpperChest], shoulderRaw[2]);
    }
    // Missing optional bones hand their rotation on.
    if (joint[B.Chest] < 0) QuaternionMultiplyToRef(q[B.Spine], q[B.Chest], q[B.Spine]);
    if (joint[B.UpperChest] < 0) {
        const below = q[joint[B.Chest] >= 0 ? B.Chest : B.Spine];
        QuaternionMultiplyToRef(below, q[B.UpperChest], below);
    }
    if (joint[B.Neck] < 0) QuaternionMultiplyToRef(q[B.Neck], q[B.Head], q[B.Head]);
    if (joint[B.LeftShoulder] < 0) QuaternionMultiplyToRef(q[B.LeftShoulder], q[B.LeftUpperArm], q[B.LeftUpperArm]);
    if (joint[B.RightShoulder] < 0) QuaternionMultiplyToRef(q[B.RightShoulder], q[B.RightUpperArm], q[B.RightUpperArm]);
    shareLimbTwist(setup, q, angles, B.LeftUpperArm, B.LeftLowerArm, B.LeftHand, true);
    shareLimbTwist(setup, q, angles, B.RightUpperArm, B.RightLowerArm, B.RightHand, true);
    shareLimbTwist(setup, q, angles, B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot, false);
    shareLimbTwist(setup, q, angles, B.RightUpperLeg, B.RightLowerLeg, B.RightFoot, false);
    // A missing shoulder's fast turns move the elbow by place (see `FoldMissingShouldersFastInPlace`);
    // without a layout, its slow turns are forgotten.
    if (shoulderFold) {
        if (matchShoulders) FoldMissingShouldersFastInPlace(setup, q, sourceShoulders, shoulderFold);
        else shoulderFold.reset();
    }
    // The shoulders' own turns, before the trunk's step turns them to keep their world rotations
    // (of a shoulder folded by time, its slow turn: the fast one moved the elbow by place already).
    if (matchShoulders) {
        shoulderRaw[0].copyFrom(shoulderFold && shoulderFold.applied[0] ? shoulderFold.slow[0] : q[B.LeftShoulder]);
        shoulderRaw[1].copyFrom(shoulderFold && shoulderFold.applied[1] ? shoulderFold.slow[1] : q[B.RightShoulder]);
    }
    // The trunk's segments turned as the source's trunk turns (see `MatchTrunkToSource`), before the limits.
    if (matchSource) MatchTrunkToSource(setup, q, trunkRaw, sourceTrunk, trunkPlace);
    // The shoulders' turns as the source's collarbones hang from this character's chest (after the
    // trunk's step, which turned them back to keep their world turns), for the sockets' shake.
    if (collarboneShake && matchShoulders) {
        shakeTurns[0].copyFrom(q[B.LeftShoulder]);
        shakeTurns[1].copyFrom(q[B.RightShoulder]);
    }
    // The shoulder line turns about the trunk as the source's did (by the shoulders, or without them the bone the arms hang from).
    if (matchShoulders) MatchShoulderLine(setup, q, sourceShoulders, shoulderRaw[0], shoulderRaw[1], shoulderRaw[2]);
    // A mapped shoulder's socket shakes as the source's did (see `MatchCollarboneShakeInPlace`);
    // without a layout, its slow parts are forgotten.
    if (collarboneShake) {
        if (matchShoulders) MatchCollarboneShakeInPlace(setup, q, sourceShoulders, shakeTurns[0], shakeTurns[1], collarboneShake);
        else collarboneShake.reset();
    }
    // Joint limits, before the body is placed (so the centre of mass is the limited pose's). What
    // the limits take off a spine bone, the neck or a shoulder goes on to its children (see
    // `LimitBonesInPlace`), as a missing bone's rotation does above.
    if (limits) LimitBonesInPlace(setup, q, limits);
    // World rotations of mapped bones with the hips in their T-pose orientation:
    // Dc = Dc(parent) * Q, W = c0 * Dc * c0^-1 * W0.
    // The three products of each bone written out (`QuaternionMultiplyToRef`'s arithmetic, in one
    // pass: a bone's Dc is final once made, its parent's made before it).
    const dh = dc[B.Hips];
    dh.x = 0;
    dh.y = 0;
    dh.z = 0;
    dh.w = 1;
    const c0 = setup.c0;
    const cx = c0.x;
    const cy = c0.y;
    const cz = c0.z;
    const cw = c0.w;
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const j = joint[b];
        if (j < 0) continue;
        const d = dc[b];
        if (b > 0) {
            // Dc = Dc(parent) * Q
            const a = dc[setup.parentBone[b]];
            const r = q[b];
            const ax = a.x;
            const ay = a.y;
            const az = a.z;
            const aw = a.w;
            const bx = r.x;
            const by = r.y;
            const bz = r.z;
            const bw = r.w;
            d.x = ax * bw + ay * bz - az * by + aw * bx;
            d.y = -ax * bz + ay * bw + az * bx + aw * by;
            d.z = ax * by - ay * bx + az * bw + aw * bz;
            d.w = -ax * bx - ay * by - az * bz + aw * bw;
        }
        // t = c0 * Dc
        const dx = d.x;
        const dy = d.y;
        const dz = d.z;
        const dw = d.w;
        const tx = cx * dw + cy * dz - cz * dy + cw * dx;
        const ty = -cx * dz + cy * dw + cz * dx + cw * dy;
        const tz = cx * dy - cy * dx + cz * dw + cw * dz;
        const tw = -cx * dx - cy * dy - cz * dz + cw * dw;
        // W = t * (c0^-1 * W0)
        const k = setup.tposeCanonical[b];
        const kx = k.x;
        const ky = k.y;
        const kz = k.z;
        const kw = k.w;
        const w = world[j];
        w.x = tx * kw + ty * kz - tz * ky + tw * kx;
        w.y = -tx * kz + ty * kw + tz * kx + tw * ky;
        w.z = tx * ky - ty * kx + tz * kw + tw * kz;
        w.w = -tx * kx - ty * ky - tz * kz + tw * kw;
    }
    // Forward kinematics: mapped joints as computed, every other joint in its T-pose; positions
    // only where they are read below (the fingers' are not).
    const refRot = avatar.referencePose.rotations;
    const refPos = avatar.referencePose.positions;
    const scaledRefPos = setup.scaledReferencePositions;
    const needed = setup.decodePositionNeeded;
    const parent = setup.rigParent;
    const fk = setup.fkJoints;
    for (let k = 0; k < fk.length; k++) {
        const j = fk[k];
        const p = parent[j];
        if (p < 0) {
            if (setup.boneOfJoint[j] < 0) world[j].copyFrom(refRot[j]);
            Vector3CopyToRef(refPos[j], pos[j]);
        } else {
            if (setup.boneOfJoint[j] < 0) QuaternionMultiplyToRef(world[p], refRot[j], world[j]);
            if (!needed[j]) continue;
            // position = parentPosition + parentWorld * (parentScale * localPosition)
            scaledRefPos[j].applyRotationQuaternionToRef(world[p], tmpV);
            pos[p].addToRef(tmpV, pos[j]);
        }
    }
    // Local rotations below the hips (the hips themselves are placed next).
    const hips = joint[B.Hips];
    for (let k = 0; k < fk.length; k++) {
        const j = fk[k];
        if (j === hips || !setup.belowHips[j]) continue;
        // local = conjugate(parentWorld) * world, written out (`QuaternionMultiplyToRef`'s arithmetic)
        const pw = world[parent[j]];
        const ax = -pw.x;
        const ay = -pw.y;
        const az = -pw.z;
        const aw = pw.w;
        const wj = world[j];
        const bx = wj.x;
        const by = wj.y;
        const bz = wj.z;
        const bw = wj.w;
        const r = result.rotations[j];
        r.x = ax * bw + ay * bz - az * by + aw * bx;
        r.y = -ax * bz + ay * bw + az * bx + aw * by;
        r.z = ax * by - ay * bx + az * bw + aw * bz;
        r.w = -ax * bx - ay * by - az * bz + aw * bw;
    }
    // Place the body: turn about the hips so the body frame is the pose's, then move the hips so
    // the centre of mass is.
    CenterOfMassToRef(setup, world, pos, comFk);
    BodyFrameToRef(setup, pos, bodyFk);
    // target body frame = c0 * bodyRotation * c0^-1 * B0; delta = target * Bfk^-1
    QuaternionMultiplyToRef(setup.c0, pose.bodyRotation, tmpQ);
    QuaternionMultiplyToRef(tmpQ, setup.c0Inverse, tmpQ);
    QuaternionMultiplyToRef(tmpQ, setup.bodyFrameTPose, tmpQ);
    QuaternionConjugateToRef(bodyFk, tmpQ2);
    QuaternionNormalizeInPlace(QuaternionMultiplyToRef(tmpQ, tmpQ2, delta));
    // target CoM = c0 * (bodyPosition * scale) + ground origin
    const bp = pose.bodyPosition;
    const scale = setup.scale;
    comTarget.x = bp.x * scale;
    comTarget.y = bp.y * scale;
    comTarget.z = bp.z * scale;
    comTarget.applyRotationQuaternionToRef(setup.c0, comTarget).addInPlace(setup.groundOrigin);
    // hips position = target CoM - delta * (CoM - hips)
    comFk.subtractInPlace(pos[hips]).applyRotationQuaternionToRef(delta, comFk);
    comTarget.subtractInPlace(comFk);
    QuaternionMultiplyToRef(delta, world[hips], tmpQ);
    const hp = parent[hips];
    if (hp >= 0) {
        QuaternionConjugateToRef(world[hp], tmpQ2);
        QuaternionMultiplyToRef(tmpQ2, tmpQ, result.rotations[hips]);
        comTarget.subtractInPlace(pos[hp]).applyRotationQuaternionToRef(tmpQ2, tmpV);
        // Written out (`tmpV.divideToRef`): Babylon's method, not inlined into this large function
        // and not yet optimized itself, boxed its three quotients (see src/math/hotMath.ts).
        const ws = setup.worldScale[hp];
        const hipsAt = result.positions[hips];
        hipsAt.x = tmpV.x / ws.x;
        hipsAt.y = tmpV.y / ws.y;
        hipsAt.z = tmpV.z / ws.z;
    } else {
        result.rotations[hips].copyFrom(tmpQ);
        Vector3CopyToRef(comTarget, result.positions[hips]);
    }
    // Translation DoF, on top of the body as placed (the body is measured without them, see
    // `EncodeHumanPose`): each listed joint's local position moves by its offset in its parent
    // bone's frame, back to the T-pose's when the pose has none (the buffer is reused). The
    // offset and the parent's rotation are both taken before the body's turn: their ratio is local.
    const moved = HasTranslationDof(pose.translations);
    for (let s = 0; s < TRANSLATION_DOF_COUNT; s++) {
        const j = joint[TranslationDofBones[s]];
        if (j < 0) continue;
        const local = result.positions[j];
        Vector3CopyToRef(refPos[j], local);
        if (!moved) continue;
        const p = parent[j];
        TranslationDofOffsetToRef(setup, dc, s, pose.translations[s], tmpV);
        QuaternionConjugateToRef(world[p], tmpQ2);
        tmpV.applyRotationQuaternionInPlace(tmpQ2).divideInPlace(setup.worldScale[p]);
        local.addInPlace(tmpV);
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
