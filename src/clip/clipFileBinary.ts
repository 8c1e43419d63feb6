// The muscle clip file as binary (`.muscle.bin`, "BHMC"): little-endian, values on a grid as integer
// differences.
import { MAX_CLIP_FRAMES, MAX_STRING_BYTES, MAX_WARNINGS, QuoteForMessage } from "../limits.js";
import { MuscleClip, MuscleCurveNames, MUSCLE_CLIP_CURVE_COUNT } from "./muscleClip.js";
import { type IMuscleCurve } from "./curve.js";
import { CLIP_SHOULDER_OFFSET_COUNT, CLIP_TRUNK_OFFSET_COUNT, type IClipProportions } from "./clipProportions.js";
import {
    AbsentCurve,
    ClipFileError,
    ContactFlagsOfVersion,
    ContactRuns,
    CurveCountOfVersion,
    MUSCLE_CLIP_MAGIC,
    MUSCLE_CLIP_OLDEST_VERSION,
    MUSCLE_CLIP_VERSION,
    ValidateMuscleClip,
} from "./clipFileRules.js";

/** Little-endian writer that grows as needed. */
class Writer {
    private _buf = new Uint8Array(1 << 16);
    private _view = new DataView(this._buf.buffer);
    public length = 0;

    private _room(n: number): void {
        if (this.length + n <= this._buf.length) return;
        const next = new Uint8Array(Math.max(this._buf.length * 2, this.length + n));
        next.set(this._buf.subarray(0, this.length));
        this._buf = next;
        this._view = new DataView(next.buffer);
    }
    public u8(v: number): void {
        this._room(1);
        this._buf[this.length++] = v;
    }
    public u16(v: number): void {
        this._room(2);
        this._view.setUint16(this.length, v, true);
        this.length += 2;
    }
    public u32(v: number): void {
        this._room(4);
        this._view.setUint32(this.length, v, true);
        this.length += 4;
    }
    public f32(v: number): void {
        this._room(4);
        this._view.setFloat32(this.length, v, true);
        this.length += 4;
    }
    public f64(v: number): void {
        this._room(8);
        this._view.setFloat64(this.length, v, true);
        this.length += 8;
    }
    /** Unsigned LEB128. */
    public varint(v: number): void {
        do {
            let b = v % 128;
            v = Math.floor(v / 128);
            if (v > 0) b |= 128;
            this.u8(b);
        } while (v > 0);
    }
    public string(s: string): void {
        const bytes = new TextEncoder().encode(s);
        this.varint(bytes.length);
        this._room(bytes.length);
        this._buf.set(bytes, this.length);
        this.length += bytes.length;
    }
    public bytes(): Uint8Array {
        return this._buf.slice(0, this.length);
    }
}

/** Value encodings of a binary curve (version 2 on). */
const enum ValueEncoding {
    /** One float32 a key. */
    Float32 = 0,
    /** A float32 step, then each key's whole multiple of it less the previous key's (the first less 0), zigzag LEB128. */
    Steps = 1,
}
/** Largest whole multiple of a step a binary curve stores (so differences and their zigzag forms stay exact doubles). */
const MAX_STEPS = 2 ** 50;

/** The whole multiples of `curve.step` its values are, or null when it has no step or a value is off its grid. */
function valueSteps(curve: IMuscleCurve): Float64Array | null {
    const step = curve.step;
    if (step === undefined || !(step > 0 && step < Infinity) || Math.fround(step) !== step) return null;
    const q = new Float64Array(curve.values.length);
    for (let k = 0; k < q.length; k++) {
        const n = Math.round(curve.values[k] / step) + 0; // + 0: never -0, which reads back as 0
        // Exactly what the reader computes, or the curve goes as float32s (a -0 does).
        if (!(Math.abs(n) <= MAX_STEPS) || !Object.is(Math.fround(n * step), curve.values[k])) return null;
        q[k] = n;
    }
    return q;
}

/** A curve's values: on its step's grid as small differences when it has one, else float32s. */
function writeValues(w: Writer, curve: IMuscleCurve): void {
    const q = valueSteps(curve);
    if (!q) {
        w.u8(ValueEncoding.Float32);
        for (let k = 0; k < curve.values.length; k++) w.f32(curve.values[k]);
        return;
    }
    w.u8(ValueEncoding.Steps);
    w.f32(curve.step!);
    let prev = 0;
    for (let k = 0; k < q.length; k++) {
        const d = q[k] - prev;
        w.varint(d >= 0 ? 2 * d : -2 * d - 1);
        prev = q[k];
    }
}

/**
 * The flag bits each file version may set, by version (index 0 unused): bits 0-1 from version 1,
 * 2 from 2, 3-4 from 3, 5 from 5, 6 from 6, 7 from 7, 8 from 8, 9 from 9, 10 from 11, 11 from 12 (see
 * {@link SerializeMuscleClipToBinary}). One entry a version up to `MUSCLE_CLIP_VERSION`: a version
 * without its entry refuses every flag (the file tests read every version).
 */
const KNOWN_FLAGS = [0, 3, 7, 31, 31, 63, 127, 255, 511, 1023, 1023, 2047, 4095] as const;

/**
 * A clip as compact binary (`.muscle.bin`), little-endian: "BHMC", u16 version, u16 flags (bit 0
 * loop, bit 1 ground height present, bit 2 proportions present, bit 3 thigh share present, bit 4
 * Catmull-Rom curves, else splines, version 1 and 2 files being Catmull-Rom; bit 5 trunk present;
 * bit 6 leg directions present; bit 7 trunk layout present; bit 8 muscle curves in angle units;
 * bit 9 shoulder layout present; bit 10 foot length present; bit 11 source start present), f64 frame rate, u32 frame count, f64
 * tolerance, [f64 ground height], [f64 source start], [f64 leg length, ankle height, hip width, foot direction x, y,
 * z, [thigh share], [trunk length, trunk steady point], [thigh direction x, y, z, shin direction
 * x, y, z], [15 trunk offsets], [12 shoulder offsets], [foot length]] (bits 3, 5, 6, 7, 9 and 10 only with the proportions), name, source and
 * warnings (LEB128 length + UTF-8), u16 curve count, then per curve (in `MuscleCurveNames` order)
 * the key count, the key frames as differences (LEB128) and the values: a u8 encoding, 0 for a
 * float32 a key, 1 for a float32 step and then each key's whole multiple of the step less the
 * previous key's, zigzag LEB128 (curves with a `step`, as the converter makes them; version 1
 * files have float32s and no encoding byte); last, per foot, the contact runs (count, then gap and
 * length of each, LEB128), and from version 10 the runs of the feet's still ends in the same way
 * (left ankle, right ankle, left toes, right toes: `CONTACT_ENDS`). About 2.5 bytes a key for a converted clip.
 */
export function SerializeMuscleClipToBinary(clip: MuscleClip): Uint8Array {
    ValidateMuscleClip(`${QuoteForMessage(clip.name || "clip")}: cannot be written`, clip, "FILE_WRITE");
    const w = new Writer();
    for (let i = 0; i < 4; i++) w.u8(MUSCLE_CLIP_MAGIC.charCodeAt(i));
    w.u16(MUSCLE_CLIP_VERSION);
    const thighShare = clip.proportions?.thighShare;
    const trunkLength = clip.proportions?.trunkLength;
    const thighDirection = clip.proportions?.thighDirection;
    const trunkOffsets = clip.proportions?.trunkOffsets;
    const shoulderOffsets = clip.proportions?.shoulderOffsets;
    const footLength = clip.proportions?.footLength;
    w.u16(
        (clip.loop ? 1 : 0) |
            (clip.groundHeight !== 0 ? 2 : 0) |
            (clip.proportions ? 4 : 0) |
            (thighShare !== undefined ? 8 : 0) |
            (clip.interpolation === "catmull-rom" ? 16 : 0) |
            (trunkLength !== undefined ? 32 : 0) |
            (thighDirection !== undefined ? 64 : 0) |
            (trunkOffsets !== undefined ? 128 : 0) |
            (clip.muscleUnit === "angle" ? 256 : 0) |
            (shoulderOffsets !== undefined ? 512 : 0) |
            (footLength !== undefined ? 1024 : 0) |
            (clip.sourceStartSeconds !== 0 ? 2048 : 0),
    );
    w.f64(clip.frameRate);
    w.u32(clip.frameCount);
    w.f64(clip.toleranceDeg);
    if (clip.groundHeight !== 0) w.f64(clip.groundHeight);
    if (clip.sourceStartSeconds !== 0) w.f64(clip.sourceStartSeconds);
    if (clip.proportions) {
        w.f64(clip.proportions.legLength);
        w.f64(clip.proportions.ankleHeight);
        w.f64(clip.proportions.hipWidth);
        for (const x of clip.proportions.footDirection) w.f64(x);
        if (thighShare !== undefined) w.f64(thighShare);
        if (trunkLength !== undefined) {
            w.f64(trunkLength);
            w.f64(clip.proportions.trunkSteadyPoint!);
        }
        if (thighDirection !== undefined) for (const x of [...thighDirection, ...clip.proportions.shinDirection!]) w.f64(x);
        if (trunkOffsets !== undefined) for (const x of trunkOffsets) w.f64(x);
        if (shoulderOffsets !== undefined) for (const x of shoulderOffsets) w.f64(x);
        if (footLength !== undefined) w.f64(footLength);
    }
    w.string(clip.name);
    w.string(clip.source);
    w.varint(clip.warnings.length);
    for (const s of clip.warnings) w.string(s);
    w.u16(clip.curves.length);
    for (const c of clip.curves) {
        w.varint(c.frames.length);
        let prev = 0;
        for (let k = 0; k < c.frames.length; k++) {
            w.varint(c.frames[k] - prev);
            prev = c.frames[k];
        }
        writeValues(w, c);
    }
    for (const [, bit] of ContactFlagsOfVersion(MUSCLE_CLIP_VERSION)) {
        const runs = ContactRuns(clip.contacts, bit);
        w.varint(runs.length);
        let end = 0;
        for (const [a, b] of runs) {
            w.varint(a - end);
            w.varint(b - a + 1);
            end = b + 1;
        }
    }
    return w.bytes();
}

/** Bounds-checked little-endian reader: any read past the end is a clear "truncated" error. */
class Reader {
    private readonly _view: DataView;
    public pos = 0;
    constructor(
        private readonly _bytes: Uint8Array,
        private readonly _source: string,
    ) {
        this._view = new DataView(_bytes.buffer, _bytes.byteOffset, _bytes.byteLength);
    }
    public get remaining(): number {
        return this._bytes.length - this.pos;
    }
    private _need(n: number, what: string): void {
        if (this.pos + n > this._bytes.length)
            throw ClipFileError(this._source, `truncated: the file ends inside ${what} (byte ${this.pos} of ${this._bytes.length})`);
    }
    public u8(what: string): number {
        this._need(1, what);
        return this._bytes[this.pos++];
    }
    public u16(what: string): number {
        this._need(2, what);
        const v = this._view.getUint16(this.pos, true);
        this.pos += 2;
        return v;
    }
    public u32(what: string): number {
        this._need(4, what);
        const v = this._view.getUint32(this.pos, true);
        this.pos += 4;
        return v;
    }
    public f32(what: string): number {
        this._need(4, what);
        const v = this._view.getFloat32(this.pos, true);
        this.pos += 4;
        return v;
    }
    public f64(what: string): number {
        this._need(8, what);
        const v = this._view.getFloat64(this.pos, true);
        this.pos += 8;
        return v;
    }
    public varint(what: string, max: number): number {
        let v = 0;
        let scale = 1;
        for (let i = 0; i < 8; i++) {
            const b = this.u8(what);
            v += (b & 127) * scale;
            if (!(b & 128)) {
                if (v > max) throw ClipFileError(this._source, `${what} is ${v}, more than ${max}`);
                return v;
            }
            scale *= 128;
        }
        throw ClipFileError(this._source, `${what} is not a valid number (too many bytes)`);
    }
    public string(what: string): string {
        const n = this.varint(`${what} length`, MAX_STRING_BYTES);
        this._need(n, what);
        try {
            return new TextDecoder("utf-8", { fatal: true }).decode(this._bytes.subarray(this.pos, (this.pos += n)));
        } catch {
            throw ClipFileError(this._source, `${what} is not valid UTF-8`);
        }
    }
}

/**
 * Reads a binary muscle clip (see {@link SerializeMuscleClipToBinary}). Nothing is trusted:
 * another magic, an unknown version or flags, a truncated file, counts larger than the file could
 * hold, keys off the frame grid, NaN values or trailing bytes each throw one
 * {@link HumanoidError} `CLIP_PARSE` naming the file and the field.
 * @param bytes the file's content
 * @param source the file name, for messages
 */
export function ParseMuscleClipBinary(bytes: Uint8Array, source: string): MuscleClip {
    const r = new Reader(bytes, source);
    let magic = "";
    for (let i = 0; i < 4 && r.remaining > 0; i++) magic += String.fromCharCode(r.u8("the magic"));
    if (magic !== MUSCLE_CLIP_MAGIC) throw ClipFileError(source, `not a binary muscle clip (it does not start with "${MUSCLE_CLIP_MAGIC}")`);
    const version = r.u16("the version");
    if (version < MUSCLE_CLIP_OLDEST_VERSION || version > MUSCLE_CLIP_VERSION)
        throw ClipFileError(
            source,
            `unknown muscle clip version ${version} (this library reads versions ${MUSCLE_CLIP_OLDEST_VERSION} to ${MUSCLE_CLIP_VERSION})`,
        );
    const flags = r.u16("the flags");
    if (flags & ~KNOWN_FLAGS[version]) throw ClipFileError(source, `unknown flags 0x${flags.toString(16)} for version ${version}`);
    if (flags & 8 && !(flags & 4)) throw ClipFileError(source, "flags: a thigh share (bit 3) without the proportions (bit 2)");
    if (flags & 32 && !(flags & 4)) throw ClipFileError(source, "flags: a trunk (bit 5) without the proportions (bit 2)");
    if (flags & 64 && !(flags & 4)) throw ClipFileError(source, "flags: leg directions (bit 6) without the proportions (bit 2)");
    if (flags & 128 && !(flags & 4)) throw ClipFileError(source, "flags: a trunk layout (bit 7) without the proportions (bit 2)");
    if (flags & 512 && !(flags & 4)) throw ClipFileError(source, "flags: a shoulder layout (bit 9) without the proportions (bit 2)");
    if (flags & 1024 && !(flags & 4)) throw ClipFileError(source, "flags: a foot length (bit 10) without the proportions (bit 2)");
    const frameRate = r.f64("the frame rate");
    const frameCount = r.u32("the frame count");
    if (!(frameCount >= 1 && frameCount <= MAX_CLIP_FRAMES))
        throw ClipFileError(source, `frameCount must be from 1 to ${MAX_CLIP_FRAMES}, found ${frameCount}`);
    const toleranceDeg = r.f64("the tolerance");
    const groundHeight = flags & 2 ? r.f64("the ground height") : 0;
    const sourceStartSeconds = flags & 2048 ? r.f64("the source start") : 0;
    const proportions: IClipProportions | null =
        flags & 4
            ? {
                  legLength: r.f64("the leg length"),
                  ankleHeight: r.f64("the ankle height"),
                  hipWidth: r.f64("the hip width"),
                  footDirection: [r.f64("the foot direction"), r.f64("the foot direction"), r.f64("the foot direction")],
                  ...(flags & 8 ? { thighShare: r.f64("the thigh share") } : {}),
                  ...(flags & 32 ? { trunkLength: r.f64("the trunk length"), trunkSteadyPoint: r.f64("the trunk steady point") } : {}),
                  ...(flags & 64
                      ? {
                            thighDirection: [r.f64("the thigh direction"), r.f64("the thigh direction"), r.f64("the thigh direction")] as const,
                            shinDirection: [r.f64("the shin direction"), r.f64("the shin direction"), r.f64("the shin direction")] as const,
                        }
                      : {}),
                  ...(flags & 128 ? { trunkOffsets: Array.from({ length: CLIP_TRUNK_OFFSET_COUNT }, () => r.f64("the trunk offsets")) } : {}),
                  ...(flags & 512 ? { shoulderOffsets: Array.from({ length: CLIP_SHOULDER_OFFSET_COUNT }, () => r.f64("the shoulder offsets")) } : {}),
                  ...(flags & 1024 ? { footLength: r.f64("the foot length") } : {}),
              }
            : null;
    const name = r.string("the name");
    const src = r.string("the source");
    const warnings: string[] = [];
    const warningCount = r.varint("the warning count", MAX_WARNINGS);
    for (let i = 0; i < warningCount; i++) warnings.push(r.string(`warning ${i}`));
    const curveCount = r.u16("the curve count");
    const expected = CurveCountOfVersion(version);
    if (curveCount !== expected) throw ClipFileError(source, `expected ${expected} curves in a version ${version} file, found ${curveCount}`);
    const curves: IMuscleCurve[] = [];
    for (let i = 0; i < curveCount; i++) {
        const what = `curve '${MuscleCurveNames[i]}'`;
        // Each key takes at least 2 bytes (5 in version 1): a count beyond what is left is a lie, caught before allocating.
        const n = r.varint(`${what} key count`, Math.min(frameCount, Math.floor(r.remaining / (version === 1 ? 5 : 2))));
        if (n < 1) throw ClipFileError(source, `${what} has no keys`);
        const frames = new Uint32Array(n);
        let f = 0;
        for (let k = 0; k < n; k++) {
            f += r.varint(`${what} key frame`, frameCount);
            frames[k] = f;
        }
        const values = new Float32Array(n);
        const encoding = version === 1 ? ValueEncoding.Float32 : r.u8(`${what} value encoding`);
        if (encoding === ValueEncoding.Float32) {
            for (let k = 0; k < n; k++) values[k] = r.f32(`${what} values`);
            curves.push({ frames, values });
        } else if (encoding === ValueEncoding.Steps) {
            const step = r.f32(`${what} value step`);
            if (!(step > 0 && step < Infinity)) throw ClipFileError(source, `${what}: the value step must be a positive number, found ${step}`);
            let q = 0;
            for (let k = 0; k < n; k++) {
                const z = r.varint(`${what} values`, 2 * MAX_STEPS);
                q += z % 2 ? -(z + 1) / 2 : z / 2;
                if (!(Math.abs(q) <= MAX_STEPS)) throw ClipFileError(source, `${what}: value ${k} is more than ${MAX_STEPS} steps from 0`);
                values[k] = q * step;
            }
            curves.push({ frames, values, step });
        } else {
            throw ClipFileError(source, `${what}: unknown value encoding ${encoding}`);
        }
    }
    while (curves.length < MUSCLE_CLIP_CURVE_COUNT) curves.push(AbsentCurve());
    const contacts = new Uint8Array(frameCount);
    for (const [foot, bit] of ContactFlagsOfVersion(version)) {
        const runs = r.varint(`${foot} contact count`, frameCount);
        let end = 0;
        for (let i = 0; i < runs; i++) {
            const start = end + r.varint(`${foot} contact gap`, frameCount);
            const length = r.varint(`${foot} contact length`, frameCount);
            if (length < 1 || start + length > frameCount) throw ClipFileError(source, `${foot} contact ${i} runs past the clip's ${frameCount} frames`);
            for (let k = start; k < start + length; k++) contacts[k] |= bit;
            end = start + length;
        }
    }
    if (r.remaining !== 0) throw ClipFileError(source, `${r.remaining} unexpected bytes after the clip`);
    return ValidateMuscleClip(
        source,
        new MuscleClip({
            name,
            source: src,
            frameRate,
            frameCount,
            loop: (flags & 1) === 1,
            curves,
            contacts,
            toleranceDeg,
            warnings,
            groundHeight,
            sourceStartSeconds,
            proportions,
            interpolation: version < 3 || flags & 16 ? "catmull-rom" : "spline",
            muscleUnit: flags & 256 ? "angle" : "muscle",
        }),
    );
}
