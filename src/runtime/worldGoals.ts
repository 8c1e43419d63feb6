import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { ChainIKSolver, type IChainIKStatus } from "../ik/chainIK.js";
import type { IJointClamp } from "../ik/jointClamp.js";
import { LIMB_REACHED_SHARE, type ILimbIKStatus } from "../ik/limbIK.js";
import {
    QuaternionConjugateToRef,
    QuaternionMultiplyToRef,
    QuaternionSlerpToRef,
    Vector3CopyToRef,
    Vector3LerpToRef,
    Vector3TransformAffineToRef,
} from "../math/hotMath.js";
import { MatrixTurnToRef } from "../math/matrixTurn.js";
import { HUMAN_IK_GOAL_COUNT, HumanIKGoal } from "../muscle/humanPose.js";
import { GOAL_BONES } from "../muscle/encode.js";
import { MuscleSetup } from "../muscle/setup.js";
import type { HumanoidLookAt } from "./lookAt.js";
import { TurnLimbTowardHint } from "./limbHint.js";
import { HumanoidPoseKinematics } from "./poseKinematics.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * A hand goal farther from the shoulder than this share of the arm's reach (its length times one
 * plus its stretch) moves the trunk too ({@link HumanoidWorldGoals.bodyAdjust}): the arm alone
 * would stop short.
 */
export const BODY_ADJUST_REACH = 0.98;

/**
 * How readily each trunk bone turns in the body adjustment, against 1 for the arm's bones: the
 * spine, chest and upper chest share the lean, the shoulder shrugs more.
 */
const TRUNK_STIFFNESS: Readonly<Partial<Record<HumanBone, number>>> = {
    [HumanBone.Spine]: 0.25,
    [HumanBone.Chest]: 0.25,
    [HumanBone.UpperChest]: 0.25,
    [HumanBone.LeftShoulder]: 0.5,
    [HumanBone.RightShoulder]: 0.5,
    [HumanBone.LeftUpperArm]: 1,
    [HumanBone.RightUpperArm]: 1,
    [HumanBone.LeftLowerArm]: 1,
    [HumanBone.RightLowerArm]: 1,
};
/** The most the hips move toward foot goals out of reach, share of the leg's length. */
export const MAX_HIP_SHIFT = 0.3;
/** Iteration budget of the body adjustment per hand and frame (the frame's pose is a good start: it converges in a few). */
const BODY_ADJUST_ITERATIONS = 24;
/** The body adjustment stops this near the target, metres: the two-bone IK after it closes the rest exactly (with the arm's stretch). */
const BODY_ADJUST_TOLERANCE = 0.001;
/** The bones whose forward kinematics world goals and look-at need (with their ancestors; not the fingers). */
const KINEMATICS_BONES: readonly HumanBone[] = [
    HumanBone.LeftFoot,
    HumanBone.RightFoot,
    HumanBone.LeftHand,
    HumanBone.RightHand,
    HumanBone.Head,
    HumanBone.LeftEye,
    HumanBone.RightEye,
];
/** Pull of each joint of the body adjustment toward its pose as the clip left it (the chain solver's nullspace bias, per iteration). */
const KEEP_POSTURE = 0.05;

const tmpQ = new Quaternion();
const tmpQ2 = new Quaternion();

/** Throws when a goal's number (the sum of its coordinates) is not finite: a clear error at the call, not NaN on the nodes. */
function finiteOrThrow(call: string, what: string, sum: number): void {
    if (!Number.isFinite(sum)) throw new HumanoidError("BAD_OPTION", `goals.${call}: the ${what} must be finite (got a NaN or infinite coordinate)`);
}

/**
 * Goals a program sets, as Unity's `SetIKPosition` / `SetIKRotation` / `SetIKHintPosition` and
 * their weights: per goal (left foot, right foot, left hand, right hand; {@link HumanIKGoal}
 * order) a position and a rotation with weights, and a knee or elbow hint with its weight,
 * blended with what the clip's own goals made of the limb, and solved every frame after the clip,
 * its IK and foot planting ({@link apply}).
 *
 * Space: positions and rotations are in "goal space", turned into rig space by
 * {@link goalSpaceToRig} (identity by default: goal space is rig space; the animator sets it each
 * frame so that goals are in the scene's world). A goal's rotation is the end bone's turn from its
 * T-pose orientation (identity: the foot or hand as in the T-pose, however the rig's bone axes lie).
 *
 * Per goal with a weight above 0, in {@link apply}:
 * - the target is `lerp(end after the clip, goal position, positionWeight)` and the end's world
 *   rotation `slerp(end after the clip, goal rotation, rotationWeight)`;
 * - a foot whose target is beyond {@link BODY_ADJUST_REACH} of the leg's reach moves the hips toward
 *   it, at most {@link MAX_HIP_SHIFT} of the leg, as far as the other foot allows ({@link bodyAdjust});
 * - a hand whose target is beyond {@link BODY_ADJUST_REACH} of the arm's reach bends the trunk
 *   (spine, chest, upper chest, shoulder) with the arm toward it, by {@link ChainIKSolver}, within
 *   {@link clamp}'s limits ({@link bodyAdjust});
 * - the limb is solved by the two-bone IK (squash-and-stretch as the solver's), and then turned
 *   about the line from its root to its end toward the hint by the hint weight (the end stays;
 *   `TurnLimbTowardHint`).
 * Hands the clip's IK pinned (solver hand weights above 0) are solved again onto where the clip
 * put them when the trunk moved (body adjustment or look-at), so they stay pinned.
 *
 * Allocation-free per frame; never throws; an absent optional bone is skipped.
 */
export class HumanoidWorldGoals {
    /** The avatar. */
    public readonly avatar: HumanoidAvatar;
    /** Goal positions (goal space, metres). Default origin (weights 0). */
    public readonly positions: Vector3[] = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    /** Goal rotations: the end's turn from its T-pose (goal space). Default identity. */
    public readonly rotations: Quaternion[] = [Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity()];
    /** Position weight per goal, 0 (the clip's) to 1 (the goal's). Default 0. */
    public readonly positionWeights = new Float32Array(HUMAN_IK_GOAL_COUNT);
    /** Rotation weight per goal, 0 to 1. Default 0. */
    public readonly rotationWeights = new Float32Array(HUMAN_IK_GOAL_COUNT);
    /** Knee (feet) or elbow (hands) hint positions, goal space, metres. */
    public readonly hintPositions: Vector3[] = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    /** Hint weight per goal, 0 (the bend plane as solved) to 1 (the middle joint turned fully toward its hint). Default 0. */
    public readonly hintWeights = new Float32Array(HUMAN_IK_GOAL_COUNT);
    /** Goal space to rig space (an affine matrix, Babylon's row-vector order; a mirror allowed). Default identity. */
    public readonly goalSpaceToRig = Matrix.Identity();
    /** Whether hand goals beyond the arm's reach move the trunk, and foot goals beyond the leg's the hips ({@link BODY_ADJUST_REACH}). Default true. */
    public bodyAdjust = true;
    /** Joint limits for the body adjustment (the trunk and arm joints, by `HumanBone`), or null. Default null. */
    public clamp: IJointClamp | null = null;
    /** What the last {@link apply} did per goal (stretch, distance left, out of reach); untouched goals read 1, 0, false. */
    public readonly status: ILimbIKStatus[] = [0, 1, 2, 3].map(() => ({ stretch: 1, error: 0, unreachable: false }));
    /** What the body adjustment of each hand did in the last {@link apply} (iterations 0 when it did not run). */
    public readonly bodyStatus: IChainIKStatus[] = [0, 1].map(() => ({ error: 0, iterations: 0, reached: false, clamped: false, escapes: 0 }));
    /** Forward kinematics of the pose as the last {@link apply} left it (rig space): the limbs, head and eyes and their ancestors. */
    public readonly kinematics: HumanoidPoseKinematics;

    private readonly _setup: MuscleSetup;
    /** Per hand (0 left, 1 right): the body-adjustment chain from the spine to the hand, or null without a spine path. */
    private readonly _chains: (ChainIKSolver | null)[];
    /** Per goal: where the end was after the clip (rig space) and its world rotation. */
    private readonly _clipEnd: Vector3[] = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    private readonly _clipEndRotation: Quaternion[] = [Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity()];
    private readonly _target = new Vector3();
    private readonly _targetRotation = new Quaternion();
    private readonly _hint = new Vector3();
    private readonly _shift = new Vector3();
    /** The turn of {@link goalSpaceToRig} (see `MatrixTurnToRef`): its linear part, scale and mirror off. */
    private readonly _linearTurn = new Quaternion();
    /** Numbers handed to the limb solver and the lerps: [0] position weight, [1] rotation weight, [2] stretch. */
    private readonly _weights = new Float64Array(3);
    private readonly _num = new Float64Array(2);
    private readonly _solve = new Uint8Array(HUMAN_IK_GOAL_COUNT);

    /** @param avatar the avatar whose goals these are */
    constructor(avatar: HumanoidAvatar) {
        this.avatar = avatar;
        this._setup = MuscleSetup.For(avatar);
        this.kinematics = new HumanoidPoseKinematics(avatar, KINEMATICS_BONES);
        const setup = this._setup;
        const rig = avatar.rig;
        this._chains = [HumanBone.LeftHand, HumanBone.RightHand].map((hand) => {
            const spine = setup.joint[HumanBone.Spine];
            const end = setup.joint[hand];
            if (spine < 0 || end < 0) return null;
            const path: number[] = [];
            for (let j = end; j >= 0; j = rig.joints[j].parent) {
                path.unshift(j);
                if (j === spine) break;
            }
            if (path[0] !== spine || path.length < 3) return null;
            const chain = new ChainIKSolver(path, avatar.referencePose.positions, setup.worldScale);
            for (let i = 0; i < path.length; i++) {
                const bone = setup.boneOfJoint[path[i]];
                chain.stiffness[i] = i < path.length - 1 && bone >= 0 ? (TRUNK_STIFFNESS[bone as HumanBone] ?? 0) : 0;
                chain.boneIds[i] = bone;
                chain.preferredWeight[i] = chain.stiffness[i] > 0 ? KEEP_POSTURE : 0;
            }
            chain.maxIterations = BODY_ADJUST_ITERATIONS;
            chain.tolerance = BODY_ADJUST_TOLERANCE;
            chain.maxEscapes = 1;
            return chain;
        });
    }

    /** Whether any goal has a weight above 0 (otherwise {@link apply} does nothing of its own). */
    public get active(): boolean {
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            if (this.positionWeights[g] > 0 || this.rotationWeights[g] > 0 || this.hintWeights[g] > 0) return true;
        }
        return false;
    }

    /** Sets a goal's position (goal space, metres) and position weight (clamped to 0..1; default 1). */
    public setPosition(goal: HumanIKGoal, position: Vector3, weight = 1): void {
        finiteOrThrow("setPosition", "position", position.x + position.y + position.z);
        Vector3CopyToRef(position, this.positions[goal]);
        this.positionWeights[goal] = weight > 0 ? (weight < 1 ? weight : 1) : 0;
    }

    /** Sets a goal's rotation (the end's turn from its T-pose, goal space) and rotation weight (clamped to 0..1; default 1). */
    public setRotation(goal: HumanIKGoal, rotation: Quaternion, weight = 1): void {
        finiteOrThrow("setRotation", "rotation", rotation.x + rotation.y + rotation.z + rotation.w);
        this.rotations[goal].copyFrom(rotation);
        this.rotationWeights[goal] = weight > 0 ? (weight < 1 ? weight : 1) : 0;
    }

    /** Sets a goal's knee or elbow hint (goal space, metres) and hint weight (clamped to 0..1; default 1). */
    public setHint(goal: HumanIKGoal, position: Vector3, weight = 1): void {
        finiteOrThrow("setHint", "position", position.x + position.y + position.z);
        Vector3CopyToRef(position, this.hintPositions[goal]);
        this.hintWeights[goal] = weight > 0 ? (weight < 1 ? weight : 1) : 0;
    }

    /**
     * Solves the goals on the solver's pose (after its `solveIK`), in place: captures where the
     * clip left each end, lets `lookAt` (if given and active) turn the trunk and head, moves the
     * trunk for hands out of reach, solves each limb with a weight and turns it toward its hint,
     * and finally lets `lookAt` aim the eyes.
     * @param solver the rig solver whose {@link HumanoidRigSolver.pose} is changed
     * @param lookAt the look-at, run between the capture and the limbs (or null)
     * @param step `step[0]`: seconds since the last frame (for the look-at's smoothing)
     */
    public apply(solver: HumanoidRigSolver, lookAt: HumanoidLookAt | null, step: Float64Array): void {
        const pose = solver.pose;
        const fk = this.kinematics;
        const setup = this._setup;
        const ik = solver.ik;
        fk.update(pose);
        // Where the clip (and its IK, and planting) left each end.
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            const e = ik.endJoint(g);
            Vector3CopyToRef(fk.positions[e], this._clipEnd[g]);
            this._clipEndRotation[g].copyFrom(fk.world[e]);
        }
        let trunkMoved = false;
        if (lookAt && lookAt.active) {
            lookAt.solveBody(pose, fk, step);
            trunkMoved = lookAt.bodyTurned;
        }
        const own = this.active;
        if (own) MatrixTurnToRef(this.goalSpaceToRig, this._linearTurn);
        // Which limbs to solve: those with a goal, and pinned hands once the trunk moves.
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            this._solve[g] = own && (this.positionWeights[g] > 0 || this.rotationWeights[g] > 0 || this.hintWeights[g] > 0) ? 1 : 0;
            if (!this._solve[g]) {
                const s = this.status[g];
                s.stretch = 1;
                s.error = 0;
                s.unreachable = false;
            }
        }
        // Feet beyond reach (a foot on a high step): the hips move toward them, as far as the other
        // foot allows.
        if (own && this.bodyAdjust && this._liftHips(solver)) {
            trunkMoved = true;
            for (let g = 0; g < 2; g++) this._solve[g] = 1;
        }
        // Body adjustment for hands beyond reach.
        for (let h = 0; h < 2; h++) {
            this.bodyStatus[h].iterations = 0;
            const g = HumanIKGoal.LeftHand + h;
            const chain = this._chains[h];
            if (!this._solve[g] || !this.bodyAdjust || !chain || !(this.positionWeights[g] > 0)) continue;
            this._targetPositionOf(g);
            const shoulder = fk.positions[ik.upperJoint(g)];
            const dx = this._target.x - shoulder.x;
            const dy = this._target.y - shoulder.y;
            const dz = this._target.z - shoulder.z;
            const reach = ik.limbLengths[g] * (1 + (solver.stretch[g] > 0 ? solver.stretch[g] : 0)) * BODY_ADJUST_REACH;
            if (!(dx * dx + dy * dy + dz * dz > reach * reach)) continue;
            const path = chain.path;
            for (let i = 0; i < path.length; i++) chain.preferred[i].copyFrom(pose.rotations[path[i]]);
            ik.resetLengths(g, pose.positions);
            fk.update(pose);
            const base = setup.rigParent[path[0]];
            chain.clamp = this.clamp;
            chain.solve(pose.rotations, pose.positions, fk.world[base], fk.positions[base], this._target, this.bodyStatus[h]);
            fk.update(pose);
            trunkMoved = true;
        }
        if (trunkMoved) {
            for (let g = HumanIKGoal.LeftHand; g <= HumanIKGoal.RightHand; g++)
                if (solver.positionWeights[g] > 0 || solver.rotationWeights[g] > 0) this._solve[g] = 1;
        }
        // The limbs. The kinematics are up to date here; each limb changes only its own subtree
        // (no other limb's ancestors), so only that is brought up to date, before and after it.
        const weights = this._weights;
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            if (!this._solve[g]) continue;
            this._targetOf(g);
            ik.resetLengths(g, pose.positions);
            fk.updateBelow(pose, ik.upperJoint(g));
            weights[0] = 1;
            weights[1] = 1;
            weights[2] = solver.stretch[g] > 0 ? solver.stretch[g] : 0;
            ik.solveWeighted(g, fk.world, fk.positions, pose.rotations, pose.positions, this._target, this._targetRotation, weights, this.status[g]);
            if (own && this.hintWeights[g] > 0) {
                fk.updateBelow(pose, ik.upperJoint(g));
                TurnLimbTowardHint(
                    g,
                    solver,
                    fk,
                    setup.rigParent,
                    Vector3TransformAffineToRef(this.hintPositions[g], this.goalSpaceToRig, this._hint),
                    this.hintWeights,
                );
            }
        }
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) if (this._solve[g]) fk.updateBelow(pose, ik.upperJoint(g));
        if (lookAt && lookAt.active) lookAt.solveEyes(pose, fk);
    }

    /**
     * Measures {@link status} again on the solver's pose as it is now: after the joint limits'
     * last pass, which may hold a limb short of the goal that {@link apply} reached (an upper arm
     * kept inside its cone). For each limb with a position goal: `error` is the distance left
     * (metres, rig space) and `unreachable` is set when it passes 0.01% of the limb's length.
     * Allocation-free.
     */
    public measure(solver: HumanoidRigSolver): void {
        if (!this.active) return;
        const fk = this.kinematics;
        const ik = solver.ik;
        fk.update(solver.pose);
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            if (!this._solve[g] || !(this.positionWeights[g] > 0)) continue;
            this._targetPositionOf(g);
            const e = fk.positions[ik.endJoint(g)];
            const dx = this._target.x - e.x;
            const dy = this._target.y - e.y;
            const dz = this._target.z - e.z;
            const s = this.status[g];
            s.error = Math.sqrt(dx * dx + dy * dy + dz * dz);
            s.unreachable = s.error > LIMB_REACHED_SHARE * ik.limbLengths[g];
        }
    }

    /**
     * Moves the hips (and everything below them) toward the foot goals the legs cannot reach:
     * by the most any such foot is short of {@link BODY_ADJUST_REACH} of its leg's reach, along
     * the line from its hip to its target, at most {@link MAX_HIP_SHIFT} of the leg's length, and
     * scaled down (halving) until the other foot's target is within its reach too. Returns
     * whether it moved them. Needs `kinematics` up to date; leaves it so.
     */
    private _liftHips(solver: HumanoidRigSolver): boolean {
        const fk = this.kinematics;
        const ik = solver.ik;
        const setup = this._setup;
        const pose = solver.pose;
        const shift = this._shift;
        shift.x = 0;
        shift.y = 0;
        shift.z = 0;
        const num = this._num;
        num[1] = 0;
        for (let g = 0; g < 2; g++) {
            if (!(this.positionWeights[g] > 0)) continue;
            this._targetPositionOf(g);
            const hip = fk.positions[ik.upperJoint(g)];
            const dx = this._target.x - hip.x;
            const dy = this._target.y - hip.y;
            const dz = this._target.z - hip.z;
            const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            const reach = ik.limbLengths[g] * (1 + (solver.stretch[g] > 0 ? solver.stretch[g] : 0)) * BODY_ADJUST_REACH;
            const short = d - reach;
            if (!(short > num[1])) continue;
            num[1] = short;
            shift.x = (dx / d) * short;
            shift.y = (dy / d) * short;
            shift.z = (dz / d) * short;
        }
        if (!(num[1] > 0)) return false;
        const most = MAX_HIP_SHIFT * ik.limbLengths[0];
        if (num[1] > most) {
            const k = most / num[1];
            shift.x *= k;
            shift.y *= k;
            shift.z *= k;
        }
        // The other foot (its goal, or where the clip left it) must stay within its leg's reach.
        for (let halving = 0; halving < 12; halving++) {
            let fits = true;
            for (let g = 0; g < 2; g++) {
                this._targetPositionOf(g);
                const hip = fk.positions[ik.upperJoint(g)];
                const dx = this._target.x - hip.x - shift.x;
                const dy = this._target.y - hip.y - shift.y;
                const dz = this._target.z - hip.z - shift.z;
                const reach = ik.limbLengths[g] * (1 + (solver.stretch[g] > 0 ? solver.stretch[g] : 0)) * BODY_ADJUST_REACH;
                // The foot the shift is for may stay short; the other must not become so.
                const before = fk.positions[ik.upperJoint(g)];
                const bx = this._target.x - before.x;
                const by = this._target.y - before.y;
                const bz = this._target.z - before.z;
                if (dx * dx + dy * dy + dz * dz > reach * reach && dx * dx + dy * dy + dz * dz > bx * bx + by * by + bz * bz) fits = false;
            }
            if (fits) break;
            shift.x *= 0.5;
            shift.y *= 0.5;
            shift.z *= 0.5;
        }
        // The hips' local position: the shift in its parent's frame, over its parent's scale.
        const hips = setup.joint[HumanBone.Hips];
        const hp = setup.rigParent[hips];
        const v = this._target;
        Vector3CopyToRef(shift, v);
        if (hp >= 0) {
            QuaternionConjugateToRef(fk.world[hp], tmpQ);
            v.applyRotationQuaternionInPlace(tmpQ).divideInPlace(setup.worldScale[hp]);
        }
        pose.positions[hips].addInPlace(v);
        fk.update(pose);
        return true;
    }

    /**
     * The target of goal `g` (rig space) into `_target` and `_targetRotation`: the clip's end
     * blended toward the goal by its weights (only the clip's when this goal has none).
     */
    private _targetOf(g: number): void {
        this._targetPositionOf(g);
        const num = this._num;
        // Rotation: goal space -> rig space, conjugated by the turn of goalSpaceToRig: q * R * q^-1.
        const c = this._linearTurn;
        QuaternionMultiplyToRef(c, this.rotations[g], tmpQ);
        QuaternionConjugateToRef(c, tmpQ2);
        QuaternionMultiplyToRef(tmpQ, tmpQ2, tmpQ);
        const endRest = this.avatar.referenceWorld.rotations[this._setup.joint[GOAL_BONES[g]]];
        QuaternionMultiplyToRef(tmpQ, endRest, tmpQ2);
        // A rotation written straight into the public array that is not finite counts as no goal.
        if (!Number.isFinite(tmpQ2.x + tmpQ2.y + tmpQ2.z + tmpQ2.w)) {
            this._targetRotation.copyFrom(this._clipEndRotation[g]);
            return;
        }
        const rw = this.rotationWeights[g];
        num[0] = rw > 0 ? (rw < 1 ? rw : 1) : 0;
        QuaternionSlerpToRef(this._clipEndRotation[g], tmpQ2, num, 0, this._targetRotation);
    }

    /** The position part of {@link _targetOf} alone, into `_target` (where only the position is read). */
    private _targetPositionOf(g: number): void {
        const t = Vector3TransformAffineToRef(this.positions[g], this.goalSpaceToRig, this._target);
        const num = this._num;
        const pw = this.positionWeights[g];
        num[0] = pw > 0 ? (pw < 1 ? pw : 1) : 0;
        // A position written straight into the public array that is not finite counts as no goal.
        if (!Number.isFinite(t.x + t.y + t.z)) {
            num[0] = 0;
            t.setAll(0);
        }
        Vector3LerpToRef(this._clipEnd[g], t, num, 0, t);
    }
}
