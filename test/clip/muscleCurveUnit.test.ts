import fc from "fast-check";
import {
    ALL_MUSCLE_COUNT,
    AngleUnitToMuscleValue,
    AngleUnitsToMuscleValuesInPlace,
    MuscleClipSampler,
    MuscleMirrors,
    MuscleSetup,
    MuscleValueToAngleUnit,
    Muscles,
    ReduceCurve,
    SplineSlopesToRef,
    type IMuscleCurve,
    DEFAULT_TOLERANCE_DEG,
} from "../../src/index.js";
import { MuscleSamplesToAngleUnits } from "../../src/clip/muscleCurveUnit.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { HumanPose } from "../../src/muscle/humanPose.js";
import { dataFile, describeWithData } from "../helpers/data.js";

/** The muscles whose range is not symmetric about 0 (their muscle-to-angle map bends at 0). */
const LOPSIDED = Muscles.map((m, i) => (m.minDeg !== -m.maxDeg ? i : -1)).filter((i) => i >= 0);
const UPPER_LEG_FRONT_BACK = Muscles.findIndex((m) => m.name === "Left Upper Leg Front-Back");

/** A reduced curve's value at a frame (the natural spline through its keys, as clips play it). */
function splineAt(c: IMuscleCurve, frame: number): number {
    if (c.frames.length === 1) return c.values[0];
    const slopes = SplineSlopesToRef(c.frames, c.values, new Float64Array(c.frames.length));
    let k = 0;
    while (k + 2 < c.frames.length && c.frames[k + 1] <= frame) k++;
    const f0 = c.frames[k];
    const h = c.frames[k + 1] - f0;
    const t = (frame - f0) / h;
    const t2 = t * t;
    const t3 = t2 * t;
    return (2 * t3 - 3 * t2 + 1) * c.values[k] + (t3 - 2 * t2 + t) * slopes[k] * h + (3 * t2 - 2 * t3) * c.values[k + 1] + (t3 - t2) * slopes[k + 1] * h;
}

/** RMS third difference of a series. */
function jerk(x: ArrayLike<number>): number {
    let s = 0;
    for (let f = 3; f < x.length; f++) s += (x[f] - 3 * x[f - 1] + 3 * x[f - 2] - x[f - 3]) ** 2;
    return Math.sqrt(s / Math.max(1, x.length - 3));
}

describe("muscle curves in angle units", () => {
    it("the angle unit is the muscle's angle over the larger end of its reference range, and back is the muscle value", () => {
        fc.assert(
            fc.property(fc.integer({ min: 0, max: ALL_MUSCLE_COUNT - 1 }), fc.double({ min: -1.5, max: 1.5, noNaN: true }), (i, m) => {
                const ref = Muscles[i];
                const degrees = m >= 0 ? m * ref.maxDeg : -m * ref.minDeg;
                const u = MuscleValueToAngleUnit(i, m);
                expect(u * Math.max(ref.maxDeg, -ref.minDeg)).toBeCloseTo(degrees, 9);
                expect(AngleUnitToMuscleValue(i, u)).toBeCloseTo(m, 12);
            }),
        );
    });

    it("a muscle's samples in angle units: mapped one by one where the range is lopsided, the same array where it is not", () => {
        const samples = Float32Array.of(-1, -0.25, 0, 0.5, 1);
        for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
            const out = MuscleSamplesToAngleUnits(i, samples);
            if (LOPSIDED.includes(i)) {
                expect(out).not.toBe(samples);
                samples.forEach((v, f) => expect(out[f]).toBe(Math.fround(MuscleValueToAngleUnit(i, v))));
            } else expect(out).toBe(samples);
        }
    });

    it("the per-frame form turns every muscle as the one-by-one form does", () => {
        fc.assert(
            fc.property(fc.float32Array({ minLength: ALL_MUSCLE_COUNT, maxLength: ALL_MUSCLE_COUNT, min: -1, max: 1, noNaN: true }), (values) => {
                const fast = Float32Array.from(values);
                AngleUnitsToMuscleValuesInPlace(fast);
                for (let i = 0; i < ALL_MUSCLE_COUNT; i++) expect(fast[i]).toBe(Math.fround(AngleUnitToMuscleValue(i, values[i])));
            }),
        );
    });

    it("mirroring a clip in angle units is mirroring it in muscle values: the muscles that change sign are symmetric, mirror pairs alike", () => {
        expect(LOPSIDED.length).toBe(12);
        for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
            const m = MuscleMirrors[i];
            if (m.sign < 0) expect(Muscles[i].minDeg).toBe(-Muscles[i].maxDeg);
            expect([Muscles[m.muscle].minDeg, Muscles[m.muscle].maxDeg]).toEqual([Muscles[i].minDeg, Muscles[i].maxDeg]);
        }
    });

    it("a hip swinging smoothly through 0 at 120 fps: reduced in angle units its angle is as smooth as the motion; in muscle values it is not", () => {
        const i = UPPER_LEG_FRONT_BACK;
        const ref = Muscles[i];
        const tolerance = 0.1 / Math.max(ref.maxDeg, -ref.minDeg);
        const frames = 240;
        const degrees = Float64Array.from({ length: frames }, (_, f) => 35 * Math.sin((2 * Math.PI * f) / 120) - 10);
        const muscle = Float32Array.from(degrees, (d) => (d >= 0 ? d / ref.maxDeg : d / -ref.minDeg));
        const angleCurve = ReduceCurve(
            Float32Array.from(muscle, (m) => MuscleValueToAngleUnit(i, m)),
            tolerance,
        );
        const muscleCurve = ReduceCurve(muscle, tolerance / (Math.max(ref.maxDeg, -ref.minDeg) / Math.min(ref.maxDeg, -ref.minDeg)));
        const toDegrees = (m: number): number => (m >= 0 ? m * ref.maxDeg : -m * ref.minDeg);
        const viaAngle = Float64Array.from({ length: frames }, (_, f) => toDegrees(AngleUnitToMuscleValue(i, splineAt(angleCurve, f))));
        const viaMuscle = Float64Array.from({ length: frames }, (_, f) => toDegrees(splineAt(muscleCurve, f)));
        // Both within the tolerance of the motion...
        for (let f = 0; f < frames; f++) {
            expect(Math.abs(viaAngle[f] - degrees[f])).toBeLessThan(0.1 + 1e-4);
            expect(Math.abs(viaMuscle[f] - degrees[f])).toBeLessThan(0.1 + 1e-4);
        }
        // ...but in muscle values the kink at 0 shows as jerk (the bend of the map, decoded).
        const motion = jerk(degrees);
        // Measured: 1.01 and 2.38 times the motion's.
        expect(jerk(viaAngle)).toBeLessThan(1.5 * motion);
        expect(jerk(viaMuscle)).toBeGreaterThan(2 * motion);
    });
});

describeWithData("muscle curves in angle units (real mocap)", () => {
    const JUMP = "bvh/animated_drawings/fair1_jumping_8yo.bvh";

    it("the child's jump: its converted clip keeps angles, and reduction adds a third of the jerk near 0 that muscle values would (the arms swing through it)", async () => {
        const { avatar } = await LoadHumanoidAvatarFromFileAsync(dataFile(JUMP));
        const setup = MuscleSetup.For(avatar);
        const reduced = (await ConvertFileToMuscleClipsAsync(dataFile(JUMP)))[0].clip;
        // The samples the reduction starts from: every frame, the source denoised as the default conversion denoises it.
        const exact = (await ConvertFileToMuscleClipsAsync(dataFile(JUMP), { toleranceDeg: 0, denoiseToleranceDeg: DEFAULT_TOLERANCE_DEG }))[0].clip;
        expect(reduced.muscleUnit).toBe("angle");
        const angles = (clip: typeof reduced): Float64Array[] => {
            const sampler = new MuscleClipSampler(clip);
            const pose = new HumanPose();
            const out = LOPSIDED.map(() => new Float64Array(clip.frameCount));
            for (let f = 0; f < clip.frameCount; f++) {
                sampler.sampleFrameToRef(f, pose);
                LOPSIDED.forEach((i, k) => (out[k][f] = (setup.muscleToRadians(i, pose.values[i]) * 180) / Math.PI));
            }
            return out;
        };
        const a = angles(reduced);
        const b = angles(exact);
        // The old way for comparison: the same samples reduced as muscle values (tolerance over the larger end).
        const muscleValued = LOPSIDED.map((i, k) => {
            const ref = Muscles[i];
            const samples = Float32Array.from(b[k], (d) => (d >= 0 ? d / ref.maxDeg : d / -ref.minDeg));
            const curve = ReduceCurve(samples, reduced.toleranceDeg / Math.max(ref.maxDeg, -ref.minDeg));
            return Float64Array.from({ length: reduced.frameCount }, (_, f) => (setup.muscleToRadians(i, splineAt(curve, f)) * 180) / Math.PI);
        });
        // Where the reduction adds jerk to a joint's angle: the third difference of its error, near
        // the frames where the motion crosses 0 (where the muscle-value map bends).
        const addedNearZero = (x: Float64Array[]): number => {
            let sum = 0;
            let n = 0;
            x.forEach((y, k) => {
                const e = y.map((v, f) => v - b[k][f]);
                for (let f = 4; f < e.length - 3; f++) {
                    if (Math.sign(b[k][f]) === Math.sign(b[k][f - 1])) continue;
                    for (let g = f - 1; g <= f + 3; g++) {
                        sum += (e[g] - 3 * e[g - 1] + 3 * e[g - 2] - e[g - 3]) ** 2;
                        n++;
                    }
                }
            });
            return Math.sqrt(sum / n);
        };
        LOPSIDED.forEach((_, k) => {
            for (let f = 0; f < reduced.frameCount; f++) expect(Math.abs(a[k][f] - b[k][f])).toBeLessThan(0.1 + 1e-3);
        });
        // Measured: 0.025 and 0.070 degree a frame cubed.
        expect(addedNearZero(a)).toBeLessThan(0.5 * addedNearZero(muscleValued));
    });
});
