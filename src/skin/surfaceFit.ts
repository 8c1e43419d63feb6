import { BoundingDiagonal, type ISurfaceFitRig } from "./fitRig.js";
import { SURFACE_FIT_MAX_SWEEPS, SURFACE_FIT_TOLERANCE, type ISurfaceFitFrameResult, type ISurfaceFitOptions } from "./surfaceFitOptions.js";
import { SweepSurfaceFit, SweepSurfaceFitRotationOnly } from "./surfaceFitSweeps.js";

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
 *
 * The sweeps themselves are in surfaceFitSweeps.ts; the options and their defaults in
 * surfaceFitOptions.ts.
 */

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
    // The working state below marked internal is shared with the sweeps (surfaceFitSweeps.ts):
    // free functions of the solver, not part of its API.
    /** @internal The bones, parents first. */
    public readonly _order: Int32Array;
    // Per bone, its fitted vertices (positions in `vertices`) and weights, CSR.
    /** @internal Per bone, where its entries start in `_sample` / `_weight` (boneCount + 1 numbers). */
    public readonly _start: Int32Array;
    /** @internal Per entry, the fitted vertex (its position in `vertices`). */
    public readonly _sample: Int32Array;
    /** @internal Per entry, the bone's normalized weight on that vertex. */
    public readonly _weight: Float64Array;
    /** @internal Rest positions of the fitted vertices, x y z each. */
    public readonly _x: Float64Array;
    /** @internal Current prediction of the fitted vertices (their skinned positions), x y z each. */
    public readonly _p: Float64Array;
    // Rotation-only: bones in depth-first order (a subtree is a range), each bone's range, and per
    // bone the fitted vertices its subtree moves with their summed subtree weight (CSR).
    /** @internal Rotation-only: the bones in depth-first order. */
    public readonly _euler: Int32Array;
    /** @internal Rotation-only: per bone, where its subtree starts in `_euler`. */
    public readonly _tin: Int32Array;
    /** @internal Rotation-only: per bone, where its subtree ends in `_euler` (exclusive). */
    public readonly _tout: Int32Array;
    /** @internal Rotation-only: per bone, where its entries start in `_subSample` / `_subWeight` (boneCount + 1 numbers). */
    public readonly _subStart: Int32Array;
    /** @internal Rotation-only: per entry, a fitted vertex the bone's subtree moves. */
    public readonly _subSample: Int32Array;
    /** @internal Rotation-only: per entry, the subtree's summed weight on that vertex. */
    public readonly _subWeight: Float64Array;
    /** @internal Rotation-only scratch: the subtree parts of one bone's vertices before its update, x y z each. */
    public readonly _subOld: Float64Array;
    // Influences of every fitted vertex (normalized weights).
    /** @internal Bone of every influence of every fitted vertex (`rig.influences` each; -1 for none). */
    public readonly _vb: Int32Array;
    /** @internal Normalized weight of every influence of every fitted vertex. */
    public readonly _vw: Float64Array;
    // Rotation-only: a free solver on the same vertices, the start of every frame.
    private readonly _free: SurfaceFitSolver | null;

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
            if (this._rotationOnly) SweepSurfaceFitRotationOnly(this, targets);
            else SweepSurfaceFit(this, targets);
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

    /**
     * @internal x of `T_j(x) = R_j x + t_j` (bind space, metres): one coordinate at a time (no
     * allocation). Same formula as Babylon's applyRotationQuaternionToRef.
     */
    public _applyX(j: number, x: number, y: number, z: number): number {
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

    /** @internal y of `T_j(x)` (see `_applyX`). */
    public _applyY(j: number, x: number, y: number, z: number): number {
        const r = this.rotations;
        const qx = r[4 * j];
        const qy = r[4 * j + 1];
        const qz = r[4 * j + 2];
        const qw = r[4 * j + 3];
        const tx = 2 * (qy * z - qz * y);
        const tz = 2 * (qx * y - qy * x);
        return y + qw * (2 * (qz * x - qx * z)) + qz * tx - qx * tz + this.translations[3 * j + 1];
    }

    /** @internal z of `T_j(x)` (see `_applyX`). */
    public _applyZ(j: number, x: number, y: number, z: number): number {
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
