import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef, QuaternionNormalizeInPlace, Vector3CopyToRef } from "../math/hotMath.js";
import { EscapeChainIKStall } from "./chainIKEscape.js";
import { ComputeChainIKStep } from "./chainIKStep.js";
import type { IJointClamp } from "./jointClamp.js";

/** What the last {@link ChainIKSolver.solve} did. */
export interface IChainIKStatus {
    /** Distance left between the chain's end and the target, metres (same space as the target). */
    error: number;
    /** Iterations run (each one Jacobian, one or more tries of the line search). */
    iterations: number;
    /** Whether the end came within {@link ChainIKSolver.tolerance} of the target. */
    reached: boolean;
    /** Whether a joint limit moved a joint in the accepted result's last step. */
    clamped: boolean;
    /** How many times the solver escaped a stall by easing clamped joints toward their preferred rotation. */
    escapes: number;
}

/** Default iteration budget of {@link ChainIKSolver.maxIterations}. */
export const CHAIN_IK_MAX_ITERATIONS = 64;
/** Default {@link ChainIKSolver.tolerance}: a tenth of a millimetre, metres. */
export const CHAIN_IK_TOLERANCE = 1e-4;
/** Default damping of the least squares, as a share of the chain's length (λ = share · length). */
export const CHAIN_IK_DAMPING = 0.02;
/** Default largest turn of one joint in one iteration, radians (a trust region: the Jacobian is linear only near the pose). */
export const CHAIN_IK_MAX_STEP = 0.35;
/** Halvings the line search tries before it calls an iteration stalled. */
const LINE_SEARCH_HALVINGS = 5;
/** An iteration that takes less than this share off the error counts as a stall. */
const STALL_PROGRESS = 1e-3;
/** A blocked joint's weight in the least squares while the others take over after a stall (a share of its stiffness). */
const BLOCKED_WEIGHT = 1e-3;
/** Default {@link ChainIKSolver.maxEscapes}. */
export const CHAIN_IK_MAX_ESCAPES = 6;
/** A clamped joint's weight in the least squares is multiplied by this each iteration it is clamped (the others take over its share). */
const CLAMPED_WEIGHT_DECAY = 0.5;

/**
 * Iterative IK on a chain of joints longer than two bones: damped least squares (Levenberg-
 * Marquardt) on the end's position, with joint limits applied inside every iteration.
 *
 * The chain is a path of rig joints, root first, each the parent of the next; the end is the last
 * joint (its position is what reaches the target; its own rotation is not changed). Every joint
 * with a stiffness above 0 turns freely in 3D (three rotation degrees of freedom, world axes);
 * joints of stiffness 0 (twist helpers between mapped bones) ride along.
 *
 * One iteration, with r_i the vector from joint i to the end, e = target - end, W_i the stiffness:
 * - J_i = -[r_i]x (the end's velocity per world rotation vector of joint i), so
 *   `J W J^T = Σ W_i (|r_i|² I - r_i r_i^T)`, a 3×3 matrix whatever the chain's length;
 * - `y = (J W J^T + λ² I)^-1 e`, `ω_i = W_i (r_i × y)` (the damped least-squares step);
 * - plus the nullspace bias `(I - J⁺ J) z`, z_i a small turn of each joint toward its
 *   {@link preferred} rotation, so the chain drifts toward it without moving the end (to first order);
 * - each ω_i is capped at {@link maxStepRadians}, applied in its parent's frame (`L' = exp(P^-1 ω) L`)
 *   and the joint limit applied to the result;
 * - backtracking line search: a step is kept only if the error drops; else it is halved.
 *
 * A joint a limit moves has its weight halved for the next iteration (the others take its share);
 * when no step lowers the error while the end is still short (the classic deadlock: every joint
 * pushes into its limit, or a chain stands straight at its limit and the target is nearer than its
 * length, where the gradient vanishes), the clamped joints (or, if none, all) ease half-way toward
 * their preferred rotation (say the middle of their range: a knee eased forward) and the solve goes
 * on from there. The best pose seen is the result: reachable targets are met, unreachable ones are
 * reached as near as the chain and its limits allow.
 *
 * Allocation-free per solve (scratch per instance); never throws; no NaN for finite input.
 */
export class ChainIKSolver {
    /** The chain: rig joints from the root to the end, each the rig parent of the next. */
    public readonly path: Int32Array;
    /** Per path element: how readily the joint turns (1 default; 0 holds it; larger turns it more). */
    public readonly stiffness: Float64Array;
    /** Per path element: the id the clamp knows the joint by (a `HumanBone`), or -1 for none (default -1). */
    public readonly boneIds: Int32Array;
    /** Per path element: the local rotation the nullspace bias and the escape pull toward (default identity; set with {@link preferredWeight}). */
    public readonly preferred: Quaternion[];
    /** Per path element: how strongly the joint is biased toward {@link preferred}, per iteration (0 default: no bias; about 0.1 is gentle). */
    public readonly preferredWeight: Float64Array;
    /** Joint limits applied inside every iteration, or null for none. */
    public clamp: IJointClamp | null = null;
    /** The most iterations per solve. Default {@link CHAIN_IK_MAX_ITERATIONS}. */
    public maxIterations = CHAIN_IK_MAX_ITERATIONS;
    /** Escapes from stalls allowed per solve before it settles for the best pose it found (0 disables them). Default {@link CHAIN_IK_MAX_ESCAPES}. */
    public maxEscapes = CHAIN_IK_MAX_ESCAPES;
    /** Distance at which the target counts as reached, metres. Default {@link CHAIN_IK_TOLERANCE}. */
    public tolerance = CHAIN_IK_TOLERANCE;
    /** Damping λ of the least squares, metres. Default {@link CHAIN_IK_DAMPING} times the chain's rest length. */
    public damping: number;
    /** Largest turn of a joint per iteration, radians. Default {@link CHAIN_IK_MAX_STEP}. */
    public maxStepRadians = CHAIN_IK_MAX_STEP;
    /** The chain's length at rest (sum of the offsets between consecutive joints), metres. */
    public readonly length: number;

    // The working state below marked internal is shared with the step (chainIKStep.ts) and the
    // escape (chainIKEscape.ts): free functions of the solver, not part of its API.
    /** @internal The number of path elements. */
    public readonly _n: number;
    /** Per path element: the scale applied to its local position (its parent's world scale), xyz. */
    private readonly _scale: Float64Array;
    /** @internal Per path element: the local rotations of the accepted pose. */
    public readonly _local: Quaternion[];
    private readonly _candidate: Quaternion[];
    private readonly _best: Quaternion[];
    /** @internal Per path element: the world rotations of the accepted pose. */
    public readonly _wq: Quaternion[];
    /** @internal Per path element: the world positions of the accepted pose. */
    public readonly _p: Vector3[];
    /** World rotations and positions of the candidate of the line search. */
    private readonly _wqC: Quaternion[];
    private readonly _pC: Vector3[];
    private readonly _offset: Vector3[];
    /** @internal Per path element: its weight in the least squares this iteration (its stiffness, less while a limit blocks it). */
    public readonly _w: Float64Array;
    /** @internal Per path element: the step's world rotation vector, xyz. */
    public readonly _step: Float64Array;
    /** @internal Per path element: the nullspace bias's world rotation vector, xyz. */
    public readonly _bias: Float64Array;
    /** @internal Per path element: 1 when the last try's limit blocked the joint (took off more than half its turn). */
    public readonly _hit: Uint8Array;
    /** @internal World rotation of the chain root's parent. */
    public readonly _baseQ = new Quaternion();
    private readonly _baseP = new Vector3();
    /** @internal Where the end is aimed (the target, brought within the chain's reach). */
    public readonly _target = new Vector3();
    /** @internal Scratch. */
    public readonly _q = new Quaternion();
    private readonly _q2 = new Quaternion();
    /** @internal Scratch; the rotation vector `_toParentFrame` turns. */
    public readonly _v = new Vector3();
    /**
     * @internal Numbers between the solver's functions (no number crosses a call): [0] the error of the last FK, [1] the step's scale, [2] λ², [3] the step's largest turn (in `ComputeChainIKStep`), [4] the accepted error, [5] the best, [6] the tolerance, [7] the largest turn per iteration, [8] the rest length.
     */
    public readonly _num = new Float64Array(9);

    /**
     * @param path rig joints from the chain's root to its end, each the parent of the next (at least 2)
     * @param restPositions local position of every rig joint at rest (rig-indexed): the chain's offsets; the
     *   solve reads the pose's own local positions, these only give {@link length} and the default damping
     * @param parentScales world scale of every rig joint (rig-indexed; a joint's offset is scaled by its
     *   parent's), or omitted for none
     */
    constructor(path: ArrayLike<number>, restPositions: readonly Vector3[], parentScales?: readonly Vector3[]) {
        const n = path.length;
        this.path = Int32Array.from(path);
        this._n = n;
        this.stiffness = new Float64Array(n).fill(1);
        this.boneIds = new Int32Array(n).fill(-1);
        this.preferred = Array.from({ length: n }, () => Quaternion.Identity());
        this.preferredWeight = new Float64Array(n);
        this._scale = new Float64Array(3 * n).fill(1);
        let length = 0;
        for (let i = 0; i < n; i++) {
            const j = this.path[i];
            const s = i > 0 && parentScales ? parentScales[this.path[i - 1]] : null;
            if (s) {
                this._scale[3 * i] = s.x;
                this._scale[3 * i + 1] = s.y;
                this._scale[3 * i + 2] = s.z;
            }
            if (i > 0) {
                const r = restPositions[j];
                length += Math.hypot(r.x * this._scale[3 * i], r.y * this._scale[3 * i + 1], r.z * this._scale[3 * i + 2]);
            }
        }
        this.damping = CHAIN_IK_DAMPING * (length > 0 ? length : 1);
        this.length = length;
        const qs = (): Quaternion[] => Array.from({ length: n }, () => Quaternion.Identity());
        this._local = qs();
        this._candidate = qs();
        this._best = qs();
        this._wq = qs();
        this._p = Array.from({ length: n }, () => new Vector3());
        this._wqC = qs();
        this._pC = Array.from({ length: n }, () => new Vector3());
        this._offset = Array.from({ length: n }, () => new Vector3());
        this._w = new Float64Array(n);
        this._step = new Float64Array(3 * n);
        this._bias = new Float64Array(3 * n);
        this._hit = new Uint8Array(n);
    }

    /** World position of path element `i` after the last solve (its accepted pose), same space as the target. */
    public positionOf(i: number): Vector3 {
        return this._p[i];
    }

    /**
     * Moves the chain's end toward `target` by turning its joints; writes the local rotations of
     * the joints of stiffness above 0 into `localRotations` (rig-indexed; the others are read only).
     * @param localRotations every rig joint's local rotation (read; the chain's movable joints written)
     * @param localPositions every rig joint's local position (read)
     * @param baseRotation world rotation of the chain root's parent (identity for a top joint)
     * @param basePosition world position of the chain root's parent (origin for a top joint)
     * @param target where the end should go (world, metres)
     * @param status receives the error, iterations, whether it reached and whether limits acted
     */
    public solve(
        localRotations: readonly Quaternion[],
        localPositions: readonly Vector3[],
        baseRotation: Quaternion,
        basePosition: Vector3,
        target: Vector3,
        status: IChainIKStatus,
    ): void {
        const n = this._n;
        const path = this.path;
        const num = this._num;
        this._baseQ.copyFrom(baseRotation);
        Vector3CopyToRef(basePosition, this._baseP);
        Vector3CopyToRef(target, this._target);
        for (let i = 0; i < n; i++) {
            const j = path[i];
            this._local[i].copyFrom(localRotations[j]);
            QuaternionNormalizeInPlace(this._local[i]);
            const lp = localPositions[j];
            const o = this._offset[i];
            o.x = lp.x * this._scale[3 * i];
            o.y = lp.y * this._scale[3 * i + 1];
            o.z = lp.z * this._scale[3 * i + 2];
            this._w[i] = this.stiffness[i] > 0 ? this.stiffness[i] : 0;
            this._hit[i] = 0;
        }
        // The settings are read once per solve, into `_num`: [2] λ², [6] the tolerance, [7] the largest turn, [8] the length.
        num[2] = this.damping;
        num[2] = num[2] > 0 ? num[2] * num[2] : 1e-12;
        num[8] = this.length;
        // A target beyond the chain's length is aimed at through the nearest point of the ball the
        // chain could sweep (root-centred, radius its length): the part of the error no turn can
        // take off (along the chain) would otherwise dominate the least squares and curl the chain.
        this._forward(this._local, this._wq, this._p);
        const root = this._p[0];
        const t = this._target;
        const tx = t.x - root.x;
        const ty = t.y - root.y;
        const tz = t.z - root.z;
        const d = Math.sqrt(tx * tx + ty * ty + tz * tz);
        if (d > num[8] && num[8] > 0) {
            const k = num[8] / d;
            t.x = root.x + tx * k;
            t.y = root.y + ty * k;
            t.z = root.z + tz * k;
            this._forward(this._local, this._wq, this._p);
        }
        // The loop's numbers live in `_num` (a double kept in a local across calls may be boxed): [4] the error, [5] the best.
        num[4] = num[0];
        num[5] = num[0];
        this._copy(this._local, this._best);
        let iterations = 0;
        let escapes = 0;
        let clamped = false;
        // (Written so, not as `a > 0 ? a : CONSTANT`: that joins an unboxed number with a module
        // constant, which V8 boxes.)
        num[6] = this.tolerance;
        if (!(num[6] > 0)) num[6] = CHAIN_IK_TOLERANCE;
        num[7] = this.maxStepRadians;
        if (!(num[7] > 0)) num[7] = CHAIN_IK_MAX_STEP;
        const maxIterations = this.maxIterations > 0 ? this.maxIterations : 1;
        while (iterations < maxIterations && num[4] > num[6] && num[4] === num[4]) {
            iterations++;
            ComputeChainIKStep(this);
            // Backtracking line search.
            num[1] = 1;
            let accepted = false;
            for (let h = 0; h <= LINE_SEARCH_HALVINGS; h++) {
                const hit = this._applyStep();
                if (num[0] < num[4] * (1 - STALL_PROGRESS) || num[0] <= num[6]) {
                    accepted = true;
                    clamped = hit;
                    num[4] = num[0];
                    this._copy(this._candidate, this._local);
                    this._copy(this._wqC, this._wq);
                    for (let i = 0; i < n; i++) Vector3CopyToRef(this._pC[i], this._p[i]);
                    break;
                }
                num[1] *= 0.5;
            }
            if (accepted) {
                // Clamped joints weigh less next time: the free ones take their share.
                for (let i = 0; i < n; i++) if (this._hit[i]) this._w[i] *= CLAMPED_WEIGHT_DECAY;
                if (num[4] < num[5]) {
                    num[5] = num[4];
                    this._copy(this._local, this._best);
                }
                continue;
            }
            // Stalled short of the target. First the joints a limit blocked drop out of the least
            // squares (the free ones then take the whole step: an active set), then an escape.
            let dropped = false;
            for (let i = 0; i < n; i++) {
                if (this._hit[i] && this._w[i] > BLOCKED_WEIGHT * this.stiffness[i]) {
                    this._w[i] *= BLOCKED_WEIGHT;
                    dropped = true;
                }
            }
            if (dropped) continue;
            if (!(escapes < this.maxEscapes)) break;
            escapes++;
            EscapeChainIKStall(this, escapes - 1);
            this._forward(this._local, this._wq, this._p);
            num[4] = num[0];
            for (let i = 0; i < n; i++) this._w[i] = this.stiffness[i] > 0 ? this.stiffness[i] : 0;
            if (num[4] < num[5]) {
                num[5] = num[4];
                this._copy(this._local, this._best);
            }
        }
        // The best pose seen is the result.
        this._forward(this._best, this._wq, this._p);
        for (let i = 0; i < n; i++) if (this.stiffness[i] > 0) localRotations[path[i]].copyFrom(this._best[i]);
        const e = this._p[n - 1];
        const ex = target.x - e.x;
        const ey = target.y - e.y;
        const ez = target.z - e.z;
        num[0] = Math.sqrt(ex * ex + ey * ey + ez * ez);
        status.error = num[0];
        status.iterations = iterations;
        status.reached = num[0] <= num[6];
        status.clamped = clamped;
        status.escapes = escapes;
    }

    private _copy(from: Quaternion[], to: Quaternion[]): void {
        for (let i = 0; i < this._n; i++) to[i].copyFrom(from[i]);
    }

    /** Forward kinematics of `locals` into `wq`/`p`; the error into `_num[0]`. */
    private _forward(locals: Quaternion[], wq: Quaternion[], p: Vector3[]): void {
        const n = this._n;
        const v = this._v;
        for (let i = 0; i < n; i++) {
            const parentQ = i > 0 ? wq[i - 1] : this._baseQ;
            const parentP = i > 0 ? p[i - 1] : this._baseP;
            // world = parentWorld * local; position = parentPosition + parentWorld * offset
            QuaternionMultiplyToRef(parentQ, locals[i], wq[i]);
            Vector3CopyToRef(this._offset[i], v);
            v.applyRotationQuaternionInPlace(parentQ);
            p[i].x = parentP.x + v.x;
            p[i].y = parentP.y + v.y;
            p[i].z = parentP.z + v.z;
        }
        const e = p[n - 1];
        const t = this._target;
        const dx = t.x - e.x;
        const dy = t.y - e.y;
        const dz = t.z - e.z;
        this._num[0] = Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    /**
     * The step scaled by `_num[1]` applied to the accepted pose into `_candidate`, each joint
     * clamped; forward kinematics of the candidate (error into `_num[0]`). Marks clamped joints in
     * `_hit`; returns whether any was.
     */
    private _applyStep(): boolean {
        const n = this._n;
        const scale = this._num[1];
        const step = this._step;
        const q = this._q;
        const v = this._v;
        let any = false;
        // The parent frames of the accepted pose (the step was computed there).
        for (let i = 0; i < n; i++) {
            const c = this._candidate[i];
            c.copyFrom(this._local[i]);
            this._hit[i] = 0;
            const sx = step[3 * i] * scale;
            const sy = step[3 * i + 1] * scale;
            const sz = step[3 * i + 2] * scale;
            if (sx === 0 && sy === 0 && sz === 0) continue;
            // δ = P^-1 ω (the parent's frame), L' = exp(δ) L
            v.x = sx;
            v.y = sy;
            v.z = sz;
            this._toParentFrame(i);
            const angle = Math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
            const k = angle > 1e-12 ? Math.sin(angle * 0.5) / angle : 0.5;
            q.x = v.x * k;
            q.y = v.y * k;
            q.z = v.z * k;
            q.w = Math.cos(angle * 0.5);
            if (this._turnJoint(i, c)) {
                any = true;
                // Blocked when the limit took off more than half the turn asked for: the angle
                // actually turned, |log(c * L^-1)|, against the step's.
                const a = this._local[i];
                const dw = Math.abs(c.w * a.w + c.x * a.x + c.y * a.y + c.z * a.z);
                const turned = 2 * Math.acos(dw < 1 ? dw : 1);
                if (turned < 0.5 * angle) this._hit[i] = 1;
            }
        }
        this._forward(this._candidate, this._wqC, this._pC);
        return any;
    }

    /** @internal Turns `_v` from world axes into the frame of path element `i`'s parent (the accepted pose's, `_wq`). */
    public _toParentFrame(i: number): void {
        QuaternionConjugateToRef(i > 0 ? this._wq[i - 1] : this._baseQ, this._q2);
        this._v.applyRotationQuaternionInPlace(this._q2);
    }

    /**
     * @internal Turns `c`, a local rotation of path element `i`, by `_q` (`c = _q c`, normalized)
     * and applies the joint's limit to it; returns whether the limit moved it.
     */
    public _turnJoint(i: number, c: Quaternion): boolean {
        QuaternionMultiplyToRef(this._q, c, c);
        QuaternionNormalizeInPlace(c);
        const clamp = this.clamp;
        const bone = this.boneIds[i];
        if (!(clamp && bone >= 0 && clamp.clampLocalToRef(bone, c, this._q2))) return false;
        c.copyFrom(this._q2);
        QuaternionNormalizeInPlace(c);
        return true;
    }
}
