import fc from "fast-check";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../../src/errors.js";
import { SphericalPolygon } from "../../src/math/sphericalPolygon.js";
import { FibonacciSphere, GridInside, NearestAngle, PolarOutside, PolarOutsideOf } from "../helpers/sphereGrid.js";

const DEG = Math.PI / 180;
/** About 0.4 degrees between neighbours: the nearest grid point inside is within ~0.3 degrees of the true nearest. */
const GRID = FibonacciSphere(250_000);

/** A direction at angle `theta` from `c` (unit) at azimuth `a` about it. */
function around(c: Vector3, theta: number, a: number): Vector3 {
    const ax = Math.abs(c.x) < 0.9 ? new Vector3(1, 0, 0) : new Vector3(0, 1, 0);
    const e1 = ax.subtract(c.scale(Vector3.Dot(ax, c))).normalize();
    const e2 = Vector3.Cross(c, e1);
    return c
        .scale(Math.cos(theta))
        .add(e1.scale(Math.sin(theta) * Math.cos(a)))
        .add(e2.scale(Math.sin(theta) * Math.sin(a)));
}

/** Random star-shaped polygons: 3-12 vertices at increasing azimuths (gaps under 180 degrees), 5-170 degrees from a random centre. */
const polygons = fc
    .record({
        center: fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
        gaps: fc.array(fc.double({ min: 0.2, max: 1, noNaN: true }), { minLength: 3, maxLength: 12 }),
        radii: fc.array(fc.double({ min: 5, max: 170, noNaN: true }), { minLength: 12, maxLength: 12 }),
        start: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
    })
    .filter((r) => Math.hypot(...r.center) > 0.1)
    .map((r) => {
        const c = new Vector3(...r.center).normalize();
        const total = r.gaps.reduce((a, b) => a + b, 0);
        const dirs: number[] = [];
        let a = r.start;
        r.gaps.forEach((g, k) => {
            const v = around(c, r.radii[k] * DEG, a);
            dirs.push(v.x, v.y, v.z);
            a += (g / total) * 2 * Math.PI;
        });
        try {
            return SphericalPolygon.FromDirections(dirs, [c.x, c.y, c.z], "random polygon");
        } catch (e) {
            if (e instanceof HumanoidError) return null; // a gap of half a turn, or the centre outside an edge
            throw e;
        }
    })
    .filter((p): p is SphericalPolygon => p !== null);

/**
 * The readable reference of the polygon's test and clamp (the fast path's oracle): the sector by
 * `atan2` azimuth about the centre (same frame as the polygon's), its edge's plane; outside, every
 * vertex and the projection onto every edge's arc, normalized, the nearest kept.
 */
function ReferenceClamp(polygon: SphericalPolygon, d: Vector3, out: Vector3): boolean {
    const c = new Vector3(polygon.center[0], polygon.center[1], polygon.center[2]);
    const n = polygon.vertexCount;
    const vertex = (k: number): Vector3 => new Vector3(polygon.vertices[3 * k], polygon.vertices[3 * k + 1], polygon.vertices[3 * k + 2]);
    const normal = (k: number): Vector3 => Vector3.Cross(vertex(k), vertex((k + 1) % n)).normalize();
    const ax = Math.abs(c.x) < 0.9 ? new Vector3(1, 0, 0) : new Vector3(0, 1, 0);
    const e1 = ax.subtract(c.scale(Vector3.Dot(ax, c))).normalize();
    const e2 = Vector3.Cross(c, e1);
    const azimuth = (u: Vector3): number => Math.atan2(Vector3.Dot(u, e2), Vector3.Dot(u, e1));
    let inside: boolean;
    if (Math.hypot(Vector3.Dot(d, e1), Vector3.Dot(d, e2)) < 1e-12) inside = Vector3.Dot(d, c) > 0;
    else {
        const a = azimuth(d);
        const az = Array.from({ length: n }, (_, k) => azimuth(vertex(k)));
        // The vertex at or before a, turning from the first vertex's azimuth.
        const turn = (x: number): number => (((x - az[0]) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
        let k = 0;
        for (let i = 0; i < n; i++) if (turn(az[i]) <= turn(a)) k = i;
        inside = Vector3.Dot(d, normal(k)) >= -1e-9;
    }
    if (inside) {
        out.copyFrom(d);
        return false;
    }
    let best = -Infinity;
    for (let k = 0; k < n; k++) {
        const v = vertex(k);
        if (Vector3.Dot(d, v) > best) {
            best = Vector3.Dot(d, v);
            out.copyFrom(v);
        }
        const nm = normal(k);
        const p = d.subtract(nm.scale(Vector3.Dot(d, nm)));
        if (p.length() < 1e-12) continue;
        p.normalize();
        const onArc = Vector3.Dot(Vector3.Cross(v, p), nm) >= 0 && Vector3.Dot(Vector3.Cross(p, vertex((k + 1) % n)), nm) >= 0;
        if (onArc && Vector3.Dot(d, p) > best) {
            best = Vector3.Dot(d, p);
            out.copyFrom(p);
        }
    }
    return true;
}

const unit = fc
    .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
    .filter((v) => Math.hypot(...v) > 0.05)
    .map((v) => new Vector3(...v).normalize());

describe("spherical polygon: inside test and nearest-direction clamp", () => {
    test("a clamped direction is inside and is the nearest inside direction to within 0.5 degrees (dense grid); inside ones are untouched", () => {
        fc.assert(
            fc.property(polygons, fc.array(unit, { minLength: 8, maxLength: 8 }), (polygon, ds) => {
                const inside = GridInside(polygon, GRID);
                const polar = PolarOutsideOf(polygon);
                const out = new Vector3();
                for (const d of ds) {
                    const moved = polygon.clampDirectionToRef(d, out);
                    const outside = polar(d.x, d.y, d.z);
                    // The polygon's test agrees with the polar reference (away from the boundary).
                    if (Math.abs(outside) > 1e-6) expect(moved).toBe(outside > 0);
                    if (!moved) {
                        expect(out.equals(d)).toBe(true);
                        continue;
                    }
                    expect(Number.isFinite(out.x + out.y + out.z)).toBe(true);
                    expect(Math.abs(out.length() - 1)).toBeLessThan(1e-9);
                    expect(polar(out.x, out.y, out.z)).toBeLessThan(1e-7);
                    expect(polygon.containsDirection(out)).toBe(true);
                    const got = Math.acos(Math.min(1, Vector3.Dot(d, out)));
                    expect(got).toBeLessThanOrEqual(NearestAngle(inside, d.x, d.y, d.z) + 0.5 * DEG);
                    // Clamping again changes nothing.
                    const again = new Vector3();
                    expect(polygon.clampDirectionToRef(out, again)).toBe(false);
                }
            }),
            { numRuns: 25, seed: 12 },
        );
    });

    test("the fast test and clamp agree with the readable reference (atan2 sectors, every edge) to 1e-12", () => {
        fc.assert(
            fc.property(polygons, fc.array(unit, { minLength: 40, maxLength: 40 }), (polygon, ds) => {
                const out = new Vector3();
                const ref = new Vector3();
                // Random directions, and some just inside and outside the polygon's vertices and edges' middles.
                const probes = [...ds];
                const v = polygon.vertices;
                for (let k = 0; k < polygon.vertexCount; k++) {
                    const j = (k + 1) % polygon.vertexCount;
                    const a = new Vector3(v[3 * k], v[3 * k + 1], v[3 * k + 2]);
                    const m = a.add(new Vector3(v[3 * j], v[3 * j + 1], v[3 * j + 2])).normalize();
                    const c = new Vector3(polygon.center[0], polygon.center[1], polygon.center[2]);
                    for (const s of [-0.01, 0.01]) probes.push(a.add(a.subtract(c).scale(s)).normalize(), m.add(m.subtract(c).scale(s)).normalize());
                }
                for (const d of probes) {
                    const moved = polygon.clampDirectionToRef(d, out);
                    expect(moved).toBe(ReferenceClamp(polygon, d, ref));
                    expect(Vector3.Distance(out, ref)).toBeLessThan(1e-12);
                }
            }),
            { numRuns: 200, seed: 7 },
        );
    });

    test("the inner cap (innerCapCos) is inside by the readable reference, and reaches to within 1e-6 rad of the nearest edge circle", () => {
        fc.assert(
            fc.property(polygons, fc.array(fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), { minLength: 20, maxLength: 20 }), (polygon, azimuths) => {
                const c = new Vector3(polygon.center[0], polygon.center[1], polygon.center[2]);
                const v = polygon.vertices;
                // The least angle from the centre to an edge's great circle, from the vertices.
                let least = Infinity;
                for (let k = 0; k < polygon.vertexCount; k++) {
                    const j = (k + 1) % polygon.vertexCount;
                    const n = Vector3.Cross(new Vector3(v[3 * k], v[3 * k + 1], v[3 * k + 2]), new Vector3(v[3 * j], v[3 * j + 1], v[3 * j + 2])).normalize();
                    least = Math.min(least, Math.asin(Vector3.Dot(c, n)));
                }
                const radius = Math.acos(Math.min(1, polygon.innerCapCos));
                expect(radius).toBeLessThanOrEqual(least);
                expect(radius).toBeGreaterThan(least - 1e-6);
                const out = new Vector3();
                for (const a of azimuths)
                    for (const share of [0, 0.5, 0.999, 1]) {
                        const d = around(c, radius * share, a);
                        if (Vector3.Dot(d, c) < polygon.innerCapCos) continue; // rounding at the rim
                        expect(ReferenceClamp(polygon, d, out)).toBe(false);
                        expect(polygon.containsDirection(d)).toBe(true);
                    }
            }),
            { numRuns: 200, seed: 11 },
        );
    });

    test("boundaryAngleTowards: along any azimuth, directions short of it are inside and past it outside (readable reference); NaN only at the centre and opposite", () => {
        fc.assert(
            fc.property(polygons, fc.array(fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), { minLength: 20, maxLength: 20 }), (polygon, azimuths) => {
                const c = new Vector3(polygon.center[0], polygon.center[1], polygon.center[2]);
                const out = new Vector3();
                for (const a of azimuths) {
                    // Asked from any point along the azimuth (near the centre, far past the edge): the same reach.
                    const reach = polygon.boundaryAngleTowards(around(c, 0.1 * DEG, a));
                    expect(reach).toBeGreaterThan(0);
                    expect(reach).toBeLessThan(Math.PI);
                    expect(Math.abs(polygon.boundaryAngleTowards(around(c, Math.min(179 * DEG, reach * 1.5), a)) - reach)).toBeLessThan(1e-9);
                    // 1e-6 rad either side of it (the reference tests inside to 1e-9 of an edge's plane).
                    expect(ReferenceClamp(polygon, around(c, reach - 1e-6, a), out)).toBe(false);
                    if (reach + 1e-6 < Math.PI) expect(ReferenceClamp(polygon, around(c, reach + 1e-6, a), out)).toBe(true);
                }
                expect(polygon.boundaryAngleTowards(c)).toBeNaN();
                expect(polygon.boundaryAngleTowards(c.scale(-1))).toBeNaN();
            }),
            { numRuns: 200, seed: 13 },
        );
    });

    test("directions at the centre, opposite it, at vertices and at edges' poles give finite answers", () => {
        fc.assert(
            fc.property(polygons, (polygon) => {
                const c = polygon.center;
                const out = new Vector3();
                const probes = [new Vector3(c[0], c[1], c[2]), new Vector3(-c[0], -c[1], -c[2])];
                const v = polygon.vertices;
                for (let k = 0; k < polygon.vertexCount; k++) {
                    const a = new Vector3(v[3 * k], v[3 * k + 1], v[3 * k + 2]);
                    const j = (k + 1) % polygon.vertexCount;
                    const b = new Vector3(v[3 * j], v[3 * j + 1], v[3 * j + 2]);
                    const n = Vector3.Cross(a, b).normalize();
                    probes.push(a, n, n.scale(-1));
                }
                for (const p of probes) {
                    polygon.clampDirectionToRef(p, out);
                    expect(Number.isFinite(out.x + out.y + out.z)).toBe(true);
                    expect(PolarOutside(polygon, out.x, out.y, out.z)).toBeLessThan(1e-7);
                }
                expect(polygon.containsDirection(probes[0])).toBe(true);
                expect(polygon.containsDirection(probes[1])).toBe(false);
            }),
            { numRuns: 200, seed: 5 },
        );
    });

    test("a polygon that is not star-shaped about its centre is refused with one clear error", () => {
        const c = new Vector3(0, 0, 1);
        const dirs = (list: Vector3[]): number[] => list.flatMap((v) => [v.x, v.y, v.z]);
        expect(() => SphericalPolygon.FromDirections([1, 0, 0, 0, 1, 0], null, "two")).toThrow(/at least 3 vertices/);
        expect(() => SphericalPolygon.FromDirections(dirs([around(c, 0.3, 0), around(c, 0.3, 0.5), around(c, 0.3, 1)]), [0, 0, 1], "fan")).toThrow(
            /half a turn/,
        );
        expect(() => SphericalPolygon.FromDirections(dirs([around(c, 0.3, 0), around(c, 0.3, 2), around(c, 0.3, 4)]), [1, 0, 0], "off")).toThrow(
            /not inside|half a turn|opposite/,
        );
        expect(() => SphericalPolygon.FromDirections([NaN, 0, 1, 0, 1, 0, 1, 0, 0], null, "nan")).toThrow(/not a direction/);
    });
});
