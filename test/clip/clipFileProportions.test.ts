import { MUSCLE_CLIP_VERSION, ParseMuscleClipBinary, ParseMuscleClipJson, SerializeMuscleClipToBinary, SerializeMuscleClipToJson } from "../../src/index.js";
import {
    clip,
    TRUNK_OFFSETS,
    trunked,
    withoutLegDirections,
    withShoulderOffsets,
    withTrunkOffsets,
    withTrunk,
    expectBothWritersToRefuse,
    muscleValued,
    dropContactEnds,
    withoutContactEndBytes,
    dropTrunk,
    dropLegDirections,
} from "../helpers/clipFileFixtures.js";
import { WithoutProportionKeys } from "../helpers/clips.js";

// The source's trunk (version 5), T-pose leg directions (version 6) and trunk layout (version 7)
// in muscle clip files. The shoulder layout (version 9) is in clipFileShoulderLayout.test.ts, the
// foot length (version 11) in footLengthFile.test.ts.

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
