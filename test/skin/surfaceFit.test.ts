import fc from "fast-check";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { SelectFitVertices, type ISurfaceFitRig } from "../../src/skin/fitRig.js";
import { SurfaceFitSolver } from "../../src/skin/surfaceFit.js";
import { MergeSurfaceFitBones } from "../../src/skin/mergeBones.js";
import { MatchNearestVertices } from "../../src/skin/vertexMatch.js";
import { FitSurfaceToRig, SurfaceFitRun, type ISurfaceFitSource } from "../../src/skin/surfaceFitRun.js";

/** Deterministic pseudo-random numbers in [-1, 1). */
function rng(seed: number): () => number {
    let s = seed >>> 0;
    return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/**
 * A tube along +Y with four bones in a chain (joints at y = 0, 0.5, 1, 1.5), every vertex blended
 * between the two nearest bones, and a fifth bone without vertices at the tip.
 */
function tubeRig(): ISurfaceFitRig {
    const rings = 40;
    const around = 12;
    const n = rings * around;
    const restPositions = new Float64Array(3 * n);
    const boneIndices = new Int32Array(4 * n);
    const boneWeights = new Float64Array(4 * n);
    for (let r = 0; r < rings; r++) {
        const y = (2 * r) / (rings - 1);
        for (let a = 0; a < around; a++) {
            const v = r * around + a;
            const ang = (2 * Math.PI * a) / around;
            restPositions.set([0.1 * Math.cos(ang), y, 0.1 * Math.sin(ang) * (1 + 0.3 * Math.cos(ang))], 3 * v);
            const seg = Math.min(3, Math.floor(y / 0.5));
            const f = Math.min(1, Math.max(0, (y - seg * 0.5) / 0.5));
            const next = Math.min(3, seg + 1);
            boneIndices.set([seg, next, 0, 0], 4 * v);
            boneWeights.set(seg === next ? [1, 0, 0, 0] : [1 - 0.5 * f, 0.5 * f, 0, 0], 4 * v);
        }
    }
    return {
        vertexCount: n,
        restPositions,
        influences: 4,
        boneIndices,
        boneWeights,
        boneCount: 5,
        boneParents: Int32Array.from([-1, 0, 1, 2, 3]),
        boneRestPositions: Float64Array.from([0, 0, 0, 0, 0.5, 0, 0, 1, 0, 0, 1.5, 0, 0, 2, 0]),
        boneNames: ["b0", "b1", "b2", "b3", "tip"],
    };
}

/** Skins the rig with bone transforms made by forward kinematics from local rotations (bone lengths kept) and a root offset. */
function poseSurface(rig: ISurfaceFitRig, locals: Quaternion[], rootOffset: Vector3): { surface: Float64Array; rot: Quaternion[]; trans: Vector3[] } {
    const rot: Quaternion[] = [];
    const trans: Vector3[] = [];
    for (let j = 0; j < rig.boneCount; j++) {
        const p = rig.boneParents[j];
        const pivot = Vector3.FromArray(rig.boneRestPositions, 3 * j);
        // T_j(x) = R_j (x - pivot) + image, image = T_parent(pivot)
        const R = p >= 0 ? rot[p].multiply(locals[j]) : locals[j];
        const image = p >= 0 ? pivot.applyRotationQuaternion(rot[p]).add(trans[p]) : pivot.add(rootOffset);
        rot.push(R);
        trans.push(image.subtract(pivot.applyRotationQuaternion(R)));
    }
    const surface = new Float64Array(3 * rig.vertexCount);
    for (let v = 0; v < rig.vertexCount; v++) {
        const x = Vector3.FromArray(rig.restPositions, 3 * v);
        const out = new Vector3();
        for (let k = 0; k < rig.influences; k++) {
            const w = rig.boneWeights[v * rig.influences + k];
            if (w > 0)
                out.addInPlace(
                    x
                        .applyRotationQuaternion(rot[rig.boneIndices[v * rig.influences + k]])
                        .add(trans[rig.boneIndices[v * rig.influences + k]])
                        .scale(w),
                );
        }
        surface.set([out.x, out.y, out.z], 3 * v);
    }
    return { surface, rot, trans };
}

function maxDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
    let m = 0;
    for (let i = 0; i < a.length; i += 3) m = Math.max(m, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
    return m;
}

const bend = fc
    .array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), {
        minLength: 5,
        maxLength: 5,
    })
    .map((axes) =>
        axes.map(([x, y, z], i) =>
            Math.hypot(x, y, z) < 0.1
                ? Quaternion.Identity()
                : Quaternion.RotationAxis(new Vector3(x, y, z).normalize(), 0.6 * (i + 1 === 5 ? 0 : Math.hypot(x, y, z))),
        ),
    );

describe("surface fit on a skinned tube", () => {
    it.each([false, true])("reproduces a skin it can reproduce exactly, frame after frame (rotation-only: %s)", (rotationOnly) => {
        const rig = tubeRig();
        const solver = new SurfaceFitSolver(rig, { rotationOnly });
        const fitted = new Float64Array(3 * rig.vertexCount);
        fc.assert(
            fc.property(bend, (locals) => {
                const { surface } = poseSurface(rig, locals, new Vector3(0.1, -0.2, 0.05));
                solver.solveFrame(surface);
                solver.skinRigToRef(fitted);
                expect(maxDistance(fitted, surface) / solver.diagonal).toBeLessThan(1e-6);
                // Starting from its own answer, one sweep finds nothing to gain (rotation-only: one of its free start, one of its own).
                expect(solver.solveFrame(surface).sweeps).toBe(rotationOnly ? 2 : 1);
                if (rotationOnly) {
                    // Bone lengths kept: each joint where its parent's transform carries it.
                    for (let j = 1; j < rig.boneCount; j++) {
                        const p = rig.boneParents[j];
                        const pivot = Vector3.FromArray(rig.boneRestPositions, 3 * j);
                        const own = pivot
                            .applyRotationQuaternion(Quaternion.FromArray(solver.rotations, 4 * j))
                            .add(Vector3.FromArray(solver.translations, 3 * j));
                        const byParent = pivot
                            .applyRotationQuaternion(Quaternion.FromArray(solver.rotations, 4 * p))
                            .add(Vector3.FromArray(solver.translations, 3 * p));
                        expect(own.subtract(byParent).length()).toBeLessThan(1e-9);
                    }
                }
            }),
            { numRuns: 25 },
        );
    });

    it("recovers the bone transforms themselves, and the bone without vertices follows its parent", () => {
        const rig = tubeRig();
        const g = rng(7);
        const locals = [0, 1, 2, 3, 4].map(() => Quaternion.RotationAxis(new Vector3(g(), g(), g()).normalize(), 0.5 * Math.abs(g())));
        const { surface, rot, trans } = poseSurface(rig, locals, new Vector3(0, 0.1, 0));
        const solver = new SurfaceFitSolver(rig);
        solver.solveFrame(surface);
        for (let j = 0; j < 4; j++) {
            const q = Quaternion.FromArray(solver.rotations, 4 * j);
            expect(2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(q, rot[j]))))).toBeLessThan(1e-5);
            expect(
                Vector3.FromArray(solver.translations, 3 * j)
                    .subtract(trans[j])
                    .length(),
            ).toBeLessThan(1e-5);
        }
        expect(Array.from(solver.rotations.slice(16, 20))).toEqual(Array.from(solver.rotations.slice(12, 16)));
    });

    it("fits only the chosen vertices, and SelectFitVertices gives every weighted bone some", () => {
        const rig = tubeRig();
        const chosen = SelectFitVertices(rig, 50, 4);
        expect(chosen.length).toBe(50);
        expect(new Set(chosen).size).toBe(50);
        for (let j = 0; j < 4; j++) {
            const has = Array.from(chosen).some((v) => [0, 1].some((k) => rig.boneIndices[4 * v + k] === j && rig.boneWeights[4 * v + k] > 0));
            expect(has).toBe(true);
        }
        const { surface } = poseSurface(
            rig,
            [0, 1, 2, 3, 4].map((i) => Quaternion.RotationAxis(Vector3.Right(), 0.2 * i)),
            Vector3.Zero(),
        );
        const solver = new SurfaceFitSolver(rig, { vertices: chosen });
        const targets = new Float64Array(3 * chosen.length);
        chosen.forEach((v, i) => targets.set(surface.subarray(3 * v, 3 * v + 3), 3 * i));
        solver.solveFrame(targets);
        const fitted = solver.skinRigToRef(new Float64Array(3 * rig.vertexCount));
        expect(maxDistance(fitted, surface) / solver.diagonal).toBeLessThan(1e-6);
    });

    it("a merged bone's weights go to its parent, summed, and its skin then follows the parent", () => {
        const rig = tubeRig();
        const { rig: merged, target } = MergeSurfaceFitBones(rig, (_, name) => name === "b2");
        expect(Array.from(target)).toEqual([0, 1, 1, 3, 4]);
        for (let v = 0; v < merged.vertexCount; v++) {
            let sum = 0;
            for (let k = 0; k < 4; k++) {
                expect(merged.boneIndices[4 * v + k] === 2 && merged.boneWeights[4 * v + k] > 0).toBe(false);
                sum += merged.boneWeights[4 * v + k];
            }
            expect(sum).toBeCloseTo(1, 12);
        }
        // A vertex between b1 and b2 now hangs on b1 alone, with weight 1.
        const v = Array.from({ length: rig.vertexCount }, (_, i) => i).find(
            (i) => rig.boneIndices[4 * i] === 1 && rig.boneIndices[4 * i + 1] === 2 && rig.boneWeights[4 * i + 1] > 0,
        )!;
        expect(merged.boneIndices[4 * v]).toBe(1);
        expect(merged.boneWeights[4 * v]).toBeCloseTo(1, 12);
        // The top bone is never merged.
        expect(Array.from(MergeSurfaceFitBones(rig, () => true).target)).toEqual([0, 0, 0, 0, 0]);
    });
});

describe("a surface fit run frame by frame", () => {
    it("gives what FitSurfaceToRig gives, and after each step that frame's surfaces and vertex errors", () => {
        const rig = tubeRig();
        const random = rng(7);
        const frames = Array.from({ length: 6 }, (_, f) => {
            const locals = Array.from({ length: 5 }, () => Quaternion.RotationAxis(new Vector3(random(), random(), random()).normalize(), 0.15 * f));
            return poseSurface(rig, locals, new Vector3(0.02 * f, 0, 0)).surface;
        });
        const source: ISurfaceFitSource = {
            vertexCount: rig.vertexCount,
            restPositions: rig.restPositions,
            frameCount: frames.length,
            frameToRef: (f, out) => out.set(frames[f]),
        };
        // The tube with b2 merged into b1 cannot follow the bend at b2: the errors are not zero.
        const merged = MergeSurfaceFitBones(rig, (_, name) => name === "b2").rig;
        const whole = FitSurfaceToRig(source, merged, { vertexCount: 200 });
        const run = new SurfaceFitRun(source, merged, { vertexCount: 200 });
        expect(run.frameCount).toBe(6);
        for (let f = 0; f < 6; f++) {
            expect(run.step()).toBe(true);
            expect(run.framesDone).toBe(f + 1);
            // Same mesh, same rest pose: the wanted surface is the source's frame itself.
            expect(maxDistance(run.wanted, frames[f])).toBeLessThan(1e-12);
            let worst = 0;
            for (let v = 0; v < rig.vertexCount; v++) {
                const i = 3 * v;
                const e = Math.hypot(run.fitted[i] - frames[f][i], run.fitted[i + 1] - frames[f][i + 1], run.fitted[i + 2] - frames[f][i + 2]) / run.diagonal;
                expect(run.vertexErrors[v]).toBeCloseTo(e, 12);
                worst = Math.max(worst, e);
            }
            expect(worst).toBeCloseTo(whole.maxErrorPerFrame[f], 12);
        }
        expect(run.done).toBe(true);
        expect(run.step()).toBe(false);
        const stepped = run.result();
        expect(whole.maxError).toBeGreaterThan(1e-4);
        for (const k of ["frames", "meanError", "maxError", "transferQuality", "sweeps", "fittedVertices"] as const) expect(stepped[k]).toBe(whole[k]);
        expect(Array.from(stepped.rotations)).toEqual(Array.from(whole.rotations));
    });
});

describe("nearest-vertex matching", () => {
    it("finds the same nearest vertex as a brute-force search", () => {
        const g = rng(3);
        const points = Float64Array.from({ length: 3 * 500 }, () => g());
        const query = Float64Array.from({ length: 3 * 200 }, () => 1.2 * g());
        const match = MatchNearestVertices(query, points);
        for (let q = 0; q < 200; q++) {
            let best = Infinity;
            for (let p = 0; p < 500; p++)
                best = Math.min(best, Math.hypot(points[3 * p] - query[3 * q], points[3 * p + 1] - query[3 * q + 1], points[3 * p + 2] - query[3 * q + 2]));
            const m = match[q];
            const d = Math.hypot(points[3 * m] - query[3 * q], points[3 * m + 1] - query[3 * q + 1], points[3 * m + 2] - query[3 * q + 2]);
            expect(d).toBeCloseTo(best, 12);
        }
    });

    it("applies the alignment to the query: a scaled, moved copy matches itself", () => {
        const g = rng(5);
        const points = Float64Array.from({ length: 3 * 300 }, () => g());
        const moved = points.map((x, i) => 2 * x + [1, 2, 3][i % 3]);
        const match = MatchNearestVertices(moved, points, { scale: 0.5, from: [1, 2, 3], to: [0, 0, 0] });
        expect(Array.from(match)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    });
});
