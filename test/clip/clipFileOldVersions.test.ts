import {
    CURVE_BODY_POSITION,
    CURVE_HIPS,
    CURVE_TRANSLATIONS,
    MuscleClip,
    MuscleCurveNames,
    MUSCLE_CLIP_CURVE_COUNT,
    MuscleSetup,
    ParseMuscleClip,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
    type IClipProportions,
} from "../../src/index.js";
import { avatar, clip, trunked, dropContactEnds, withoutContactEndBytes, dropTranslations, dropTrunk } from "../helpers/clipFileFixtures.js";

// Muscle clip files of versions 1 and 2 (before the source's proportions, then before the thigh share).

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
