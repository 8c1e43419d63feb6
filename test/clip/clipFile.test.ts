import {
    ConvertRigPosesToMuscleClip,
    RigPoseDenoiser,
    CURVE_BODY_POSITION,
    CURVE_HIPS,
    EncodeHumanPose,
    GetCurveTolerance,
    TRUNK_CLIP_CURVES,
    HumanPose,
    MuscleClip,
    MuscleClipSampler,
    MuscleCurveNames,
    MUSCLE_CLIP_CURVE_COUNT,
    MuscleSetup,
    ParseMuscleClip,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
    ALL_MUSCLE_COUNT,
    AngleUnitToMuscleValue,
    MuscleNames,
    type IRigPose,
} from "../../src/index.js";
import { avatar, source, clip, unstepped } from "../helpers/clipFileFixtures.js";
import { DenseSplineSlopes, HermiteValueAt } from "../helpers/splineOracle.js";

// The sample walk's muscle clips: sampling, and round trips through both file formats.

describe("muscle clips from the built-in sample walk", () => {
    it("holds every frame's pose within the tolerance", () => {
        const setup = MuscleSetup.For(avatar);
        const sampler = new MuscleClipSampler(clip);
        const pose: IRigPose = {
            label: "p",
            rotations: avatar.rig.joints.map((j) => j.restRotation.clone()),
            positions: avatar.rig.joints.map((j) => j.restPosition.clone()),
        };
        const direct = new HumanPose();
        const sampled = new HumanPose();
        const tolRad = (clip.toleranceDeg * Math.PI) / 180;
        expect(clip.frameCount).toBe(67);
        // The poses the clip is made from: the source's, denoised as the conversion denoises them.
        const denoiser = new RigPoseDenoiser(avatar, clip.frameCount, clip.frameRate, tolRad);
        for (let f = 0; f < clip.frameCount; f++) {
            source.samplePoseToRef(f / clip.frameRate, pose);
            denoiser.record(f, pose);
        }
        denoiser.smooth();
        for (let f = 0; f < clip.frameCount; f++) {
            source.samplePoseToRef(f / clip.frameRate, pose);
            denoiser.applyToRef(f, pose);
            EncodeHumanPose(avatar, pose, direct);
            sampler.sampleToRef(f / clip.frameRate, sampled);
            for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
                const d = Math.abs(setup.muscleToRadians(i, direct.values[i]) - setup.muscleToRadians(i, sampled.values[i]));
                if (d > tolRad * 1.0001) throw new Error(`frame ${f} ${MuscleNames[i]}: ${(d * 180) / Math.PI} deg off`);
            }
            expect(direct.bodyPosition.subtract(sampled.bodyPosition).length()).toBeLessThan(tolRad * 1.8);
        }
        // Much smaller than one value per curve and frame.
        expect(clip.keyCount).toBeLessThan(0.25 * clip.frameCount * MUSCLE_CLIP_CURVE_COUNT);
    });

    it("samples the same as a slow, obvious evaluation, forwards, backwards and at random", () => {
        // The clip's curves are splines: Hermite segments with the slopes of a dense solve (test/helpers).
        expect(clip.interpolation).toBe("spline");
        const slopes = clip.curves.map((c) => DenseSplineSlopes(c.frames, c.values));
        // Muscle curves in angle units (as the converter makes them) come out as muscle values.
        expect(clip.muscleUnit).toBe("angle");
        const slow = (c: number, frame: number): number => {
            const v = HermiteValueAt(clip.curves[c].frames, clip.curves[c].values, slopes[c], frame);
            return c < ALL_MUSCLE_COUNT ? AngleUnitToMuscleValue(c, v) : v;
        };
        const sampler = new MuscleClipSampler(clip);
        const times = [
            ...Array.from({ length: 200 }, (_, i) => (i / 199) * clip.durationSeconds),
            ...Array.from({ length: 100 }, (_, i) => clip.durationSeconds * (1 - i / 99)),
            ...Array.from({ length: 100 }, (_, i) => (((i * 7919) % 101) / 100) * clip.durationSeconds),
        ];
        for (const t of times) {
            const f = t * clip.frameRate;
            for (let c = 0; c < MUSCLE_CLIP_CURVE_COUNT; c++) {
                const a = sampler.evaluate(c, f);
                const b = slow(c, f);
                if (Math.abs(a - b) > 1e-6) throw new Error(`${MuscleCurveNames[c]} at ${t}: ${a} vs ${b}`);
            }
        }
    });

    it("wraps time when it loops and clamps it when it does not", () => {
        // Two walk cycles: the first and last poses match, so by default the clip loops.
        expect(ConvertRigPosesToMuscleClip(avatar, source).loop).toBe(true);
        const looping = new MuscleClip({ ...clip, loop: true, curves: [...clip.curves], contacts: clip.contacts, warnings: [...clip.warnings] });
        const s = new MuscleClipSampler(looping);
        expect(s.frameAt(clip.durationSeconds + 0.5)).toBeCloseTo(0.5 * clip.frameRate, 6);
        expect(s.frameAt(-0.5)).toBeCloseTo(clip.frameCount - 1 - 0.5 * clip.frameRate, 6);
        const once = new MuscleClipSampler(clip);
        expect(once.frameAt(99)).toBe(clip.frameCount - 1);
        expect(once.frameAt(-1)).toBe(0);
        expect(once.frameAt(NaN)).toBe(0);
    });

    it("keeps -0 through JSON, so JSON and binary files of a clip give the same bytes", () => {
        const signed = new MuscleClip({
            ...clip,
            curves: clip.curves.map((c, i) => (i === 0 ? { frames: Uint32Array.of(0), values: Float32Array.of(-0) } : c)),
            warnings: [],
        });
        const back = ParseMuscleClipJson(SerializeMuscleClipToJson(signed), "x.json");
        expect(Object.is(back.curves[0].values[0], -0)).toBe(true);
        expect(Buffer.from(SerializeMuscleClipToBinary(back)).equals(Buffer.from(SerializeMuscleClipToBinary(signed)))).toBe(true);
    });

    it("round-trips through both file formats: binary bit-exact, JSON to the same values", () => {
        const bin = SerializeMuscleClipToBinary(clip);
        const back = ParseMuscleClipBinary(bin, "walk.muscle.bin");
        expect(Buffer.from(SerializeMuscleClipToBinary(back)).equals(Buffer.from(bin))).toBe(true);
        const json = SerializeMuscleClipToJson(clip);
        const fromJson = ParseMuscleClipJson(json, "walk.muscle.json");
        expect(Buffer.from(SerializeMuscleClipToBinary(fromJson)).equals(Buffer.from(bin))).toBe(true);
        expect(SerializeMuscleClipToJson(fromJson)).toBe(json);
        expect(ParseMuscleClip(new TextEncoder().encode(json), "x").keyCount).toBe(clip.keyCount);
        expect(ParseMuscleClip(bin, "x").keyCount).toBe(clip.keyCount);
        for (let c = 0; c < MUSCLE_CLIP_CURVE_COUNT; c++) {
            expect(Array.from(fromJson.curves[c].values)).toEqual(Array.from(clip.curves[c].values));
        }
        expect(Array.from(back.contacts)).toEqual(Array.from(clip.contacts));
        expect([back.name, back.source, back.frameRate, back.frameCount, back.loop, back.toleranceDeg, back.groundHeight]).toEqual([
            clip.name,
            clip.source,
            clip.frameRate,
            clip.frameCount,
            clip.loop,
            clip.toleranceDeg,
            clip.groundHeight,
        ]);
        // The binary file is compact: under four bytes a key (a frame step, a value step or two), five as float32s.
        expect(bin.length).toBeLessThan(4 * clip.keyCount);
        // Values off their grid (or a clip made without steps) go as float32s, and read back the same.
        const raw = unstepped(clip);
        const rawBin = SerializeMuscleClipToBinary(raw);
        expect(rawBin.length).toBeGreaterThan(4 * clip.keyCount);
        const rawBack = ParseMuscleClipBinary(rawBin, "raw.bin");
        for (const c of [0, CURVE_HIPS]) expect(Array.from(rawBack.curves[c].values)).toEqual(Array.from(clip.curves[c].values));
        const offGrid = new MuscleClip({
            ...clip,
            curves: clip.curves.map((c, i) => (i === 0 ? { ...c, values: c.values.map((v) => v + c.step! / 3) } : c)),
            warnings: [],
        });
        const offBack = ParseMuscleClipBinary(SerializeMuscleClipToBinary(offGrid), "off.bin");
        expect(Array.from(offBack.curves[0].values)).toEqual(Array.from(offGrid.curves[0].values));
        expect(offBack.curves[0].step).toBeUndefined();
        // Every converted curve is on its grid, so every other curve kept its step.
        for (let c = 1; c < MUSCLE_CLIP_CURVE_COUNT; c++) expect(offBack.curves[c].step).toBe(clip.curves[c].step);
    });

    it("keeps converted key values on a grid a sixteenth of each curve's tolerance (the trunk's, on shared key frames, a sixteenth of that), and the pose within the tolerance", () => {
        const setup = MuscleSetup.For(avatar);
        // The sample walk's trunk has a steadier point than its hips: its curves share key frames.
        expect(clip.proportions!.trunkSteadyPoint).toBeGreaterThan(0);
        for (let c = 0; c < MUSCLE_CLIP_CURVE_COUNT; c++) {
            const curve = clip.curves[c];
            const tolerance = GetCurveTolerance(setup, c, clip.toleranceDeg);
            expect(curve.step).toBe(Math.fround(tolerance / (TRUNK_CLIP_CURVES.includes(c) ? 16 * 16 : 16)));
            for (const v of curve.values) expect(Math.fround((Math.round(v / curve.step!) + 0) * curve.step!)).toBe(v);
        }
    });
});

describe("curve interpolation in files", () => {
    it("both formats keep a clip's interpolation, and a clip read back samples as the one written", () => {
        const catmullRom = new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], interpolation: "catmull-rom" });
        for (const c of [clip, catmullRom]) {
            for (const back of [
                ParseMuscleClip(SerializeMuscleClipToBinary(c), "a.bin"),
                ParseMuscleClip(new TextEncoder().encode(SerializeMuscleClipToJson(c)), "a.json"),
            ]) {
                expect(back.interpolation).toBe(c.interpolation);
                const a = new MuscleClipSampler(c);
                const b = new MuscleClipSampler(back);
                for (let f = 0; f < c.frameCount - 1; f += 0.37)
                    for (const k of [0, 7, CURVE_BODY_POSITION + 1]) expect(b.evaluate(k, f)).toBe(a.evaluate(k, f));
            }
        }
        // The two are other curves through the same keys.
        const s = new MuscleClipSampler(clip);
        const r = new MuscleClipSampler(catmullRom);
        let most = 0;
        for (let f = 0; f < clip.frameCount - 1; f += 0.5)
            most = Math.max(most, Math.abs(s.evaluate(CURVE_BODY_POSITION + 1, f) - r.evaluate(CURVE_BODY_POSITION + 1, f)));
        expect(most).toBeGreaterThan(0);
    });
});
