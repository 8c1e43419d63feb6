import { QuaternionNormalizeInPlace } from "../math/hotMath.js";
import type { ChainIKSolver } from "./chainIK.js";

/** Share of the way a stalled, clamped joint eases toward its preferred rotation in the first escape. */
const ESCAPE_EASE = 0.5;
/** The ease of the first escape and of the second (all the way), by the escape's number, in an array: a module constant joined with a number would be boxed. */
const EASE_AMOUNTS = new Float64Array([ESCAPE_EASE, 1]);
/** How far an escape kicks each joint across the line to the target, radians. */
const ESCAPE_KICK = 0.3;

/**
 * A way out of a stall of `solver`, the `k`-th of its solve (on the accepted pose `_local`, frames in
 * `_wq`/`_p`): first the joints the last try clamped (all if none) ease {@link ESCAPE_EASE} of
 * the way toward their preferred rotation (a knee eased forward); then every joint restarts
 * from its preferred rotation; after that, or when neither moves anything, each joint is
 * kicked by {@link ESCAPE_KICK} across the line to the target (a straight chain aimed along its
 * own line has no gradient), its limit applied.
 * @param solver the chain solver in its solve: its accepted pose is changed
 * @param k how many ways out this solve took before (0: the clamped joints eased, 1: the preferred rotations, then kicks on alternate sides)
 */
export function EscapeChainIKStall(solver: ChainIKSolver, k: number): void {
    const n = solver._n;
    let anyHit = false;
    for (let i = 0; i < n - 1; i++) if (solver._hit[i] && solver.stiffness[i] > 0) anyHit = true;
    let moved = 0;
    // Kicks alternate their side, so that a second one may find the other way round.
    const kick = ESCAPE_KICK * ((k & 1) === 0 ? 1 : -1);
    if (k < 2) {
        const amount = EASE_AMOUNTS[k];
        for (let i = 0; i < n - 1; i++) {
            if (!(solver.stiffness[i] > 0)) continue;
            if (k === 0 && anyHit && !solver._hit[i]) continue;
            const a = solver._local[i];
            const b = solver.preferred[i];
            const dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
            const sign = dot < 0 ? -1 : 1;
            if (dot * sign > 1 - 1e-12) continue;
            a.x += (sign * b.x - a.x) * amount;
            a.y += (sign * b.y - a.y) * amount;
            a.z += (sign * b.z - a.z) * amount;
            a.w += (sign * b.w - a.w) * amount;
            QuaternionNormalizeInPlace(a);
            moved++;
        }
        if (moved > 0) return;
    }
    const p = solver._p;
    const end = p[n - 1];
    const t = solver._target;
    const ex = t.x - end.x;
    const ey = t.y - end.y;
    const ez = t.z - end.z;
    const q = solver._q;
    const v = solver._v;
    for (let i = 0; i < n - 1; i++) {
        if (!(solver.stiffness[i] > 0)) continue;
        const rx = end.x - p[i].x;
        const ry = end.y - p[i].y;
        const rz = end.z - p[i].z;
        // axis = r × e, or r × (the world axis r leans on least) when e is along r
        let ax = ry * ez - rz * ey;
        let ay = rz * ex - rx * ez;
        let az = rx * ey - ry * ex;
        let l = Math.sqrt(ax * ax + ay * ay + az * az);
        if (!(l > 1e-9)) {
            const mx = Math.abs(rx);
            const my = Math.abs(ry);
            const mz = Math.abs(rz);
            if (mx <= my && mx <= mz) {
                ax = 0;
                ay = rz;
                az = -ry;
            } else if (my <= mz) {
                ax = -rz;
                ay = 0;
                az = rx;
            } else {
                ax = ry;
                ay = -rx;
                az = 0;
            }
            l = Math.sqrt(ax * ax + ay * ay + az * az);
            if (!(l > 1e-12)) continue;
        }
        v.x = ax / l;
        v.y = ay / l;
        v.z = az / l;
        solver._toParentFrame(i);
        const s = Math.sin(kick * 0.5);
        q.x = v.x * s;
        q.y = v.y * s;
        q.z = v.z * s;
        q.w = Math.cos(kick * 0.5);
        solver._turnJoint(i, solver._local[i]);
    }
}
