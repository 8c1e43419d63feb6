import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";

/**
 * How far outside an edge's plane a direction may lie and still count as inside (radians, as the
 * sine of the angle): rounding of a direction projected exactly onto an edge is ~1e-16, so a
 * clamped direction tests inside, and clamping it again leaves it untouched.
 */
export const SPHERICAL_POLYGON_INSIDE_EPSILON = 1e-9;

/** Below this length (unit vectors' cross products, sines) a direction is taken as a pole: its azimuth or its projection is undefined. */
const POLE_EPSILON = 1e-12;

/**
 * How much smaller than the largest inner cap {@link SphericalPolygon.innerCapCos}'s cap is
 * (radians): far more than rounding of a unit direction's dot products (~1e-15), so a direction it
 * passes is on every edge plane's inside side by the exact tests too.
 */
const INNER_CAP_MARGIN = 1e-7;

/** Bins of the pseudo-azimuth table that starts a sector's search (over the pseudo-azimuth's span of 4). */
const AZIMUTH_BINS = 64;

/**
 * A pseudo-azimuth of `(x, y)` (not both 0), written out where it is used: `t = |y| / (|x| + |y|)`,
 * `x >= 0 ? t : 2 - t`, negated for `y < 0`. It lies in [-2, 2] and increases with `atan2(y, x)`
 * (the same order, without trigonometry), so a sector found by it is the one the azimuth gives.
 * This is the readable form, used where the polygon is built.
 */
function pseudoAzimuth(x: number, y: number): number {
    const ax = x < 0 ? -x : x;
    const ay = y < 0 ? -y : y;
    const t = ay / (ax + ay);
    const a = x >= 0 ? t : 2 - t;
    return y < 0 ? -a : a;
}

/**
 * A region of directions on the unit sphere bounded by great-circle arcs, star-shaped about a
 * centre direction: its vertices are kept in order of azimuth about the centre, and the region is
 * the union of the spherical triangles (centre, vertex k, vertex k + 1). A convex polygon is one
 * case; a region larger than a hemisphere (a shoulder's reach) or with a corner on its centre's
 * side (a knee that may not bend backwards) is another.
 *
 * Tests and clamps are allocation-free: {@link containsDirection} finds the direction's sector by
 * its azimuth about the centre and tests it against that sector's edge plane (through the origin);
 * {@link clampDirectionToRef} projects a direction outside onto every edge (its great circle,
 * clamped to the arc) and every vertex and keeps the candidate nearest to it (the least angle
 * change). Any frame: the caller's (a bone's canonical frame for joint limits).
 *
 * Per-frame path (joint limits test every held bone every frame): the sector the last test found
 * is tried first (two plane tests), else the azimuth is a pseudo-azimuth (no `atan2`, the same
 * order) looked up in a table of bins; the clamp projects only onto the
 * edges the direction lies outside of (the nearest point of an edge's inside is never nearer than
 * the nearest vertex or outside edge) and normalizes the winner only; the math is written out
 * (no number crosses a call, which V8 may box). The readable reference is
 * `test/math/sphericalPolygon.test.ts`'s `ReferenceClamp` (azimuth by `atan2`, every edge).
 */
export class SphericalPolygon {
    /** Number of vertices (at least 3). */
    public readonly vertexCount: number;
    /** Vertices, unit directions, x y z per vertex, in order of increasing azimuth about {@link center}. */
    public readonly vertices: Float64Array;
    /** The centre direction (unit) the polygon is star-shaped about: strictly inside. */
    public readonly center: Float64Array;
    /** Pseudo-azimuth of every vertex about the centre (see `pseudoAzimuth`), increasing. */
    private readonly _azimuth: Float64Array;
    /** Per bin of the pseudo-azimuth (bin `b` starts at `-2 + 4 b / AZIMUTH_BINS`): the last vertex at or before the bin's start, 0 when none. */
    private readonly _bins: Int32Array;
    /** Unit normal of every edge's plane (vertex k to k + 1), the centre on its positive side. */
    private readonly _normal: Float64Array;
    /**
     * Per sector k, 6 numbers side by side (one read for the test): `c x v_k` (the plane through the
     * centre and vertex k, positive on the side of increasing azimuth) and the edge's normal.
     */
    private readonly _sectors: Float64Array;
    /** The sector the last test found: tried first (a bone moves little between tests). */
    private _hint = 0;
    /** Two unit vectors across the centre: azimuth 0 and pi/2. */
    private readonly _e1: Float64Array;
    private readonly _e2: Float64Array;
    /** Scratch of the clamp (best candidate x y z). */
    private readonly _best = new Float64Array(3);
    /** Scratch of {@link boundaryAngleTowards}. */
    private readonly _reach = new Float64Array(1);
    /**
     * The cosine of the angular radius of a cap about {@link center} that lies inside the polygon
     * (a little smaller than the largest: its radius is the least angle from the centre to an
     * edge's great circle, less `INNER_CAP_MARGIN`): a unit direction `d` with
     * `d . center >= innerCapCos` is inside, whatever {@link containsDirection}'s sector search
     * says (every edge plane has it on its inside side). A caller may test this first, one dot
     * product, without touching the polygon's tables.
     */
    public readonly innerCapCos: number;

    private constructor(vertices: Float64Array, center: Float64Array, azimuth: Float64Array, normal: Float64Array, e1: Float64Array, e2: Float64Array) {
        this.vertexCount = azimuth.length;
        this.vertices = vertices;
        this.center = center;
        this._azimuth = azimuth;
        const bins = new Int32Array(AZIMUTH_BINS);
        for (let b = 0, k = 0; b < AZIMUTH_BINS; b++) {
            const start = -2 + (4 * b) / AZIMUTH_BINS;
            while (k + 1 < azimuth.length && azimuth[k + 1] <= start) k++;
            bins[b] = k;
        }
        this._bins = bins;
        this._normal = normal;
        const n = azimuth.length;
        this._sectors = new Float64Array(6 * n);
        for (let k = 0; k < n; k++) {
            const vx = vertices[3 * k];
            const vy = vertices[3 * k + 1];
            const vz = vertices[3 * k + 2];
            this._sectors[6 * k] = center[1] * vz - center[2] * vy;
            this._sectors[6 * k + 1] = center[2] * vx - center[0] * vz;
            this._sectors[6 * k + 2] = center[0] * vy - center[1] * vx;
            this._sectors[6 * k + 3] = normal[3 * k];
            this._sectors[6 * k + 4] = normal[3 * k + 1];
            this._sectors[6 * k + 5] = normal[3 * k + 2];
        }
        this._e1 = e1;
        this._e2 = e2;
        // The least sine of the angle from the centre to an edge's great circle (each > 1e-9: the
        // builder checks it), as an angle, less the margin; its cosine.
        let least = 1;
        for (let k = 0; k < n; k++) {
            const s = center[0] * normal[3 * k] + center[1] * normal[3 * k + 1] + center[2] * normal[3 * k + 2];
            if (s < least) least = s;
        }
        const radius = Math.asin(least < 1 ? least : 1) - INNER_CAP_MARGIN;
        this.innerCapCos = radius > 0 ? Math.cos(radius) : 2;
    }

    /**
     * Builds a polygon from its vertex directions (x y z each, any length: normalized here; in any
     * order: sorted by azimuth about the centre) and its centre direction (default: the
     * normalized mean of the vertices). Throws a {@link HumanoidError} `BAD_OPTION` naming `what`
     * when the polygon is not star-shaped about the centre: fewer than 3 vertices, a vertex that
     * is not finite, at the centre or opposite it, two vertices at one azimuth, a gap of half a
     * turn or more between neighbours' azimuths, or the centre on or outside an edge.
     * @param directions vertex directions, 3 numbers each
     * @param center the centre direction (3 numbers), strictly inside
     * @param what the polygon's name, for messages
     */
    public static FromDirections(directions: ArrayLike<number>, center: ArrayLike<number> | null, what: string): SphericalPolygon {
        const n = Math.floor(directions.length / 3);
        if (n < 3 || directions.length !== 3 * n)
            throw new HumanoidError("BAD_OPTION", `${what}: a spherical polygon needs at least 3 vertices (got ${directions.length / 3})`);
        const v = new Float64Array(3 * n);
        for (let k = 0; k < n; k++) {
            const x = directions[3 * k];
            const y = directions[3 * k + 1];
            const z = directions[3 * k + 2];
            const l = Math.hypot(x, y, z);
            if (!(l > POLE_EPSILON && Number.isFinite(l))) throw new HumanoidError("BAD_OPTION", `${what}: vertex ${k} is not a direction (${x}, ${y}, ${z})`);
            v[3 * k] = x / l;
            v[3 * k + 1] = y / l;
            v[3 * k + 2] = z / l;
        }
        const c = new Float64Array(3);
        if (center) {
            c[0] = center[0];
            c[1] = center[1];
            c[2] = center[2];
        } else {
            for (let k = 0; k < n; k++) for (let i = 0; i < 3; i++) c[i] += v[3 * k + i];
        }
        const cl = Math.hypot(c[0], c[1], c[2]);
        if (!(cl > POLE_EPSILON && Number.isFinite(cl))) throw new HumanoidError("BAD_OPTION", `${what}: the polygon's centre is not a direction`);
        for (let i = 0; i < 3; i++) c[i] /= cl;
        // A frame across the centre.
        const e1 = new Float64Array(3);
        const e2 = new Float64Array(3);
        const ax = Math.abs(c[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
        // e1 = normalize(ax - (ax . c) c), e2 = c x e1
        const dot = ax[0] * c[0] + ax[1] * c[1] + ax[2] * c[2];
        for (let i = 0; i < 3; i++) e1[i] = ax[i] - dot * c[i];
        const el = Math.hypot(e1[0], e1[1], e1[2]);
        for (let i = 0; i < 3; i++) e1[i] /= el;
        e2[0] = c[1] * e1[2] - c[2] * e1[1];
        e2[1] = c[2] * e1[0] - c[0] * e1[2];
        e2[2] = c[0] * e1[1] - c[1] * e1[0];
        // Sort by azimuth about the centre (its pseudo-azimuth: the order the tests search in).
        const order = Array.from({ length: n }, (_, k) => {
            const x = v[3 * k] * e1[0] + v[3 * k + 1] * e1[1] + v[3 * k + 2] * e1[2];
            const y = v[3 * k] * e2[0] + v[3 * k + 1] * e2[1] + v[3 * k + 2] * e2[2];
            if (Math.hypot(x, y) < 1e-9) throw new HumanoidError("BAD_OPTION", `${what}: vertex ${k} is at the polygon's centre or opposite it`);
            return { k, a: Math.atan2(y, x), p: pseudoAzimuth(x, y) };
        }).sort((p, q) => p.p - q.p);
        const vertices = new Float64Array(3 * n);
        const azimuth = new Float64Array(n);
        order.forEach((o, i) => {
            vertices.set(v.subarray(3 * o.k, 3 * o.k + 3), 3 * i);
            azimuth[i] = o.p;
        });
        for (let i = 0; i < n; i++) {
            // The turn to the next vertex, in [0, 2 pi).
            const next = order[i + 1 < n ? i + 1 : 0].a;
            let gap = (next - order[i].a) % (2 * Math.PI);
            if (gap < 0) gap += 2 * Math.PI;
            if (!(gap > 1e-9) || (i + 1 < n && !(azimuth[i + 1] > azimuth[i])))
                throw new HumanoidError("BAD_OPTION", `${what}: two vertices lie at the same azimuth about the polygon's centre`);
            if (!(gap < Math.PI - 1e-6))
                throw new HumanoidError("BAD_OPTION", `${what}: neighbouring vertices are half a turn or more apart about the polygon's centre`);
        }
        const normal = new Float64Array(3 * n);
        for (let i = 0; i < n; i++) {
            const j = (i + 1) % n;
            const a0 = vertices[3 * i];
            const a1 = vertices[3 * i + 1];
            const a2 = vertices[3 * i + 2];
            const b0 = vertices[3 * j];
            const b1 = vertices[3 * j + 1];
            const b2 = vertices[3 * j + 2];
            let x = a1 * b2 - a2 * b1;
            let y = a2 * b0 - a0 * b2;
            let z = a0 * b1 - a1 * b0;
            const l = Math.hypot(x, y, z);
            if (!(l > 1e-9)) throw new HumanoidError("BAD_OPTION", `${what}: an edge joins two vertices that are the same or opposite`);
            x /= l;
            y /= l;
            z /= l;
            if (!(x * c[0] + y * c[1] + z * c[2] > 1e-9))
                throw new HumanoidError(
                    "BAD_OPTION",
                    `${what}: the polygon's centre is not inside the edge from vertex ${i} to ${j} (not star-shaped about it)`,
                );
            normal[3 * i] = x;
            normal[3 * i + 1] = y;
            normal[3 * i + 2] = z;
        }
        return new SphericalPolygon(vertices, c, azimuth, normal, e1, e2);
    }

    /** The sector (edge index) whose azimuth range holds the unit direction `d`, or -1 at the centre, -2 opposite it. */
    private _sector(d: Vector3): number {
        const x = d.x;
        const y = d.y;
        const z = d.z;
        const e1 = this._e1;
        const e2 = this._e2;
        const px = x * e1[0] + y * e1[1] + z * e1[2];
        const py = x * e2[0] + y * e2[1] + z * e2[2];
        if (px * px + py * py < POLE_EPSILON * POLE_EPSILON) {
            const c = this.center;
            return x * c[0] + y * c[1] + z * c[2] > 0 ? -1 : -2;
        }
        // pseudoAzimuth(px, py), written out.
        const ax = px < 0 ? -px : px;
        const ay = py < 0 ? -py : py;
        const t = ay / (ax + ay);
        let a = px >= 0 ? t : 2 - t;
        if (py < 0) a = -a;
        const az = this._azimuth;
        const n = az.length;
        // The last vertex at or before a (wrapping below the first to the last): from its bin's
        // start, forward (and back, should rounding put a in the bin below its own).
        if (a < az[0] || a >= az[n - 1]) return n - 1;
        let bin = ((a + 2) * (AZIMUTH_BINS / 4)) | 0;
        if (bin > AZIMUTH_BINS - 1) bin = AZIMUTH_BINS - 1;
        let k = this._bins[bin];
        while (az[k + 1] <= a) k++;
        while (k > 0 && az[k] > a) k--;
        return k;
    }

    /** Whether the unit direction `d` is inside (or on the boundary, within {@link SPHERICAL_POLYGON_INSIDE_EPSILON}). Allocation-free. */
    public containsDirection(d: Vector3): boolean {
        const x = d.x;
        const y = d.y;
        const z = d.z;
        const sectors = this._sectors;
        const n = this.vertexCount;
        // The last test's sector when d is in it: on the positive side of its first radial plane
        // and the negative of the next's (gaps are under half a turn: no other sector is).
        let k = this._hint;
        let o = 6 * k;
        const o1 = k + 1 < n ? o + 6 : 0;
        if (!(x * sectors[o] + y * sectors[o + 1] + z * sectors[o + 2] >= 0 && x * sectors[o1] + y * sectors[o1 + 1] + z * sectors[o1 + 2] < 0)) {
            k = this._sector(d);
            if (k === -1) return true;
            if (k === -2) return false;
            this._hint = k;
            o = 6 * k;
        }
        return x * sectors[o + 3] + y * sectors[o + 4] + z * sectors[o + 5] >= -SPHERICAL_POLYGON_INSIDE_EPSILON;
    }

    /**
     * How far the polygon reaches from its {@link center} toward the unit direction `d`: the angle
     * (radians, in (0, pi)) from the centre to the boundary along the great circle from the centre
     * through `d`. `d` is inside when its own angle from the centre is at most this. NaN when `d`
     * is at the centre or opposite it (no great circle). Allocation-free.
     *
     * The great circle leaves the centre along `u` (`d` less its part along the centre `c`,
     * normalized) and, within `d`'s sector, meets that sector's edge plane (normal `n`, the centre
     * on its positive side) where `cos(a) (n . c) + sin(a) (n . u) = 0`: `a = atan2(n . c, -(n . u))`.
     */
    public boundaryAngleTowards(d: Vector3): number {
        this.boundaryAngleTowardsToRef(d, this._reach);
        return this._reach[0];
    }

    /**
     * {@link boundaryAngleTowards} into `out[0]` (radians; NaN at the centre and opposite it), for
     * the per-frame path: no number is returned (V8 boxes a number a call it does not inline
     * returns, which allocates). Allocation-free.
     */
    public boundaryAngleTowardsToRef(d: Vector3, out: Float64Array): void {
        const k = this._sector(d);
        if (k < 0) {
            out[0] = NaN;
            return;
        }
        const c = this.center;
        const x = d.x;
        const y = d.y;
        const z = d.z;
        const dc = x * c[0] + y * c[1] + z * c[2];
        // u, unnormalized (normalized below in n . u; atan2 takes the two dot products as a ratio).
        const ux = x - dc * c[0];
        const uy = y - dc * c[1];
        const uz = z - dc * c[2];
        const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        const n = this._normal;
        const nc = n[3 * k] * c[0] + n[3 * k + 1] * c[1] + n[3 * k + 2] * c[2];
        const nu = (n[3 * k] * ux + n[3 * k + 1] * uy + n[3 * k + 2] * uz) / ul;
        out[0] = Math.atan2(nc, -nu);
    }

    /**
     * The direction of the polygon nearest to the unit direction `d` (least angle), into `out`:
     * `d` itself when inside, else its projection onto the nearest edge or vertex. Returns whether
     * it moved. `out` may be `d`. Never NaN for a unit `d` (a direction at an edge's pole, 90
     * degrees from all of it, takes a vertex). Allocation-free.
     */
    public clampDirectionToRef(d: Vector3, out: Vector3): boolean {
        const x = d.x;
        const y = d.y;
        const z = d.z;
        if (this.containsDirection(d)) {
            out.x = x;
            out.y = y;
            out.z = z;
            return false;
        }
        const v = this.vertices;
        const nm = this._normal;
        const n = this.vertexCount;
        const best = this._best;
        let bestDot = -Infinity;
        for (let k = 0; k < n; k++) {
            // The vertex itself.
            const vx = v[3 * k];
            const vy = v[3 * k + 1];
            const vz = v[3 * k + 2];
            const dv = x * vx + y * vy + z * vz;
            if (dv > bestDot) {
                bestDot = dv;
                best[0] = vx;
                best[1] = vy;
                best[2] = vz;
            }
            // The projection onto the edge's great circle, p = d - (d . n) n: only for an edge d is
            // outside of (the nearest direction of an edge's inside side is a vertex or on an
            // outside edge).
            const nx = nm[3 * k];
            const ny = nm[3 * k + 1];
            const nz = nm[3 * k + 2];
            const dn = x * nx + y * ny + z * nz;
            if (!(dn < 0)) continue;
            const px = x - dn * nx;
            const py = y - dn * ny;
            const pz = z - dn * nz;
            // Its dot with d is its length |p| (d unit): no nearer than the best, no candidate.
            const pl = Math.sqrt(px * px + py * py + pz * pz);
            if (pl < POLE_EPSILON || !(pl > bestDot)) continue;
            // On the arc from vertex k to k + 1: (v_k x p) . n >= 0 and (p x v_k+1) . n >= 0 (p
            // not normalized: the signs are the same).
            const j = k + 1 < n ? k + 1 : 0;
            const wx = v[3 * j];
            const wy = v[3 * j + 1];
            const wz = v[3 * j + 2];
            const s0 = (vy * pz - vz * py) * nx + (vz * px - vx * pz) * ny + (vx * py - vy * px) * nz;
            const s1 = (py * wz - pz * wy) * nx + (pz * wx - px * wz) * ny + (px * wy - py * wx) * nz;
            if (s0 < 0 || s1 < 0) continue;
            bestDot = pl;
            best[0] = px / pl;
            best[1] = py / pl;
            best[2] = pz / pl;
        }
        out.x = best[0];
        out.y = best[1];
        out.z = best[2];
        return true;
    }
}
