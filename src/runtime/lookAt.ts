import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import type { IJointClamp } from "../ik/jointClamp.js";
import {
    QuaternionConjugateToRef,
    QuaternionMultiplyToRef,
    QuaternionNormalizeInPlace,
    QuaternionSlerpToRef,
    Vector3TransformAffineToRef,
} from "../math/hotMath.js";
import { BoneMuscles } from "../muscle/muscles.js";
import { MuscleSetup } from "../muscle/setup.js";
import type { HumanoidPoseKinematics } from "./poseKinematics.js";
import { CriticallyDampedStepInPlace } from "../math/dampedSpring.js";

/** With `bodyWeight` 1 the trunk (spine, chest, upper chest) takes this share of the turn; the neck and head the rest, by `headWeight`. */
export const LOOK_AT_BODY_SHARE = 0.5;
/** Default {@link HumanoidLookAt.smoothTime}: seconds (a critically damped spring of rate 2 / smoothTime, as Unity's `SmoothDamp`). */
export const LOOK_AT_SMOOTH_TIME = 0.1;

/**
 * Radians (15 degrees) round straight behind the head where the look-at eases a clamped turn back
 * to none and, unclamped, keeps turning the way it already turns: a target crossing behind does
 * not flip the head to the other side in one frame (the clamp's whole width, or a sweep back
 * through the front with smoothing, and a flip every frame for a target held there).
 */
const BEHIND_BAND = (15 * Math.PI) / 180;
const TWO_PI = 2 * Math.PI;

const B = HumanBone;
/** The trunk bones of the look-at, from the hips up. */
const TRUNK: readonly HumanBone[] = [B.Spine, B.Chest, B.UpperChest];
const EYES: readonly HumanBone[] = [B.LeftEye, B.RightEye];

const qa = new Quaternion();
const qb = new Quaternion();
const qc = new Quaternion();
const va = new Vector3();
const vb = new Vector3();

/**
 * Look-at, as Unity's `SetLookAtPosition` / `SetLookAtWeight(weight, bodyWeight, headWeight,
 * eyesWeight, clampWeight)`: the spine, chest, upper chest, neck, head and eyes share a turn
 * toward a point.
 *
 * Angles are measured in the head's frame as the clip left it (canonical axes: X right, Y up, Z
 * forward), from between the eyes (the head joint without eyes): yaw about its up, pitch about its
 * right, so the head never rolls. The look direction is clamped to `(1 - clampWeight) * 180` degrees
 * from the head's forward (0.5: 90 degrees; 1: no turn), then smoothed (yaw and pitch follow through
 * a critically damped spring of rate `2 / smoothTime`, exact for any frame time: frame-rate
 * independent, no step in the turn's speed when the target jumps), then weighted:
 * - the trunk bones turn together by `weight * bodyWeight * LOOK_AT_BODY_SHARE` of it, shared
 *   equally (yaw about the head's up, pitch about its right);
 * - the head then faces `weight * (b + (1 - b) * headWeight)` of it, b the trunk's share, half of
 *   what is left on the neck and the rest on the head (which takes out any roll the trunk added);
 * - each eye turns toward the (smoothed) point through its two muscles (in-out, down-up), each
 *   clamped to its range (the avatar's muscle ranges, default ±20 and -10..15 degrees), blended
 *   from the clip's by `weight * eyesWeight`.
 * A character without eyes, neck, chest or upper chest skips them; {@link clamp}, when set,
 * limits the trunk, neck and head joints. Allocation-free per frame; never throws.
 */
export class HumanoidLookAt {
    /** The avatar. */
    public readonly avatar: HumanoidAvatar;
    /** The point looked at, goal space (see {@link goalSpaceToRig}), metres. */
    public readonly position = new Vector3(0, 0, 10);
    /** Overall weight, 0 (no look-at) to 1. Default 0. */
    public weight = 0;
    /** How much the trunk takes part, 0 to 1. Default 0 (Unity's). */
    public bodyWeight = 0;
    /** How much the head takes part, 0 to 1. Default 1. */
    public headWeight = 1;
    /** How much the eyes take part, 0 to 1. Default 0. */
    public eyesWeight = 0;
    /** 0: the head may turn all the way round; 0.5: up to 90 degrees; 1: not at all. Default 0.5. */
    public clampWeight = 0.5;
    /** Smoothing time, seconds (0: none). Default {@link LOOK_AT_SMOOTH_TIME}. */
    public smoothTime = LOOK_AT_SMOOTH_TIME;
    /** Goal space to rig space (affine, Babylon's row-vector order). Default identity. */
    public readonly goalSpaceToRig = Matrix.Identity();
    /** Joint limits for the trunk, neck and head (by `HumanBone`), or null. Default null. */
    public clamp: IJointClamp | null = null;
    /** Whether the last {@link solveBody} turned a trunk bone (hands pinned by IK must then be solved again). */
    public bodyTurned = false;
    /** The look direction of the last solve, after clamping and smoothing, before the weights: [0] yaw, [1] pitch, radians, the head's frame as the clip left it. */
    public readonly angles = new Float64Array(2);

    private readonly _setup: MuscleSetup;
    private readonly _trunk: Int32Array;
    private readonly _neck: number;
    private readonly _head: number;
    private readonly _eyes: Int32Array;
    /**
     * The rig path from the first trunk bone (or the neck) to the head, parents first: the joints
     * whose world rotations the next turn reads, brought up to date after each trunk or neck turn
     * (the rest once, after the head); null when the head is not below them (every joint then).
     */
    private readonly _path: Int32Array | null;
    /**
     * Per trunk bone: the part of {@link _path} its turn changes that the next turn reads, from it
     * to the next trunk bone (the last: to the head), parents first; null (all of {@link _path})
     * when the trunk bones are not on the path in order. The joints below the next trunk bone are
     * brought up to date after its own turn: the same numbers as the whole path every time.
     */
    private readonly _trunkPaths: (Int32Array | null)[];
    /** The part of {@link _path} from the neck to the head (null: all of it). */
    private readonly _neckPath: Int32Array | null;
    /** Spring state: yaw, pitch, their rates; whether it starts afresh. */
    private readonly _spring = new Float64Array(4);
    /** The spring's step numbers: [w, dt] (see `CriticallyDampedStepInPlace`). */
    private readonly _springStep = new Float64Array(2);
    private _fresh = true;
    private readonly _frame = new Quaternion();
    private readonly _origin = new Vector3();
    private readonly _aim = new Vector3();
    private readonly _up = new Vector3();
    private readonly _right = new Vector3();
    /** Numbers between the methods (none passed): [0] [1] a trunk bone's yaw and pitch, [2] [3] the clamped look angles, [4] the target's distance. */
    private readonly _num = new Float64Array(6);
    private readonly _headTarget = new Quaternion();
    private readonly _tmp = new Quaternion();
    /** The turn of each trunk bone this frame (world axes). */
    private readonly _trunkTurn = new Quaternion();

    /** @param avatar the avatar that looks */
    constructor(avatar: HumanoidAvatar) {
        this.avatar = avatar;
        const setup = (this._setup = MuscleSetup.For(avatar));
        this._trunk = Int32Array.from(TRUNK.filter((b) => setup.joint[b] >= 0));
        this._neck = setup.joint[B.Neck] >= 0 ? B.Neck : -1;
        this._head = B.Head;
        this._eyes = Int32Array.from(EYES.filter((b) => setup.joint[b] >= 0));
        const head = setup.joint[B.Head];
        const first = this._trunk.length > 0 ? setup.joint[this._trunk[0]] : this._neck >= 0 ? setup.joint[this._neck] : -1;
        const path: number[] = [];
        for (let j = head; j >= 0 && first >= 0; j = setup.rigParent[j]) {
            path.unshift(j);
            if (j === first) break;
        }
        this._path = first >= 0 && path[0] === first ? Int32Array.from(path) : null;
        const at = this._trunk.map((b) => path.indexOf(setup.joint[b]));
        const inOrder = this._path !== null && at.every((k, i) => (i === 0 ? k === 0 : k > at[i - 1]));
        this._trunkPaths = Array.from(at, (k, i) => (inOrder ? Int32Array.from(path.slice(k, i + 1 < at.length ? at[i + 1] + 1 : path.length)) : null));
        const neckAt = this._neck >= 0 && this._path ? path.indexOf(setup.joint[this._neck]) : -1;
        this._neckPath = neckAt >= 0 ? Int32Array.from(path.slice(neckAt)) : null;
    }

    /** Brings the joints the next turn reads up to date after a trunk or neck turn (`part` of {@link _path}, null: all of it). */
    private _updatePath(pose: IRigPose, kinematics: HumanoidPoseKinematics, part: Int32Array | null): void {
        if (part) kinematics.updateJoints(pose, part);
        else if (this._path) kinematics.updateJoints(pose, this._path);
        else kinematics.update(pose);
    }

    /** Brings every joint up to date after the turns: those below the path's first joint (the rest did not move), or all. */
    private _updateTurned(pose: IRigPose, kinematics: HumanoidPoseKinematics): void {
        if (this._path) kinematics.updateBelow(pose, this._path[0]);
        else kinematics.update(pose);
    }

    /** Whether the look-at does anything (weight above 0). */
    public get active(): boolean {
        return this.weight > 0;
    }

    /** Sets the weights as Unity's `SetLookAtWeight` (each clamped to 0..1). */
    public setWeights(weight: number, bodyWeight = 0, headWeight = 1, eyesWeight = 0, clampWeight = 0.5): void {
        const c = (x: number): number => (x > 0 ? (x < 1 ? x : 1) : 0);
        this.weight = c(weight);
        this.bodyWeight = c(bodyWeight);
        this.headWeight = c(headWeight);
        this.eyesWeight = c(eyesWeight);
        this.clampWeight = c(clampWeight);
    }

    /** Forgets the smoothing (after a jump in time or place): the next solve looks straight at the point. */
    public reset(): void {
        this._fresh = true;
    }

    /**
     * Turns the trunk, neck and head of `pose` toward the point (see the class). `kinematics` must
     * hold the pose's forward kinematics; it is brought up to date.
     * @param step `step[0]`: seconds since the last solve (0 or less: no smoothing this frame)
     */
    public solveBody(pose: IRigPose, kinematics: HumanoidPoseKinematics, step: Float64Array): void {
        this.bodyTurned = false;
        const setup = this._setup;
        const head = setup.joint[this._head];
        if (!(this.weight > 0) || head < 0) return;
        const world = kinematics.world;
        const pos = kinematics.positions;
        // The head's frame as the clip left it: canonical axes -> rig space.
        const frame = this._frame;
        QuaternionMultiplyToRef(world[head], setup.tposeCanonicalInverseC0[this._head], frame);
        // From between the eyes (or the head joint).
        const o = this._origin;
        if (this._eyes.length === 2) {
            const l = pos[setup.joint[this._eyes[0]]];
            const r = pos[setup.joint[this._eyes[1]]];
            o.x = (l.x + r.x) * 0.5;
            o.y = (l.y + r.y) * 0.5;
            o.z = (l.z + r.z) * 0.5;
        } else {
            o.copyFrom(pos[head]);
        }
        // Target in the head's frame.
        Vector3TransformAffineToRef(this.position, this.goalSpaceToRig, va);
        va.x -= o.x;
        va.y -= o.y;
        va.z -= o.z;
        const distance = Math.sqrt(va.x * va.x + va.y * va.y + va.z * va.z);
        QuaternionConjugateToRef(frame, qa);
        va.applyRotationQuaternionInPlace(qa);
        this._num[4] = distance;
        this._clampedAngles();
        this._smooth(step);
        const yaw = this.angles[0];
        const pitch = this.angles[1];
        // The smoothed aim point (for the eyes): the origin plus the distance along the look direction.
        const cp = Math.cos(pitch);
        vb.x = Math.sin(yaw) * cp;
        vb.y = Math.sin(pitch);
        vb.z = Math.cos(yaw) * cp;
        vb.applyRotationQuaternionInPlace(frame);
        const d = distance > 1e-6 ? distance : 1;
        this._aim.x = o.x + vb.x * d;
        this._aim.y = o.y + vb.y * d;
        this._aim.z = o.z + vb.z * d;
        // The head's axes (rig space).
        this._up.x = 0;
        this._up.y = 1;
        this._up.z = 0;
        this._up.applyRotationQuaternionInPlace(frame);
        this._right.x = 1;
        this._right.y = 0;
        this._right.z = 0;
        this._right.applyRotationQuaternionInPlace(frame);
        // Weights as used: clamped to 0..1, NaN as 0 (the fields may be written directly).
        const w = this.weight > 0 ? (this.weight < 1 ? this.weight : 1) : 0;
        const b = (this.bodyWeight > 0 ? (this.bodyWeight < 1 ? this.bodyWeight : 1) : 0) * LOOK_AT_BODY_SHARE;
        const n = this._trunk.length;
        const num = this._num;
        if (b > 0 && n > 0) {
            num[0] = (yaw * w * b) / n;
            num[1] = (pitch * w * b) / n;
            // The same turn for each (the head's axes do not move as the trunk turns: they are the clip's).
            this._trunkTurnOf();
            for (let i = 0; i < n; i++) {
                this._turnBone(this._trunk[i], pose, kinematics);
                this._updatePath(pose, kinematics, this._trunkPaths[i]);
            }
            this.bodyTurned = true;
        }
        // The head faces its share of the turn: F = frame * Ry(Y) * Rx(P), in world axes.
        const share = w * (b + (1 - b) * (this.headWeight > 0 ? (this.headWeight < 1 ? this.headWeight : 1) : 0));
        if (!(share > 0)) {
            if (this.bodyTurned) this._updateTurned(pose, kinematics);
            return;
        }
        const Y = yaw * share;
        const P = pitch * share;
        // Ry(Y) * Rx(-P) in canonical axes (pitch up turns forward toward +Y: about -X).
        const sy = Math.sin(Y * 0.5);
        const cy = Math.cos(Y * 0.5);
        const sx = Math.sin(-P * 0.5);
        const cx = Math.cos(-P * 0.5);
        qb.x = cy * sx;
        qb.y = sy * cx;
        qb.z = -sy * sx;
        qb.w = cy * cx;
        // Target head world: frame * q * (W0^-1 c0)^-1
        const target = this._headTarget;
        QuaternionMultiplyToRef(frame, qb, target);
        QuaternionConjugateToRef(setup.tposeCanonicalInverseC0[this._head], qa);
        QuaternionMultiplyToRef(target, qa, target);
        const parent = setup.rigParent;
        const neck = this._neck >= 0 ? setup.joint[this._neck] : -1;
        if (neck >= 0) {
            // Half of what is left (target * current^-1) on the neck, in world axes.
            QuaternionConjugateToRef(world[head], qa);
            QuaternionMultiplyToRef(target, qa, qa);
            if (qa.w < 0) {
                qa.x = -qa.x;
                qa.y = -qa.y;
                qa.z = -qa.z;
                qa.w = -qa.w;
            }
            // sqrt of a unit quaternion: normalize(q + 1)
            qa.w += 1;
            QuaternionNormalizeInPlace(qa);
            QuaternionMultiplyToRef(qa, world[neck], qb);
            this._setWorld(neck, qb, pose, kinematics);
            this._updatePath(pose, kinematics, this._neckPath);
        }
        // The head: exactly its target.
        QuaternionConjugateToRef(world[parent[head]], qa);
        QuaternionMultiplyToRef(qa, target, pose.rotations[head]);
        this._limit(this._head, pose.rotations[head]);
        this._updateTurned(pose, kinematics);
    }

    /**
     * Turns the eyes toward the smoothed point through their muscles, within their ranges, blended
     * from the clip's by `weight * eyesWeight`. Run after {@link solveBody} (and anything that moves
     * the head); `kinematics` must hold the pose's forward kinematics.
     */
    public solveEyes(pose: IRigPose, kinematics: HumanoidPoseKinematics): void {
        const w = this.weight;
        const e = this.eyesWeight;
        const amount = (w > 0 ? (w < 1 ? w : 1) : 0) * (e > 0 ? (e < 1 ? e : 1) : 0);
        if (!(amount > 0) || this._eyes.length === 0) return;
        const setup = this._setup;
        const head = setup.joint[this._head];
        if (head < 0) return;
        const world = kinematics.world;
        const pos = kinematics.positions;
        const num = this._num;
        num[0] = amount > 1 ? 1 : amount;
        // Dc of the head now: c0^-1 * W_head * W0^-1 * c0
        QuaternionMultiplyToRef(setup.c0Inverse, world[head], qc);
        QuaternionMultiplyToRef(qc, setup.tposeCanonicalInverseC0[this._head], qc);
        for (let k = 0; k < this._eyes.length; k++) {
            const bone = this._eyes[k];
            const j = setup.joint[bone];
            // The direction to the point, in the head's canonical frame.
            va.x = this._aim.x - pos[j].x;
            va.y = this._aim.y - pos[j].y;
            va.z = this._aim.z - pos[j].z;
            va.applyRotationQuaternionInPlace(setup.c0Inverse);
            QuaternionConjugateToRef(qc, qa);
            va.applyRotationQuaternionInPlace(qa);
            const l = Math.sqrt(va.x * va.x + va.y * va.y + va.z * va.z);
            if (!(l > 1e-9)) continue;
            // The rotation vector taking forward (the eye's twist axis) onto it: theta * (F x d) / |F x d|.
            const t = setup.twistAxis[bone];
            const cxv = t.y * va.z - t.z * va.y;
            const cyv = t.z * va.x - t.x * va.z;
            const czv = t.x * va.y - t.y * va.x;
            const s = Math.sqrt(cxv * cxv + cyv * cyv + czv * czv);
            const theta = Math.atan2(s, t.x * va.x + t.y * va.y + t.z * va.z);
            const k2 = s > 1e-12 ? theta / s : 0;
            // Its parts along the two muscle axes, each clamped to its muscle's range.
            const ay = setup.axisY[bone];
            const az = setup.axisZ[bone];
            let y = (cxv * ay.x + cyv * ay.y + czv * ay.z) * k2;
            let z = (cxv * az.x + cyv * az.y + czv * az.z) * k2;
            const my = BoneMuscles[bone][1];
            const mz = BoneMuscles[bone][2];
            const yLo = (setup.minDeg[my] * Math.PI) / 180;
            const yHi = (setup.maxDeg[my] * Math.PI) / 180;
            const zLo = (setup.minDeg[mz] * Math.PI) / 180;
            const zHi = (setup.maxDeg[mz] * Math.PI) / 180;
            y = y < yLo ? yLo : y > yHi ? yHi : y;
            z = z < zLo ? zLo : z > zHi ? zHi : z;
            // q = exp(y * axisY + z * axisZ) (canonical, relative to the head), as decoding builds it.
            const rx = ay.x * y + az.x * z;
            const ry = ay.y * y + az.y * z;
            const rz = ay.z * y + az.z * z;
            const angle = Math.sqrt(rx * rx + ry * ry + rz * rz);
            const ks = angle > 1e-12 ? Math.sin(angle * 0.5) / angle : 0.5;
            qb.x = rx * ks;
            qb.y = ry * ks;
            qb.z = rz * ks;
            qb.w = Math.cos(angle * 0.5);
            // W_eye = c0 * (Dc_head * q) * (c0^-1 * W0); local = W_parent^-1 * W_eye
            QuaternionMultiplyToRef(qc, qb, qa);
            QuaternionMultiplyToRef(setup.c0, qa, qa);
            QuaternionMultiplyToRef(qa, setup.tposeCanonical[bone], qa);
            QuaternionConjugateToRef(world[setup.rigParent[j]], qb);
            QuaternionMultiplyToRef(qb, qa, qa);
            QuaternionSlerpToRef(pose.rotations[j], qa, num, 0, pose.rotations[j]);
        }
    }

    /**
     * The look direction `va` (head frame, canonical axes) as yaw and pitch, clamped to
     * `(1 - clampWeight) * pi` from forward, into `_num[2]`, `_num[3]` (`_num[4]`: its length;
     * the limit into `_num[5]`, for `_smooth`).
     */
    private _clampedAngles(): void {
        const num = this._num;
        const distance = num[4];
        const limit = (1 - (this.clampWeight > 0 ? (this.clampWeight < 1 ? this.clampWeight : 1) : 0)) * Math.PI;
        num[5] = limit;
        if (!(distance > 1e-9)) {
            num[2] = 0;
            num[3] = 0;
            return;
        }
        const x = va.x / distance;
        const y = va.y / distance;
        const z = va.z / distance;
        const angle = Math.acos(z < 1 ? (z > -1 ? z : -1) : 1);
        let dx = x;
        let dy = y;
        let dz = z;
        // A clamped look (limit below half a turn) turns forward toward the direction by the limit
        // at most (about F x d; straight behind: about up), and within BEHIND_BAND of straight
        // behind, where that way round turns through every direction as the target crosses, by
        // less, down to none straight behind (smoothstep): the head comes round through the front
        // rather than flipping to the clamp's other side in one frame (and back, for a target held
        // there). Unclamped (clampWeight 0), the direction as it is (see `_smooth`).
        const behind = (Math.PI - angle) / BEHIND_BAND;
        if (angle > limit || (limit < Math.PI && behind < 1)) {
            const s = Math.sqrt(x * x + y * y);
            const ux = s > 1e-9 ? x / s : 1;
            const uy = s > 1e-9 ? y / s : 0;
            let turn = angle < limit ? angle : limit;
            if (behind < 1) turn *= behind > 0 ? behind * behind * (3 - 2 * behind) : 0;
            dx = ux * Math.sin(turn);
            dy = uy * Math.sin(turn);
            dz = Math.cos(turn);
        }
        num[2] = Math.atan2(dx, dz);
        num[3] = Math.atan2(dy, Math.sqrt(dx * dx + dz * dz));
    }

    /** Yaw and pitch (`_num[2]`, `_num[3]`) through the critically damped spring into {@link angles}. */
    private _smooth(step: Float64Array): void {
        const s = this._spring;
        const num = this._num;
        const dt = step[0];
        const time = this.smoothTime;
        // The target's yaw taken the way the head already turns, up to the band past straight
        // behind (atan2 jumps from +pi to -pi there: the spring swept the head back through the
        // front to a direction a degree away); further round, the other way.
        if (!this._fresh && Number.isFinite(s[0])) {
            let t = num[2];
            if (t - s[0] > Math.PI) t -= TWO_PI;
            else if (s[0] - t > Math.PI) t += TWO_PI;
            const reach = num[5] + BEHIND_BAND;
            if (t <= reach && t >= -reach) num[2] = t;
        }
        if (this._fresh || !(time > 0) || !(dt > 0 && dt < Infinity) || !Number.isFinite(s[0] + s[1] + s[2] + s[3])) {
            s[0] = num[2];
            s[1] = num[3];
            s[2] = 0;
            s[3] = 0;
            this._fresh = false;
        } else {
            // x'' = -2 w x' - w^2 (x - target), exact over dt for a target held constant.
            const p = this._springStep;
            p[0] = 2 / time;
            p[1] = dt;
            CriticallyDampedStepInPlace(s, 0, 2, num, 2, 2, p);
        }
        this.angles[0] = s[0];
        this.angles[1] = s[1];
    }

    /** The turn every trunk bone takes, in world axes, into {@link _trunkTurn}: yaw `_num[0]` about the head's up and pitch `_num[1]` about its right. */
    private _trunkTurnOf(): void {
        const num = this._num;
        const u = this._up;
        const r = this._right;
        // R = Rot(up, yaw) * Rot(right, -pitch)
        let s = Math.sin(num[0] * 0.5);
        qa.x = u.x * s;
        qa.y = u.y * s;
        qa.z = u.z * s;
        qa.w = Math.cos(num[0] * 0.5);
        s = Math.sin(-num[1] * 0.5);
        qb.x = r.x * s;
        qb.y = r.y * s;
        qb.z = r.z * s;
        qb.w = Math.cos(-num[1] * 0.5);
        QuaternionMultiplyToRef(qa, qb, this._trunkTurn);
    }

    /** Turns a trunk bone in world axes by {@link _trunkTurn}. */
    private _turnBone(bone: number, pose: IRigPose, kinematics: HumanoidPoseKinematics): void {
        const j = this._setup.joint[bone];
        QuaternionMultiplyToRef(this._trunkTurn, kinematics.world[j], qb);
        this._setWorld(j, qb, pose, kinematics);
    }

    /** Sets joint `j`'s local rotation so its world rotation is `w` (its parent's from `kinematics`), within {@link clamp}. */
    private _setWorld(j: number, w: Quaternion, pose: IRigPose, kinematics: HumanoidPoseKinematics): void {
        const p = this._setup.rigParent[j];
        const local = pose.rotations[j];
        if (p >= 0) {
            QuaternionConjugateToRef(kinematics.world[p], this._tmp);
            QuaternionMultiplyToRef(this._tmp, w, local);
        } else {
            local.copyFrom(w);
        }
        QuaternionNormalizeInPlace(local);
        this._limit(this._setup.boneOfJoint[j], local);
    }

    /** Applies {@link clamp} to a bone's local rotation in place. */
    private _limit(bone: number, local: Quaternion): void {
        const clamp = this.clamp;
        if (clamp && bone >= 0 && clamp.clampLocalToRef(bone, local, this._tmp)) local.copyFrom(this._tmp);
    }
}
