import {
    MUSCLE_CLIP_VERSION,
    MirrorMuscleClip,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
} from "../../src/index.js";
import {
    clip,
    TRUNK_OFFSETS,
    SHOULDER_OFFSETS,
    trunked,
    withShoulderOffsets,
    withTrunkOffsets,
    expectBothWritersToRefuse,
    withoutContactEndBytes,
} from "../helpers/clipFileFixtures.js";
import { WithoutProportionKeys } from "../helpers/clips.js";

// The source's shoulder layout in muscle clip files (version 9).

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
