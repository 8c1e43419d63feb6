import type { SphericalPolygon } from "../../src/math/sphericalPolygon.js";

/**
 * Slow, obvious references for spherical polygons: a Fibonacci grid of directions and an inside
 * test in polar form (a direction is inside when its angle from the centre is at most the
 * boundary's at its azimuth, the boundary found by intersecting that azimuth's half great circle
 * with the sector's edge plane), independent of the polygon's own plane-side test.
 */

/** `n` unit directions spread evenly over the sphere (x y z each): spacing about `sqrt(4 pi / n)` radians. */
export function FibonacciSphere(n: number): Float64Array {
    const out = new Float64Array(3 * n);
    const golden = Math.PI * (3 - Math.sqrt(5));
    for (let i = 0; i < n; i++) {
        const y = 1 - (2 * (i + 0.5)) / n;
        const r = Math.sqrt(1 - y * y);
        const a = golden * i;
        out[3 * i] = r * Math.cos(a);
        out[3 * i + 1] = y;
        out[3 * i + 2] = r * Math.sin(a);
    }
    return out;
}

/** A polar frame about a centre: e1, e2 across it (right-handed with c). */
function frameOf(c: ArrayLike<number>): { e1: number[]; e2: number[] } {
    const ax = Math.abs(c[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const d = ax[0] * c[0] + ax[1] * c[1] + ax[2] * c[2];
    const e1 = [ax[0] - d * c[0], ax[1] - d * c[1], ax[2] - d * c[2]];
    const l = Math.hypot(e1[0], e1[1], e1[2]);
    e1[0] /= l;
    e1[1] /= l;
    e1[2] /= l;
    const e2 = [c[1] * e1[2] - c[2] * e1[1], c[2] * e1[0] - c[0] * e1[2], c[0] * e1[1] - c[1] * e1[0]];
    return { e1, e2 };
}

/**
 * The reference inside test of a polygon: how far a unit direction lies outside it, radians (0 or
 * less inside): its angle from the centre less the boundary's angle at its azimuth.
 */
export function PolarOutsideOf(polygon: SphericalPolygon): (x: number, y: number, z: number) => number {
    const c = polygon.center;
    const v = polygon.vertices;
    const n = polygon.vertexCount;
    const { e1, e2 } = frameOf(c);
    const az = (px: number, py: number, pz: number): number => Math.atan2(px * e2[0] + py * e2[1] + pz * e2[2], px * e1[0] + py * e1[1] + pz * e1[2]);
    const a0s: number[] = [];
    const a1s: number[] = [];
    const normals: number[][] = [];
    for (let k = 0; k < n; k++) {
        const j = (k + 1) % n;
        const a0 = az(v[3 * k], v[3 * k + 1], v[3 * k + 2]);
        let a1 = az(v[3 * j], v[3 * j + 1], v[3 * j + 2]);
        if (a1 <= a0) a1 += 2 * Math.PI;
        a0s.push(a0);
        a1s.push(a1);
        normals.push([
            v[3 * k + 1] * v[3 * j + 2] - v[3 * k + 2] * v[3 * j + 1],
            v[3 * k + 2] * v[3 * j] - v[3 * k] * v[3 * j + 2],
            v[3 * k] * v[3 * j + 1] - v[3 * k + 1] * v[3 * j],
        ]);
    }
    return (x, y, z) => {
        const cosTheta = x * c[0] + y * c[1] + z * c[2];
        const sx = x * e1[0] + y * e1[1] + z * e1[2];
        const sy = x * e2[0] + y * e2[1] + z * e2[2];
        const sin = Math.hypot(sx, sy);
        const theta = Math.atan2(sin, cosTheta);
        if (sin < 1e-12) return cosTheta > 0 ? -1 : theta;
        const a = Math.atan2(sy, sx);
        for (let k = 0; k < n; k++) {
            let aa = a;
            if (aa < a0s[k]) aa += 2 * Math.PI;
            if (aa > a1s[k]) continue;
            // The meridian at azimuth a: m = cos a e1 + sin a e2, points cos(t) c + sin(t) m; on the
            // edge plane n: cos t (n . c) + sin t (n . m) = 0, so t = atan2(n . c, -(n . m)) in (0, pi).
            const [nx, ny, nz] = normals[k];
            const ca = sx / sin;
            const sa = sy / sin;
            const nm = nx * (ca * e1[0] + sa * e2[0]) + ny * (ca * e1[1] + sa * e2[1]) + nz * (ca * e1[2] + sa * e2[2]);
            const nc = nx * c[0] + ny * c[1] + nz * c[2];
            let boundary = Math.atan2(nc, -nm);
            if (boundary < 0) boundary += Math.PI;
            return theta - boundary;
        }
        return theta;
    };
}

/** {@link PolarOutsideOf} for one direction. */
export function PolarOutside(polygon: SphericalPolygon, x: number, y: number, z: number): number {
    return PolarOutsideOf(polygon)(x, y, z);
}

/** The grid directions inside a polygon (by {@link PolarOutside}), x y z each. */
export function GridInside(polygon: SphericalPolygon, grid: Float64Array): Float64Array {
    const outside = PolarOutsideOf(polygon);
    const out: number[] = [];
    for (let i = 0; i < grid.length; i += 3) if (outside(grid[i], grid[i + 1], grid[i + 2]) <= 0) out.push(grid[i], grid[i + 1], grid[i + 2]);
    return Float64Array.from(out);
}

/** The least angle (radians) from a unit direction to any of a set of directions. */
export function NearestAngle(points: Float64Array, x: number, y: number, z: number): number {
    let best = -1;
    for (let i = 0; i < points.length; i += 3) {
        const d = points[i] * x + points[i + 1] * y + points[i + 2] * z;
        if (d > best) best = d;
    }
    return Math.acos(Math.min(1, best));
}
