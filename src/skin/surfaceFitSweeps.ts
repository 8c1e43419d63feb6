import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { WeightedRigidFit } from "../math/hornFit.js";
import type { SurfaceFitSolver } from "./surfaceFit.js";

// The coordinate-descent sweeps of a `SurfaceFitSolver` (the method is in its file's overview):
// one pass over the bones, parents first, each bone's transform (or, rotation-only, its joint's
// rotation) set to the exact minimizer of the residual with every other one held, and the
// solver's prediction of the fitted vertices kept up to date. Free functions of the solver: they
// read and write its working state (marked internal) where its methods did.

// Scratch shared by every solver (a sweep runs to its end before another starts).
const fit = new WeightedRigidFit();
const q = new Quaternion();
const prior = new Quaternion();
const t = new Vector3();
const pivot = new Vector3();
const image = new Vector3();
const identity = Quaternion.Identity();
/** One vertex's subtree part after a rotation-only update ({@link subtreePartInto}). */
const subNow = new Float64Array(3);

/**
 * One sweep with free bones: for each bone, parents first, the other bones' current contributions
 * are taken off each vertex it moves, and its transform becomes the weighted rigid fit of the rest
 * positions `x_v` onto `(y_v - others_v) / w_vj` with weights `w_vj^2`, the exact minimizer over
 * that transform alone. A bone with no fitted vertex follows its parent rigidly (or stays as it is
 * at the top). Updates `solver.rotations`, `solver.translations` and the prediction `solver._p`.
 * Allocation-free.
 * @param solver the solver (its transforms and prediction are updated)
 * @param targets the wanted position of every fitted vertex, x y z each (world space, metres)
 */
export function SweepSurfaceFit(solver: SurfaceFitSolver, targets: Float64Array): void {
    const rig = solver.rig;
    const p = solver._p;
    const x = solver._x;
    for (let oi = 0; oi < solver._order.length; oi++) {
        const j = solver._order[oi];
        const parent = rig.boneParents[j];
        const e0 = solver._start[j];
        const e1 = solver._start[j + 1];
        if (e0 === e1) {
            // No vertex: the bone follows its parent rigidly (or stays as it is at the top).
            if (parent >= 0) {
                solver.rotations.copyWithin(4 * j, 4 * parent, 4 * parent + 4);
                solver.translations.copyWithin(3 * j, 3 * parent, 3 * parent + 3);
            }
            continue;
        }
        fit.reset();
        for (let e = e0; e < e1; e++) {
            const i3 = 3 * solver._sample[e];
            const w = solver._weight[e];
            const xx = x[i3];
            const xy = x[i3 + 1];
            const xz = x[i3 + 2];
            // What this bone must supply: target minus every other bone's contribution, per unit weight.
            const ox = p[i3] - w * solver._applyX(j, xx, xy, xz);
            const oy = p[i3 + 1] - w * solver._applyY(j, xx, xy, xz);
            const oz = p[i3 + 2] - w * solver._applyZ(j, xx, xy, xz);
            fit.add(xx, xy, xz, (targets[i3] - ox) / w, (targets[i3 + 1] - oy) / w, (targets[i3 + 2] - oz) / w, w * w);
        }
        const r = solver.rotations;
        prior.set(r[4 * j], r[4 * j + 1], r[4 * j + 2], r[4 * j + 3]);
        fit.solveToRef(q, t, prior);
        // Take the old contribution off, store the new transform, put the new one on.
        for (let e = e0; e < e1; e++) {
            const i3 = 3 * solver._sample[e];
            const w = solver._weight[e];
            p[i3] -= w * solver._applyX(j, x[i3], x[i3 + 1], x[i3 + 2]);
            p[i3 + 1] -= w * solver._applyY(j, x[i3], x[i3 + 1], x[i3 + 2]);
            p[i3 + 2] -= w * solver._applyZ(j, x[i3], x[i3 + 1], x[i3 + 2]);
        }
        r[4 * j] = q.x;
        r[4 * j + 1] = q.y;
        r[4 * j + 2] = q.z;
        r[4 * j + 3] = q.w;
        solver.translations[3 * j] = t.x;
        solver.translations[3 * j + 1] = t.y;
        solver.translations[3 * j + 2] = t.z;
        for (let e = e0; e < e1; e++) {
            const i3 = 3 * solver._sample[e];
            const w = solver._weight[e];
            p[i3] += w * solver._applyX(j, x[i3], x[i3 + 1], x[i3 + 2]);
            p[i3 + 1] += w * solver._applyY(j, x[i3], x[i3 + 1], x[i3 + 2]);
            p[i3 + 2] += w * solver._applyZ(j, x[i3], x[i3 + 1], x[i3 + 2]);
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
 * Updates `solver.rotations`, `solver.translations` and the prediction `solver._p`. Allocation-free.
 * @param solver the solver, made rotation-only (its transforms and prediction are updated)
 * @param targets the wanted position of every fitted vertex, x y z each (world space, metres)
 */
export function SweepSurfaceFitRotationOnly(solver: SurfaceFitSolver, targets: Float64Array): void {
    const rig = solver.rig;
    const p = solver._p;
    const old = solver._subOld;
    const r = solver.rotations;
    const tr = solver.translations;
    for (let oi = 0; oi < solver._order.length; oi++) {
        const j = solver._order[oi];
        const e0 = solver._subStart[j];
        const e1 = solver._subStart[j + 1];
        if (e0 === e1) continue;
        const lo = solver._tin[j];
        const hi = solver._tout[j];
        fit.reset();
        for (let e = e0; e < e1; e++) {
            const i = solver._subSample[e];
            const wsub = solver._subWeight[e];
            const i3 = 3 * i;
            const o3 = 3 * (e - e0);
            subtreePartInto(solver, i, lo, hi, old, o3);
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
            pivot.set(
                solver._applyX(j, bp[3 * j], bp[3 * j + 1], bp[3 * j + 2]),
                solver._applyY(j, bp[3 * j], bp[3 * j + 1], bp[3 * j + 2]),
                solver._applyZ(j, bp[3 * j], bp[3 * j + 1], bp[3 * j + 2]),
            );
            fit.solveToRef(q, t, identity, pivot, pivot);
        } else {
            fit.solveToRef(q, t, identity);
        }
        // T_k <- D o T_k for the whole subtree: R_k = R_D R_k, t_k = R_D t_k + t_D.
        for (let at = lo; at < hi; at++) {
            const k = solver._euler[at];
            prior.set(r[4 * k], r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]);
            q.multiplyToRef(prior, prior);
            r[4 * k] = prior.x;
            r[4 * k + 1] = prior.y;
            r[4 * k + 2] = prior.z;
            r[4 * k + 3] = prior.w;
            image
                .set(tr[3 * k], tr[3 * k + 1], tr[3 * k + 2])
                .applyRotationQuaternionInPlace(q)
                .addInPlace(t);
            tr[3 * k] = image.x;
            tr[3 * k + 1] = image.y;
            tr[3 * k + 2] = image.z;
        }
        // P_v += A_v(new) - A_v(old)
        const now = subNow;
        for (let e = e0; e < e1; e++) {
            const i3 = 3 * solver._subSample[e];
            const o3 = 3 * (e - e0);
            subtreePartInto(solver, solver._subSample[e], lo, hi, now, 0);
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
function subtreePartInto(solver: SurfaceFitSolver, i: number, lo: number, hi: number, out: Float64Array, at: number): void {
    const inf = solver.rig.influences;
    const x = solver._x;
    const i3 = 3 * i;
    let ax = 0;
    let ay = 0;
    let az = 0;
    for (let k = 0; k < inf; k++) {
        const bk = solver._vb[i * inf + k];
        if (bk < 0 || solver._tin[bk] < lo || solver._tin[bk] >= hi) continue;
        const w = solver._vw[i * inf + k];
        ax += w * solver._applyX(bk, x[i3], x[i3 + 1], x[i3 + 2]);
        ay += w * solver._applyY(bk, x[i3], x[i3 + 1], x[i3 + 2]);
        az += w * solver._applyZ(bk, x[i3], x[i3 + 1], x[i3 + 2]);
    }
    out[at] = ax;
    out[at + 1] = ay;
    out[at + 2] = az;
}
