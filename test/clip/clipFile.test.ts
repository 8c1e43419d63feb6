import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    RigPoseDenoiser,
    CURVE_BODY_POSITION,
    CURVE_HIPS,
    CURVE_TRANSLATIONS,
    EncodeHumanPose,
    FootContact,
    GetCurveTolerance,
    TRUNK_CLIP_CURVES,
    HumanPose,
    HumanoidError,
    MuscleClip,
    MuscleClipSampler,
    MuscleCurveNames,
    MUSCLE_CLIP_CURVE_COUNT,
    MUSCLE_CLIP_VERSION,
    MirrorMuscleClip,
    MuscleSetup,
    ParseMuscleClip,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SampleCharacters,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
    ALL_MUSCLE_COUNT,
    AngleUnitToMuscleValue,
    MuscleNames,
    type IClipProportions,
    type IRigPose,
} from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { WithContactEnds, WithoutProportionKeys, WithProportions } from "../helpers/clips.js";
import { errorOf } from "../helpers/errors.js";
import { DenseSplineSlopes, HermiteValueAt } from "../helpers/splineOracle.js";

/** What a version 2 file keeps of a clip's proportions: all but the thigh share, the trunk, the leg directions, the trunk and shoulder layouts and the foot length. */
function versionTwoProportions(p: IClipProportions): IClipProportions {
    const {
        thighShare: _share,
        trunkLength: _length,
        trunkSteadyPoint: _point,
        thighDirection: _thigh,
        shinDirection: _shin,
        trunkOffsets: _offsets,
        shoulderOffsets: _shoulders,
        footLength: _foot,
        ...rest
    } = p;
    return rest;
}

const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[1]));
const source = new SampleWalkSource(avatar, 2.2, 30);
/**
 * The sample walk's clip without its foot length (version 11, whose own tests are in
 * footLengthFile.test.ts): the cases below edit files down to older versions and patch a
 * version 10 file's bytes.
 */
const clip = WithoutProportionKeys(ConvertRigPosesToMuscleClip(avatar, source, { loop: false }), "footLength");
/**
 * Fifteen trunk offsets of known values (version 7): x y z of a spine, chest, upper chest, neck
 * and head, the neck unmapped (zeros), one -0 (which both formats keep).
 */
const TRUNK_OFFSETS = [0.0012, 0.0523, 0.0125, -0, 0.1213, -0.0071, 0.0004, 0.1187, -0.0152, 0, 0, 0, 1e-3, 0.1642, 0.0231];
/**
 * Twelve shoulder offsets of known values (version 9): x y z of the left shoulder joint from the
 * chest's, of the left upper-arm joint from the left shoulder's, then the same two on the right;
 * lopsided (the right side is not the left's mirror image, so a mirror shows), one -0 (which both
 * formats keep).
 */
const SHOULDER_OFFSETS = [-0.0362, 0.1087, -0.0036, -0.1449, -0, -0.0109, 0.0411, 0.1023, 0.0052, 0.1387, 0.0021, -0.0125];
/**
 * The clip with a trunk (version 5), a trunk layout (version 7) and a shoulder layout (version 9)
 * of known values in its proportions, whatever the converter gave it.
 */
const trunked = withShoulderOffsets(withTrunkOffsets(withTrunk(clip, 0.6180339887498949, 0.7777777777777778), TRUNK_OFFSETS), SHOULDER_OFFSETS);

/** A copy of a clip whose proportions have no leg directions (nor the later trunk and shoulder layouts: as a file before version 6 reads). */
function withoutLegDirections(c: MuscleClip): MuscleClip {
    return WithoutProportionKeys(c, "thighDirection", "shinDirection", "trunkOffsets", "shoulderOffsets");
}

/** A copy of a clip whose proportions have the given shoulder layout (or none: undefined). */
function withShoulderOffsets(c: MuscleClip, shoulderOffsets: readonly number[] | undefined): MuscleClip {
    const { proportions } = WithoutProportionKeys(c, "shoulderOffsets");
    return WithProportions(c, { ...proportions!, ...(shoulderOffsets !== undefined ? { shoulderOffsets } : {}) });
}

/** A copy of a clip whose proportions have the given trunk layout (or none: undefined). */
function withTrunkOffsets(c: MuscleClip, trunkOffsets: readonly number[] | undefined): MuscleClip {
    const { proportions } = WithoutProportionKeys(c, "trunkOffsets");
    return WithProportions(c, { ...proportions!, ...(trunkOffsets !== undefined ? { trunkOffsets } : {}) });
}

/** A copy of a clip whose proportions have the given trunk (or none: both undefined). */
function withTrunk(c: MuscleClip, trunkLength: number | undefined, trunkSteadyPoint: number | undefined): MuscleClip {
    const { proportions } = WithoutProportionKeys(c, "trunkLength", "trunkSteadyPoint");
    return WithProportions(c, {
        ...proportions!,
        ...(trunkLength !== undefined ? { trunkLength } : {}),
        ...(trunkSteadyPoint !== undefined ? { trunkSteadyPoint } : {}),
    });
}

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

/** Both writers (JSON and binary) refuse the clip with one `FILE_WRITE` error whose message matches. */
function expectBothWritersToRefuse(c: MuscleClip, message: RegExp): void {
    for (const write of [SerializeMuscleClipToJson, SerializeMuscleClipToBinary]) {
        const e = errorOf(() => write(c));
        expect(e.code).toBe("FILE_WRITE");
        expect(e.message).toMatch(message);
    }
}

type Patch = (b: Uint8Array) => Uint8Array;

/** The clip as a file before version 8 reads it: the same curves, taken as muscle values. */
function muscleValued(c: MuscleClip): MuscleClip {
    return new MuscleClip({ ...c, curves: [...c.curves], warnings: [...c.warnings], muscleUnit: "muscle" });
}

/** The clip with every curve's step dropped: its values go into a binary file as float32s. */
function unstepped(c: MuscleClip): MuscleClip {
    return new MuscleClip({ ...c, curves: c.curves.map((k) => ({ frames: k.frames, values: k.values })), warnings: [...c.warnings] });
}

/** Binary patches: [what, change to a copy of the bytes, expected message]. */
function binaryCases(): Array<[string, Patch, RegExp]> {
    // Flags 2 | 4 | 8 | 32 | 64 | 128 | 256 | 512: a ground height, the proportions, the thigh share, the trunk, the leg directions, the trunk layout, muscle curves in angle units and the shoulder layout.
    const bin = SerializeMuscleClipToBinary(trunked);
    const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
    const copy = (): Uint8Array => bin.slice();
    // Offsets: magic 0, version 4, flags 6, rate 8, frames 16, tolerance 20, [ground height 28 when
    // flag 2], [six proportions, 48 bytes, when flag 4, the thigh share, 8 more, when flag 8, the
    // trunk, 16 more, when flag 32, the thigh and shin directions, 48 more, when flag 64, the
    // trunk offsets, 120 more, when flag 128, and the shoulder offsets, 96 more, when flag 512],
    // then the name.
    expect(new DataView(bin.buffer).getUint16(6, true)).toBe(2 | 4 | 8 | 32 | 64 | 128 | 256 | 512);
    const trunkAt = 28 + 8 + 48 + 8;
    const legAt = trunkAt + 16;
    const offsetsAt = legAt + 48;
    const shouldersAt = offsetsAt + 120;
    // The shoulder offsets as written, where this layout puts them.
    for (let i = 0; i < 12; i++) expect(Object.is(new DataView(bin.buffer).getFloat64(shouldersAt + 8 * i, true), SHOULDER_OFFSETS[i])).toBe(true);
    const firstCurve = (() => {
        let p =
            28 +
            (bin[6] & 2 ? 8 : 0) +
            (bin[6] & 4 ? 48 : 0) +
            (bin[6] & 8 ? 8 : 0) +
            (bin[6] & 32 ? 16 : 0) +
            (bin[6] & 64 ? 48 : 0) +
            (bin[6] & 128 ? 120 : 0) +
            (bin[7] & 2 ? 96 : 0); // flag 512: bit 1 of the flags' high byte
        const varint = (): number => {
            let v = 0;
            let s = 1;
            for (;;) {
                const b = bin[p++];
                v += (b & 127) * s;
                if (!(b & 128)) return v;
                s *= 128;
            }
        };
        const skipString = (): void => {
            const n = varint(); // read first: p moves past the length
            p += n;
        };
        skipString(); // name
        skipString(); // source
        const w = varint();
        for (let i = 0; i < w; i++) skipString();
        return p + 2; // after the curve count
    })();
    const cases: Array<[string, Patch, RegExp]> = [
        ["an empty file", () => new Uint8Array(0), /not a binary muscle clip/],
        ["another magic", (b) => (b.set([0x42, 0x48, 0x4d, 0x58], 0), b), /not a binary muscle clip/],
        [
            `version ${MUSCLE_CLIP_VERSION + 1}`,
            (b) => (dv(b).setUint16(4, MUSCLE_CLIP_VERSION + 1, true), b),
            new RegExp(`unknown muscle clip version ${MUSCLE_CLIP_VERSION + 1} \\(this library reads versions 1 to ${MUSCLE_CLIP_VERSION}\\)`),
        ],
        ["version 0", (b) => (dv(b).setUint16(4, 0, true), b), /unknown muscle clip version 0/],
        ["unknown flags", (b) => (dv(b).setUint16(6, 4096 | 1006, true), b), new RegExp(`unknown flags 0x13ee for version ${MUSCLE_CLIP_VERSION}$`)],
        ["a shoulder layout in a version 8 file", (b) => (dv(b).setUint16(4, 8, true), b), /unknown flags 0x3ee for version 8$/],
        ["angle units in a version 7 file", (b) => (dv(b).setUint16(4, 7, true), dv(b).setUint16(6, 494, true), b), /unknown flags 0x1ee for version 7$/],
        ["a trunk layout in a version 6 file", (b) => (dv(b).setUint16(4, 6, true), dv(b).setUint16(6, 238, true), b), /unknown flags 0xee for version 6/],
        ["leg directions in a version 5 file", (b) => (dv(b).setUint16(4, 5, true), dv(b).setUint16(6, 110, true), b), /unknown flags 0x6e for version 5/],
        ["a trunk in a version 4 file", (b) => (dv(b).setUint16(4, 4, true), dv(b).setUint16(6, 46, true), b), /unknown flags 0x2e for version 4/],
        [
            "leg directions without the proportions",
            (b) => (dv(b).setUint16(6, 64, true), b),
            /flags: leg directions \(bit 6\) without the proportions \(bit 2\)/,
        ],
        [
            "a thigh direction that is not a unit vector",
            (b) => (dv(b).setFloat64(legAt, 2, true), b),
            /proportions.thighDirection must be a unit vector \[x, y, z\], found \[2, /,
        ],
        [
            "a NaN shin direction",
            (b) => (dv(b).setFloat64(legAt + 40, NaN, true), b),
            /proportions.shinDirection must be a unit vector \[x, y, z\], found \[.*NaN\]$/,
        ],
        [
            "a trunk layout without the proportions",
            (b) => (dv(b).setUint16(6, 128, true), b),
            /flags: a trunk layout \(bit 7\) without the proportions \(bit 2\)/,
        ],
        [
            "a trunk offset out of range",
            (b) => (dv(b).setFloat64(offsetsAt + 8 * 4, 2.5, true), b),
            /proportions.trunkOffsets\[4\] must be a number from -2 to 2 \(source scales\), found 2.5$/,
        ],
        [
            "a NaN trunk offset",
            (b) => (dv(b).setFloat64(offsetsAt + 8 * 14, NaN, true), b),
            /proportions.trunkOffsets\[14\] must be a number from -2 to 2 \(source scales\), found NaN$/,
        ],
        [
            "an infinite trunk offset",
            (b) => (dv(b).setFloat64(offsetsAt, -Infinity, true), b),
            /proportions.trunkOffsets\[0\] must be a number from -2 to 2 \(source scales\), found -Infinity$/,
        ],
        [
            "a shoulder layout without the proportions",
            (b) => (dv(b).setUint16(6, 512, true), b),
            /flags: a shoulder layout \(bit 9\) without the proportions \(bit 2\)$/,
        ],
        [
            "a shoulder offset out of range",
            (b) => (dv(b).setFloat64(shouldersAt + 8 * 9, 2.5, true), b),
            /proportions.shoulderOffsets\[9\] must be a number from -2 to 2 \(source scales\), found 2.5$/,
        ],
        [
            "a NaN shoulder offset",
            (b) => (dv(b).setFloat64(shouldersAt + 8 * 11, NaN, true), b),
            /proportions.shoulderOffsets\[11\] must be a number from -2 to 2 \(source scales\), found NaN$/,
        ],
        [
            "an infinite shoulder offset",
            (b) => (dv(b).setFloat64(shouldersAt, -Infinity, true), b),
            /proportions.shoulderOffsets\[0\] must be a number from -2 to 2 \(source scales\), found -Infinity$/,
        ],
        ["a trunk without the proportions", (b) => (dv(b).setUint16(6, 32, true), b), /flags: a trunk \(bit 5\) without the proportions \(bit 2\)/],
        [
            "a trunk length of 0",
            (b) => (dv(b).setFloat64(trunkAt, 0, true), b),
            /proportions.trunkLength must be a number from 0.05 to 5 \(source scales\), found 0$/,
        ],
        [
            "a NaN trunk steady point",
            (b) => (dv(b).setFloat64(trunkAt + 8, NaN, true), b),
            /proportions.trunkSteadyPoint must be a number from 0 to 1, found NaN$/,
        ],
        ["a thigh share in a version 2 file", (b) => (dv(b).setUint16(4, 2, true), dv(b).setUint16(6, 14, true), b), /unknown flags 0xe for version 2/],
        ["a thigh share without the proportions", (b) => (dv(b).setUint16(6, 8, true), b), /a thigh share \(bit 3\) without the proportions/],
        ["proportions in a version 1 file", (b) => (dv(b).setUint16(4, 1, true), dv(b).setUint16(6, 14, true), b), /unknown flags 0xe for version 1/],
        ["a NaN frame rate", (b) => (dv(b).setFloat64(8, NaN, true), b), /frameRate must be in/],
        ["no frames", (b) => (dv(b).setUint32(16, 0, true), b), /frameCount must be from 1/],
        ["a huge key count", (b) => (b.set([0xff, 0xff, 0xff, 0x7f], firstCurve), b), /key count is \d+, more than/],
        // One-byte key count n and n one-byte frame steps, then the value encoding (1: on a grid), the step and the values.
        ["an unknown value encoding", (b) => ((b[firstCurve + 1 + b[firstCurve]] = 7), b), /curve 'Spine Front-Back': unknown value encoding 7/],
        ["a NaN value step", (b) => (dv(b).setFloat32(firstCurve + 2 + b[firstCurve], NaN, true), b), /value step must be a positive number, found NaN/],
        ["a negative value step", (b) => (dv(b).setFloat32(firstCurve + 2 + b[firstCurve], -0.5, true), b), /value step must be a positive number, found -0.5/],
        [
            "a NaN value (float32 values)",
            () => {
                const raw = SerializeMuscleClipToBinary(unstepped(trunked));
                expect(raw[firstCurve + 1 + raw[firstCurve]]).toBe(0);
                dv(raw).setFloat32(firstCurve + 2 + raw[firstCurve], NaN, true);
                return raw;
            },
            /is not a finite number/,
        ],
        ["keys that do not start on frame 0", (b) => ((b[firstCurve + 1] = 3), b), /first key must be on frame 0/],
        ["a trailing byte", (b) => Uint8Array.from([...b, 0]), /1 unexpected bytes after the clip/],
        [
            "a wrong curve count",
            (b) => (dv(b).setUint16(firstCurve - 2, 150, true), b),
            new RegExp(`expected ${MUSCLE_CLIP_CURVE_COUNT} curves in a version ${MUSCLE_CLIP_VERSION} file, found 150`),
        ],
        ["a truncated file", (b) => b.subarray(0, b.length - 3), /truncated/],
    ];
    return cases.map(([what, f, re]) => [what, () => f(copy()), re]);
}

describe("reading invalid muscle clip files", () => {
    it.each(binaryCases())("binary: %s gives one clear error naming the file", (_what, patch, re) => {
        const e = errorOf(() => ParseMuscleClipBinary(patch(new Uint8Array()), "bad.muscle.bin"));
        expect(e).toBeInstanceOf(HumanoidError);
        expect(e.code).toBe("CLIP_PARSE");
        expect(e.message).toMatch(/^bad\.muscle\.bin: /);
        expect(e.message).toMatch(re);
    });

    it("binary: every truncation gives a clear error, never a crash or a half clip", () => {
        const bin = SerializeMuscleClipToBinary(clip);
        for (let n = 0; n < bin.length; n += n < 200 ? 1 : 97) {
            const e = errorOf(() => ParseMuscleClipBinary(bin.subarray(0, n), "cut.bin"));
            expect(e.code).toBe("CLIP_PARSE");
        }
    });

    const json = JSON.parse(SerializeMuscleClipToJson(trunked)) as Record<string, unknown>;
    // The file as loosely typed JSON, to break in every way.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    type Loose = Record<string, any>;
    const edit = (f: (o: Loose) => void): string => {
        const o = structuredClone(json) as Loose;
        f(o);
        return JSON.stringify(o);
    };
    const firstMuscle = MuscleCurveNames[0];
    const cases: Array<[string, string, RegExp]> = [
        ["not JSON", "{ nope", /does not parse/],
        ["a list", "[]", /top level is not an object/],
        ["another format", edit((o) => (o.format = "other")), /format is "other"/],
        ["version 99", edit((o) => (o.version = 99)), /unknown muscle clip version 99/],
        ["an unknown key", edit((o) => (o.extra = 1)), /unknown key 'extra'/],
        ["a missing key", edit((o) => delete o.frameRate), /missing key 'frameRate'/],
        ["a string frame count", edit((o) => (o.frameCount = "67")), /frameCount must be a number/],
        ["a huge frame count", edit((o) => (o.frameCount = 1e12)), /frameCount must be a whole number from 1/],
        ["a missing curve", edit((o) => delete o.curves[firstMuscle]), new RegExp(`missing curve '${firstMuscle}'`)],
        ["an unknown curve", edit((o) => (o.curves["Tail Wag"] = { frames: [0], values: [0] })), /unknown curve 'Tail Wag'/],
        ["an extra key in a curve", edit((o) => (o.curves[firstMuscle].tangents = [])), /exactly the keys frames and values/],
        ["frames and values of different lengths", edit((o) => o.curves[firstMuscle].values.push(0)), /frames and .* values/],
        ["a NaN value", edit((o) => (o.curves[firstMuscle].values[0] = "NaN")), /values must be numbers/],
        ["an infinite value", SerializeMuscleClipToJson(clip).replace(/("values": \[)[^,\]]+/, "$11e999"), /not a finite number/],
        ["a frame off the grid", edit((o) => (o.curves[firstMuscle].frames[0] = 0.5)), /whole frame numbers/],
        ["a frame past the end", edit((o) => (o.curves[firstMuscle].frames[0] = 67)), /within 0..66/],
        ["frames out of order", edit((o) => o.curves["bodyPosition.z"].frames.reverse()), /first key must be on frame 0|must increase/],
        ["a contact past the end", edit((o) => o.contacts.leftFoot.push([60, 70])), /not a \[start, end\] range of frames within 0..66/],
        [
            "contact ranges that overlap",
            edit(
                (o) =>
                    (o.contacts.rightFoot = [
                        [0, 40],
                        [10, 20],
                    ]),
            ),
            /\[10,20\] starts before the previous range ends/,
        ],
        ["an unknown foot", edit((o) => (o.contacts.leftHand = [])), /contacts: unknown key 'leftHand'/],
        ["warnings that are not strings", edit((o) => (o.warnings = [1])), /warnings must be a list of strings/],
        [
            "proportions in a version 1 file",
            edit((o) => ((o.version = 1), dropContactEnds(o), delete o.interpolation, delete o.muscleUnit)),
            /proportions is a version 2 key/,
        ],
        [
            "a hips curve in a version 1 file",
            edit((o) => ((o.version = 1), dropContactEnds(o), delete o.proportions, delete o.interpolation, delete o.muscleUnit)),
            /unknown curve 'hips.position.x' in a version 1 file/,
        ],
        ["a missing hips curve", edit((o) => delete o.curves["hips.turn.y"]), /missing curve 'hips.turn.y'/],
        ["proportions that are not an object", edit((o) => (o.proportions = 1)), /proportions must be an object/],
        ["an unknown proportion", edit((o) => (o.proportions.tailLength = 1)), /proportions: unknown key 'tailLength'/],
        ["a leg length of 0", edit((o) => (o.proportions.legLength = 0)), /proportions.legLength must be a number from 0.05 to 5/],
        ["a foot direction that is not a unit vector", edit((o) => (o.proportions.footDirection = [0, 0, 2])), /footDirection must be a unit vector/],
        ["a foot direction of two numbers", edit((o) => (o.proportions.footDirection = [0, 1])), /footDirection must be \[x, y, z\]/],
        [
            "a thigh share in a version 2 file",
            edit((o) => ((o.version = 2), dropContactEnds(o), delete o.interpolation, delete o.muscleUnit, dropTranslations(o))),
            /proportions.thighShare is a version 3 key, the file says version 2/,
        ],
        [
            "an interpolation in a version 2 file",
            edit((o) => ((o.version = 2), dropContactEnds(o), delete o.proportions.thighShare, delete o.muscleUnit, dropTrunk(o), dropTranslations(o))),
            /interpolation is a version 3 key, the file says version 2/,
        ],
        ["an unknown interpolation", edit((o) => (o.interpolation = "bezier")), /interpolation must be "spline" or "catmull-rom", found "bezier"/],
        ["a thigh share that is not a number", edit((o) => (o.proportions.thighShare = "half")), /proportions.thighShare must be a number$/],
        ["a thigh share of 1", edit((o) => (o.proportions.thighShare = 1)), /proportions.thighShare must be a number from 0.05 to 0.95, found 1/],
        [
            "a trunk in a version 4 file",
            edit((o) => ((o.version = 4), dropContactEnds(o), delete o.muscleUnit)),
            /proportions.trunkLength is a version 5 key, the file says version 4/,
        ],
        [
            "a trunk steady point in a version 4 file",
            edit((o) => ((o.version = 4), dropContactEnds(o), delete o.proportions.trunkLength, delete o.muscleUnit)),
            /proportions.trunkSteadyPoint is a version 5 key, the file says version 4/,
        ],
        [
            "a trunk length without a steady point",
            edit((o) => delete o.proportions.trunkSteadyPoint),
            /proportions.trunkLength is given without proportions.trunkSteadyPoint/,
        ],
        [
            "a trunk steady point without a length",
            edit((o) => delete o.proportions.trunkLength),
            /proportions.trunkSteadyPoint is given without proportions.trunkLength/,
        ],
        ["a trunk length that is not a number", edit((o) => (o.proportions.trunkLength = "long")), /proportions.trunkLength must be a number$/],
        ["a trunk steady point that is not a number", edit((o) => (o.proportions.trunkSteadyPoint = null)), /proportions.trunkSteadyPoint must be a number$/],
        [
            "a trunk length of 0.01",
            edit((o) => (o.proportions.trunkLength = 0.01)),
            /proportions.trunkLength must be a number from 0.05 to 5 \(source scales\), found 0.01$/,
        ],
        [
            "a trunk length of 6",
            edit((o) => (o.proportions.trunkLength = 6)),
            /proportions.trunkLength must be a number from 0.05 to 5 \(source scales\), found 6$/,
        ],
        [
            "a trunk steady point of -0.1",
            edit((o) => (o.proportions.trunkSteadyPoint = -0.1)),
            /proportions.trunkSteadyPoint must be a number from 0 to 1, found -0.1$/,
        ],
        [
            "leg directions in a version 5 file",
            edit((o) => ((o.version = 5), dropContactEnds(o), delete o.muscleUnit)),
            /proportions.thighDirection is a version 6 key, the file says version 5/,
        ],
        [
            "a thigh direction without a shin direction",
            edit((o) => delete o.proportions.shinDirection),
            /proportions.thighDirection is given without proportions.shinDirection \(the source's leg has both or neither\)/,
        ],
        ["a shin direction of two numbers", edit((o) => (o.proportions.shinDirection = [0, -1])), /proportions.shinDirection must be \[x, y, z\]$/],
        [
            "a thigh direction that is not a unit vector",
            edit((o) => (o.proportions.thighDirection = [0, -0.5, 0])),
            /proportions.thighDirection must be a unit vector \[x, y, z\], found \[0, -0.5, 0\]/,
        ],
        [
            "a thigh direction that points up",
            edit((o) => (o.proportions.thighDirection = [0, 1, 0])),
            /proportions.thighDirection must point down \(y at most -0.5: a T-pose leg\), found \[0, 1, 0\]/,
        ],
        [
            "a shin direction level with the ground",
            edit((o) => (o.proportions.shinDirection = [1, 0, 0])),
            /proportions.shinDirection must point down \(y at most -0.5: a T-pose leg\), found \[1, 0, 0\]/,
        ],
        [
            "a trunk steady point of 1.5",
            edit((o) => (o.proportions.trunkSteadyPoint = 1.5)),
            /proportions.trunkSteadyPoint must be a number from 0 to 1, found 1.5$/,
        ],
        [
            "a trunk layout in a version 6 file",
            edit((o) => ((o.version = 6), dropContactEnds(o), delete o.muscleUnit)),
            /proportions.trunkOffsets is a version 7 key, the file says version 6$/,
        ],
        ["a muscle unit in a version 7 file", edit((o) => ((o.version = 7), dropContactEnds(o))), /muscleUnit is a version 8 key, the file says version 7$/],
        ["an unknown muscle unit", edit((o) => (o.muscleUnit = "degrees")), /muscleUnit must be "muscle" or "angle", found "degrees"$/],
        [
            "a trunk layout of 14 numbers",
            edit((o) => o.proportions.trunkOffsets.pop()),
            /proportions.trunkOffsets must be a list of 15 numbers \(x y z of the spine, chest, upper chest, neck and head\), found a list of 14$/,
        ],
        [
            "a trunk layout of 16 numbers",
            edit((o) => o.proportions.trunkOffsets.push(0)),
            /proportions.trunkOffsets must be a list of 15 numbers \(x y z of the spine, chest, upper chest, neck and head\), found a list of 16$/,
        ],
        [
            "a trunk layout that is not a list",
            edit((o) => (o.proportions.trunkOffsets = { spine: [0, 0.1, 0] })),
            /proportions.trunkOffsets must be a list of 15 numbers, found \{"spine":\[0,0.1,0\]\}$/,
        ],
        ["a trunk offset that is a string", edit((o) => (o.proportions.trunkOffsets[3] = "0")), /proportions.trunkOffsets\[3\] must be a number, found "0"$/],
        ["a null trunk offset", edit((o) => (o.proportions.trunkOffsets[7] = null)), /proportions.trunkOffsets\[7\] must be a number, found null$/],
        [
            "a trunk offset out of range",
            edit((o) => (o.proportions.trunkOffsets[13] = -2.01)),
            /proportions.trunkOffsets\[13\] must be a number from -2 to 2 \(source scales\), found -2.01$/,
        ],
        [
            "an infinite trunk offset",
            edit((o) => (o.proportions.trunkOffsets[1] = 12345.5)).replace("12345.5", "1e999"),
            /proportions.trunkOffsets\[1\] must be a number from -2 to 2 \(source scales\), found Infinity$/,
        ],
        [
            "a shoulder layout in a version 8 file",
            edit((o) => ((o.version = 8), dropContactEnds(o))),
            /proportions.shoulderOffsets is a version 9 key, the file says version 8$/,
        ],
        [
            "a shoulder layout of 11 numbers",
            edit((o) => o.proportions.shoulderOffsets.pop()),
            /proportions.shoulderOffsets must be a list of 12 numbers \(x y z of the left shoulder, left upper arm, right shoulder and right upper arm\), found a list of 11$/,
        ],
        [
            "a shoulder layout of 13 numbers",
            edit((o) => o.proportions.shoulderOffsets.push(0)),
            /proportions.shoulderOffsets must be a list of 12 numbers \(x y z of the left shoulder, left upper arm, right shoulder and right upper arm\), found a list of 13$/,
        ],
        [
            "an empty shoulder layout",
            edit((o) => (o.proportions.shoulderOffsets = [])),
            /proportions.shoulderOffsets must be a list of 12 numbers \(.*\), found a list of 0$/,
        ],
        [
            "a shoulder layout that is not a list",
            edit((o) => (o.proportions.shoulderOffsets = { left: [0, 0.1, 0] })),
            /proportions.shoulderOffsets must be a list of 12 numbers, found \{"left":\[0,0.1,0\]\}$/,
        ],
        [
            "a shoulder layout that is a number",
            edit((o) => (o.proportions.shoulderOffsets = 0.1)),
            /proportions.shoulderOffsets must be a list of 12 numbers, found 0.1$/,
        ],
        [
            "a shoulder offset that is a string",
            edit((o) => (o.proportions.shoulderOffsets[3] = "0")),
            /proportions.shoulderOffsets\[3\] must be a number, found "0"$/,
        ],
        ["a null shoulder offset", edit((o) => (o.proportions.shoulderOffsets[8] = null)), /proportions.shoulderOffsets\[8\] must be a number, found null$/],
        [
            "a shoulder offset past 2",
            edit((o) => (o.proportions.shoulderOffsets[10] = 2.01)),
            /proportions.shoulderOffsets\[10\] must be a number from -2 to 2 \(source scales\), found 2.01$/,
        ],
        [
            "a shoulder offset past -2",
            edit((o) => (o.proportions.shoulderOffsets[6] = -2.5)),
            /proportions.shoulderOffsets\[6\] must be a number from -2 to 2 \(source scales\), found -2.5$/,
        ],
        [
            "an infinite shoulder offset",
            edit((o) => (o.proportions.shoulderOffsets[1] = 12345.5)).replace("12345.5", "1e999"),
            /proportions.shoulderOffsets\[1\] must be a number from -2 to 2 \(source scales\), found Infinity$/,
        ],
    ];
    it.each(cases)("JSON: %s gives one clear error naming the file", (_what, text, re) => {
        const e = errorOf(() => ParseMuscleClipJson(text, "bad.muscle.json"));
        expect(e.code).toBe("CLIP_PARSE");
        expect(e.message).toMatch(/^bad\.muscle\.json: /);
        expect(e.message).toMatch(re);
    });

    it("the body position and hips curves are where the layout says", () => {
        expect(MuscleCurveNames[CURVE_BODY_POSITION]).toBe("bodyPosition.x");
        expect(MuscleCurveNames[CURVE_HIPS]).toBe("hips.position.x");
        expect(MuscleCurveNames[CURVE_HIPS + 3]).toBe("hips.turn.x");
        expect(MuscleCurveNames[CURVE_TRANSLATIONS]).toBe("translation.spine.x");
        expect(MUSCLE_CLIP_CURVE_COUNT).toBe(ALL_MUSCLE_COUNT + 7 + 28 + 3 + 6 + 33);
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

describe("the source's trunk in files (version 5)", () => {
    const untrunked = withTrunk(clip, undefined, undefined);
    const untrunkedWithLegs = untrunked;

    it("both formats keep the trunk length and steady point exactly", () => {
        const bin = SerializeMuscleClipToBinary(trunked);
        const json = SerializeMuscleClipToJson(trunked);
        expect(JSON.parse(json).proportions).toMatchObject({ trunkLength: 0.6180339887498949, trunkSteadyPoint: 0.7777777777777778 });
        for (const back of [ParseMuscleClipBinary(bin, "a.bin"), ParseMuscleClipJson(json, "a.json")]) {
            expect(back.proportions).toEqual(trunked.proportions);
            expect(back.proportionValues[7]).toBe(0.6180339887498949);
            expect(back.proportionValues[8]).toBe(0.7777777777777778);
            expect(Buffer.from(SerializeMuscleClipToBinary(back)).equals(Buffer.from(bin))).toBe(true);
            expect(SerializeMuscleClipToJson(back)).toBe(json);
        }
        // Flag bit 5 and two f64 after the thigh share; without a trunk, neither.
        const plain = SerializeMuscleClipToBinary(untrunked);
        expect(new DataView(bin.buffer).getUint16(6, true) & 32).toBe(32);
        expect(new DataView(plain.buffer).getUint16(6, true) & 32).toBe(0);
        expect(bin.length - plain.length).toBe(16);
        const at = 28 + (bin[6] & 2 ? 8 : 0) + 48 + 8;
        expect(new DataView(bin.buffer).getFloat64(at, true)).toBe(0.6180339887498949);
        expect(new DataView(bin.buffer).getFloat64(at + 8, true)).toBe(0.7777777777777778);
        expect(SerializeMuscleClipToJson(untrunked)).not.toMatch(/trunkLength|trunkSteadyPoint/);
        expect(ParseMuscleClipBinary(plain, "b.bin").proportions).toEqual(untrunked.proportions);
        // The ends of the ranges are valid.
        for (const [length, point] of [
            [0.05, 0],
            [5, 1],
        ]) {
            const edge = withTrunk(clip, length, point);
            expect(ParseMuscleClipBinary(SerializeMuscleClipToBinary(edge), "e.bin").proportions).toEqual(edge.proportions);
            expect(ParseMuscleClipJson(SerializeMuscleClipToJson(edge), "e.json").proportions).toEqual(edge.proportions);
        }
    });

    it("JSON: still reads a version 4 file, the proportions without the trunk", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(trunked));
        o.version = 4;
        dropContactEnds(o);
        delete o.muscleUnit;
        dropTrunk(o);
        const old = ParseMuscleClipJson(JSON.stringify(o), "old.muscle.json");
        const untrunked = withoutLegDirections(untrunkedWithLegs);
        expect(old.proportions).toEqual(untrunked.proportions);
        expect(old.proportions!.thighShare).toBe(clip.proportions!.thighShare);
        expect(old.proportionValues[7]).toBeNaN();
        expect(old.proportionValues[8]).toBeNaN();
        expect(old.interpolation).toBe("spline");
        expect(old.muscleUnit).toBe("muscle");
        expect(SerializeMuscleClipToJson(old)).toBe(SerializeMuscleClipToJson(muscleValued(untrunked)));
    });

    it("binary: still reads a version 4 file (no flag bits 5 to 9, no trunk, leg, trunk layout or shoulder layout bytes)", () => {
        const bin = SerializeMuscleClipToBinary(trunked);
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        expect(dv.getUint16(6, true) & (32 | 64 | 128 | 512)).toBe(32 | 64 | 128 | 512);
        const at = 28 + (bin[6] & 2 ? 8 : 0) + 48 + 8;
        const old = withoutContactEndBytes(Uint8Array.from([...bin.subarray(0, at), ...bin.subarray(at + 16 + 48 + 120 + 96)]));
        const odv = new DataView(old.buffer);
        odv.setUint16(4, 4, true);
        odv.setUint16(6, dv.getUint16(6, true) & ~(32 | 64 | 128 | 256 | 512), true);
        const untrunked = withoutLegDirections(untrunkedWithLegs);
        const back = ParseMuscleClipBinary(old, "old.muscle.bin");
        expect(back.proportions).toEqual(untrunked.proportions);
        expect(back.proportionValues[7]).toBeNaN();
        expect(back.interpolation).toBe("spline");
        // The rest of the file is as written: it writes back as this version's file of the clip without a trunk.
        expect(Buffer.from(SerializeMuscleClipToBinary(back)).equals(Buffer.from(SerializeMuscleClipToBinary(muscleValued(untrunked))))).toBe(true);
    });

    it("refuses to write a trunk of one number or out of range", () => {
        for (const [c, re] of [
            [withTrunk(clip, 0.6, undefined), /proportions.trunkLength is given without proportions.trunkSteadyPoint/],
            [withTrunk(clip, undefined, 0.5), /proportions.trunkSteadyPoint is given without proportions.trunkLength/],
            [withTrunk(clip, 0.04, 0.5), /proportions.trunkLength must be a number from 0.05 to 5 \(source scales\), found 0.04/],
            [withTrunk(clip, 0.6, 1.01), /proportions.trunkSteadyPoint must be a number from 0 to 1, found 1.01/],
            [withTrunk(clip, NaN, 0.5), /proportions.trunkLength must be a number from 0.05 to 5 \(source scales\), found NaN/],
        ] as const) {
            expectBothWritersToRefuse(c, re);
        }
    });
});

describe("the source's T-pose leg directions in files (version 6)", () => {
    it("the converter gives them (unit, the mean of the left leg and the right one's mirror image) and both formats keep them exactly", () => {
        const p = clip.proportions!;
        expect(p.thighDirection).toBeDefined();
        expect(Math.hypot(...p.thighDirection!)).toBeCloseTo(1, 12);
        expect(Math.hypot(...p.shinDirection!)).toBeCloseTo(1, 12);
        // A leg that hangs down in its T-pose.
        expect(p.thighDirection![1]).toBeLessThan(-0.9);
        expect(p.shinDirection![1]).toBeLessThan(-0.9);
        const bin = SerializeMuscleClipToBinary(clip);
        const json = SerializeMuscleClipToJson(clip);
        expect(JSON.parse(json).proportions.thighDirection).toEqual([...p.thighDirection!]);
        for (const back of [ParseMuscleClipBinary(bin, "a.bin"), ParseMuscleClipJson(json, "a.json")]) {
            expect(back.proportions).toEqual(p);
            expect(Array.from(back.proportionValues.subarray(9, 15))).toEqual([...p.thighDirection!, ...p.shinDirection!]);
        }
        // Without them: neither flag bit 6 nor its 48 bytes, and NaN in the array form.
        const plain = WithoutProportionKeys(clip, "thighDirection", "shinDirection");
        const plainBin = SerializeMuscleClipToBinary(plain);
        expect(new DataView(plainBin.buffer).getUint16(6, true) & 64).toBe(0);
        expect(bin.length - plainBin.length).toBe(48);
        expect(SerializeMuscleClipToJson(plain)).not.toMatch(/thighDirection|shinDirection/);
        expect(Array.from(ParseMuscleClipBinary(plainBin, "b.bin").proportionValues.subarray(9, 15)).every(Number.isNaN)).toBe(true);
    });

    it("JSON: still reads a version 5 file, the proportions without leg directions", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(clip));
        o.version = 5;
        dropContactEnds(o);
        delete o.muscleUnit;
        dropLegDirections(o);
        const old = ParseMuscleClipJson(JSON.stringify(o), "old.muscle.json");
        expect(old.proportions).toEqual(withoutLegDirections(clip).proportions);
        expect(old.proportionValues[9]).toBeNaN();
    });
});

describe("the source's trunk layout in files (version 7)", () => {
    const layoutless = withTrunkOffsets(trunked, undefined);
    /** The clip as a version 6 file has it: neither the trunk layout nor the later shoulder layout. */
    const versionSix = withShoulderOffsets(layoutless, undefined);
    /** Where the trunk offsets start in a binary file of `trunked` (after its ground height, proportions, thigh share, trunk and leg directions). */
    const offsetsAt = (bin: Uint8Array): number => 28 + (bin[6] & 2 ? 8 : 0) + 48 + 8 + 16 + 48;

    it("this library writes version 12 (the trunk layout since 7, the feet's still ends since 10, the foot length since 11, the source's start since 12)", () => {
        expect(MUSCLE_CLIP_VERSION).toBe(12);
        expect(JSON.parse(SerializeMuscleClipToJson(trunked)).version).toBe(MUSCLE_CLIP_VERSION);
        const bin = SerializeMuscleClipToBinary(trunked);
        expect(new DataView(bin.buffer, bin.byteOffset, bin.byteLength).getUint16(4, true)).toBe(MUSCLE_CLIP_VERSION);
    });

    it("both formats keep the 15 trunk offsets exactly (a -0 too)", () => {
        const bin = SerializeMuscleClipToBinary(trunked);
        const json = SerializeMuscleClipToJson(trunked);
        expect(json).toContain(`"trunkOffsets":[${TRUNK_OFFSETS.map((x) => (Object.is(x, -0) ? "-0" : String(x))).join(",")}]`);
        // Flag bit 7 and 15 f64 after the leg directions.
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        expect(dv.getUint16(6, true) & 128).toBe(128);
        const at = offsetsAt(bin);
        for (let i = 0; i < 15; i++) expect(Object.is(dv.getFloat64(at + 8 * i, true), TRUNK_OFFSETS[i])).toBe(true);
        for (const back of [ParseMuscleClipBinary(bin, "a.bin"), ParseMuscleClipJson(json, "a.json")]) {
            expect(back.proportions).toEqual(trunked.proportions);
            const offsets = back.proportions!.trunkOffsets!;
            expect(offsets).toHaveLength(15);
            for (let i = 0; i < 15; i++) expect(Object.is(offsets[i], TRUNK_OFFSETS[i])).toBe(true);
            for (let i = 0; i < 15; i++) expect(Object.is(back.proportionValues[15 + i], TRUNK_OFFSETS[i])).toBe(true);
            expect(Buffer.from(SerializeMuscleClipToBinary(back)).equals(Buffer.from(bin))).toBe(true);
            expect(SerializeMuscleClipToJson(back)).toBe(json);
        }
        // The ends of the range are valid.
        const edge = withTrunkOffsets(trunked, [2, -2, ...TRUNK_OFFSETS.slice(2)]);
        expect(ParseMuscleClipBinary(SerializeMuscleClipToBinary(edge), "e.bin").proportions).toEqual(edge.proportions);
        expect(ParseMuscleClipJson(SerializeMuscleClipToJson(edge), "e.json").proportions).toEqual(edge.proportions);
    });

    it("a clip without them writes neither the key nor flag bit 7 and its 120 bytes, and reads back without them", () => {
        const bin = SerializeMuscleClipToBinary(layoutless);
        const json = SerializeMuscleClipToJson(layoutless);
        expect(json).not.toMatch(/trunkOffsets/);
        expect(new DataView(bin.buffer, bin.byteOffset, bin.byteLength).getUint16(6, true) & 128).toBe(0);
        expect(SerializeMuscleClipToBinary(trunked).length - bin.length).toBe(120);
        for (const back of [ParseMuscleClipBinary(bin, "b.bin"), ParseMuscleClipJson(json, "b.json")]) {
            expect("trunkOffsets" in back.proportions!).toBe(false);
            expect(back.proportions).toEqual(layoutless.proportions);
            expect(Array.from(back.proportionValues.subarray(15, 30)).every(Number.isNaN)).toBe(true);
        }
    });

    it("JSON: still reads a version 6 file, the proportions without the trunk layout", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(trunked));
        o.version = 6;
        dropContactEnds(o);
        delete o.muscleUnit;
        delete o.proportions.trunkOffsets;
        delete o.proportions.shoulderOffsets;
        const old = ParseMuscleClipJson(JSON.stringify(o), "old.muscle.json");
        expect(old.proportions).toEqual(versionSix.proportions);
        expect(old.proportions!.thighDirection).toEqual(trunked.proportions!.thighDirection);
        expect(old.proportionValues[15]).toBeNaN();
        expect(SerializeMuscleClipToJson(old)).toBe(SerializeMuscleClipToJson(muscleValued(versionSix)));
    });

    it("binary: still reads a version 6 file (no flag bits 7 and 9, no trunk or shoulder layout bytes)", () => {
        const bin = SerializeMuscleClipToBinary(trunked);
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        const at = offsetsAt(bin);
        const old = withoutContactEndBytes(Uint8Array.from([...bin.subarray(0, at), ...bin.subarray(at + 120 + 96)]));
        const odv = new DataView(old.buffer);
        odv.setUint16(4, 6, true);
        odv.setUint16(6, dv.getUint16(6, true) & ~(128 | 256 | 512), true);
        const back = ParseMuscleClipBinary(old, "old.muscle.bin");
        expect(back.proportions).toEqual(versionSix.proportions);
        expect(back.proportionValues[15]).toBeNaN();
        // The rest of the file is as written: it writes back as this version's file of the clip without a trunk layout.
        expect(Buffer.from(SerializeMuscleClipToBinary(back)).equals(Buffer.from(SerializeMuscleClipToBinary(muscleValued(versionSix))))).toBe(true);
    });

    it("refuses to write a trunk layout of another count or out of range", () => {
        const some = TRUNK_OFFSETS.slice(0, 14);
        for (const [offsets, re] of [
            [some, /proportions.trunkOffsets must be a list of 15 numbers \(x y z of the spine, chest, upper chest, neck and head\), found a list of 14$/],
            [[...TRUNK_OFFSETS, 0], /proportions.trunkOffsets must be a list of 15 numbers .*, found a list of 16$/],
            [[...some, 2.01], /proportions.trunkOffsets\[14\] must be a number from -2 to 2 \(source scales\), found 2.01$/],
            [[NaN, ...some], /proportions.trunkOffsets\[0\] must be a number from -2 to 2 \(source scales\), found NaN$/],
            [
                [...some.slice(0, 5), Infinity, ...some.slice(5)],
                /proportions.trunkOffsets\[5\] must be a number from -2 to 2 \(source scales\), found Infinity$/,
            ],
            // A sparse list (made in code): its holes are refused too, not written as NaN or null.
            [
                Object.assign(new Array<number>(15), { 0: 0.1, 14: 0.1 }),
                /proportions.trunkOffsets\[1\] must be a number from -2 to 2 \(source scales\), found undefined$/,
            ],
        ] as const) {
            const c = withTrunkOffsets(trunked, offsets);
            expectBothWritersToRefuse(c, re);
        }
    });
});

describe("the source's shoulder layout in files (version 9)", () => {
    const shoulderless = withShoulderOffsets(trunked, undefined);
    /** Where the shoulder offsets start in a binary file of `trunked` (after its ground height, proportions, thigh share, trunk, leg directions and trunk layout). */
    const shouldersAt = (bin: Uint8Array): number => 28 + (bin[6] & 2 ? 8 : 0) + 48 + 8 + 16 + 48 + 120;
    /** SHOULDER_OFFSETS as the source's mirror image has them: the right side's numbers as the left's and the other way round, each x turned over. */
    const MIRRORED_SHOULDER_OFFSETS = [-0.0411, 0.1023, 0.0052, -0.1387, 0.0021, -0.0125, 0.0362, 0.1087, -0.0036, 0.1449, -0, -0.0109];

    it("the converter gives them for a source that maps both shoulders, one side the other's mirror image on the symmetric sample", () => {
        const s = clip.proportions!.shoulderOffsets!;
        expect(s).toHaveLength(12);
        expect(s.every((x) => Math.abs(x) <= 2)).toBe(true);
        // The left shoulder and upper arm reach out to -x, the right ones to +x; the shoulders sit above their chest joint.
        expect(s[0]).toBeLessThan(0);
        expect(s[3]).toBeLessThan(-0.1);
        expect(s[6]).toBeGreaterThan(0);
        expect(s[9]).toBeGreaterThan(0.1);
        expect(s[1]).toBeGreaterThan(0);
        for (let i = 0; i < 6; i++) expect(s[6 + i]).toBeCloseTo(i % 3 === 0 ? -s[i] : s[i], 12);
        // Both formats keep the converter's numbers exactly.
        for (const back of [
            ParseMuscleClipBinary(SerializeMuscleClipToBinary(clip), "a.bin"),
            ParseMuscleClipJson(SerializeMuscleClipToJson(clip), "a.json"),
        ]) {
            expect(back.proportions!.shoulderOffsets).toEqual(s);
        }
    });

    it("both formats keep the 12 shoulder offsets exactly (a -0 too)", () => {
        const bin = SerializeMuscleClipToBinary(trunked);
        const json = SerializeMuscleClipToJson(trunked);
        expect(json).toContain(`"shoulderOffsets":[${SHOULDER_OFFSETS.map((x) => (Object.is(x, -0) ? "-0" : String(x))).join(",")}]`);
        // Flag bit 9 and 12 f64 after the trunk layout.
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        expect(dv.getUint16(6, true) & 512).toBe(512);
        const at = shouldersAt(bin);
        for (let i = 0; i < 12; i++) expect(Object.is(dv.getFloat64(at + 8 * i, true), SHOULDER_OFFSETS[i])).toBe(true);
        // The trunk layout just before them is whole.
        for (let i = 0; i < 15; i++) expect(Object.is(dv.getFloat64(at - 120 + 8 * i, true), TRUNK_OFFSETS[i])).toBe(true);
        for (const back of [ParseMuscleClipBinary(bin, "a.bin"), ParseMuscleClipJson(json, "a.json")]) {
            expect(back.proportions).toEqual(trunked.proportions);
            const offsets = back.proportions!.shoulderOffsets!;
            expect(offsets).toHaveLength(12);
            for (let i = 0; i < 12; i++) expect(Object.is(offsets[i], SHOULDER_OFFSETS[i])).toBe(true);
            for (let i = 0; i < 12; i++) expect(Object.is(back.proportionValues[30 + i], SHOULDER_OFFSETS[i])).toBe(true);
            expect(Object.is(back.proportionValues[4 + 30], -0)).toBe(true);
            expect(Buffer.from(SerializeMuscleClipToBinary(back)).equals(Buffer.from(bin))).toBe(true);
            expect(SerializeMuscleClipToJson(back)).toBe(json);
        }
        // The ends of the range are valid.
        const edgeOffsets = [...SHOULDER_OFFSETS.slice(0, 10), 2, -2];
        const edge = withShoulderOffsets(trunked, edgeOffsets);
        expect(ParseMuscleClipBinary(SerializeMuscleClipToBinary(edge), "e.bin").proportions!.shoulderOffsets).toEqual(edgeOffsets);
        expect(ParseMuscleClipJson(SerializeMuscleClipToJson(edge), "e.json").proportions!.shoulderOffsets).toEqual(edgeOffsets);
    });

    it("a clip without them writes neither the key nor flag bit 9 and its 96 bytes, and reads back without them", () => {
        const bin = SerializeMuscleClipToBinary(shoulderless);
        const json = SerializeMuscleClipToJson(shoulderless);
        expect(json).not.toMatch(/shoulderOffsets/);
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        expect(dv.getUint16(6, true)).toBe(2 | 4 | 8 | 32 | 64 | 128 | 256);
        expect(SerializeMuscleClipToBinary(trunked).length - bin.length).toBe(96);
        for (const back of [ParseMuscleClipBinary(bin, "b.bin"), ParseMuscleClipJson(json, "b.json")]) {
            expect("shoulderOffsets" in back.proportions!).toBe(false);
            expect(back.proportions).toEqual(shoulderless.proportions);
            expect(back.proportions!.trunkOffsets).toEqual(TRUNK_OFFSETS);
            expect(Array.from(back.proportionValues.subarray(30, 42)).every(Number.isNaN)).toBe(true);
            expect(Array.from(back.proportionValues.subarray(15, 30))).toEqual(TRUNK_OFFSETS);
        }
    });

    it("a shoulder layout without a trunk layout comes right after the leg directions (flag bit 9 without bit 7)", () => {
        const c = withTrunkOffsets(trunked, undefined);
        const bin = SerializeMuscleClipToBinary(c);
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        expect(dv.getUint16(6, true) & (128 | 512)).toBe(512);
        expect(SerializeMuscleClipToBinary(trunked).length - bin.length).toBe(120);
        const at = shouldersAt(bin) - 120;
        for (let i = 0; i < 12; i++) expect(Object.is(dv.getFloat64(at + 8 * i, true), SHOULDER_OFFSETS[i])).toBe(true);
        for (const back of [ParseMuscleClipBinary(bin, "c.bin"), ParseMuscleClipJson(SerializeMuscleClipToJson(c), "c.json")]) {
            expect("trunkOffsets" in back.proportions!).toBe(false);
            expect(back.proportions).toEqual(c.proportions);
            expect(back.proportions!.shoulderOffsets).toEqual(SHOULDER_OFFSETS);
        }
    });

    it("JSON: still reads a version 8 file, the proportions without the shoulder layout", () => {
        // Edited as text: JSON.stringify would write the trunk layout's -0 as 0.
        const text = SerializeMuscleClipToJson(trunked);
        const v8 = text
            .replace(`"version": ${MUSCLE_CLIP_VERSION},`, '"version": 8,')
            .replace(/,"shoulderOffsets":\[[^\]]*\]/, "")
            .replace(',"leftAnkleStill":[],"rightAnkleStill":[],"leftToesStill":[],"rightToesStill":[]', "");
        expect(v8.length).toBeLessThan(text.length - 60);
        expect(v8).not.toMatch(/shoulderOffsets/);
        expect(JSON.parse(v8).version).toBe(8);
        const old = ParseMuscleClipJson(v8, "old.muscle.json");
        expect("shoulderOffsets" in old.proportions!).toBe(false);
        expect(old.proportions).toEqual(shoulderless.proportions);
        expect(old.proportions!.trunkOffsets).toEqual(TRUNK_OFFSETS);
        expect(Object.is(old.proportions!.trunkOffsets![3], -0)).toBe(true);
        expect(old.muscleUnit).toBe("angle");
        expect(old.proportionValues[30]).toBeNaN();
        expect(old.proportionValues[41]).toBeNaN();
        expect(SerializeMuscleClipToJson(old)).toBe(SerializeMuscleClipToJson(shoulderless));
    });

    it("binary: still reads a version 8 file (no flag bit 9, no shoulder layout bytes)", () => {
        const bin = SerializeMuscleClipToBinary(trunked);
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        const at = shouldersAt(bin);
        const old = withoutContactEndBytes(Uint8Array.from([...bin.subarray(0, at), ...bin.subarray(at + 96)]));
        const odv = new DataView(old.buffer);
        odv.setUint16(4, 8, true);
        odv.setUint16(6, dv.getUint16(6, true) & ~512, true);
        expect(odv.getUint16(6, true)).toBe(2 | 4 | 8 | 32 | 64 | 128 | 256);
        const back = ParseMuscleClipBinary(old, "old.muscle.bin");
        expect("shoulderOffsets" in back.proportions!).toBe(false);
        expect(back.proportions).toEqual(shoulderless.proportions);
        expect(back.muscleUnit).toBe("angle");
        expect(back.proportionValues[30]).toBeNaN();
        // The rest of the file is as written: it writes back as this version's file of the clip without a shoulder layout.
        expect(Buffer.from(SerializeMuscleClipToBinary(back)).equals(Buffer.from(SerializeMuscleClipToBinary(shoulderless)))).toBe(true);
    });

    it("refuses to write a shoulder layout of another count or out of range", () => {
        const some = SHOULDER_OFFSETS.slice(0, 11);
        for (const [offsets, re] of [
            [
                some,
                /proportions.shoulderOffsets must be a list of 12 numbers \(x y z of the left shoulder, left upper arm, right shoulder and right upper arm\), found a list of 11$/,
            ],
            [[...SHOULDER_OFFSETS, 0], /proportions.shoulderOffsets must be a list of 12 numbers .*, found a list of 13$/],
            [[...some, 2.01], /proportions.shoulderOffsets\[11\] must be a number from -2 to 2 \(source scales\), found 2.01$/],
            [[NaN, ...some], /proportions.shoulderOffsets\[0\] must be a number from -2 to 2 \(source scales\), found NaN$/],
            [
                [...some.slice(0, 5), -Infinity, ...some.slice(5)],
                /proportions.shoulderOffsets\[5\] must be a number from -2 to 2 \(source scales\), found -Infinity$/,
            ],
            // A sparse list (made in code): its holes are refused too, not written as NaN or null.
            [
                Object.assign(new Array<number>(12), { 0: 0.1, 11: 0.1 }),
                /proportions.shoulderOffsets\[1\] must be a number from -2 to 2 \(source scales\), found undefined$/,
            ],
        ] as const) {
            const c = withShoulderOffsets(trunked, offsets);
            expectBothWritersToRefuse(c, re);
        }
    });

    it("a mirrored clip has the mirror image of the shoulder layout (the sides swapped, x turned over), which both formats keep; mirroring twice gives it back", () => {
        const m = MirrorMuscleClip(trunked);
        const mirrored = m.proportions!.shoulderOffsets!;
        expect(mirrored).toHaveLength(12);
        for (let i = 0; i < 12; i++) expect(Object.is(mirrored[i], MIRRORED_SHOULDER_OFFSETS[i])).toBe(true);
        for (let i = 0; i < 12; i++) expect(Object.is(m.proportionValues[30 + i], MIRRORED_SHOULDER_OFFSETS[i])).toBe(true);
        // The input is not changed.
        for (let i = 0; i < 12; i++) expect(Object.is(trunked.proportions!.shoulderOffsets![i], SHOULDER_OFFSETS[i])).toBe(true);
        // The trunk layout still mirrors (x turned over) beside it, the rest of the proportions as they were.
        expect(m.proportions!.trunkOffsets).toEqual(TRUNK_OFFSETS.map((x, i) => (i % 3 === 0 ? -x : x)));
        expect(WithoutProportionKeys(m, "trunkOffsets", "shoulderOffsets").proportions).toEqual(
            WithoutProportionKeys(trunked, "trunkOffsets", "shoulderOffsets").proportions,
        );
        for (const back of [ParseMuscleClipBinary(SerializeMuscleClipToBinary(m), "m.bin"), ParseMuscleClipJson(SerializeMuscleClipToJson(m), "m.json")]) {
            for (let i = 0; i < 12; i++) expect(Object.is(back.proportions!.shoulderOffsets![i], MIRRORED_SHOULDER_OFFSETS[i])).toBe(true);
        }
        const twice = MirrorMuscleClip(m);
        expect(twice.proportions).toEqual(trunked.proportions);
        for (let i = 0; i < 12; i++) expect(Object.is(twice.proportions!.shoulderOffsets![i], SHOULDER_OFFSETS[i])).toBe(true);
        expect(Buffer.from(SerializeMuscleClipToBinary(twice)).equals(Buffer.from(SerializeMuscleClipToBinary(trunked)))).toBe(true);
        // A clip without a shoulder layout mirrors without one.
        const plain = MirrorMuscleClip(shoulderless);
        expect("shoulderOffsets" in plain.proportions!).toBe(false);
        expect(Array.from(plain.proportionValues.subarray(30, 42)).every(Number.isNaN)).toBe(true);
    });
});

describe("version 2 muscle clips (before the thigh share)", () => {
    it("JSON: still reads, the proportions without a thigh share", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(trunked));
        o.version = 2;
        dropContactEnds(o);
        delete o.muscleUnit;
        delete o.proportions.thighShare;
        delete o.interpolation;
        dropTrunk(o);
        dropTranslations(o);
        const old = ParseMuscleClipJson(JSON.stringify(o), "old.muscle.json");
        expect(old.interpolation).toBe("catmull-rom");
        expect(trunked.proportions!.thighShare).toBeGreaterThan(0);
        expect(old.proportions).toEqual(versionTwoProportions(trunked.proportions!));
        expect(old.proportionValues[6]).toBeNaN();
    });

    it("binary: still reads a version 2 file (proportions of six numbers, flags up to bit 2)", () => {
        // The same bytes as this version's, less the thigh share, the trunk, the leg directions and
        // the trunk and shoulder layouts (flag bits 3, 5, 6, 7 and 9, and the 8, 16, 48, 120 and 96
        // bytes after the foot direction) and the translation curves (version 4).
        const bin = withoutTranslationCurves(trunked);
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        expect(dv.getUint16(6, true) & (236 | 512)).toBe(236 | 512);
        const at = 28 + (bin[6] & 2 ? 8 : 0) + 48;
        const old = withoutContactEndBytes(Uint8Array.from([...bin.subarray(0, at), ...bin.subarray(at + 8 + 16 + 48 + 120 + 96)]));
        const odv = new DataView(old.buffer);
        odv.setUint16(4, 2, true);
        odv.setUint16(6, dv.getUint16(6, true) & 7, true);
        const back = ParseMuscleClipBinary(old, "old.muscle.bin");
        expect(back.interpolation).toBe("catmull-rom");
        expect(back.proportions).toEqual(versionTwoProportions(trunked.proportions!));
        for (const c of [0, 5, CURVE_BODY_POSITION, CURVE_HIPS + 2]) expect(Array.from(back.curves[c].values)).toEqual(Array.from(clip.curves[c].values));
    });
});

describe("version 1 muscle clips (before the source's proportions)", () => {
    /** The clip as a version 1 file would have it: no proportions, no hips curves. */
    const v1Json = (): string => {
        const o = JSON.parse(SerializeMuscleClipToJson(clip));
        o.version = 1;
        dropContactEnds(o);
        delete o.muscleUnit;
        delete o.proportions;
        delete o.interpolation;
        for (const c of MuscleCurveNames.slice(CURVE_HIPS)) delete o.curves[c];
        for (const c of Object.values(o.curves) as Array<{ step?: number }>) delete c.step;
        return JSON.stringify(o);
    };
    it("JSON: still reads, without proportions, hips curves as 0", () => {
        const old = ParseMuscleClipJson(v1Json(), "old.muscle.json");
        expect(old.proportions).toBeNull();
        expect(old.curves).toHaveLength(MUSCLE_CLIP_CURVE_COUNT);
        expect(Array.from(old.curves[CURVE_HIPS].values)).toEqual([0]);
        expect(Array.from(old.curves[0].values)).toEqual(Array.from(clip.curves[0].values));
    });

    it("binary: still reads a version 1 file (161 curves, float32 values, no proportions flag)", () => {
        const old = ParseMuscleClipBinary(versionOneBinary(clip), "old.muscle.bin");
        expect(old.proportions).toBeNull();
        expect(old.curves).toHaveLength(MUSCLE_CLIP_CURVE_COUNT);
        expect(Array.from(old.curves[CURVE_HIPS].values)).toEqual([0]);
        for (const c of [0, 5, CURVE_BODY_POSITION, CURVE_HIPS - 1]) expect(Array.from(old.curves[c].values)).toEqual(Array.from(clip.curves[c].values));
        expect(Array.from(old.contacts)).toEqual(Array.from(clip.contacts));
        expect([old.name, old.frameRate, old.frameCount, old.groundHeight]).toEqual([clip.name, clip.frameRate, clip.frameCount, clip.groundHeight]);
    });

    it("the converter records the source's proportions, and both formats keep them exactly", () => {
        const p = clip.proportions!;
        const setup = MuscleSetup.For(avatar);
        expect(p.legLength).toBeCloseTo(setup.legLength / setup.scale, 12);
        expect(p.ankleHeight).toBeCloseTo(setup.ankleHeight / setup.scale, 12);
        expect(p.hipWidth).toBeCloseTo(setup.hipWidth / setup.scale, 12);
        expect(Math.hypot(...p.footDirection)).toBeCloseTo(1, 9);
        expect(p.thighShare).toBeCloseTo(setup.thighShare, 12);
        expect(p.thighShare).toBeGreaterThan(0.3);
        expect(p.thighShare).toBeLessThan(0.7);
        for (const back of [
            ParseMuscleClip(SerializeMuscleClipToBinary(clip), "a.bin"),
            ParseMuscleClip(new TextEncoder().encode(SerializeMuscleClipToJson(clip)), "a.json"),
        ]) {
            expect(back.proportions).toEqual(p);
        }
    });
});

describe("the feet's still ends in files (version 10)", () => {
    const ended = WithContactEnds(clip);
    /** A copy of the clip with these contacts. */
    const withContacts = (contacts: Uint8Array): MuscleClip => new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], contacts });

    it("both formats keep every frame's still ends exactly, JSON as runs by name", () => {
        expect(ended.contacts.some((c) => c & FootContact.LeftAnkleStill) && ended.contacts.some((c) => c & FootContact.RightToesStill)).toBe(true);
        expect(Array.from(ParseMuscleClipBinary(SerializeMuscleClipToBinary(ended), "e.bin").contacts)).toEqual(Array.from(ended.contacts));
        const text = SerializeMuscleClipToJson(ended);
        expect(Array.from(ParseMuscleClipJson(text, "e.json").contacts)).toEqual(Array.from(ended.contacts));
        const o = JSON.parse(text);
        expect(Object.keys(o.contacts)).toEqual(["leftFoot", "rightFoot", "leftAnkleStill", "rightAnkleStill", "leftToesStill", "rightToesStill"]);
        // The first left contact: the ankle over its first half, the toes over the rest.
        const [a, b] = o.contacts.leftFoot[0];
        expect(o.contacts.leftAnkleStill[0][0]).toBe(a);
        expect(o.contacts.leftToesStill[0][1]).toBe(b);
    });

    it("JSON: the ends are optional (none known where left out)", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(ended));
        delete o.contacts.leftToesStill;
        delete o.contacts.rightAnkleStill;
        const back = ParseMuscleClipJson(JSON.stringify(o), "e.json");
        expect(Array.from(back.contacts)).toEqual(Array.from(ended.contacts, (c) => c & ~(FootContact.LeftToesStill | FootContact.RightAnkleStill)));
    });

    it("an end outside its foot's contact, both ends of a foot at once or an unknown flag: one clear error naming the frame, in reading and in writing", () => {
        const left = clip.contacts.findIndex((c) => c === FootContact.Left);
        const air = clip.contacts.findIndex((c) => c === 0);
        const cases: Array<[number, number, RegExp]> = [
            [air, FootContact.LeftToesStill, new RegExp(`contacts.leftToesStill: frame ${air} is not in a contact of its foot \\(leftFoot\\)$`)],
            [left, FootContact.RightAnkleStill, new RegExp(`contacts.rightAnkleStill: frame ${left} is not in a contact of its foot \\(rightFoot\\)$`)],
            [
                left,
                FootContact.LeftAnkleStill | FootContact.LeftToesStill,
                new RegExp(`contacts: frame ${left} has both still ends of the left foot \\(leftAnkleStill and leftToesStill\\)$`),
            ],
            [left, 64, new RegExp(`contacts: frame ${left} has flags 0x41, beyond the known 0x3f$`)],
        ];
        for (const [frame, flags, message] of cases) {
            const contacts = clip.contacts.slice();
            contacts[frame] |= flags;
            expectBothWritersToRefuse(withContacts(contacts), message);
        }
        // Read from a file: the JSON names the runs' keys (the binary reader, below, the same).
        const o = JSON.parse(SerializeMuscleClipToJson(clip));
        o.contacts.leftToesStill = [[air, air]];
        const e = errorOf(() => ParseMuscleClipJson(JSON.stringify(o), "bad.muscle.json"));
        expect(e.code).toBe("CLIP_PARSE");
        expect(e.message).toBe(`bad.muscle.json: contacts.leftToesStill: frame ${air} is not in a contact of its foot (leftFoot)`);
        o.contacts.leftToesStill = [[left, left]];
        o.contacts.leftAnkleStill = [[left, left]];
        expect(errorOf(() => ParseMuscleClipJson(JSON.stringify(o), "bad.muscle.json")).message).toMatch(/has both still ends of the left foot/);
    });

    it("binary: an end outside its foot's contact in a file is refused naming the frame; a version 9 file reads with no ends", () => {
        // The sample walk's clip has no ends: its file ends with four empty lists (one byte each).
        const bin = SerializeMuscleClipToBinary(clip);
        expect(Array.from(bin.subarray(bin.length - 4))).toEqual([0, 0, 0, 0]);
        const air = clip.contacts.findIndex((c) => c === 0);
        expect(air).toBeGreaterThan(0);
        expect(air).toBeLessThan(128);
        // The left toes' list (the third): one run, its gap from frame 0 and its length 1 (LEB128, one byte each).
        const bad = Uint8Array.from([...bin.subarray(0, bin.length - 4), 0, 0, 1, air, 1, 0]);
        const e = errorOf(() => ParseMuscleClipBinary(bad, "bad.muscle.bin"));
        expect(e.code).toBe("CLIP_PARSE");
        expect(e.message).toBe(`bad.muscle.bin: contacts.leftToesStill: frame ${air} is not in a contact of its foot (leftFoot)`);
        // A version 9 file: the same bytes without the four lists.
        const v9 = withoutContactEndBytes(bin);
        new DataView(v9.buffer, v9.byteOffset, v9.byteLength).setUint16(4, 9, true);
        expect(Array.from(ParseMuscleClipBinary(v9, "old.muscle.bin").contacts)).toEqual(Array.from(clip.contacts));
        // ... and a version 10 file cut before them is truncated.
        expect(errorOf(() => ParseMuscleClipBinary(withoutContactEndBytes(bin), "cut.muscle.bin")).message).toMatch(/truncated/);
    });

    it("JSON: an end in a version 9 file gives one clear error naming the key; a version 9 file reads with no ends", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(ended));
        o.version = 9;
        const e = errorOf(() => ParseMuscleClipJson(JSON.stringify(o), "old.muscle.json"));
        expect(e.message).toBe("old.muscle.json: contacts.leftAnkleStill is a version 10 key, the file says version 9");
        for (const k of ["leftAnkleStill", "rightAnkleStill", "leftToesStill", "rightToesStill"]) delete o.contacts[k];
        expect(Array.from(ParseMuscleClipJson(JSON.stringify(o), "old.muscle.json").contacts)).toEqual(Array.from(clip.contacts));
    });
});

/** A JSON clip object without the feet's still ends in its contacts (as a file before version 10); the sample walk's clip has none (each an empty list). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON object as parsed, edited as the cases above edit it
function dropContactEnds(o: Record<string, any>): void {
    for (const k of ["leftAnkleStill", "rightAnkleStill", "leftToesStill", "rightToesStill"]) {
        expect(o.contacts[k]).toEqual([]);
        delete o.contacts[k];
    }
}

/** A binary clip less the runs of its feet's still ends (as a file before version 10): the sample walk's clip has none, four empty lists of one byte each at the file's end. */
function withoutContactEndBytes(bin: Uint8Array): Uint8Array {
    expect(Array.from(bin.subarray(bin.length - 4))).toEqual([0, 0, 0, 0]);
    return bin.slice(0, bin.length - 4);
}

/** A JSON clip object without its translation curves (as a file before version 4). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON object as parsed, edited as the cases above edit it
function dropTranslations(o: Record<string, any>): void {
    for (const c of MuscleCurveNames.slice(CURVE_TRANSLATIONS)) delete o.curves[c];
}

/** A JSON clip object without the source's trunk (version 5), leg directions (version 6), trunk layout (version 7) and shoulder layout (version 9) in its proportions (as a file before version 5). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON object as parsed, edited as the cases above edit it
function dropTrunk(o: Record<string, any>): void {
    delete o.proportions.trunkLength;
    delete o.proportions.trunkSteadyPoint;
    dropLegDirections(o);
}

/** A JSON clip object without the source's leg directions (version 6), trunk layout (version 7) and shoulder layout (version 9) in its proportions (as a file before version 6). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON object as parsed, edited as the cases above edit it
function dropLegDirections(o: Record<string, any>): void {
    delete o.proportions.thighDirection;
    delete o.proportions.shinDirection;
    delete o.proportions.trunkOffsets;
    delete o.proportions.shoulderOffsets;
}

/**
 * The binary file of a clip as version 3 had it: 167 curves (the translation curves, which come
 * last before the contacts, cut out) and the version field left for the caller. The clip's
 * translation curves are first made one float32 key of 0 each, 7 bytes (key count, frame step,
 * value encoding 0, the float32), so that they are easy to cut.
 */
function withoutTranslationCurves(c: MuscleClip): Uint8Array {
    const plain = new MuscleClip({
        ...c,
        curves: c.curves.map((curve, i) => (i < CURVE_TRANSLATIONS ? curve : { frames: new Uint32Array(1), values: new Float32Array(1) })),
        warnings: [...c.warnings],
    });
    const bin = SerializeMuscleClipToBinary(plain);
    const contacts = contactBytes(c.contacts);
    const end = bin.length - contacts;
    const cut = 7 * (MUSCLE_CLIP_CURVE_COUNT - CURVE_TRANSLATIONS);
    for (let k = end - cut; k < end; k += 7) expect(Array.from(bin.subarray(k, k + 7))).toEqual([1, 0, 0, 0, 0, 0, 0]);
    const out = Uint8Array.from([...bin.subarray(0, end - cut), ...bin.subarray(end)]);
    // The curve count (u16) sits just before the first curve: find it by its value.
    const dv = new DataView(out.buffer);
    let at = 28;
    while (dv.getUint16(at, true) !== MUSCLE_CLIP_CURVE_COUNT) at++;
    dv.setUint16(at, CURVE_TRANSLATIONS, true);
    return out;
}

/** Bytes of a binary file's contacts section: per foot, then per foot's still end (version 10), a LEB128 run count, then per run its gap and length. */
function contactBytes(contacts: Uint8Array): number {
    const varint = (v: number): number => {
        let n = 1;
        while (v >= 128) {
            v = Math.floor(v / 128);
            n++;
        }
        return n;
    };
    let bytes = 0;
    for (const bit of [1, 2, 4, 8, 16, 32]) {
        const runs: [number, number][] = [];
        for (let f = 0; f < contacts.length; f++) {
            if (!(contacts[f] & bit)) continue;
            const start = f;
            while (f + 1 < contacts.length && contacts[f + 1] & bit) f++;
            runs.push([start, f - start + 1]);
        }
        bytes += varint(runs.length);
        let end = 0;
        for (const [start, length] of runs) {
            bytes += varint(start - end) + varint(length);
            end = start + length;
        }
    }
    return bytes;
}

/**
 * A clip as a version 1 binary file, written here from the layout of version 1 (not by the
 * library): header without proportions, 161 curves of float32 values, no value encodings.
 */
function versionOneBinary(c: MuscleClip): Uint8Array {
    const out: number[] = [];
    const put = (n: number, f: (v: DataView) => void): void => {
        const b = new Uint8Array(n);
        f(new DataView(b.buffer));
        out.push(...b);
    };
    const varint = (v: number): void => {
        do {
            out.push((v % 128) | (v >= 128 ? 128 : 0));
            v = Math.floor(v / 128);
        } while (v > 0);
    };
    const text = (t: string): void => {
        const b = new TextEncoder().encode(t);
        varint(b.length);
        out.push(...b);
    };
    out.push(..."BHMC".split("").map((ch) => ch.charCodeAt(0)));
    put(2, (v) => v.setUint16(0, 1, true));
    put(2, (v) => v.setUint16(0, (c.loop ? 1 : 0) | (c.groundHeight !== 0 ? 2 : 0), true));
    put(8, (v) => v.setFloat64(0, c.frameRate, true));
    put(4, (v) => v.setUint32(0, c.frameCount, true));
    put(8, (v) => v.setFloat64(0, c.toleranceDeg, true));
    if (c.groundHeight !== 0) put(8, (v) => v.setFloat64(0, c.groundHeight, true));
    text(c.name);
    text(c.source);
    varint(c.warnings.length);
    c.warnings.forEach(text);
    put(2, (v) => v.setUint16(0, CURVE_HIPS, true));
    for (const curve of c.curves.slice(0, CURVE_HIPS)) {
        varint(curve.frames.length);
        let prev = 0;
        for (const f of curve.frames) {
            varint(f - prev);
            prev = f;
        }
        for (const x of curve.values) put(4, (v) => v.setFloat32(0, x, true));
    }
    for (const bit of [1, 2]) {
        const runs: [number, number][] = [];
        for (let f = 0; f < c.contacts.length; f++) {
            if (!(c.contacts[f] & bit)) continue;
            const start = f;
            while (f + 1 < c.contacts.length && c.contacts[f + 1] & bit) f++;
            runs.push([start, f - start + 1]);
        }
        varint(runs.length);
        let end = 0;
        for (const [start, length] of runs) {
            varint(start - end);
            varint(length);
            end = start + length;
        }
    }
    return Uint8Array.from(out);
}

describe("the muscle curves' unit in files (version 8)", () => {
    it("both formats keep it: angles as the converter makes them (key muscleUnit, binary flag bit 8), muscle values as older files hold", () => {
        expect(clip.muscleUnit).toBe("angle");
        for (const c of [clip, muscleValued(clip)]) {
            const bin = SerializeMuscleClipToBinary(c);
            const json = SerializeMuscleClipToJson(c);
            expect(new DataView(bin.buffer, bin.byteOffset, bin.byteLength).getUint16(6, true) & 256).toBe(c.muscleUnit === "angle" ? 256 : 0);
            expect(JSON.parse(json).muscleUnit).toBe(c.muscleUnit);
            for (const back of [ParseMuscleClipBinary(bin, "a.bin"), ParseMuscleClipJson(json, "a.json")]) {
                expect(back.muscleUnit).toBe(c.muscleUnit);
                const a = new MuscleClipSampler(c);
                const b = new MuscleClipSampler(back);
                for (let f = 0; f < c.frameCount; f += 0.75) for (let m = 0; m < ALL_MUSCLE_COUNT; m++) expect(b.evaluate(m, f)).toBe(a.evaluate(m, f));
            }
        }
    });

    it("a version 8 JSON file without the key holds muscle values; a clip of another unit is not written", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(clip));
        o.version = 8;
        dropContactEnds(o);
        delete o.proportions.shoulderOffsets;
        delete o.muscleUnit;
        expect(ParseMuscleClipJson(JSON.stringify(o), "a.json").muscleUnit).toBe("muscle");
        const odd = new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], muscleUnit: "degrees" as never });
        expectBothWritersToRefuse(odd, /muscleUnit must be "muscle" or "angle", found "degrees"$/);
    });

    it("the same curves read as muscle values or as angles differ only in the lopsided muscles, by their ends' ratio", () => {
        const asMuscle = new MuscleClipSampler(muscleValued(clip));
        const asAngle = new MuscleClipSampler(clip);
        for (let f = 0; f < clip.frameCount; f += 3) {
            for (let m = 0; m < ALL_MUSCLE_COUNT; m++) {
                const u = asMuscle.evaluate(m, f);
                expect(asAngle.evaluate(m, f)).toBeCloseTo(AngleUnitToMuscleValue(m, u), 12);
            }
        }
    });
});
