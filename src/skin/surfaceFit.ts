import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { WeightedRigidFit } from "../math/hornFit.js";
import { BoundingDiagonal, type ISurfaceFitRig } from "./fitRig.js";

/**
 * Surface fit: the bone transforms of a linear-blend-skinned rig that best reproduce a given
 * surface, frame by frame (the transform half of skinning decomposition, SSDR: B. H. Le and
 * Z. Deng, "Smooth Skinning Decomposition with Rigid Bones", SIGGRAPH Asia 2012, with the
 * skin weights held fixed).
 *
 * Space: everything is in the rig's **bind space**, here the world space of its rest pose. Bone `j`
 * has a rigid transform `T_j(x) = R_j x + t_j` that carries rest-pose points to the posed ones;
 * `T_j` is the identity at rest, and vertex `v` lands at `sum_j w_vj T_j(x_v)`. (The joint's posed
 * world matrix is its rest world matrix followed by `T_j`.)
 *
 * Per frame, the bones are swept in turn, parents first. For bone `j` the other bones' current
 * contributions are taken off each vertex it moves, and `T_j` is the weighted rigid fit (Horn's
 * closed form, {@link WeightedRigidFit}) of `x_v` onto `(y_v - others_v) / w_vj` with weights
 * `w_vj^2`, which is the exact minimizer of the residual over `T_j` alone. Sweeps repeat until the
 * RMS residual improves by less than {@link ISurfaceFitOptions.tolerance} times the model's
 * diagonal (an absolute amount: a relative test stops too early when the residual is already
 * small). Every frame starts from the previous frame's transforms.
 *
 * Rotation-only: every bone but the top one keeps its joint where its parent carries it
 * (`T_j(p_j) = T_parent(p_j)`, `p_j` the joint's rest position), so bone lengths are kept and only
 * the rotation about the joint is fitted.
 */

/** Options of {@link SurfaceFitSolver}. */
export interface ISurfaceFitOptions {
    /** Fit rotations only, keeping every bone's length (see {@link SurfaceFitSolver}). Default false. */
    rotationOnly?: boolean;
    /**
     * Stop the sweeps of a frame when the RMS residual improves by less than this fraction of the
     * model's diagonal. Default {@link SURFACE_FIT_TOLERANCE}.
     */
    tolerance?: number;
    /** Most sweeps per frame. Default {@link SURFACE_FIT_MAX_SWEEPS}. */
    maxSweeps?: number;
    /** Vertices used by the fit (indices into the rig's vertices); default all. See {@link SelectFitVertices}. */
    vertices?: Int32Array;
}

/**
 * Default sweep tolerance: 1e-7 of the diagonal (0.2 micrometres on a 1.9 m character), well
 * below the control run's 1e-4 mean error target, so the sweeps only stop once further ones would
 * change nothing measurable.
 */
export const SURFACE_FIT_TOLERANCE = 1e-7;

/** Default cap of sweeps per frame; a frame started from the previous one needs a handful. */
export const SURFACE_FIT_MAX_SWEEPS = 200;

/** What one frame's solve did. */
export interface ISurfaceFitFrameResult {
    /** Sweeps run. */
    readonly sweeps: number;
    /** RMS residual over the fitted vertices after the last sweep (metres). */
    readonly rms: number;
}

/**
 * Fits a rig's bone transforms to target surfaces, one frame after another (see the file's
 * overview for the method). Holds the current transforms, which every frame starts from.
 */
export class SurfaceFitSolver {
    /** The rig. */
    public readonly rig: ISurfaceFitRig;
    /** Vertices the fit uses (indices into the rig's vertices). */
    public readonly vertices: Int32Array;
    /** The rig's rest diagonal (metres). */
    public readonly diagonal: number;
    /** Current rotation of every bone, x y z w (bind space, see {@link SurfaceFitSolver}). */
    public readonly rotations: Float64Array;
    /** Current translation of every bone (metres). */
    public readonly translations: Float64Array;

    private readonly _rotationOnly: boolean;
    private readonly _tolerance: number;
    private readonly _maxSweeps: number;
    private readonly _order: Int32Array;
    // Per bone, its fitted vertices (positions in `vertices`) and weights, CSR.
    private readonly _start: Int32Array;
    private readonly _sample: Int32Array;
    private readonly _weight: Float64Array;
    private readonly _x: Float64Array; // rest positions of the fitted vertices
    private readonly _p: Float64Array; // current prediction of the fitted vertices
    // Rotation-only: bones in depth-first order (a subtree is a range), each bone's range, and per
    // bone the fitted vertices its subtree moves with their summed subtree weight (CSR).
    private readonly _euler: Int32Array;
    private readonly _tin: Int32Array;
    private readonly _tout: Int32Array;
    private readonly _subStart: Int32Array;
    private readonly _subSample: Int32Array;
    private readonly _subWeight: Float64Array;
    private readonly _subOld: Float64Array;
    /** One vertex's subtree part after a rotation-only update ({@link _subtreePartInto}). */
    private readonly _subNow = new Float64Array(3);
    // Influences of every fitted vertex (normalized weights).
    private readonly _vb: Int32Array;
    private readonly _vw: Float64Array;
    private readonly _identity = Quaternion.Identity();
    // Rotation-only: a free solver on the same vertices, the start of every frame.
    private readonly _free: SurfaceFitSolver | null;
    private readonly _fit = new WeightedRigidFit();
    private readonly _q = new Quaternion();
    private readonly _prior = new Quaternion();
    private readonly _t = new Vector3();
    private readonly _pivot = new Vector3();
    private readonly _image = new Vector3();

    /**
     * @param rig the rig to fit (never written)
     * @param options rotation-only, tolerance, sweeps, fitted vertices
     */
    constructor(rig: ISurfaceFitRig, options: ISurfaceFitOptions = {}) {
        this.rig = rig;
        this._rotationOnly = !!options.rotationOnly;
        this._tolerance = options.tolerance ?? SURFACE_FIT_TOLERANCE;
        this._maxSweeps = options.maxSweeps ?? SURFACE_FIT_MAX_SWEEPS;
        this.vertices = options.vertices ?? Int32Array.from({ length: rig.vertexCount }, (_, i) => i);
        this.diagonal = BoundingDiagonal(rig.restPositions);
        const b = rig.boneCount;
        this.rotations = new Float64Array(4 * b);
        this.translations = new Float64Array(3 * b);
        for (let j = 0; j < b; j++) this.rotations[4 * j + 3] = 1;
        this._order = parentsFirst(rig.boneParents, b);
        const s = this.vertices.length;
        this._x = new Float64Array(3 * s);
        this._p = new Float64Array(3 * s);
        const counts = new Int32Array(b + 1);
        const inf = rig.influences;
        for (let i = 0; i < s; i++) {
            const v = this.vertices[i];
            this._x.set(rig.restPositions.subarray(3 * v, 3 * v + 3), 3 * i);
            for (let k = 0; k < inf; k++) if (rig.boneWeights[v * inf + k] > 0) counts[rig.boneIndices[v * inf + k] + 1]++;
        }
        for (let j = 0; j < b; j++) counts[j + 1] += counts[j];
        this._start = counts.slice();
        this._sample = new Int32Array(counts[b]);
        this._weight = new Float64Array(counts[b]);
        const fill = counts.slice();
        this._vb = new Int32Array(s * inf).fill(-1);
        this._vw = new Float64Array(s * inf);
        for (let i = 0; i < s; i++) {
            const v = this.vertices[i];
            let sum = 0;
            for (let k = 0; k < inf; k++) sum += Math.max(0, rig.boneWeights[v * inf + k]);
            for (let k = 0; k < inf; k++) {
                const w = rig.boneWeights[v * inf + k];
                if (!(w > 0)) continue;
                const j = rig.boneIndices[v * inf + k];
                this._sample[fill[j]] = i;
                this._weight[fill[j]] = w / sum;
                this._vb[i * inf + k] = j;
                this._vw[i * inf + k] = w / sum;
                fill[j]++;
            }
        }
        // Depth-first order of the bones: the subtree of bone j is _euler[_tin[j] .. _tout[j]).
        const children: number[][] = Array.from({ length: b }, () => []);
        const roots: number[] = [];
        for (const j of this._order) (rig.boneParents[j] >= 0 ? children[rig.boneParents[j]] : roots).push(j);
        this._euler = new Int32Array(b);
        this._tin = new Int32Array(b);
        this._tout = new Int32Array(b);
        let at = 0;
        const walk = (j: number): void => {
            this._tin[j] = at;
            this._euler[at++] = j;
            for (const c of children[j]) walk(c);
            this._tout[j] = at;
        };
        for (const r of roots) walk(r);
        const subLists: Array<Map<number, number>> = Array.from({ length: b }, () => new Map());
        if (this._rotationOnly) {
            for (let i = 0; i < s; i++) {
                for (let k = 0; k < inf; k++) {
                    const j = this._vb[i * inf + k];
                    if (j < 0) continue;
                    for (let a = j; a >= 0; a = rig.boneParents[a]) subLists[a].set(i, (subLists[a].get(i) ?? 0) + this._vw[i * inf + k]);
                }
            }
        }
        const subCounts = new Int32Array(b + 1);
        for (let j = 0; j < b; j++) subCounts[j + 1] = subCounts[j] + subLists[j].size;
        this._subStart = subCounts;
        this._subSample = new Int32Array(subCounts[b]);
        this._subWeight = new Float64Array(subCounts[b]);
        let longest = 0;
        for (let j = 0; j < b; j++) {
            let e = subCounts[j];
            for (const [i, w] of subLists[j]) {
                this._subSample[e] = i;
                this._subWeight[e++] = w;
            }
            longest = Math.max(longest, subLists[j].size);
        }
        this._subOld = new Float64Array(3 * longest);
        this._free = this._rotationOnly ? new SurfaceFitSolver(rig, { ...options, rotationOnly: false, vertices: this.vertices }) : null;
    }

    /** Rotation-only: sets every rotation from `free` and every translation from the pins, parents first. */
    private _projectFrom(free: SurfaceFitSolver): void {
        const bp = this.rig.boneRestPositions;
        for (let oi = 0; oi < this._order.length; oi++) {
            const j = this._order[oi];
            const parent = this.rig.boneParents[j];
            this.rotations.set(free.rotations.subarray(4 * j, 4 * j + 4), 4 * j);
            if (parent < 0) {
                this.translations.set(free.translations.subarray(3 * j, 3 * j + 3), 3 * j);
                continue;
            }
            // t_j = T_parent(p_j) - R_j p_j
            const px = bp[3 * j];
            const py = bp[3 * j + 1];
            const pz = bp[3 * j + 2];
            const ix = this._applyX(parent, px, py, pz);
            const iy = this._applyY(parent, px, py, pz);
            const iz = this._applyZ(parent, px, py, pz);
            // (translation zeroed first, so that _apply gives R_j p_j)
            this.translations[3 * j] = 0;
            this.translations[3 * j + 1] = 0;
            this.translations[3 * j + 2] = 0;
            this.translations[3 * j] = ix - this._applyX(j, px, py, pz);
            this.translations[3 * j + 1] = iy - this._applyY(j, px, py, pz);
            this.translations[3 * j + 2] = iz - this._applyZ(j, px, py, pz);
        }
    }

    /** Puts every bone back at rest (identity transforms). */
    public reset(): void {
        this._free?.reset();
        this.rotations.fill(0);
        this.translations.fill(0);
        for (let j = 0; j < this.rig.boneCount; j++) this.rotations[4 * j + 3] = 1;
    }

    /**
     * Fits the current frame: `targets` holds the wanted position of every fitted vertex (x y z per
     * entry of {@link vertices}, world space, metres). Starts from the current transforms and
     * leaves the fitted ones in {@link rotations} / {@link translations}.
     */
    public solveFrame(targets: Float64Array): ISurfaceFitFrameResult {
        const s = this.vertices.length;
        let rms = Math.sqrt(this._predict(targets) / Math.max(1, s));
        let sweeps = 0;
        const free = this._free;
        if (free) {
            // Rotation-only sweeps converge slowly from far away (parent and child rotations are
            // coupled): start from the better of the previous frame and the free fit of this one
            // with its rotations kept and its joints put back where the parents carry them.
            sweeps += free.solveFrame(targets).sweeps;
            const keepR = this.rotations.slice();
            const keepT = this.translations.slice();
            this._projectFrom(free);
            const projected = Math.sqrt(this._predict(targets) / Math.max(1, s));
            if (projected < rms) {
                rms = projected;
            } else {
                this.rotations.set(keepR);
                this.translations.set(keepT);
                this._predict(targets);
            }
        }
        const stop = this._tolerance * this.diagonal;
        while (sweeps < this._maxSweeps) {
            if (this._rotationOnly) this._sweepRotationOnly(targets);
            else this._sweep(targets);
            sweeps++;
            const next = Math.sqrt(this._predict(targets) / Math.max(1, s));
            const gain = rms - next;
            rms = next;
            if (gain < stop) break;
        }
        return { sweeps, rms };
    }

    /**
     * Skins rest positions (x y z each, world space) with the current transforms: `sum_j w_j T_j(x)`
     * for a vertex of the rig, with its own influences. Writes `out` (3 numbers per vertex of the rig).
     */
    public skinRigToRef(out: Float64Array): Float64Array {
        const rig = this.rig;
        const inf = rig.influences;
        for (let v = 0; v < rig.vertexCount; v++) {
            const x = rig.restPositions[3 * v];
            const y = rig.restPositions[3 * v + 1];
            const z = rig.restPositions[3 * v + 2];
            let ox = 0;
            let oy = 0;
            let oz = 0;
            let sum = 0;
            for (let k = 0; k < inf; k++) {
                const w = rig.boneWeights[v * inf + k];
                if (!(w > 0)) continue;
                sum += w;
                const j = rig.boneIndices[v * inf + k];
                ox += w * this._applyX(j, x, y, z);
                oy += w * this._applyY(j, x, y, z);
                oz += w * this._applyZ(j, x, y, z);
            }
            const k = sum > 0 ? 1 / sum : 0;
            out[3 * v] = sum > 0 ? ox * k : x;
            out[3 * v + 1] = sum > 0 ? oy * k : y;
            out[3 * v + 2] = sum > 0 ? oz * k : z;
        }
        return out;
    }

    /** Recomputes the prediction of every fitted vertex; returns the sum of squared residuals. */
    private _predict(targets: Float64Array): number {
        const p = this._p;
        const x = this._x;
        p.fill(0);
        const b = this.rig.boneCount;
        for (let j = 0; j < b; j++) {
            for (let e = this._start[j]; e < this._start[j + 1]; e++) {
                const i = this._sample[e];
                const w = this._weight[e];
                const i3 = 3 * i;
                p[i3] += w * this._applyX(j, x[i3], x[i3 + 1], x[i3 + 2]);
                p[i3 + 1] += w * this._applyY(j, x[i3], x[i3 + 1], x[i3 + 2]);
                p[i3 + 2] += w * this._applyZ(j, x[i3], x[i3 + 1], x[i3 + 2]);
            }
        }
        let e2 = 0;
        for (let i = 0; i < p.length; i++) {
            const d = p[i] - targets[i];
            e2 += d * d;
        }
        return e2;
    }

    private _sweep(targets: Float64Array): void {
        const rig = this.rig;
        const p = this._p;
        const x = this._x;
        const fit = this._fit;
        for (let oi = 0; oi < this._order.length; oi++) {
            const j = this._order[oi];
            const parent = rig.boneParents[j];
            const e0 = this._start[j];
            const e1 = this._start[j + 1];
            if (e0 === e1) {
                // No vertex: the bone follows its parent rigidly (or stays as it is at the top).
                if (parent >= 0) {
                    this.rotations.copyWithin(4 * j, 4 * parent, 4 * parent + 4);
                    this.translations.copyWithin(3 * j, 3 * parent, 3 * parent + 3);
                }
                continue;
            }
            fit.reset();
            for (let e = e0; e < e1; e++) {
                const i3 = 3 * this._sample[e];
                const w = this._weight[e];
                const xx = x[i3];
                const xy = x[i3 + 1];
                const xz = x[i3 + 2];
                // What this bone must supply: target minus every other bone's contribution, per unit weight.
                const ox = p[i3] - w * this._applyX(j, xx, xy, xz);
                const oy = p[i3 + 1] - w * this._applyY(j, xx, xy, xz);
                const oz = p[i3 + 2] - w * this._applyZ(j, xx, xy, xz);
                fit.add(xx, xy, xz, (targets[i3] - ox) / w, (targets[i3 + 1] - oy) / w, (targets[i3 + 2] - oz) / w, w * w);
            }
            const r = this.rotations;
            this._prior.set(r[4 * j], r[4 * j + 1], r[4 * j + 2], r[4 * j + 3]);
            fit.solveToRef(this._q, this._t, this._prior);
            // Take the old contribution off, store the new transform, put the new one on.
            for (let e = e0; e < e1; e++) {
                const i3 = 3 * this._sample[e];
                const w = this._weight[e];
                p[i3] -= w * this._applyX(j, x[i3], x[i3 + 1], x[i3 + 2]);
                p[i3 + 1] -= w * this._applyY(j, x[i3], x[i3 + 1], x[i3 + 2]);
                p[i3 + 2] -= w * this._applyZ(j, x[i3], x[i3 + 1], x[i3 + 2]);
            }
            r[4 * j] = this._q.x;
            r[4 * j + 1] = this._q.y;
            r[4 * j + 2] = this._q.z;
            r[4 * j + 3] = this._q.w;
            this.translations[3 * j] = this._t.x;
            this.translations[3 * j + 1] = this._t.y;
            this.translations[3 * j + 2] = this._t.z;
            for (let e = e0; e < e1; e++) {
                const i3 = 3 * this._sample[e];
                const w = this._weight[e];
                p[i3] += w * this._applyX(j, x[i3], x[i3 + 1], x[i3 + 2]);
                p[i3 + 1] += w * this._applyY(j, x[i3], x[i3 + 1], x[i3 + 2]);
                p[i3 + 2] += w * this._applyZ(j, x[i3], x[i3 + 1], x[i3 + 2]);
            }
        }
    }

    /**
     * One rotation-only sweep. The unknowns are the joints' rotations (forward kinematics), so a
     * bone's update turns its whole subtree rigidly about the joint (held where the parent puts
     * it): vertex v's subtree part `A_v = sum_{k in subtree} w_vk T_k(x_v)` moves to
     * `W_v * D(A_v / W_v)`, with `W_v` the subtree's total weight on v and `D` the rotation about
     * the joint's current position `c`. Fitting `D` to `(y_v - (P_v - A_v)) / W_v`
     * with weights `W_v^2` is the exact minimizer over that rotation, so no sweep makes the
     * residual worse. The top bone's update is a free rigid motion of the whole body.
     */
    private _sweepRotationOnly(targets: Float64Array): void {
        const rig = this.rig;
        const p = this._p;
        const fit = this._fit;
        const old = this._subOld;
        const r = this.rotations;
        const tr = this.translations;
        for (let oi = 0; oi < this._order.length; oi++) {
            const j = this._order[oi];
            const e0 = this._subStart[j];
            const e1 = this._subStart[j + 1];
            if (e0 === e1) continue;
            const lo = this._tin[j];
            const hi = this._tout[j];
            fit.reset();
            for (let e = e0; e < e1; e++) {
                const i = this._subSample[e];
                const wsub = this._subWeight[e];
                const i3 = 3 * i;
                const o3 = 3 * (e - e0);
                this._subtreePartInto(i, lo, hi, old, o3);
                const ax = old[o3];
                const ay = old[o3 + 1];
                const az = old[o3 + 2];
                fit.add(
                    ax / wsub,
                    ay / wsub,
                    az / wsub,
                    (targets[i3] - (p[i3] - ax)) / wsub,
                    (targets[i3 + 1] - (p[i3 + 1] - ay)) / wsub,
                    (targets[i3 + 2] - (p[i3 + 2] - az)) / wsub,
                    wsub * wsub,
                );
            }
            if (rig.boneParents[j] >= 0) {
                // The joint stays where it is now: D turns about it.
                const bp = rig.boneRestPositions;
                this._pivot.set(
                    this._applyX(j, bp[3 * j], bp[3 * j + 1], bp[3 * j + 2]),
                    this._applyY(j, bp[3 * j], bp[3 * j + 1], bp[3 * j + 2]),
                    this._applyZ(j, bp[3 * j], bp[3 * j + 1], bp[3 * j + 2]),
                );
                fit.solveToRef(this._q, this._t, this._identity, this._pivot, this._pivot);
            } else {
                fit.solveToRef(this._q, this._t, this._identity);
            }
            // T_k <- D o T_k for the whole subtree: R_k = R_D R_k, t_k = R_D t_k + t_D.
            const q = this._q;
            for (let at = lo; at < hi; at++) {
                const k = this._euler[at];
                this._prior.set(r[4 * k], r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]);
                q.multiplyToRef(this._prior, this._prior);
                r[4 * k] = this._prior.x;
                r[4 * k + 1] = this._prior.y;
                r[4 * k + 2] = this._prior.z;
                r[4 * k + 3] = this._prior.w;
                this._image
                    .set(tr[3 * k], tr[3 * k + 1], tr[3 * k + 2])
                    .applyRotationQuaternionInPlace(q)
                    .addInPlace(this._t);
                tr[3 * k] = this._image.x;
                tr[3 * k + 1] = this._image.y;
                tr[3 * k + 2] = this._image.z;
            }
            // P_v += A_v(new) - A_v(old)
            const now = this._subNow;
            for (let e = e0; e < e1; e++) {
                const i3 = 3 * this._subSample[e];
                const o3 = 3 * (e - e0);
                this._subtreePartInto(this._subSample[e], lo, hi, now, 0);
                p[i3] += now[0] - old[o3];
                p[i3 + 1] += now[1] - old[o3 + 1];
                p[i3 + 2] += now[2] - old[o3 + 2];
            }
        }
    }

    /**
     * The part of fitted vertex i's skinned position that the bones of one subtree give (Euler-tour
     * range [lo, hi)), `sum_k w_ik T_k(x_i)`, into `out[at..at + 2]`.
     */
    private _subtreePartInto(i: number, lo: number, hi: number, out: Float64Array, at: number): void {
        const inf = this.rig.influences;
        const x = this._x;
        const i3 = 3 * i;
        let ax = 0;
        let ay = 0;
        let az = 0;
        for (let k = 0; k < inf; k++) {
            const bk = this._vb[i * inf + k];
            if (bk < 0 || this._tin[bk] < lo || this._tin[bk] >= hi) continue;
            const w = this._vw[i * inf + k];
            ax += w * this._applyX(bk, x[i3], x[i3 + 1], x[i3 + 2]);
            ay += w * this._applyY(bk, x[i3], x[i3 + 1], x[i3 + 2]);
            az += w * this._applyZ(bk, x[i3], x[i3 + 1], x[i3 + 2]);
        }
        out[at] = ax;
        out[at + 1] = ay;
        out[at + 2] = az;
    }

    // T_j(x) = R_j x + t_j, one coordinate at a time (no allocation). Same formula as Babylon's applyRotationQuaternionToRef.
    private _applyX(j: number, x: number, y: number, z: number): number {
        const r = this.rotations;
        const qx = r[4 * j];
        const qy = r[4 * j + 1];
        const qz = r[4 * j + 2];
        const qw = r[4 * j + 3];
        const tx = 2 * (qy * z - qz * y);
        const ty = 2 * (qz * x - qx * z);
        const tz = 2 * (qx * y - qy * x);
        return x + qw * tx + qy * tz - qz * ty + this.translations[3 * j];
    }

    private _applyY(j: number, x: number, y: number, z: number): number {
        const r = this.rotations;
        const qx = r[4 * j];
        const qy = r[4 * j + 1];
        const qz = r[4 * j + 2];
        const qw = r[4 * j + 3];
        const tx = 2 * (qy * z - qz * y);
        const tz = 2 * (qx * y - qy * x);
        return y + qw * (2 * (qz * x - qx * z)) + qz * tx - qx * tz + this.translations[3 * j + 1];
    }

    private _applyZ(j: number, x: number, y: number, z: number): number {
        const r = this.rotations;
        const qx = r[4 * j];
        const qy = r[4 * j + 1];
        const qz = r[4 * j + 2];
        const qw = r[4 * j + 3];
        const tx = 2 * (qy * z - qz * y);
        const ty = 2 * (qz * x - qx * z);
        return z + qw * (2 * (qx * y - qy * x)) + qx * ty - qy * tx + this.translations[3 * j + 2];
    }
}

/** Bone indices with every parent before its children. */
function parentsFirst(parents: ArrayLike<number>, n: number): Int32Array {
    const out: number[] = [];
    const state = new Uint8Array(n);
    const visit = (j: number): void => {
        if (state[j] === 2) return;
        if (state[j] === 1) return; // a cycle: keep the order found so far
        state[j] = 1;
        const p = parents[j];
        if (p >= 0 && p < n) visit(p);
        state[j] = 2;
        out.push(j);
    };
    for (let j = 0; j < n; j++) visit(j);
    return Int32Array.from(out);
}
