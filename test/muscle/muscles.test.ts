import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    ALL_MUSCLE_COUNT,
    BoneMuscles,
    EXTRA_MUSCLE_COUNT,
    HumanBoneNames,
    HumanPose,
    MuscleMirrors,
    MuscleNames,
    Muscles,
    MUSCLE_COUNT,
    QuaternionToRotationVectorToRef,
    RotationVectorToQuaternionToRef,
    SwingTwistDecompose,
} from "../../src/index.js";
import { SwingTwistDecomposeToRef } from "../../src/math/swingTwist.js";

const REFERENCE = resolve(process.cwd(), "../shared/reference/humanoid.md");
const describeWithReference: typeof describe = existsSync(REFERENCE) ? describe : (describe.skip as typeof describe);

/** Seeded random numbers, so failures reproduce. */
function rng(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
    };
}

describe("the muscle table", () => {
    it("has Unity's 95 muscles first, then 28 extra ones, every name unique", () => {
        expect(MUSCLE_COUNT).toBe(95);
        expect(EXTRA_MUSCLE_COUNT).toBe(28);
        expect(Muscles).toHaveLength(ALL_MUSCLE_COUNT);
        expect(new Set(MuscleNames).size).toBe(ALL_MUSCLE_COUNT);
        expect(MuscleNames[0]).toBe("Spine Front-Back");
        expect(MuscleNames[39]).toBe("Left Arm Down-Up");
        expect(MuscleNames[43]).toBe("Left Forearm Twist In-Out");
        expect(MuscleNames[55]).toBe("Left Thumb 1 Stretched");
        expect(MuscleNames[94]).toBe("Right Little 3 Stretched");
    });

    it("mirrors every muscle onto one muscle, twice back to itself", () => {
        MuscleMirrors.forEach((m, i) => {
            const back = MuscleMirrors[m.muscle];
            expect([i, back.muscle, m.sign * back.sign]).toEqual([i, i, 1]);
        });
        expect(MuscleMirrors[MuscleNames.indexOf("Left Arm Down-Up")].muscle).toBe(MuscleNames.indexOf("Right Arm Down-Up"));
        expect(MuscleMirrors[MuscleNames.indexOf("Spine Twist Left-Right")].sign).toBe(-1);
        expect(MuscleMirrors[MuscleNames.indexOf("Spine Front-Back")].sign).toBe(1);
    });

    it("gives every muscle a motion perpendicular to where it starts", () => {
        for (const m of Muscles) {
            const tip = new Vector3(...m.motion.tip);
            const toward = new Vector3(...m.motion.toward);
            expect([m.name, Math.abs(Vector3.Dot(tip, toward)) < 1e-9]).toEqual([m.name, true]);
        }
    });
});

describeWithReference("the muscle table against ../shared/reference/humanoid.md", () => {
    // describe.skip still runs this body: read only when the file is there.
    const text = existsSync(REFERENCE) ? readFileSync(REFERENCE, "utf8") : "";
    const muscleRows = [...text.matchAll(/^\| (\d+) \| ([^|]+?) \| (\w+) \((\d+)\) \| ([XYZ]) \| (-?[\d.]+) \| (-?[\d.]+) \|/gm)];
    it("names, order, bones, axes and ranges of the 95 muscles", () => {
        expect(muscleRows).toHaveLength(95);
        for (const r of muscleRows) {
            const i = Number(r[1]);
            const m = Muscles[i];
            const bone = r[3].charAt(0).toLowerCase() + r[3].slice(1);
            expect([i, m.name, HumanBoneNames[m.bone], "XYZ"[m.axis], m.minDeg, m.maxDeg]).toEqual([i, r[2], bone, r[5], Number(r[6]), Number(r[7])]);
        }
    });
    it("MuscleFromBone for every bone (reference section 1)", () => {
        const boneRows = [...text.matchAll(/^\| (\d+) \| (\w+) \| (yes|no) \| [^|]+ \| [^|]+ \| ([–\d]+) \| ([–\d]+) \| ([–\d]+) \|/gm)];
        expect(boneRows.length).toBe(55);
        for (const r of boneRows) {
            const bone = HumanBoneNames.indexOf(r[2].charAt(0).toLowerCase() + r[2].slice(1));
            const want = [r[4], r[5], r[6]].map((v) => (v === "–" ? -1 : Number(v)));
            const got = BoneMuscles[bone].map((m) => (m >= MUSCLE_COUNT ? -1 : m));
            expect([r[2], got]).toEqual([r[2], want]);
        }
    });
});

describe("swing-twist", () => {
    it("splits any rotation into swing * twist, twist about the axis, swing perpendicular to it", () => {
        const rand = rng(7);
        for (let k = 0; k < 200; k++) {
            const q = new Quaternion(rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5).normalize();
            const axis = new Vector3(rand() - 0.5, rand() - 0.5, rand() - 0.5).normalize();
            const swing = new Quaternion();
            const twist = new Quaternion();
            const angle = SwingTwistDecompose(q, axis, swing, twist);
            const back = swing.multiply(twist);
            expect(Math.abs(Quaternion.Dot(back, q))).toBeCloseTo(1, 9);
            const rv = new Vector3();
            QuaternionToRotationVectorToRef(swing, rv);
            expect(Vector3.Dot(rv, axis)).toBeCloseTo(0, 9);
            const expectedTwist = Quaternion.RotationAxis(axis, angle);
            expect(Math.abs(Quaternion.Dot(expectedTwist, twist))).toBeCloseTo(1, 9);
            const re = new Quaternion();
            RotationVectorToQuaternionToRef(rv.x, rv.y, rv.z, re);
            expect(Math.abs(Quaternion.Dot(re, swing))).toBeCloseTo(1, 9);
        }
    });

    it("a half-turn swing (no defined twist) gives twist 0 with the identity twist, the same through the allocation-free form", () => {
        const axis = new Vector3(0, 1, 0);
        // A half turn about x, nudged by less than the 1e-12 cut-off toward a twist about y.
        const q = new Quaternion(1, 4e-13, 0, 3e-13).normalize();
        const swing = new Quaternion();
        const twist = new Quaternion();
        expect(SwingTwistDecompose(q, axis, swing, twist)).toBe(0);
        expect(twist.asArray()).toEqual([0, 0, 0, 1]);
        expect(Math.abs(Quaternion.Dot(swing, q))).toBeCloseTo(1, 12);
        const angles = new Float64Array([NaN, 0.25]);
        SwingTwistDecomposeToRef(Quaternion.RotationAxis(axis, 0.5), axis, null, null, angles, 1);
        expect(angles[0]).toBeNaN();
        expect(angles[1]).toBeCloseTo(0.5, 12);
    });
});

describe("HumanPose", () => {
    it("blends muscles linearly and mirrors twice back to itself", () => {
        const rand = rng(3);
        const a = new HumanPose();
        const b = new HumanPose();
        for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
            a.values[i] = rand() * 2 - 1;
            b.values[i] = rand() * 2 - 1;
        }
        b.bodyRotation.copyFrom(Quaternion.RotationAxis(new Vector3(0, 1, 0), 1));
        const mid = HumanPose.LerpToRef(a, b, 0.5, new HumanPose());
        expect(mid.values[10]).toBeCloseTo((a.values[10] + b.values[10]) / 2, 6);
        expect(mid.muscles).toHaveLength(95);
        expect(mid.extraMuscles).toHaveLength(28);
        const m2 = HumanPose.MirrorToRef(HumanPose.MirrorToRef(a, new HumanPose()), new HumanPose());
        expect(Array.from(m2.values)).toEqual(Array.from(a.values));
    });
});
