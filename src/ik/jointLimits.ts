import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { JointLimitBoneMask, type JointLimitBoneSet } from "../humanoid/jointLimitSettings.js";
import type { IRigPose } from "../humanoid/rig.js";
import { QuaternionFromUnitVectorsToRef, QuaternionMultiplyToRef, QuaternionToSideOfInPlace } from "../math/hotMath.js";
import type { SphericalPolygon } from "../math/sphericalPolygon.js";
import { SwingTwistDecomposeToRef } from "../math/swingTwist.js";
import type { ICanonicalRotationLimiter } from "../muscle/decodeLimits.js";
import { MuscleSetup } from "../muscle/setup.js";
import { JointLimitShapes } from "./jointLimitShapes.js";
import { BONE_STRIDE, JointLimitTables, SOFT_LIMIT_KNEE, TWIST_EPSILON, TWO_PI } from "./jointLimitTables.js";
import { angleSlots, BoneDirectionToRef, NearerEndOfTwist, TwistOnRange } from "./jointLimitSwingTwist.js";
import { SoftLimitSwingTwist } from "./softLimit.js";

export { SOFT_LIMIT_KNEE };

/**
 * How far past straight an elbow may go, degrees ({@link JointLimits.overshoot}'s default for both
 * elbows): as many arms do (0 to 10 degrees is within the normal range, more in children), and as
 * mocap often has them. Held exactly at straight, an arm the source straightened past it stopped
 * there within a frame, and its hand jerked: 2.7-3.0 times the source's on a child's catch onto
 * three characters of normal build (1.2-1.3 with this give).
 */
export const ELBOW_OVERSHOOT_DEG = 5;

/**
 * How far past straight a knee may go, degrees ({@link JointLimits.overshoot}'s default for both
 * knees): many knees straighten a few degrees past straight (children's most of all), and mocap
 * has them so. Held exactly at straight, a leg the source swung through straight into a
 * hyperextended knee stopped within a frame, and the feet's IK, aiming the straight leg at the
 * source's ankle, swung its thigh: the knee joint jerked 2.3-3.2 times the source's on three
 * children's takes onto three characters of normal build (1.1-1.9 with this give). The feet's IK
 * carries a knee given past straight through straight when it must bend it (see
 * `SolveTwoBonePositionsToRef`), and the pass after IK keeps it within its give.
 */
export const KNEE_OVERSHOOT_DEG = 5;

/** {@link JointLimits.changed} marks a bone the limits turned by more than 0.01 degrees: `1 - cos(angle / 2)` above this. */
const CHANGED_EPSILON = 1 - Math.cos((0.01 * Math.PI) / 180 / 2);
/**
 * A rotation this close (per quaternion component, either sign) to the last rotation a bone's clamp
 * returned is taken as inside without a test: the clamp's result read back through a rig pose
 * (decode's limited bone, a bone clamped before) comes back ~1e-16 off, far within the tests'
 * tolerances (1e-9), so testing it again would leave it as it is.
 */
const KNOWN_INSIDE_EPSILON = 1e-13;
/** A clamp's result is remembered as inside only while its twist is defined well (`p^2 + w^2`, see {@link JointLimits.clampCanonicalToRef}, above this: a swing under ~170 degrees), where a rotation {@link KNOWN_INSIDE_EPSILON} off has a twist within 1e-11 of its own. */
const KNOWN_INSIDE_MIN_TWIST_LENGTH2 = 0.01;

// Scratch shared by every instance (the per-frame path is single-threaded and nothing here is
// re-entered): per-instance scratch was a few kilobytes more of each animator to bring into the
// cache every frame.
const scratchDir = new Vector3();
const scratchDirOut = new Vector3();
const scratchSwing = new Quaternion();
const scratchTwist = new Quaternion();
const scratchQ = new Quaternion();
const scratchQ2 = new Quaternion();
/** The rotation a limit was asked about, kept before `out` (which may be it) is written: the result goes on its side. */
const scratchSide = new Quaternion();
/** The same for {@link JointLimits.clampLocalToRef}'s local rotation. */
const scratchLocalSide = new Quaternion();
/**
 * How a direction past its polygon is limited (an array: no number crosses a call), radians: [0]
 * above 0, the give `h` (`_pastPolygonInPlace`: `h tanh(e / h)` past); [0] below 0, the give's reach
 * `-h` (a direction within it is kept as it is, one beyond it moved onto it: the pass after IK);
 * 0, the clamp.
 */
const overshootSlot = new Float64Array(1);

/**
 * Joint limits without Euler angles, for one avatar (docs/runtime.md, joint limits). A bone's
 * rotation from its T-pose relative to its parent (`Q_b` of docs/muscles.md, canonical axes) is
 * split into a twist about the bone's twist axis and a swing; the twist is clamped to its range,
 * the bone's direction under the swing to its spherical polygon (the nearest direction inside:
 * projected onto the nearest edge or vertex), and the rotation rebuilt as the shortest swing onto
 * that direction times the clamped twist, so that the bone does not roll about itself (a foot
 * clamped sideways still points where the knee points). Rotations inside are returned unchanged.
 *
 * Which bones are held: {@link enabled}, from the avatar's `jointLimits.bones` (default the knees
 * and elbows) or the set given here. The shapes (ranges and polygons) are the avatar's, made once
 * and shared ({@link JointLimitShapes}). Every clamp is allocation-free, never throws and never
 * returns NaN for a unit quaternion; not re-entrant (its scratch is shared by every instance, module-level: the per-frame path is single-threaded).
 *
 * Per-frame path, math written out by hand (no number crosses a call, which V8 may box): the
 * per-bone numbers sit side by side in one Float64Array (`BONE_STRIDE`); a direction within
 * its polygon's inner cap (`SphericalPolygon.innerCapCos`) is inside without the polygon's tables;
 * {@link clampLocalToRef} writes out the two products of `QuaternionMultiplyToRef` (the same
 * arithmetic, the same bits). The readable forms are test/ik/jointLimits.test.ts's (Babylon's
 * products, a limiter without memory), test/math/sphericalPolygon.test.ts's `ReferenceClamp` and
 * test/ik/softLimit.test.ts's reference soft limit (the polygon's reach by bisection).
 */
export class JointLimits implements ICanonicalRotationLimiter {
    /** The avatar. */
    public readonly avatar: HumanoidAvatar;
    /** Per human bone, 1 when it is held (writable: set or clear bones at any time). */
    public readonly enabled: Uint8Array;
    /** Per human bone, 1 when the last {@link clampRigPoseInPlace} turned it by more than 0.01 degrees. */
    public readonly changed = new Uint8Array(HUMAN_BONE_COUNT);
    /**
     * Per human bone, how far past its polygon {@link giveCanonicalToRef} lets its direction go
     * (radians; times {@link overshootShare}): a direction outside by an angle `e` goes past the
     * nearest one inside by `h tanh(e / h)`, along the great circle toward where it was asked to
     * point. 0 for none (the clamp's result). The pass after IK ({@link clampLocalToRef}) keeps a
     * direction within `h` past the polygon as it is. Default: both elbows
     * {@link ELBOW_OVERSHOOT_DEG}, both knees {@link KNEE_OVERSHOOT_DEG}, every other bone 0.
     * Writable. The twist is clamped as before.
     */
    public readonly overshoot = new Float64Array(HUMAN_BONE_COUNT);
    /**
     * Per human bone, the share of its {@link overshoot} given this frame, 0 to 1 (default 1). The
     * rig solver lowers the elbows' by their arms' IK weights (an arm's IK gives its elbow the
     * hand's reach; the feet's IK carries a knee past straight through straight when it must bend
     * it, see `SolveTwoBonePositionsToRef`, and the knees keep their share).
     */
    public readonly overshootShare = new Float64Array(HUMAN_BONE_COUNT).fill(1);
    /** The avatar's limit shapes. */
    public readonly shapes: JointLimitShapes;
    private readonly _setup: MuscleSetup;
    // The avatar's tables, shared by every instance (see `JointLimitTables`, fields of the same names).
    private readonly _tables: JointLimitTables;
    private readonly _twist: Float64Array;
    private readonly _bone: Float64Array;
    private readonly _fromCanonical: readonly Quaternion[];
    private readonly _polygon: readonly (SphericalPolygon | null)[];
    /** Per bone: the last rotation its canonical clamp returned (x y z w; NaN for none), inside its limits (see {@link KNOWN_INSIDE_EPSILON}). */
    private readonly _knownInside = new Float64Array(4 * HUMAN_BONE_COUNT).fill(NaN);

    /**
     * @param avatar the avatar
     * @param bones which bones to hold: a set (`"hinges"`: knees and elbows; `"all"`; `"none"`) or
     * bones (names or {@link HumanBone}s). Default: the avatar's `jointLimits.bones`, else `"hinges"`.
     * Throws a {@link HumanoidError} `BAD_OPTION` for an unknown bone or an invalid polygon in the
     * avatar's settings.
     */
    constructor(avatar: HumanoidAvatar, bones?: JointLimitBoneSet | readonly (string | HumanBone)[]) {
        this.avatar = avatar;
        this._setup = MuscleSetup.For(avatar);
        this.shapes = JointLimitShapes.For(avatar);
        this.enabled = JointLimitBoneMask(bones ?? this.shapes.defaultBones, `${avatar.name}: jointLimits bones`);
        // The avatar's tables, shared by every instance (each animator has one): only which bones
        // are held and what each last returned are its own.
        const tables = JointLimitTables.For(avatar, this._setup, this.shapes);
        this._tables = tables;
        this._twist = tables.twist;
        this._bone = tables.bone;
        this._fromCanonical = tables.fromCanonical;
        this._polygon = tables.polygon;
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) if (!this.shapes.bones[b]) this.enabled[b] = 0;
        this.overshoot[HumanBone.LeftLowerArm] = this.overshoot[HumanBone.RightLowerArm] = (ELBOW_OVERSHOOT_DEG * Math.PI) / 180;
        this.overshoot[HumanBone.LeftLowerLeg] = this.overshoot[HumanBone.RightLowerLeg] = (KNEE_OVERSHOOT_DEG * Math.PI) / 180;
    }

    /** Whether any bone is held. */
    public get active(): boolean {
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) if (this.enabled[b] && this._polygon[b]) return true;
        return false;
    }

    /**
     * Clamps a bone's rotation in muscle space: `q` is the bone's rotation from its T-pose relative
     * to its mapped human parent, canonical axes (`Q_b` of docs/muscles.md, what decode builds).
     * Writes the nearest rotation within the bone's limits into `out` (`q` itself, copied, when
     * inside or when the bone is not held) and returns whether it changed. `out` may be `q`.
     * Allocation-free; never throws.
     * @param bone the human bone
     * @param q its rotation (unit quaternion)
     * @param out receives the clamped rotation
     */
    public clampCanonicalToRef(bone: HumanBone, q: Quaternion, out: Quaternion): boolean {
        overshootSlot[0] = 0;
        return this._clampToRef(bone, q, out);
    }

    /**
     * {@link clampCanonicalToRef} with the bone's give past its limits ({@link overshoot} times
     * {@link overshootShare}): a direction outside its polygon by an angle `e` goes past the
     * nearest one inside by `h tanh(e / h)`, so a motion that runs past the limit eases into it (the
     * result's value, speed and acceleration are continuous as it crosses the boundary) and never
     * goes more than `h` past. Not a projection (a result past the polygon, limited again, goes in
     * further): for decode, which builds each bone once a frame; the pass after IK takes decode's
     * result back as it is (the limits remember the last result of each bone, see
     * {@link clampLocalToRef}). Same arguments and result as {@link clampCanonicalToRef}.
     * @param bone the human bone
     * @param q its rotation (unit quaternion)
     * @param out receives the limited rotation
     */
    public giveCanonicalToRef(bone: HumanBone, q: Quaternion, out: Quaternion): boolean {
        overshootSlot[0] = this.overshoot[bone] * this.overshootShare[bone];
        return this._clampToRef(bone, q, out);
    }

    /** The clamp, past the polygon by the give in `overshootSlot[0]` (radians; 0 for none). */
    private _clampToRef(bone: HumanBone, q: Quaternion, out: Quaternion): boolean {
        const polygon = this._polygon[bone];
        if (!this.enabled[bone] || !polygon) {
            if (out !== q) out.copyFrom(q);
            return false;
        }
        const f = this._bone;
        const o = BONE_STRIDE * bone;
        const tx = f[o];
        const ty = f[o + 1];
        const tz = f[o + 2];
        // The twist about t: inside without its angle when its half-angle's sine is within the
        // nearer end's (sin^2(angle / 2) = p^2 / (p^2 + w^2), p = v . t, either sign of q).
        const qx = q.x;
        const qy = q.y;
        const qz = q.z;
        const qw = q.w;
        const p = qx * tx + qy * ty + qz * tz;
        const twistInside = p * p <= f[o + 3] * (p * p + qw * qw);
        const d = scratchDir;
        BoneDirectionToRef(q, this._setup.twistAxis[bone], d);
        // Within the polygon's inner cap: inside, without its tables (most poses, most bones).
        const inCap = d.x * f[o + 4] + d.y * f[o + 5] + d.z * f[o + 6] >= f[o + 7];
        let twist = 0;
        let twistMoved = false;
        if (!twistInside) {
            // Twist angle about t; none for a half-turn swing.
            SwingTwistDecomposeToRef(q, this._setup.twistAxis[bone], null, null, angleSlots, 0);
            twist = angleSlots[0];
            // Twist: to the nearer end of its range when outside (a range of a turn or more: free).
            const lo = this._twist[2 * bone] - TWIST_EPSILON;
            const hi = this._twist[2 * bone + 1] + TWIST_EPSILON;
            if (hi - lo < TWO_PI && !TwistOnRange(this._twist, bone)) {
                NearerEndOfTwist(this._twist, bone);
                twist = angleSlots[2];
                twistMoved = true;
            }
        }
        let swingMoved = false;
        if (!inCap) swingMoved = polygon.clampDirectionToRef(d, scratchDirOut);
        if (swingMoved && overshootSlot[0] !== 0) swingMoved = JointLimits._pastPolygonInPlace(d, scratchDirOut, overshootSlot);
        if (!twistMoved && !swingMoved) {
            if (out !== q) out.copyFrom(q);
            this._remember(bone, out);
            return false;
        }
        if (twistInside) {
            SwingTwistDecomposeToRef(q, this._setup.twistAxis[bone], null, null, angleSlots, 0);
            twist = angleSlots[0];
        }
        angleSlots[1] = twist;
        this._rebuildToRef(bone, swingMoved ? scratchDirOut : d, q, out);
        return true;
    }

    /**
     * A clamped direction `out` (unit, the nearest inside to the unit direction `d`, `e` the angle
     * between them) moved on toward `d` past the polygon as `h[0]` says (radians; see
     * `overshootSlot`): above 0 by the give `h tanh(e / h)`; below 0, all the way to `d` where `e`
     * is within the give's reach `-h` (returns false: the swing stays as asked) and by the reach
     * beyond it (`d` projected onto the polygon widened by the reach, which keeps what it returns). The move is
     * `out cos k + u sin k`, `u` the unit direction across `out` toward `d`. Returns whether the
     * swing differs from `d`'s.
     */
    private static _pastPolygonInPlace(d: Vector3, out: Vector3, h: Float64Array): boolean {
        const give = h[0];
        const c = d.x * out.x + d.y * out.y + d.z * out.z;
        if (give < 0 && c >= Math.cos(-give)) return false;
        const ux = d.x - out.x * c;
        const uy = d.y - out.y * c;
        const uz = d.z - out.z * c;
        const s = Math.sqrt(ux * ux + uy * uy + uz * uz);
        if (!(s > 1e-12)) return true;
        const k = give > 0 ? give * Math.tanh(Math.atan2(s, c) / give) : -give;
        const ck = Math.cos(k);
        const sk = Math.sin(k) / s;
        out.x = out.x * ck + ux * sk;
        out.y = out.y * ck + uy * sk;
        out.z = out.z * ck + uz * sk;
        return true;
    }

    /**
     * Rebuilds a limited rotation into `out`: the shortest swing from the bone's twist axis onto
     * `dir`, times the twist `angleSlots[1]` about it, on `q`'s side (no sign flip for a caller that
     * blends); remembered as inside.
     */
    private _rebuildToRef(bone: HumanBone, dir: Vector3, q: Quaternion, out: Quaternion): void {
        scratchSide.copyFrom(q);
        const t = this._setup.twistAxis[bone];
        QuaternionFromUnitVectorsToRef(t, dir, scratchSwing);
        const twist = angleSlots[1];
        const tw = scratchTwist;
        const s = Math.sin(twist / 2);
        tw.x = t.x * s;
        tw.y = t.y * s;
        tw.z = t.z * s;
        tw.w = Math.cos(twist / 2);
        QuaternionMultiplyToRef(scratchSwing, tw, out);
        QuaternionToSideOfInPlace(out, scratchSide);
        this._remember(bone, out);
    }

    /**
     * Limits a bone's rotation softly (same `q` as {@link clampCanonicalToRef}): within the last
     * quarter of the way to a limit ({@link SOFT_LIMIT_KNEE}) the rotation is eased in, so that a
     * motion running into a limit slows down before it instead of stopping on it in one frame (a
     * kink its joints' jerk shows). The twist and the swing each on their own: the twist's share of
     * the way from 0 to the end of its range on its side (on the range's own turn, which may reach
     * past a half turn; past the range, from the side of its nearer end, as the clamp chooses), and
     * the bone direction's share of the way from its polygon's centre to the boundary along the
     * great circle through it (`SphericalPolygon.boundaryAngleTowards`), each eased
     * (`K + (1 - K) tanh((r - K) / (1 - K))` past `K`: at most 1), then the rotation rebuilt as the
     * clamp rebuilds it. Always inside the limits; untouched within the first three quarters of the
     * way; not the nearest rotation inside, so it is for a caller that hands what it takes off on
     * to the bones below (decode's trunk, neck and shoulders), not for a clamp that must change no
     * more than needed. Where there is no way to ease along, it stops as the clamp does: a twist
     * past an end at 0 stops on it, a direction opposite the polygon's centre goes to the nearest
     * direction inside; a free twist range (a turn or more) is left as it is. Writes `out` (may be
     * `q`); returns whether it changed. Allocation-free; never throws.
     * @param bone the human bone
     * @param q its rotation (unit quaternion)
     * @param out receives the limited rotation
     */
    public softLimitCanonicalToRef(bone: HumanBone, q: Quaternion, out: Quaternion): boolean {
        const polygon = this._polygon[bone];
        if (!this.enabled[bone] || !polygon) {
            if (out !== q) out.copyFrom(q);
            return false;
        }
        // The eased direction and twist (`angleSlots[1]`), or null when nothing needs easing.
        const dir = SoftLimitSwingTwist(this._tables, polygon, bone, this._setup.twistAxis[bone], q);
        if (!dir) {
            if (out !== q) out.copyFrom(q);
            return false;
        }
        this._rebuildToRef(bone, dir, q, out);
        return true;
    }

    /** Remembers a clamp's result as the bone's known inside rotation (when its twist is well defined). */
    private _remember(bone: HumanBone, r: Quaternion): void {
        const k = this._knownInside;
        const o = 4 * bone;
        const f = this._bone;
        const b = BONE_STRIDE * bone;
        const x = r.x;
        const y = r.y;
        const z = r.z;
        const w = r.w;
        const p = x * f[b] + y * f[b + 1] + z * f[b + 2];
        if (p * p + w * w > KNOWN_INSIDE_MIN_TWIST_LENGTH2) {
            k[o] = x;
            k[o + 1] = y;
            k[o + 2] = z;
            k[o + 3] = w;
        } else k[o] = NaN;
    }

    /**
     * Clamps a bone's rig-space local rotation (its joint's rotation relative to its rig parent, as
     * `IRigPose.rotations[avatar.getJoint(bone)]`): the call a chain IK solver makes inside every
     * iteration. Measured from the joint's T-pose local rotation `L0` in the bone's canonical axes
     * (`Q = K (L0^-1 L) K^-1`, `K = c0^-1 W0`: exactly the muscle-space `Q_b` while the joints
     * between the bone and its human parent keep their T-pose), clamped by
     * {@link clampCanonicalToRef}, and turned back (`L' = L0 K^-1 Q' K`). A bone with a give
     * ({@link overshoot} times {@link overshootShare}, `h`) counts as inside within `h` past its
     * polygon, and one further past is moved to `h` past (the polygon widened by `h`, which keeps
     * the give's results: an elbow or knee past straight stays as decode gave it or the IK carried
     * it). Writes `local` itself
     * (copied) when inside, when the bone is not held or not mapped; returns whether it changed.
     * `out` may be `local`. Allocation-free; never throws.
     * @param bone the human bone
     * @param local its joint's local rotation (unit quaternion, rig space)
     * @param out receives the clamped local rotation
     */
    public clampLocalToRef(bone: HumanBone, local: Quaternion, out: Quaternion): boolean {
        const joint = this._setup.joint[bone];
        if (joint < 0 || !this.enabled[bone] || !this._polygon[bone]) {
            if (out !== local) out.copyFrom(local);
            return false;
        }
        // Q = K * (L0^-1 * L) * K^-1 = A * L * K^-1, A = K * L0^-1 (made once): the two products of
        // `QuaternionMultiplyToRef` written out on the bone's numbers (the same arithmetic).
        const f = this._bone;
        const b = BONE_STRIDE * bone;
        let ax = f[b + 8];
        let ay = f[b + 9];
        let az = f[b + 10];
        let aw = f[b + 11];
        let bx = local.x;
        let by = local.y;
        let bz = local.z;
        let bw = local.w;
        const x1 = ax * bw + ay * bz - az * by + aw * bx;
        const y1 = -ax * bz + ay * bw + az * bx + aw * by;
        const z1 = ax * by - ay * bx + az * bw + aw * bz;
        const w1 = -ax * bx - ay * by - az * bz + aw * bw;
        ax = x1;
        ay = y1;
        az = z1;
        aw = w1;
        bx = f[b + 12];
        by = f[b + 13];
        bz = f[b + 14];
        bw = f[b + 15];
        const x = ax * bw + ay * bz - az * by + aw * bx;
        const y = -ax * bz + ay * bw + az * bx + aw * by;
        const z = ax * by - ay * bx + az * bw + aw * bz;
        const w = -ax * bx - ay * by - az * bz + aw * bw;
        // What the clamp returned last for this bone (decode's limited rotation, read back): inside
        // (within KNOWN_INSIDE_EPSILON per component, either sign; a NaN remembered: never).
        const k = this._knownInside;
        const o = 4 * bone;
        const e = KNOWN_INSIDE_EPSILON;
        const kx = k[o];
        const ky = k[o + 1];
        const kz = k[o + 2];
        const kw = k[o + 3];
        let ex = x - kx;
        let ey = y - ky;
        let ez = z - kz;
        let ew = w - kw;
        let known = ex <= e && ex >= -e && ey <= e && ey >= -e && ez <= e && ez >= -e && ew <= e && ew >= -e;
        if (!known) {
            ex = x + kx;
            ey = y + ky;
            ez = z + kz;
            ew = w + kw;
            known = ex <= e && ex >= -e && ey <= e && ey >= -e && ez <= e && ez >= -e && ew <= e && ew >= -e;
        }
        if (known) {
            if (out !== local) out.copyFrom(local);
            return false;
        }
        const q = scratchQ;
        q.x = x;
        q.y = y;
        q.z = z;
        q.w = w;
        // Within the bone's give past its polygon (an elbow or knee past straight, as decode gave
        // it or the IK carried it) it stays; beyond, it is moved onto the give's reach.
        overshootSlot[0] = -this.overshoot[bone] * this.overshootShare[bone];
        if (!this._clampToRef(bone, q, q)) {
            if (out !== local) out.copyFrom(local);
            return false;
        }
        // L' = L0 * K^-1 * Q' * K = A^-1 * Q' * K
        QuaternionMultiplyToRef(q, this._setup.tposeCanonical[bone], q);
        scratchLocalSide.copyFrom(local);
        QuaternionMultiplyToRef(this._fromCanonical[bone], q, out);
        QuaternionToSideOfInPlace(out, scratchLocalSide);
        return true;
    }

    /**
     * Clamps every held bone of a rig pose in place ({@link clampLocalToRef} on each joint's local
     * rotation, from the hips down): the pass after IK. Returns whether any bone changed; which,
     * {@link changed} says.
     * Allocation-free; never throws.
     */
    public clampRigPoseInPlace(pose: IRigPose): boolean {
        const joint = this._setup.joint;
        const rotations = pose.rotations;
        const changed = this.changed;
        let any = false;
        for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
            changed[b] = 0;
            const j = joint[b];
            if (j < 0 || !this.enabled[b]) continue;
            const r = rotations[j];
            const x = r.x;
            const y = r.y;
            const z = r.z;
            const w = r.w;
            if (this.clampLocalToRef(b, r, r)) {
                any = true;
                // Marked changed only past a hundredth of a degree (1 - |cos(angle / 2)|).
                const dot = x * r.x + y * r.y + z * r.z + w * r.w;
                if (1 - (dot < 0 ? -dot : dot) > CHANGED_EPSILON) changed[b] = 1;
            }
        }
        return any;
    }

    /** Whether a bone's canonical rotation (as {@link clampCanonicalToRef}) is within its limits, whether the bone is held or not (true for a bone without limits). Allocation-free, not re-entrant. */
    public isCanonicalInside(bone: HumanBone, q: Quaternion): boolean {
        const enabled = this.enabled[bone];
        this.enabled[bone] = 1;
        const moved = this.clampCanonicalToRef(bone, q, scratchQ2);
        this.enabled[bone] = enabled;
        return !moved;
    }
}
