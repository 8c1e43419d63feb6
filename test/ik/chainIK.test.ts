import fc from "fast-check";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { ChainIKSolver, type IChainIKStatus, type IJointClamp } from "../../src/index.js";

/**
 * A planar chain of `segments` bones of `length` metres along +X, the end joint last; with a clamp,
 * the clamp set and each movable joint known to it by its index.
 */
function chain(segments: number, length: number, clamp?: IJointClamp): { rotations: Quaternion[]; positions: Vector3[]; solver: ChainIKSolver } {
    const rotations = Array.from({ length: segments + 1 }, () => Quaternion.Identity());
    const positions = Array.from({ length: segments + 1 }, (_, i) => (i === 0 ? Vector3.Zero() : new Vector3(length, 0, 0)));
    const solver = new ChainIKSolver(
        Array.from({ length: segments + 1 }, (_, i) => i),
        positions,
    );
    solver.stiffness[segments] = 0; // the end only reaches
    if (clamp) {
        solver.clamp = clamp;
        for (let i = 0; i < segments; i++) solver.boneIds[i] = i;
    }
    return { rotations, positions, solver };
}

const Z = new Vector3(0, 0, 1);
const X = new Vector3(1, 0, 0);

/** The signed angle of `q` about a unit axis (its twist), radians in (-pi, pi]. */
function twistAngle(q: Quaternion, axis: Vector3): number {
    const d = q.x * axis.x + q.y * axis.y + q.z * axis.z;
    let a = 2 * Math.atan2(d, q.w);
    if (a > Math.PI) a -= 2 * Math.PI;
    if (a <= -Math.PI) a += 2 * Math.PI;
    return a;
}

/** A hinge about Z per bone id with a range (radians): the nearest hinge rotation, its angle clamped. */
class HingeClamp implements IJointClamp {
    constructor(public readonly ranges: ReadonlyArray<readonly [number, number]>) {}
    public clampLocalToRef(bone: number, local: Quaternion, out: Quaternion): boolean {
        const [lo, hi] = this.ranges[bone];
        const a = twistAngle(local, Z);
        const c = a < lo ? lo : a > hi ? hi : a;
        const offAxis = Math.abs(local.x) + Math.abs(local.y);
        Quaternion.RotationAxisToRef(Z, c, out);
        return c !== a || offAxis > 1e-12;
    }
    /** Whether a rotation is a hinge rotation inside the range (to 1e-9). */
    public inside(bone: number, q: Quaternion): boolean {
        const [lo, hi] = this.ranges[bone];
        const a = twistAngle(q, Z);
        return Math.abs(q.x) + Math.abs(q.y) < 1e-9 && a >= lo - 1e-9 && a <= hi + 1e-9;
    }
}

/** A cone about the bone's axis (+X) of half-angle `max` per bone (twist free): the swing's angle scaled down onto the cone. */
class ConeClamp implements IJointClamp {
    constructor(public readonly max: number) {}
    public clampLocalToRef(_bone: number, local: Quaternion, out: Quaternion): boolean {
        const a = this.angle(local);
        if (a <= this.max) {
            out.copyFrom(local);
            return false;
        }
        // q = swing * twist (twist about X); scale the swing's angle.
        const tw = twistAngle(local, X);
        const twist = Quaternion.RotationAxis(X, tw);
        const swing = local.multiply(Quaternion.Inverse(twist));
        const s = Math.hypot(swing.x, swing.y, swing.z);
        const axis = new Vector3(swing.x / s, swing.y / s, swing.z / s);
        Quaternion.RotationAxis(axis, this.max).multiplyToRef(twist, out);
        return true;
    }
    /** The angle between the bone's rotated axis and its rest axis. */
    public angle(q: Quaternion): number {
        const d = X.applyRotationQuaternion(q);
        return Math.acos(Math.min(1, Math.max(-1, d.x)));
    }
}

/** Forward kinematics of a planar hinge chain (segment `length`) for angles about Z: the end's (x, y). */
function planarEnd(angles: readonly number[], length: number): [number, number] {
    let a = 0;
    let x = 0;
    let y = 0;
    for (const t of angles) {
        a += t;
        x += length * Math.cos(a);
        y += length * Math.sin(a);
    }
    return [x, y];
}

/**
 * The slow, obvious oracle: the least distance a planar hinge chain's end can come to a target,
 * by a grid over every joint's range and then a pattern search (halving steps) from the best cells.
 */
function bruteForceNearest(ranges: ReadonlyArray<readonly [number, number]>, length: number, tx: number, ty: number): number {
    const steps = ranges.length > 3 ? 14 : 24;
    const n = ranges.length;
    const cells: { d: number; a: number[] }[] = [];
    const a = new Array<number>(n).fill(0);
    const walk = (k: number): void => {
        if (k === n) {
            const [x, y] = planarEnd(a, length);
            cells.push({ d: Math.hypot(x - tx, y - ty), a: [...a] });
            return;
        }
        const [lo, hi] = ranges[k];
        for (let s = 0; s <= steps; s++) {
            a[k] = lo + ((hi - lo) * s) / steps;
            walk(k + 1);
        }
    };
    walk(0);
    cells.sort((p, q) => p.d - q.d);
    let best = Infinity;
    for (const start of cells.slice(0, 20)) {
        const x = [...start.a];
        let d = start.d;
        for (let h = Math.max(...ranges.map(([lo, hi]) => hi - lo)) / steps; h > 1e-7; h /= 2) {
            let moved = true;
            while (moved) {
                moved = false;
                for (let k = 0; k < n; k++) {
                    for (const s of [-h, h]) {
                        const y = [...x];
                        y[k] = Math.min(ranges[k][1], Math.max(ranges[k][0], y[k] + s));
                        const [ex, ey] = planarEnd(y, length);
                        const e = Math.hypot(ex - tx, ey - ty);
                        if (e < d - 1e-12) {
                            d = e;
                            x.splice(0, n, ...y);
                            moved = true;
                        }
                    }
                }
            }
        }
        best = Math.min(best, d);
    }
    return best;
}

const newStatus = (): IChainIKStatus => ({ error: 0, iterations: 0, reached: false, clamped: false, escapes: 0 });
const DEG = Math.PI / 180;
const BASE_Q = Quaternion.Identity();
const BASE_P = Vector3.Zero();

interface IKCase {
    name: string;
    target: [number, number, number];
    /** Hinge ranges per movable joint (radians), or null for free joints. */
    ranges: ReadonlyArray<readonly [number, number]> | null;
    /** The start: angles about Z per movable joint (radians). */
    start?: readonly number[];
    /** Set the preferred rotation of each joint to the middle of its range. */
    preferMiddle?: boolean;
    /** What the solver must reach: "target" (within 1 mm), or "nearest" (the oracle's least distance + 1 mm). */
    expect: "target" | "nearest" | "straight";
    /** Bound on the iterations. */
    maxIterations: number;
}

const SEG = 0.3;
const L = 4 * SEG;
const FREE = [-Math.PI, Math.PI] as const;
/** Hinge ranges (radians): the root's, then `bends` joints with the range `bend`. */
const hinges = (root: readonly [number, number], bends: number, bend: readonly [number, number]): ReadonlyArray<readonly [number, number]> => [
    root,
    ...Array.from({ length: bends }, () => bend),
];
const CASES: IKCase[] = [
    { name: "reachable, free joints", target: [0.5, 0.6, 0.2], ranges: null, expect: "target", maxIterations: 24 },
    {
        name: "at the edge of reach (0.9999 of the length, off the chain's line)",
        target: [0, 0.9999 * L, 0],
        ranges: null,
        expect: "target",
        maxIterations: 64,
    },
    { name: "unreachable (twice the length): straight at it", target: [0, 2 * L, 1], ranges: null, expect: "straight", maxIterations: 64 },
    { name: "behind the body (behind the root)", target: [-0.4, 0.1, -0.5], ranges: null, expect: "target", maxIterations: 40 },
    {
        name: "on the limit boundary (only both bends at 90 degrees reach it)",
        target: [0, 0.3, 0],
        ranges: hinges(FREE, 2, [0, 90 * DEG]),
        expect: "target",
        maxIterations: 64,
    },
    {
        name: "hinges, reachable inside the limits",
        target: [0.5, 0.5, 0],
        ranges: hinges(FREE, 3, [0, 120 * DEG]),
        expect: "target",
        maxIterations: 64,
    },
    {
        name: "nearer than the limits let the chain fold: the nearest reachable point",
        target: [0.05, 0.1, 0],
        ranges: hinges(FREE, 2, [0, 90 * DEG]),
        expect: "nearest",
        maxIterations: 64,
    },
    {
        name: "deadlock: straight at the limits, target on the chain's line, nearer than its length",
        target: [0.8 * L, 0, 0],
        ranges: hinges(FREE, 3, [0, 120 * DEG]),
        preferMiddle: true,
        expect: "target",
        maxIterations: 64,
    },
    {
        name: "deadlock: every joint pushes into its limit (target below the line, the bends only curl up)",
        target: [0.9, -0.2, 0],
        ranges: hinges([-60 * DEG, 120 * DEG], 3, [0, 120 * DEG]),
        preferMiddle: true,
        expect: "target",
        maxIterations: 64,
    },
    {
        name: "target reachable only by bending against the gradient (limits one way)",
        target: [0.55, 0.55, 0],
        ranges: hinges([-10 * DEG, 10 * DEG], 3, [-150 * DEG, 0]),
        start: [0, 0, 0, 0],
        preferMiddle: true,
        expect: "nearest",
        maxIterations: 64,
    },
];

describe("ChainIKSolver: a table of cases with known answers", () => {
    const report: string[] = [];
    afterAll(() => {
        // The measured figures (iterations, distances), for the record.
        console.log(report.join("\n"));
    });

    test.each(CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
        const segments = c.ranges ? c.ranges.length : 4;
        const hinge = c.ranges ? new HingeClamp(c.ranges) : null;
        const { rotations, positions, solver } = chain(segments, SEG, hinge ?? undefined);
        if (hinge && c.preferMiddle) {
            for (let i = 0; i < segments; i++) {
                const [lo, hi] = c.ranges![i];
                Quaternion.RotationAxisToRef(Z, (lo + hi) / 2, solver.preferred[i]);
            }
        }
        if (c.start) c.start.forEach((a, i) => Quaternion.RotationAxisToRef(Z, a, rotations[i]));
        const target = new Vector3(...c.target);
        const status = newStatus();
        solver.solve(rotations, positions, BASE_Q, BASE_P, target, status);
        const end = solver.positionOf(segments);
        expect(Number.isFinite(end.x + end.y + end.z)).toBe(true);
        expect(Math.abs(Vector3.Distance(end, target) - status.error)).toBeLessThan(1e-9);
        expect(status.iterations).toBeLessThanOrEqual(c.maxIterations);
        // Limits are never exceeded.
        if (hinge) for (let i = 0; i < segments; i++) expect(hinge.inside(i, rotations[i])).toBe(true);
        // The bones keep their lengths (rotations only).
        for (let i = 1; i <= segments; i++) expect(Vector3.Distance(solver.positionOf(i), solver.positionOf(i - 1))).toBeCloseTo(SEG, 9);
        let note = `error ${(status.error * 1000).toFixed(4)} mm`;
        if (c.expect === "target") {
            expect(status.error).toBeLessThan(0.001);
            expect(status.reached).toBe(true);
        } else if (c.expect === "straight") {
            const nearest = target.normalizeToNew().scale(L);
            const off = Vector3.Distance(end, nearest);
            note += `, ${(off * 1000).toFixed(4)} mm from the nearest reachable point`;
            expect(off).toBeLessThan(0.001);
        } else {
            const oracle = bruteForceNearest(c.ranges!, SEG, c.target[0], c.target[1]);
            note += `, oracle ${(oracle * 1000).toFixed(4)} mm`;
            expect(status.error).toBeLessThan(oracle + 0.001);
            expect(status.error).toBeGreaterThan(oracle - 1e-6); // the oracle is the least
        }
        report.push(`${c.name}: ${status.iterations} iterations, ${note}, escapes ${status.escapes}`);
    });

    test("the deadlock case needs the escape: with escapes off the chain stays short", () => {
        const c = CASES.find((x) => x.name.startsWith("deadlock: straight"))!;
        const { rotations, positions, solver } = chain(4, SEG, new HingeClamp(c.ranges!));
        solver.maxEscapes = 0;
        const status = newStatus();
        solver.solve(rotations, positions, BASE_Q, BASE_P, new Vector3(...c.target), status);
        expect(status.error).toBeGreaterThan(0.1);
        expect(status.escapes).toBe(0);
    });
});

describe("ChainIKSolver: properties", () => {
    test("cone limits (3D, 45 degrees per joint): never exceeded, never NaN, never worse than the start", () => {
        const cone = new ConeClamp(45 * DEG);
        fc.assert(
            fc.property(
                fc.tuple(
                    fc.double({ min: -1.5, max: 1.5, noNaN: true }),
                    fc.double({ min: -1.5, max: 1.5, noNaN: true }),
                    fc.double({ min: -1.5, max: 1.5, noNaN: true }),
                ),
                ([x, y, z]) => {
                    const { rotations, positions, solver } = chain(4, SEG, cone);
                    const target = new Vector3(x, y, z);
                    const status = newStatus();
                    const before = Vector3.Distance(new Vector3(L, 0, 0), target);
                    solver.solve(rotations, positions, BASE_Q, BASE_P, target, status);
                    for (let i = 0; i < 4; i++) {
                        expect(cone.angle(rotations[i])).toBeLessThanOrEqual(45 * DEG + 1e-6);
                        expect(Number.isFinite(rotations[i].w)).toBe(true);
                    }
                    expect(status.error).toBeLessThanOrEqual(before + 1e-12);
                },
            ),
            { numRuns: 150, seed: 12 },
        );
    });

    test("free joints: every reachable target in a ball of 0.95 of the length is met within 1 mm in at most 48 iterations", () => {
        let worst = 0;
        let most = 0;
        fc.assert(
            fc.property(
                fc.tuple(
                    fc.double({ min: -1, max: 1, noNaN: true }),
                    fc.double({ min: -1, max: 1, noNaN: true }),
                    fc.double({ min: -1, max: 1, noNaN: true }),
                    fc.double({ min: 0.05, max: 0.95, noNaN: true }),
                ),
                ([x, y, z, r]) => {
                    const d = Math.hypot(x, y, z);
                    if (d < 1e-3) return;
                    const target = new Vector3((x / d) * r * L, (y / d) * r * L, (z / d) * r * L);
                    const { rotations, positions, solver } = chain(4, SEG);
                    const status = newStatus();
                    solver.solve(rotations, positions, BASE_Q, BASE_P, target, status);
                    worst = Math.max(worst, status.error);
                    most = Math.max(most, status.iterations);
                    expect(status.error).toBeLessThan(0.001);
                    expect(status.iterations).toBeLessThanOrEqual(48);
                },
            ),
            { numRuns: 300, seed: 7 },
        );
        console.log(`free chain, 300 random reachable targets: worst error ${(worst * 1000).toFixed(4)} mm, most iterations ${most}`);
    });

    test("a stiffness of 0 holds a joint; intermediate joints ride along; non-unit input and a target on the root give no NaN", () => {
        const { rotations, positions, solver } = chain(4, SEG);
        solver.stiffness[1] = 0;
        Quaternion.RotationAxisToRef(Z, 0.3, rotations[1]);
        const held = rotations[1].clone();
        rotations[2].scaleInPlace(3); // not unit
        const status = newStatus();
        solver.solve(rotations, positions, BASE_Q, BASE_P, new Vector3(0.3, 0.5, 0.1), status);
        expect(rotations[1].equals(held)).toBe(true);
        expect(status.error).toBeLessThan(0.001);
        solver.solve(rotations, positions, BASE_Q, BASE_P, Vector3.Zero(), status);
        for (const q of rotations) expect(Number.isFinite(q.x + q.y + q.z + q.w)).toBe(true);
    });

    test("the base transform carries the chain (solved in the world)", () => {
        const { rotations, positions, solver } = chain(4, SEG);
        const baseQ = Quaternion.RotationAxis(new Vector3(0, 1, 0), 1.1);
        const baseP = new Vector3(2, 1, -3);
        const target = new Vector3(2.3, 1.6, -3.2);
        const status = newStatus();
        solver.solve(rotations, positions, baseQ, baseP, target, status);
        expect(status.error).toBeLessThan(0.001);
        expect(Vector3.Distance(solver.positionOf(0), baseP)).toBeLessThan(1e-12);
    });
});
