// Encode's limbs: an arm's or a leg's rig rotations as its muscles (the twist split between its
// bones, the hinge's bend and blend), written out with numbers handed over in slots of one array.
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef, QuaternionRotationAxisToRef } from "../math/hotMath.js";
import { QuaternionToRotationVectorToRef, SwingTwistDecomposeToRef, TwistAngleNearInPlace } from "../math/swingTwist.js";
import { BoneMuscles } from "./muscles.js";
import type { MuscleSetup } from "./setup.js";

const B = HumanBone;
const swing = new Quaternion();
const tmpQ = new Quaternion();
const rv = new Vector3();
/** Steps of the hinge split (one when the limb's two axes are parallel; 3 or 4 to rounding on real rigs). */
const HINGE_STEPS = 8;
/** Trial turns of the hinge split's fallback scan. */
const HINGE_SCAN = 72;
const turned = new Quaternion();
/**
 * How an elbow or knee is read (degrees): a limb bent well past this flexes as a pure hinge (its
 * sideways bend is read as twist of the bone above), a straighter one keeps its twist on the upper
 * bone; at this bend the two weigh the same. Encoding blends them continuously (docs/muscles.md,
 * step 5), so no muscle jumps as a limb straightens: the old reading, a hinge from 25 degrees of
 * bend and none below 10, turned a knee's thigh twist by 20 degrees in one frame.
 */
export const HINGE_BLEND_BEND_DEG = 30;
/** {@link HINGE_BLEND_BEND_DEG} in radians. */
const HINGE_BLEND = (HINGE_BLEND_BEND_DEG * Math.PI) / 180;

/**
 * The numbers the encoder's functions hand each other, in slots of one array: V8 boxes a double
 * passed to or returned from a call it does not inline, or written to a module-level `let` (a heap
 * allocation each), and the encoder has too many small functions for all to be inlined. For the
 * same reason the quaternion products are `hotMath`'s and vector coordinates are written one by
 * one. Scratch, like the vectors above: the encoder is not re-entrant.
 */
const num = new Float64Array(16);
/** Slot: an angle a helper gives back (the twist a split measured, the angle moved onto a bone), radians. */
const ANGLE = 0;
/** Slot: the turn {@link turnWithChild} applies, radians; and its negation. */
const TURN = 1;
const TURN_BACK = 2;
/** Slots: the limb's upper and lower bone twists, tracked as numbers (radians). */
const UPPER_TWIST = 3;
const LOWER_TWIST = 4;
/** Slot: the dot product of the limb's two twist axes. */
const ALONG = 5;
/** Slots: Y and Z swing angles (radians) and their length, of the last {@link lowerSwing}. */
const SWING_Y = 6;
const SWING_Z = 7;
const BEND = 8;
/** Slots: the trial turn {@link blendAfter} tries, and the real and imaginary parts of the blend it gives. */
const TRIAL = 9;
const BLEND_RE = 10;
const BLEND_IM = 11;
/** Slot: the turn {@link hingeTurn} gives, radians. */
const HINGE = 12;
/** Slot: a twist read on the turn nearest a tracked one ({@link TwistAngleNearInPlace}'s near, then its result). */
const NEAR = 13;
/** Slot: the angle {@link putMuscle} converts, radians. */
const RADIANS = 14;
/** Slot: the twist share {@link undoShare} undoes. */
const SHARE = 15;

/** `muscles[m]` = `num[RADIANS]` as a muscle value (as `MuscleSetup.radiansToMuscle`). */
function putMuscle(setup: MuscleSetup, m: number, muscles: Float32Array): void {
    const deg = (num[RADIANS] * 180) / Math.PI;
    muscles[m] = deg >= 0 ? deg / setup.maxDeg[m] : deg / -setup.minDeg[m];
}

/**
 * Muscles of one bone from its rotation relative to its mapped parent (canonical axes). With
 * `twistAt` >= 0, the twist angle is `num[twistAt]` (radians) rather than the one read from `q`,
 * for limbs whose twist is tracked past half a turn.
 */
export function WriteBone(setup: MuscleSetup, bone: number, q: Quaternion, muscles: Float32Array, twistAt: number): void {
    const t = setup.twistAxis[bone];
    SwingTwistDecomposeToRef(q, t, swing, null, num, ANGLE);
    QuaternionToRotationVectorToRef(swing, rv);
    const m = BoneMuscles[bone];
    const mx = m[0];
    const my = m[1];
    const mz = m[2];
    if (mx >= 0) {
        num[RADIANS] = setup.twistSign[bone] * num[twistAt >= 0 ? twistAt : ANGLE];
        putMuscle(setup, mx, muscles);
    }
    if (my >= 0) {
        const a = setup.axisY[bone];
        num[RADIANS] = rv.x * a.x + rv.y * a.y + rv.z * a.z;
        putMuscle(setup, my, muscles);
    }
    if (mz >= 0) {
        const a = setup.axisZ[bone];
        num[RADIANS] = rv.x * a.x + rv.y * a.y + rv.z * a.z;
        putMuscle(setup, mz, muscles);
    }
}

/** Moves a bone's twist about `axis` onto its parent: the child keeps only its swing, the world stays. The angle moved goes to `num[ANGLE]`. */
function moveTwistToParent(child: Quaternion, parent: Quaternion, axis: Vector3): void {
    // child = swing * twist(a)  ->  child = twist(-a) * child = swing', parent = parent * twist(a)
    SwingTwistDecomposeToRef(child, axis, null, null, num, ANGLE);
    QuaternionRotationAxisToRef(axis, num, ANGLE, tmpQ);
    QuaternionMultiplyToRef(parent, tmpQ, parent);
    num[TURN_BACK] = -num[ANGLE];
    QuaternionRotationAxisToRef(axis, num, TURN_BACK, tmpQ);
    QuaternionMultiplyToRef(tmpQ, child, child);
}

const aim = new Vector3();
const across = new Vector3();
const turnS = new Quaternion();

/**
 * The shoulder's turn split in two: the turn `S` about an axis across `side` (what the shoulder's
 * two muscles hold) that points the collarbone where `parent` points it (`S * collar = parent *
 * collar`), and the rest, a turn about the collarbone that moves no joint, put onto the child as a
 * prefix: `parent = S`, `child = (S^-1 * parent) * child` (the child's world stays). S's axis keeps
 * the same angle to the collarbone before and after, so it is across `d1 - d0` as well as across
 * `side`: `normalize(side x (d1 - d0))`, and its angle the turn between `d0` and `d1` seen along
 * it. The angle moved onto the child (about the collarbone) goes to `num[ANGLE]`.
 */
function shoulderTurnToChild(parent: Quaternion, child: Quaternion, side: Vector3, collar: Vector3): void {
    collar.applyRotationQuaternionToRef(parent, aim);
    // (Vector arithmetic written out: Babylon's subtractToRef, CrossToRef, scaleToRef and length
    // hand numbers to or from a call.)
    const dx = aim.x - collar.x;
    const dy = aim.y - collar.y;
    const dz = aim.z - collar.z;
    // across = side x (aim - collar)
    let ax = side.y * dz - side.z * dy;
    let ay = side.z * dx - side.x * dz;
    let az = side.x * dy - side.y * dx;
    const len = Math.sqrt(ax * ax + ay * ay + az * az);
    const dLengthSquared = dx * dx + dy * dy + dz * dz;
    if (!(len > 1e-9 * (Math.sqrt(dLengthSquared) + 1e-30)) || !(dLengthSquared > 1e-24)) {
        // The collarbone points as in the T-pose (all of the turn is about it), or moved along
        // the side axis only: the twist about the side axis goes to the child, as for any bone.
        MoveTwistToChild(parent, child, side);
        return;
    }
    const k = 1 / len;
    ax *= k;
    ay *= k;
    az *= k;
    across.x = ax;
    across.y = ay;
    across.z = az;
    // p0, p1: the collarbone before and after, across the axis.
    const c = collar.x * ax + collar.y * ay + collar.z * az;
    const p0x = collar.x - ax * c;
    const p0y = collar.y - ay * c;
    const p0z = collar.z - az * c;
    const e = aim.x * ax + aim.y * ay + aim.z * az;
    const p1x = aim.x - ax * e;
    const p1y = aim.y - ay * e;
    const p1z = aim.z - az * e;
    // angle = atan2(across . (p0 x p1), p0 . p1)
    const cx = p0y * p1z - p0z * p1y;
    const cy = p0z * p1x - p0x * p1z;
    const cz = p0x * p1y - p0y * p1x;
    num[TURN] = Math.atan2(ax * cx + ay * cy + az * cz, p0x * p1x + p0y * p1y + p0z * p1z);
    QuaternionRotationAxisToRef(across, num, TURN, turnS);
    // rest = S^-1 * parent (a turn about the collarbone), onto the child; the parent keeps S.
    QuaternionConjugateToRef(turnS, tmpQ);
    QuaternionMultiplyToRef(tmpQ, parent, tmpQ);
    QuaternionMultiplyToRef(tmpQ, child, child);
    parent.copyFrom(turnS);
    SwingTwistDecomposeToRef(tmpQ, collar, null, null, num, ANGLE);
}

/** Moves a bone's twist about `axis` onto its child: the bone keeps only its swing, the world stays. The angle moved goes to `num[ANGLE]`. */
export function MoveTwistToChild(parent: Quaternion, child: Quaternion, axis: Vector3): void {
    // parent = swing * twist(a) -> parent = swing, child = twist(a) * child
    SwingTwistDecomposeToRef(parent, axis, parent, null, num, ANGLE);
    QuaternionRotationAxisToRef(axis, num, ANGLE, tmpQ);
    QuaternionMultiplyToRef(tmpQ, child, child);
}

/** Turns a bone about its own axis `t` by `num[TURN]` and its child back, so no bone's direction changes. */
function turnWithChild(q: Quaternion[], bone: number, child: number, t: Vector3): void {
    QuaternionRotationAxisToRef(t, num, TURN, tmpQ);
    QuaternionMultiplyToRef(q[bone], tmpQ, q[bone]);
    num[TURN_BACK] = -num[TURN];
    QuaternionRotationAxisToRef(t, num, TURN_BACK, tmpQ);
    QuaternionMultiplyToRef(tmpQ, q[child], q[child]);
}

/** Swing of a bone about its Y and Z axes (radians, into `num[SWING_Y]`, `num[SWING_Z]`) and its angle (`num[BEND]`). */
function lowerSwing(setup: MuscleSetup, bone: number, q: Quaternion): void {
    SwingTwistDecomposeToRef(q, setup.twistAxis[bone], swing, null, num, ANGLE);
    QuaternionToRotationVectorToRef(swing, rv);
    const ay = setup.axisY[bone];
    const az = setup.axisZ[bone];
    const y = rv.x * ay.x + rv.y * ay.y + rv.z * ay.z;
    const z = rv.x * az.x + rv.y * az.y + rv.z * az.z;
    num[SWING_Y] = y;
    num[SWING_Z] = z;
    num[BEND] = Math.sqrt(y * y + z * z);
}

/**
 * The hinge blend `z = bend e^(i psi) + HINGE_BLEND e^(i chi)` of a lower bone (rotation `qLower`
 * relative to its upper bone, twist `num[LOWER_TWIST]` tracked as a number) once the upper bone
 * turns by `num[TRIAL]` about its axis `tu` (and the lower bone back), into `num[BLEND_RE]` and
 * `num[BLEND_IM]`.
 */
function blendAfter(setup: MuscleSetup, qLower: Quaternion, tu: Vector3, lower: number): void {
    num[TURN_BACK] = -num[TRIAL];
    QuaternionRotationAxisToRef(tu, num, TURN_BACK, turned);
    QuaternionMultiplyToRef(turned, qLower, turned);
    const along = num[ALONG];
    num[NEAR] = num[LOWER_TWIST] - num[TRIAL] * along;
    TwistAngleNearInPlace(turned, setup.twistAxis[lower], num, NEAR);
    lowerSwing(setup, lower, turned);
    const bend = num[BEND];
    const psi = Math.atan2(num[SWING_Y], -num[SWING_Z]);
    const chi = (setup.hingeSign[lower] * num[NEAR]) / (along > 0.5 ? along : 0.5);
    num[BLEND_RE] = bend * Math.cos(psi) + HINGE_BLEND * Math.cos(chi);
    num[BLEND_IM] = bend * Math.sin(psi) + HINGE_BLEND * Math.sin(chi);
}

/** The turn (radians, into `num[HINGE]`) that brings the hinge blend to the flexing way, exact when the two axes are parallel: `s * arg z`. */
function hingeTurn(setup: MuscleSetup, qLower: Quaternion, tu: Vector3, lower: number): void {
    num[TRIAL] = 0;
    blendAfter(setup, qLower, tu, lower);
    num[HINGE] = setup.hingeSign[lower] * Math.atan2(num[BLEND_IM], num[BLEND_RE]);
}

/**
 * Undoes the twist share `num[SHARE]` of a bone whose twist about `axis` is tracked in
 * `num[slot]` (decoding gives the bone `1 - share` of its twist and the next bone the rest as a
 * prefix about this bone's axis): with `a` its twist on the turn nearest the tracked one, turns the
 * bone by `extra = a / (1 - share) - a` and `next` back, and tracks `a + extra`. `num[TURN]` is
 * `extra` after.
 */
function undoShare(q: Quaternion[], bone: number, next: number, axis: Vector3, slot: number): void {
    num[NEAR] = num[slot];
    TwistAngleNearInPlace(q[bone], axis, num, NEAR);
    const a = num[NEAR];
    num[TURN] = a / (1 - num[SHARE]) - a;
    turnWithChild(q, bone, next, axis);
    num[slot] = a + num[TURN];
}

/**
 * One limb (arm or leg): shoulder twist onto the upper arm, hand twist onto the forearm, the twist
 * shares undone, and the elbow (knee) made a pure hinge by turning the upper
 * bone about its own axis, which keeps every bone's direction. Twists are tracked as numbers along
 * the way, so a limb twisted more than half a turn in total (upper arm with the shoulder's twist,
 * forearm with the hand's) keeps its value instead of wrapping to the other side. `root` is the
 * shoulder for an arm, -1 for a leg.
 */
export function EncodeLimb(setup: MuscleSetup, q: Quaternion[], root: number, upper: number, lower: number, end: number, muscles: Float32Array): void {
    const tu = setup.twistAxis[upper];
    const tl = setup.twistAxis[lower];
    const shares = setup.twistShare;
    num[ALONG] = tu.x * tl.x + tu.y * tl.y + tu.z * tl.z;
    SwingTwistDecomposeToRef(q[upper], tu, null, null, num, UPPER_TWIST);
    SwingTwistDecomposeToRef(q[lower], tl, null, null, num, LOWER_TWIST);
    if (root >= 0 && setup.joint[root] >= 0 && setup.parentBone[upper] === root) {
        // The shoulder has two muscles, read about the body's side axis (`MuscleSetup.twistAxis`):
        // it keeps the one turn without a part about that axis that puts the collarbone where it
        // points, and what is left, a turn about the collarbone itself (which keeps the upper arm
        // where it is), goes to the upper arm.
        const collar = setup.collarbone[root === B.LeftShoulder ? 0 : 1];
        shoulderTurnToChild(q[root], q[upper], setup.twistAxis[root], collar);
        num[UPPER_TWIST] += num[ANGLE] * (collar.x * tu.x + collar.y * tu.y + collar.z * tu.z);
    }
    // The hand has no twist muscle: its twist about the forearm's axis goes to the forearm (and
    // decoding hands the forearm's share back). The foot keeps its own (its roll).
    const endTwists = BoneMuscles[end][0] >= 0;
    if (!endTwists) {
        moveTwistToParent(q[end], q[lower], tl);
        num[LOWER_TWIST] += num[ANGLE];
    }
    // Undo the twist share: decoding gives the upper bone (1 - share) of its twist and the lower
    // bone the rest as a prefix about the upper bone's axis.
    num[SHARE] = root >= 0 ? shares.upperArm : shares.upperLeg;
    if (num[SHARE] < 0.999) {
        undoShare(q, upper, lower, tu, UPPER_TWIST);
        num[LOWER_TWIST] -= num[TURN] * num[ALONG];
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
    hingeTurn(setup, q[lower], tu, lower);
    for (let k = 0; k < HINGE_STEPS && Math.abs(num[HINGE]) > 1e-10; k++) {
        num[TURN] = num[HINGE];
        turnWithChild(q, upper, lower, tu);
        num[UPPER_TWIST] += num[HINGE];
        // The lower bone's twist as it now is (a turn changes it by tau * along only when the axes are parallel).
        num[LOWER_TWIST] = num[LOWER_TWIST] - num[HINGE] * num[ALONG];
        TwistAngleNearInPlace(q[lower], tl, num, LOWER_TWIST);
        hingeTurn(setup, q[lower], tu, lower);
    }
    if (Math.abs(num[HINGE]) > 1e-8) {
        // Not settled (a limb bent backwards against its twist by about HINGE_BLEND, where z is
        // near 0 and the axes are far from parallel): the best of a scan over the whole turn.
        let best = 0;
        let bestRe = -Infinity;
        for (let k = 0; k < HINGE_SCAN; k++) {
            num[TRIAL] = ((k - HINGE_SCAN / 2) * 2 * Math.PI) / HINGE_SCAN;
            blendAfter(setup, q[lower], tu, lower);
            if (num[BLEND_RE] > bestRe) {
                bestRe = num[BLEND_RE];
                best = num[TRIAL];
            }
        }
        // Refine: the root of Im z beside the best trial, by bisection.
        const step = (2 * Math.PI) / HINGE_SCAN;
        let lo = best - step;
        let hi = best + step;
        num[TRIAL] = lo;
        blendAfter(setup, q[lower], tu, lower);
        const imLo = num[BLEND_IM];
        num[TRIAL] = hi;
        blendAfter(setup, q[lower], tu, lower);
        if (imLo * num[BLEND_IM] < 0) {
            for (let k = 0; k < 50; k++) {
                const mid = 0.5 * (lo + hi);
                num[TRIAL] = mid;
                blendAfter(setup, q[lower], tu, lower);
                if (num[BLEND_IM] * imLo > 0) lo = mid;
                else hi = mid;
            }
            best = 0.5 * (lo + hi);
        }
        num[TURN] = best;
        turnWithChild(q, upper, lower, tu);
        num[UPPER_TWIST] += best;
        num[LOWER_TWIST] = num[LOWER_TWIST] - best * num[ALONG];
        TwistAngleNearInPlace(q[lower], tl, num, LOWER_TWIST);
    }
    // Undo the lower bone's share for a foot: decoding gives the shin (1 - share) of its twist and
    // the foot the rest as a prefix about the shin's axis.
    num[SHARE] = root >= 0 ? shares.lowerArm : shares.lowerLeg;
    if (endTwists && num[SHARE] < 0.999) undoShare(q, lower, end, tl, LOWER_TWIST);
    if (root >= 0 && setup.joint[root] >= 0) WriteBone(setup, root, q[root], muscles, -1);
    TwistAngleNearInPlace(q[upper], tu, num, UPPER_TWIST);
    WriteBone(setup, upper, q[upper], muscles, UPPER_TWIST);
    TwistAngleNearInPlace(q[lower], tl, num, LOWER_TWIST);
    WriteBone(setup, lower, q[lower], muscles, LOWER_TWIST);
    WriteBone(setup, end, q[end], muscles, -1);
}
