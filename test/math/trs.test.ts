import fc from "fast-check";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    ComposeTrsToRef,
    CreateTrs,
    InverseTransformPointByTrsToRef,
    RelativeTrsToRef,
    TransformPointByTrsToRef,
    TrsToMatrixToRef,
    type ITrs,
} from "../../src/math/trs.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";

const num = (min: number, max: number): fc.Arbitrary<number> => fc.double({ min, max, noNaN: true });
const vec = (min: number, max: number): fc.Arbitrary<Vector3> => fc.tuple(num(min, max), num(min, max), num(min, max)).map(([x, y, z]) => new Vector3(x, y, z));
const rot = UnitQuaternionArbitrary();
/** Non-uniform scale per axis, 0.2..5, either sign avoided (mirrors are not TRS-composable without shear either). */
const trsAny = fc.tuple(vec(-3, 3), rot, vec(0.2, 5)).map(([t, r, s]) => CreateTrs(t, r, s));
const trsUniform = fc.tuple(vec(-3, 3), rot, num(0.2, 5)).map(([t, r, s]) => CreateTrs(t, r, new Vector3(s, s, s)));

/**
 * Float64 4x4 matrices in Babylon's layout (row vectors, translation in 12..14), as a slow obvious
 * reference: Babylon's own `Matrix` stores float32 unless the engine asks for float64.
 */
type M4 = number[];

function matrixOf(t: ITrs): M4 {
    const { x, y, z, w } = t.rotation;
    const s = t.scale;
    // rows = scaled rotated basis vectors: row i = s_i * R(e_i)
    const r = [
        [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
        [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
        [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
    ];
    const sc = [s.x, s.y, s.z];
    const m: M4 = [];
    for (let i = 0; i < 3; i++) m.push(r[i][0] * sc[i], r[i][1] * sc[i], r[i][2] * sc[i], 0);
    m.push(t.translation.x, t.translation.y, t.translation.z, 1);
    return m;
}

/** a * b (row vectors: a applied first). */
function mul(a: M4, b: M4): M4 {
    const out: M4 = new Array(16).fill(0);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) out[4 * i + j] += a[4 * i + k] * b[4 * k + j];
    return out;
}

function apply(p: Vector3, m: M4): Vector3 {
    return new Vector3(
        p.x * m[0] + p.y * m[4] + p.z * m[8] + m[12],
        p.x * m[1] + p.y * m[5] + p.z * m[9] + m[13],
        p.x * m[2] + p.y * m[6] + p.z * m[10] + m[14],
    );
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
    let m = 0;
    for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
    return m;
}

function trsDiff(a: ITrs, b: ITrs): number {
    const dot = Quaternion.Dot(a.rotation, b.rotation);
    const s = dot < 0 ? -1 : 1;
    return Math.max(
        a.translation.subtract(b.translation).length(),
        a.scale.subtract(b.scale).length(),
        Math.hypot(a.rotation.x - s * b.rotation.x, a.rotation.y - s * b.rotation.y, a.rotation.z - s * b.rotation.z, a.rotation.w - s * b.rotation.w),
    );
}

describe("TRS transforms with separate scale", () => {
    it("round-trips local -> world -> local to 1e-9, with any (non-uniform) scales", () => {
        fc.assert(
            fc.property(trsAny, trsAny, (local, parent) => {
                const world = ComposeTrsToRef(local, parent, CreateTrs());
                const back = RelativeTrsToRef(world, parent, CreateTrs());
                expect(trsDiff(back, local)).toBeLessThan(1e-9);
                // and world -> local -> world
                const again = ComposeTrsToRef(back, parent, CreateTrs());
                expect(trsDiff(again, world)).toBeLessThan(1e-9);
            }),
            { numRuns: 300 },
        );
    });

    it("round-trips points between the local and the world space to 1e-9", () => {
        fc.assert(
            fc.property(trsAny, vec(-2, 2), (t, p) => {
                const w = TransformPointByTrsToRef(t, p, new Vector3());
                const back = InverseTransformPointByTrsToRef(t, w, new Vector3());
                expect(back.subtract(p).length()).toBeLessThan(1e-9);
                // The point transform is the TRS's Babylon matrix applied to the point.
                expect(w.subtract(apply(p, matrixOf(t))).length()).toBeLessThan(1e-9);
            }),
            { numRuns: 200 },
        );
    });

    it("matches Babylon's matrix products under uniform scale (a three-deep chain)", () => {
        fc.assert(
            fc.property(trsUniform, trsUniform, trsUniform, vec(-1, 1), (a, b, c, p) => {
                // c under b under a: TRS composition vs world = local * parentWorld (row vectors)
                const bw = ComposeTrsToRef(b, a, CreateTrs());
                const cw = ComposeTrsToRef(c, bw, CreateTrs());
                const m = mul(mul(matrixOf(c), matrixOf(b)), matrixOf(a));
                const scale = Math.max(1, ...m.map(Math.abs));
                expect(maxAbsDiff(matrixOf(cw), m) / scale).toBeLessThan(1e-9);
                const viaTrs = TransformPointByTrsToRef(cw, p, new Vector3());
                const viaMatrix = apply(p, m);
                expect(viaTrs.subtract(viaMatrix).length() / scale).toBeLessThan(1e-9);
                // world -> local from the matrices agrees too
                const local = RelativeTrsToRef(cw, bw, CreateTrs());
                expect(trsDiff(local, c)).toBeLessThan(1e-9);
            }),
            { numRuns: 200 },
        );
    });

    it("differs from matrices only under a non-uniform parent scale with a rotated child: same origin, no shear", () => {
        const parent = CreateTrs(new Vector3(1, 2, 3), Quaternion.Identity(), new Vector3(2, 1, 1));
        const child = CreateTrs(new Vector3(0.5, 0, 0), Quaternion.RotationAxis(Vector3.Forward(), Math.PI / 4), Vector3.One());
        const world = ComposeTrsToRef(child, parent, CreateTrs());
        const m = mul(matrixOf(child), matrixOf(parent));
        // The child's origin is where the matrix product puts it.
        expect(world.translation.subtract(new Vector3(m[12], m[13], m[14])).length()).toBeLessThan(1e-12);
        // The matrix product is sheared: its rotated axes are no longer perpendicular.
        const row = (i: number): Vector3 => new Vector3(m[4 * i], m[4 * i + 1], m[4 * i + 2]);
        expect(Math.abs(Vector3.Dot(row(0), row(1)))).toBeGreaterThan(0.5);
        // TRS: scale applied along the child's own axes, its matrix is a rotation times a scale.
        const w = matrixOf(world);
        const wrow = (i: number): Vector3 => new Vector3(w[4 * i], w[4 * i + 1], w[4 * i + 2]);
        expect(Math.abs(Vector3.Dot(wrow(0), wrow(1)))).toBeLessThan(1e-12);
        // ...so a point of the child's space lands elsewhere than the matrix product puts it.
        const p = new Vector3(0, 1, 0);
        const d = TransformPointByTrsToRef(world, p, new Vector3()).subtract(apply(p, m)).length();
        expect(d).toBeGreaterThan(0.1);
        // Without the rotation, both agree again.
        const straight = CreateTrs(new Vector3(0.5, 0, 0), Quaternion.Identity(), Vector3.One());
        const sw = ComposeTrsToRef(straight, parent, CreateTrs());
        expect(maxAbsDiff(matrixOf(sw), mul(matrixOf(straight), matrixOf(parent)))).toBeLessThan(1e-12);
    });

    it("TrsToMatrixToRef gives Babylon's Matrix.Compose (float32 storage) and the reference layout", () => {
        fc.assert(
            fc.property(trsAny, (t) => {
                const bm = TrsToMatrixToRef(t, new Matrix());
                const ref = matrixOf(t);
                expect(maxAbsDiff(bm.m, ref) / Math.max(1, ...ref.map(Math.abs))).toBeLessThan(1e-6);
            }),
            { numRuns: 100 },
        );
    });

    it("may write into its inputs", () => {
        const local = CreateTrs(new Vector3(1, 0, 0), Quaternion.RotationAxis(Vector3.Up(), 0.4), new Vector3(1, 2, 3));
        const parent = CreateTrs(new Vector3(0, 1, 0), Quaternion.RotationAxis(Vector3.Right(), 0.7), new Vector3(3, 1, 2));
        const expected = ComposeTrsToRef(local, parent, CreateTrs());
        const p2 = CreateTrs(parent.translation, parent.rotation, parent.scale);
        expect(trsDiff(ComposeTrsToRef(local, p2, p2), expected)).toBeLessThan(1e-15);
        const l2 = CreateTrs(local.translation, local.rotation, local.scale);
        expect(trsDiff(ComposeTrsToRef(l2, parent, l2), expected)).toBeLessThan(1e-15);
        const w2 = CreateTrs(expected.translation, expected.rotation, expected.scale);
        expect(trsDiff(RelativeTrsToRef(w2, parent, w2), local)).toBeLessThan(1e-12);
    });
});
