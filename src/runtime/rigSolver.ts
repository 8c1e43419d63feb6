import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { HumanoidLimbIK, type ILimbIKStatus } from "../ik/limbIK.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../muscle/decode.js";
import { HUMAN_IK_GOAL_COUNT, HumanIKGoal, type HumanPose } from "../muscle/humanPose.js";
import { MuscleSetup } from "../muscle/setup.js";
import { GOAL_BONES } from "../muscle/encode.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef, Vector3CopyToRef, Vector3LerpToRef } from "../math/hotMath.js";

/** Default squash-and-stretch of every limb: 5% of its length, as Mecanim's arm and leg stretch. */
export const DEFAULT_LIMB_STRETCH = 0.05;

/** The body is never lowered by more than this share of the leg's length for the feet. */
const MAX_BODY_DROP = 0.3;
/** How fast the body drop follows what the feet need (critically damped spring, hertz). */
const BODY_DROP_HZ = 3;
/** The body drop lags what the feet need by at most this share of the legs' stretch. */
const BODY_DROP_LAG = 0.6;

const tmpV = new Vector3();
const tmpQ = new Quaternion();

/**
 * Turns {@link HumanPose}s into rig poses of one avatar, with limb IK: decode the muscles and the
 * body, then move feet and hands to the pose's IK goals (scaled to the avatar) with two-bone IK and
 * squash-and-stretch. The core of the runtime, without any scene: the plugin writes its
 * {@link pose} onto nodes. Allocation-free after construction.
 *
 * Per solve: {@link decode} (the pose's goals land in {@link goalPositions} and {@link goalRotations},
 * canonical frame, avatar scales, where a caller may change them, for example to plant a foot),
 * then {@link solveIK}.
 */
export class HumanoidRigSolver {
    /** The avatar solved for. */
    public readonly avatar: HumanoidAvatar;
    /** The result: local rotation and position of every rig joint (rig space). */
    public readonly pose: IRigPose;
    /** IK goal positions of the last decode: canonical frame, avatar scales (as `HumanPose`, but absolute, not body-relative). Writable before {@link solveIK}. */
    public readonly goalPositions: Vector3[] = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    /** IK goal rotations of the last decode: each end's rotation relative to its T-pose, canonical frame. Writable before {@link solveIK}. */
    public readonly goalRotations: Quaternion[] = [Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity()];
    /** Position weight of each goal, 0 to 1 ({@link HumanIKGoal} order). Default: feet 1, hands 0. */
    public readonly positionWeights = new Float32Array([1, 1, 0, 0]);
    /** Rotation weight of each goal, 0 to 1. Default: feet 1, hands 0. */
    public readonly rotationWeights = new Float32Array([1, 1, 0, 0]);
    /** The most each limb may lengthen, share of its length (0 disables). Default {@link DEFAULT_LIMB_STRETCH}. */
    public readonly stretch = new Float32Array([DEFAULT_LIMB_STRETCH, DEFAULT_LIMB_STRETCH, DEFAULT_LIMB_STRETCH, DEFAULT_LIMB_STRETCH]);
    /** Where the last {@link solveIK} aimed each limb's end (rig space, metres, after the weights; unchanged for limbs with weight 0). */
    public readonly targets: Vector3[] = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    /** What the last {@link solveIK} did per limb (stretch factor, distance left, out of reach). */
    public readonly status: ILimbIKStatus[] = [0, 1, 2, 3].map(() => ({ stretch: 1, error: 0, unreachable: false }));
    /** World rotations (rig space) of the joints IK needs, after the last solve's forward kinematics (before IK). */
    public readonly world: Quaternion[];
    /** World positions (rig space) of the joints IK needs, before IK. */
    public readonly positions: Vector3[];
    /** The limb solver. */
    public readonly ik: HumanoidLimbIK;
    /**
     * How far the last solve lowered the body (metres, rig space) so the feet could reach goals
     * beyond the legs' length (a character whose legs are short for its height); hand goals move
     * down with the body. 0 when the feet reach on their own.
     */
    public bodyDrop = 0;
    /** Whether the body may be lowered for the feet (see {@link bodyDrop}). Default true. */
    public lowerBodyForFeet = true;
    private _dropX = 0;
    private _dropV = 0;
    private _dropFresh = true;
    private readonly _step = new Float64Array(1);
    private readonly _setup: MuscleSetup;
    private readonly _target = new Vector3();
    private readonly _targetRot = new Quaternion();
    private readonly _up: Vector3;
    /** Numbers handed to the limb solver and the lerps: position weight, rotation weight, stretch. */
    private readonly _weights = new Float64Array(3);

    /** @param avatar the avatar to solve for */
    constructor(avatar: HumanoidAvatar) {
        this.avatar = avatar;
        this._setup = MuscleSetup.For(avatar);
        this.pose = CreateReferenceRigPose(avatar);
        this.ik = new HumanoidLimbIK(avatar);
        const n = avatar.rig.joints.length;
        this.world = Array.from({ length: n }, () => Quaternion.Identity());
        this.positions = Array.from({ length: n }, () => new Vector3());
        this._up = avatar.frame.up.clone();
    }

    /**
     * Decodes a pose into {@link pose} (limbs at rest length) and its IK goals into
     * {@link goalPositions} and {@link goalRotations}.
     */
    public decode(human: HumanPose): void {
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) this.ik.resetLengths(g, this.pose.positions);
        DecodeHumanPose(this.avatar, human, this.pose);
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            human.goalPositions[g].applyRotationQuaternionToRef(human.bodyRotation, this.goalPositions[g]).addInPlace(human.bodyPosition);
            QuaternionMultiplyToRef(human.bodyRotation, human.goalRotations[g], this.goalRotations[g]);
        }
    }

    /** Forgets the body drop's motion (after a jump in time or place), so the next solve starts from what it needs. */
    public resetSmoothing(): void {
        this._dropFresh = true;
    }

    /**
     * Moves the limbs whose weights are above 0 to their goals. Call after {@link decode}.
     * @param deltaSeconds time since the last solve, for the body drop's smoothing (0: no smoothing)
     * @param step if given, the time step is read from `step[0]` instead (the player's `step`)
     * @returns the pose ({@link pose})
     */
    public solveIK(deltaSeconds = 0, step?: Float64Array): IRigPose {
        // The step goes on in an array (the player's, or ours), so no number is boxed on the way.
        if (!step) {
            this._step[0] = deltaSeconds;
            step = this._step;
        }
        const pw = this.positionWeights;
        const rw = this.rotationWeights;
        if (!(pw[0] > 0 || pw[1] > 0 || pw[2] > 0 || pw[3] > 0 || rw[0] > 0 || rw[1] > 0 || rw[2] > 0 || rw[3] > 0)) return this.pose;
        const setup = this._setup;
        // Forward kinematics of the limbs and their ancestors.
        const fk = this.ik.fkJoints;
        const parent = setup.rigParent;
        const world = this.world;
        const pos = this.positions;
        const rot = this.pose.rotations;
        const lp = this.pose.positions;
        for (let k = 0; k < fk.length; k++) {
            const j = fk[k];
            const p = parent[j];
            if (p < 0) {
                world[j].copyFrom(rot[j]);
                Vector3CopyToRef(lp[j], pos[j]);
            } else {
                QuaternionMultiplyToRef(world[p], rot[j], world[j]);
                lp[j].multiplyToRef(setup.worldScale[p], tmpV);
                tmpV.applyRotationQuaternionToRef(world[p], tmpV);
                pos[p].addToRef(tmpV, pos[j]);
            }
        }
        if (this.lowerBodyForFeet) this._lowerBody(step);
        else this.bodyDrop = 0;
        // Numbers go to the limb solver in an array (see `hotMath`).
        const weights = this._weights;
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            const wp = pw[g] > 0 ? (pw[g] < 1 ? pw[g] : 1) : 0;
            const wr = rw[g] > 0 ? (rw[g] < 1 ? rw[g] : 1) : 0;
            if (wp === 0 && wr === 0) {
                const s = this.status[g];
                s.stretch = 1;
                s.error = 0;
                s.unreachable = false;
                continue;
            }
            this.goalToRig(g, this._target, this._targetRot);
            // Hand goals are the body's: they go down with it.
            const drop = this.bodyDrop;
            if (g >= HumanIKGoal.LeftHand && drop > 0) {
                const up = this._up;
                const target = this._target;
                target.x -= up.x * drop;
                target.y -= up.y * drop;
                target.z -= up.z * drop;
            }
            weights[0] = wp;
            weights[1] = wr;
            weights[2] = this.stretch[g] > 0 ? this.stretch[g] : 0;
            this.ik.solveWeighted(g, world, pos, rot, lp, this._target, this._targetRot, weights, this.status[g]);
            Vector3LerpToRef(pos[this.ik.endJoint(g)], this._target, weights, 0, this.targets[g]);
        }
        return this.pose;
    }

    /**
     * Lowers the hips (and everything below them) so that each weighted foot goal is within its
     * leg's length. The drop follows what the feet need through a critically damped spring (so the
     * body moves smoothly as one foot or the other sets it), but never lags by more than the legs
     * can stretch. Sets {@link bodyDrop} (metres).
     */
    private _lowerBody(step: Float64Array): void {
        const deltaSeconds = step[0];
        const up = this._up;
        const pos = this.positions;
        const weights = this._weights;
        let drop = 0;
        for (let g = 0; g < 2; g++) {
            const w = this.positionWeights[g];
            if (!(w > 0)) continue;
            const upper = this.ik.upperJoint(g);
            const end = this.ik.endJoint(g);
            this.goalToRig(g, this._target, this._targetRot);
            weights[0] = w < 1 ? w : 1;
            Vector3LerpToRef(pos[end], this._target, weights, 0, this._target);
            const v = this._target.subtractInPlace(pos[upper]);
            const along = v.x * up.x + v.y * up.y + v.z * up.z;
            const across2 = v.x * v.x + v.y * v.y + v.z * v.z - along * along;
            const l = this.ik.limbLengths[g];
            // Need |along + drop| <= sqrt(l^2 - across^2); a goal too far sideways gets level with the hip at most.
            const need = -along - (across2 < l * l ? Math.sqrt(l * l - across2) : 0);
            if (need > drop) drop = need;
        }
        const leg = this.ik.limbLengths[0];
        const limit = MAX_BODY_DROP * leg;
        if (drop > limit) drop = limit;
        // Smooth it: x follows the need; it may lag by part of what the stretch can cover.
        if (this._dropFresh || !(deltaSeconds > 0 && deltaSeconds < Infinity) || !Number.isFinite(this._dropX + this._dropV)) {
            this._dropX = drop;
            this._dropV = 0;
            this._dropFresh = false;
        } else {
            const omega = 2 * Math.PI * BODY_DROP_HZ;
            const e = Math.exp(-omega * deltaSeconds);
            const off = this._dropX - drop;
            const m = (this._dropV + omega * off) * deltaSeconds;
            this._dropX = drop + (off + m) * e;
            this._dropV = (this._dropV - omega * m) * e;
            const lag = BODY_DROP_LAG * this.stretch[0] * leg;
            if (this._dropX < drop - lag) this._dropX = drop - lag;
        }
        drop = this._dropX;
        if (!(drop > 0)) {
            this.bodyDrop = 0;
            return;
        }
        this.bodyDrop = drop;
        // Move the hips in their parent's space, and the forward kinematics below them.
        const setup = this._setup;
        const hips = setup.joint[HumanBone.Hips];
        const hp = setup.rigParent[hips];
        tmpV.x = up.x * -drop;
        tmpV.y = up.y * -drop;
        tmpV.z = up.z * -drop;
        const fk = this.ik.fkJoints;
        for (let k = 0; k < fk.length; k++) if (setup.belowHips[fk[k]]) pos[fk[k]].addInPlace(tmpV);
        if (hp >= 0) {
            QuaternionConjugateToRef(this.world[hp], tmpQ);
            tmpV.applyRotationQuaternionInPlace(tmpQ).divideInPlace(setup.worldScale[hp]);
        }
        this.pose.positions[hips].addInPlace(tmpV);
    }

    /**
     * A goal in rig space: position (metres) and world rotation of its bone.
     * @param goal which goal
     */
    public goalToRig(goal: HumanIKGoal, position: Vector3, rotation: Quaternion): void {
        const setup = this._setup;
        const p = this.goalPositions[goal];
        const scale = setup.scale;
        tmpV.x = p.x * scale;
        tmpV.y = p.y * scale;
        tmpV.z = p.z * scale;
        tmpV.applyRotationQuaternionToRef(setup.c0, position).addInPlace(setup.groundOrigin);
        // W = c0 * Dc * (c0^-1 * W0)
        QuaternionMultiplyToRef(setup.c0, this.goalRotations[goal], tmpQ);
        QuaternionMultiplyToRef(tmpQ, setup.tposeCanonical[GOAL_BONES[goal]], rotation);
    }

    /** Decodes and solves in one call. Returns {@link pose}. */
    public solve(human: HumanPose, deltaSeconds = 0): IRigPose {
        this.decode(human);
        return this.solveIK(deltaSeconds);
    }
}
