import { HumanoidError, type HumanoidErrorCode } from "../errors.js";
import { MAX_ABS_CLIP_VALUE, MAX_CLIP_FRAMES, MAX_FRAME_RATE, MAX_STRING_BYTES, MAX_WARNINGS, MIN_FRAME_RATE, QuoteForMessage } from "../limits.js";
import { FootContact, MuscleClip, MuscleCurveNames, MUSCLE_CLIP_CURVE_COUNT, MUSCLE_CLIP_CURVE_COUNT_V1, MUSCLE_CLIP_CURVE_COUNT_V3 } from "./muscleClip.js";
import { type CurveInterpolation, type IMuscleCurve } from "./curve.js";
import {
    CLIP_LEG_DIRECTION_MAX_Y,
    CLIP_THIGH_SHARE_RANGE,
    CLIP_TRUNK_LENGTH_RANGE,
    CLIP_TRUNK_OFFSET_COUNT,
    CLIP_TRUNK_OFFSET_MAX,
    type IClipProportions,
} from "./clipProportions.js";
import type { MuscleCurveUnit } from "./muscleCurveUnit.js";

/** The `format` field of a JSON muscle clip. */
export const MUSCLE_CLIP_FORMAT = "babylon-humanoid/muscle-clip";
/**
 * The file version this library writes (both formats). Version 2 added the source's proportions
 * (`proportions`, binary flag bit 2) and the hips curves (`hips.position.x|y|z`, `hips.turn.x|y|z`); version 1 files, which
 * have neither, are still read (their hips curves read as 0, and they play as `"com"` clips).
 * Version 3 added the source's thigh share (`proportions.thighShare`, binary flag bit 3) and the
 * curves' interpolation (`interpolation`, `"spline"` unless binary flag bit 4 says
 * `"catmull-rom"`); version 2 files play without the share (feet where the source's went, see
 * `IClipProportions.thighShare`) and, as version 1 files, with Catmull-Rom curves. Version 4
 * added the translation curves (`translation.<bone>.x|y|z`, `HumanPose.translations`); older
 * files read them as 0 (their clips only turn bones). Version 5 added the source's trunk
 * (`proportions.trunkLength` and `proportions.trunkSteadyPoint`, binary flag bit 5); older files
 * play without it (the body is seated as before). Version 6 added the source's T-pose leg directions
 * (`proportions.thighDirection` and `proportions.shinDirection`, binary flag bit 6); older files
 * play without them (a foot goes where the source's leg, not turned from the character's own
 * T-pose, puts it). Version 7 added the source's trunk layout (`proportions.trunkOffsets`, binary
 * flag bit 7); older files play without it (each trunk bone turns as the source's bone of the same
 * name). Version 8 added the muscle curves' unit (`muscleUnit`, `"angle"` when binary flag bit 8
 * is set, see `MuscleCurveUnit`); older files hold muscle values.
 */
export const MUSCLE_CLIP_VERSION = 8;
/** The oldest file version this library reads. */
export const MUSCLE_CLIP_OLDEST_VERSION = 1;
/** Source proportions a file may give: each over the source's scale, within these (no humanoid is outside them). */
const PROPORTION_RANGE = { legLength: [0.05, 5], ankleHeight: [0, 1], hipWidth: [0, 2] } as const;
/** The thigh share a file may give (upper leg over the whole leg): no humanoid leg is outside it. */
const THIGH_SHARE_RANGE = CLIP_THIGH_SHARE_RANGE;
/** The source's trunk a file may give (both or neither): its length over its scale, and its steadiest point's share of it. */
const TRUNK_RANGE = { trunkLength: CLIP_TRUNK_LENGTH_RANGE, trunkSteadyPoint: [0, 1] } as const;
/** The source's T-pose leg directions a file may give (both or neither; unit vectors [x, y, z]). */
const LEG_DIRECTIONS = ["thighDirection", "shinDirection"] as const;
/** First four bytes of a binary muscle clip ("BHMC"). */
export const MUSCLE_CLIP_MAGIC = "BHMC";

const FEET = [
    ["leftFoot", FootContact.Left],
    ["rightFoot", FootContact.Right],
] as const;

/** One clip error naming the file and the field. */
function bad(source: string, what: string, code: HumanoidErrorCode = "CLIP_PARSE"): HumanoidError {
    return new HumanoidError(code, `${source}: ${what}`);
}

/** UTF-8 length of a string, in bytes. */
function utf8Bytes(s: string): number {
    return s.length * 3 <= MAX_STRING_BYTES ? s.length : new TextEncoder().encode(s).length;
}

/**
 * Checks a clip's parts: rate, frame count, strings, every curve's keys (strictly increasing frames
 * on the grid, from 0 to the last frame, finite values within `MAX_ABS_CLIP_VALUE`), contacts.
 * Readers and writers both run it (so nothing is written that would not read back). Throws a
 * {@link HumanoidError} (`CLIP_PARSE` by default) naming the field.
 */
function validate(source: string, clip: MuscleClip, code: HumanoidErrorCode = "CLIP_PARSE"): MuscleClip {
    const bad = (s: string, what: string): HumanoidError => new HumanoidError(code, `${s}: ${what}`);
    if (clip.muscleUnit !== "muscle" && clip.muscleUnit !== "angle")
        throw bad(source, `muscleUnit must be "muscle" or "angle", found ${JSON.stringify(clip.muscleUnit)}`);
    if (clip.interpolation !== "spline" && clip.interpolation !== "catmull-rom")
        throw bad(source, `interpolation must be "spline" or "catmull-rom", found ${JSON.stringify(clip.interpolation)}`);
    if (!(clip.frameRate >= MIN_FRAME_RATE && clip.frameRate <= MAX_FRAME_RATE))
        throw bad(
            source,
            `frameRate must be in [${MIN_FRAME_RATE}, ${MAX_FRAME_RATE}] frames per second (one frame an hour to ${MAX_FRAME_RATE}), found ${clip.frameRate}`,
        );
    for (const [what, v] of [
        ["name", clip.name],
        ["source", clip.source],
    ] as const) {
        if (typeof v !== "string" || utf8Bytes(v) > MAX_STRING_BYTES) throw bad(source, `${what} must be a string of at most ${MAX_STRING_BYTES} bytes`);
    }
    if (!Array.isArray(clip.warnings) || clip.warnings.length > MAX_WARNINGS) throw bad(source, `warnings must be a list of at most ${MAX_WARNINGS} strings`);
    clip.warnings.forEach((w, i) => {
        if (typeof w !== "string" || utf8Bytes(w) > MAX_STRING_BYTES) throw bad(source, `warning ${i} must be a string of at most ${MAX_STRING_BYTES} bytes`);
    });
    if (!(Number.isInteger(clip.frameCount) && clip.frameCount >= 1 && clip.frameCount <= MAX_CLIP_FRAMES)) {
        throw bad(source, `frameCount must be a whole number from 1 to ${MAX_CLIP_FRAMES}, found ${clip.frameCount}`);
    }
    if (!(Number.isFinite(clip.toleranceDeg) && clip.toleranceDeg >= 0)) throw bad(source, `toleranceDeg must be a number >= 0, found ${clip.toleranceDeg}`);
    if (!(Math.abs(clip.groundHeight) <= MAX_ABS_CLIP_VALUE))
        throw bad(source, `groundHeight must be a finite number within ${MAX_ABS_CLIP_VALUE} in magnitude, found ${clip.groundHeight}`);
    if (clip.proportions) {
        for (const [k, [lo, hi]] of Object.entries(PROPORTION_RANGE)) {
            const v = clip.proportions[k as keyof typeof PROPORTION_RANGE];
            if (!(v >= lo && v <= hi)) throw bad(source, `proportions.${k} must be a number from ${lo} to ${hi} (source scales), found ${v}`);
        }
        const share = clip.proportions.thighShare;
        if (share !== undefined && !(share >= THIGH_SHARE_RANGE[0] && share <= THIGH_SHARE_RANGE[1]))
            throw bad(source, `proportions.thighShare must be a number from ${THIGH_SHARE_RANGE[0]} to ${THIGH_SHARE_RANGE[1]}, found ${share}`);
        const proportions = clip.proportions;
        /** Two keys given together or not at all (the source's trunk, its leg directions). */
        const bothOrNeither = (a: keyof IClipProportions, b: keyof IClipProportions, whose: string): void => {
            if ((proportions[a] === undefined) === (proportions[b] === undefined)) return;
            const [given, missing] = proportions[a] === undefined ? [b, a] : [a, b];
            throw bad(source, `proportions.${given} is given without proportions.${missing} (the source's ${whose} has both or neither)`);
        };
        bothOrNeither("trunkLength", "trunkSteadyPoint", "trunk");
        const { trunkLength, trunkSteadyPoint } = proportions;
        if (trunkLength !== undefined) {
            const [lo, hi] = TRUNK_RANGE.trunkLength;
            if (!(trunkLength >= lo && trunkLength <= hi))
                throw bad(source, `proportions.trunkLength must be a number from ${lo} to ${hi} (source scales), found ${trunkLength}`);
        }
        if (trunkSteadyPoint !== undefined) {
            const [lo, hi] = TRUNK_RANGE.trunkSteadyPoint;
            if (!(trunkSteadyPoint >= lo && trunkSteadyPoint <= hi))
                throw bad(source, `proportions.trunkSteadyPoint must be a number from ${lo} to ${hi}, found ${trunkSteadyPoint}`);
        }
        bothOrNeither("thighDirection", "shinDirection", "leg");
        for (const k of ["footDirection", ...LEG_DIRECTIONS] as const) {
            const d = clip.proportions[k];
            if (d === undefined) continue;
            const len = Math.hypot(d[0], d[1], d[2]);
            if (!(d.length === 3 && Math.abs(len - 1) < 1e-3)) throw bad(source, `proportions.${k} must be a unit vector [x, y, z], found [${d.join(", ")}]`);
            if (k !== "footDirection" && !(d[1] <= CLIP_LEG_DIRECTION_MAX_Y))
                throw bad(source, `proportions.${k} must point down (y at most ${CLIP_LEG_DIRECTION_MAX_Y}: a T-pose leg), found [${d.join(", ")}]`);
        }
        const offsets = proportions.trunkOffsets;
        if (offsets !== undefined) {
            if (!(Array.isArray(offsets) && offsets.length === CLIP_TRUNK_OFFSET_COUNT))
                throw bad(
                    source,
                    `proportions.trunkOffsets must be a list of ${CLIP_TRUNK_OFFSET_COUNT} numbers (x y z of the spine, chest, upper chest, neck and head), found ${Array.isArray(offsets) ? `a list of ${offsets.length}` : typeof offsets}`,
                );
            // Every index (not `forEach`, which skips the holes of a sparse array).
            for (let i = 0; i < CLIP_TRUNK_OFFSET_COUNT; i++) {
                const x: unknown = offsets[i];
                if (!(typeof x === "number" && Math.abs(x) <= CLIP_TRUNK_OFFSET_MAX))
                    throw bad(
                        source,
                        `proportions.trunkOffsets[${i}] must be a number from -${CLIP_TRUNK_OFFSET_MAX} to ${CLIP_TRUNK_OFFSET_MAX} (source scales), found ${String(x)}`,
                    );
            }
        }
    }
    if (clip.curves.length !== MUSCLE_CLIP_CURVE_COUNT) throw bad(source, `expected ${MUSCLE_CLIP_CURVE_COUNT} curves, found ${clip.curves.length}`);
    const last = clip.frameCount - 1;
    clip.curves.forEach((c, i) => {
        const name = MuscleCurveNames[i];
        const n = c.frames.length;
        if (n < 1 || n !== c.values.length) throw bad(source, `curve '${name}': ${n} frames and ${c.values.length} values (need as many, at least one)`);
        if (n > clip.frameCount) throw bad(source, `curve '${name}': ${n} keys for ${clip.frameCount} frames`);
        if (c.frames[0] !== 0) throw bad(source, `curve '${name}': the first key must be on frame 0, found ${c.frames[0]}`);
        if (n > 1 && c.frames[n - 1] !== last) throw bad(source, `curve '${name}': the last key must be on frame ${last}, found ${c.frames[n - 1]}`);
        for (let k = 1; k < n; k++) {
            if (!(c.frames[k] > c.frames[k - 1])) throw bad(source, `curve '${name}': key frames must increase, found ${c.frames[k - 1]} then ${c.frames[k]}`);
        }
        if (c.step !== undefined && !(c.step > 0 && c.step <= MAX_ABS_CLIP_VALUE))
            throw bad(source, `curve '${name}': step must be a positive number up to ${MAX_ABS_CLIP_VALUE} (as a float32), found ${c.step}`);
        for (let k = 0; k < n; k++) {
            if (!Number.isFinite(c.values[k])) throw bad(source, `curve '${name}': value ${k} is not a finite number (${c.values[k]})`);
            if (!(Math.abs(c.values[k]) <= MAX_ABS_CLIP_VALUE))
                throw bad(source, `curve '${name}': value ${k} is ${c.values[k]}, beyond the limit of ${MAX_ABS_CLIP_VALUE} in magnitude`);
        }
    });
    if (clip.contacts.length !== clip.frameCount) throw bad(source, `contacts cover ${clip.contacts.length} frames, the clip has ${clip.frameCount}`);
    return clip;
}

// ---------------------------------------------------------------------------------------------
// JSON

/** The shortest decimal that reads back as the same float32 (so JSON round-trips exactly). */
function float32Text(v: number): string {
    if (v === 0) return Object.is(v, -0) ? "-0" : "0";
    for (let p = 6; p < 10; p++) {
        const t = Number(v.toPrecision(p));
        if (Math.fround(t) === v) return String(t);
    }
    return String(v);
}

/** Stands for a -0 trunk offset in the proportions object until its JSON text is made, then written "-0" (which reads back as -0, as in a binary file). */
const NEGATIVE_ZERO = "\u0000-0";

/** Inclusive frame ranges where a contact bit is set. */
function contactRuns(contacts: Uint8Array, bit: number): [number, number][] {
    const runs: [number, number][] = [];
    for (let f = 0; f < contacts.length; f++) {
        if (!(contacts[f] & bit)) continue;
        const start = f;
        while (f + 1 < contacts.length && contacts[f + 1] & bit) f++;
        runs.push([start, f]);
    }
    return runs;
}

/**
 * A clip as readable JSON (`.muscle.json`): the header fields, foot contacts as inclusive frame
 * ranges, and every curve by name as `{frames, values}` (and `step` for a curve whose values are
 * on a grid, see `IMuscleCurve.step`), one curve per line. Values are written with the fewest
 * digits that read back as the same float32, so the file round-trips exactly.
 */
export function SerializeMuscleClipToJson(clip: MuscleClip): string {
    validate(`${QuoteForMessage(clip.name || "clip")}: cannot be written`, clip, "FILE_WRITE");
    const header = {
        format: MUSCLE_CLIP_FORMAT,
        version: MUSCLE_CLIP_VERSION,
        name: clip.name,
        source: clip.source,
        frameRate: clip.frameRate,
        frameCount: clip.frameCount,
        loop: clip.loop,
        toleranceDeg: clip.toleranceDeg,
        ...(clip.groundHeight !== 0 ? { groundHeight: clip.groundHeight } : {}),
        interpolation: clip.interpolation,
        muscleUnit: clip.muscleUnit,
        ...(clip.proportions
            ? {
                  proportions: {
                      legLength: clip.proportions.legLength,
                      ankleHeight: clip.proportions.ankleHeight,
                      hipWidth: clip.proportions.hipWidth,
                      footDirection: [...clip.proportions.footDirection],
                      ...(clip.proportions.thighShare !== undefined ? { thighShare: clip.proportions.thighShare } : {}),
                      ...(clip.proportions.trunkLength !== undefined
                          ? { trunkLength: clip.proportions.trunkLength, trunkSteadyPoint: clip.proportions.trunkSteadyPoint }
                          : {}),
                      ...(clip.proportions.thighDirection !== undefined
                          ? { thighDirection: [...clip.proportions.thighDirection], shinDirection: [...clip.proportions.shinDirection!] }
                          : {}),
                      ...(clip.proportions.trunkOffsets !== undefined
                          ? { trunkOffsets: clip.proportions.trunkOffsets.map((x) => (Object.is(x, -0) ? NEGATIVE_ZERO : x)) }
                          : {}),
                  },
              }
            : {}),
        warnings: clip.warnings,
        contacts: Object.fromEntries(FEET.map(([name, bit]) => [name, contactRuns(clip.contacts, bit)])),
    };
    const text = (k: string, v: unknown): string =>
        k === "proportions" ? JSON.stringify(v).replaceAll(JSON.stringify(NEGATIVE_ZERO), "-0") : JSON.stringify(v);
    const lines = ["{", ...Object.entries(header).map(([k, v]) => `  ${JSON.stringify(k)}: ${text(k, v)},`), '  "curves": {'];
    clip.curves.forEach((c, i) => {
        const frames = Array.from(c.frames).join(",");
        const values = Array.from(c.values, float32Text).join(",");
        const step = c.step !== undefined ? `, "step": ${float32Text(c.step)}` : "";
        lines.push(`    ${JSON.stringify(MuscleCurveNames[i])}: {"frames": [${frames}], "values": [${values}]${step}}${i < clip.curves.length - 1 ? "," : ""}`);
    });
    lines.push("  }", "}", "");
    return lines.join("\n");
}

const JSON_KEYS = ["format", "version", "name", "source", "frameRate", "frameCount", "loop", "toleranceDeg", "warnings", "contacts", "curves"];
/** Keys a JSON clip may leave out (`proportions` since version 2). */
const OPTIONAL_JSON_KEYS = ["groundHeight", "proportions", "interpolation", "muscleUnit"];

/**
 * Reads a JSON muscle clip. Nothing in the file is trusted: unknown or missing keys, another
 * format or version, wrong types, counts that disagree, keys off the frame grid, NaN or infinite
 * values each throw one {@link HumanoidError} `CLIP_PARSE` naming the file and the field.
 * @param text the file's text
 * @param source the file name, for messages
 */
export function ParseMuscleClipJson(text: string, source: string): MuscleClip {
    let doc: unknown;
    try {
        doc = JSON.parse(text);
    } catch (e) {
        throw bad(source, `not a JSON muscle clip: its JSON does not parse (${(e as Error).message})`);
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw bad(source, "not a JSON muscle clip: the top level is not an object");
    const o = doc as Record<string, unknown>;
    if (o.format !== MUSCLE_CLIP_FORMAT) throw bad(source, `not a muscle clip: format is ${JSON.stringify(o.format)}, expected "${MUSCLE_CLIP_FORMAT}"`);
    if (!(Number.isInteger(o.version) && (o.version as number) >= MUSCLE_CLIP_OLDEST_VERSION && (o.version as number) <= MUSCLE_CLIP_VERSION))
        throw bad(
            source,
            `unknown muscle clip version ${JSON.stringify(o.version)} (this library reads versions ${MUSCLE_CLIP_OLDEST_VERSION} to ${MUSCLE_CLIP_VERSION})`,
        );
    if (o.version === 1 && "proportions" in o) throw bad(source, "proportions is a version 2 key, the file says version 1");
    if ((o.version as number) < 3 && "interpolation" in o) throw bad(source, `interpolation is a version 3 key, the file says version ${o.version}`);
    if ((o.version as number) < 8 && "muscleUnit" in o) throw bad(source, `muscleUnit is a version 8 key, the file says version ${o.version}`);
    for (const k of Object.keys(o)) if (!JSON_KEYS.includes(k) && !OPTIONAL_JSON_KEYS.includes(k)) throw bad(source, `unknown key '${k}'`);
    for (const k of JSON_KEYS) if (!(k in o)) throw bad(source, `missing key '${k}'`);
    const str = (k: string): string => {
        if (typeof o[k] !== "string") throw bad(source, `${k} must be a string`);
        if (utf8Bytes(o[k] as string) > MAX_STRING_BYTES) throw bad(source, `${k} is longer than ${MAX_STRING_BYTES} bytes`);
        return o[k] as string;
    };
    const num = (k: string): number => {
        if (typeof o[k] !== "number") throw bad(source, `${k} must be a number`);
        return o[k] as number;
    };
    if (typeof o.loop !== "boolean") throw bad(source, "loop must be true or false");
    if (!Array.isArray(o.warnings) || o.warnings.length > MAX_WARNINGS || !o.warnings.every((w) => typeof w === "string")) {
        throw bad(source, "warnings must be a list of strings");
    }
    const frameCount = num("frameCount");
    if (!(Number.isInteger(frameCount) && frameCount >= 1 && frameCount <= MAX_CLIP_FRAMES)) {
        throw bad(source, `frameCount must be a whole number from 1 to ${MAX_CLIP_FRAMES}, found ${frameCount}`);
    }
    // Contacts: {leftFoot: [[start, end], ...], rightFoot: [...]}, inclusive, within the clip.
    const contacts = new Uint8Array(frameCount);
    const c = o.contacts;
    if (typeof c !== "object" || c === null || Array.isArray(c)) throw bad(source, "contacts must be an object {leftFoot, rightFoot}");
    const cc = c as Record<string, unknown>;
    for (const k of Object.keys(cc)) if (!FEET.some(([n]) => n === k)) throw bad(source, `contacts: unknown key '${k}'`);
    for (const [name, bit] of FEET) {
        const runs = cc[name];
        if (!Array.isArray(runs)) throw bad(source, `contacts.${name} must be a list of [start, end] frame ranges`);
        // Ranges in order, apart: so the file cannot ask for more work than it has frames.
        let after = 0;
        for (const r of runs) {
            if (!Array.isArray(r) || r.length !== 2 || !r.every((x) => Number.isInteger(x)) || !(r[0] >= 0 && r[0] <= r[1] && r[1] < frameCount)) {
                throw bad(source, `contacts.${name}: ${JSON.stringify(r)} is not a [start, end] range of frames within 0..${frameCount - 1}`);
            }
            if (r[0] < after)
                throw bad(source, `contacts.${name}: ${JSON.stringify(r)} starts before the previous range ends (ranges must be in order and apart)`);
            for (let f = r[0]; f <= r[1]; f++) contacts[f] |= bit;
            after = r[1] + 2;
        }
    }
    const curvesObj = o.curves;
    if (typeof curvesObj !== "object" || curvesObj === null || Array.isArray(curvesObj)) throw bad(source, "curves must be an object of named curves");
    const co = curvesObj as Record<string, unknown>;
    const names = MuscleCurveNames.slice(0, curveCountOfVersion(o.version as number));
    for (const k of Object.keys(co))
        if (!names.includes(k)) throw bad(source, `curves: unknown curve '${k}'${MuscleCurveNames.includes(k) ? ` in a version ${o.version} file` : ""}`);
    const curves: IMuscleCurve[] = MuscleCurveNames.map((name, i) => {
        if (i >= names.length) return absentCurve();
        const cv = co[name];
        if (cv === undefined) throw bad(source, `curves: missing curve '${name}'`);
        if (typeof cv !== "object" || cv === null || Array.isArray(cv)) throw bad(source, `curve '${name}' must be {frames, values}`);
        const keys = Object.keys(cv);
        const stepped = o.version !== 1 && keys.includes("step");
        if (keys.length !== (stepped ? 3 : 2) || !keys.includes("frames") || !keys.includes("values"))
            throw bad(
                source,
                `curve '${name}' must have exactly the keys frames and values${o.version !== 1 ? " (and step, if its values are on a grid)" : ""}`,
            );
        const { frames, values, step } = cv as { frames: unknown; values: unknown; step?: unknown };
        if (!Array.isArray(frames) || !frames.every((x) => Number.isInteger(x) && x >= 0 && x < frameCount)) {
            throw bad(source, `curve '${name}': frames must be whole frame numbers within 0..${frameCount - 1}`);
        }
        if (!Array.isArray(values) || !values.every((x) => typeof x === "number")) throw bad(source, `curve '${name}': values must be numbers`);
        if (!stepped) return { frames: Uint32Array.from(frames as number[]), values: Float32Array.from(values as number[]) };
        if (!(typeof step === "number" && step > 0 && step < Infinity)) throw bad(source, `curve '${name}': step must be a positive number`);
        return { frames: Uint32Array.from(frames as number[]), values: Float32Array.from(values as number[]), step: Math.fround(step) };
    });
    return validate(
        source,
        new MuscleClip({
            name: str("name"),
            source: str("source"),
            frameRate: num("frameRate"),
            frameCount,
            loop: o.loop,
            curves,
            contacts,
            toleranceDeg: num("toleranceDeg"),
            warnings: o.warnings as string[],
            groundHeight: o.groundHeight === undefined ? 0 : num("groundHeight"),
            proportions: o.proportions === undefined ? null : jsonProportions(source, o.proportions, o.version as number),
            // Either as the file has it: `validate` names a value of neither kind.
            interpolation: (o.version as number) < 3 ? "catmull-rom" : ((o.interpolation ?? "spline") as CurveInterpolation),
            muscleUnit: (o.muscleUnit ?? "muscle") as MuscleCurveUnit,
        }),
    );
}

/** Curves a file of a version holds (the first of {@link MuscleCurveNames}; later ones read as {@link absentCurve}). */
function curveCountOfVersion(version: number): number {
    return version === 1 ? MUSCLE_CLIP_CURVE_COUNT_V1 : version < 4 ? MUSCLE_CLIP_CURVE_COUNT_V3 : MUSCLE_CLIP_CURVE_COUNT;
}

/** A curve an older file does not have: one key, 0. */
function absentCurve(): IMuscleCurve {
    return { frames: new Uint32Array(1), values: new Float32Array(1) };
}

/**
 * The `proportions` object of a JSON clip: exactly `{legLength, ankleHeight, hipWidth,
 * footDirection}`, `thighShare` from version 3 on, `trunkLength` and `trunkSteadyPoint` from
 * version 5 on, `thighDirection` and `shinDirection` from version 6 on and `trunkOffsets` (a list
 * of numbers) from version 7 on (their ranges and counts, and that the trunk and the leg have both
 * or neither, are checked with the clip).
 */
function jsonProportions(source: string, v: unknown, version: number): IClipProportions {
    if (typeof v !== "object" || v === null || Array.isArray(v))
        throw bad(source, "proportions must be an object {legLength, ankleHeight, hipWidth, footDirection}");
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
        if (k === "thighShare" && version < 3) throw bad(source, `proportions.thighShare is a version 3 key, the file says version ${version}`);
        if (Object.hasOwn(TRUNK_RANGE, k) && version < 5) throw bad(source, `proportions.${k} is a version 5 key, the file says version ${version}`);
        const leg = (LEG_DIRECTIONS as readonly string[]).includes(k);
        if (leg && version < 6) throw bad(source, `proportions.${k} is a version 6 key, the file says version ${version}`);
        if (k === "trunkOffsets" && version < 7) throw bad(source, `proportions.trunkOffsets is a version 7 key, the file says version ${version}`);
        if (
            !Object.hasOwn(PROPORTION_RANGE, k) &&
            !Object.hasOwn(TRUNK_RANGE, k) &&
            !leg &&
            k !== "footDirection" &&
            k !== "thighShare" &&
            k !== "trunkOffsets"
        )
            throw bad(source, `proportions: unknown key '${k}'`);
    }
    for (const k of ["thighShare", ...Object.keys(TRUNK_RANGE)]) if (k in o && typeof o[k] !== "number") throw bad(source, `proportions.${k} must be a number`);
    for (const k of Object.keys(PROPORTION_RANGE)) if (typeof o[k] !== "number") throw bad(source, `proportions.${k} must be a number`);
    const vector = (k: string): [number, number, number] | undefined => {
        const d = o[k];
        if (d === undefined && k !== "footDirection") return undefined;
        if (!Array.isArray(d) || d.length !== 3 || !d.every((x) => typeof x === "number")) throw bad(source, `proportions.${k} must be [x, y, z]`);
        return [d[0], d[1], d[2]];
    };
    const d = vector("footDirection")!;
    const thighDirection = vector("thighDirection");
    const shinDirection = vector("shinDirection");
    const trunkOffsets = o.trunkOffsets;
    if (trunkOffsets !== undefined && !Array.isArray(trunkOffsets))
        throw bad(
            source,
            `proportions.trunkOffsets must be a list of ${CLIP_TRUNK_OFFSET_COUNT} numbers, found ${QuoteForMessage(JSON.stringify(trunkOffsets))}`,
        );
    trunkOffsets?.forEach((x: unknown, i: number) => {
        if (typeof x !== "number") throw bad(source, `proportions.trunkOffsets[${i}] must be a number, found ${QuoteForMessage(JSON.stringify(x))}`);
    });
    return {
        legLength: o.legLength as number,
        ankleHeight: o.ankleHeight as number,
        hipWidth: o.hipWidth as number,
        footDirection: [d[0], d[1], d[2]],
        ...(typeof o.thighShare === "number" ? { thighShare: o.thighShare } : {}),
        ...(typeof o.trunkLength === "number" ? { trunkLength: o.trunkLength } : {}),
        ...(typeof o.trunkSteadyPoint === "number" ? { trunkSteadyPoint: o.trunkSteadyPoint } : {}),
        ...(thighDirection ? { thighDirection } : {}),
        ...(shinDirection ? { shinDirection } : {}),
        ...(trunkOffsets !== undefined ? { trunkOffsets: trunkOffsets as number[] } : {}),
    };
}

// ---------------------------------------------------------------------------------------------
// Binary

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
 * A clip as compact binary (`.muscle.bin`), little-endian: "BHMC", u16 version, u16 flags (bit 0
 * loop, bit 1 ground height present, bit 2 proportions present, bit 3 thigh share present, bit 4
 * Catmull-Rom curves, else splines, version 1 and 2 files being Catmull-Rom; bit 5 trunk present;
 * bit 6 leg directions present; bit 7 trunk layout present; bit 8 muscle curves in angle units), f64 frame rate, u32 frame count, f64
 * tolerance, [f64 ground height], [f64 leg length, ankle height, hip width, foot direction x, y,
 * z, [thigh share], [trunk length, trunk steady point], [thigh direction x, y, z, shin direction
 * x, y, z], [15 trunk offsets]] (bits 3, 5, 6 and 7 only with the proportions), name, source and
 * warnings (LEB128 length + UTF-8), u16 curve count, then per curve (in `MuscleCurveNames` order)
 * the key count, the key frames as differences (LEB128) and the values: a u8 encoding, 0 for a
 * float32 a key, 1 for a float32 step and then each key's whole multiple of the step less the
 * previous key's, zigzag LEB128 (curves with a `step`, as the converter makes them; version 1
 * files have float32s and no encoding byte); last, per foot, the contact runs (count, then gap and
 * length of each, LEB128). About 2.5 bytes a key for a converted clip.
 */
export function SerializeMuscleClipToBinary(clip: MuscleClip): Uint8Array {
    validate(`${QuoteForMessage(clip.name || "clip")}: cannot be written`, clip, "FILE_WRITE");
    const w = new Writer();
    for (let i = 0; i < 4; i++) w.u8(MUSCLE_CLIP_MAGIC.charCodeAt(i));
    w.u16(MUSCLE_CLIP_VERSION);
    const thighShare = clip.proportions?.thighShare;
    const trunkLength = clip.proportions?.trunkLength;
    const thighDirection = clip.proportions?.thighDirection;
    const trunkOffsets = clip.proportions?.trunkOffsets;
    w.u16(
        (clip.loop ? 1 : 0) |
            (clip.groundHeight !== 0 ? 2 : 0) |
            (clip.proportions ? 4 : 0) |
            (thighShare !== undefined ? 8 : 0) |
            (clip.interpolation === "catmull-rom" ? 16 : 0) |
            (trunkLength !== undefined ? 32 : 0) |
            (thighDirection !== undefined ? 64 : 0) |
            (trunkOffsets !== undefined ? 128 : 0) |
            (clip.muscleUnit === "angle" ? 256 : 0),
    );
    w.f64(clip.frameRate);
    w.u32(clip.frameCount);
    w.f64(clip.toleranceDeg);
    if (clip.groundHeight !== 0) w.f64(clip.groundHeight);
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
    for (const [, bit] of FEET) {
        const runs = contactRuns(clip.contacts, bit);
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
        if (this.pos + n > this._bytes.length) throw bad(this._source, `truncated: the file ends inside ${what} (byte ${this.pos} of ${this._bytes.length})`);
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
                if (v > max) throw bad(this._source, `${what} is ${v}, more than ${max}`);
                return v;
            }
            scale *= 128;
        }
        throw bad(this._source, `${what} is not a valid number (too many bytes)`);
    }
    public string(what: string): string {
        const n = this.varint(`${what} length`, MAX_STRING_BYTES);
        this._need(n, what);
        try {
            return new TextDecoder("utf-8", { fatal: true }).decode(this._bytes.subarray(this.pos, (this.pos += n)));
        } catch {
            throw bad(this._source, `${what} is not valid UTF-8`);
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
    if (magic !== MUSCLE_CLIP_MAGIC) throw bad(source, `not a binary muscle clip (it does not start with "${MUSCLE_CLIP_MAGIC}")`);
    const version = r.u16("the version");
    if (version < MUSCLE_CLIP_OLDEST_VERSION || version > MUSCLE_CLIP_VERSION)
        throw bad(source, `unknown muscle clip version ${version} (this library reads versions ${MUSCLE_CLIP_OLDEST_VERSION} to ${MUSCLE_CLIP_VERSION})`);
    const flags = r.u16("the flags");
    if (flags & ~(version >= 8 ? 511 : version >= 7 ? 255 : version >= 6 ? 127 : version >= 5 ? 63 : version >= 3 ? 31 : version >= 2 ? 7 : 3))
        throw bad(source, `unknown flags 0x${flags.toString(16)} for version ${version}`);
    if (flags & 8 && !(flags & 4)) throw bad(source, "flags: a thigh share (bit 3) without the proportions (bit 2)");
    if (flags & 32 && !(flags & 4)) throw bad(source, "flags: a trunk (bit 5) without the proportions (bit 2)");
    if (flags & 64 && !(flags & 4)) throw bad(source, "flags: leg directions (bit 6) without the proportions (bit 2)");
    if (flags & 128 && !(flags & 4)) throw bad(source, "flags: a trunk layout (bit 7) without the proportions (bit 2)");
    const frameRate = r.f64("the frame rate");
    const frameCount = r.u32("the frame count");
    if (!(frameCount >= 1 && frameCount <= MAX_CLIP_FRAMES)) throw bad(source, `frameCount must be from 1 to ${MAX_CLIP_FRAMES}, found ${frameCount}`);
    const toleranceDeg = r.f64("the tolerance");
    const groundHeight = flags & 2 ? r.f64("the ground height") : 0;
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
              }
            : null;
    const name = r.string("the name");
    const src = r.string("the source");
    const warnings: string[] = [];
    const warningCount = r.varint("the warning count", MAX_WARNINGS);
    for (let i = 0; i < warningCount; i++) warnings.push(r.string(`warning ${i}`));
    const curveCount = r.u16("the curve count");
    const expected = curveCountOfVersion(version);
    if (curveCount !== expected) throw bad(source, `expected ${expected} curves in a version ${version} file, found ${curveCount}`);
    const curves: IMuscleCurve[] = [];
    for (let i = 0; i < curveCount; i++) {
        const what = `curve '${MuscleCurveNames[i]}'`;
        // Each key takes at least 2 bytes (5 in version 1): a count beyond what is left is a lie, caught before allocating.
        const n = r.varint(`${what} key count`, Math.min(frameCount, Math.floor(r.remaining / (version === 1 ? 5 : 2))));
        if (n < 1) throw bad(source, `${what} has no keys`);
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
            if (!(step > 0 && step < Infinity)) throw bad(source, `${what}: the value step must be a positive number, found ${step}`);
            let q = 0;
            for (let k = 0; k < n; k++) {
                const z = r.varint(`${what} values`, 2 * MAX_STEPS);
                q += z % 2 ? -(z + 1) / 2 : z / 2;
                if (!(Math.abs(q) <= MAX_STEPS)) throw bad(source, `${what}: value ${k} is more than ${MAX_STEPS} steps from 0`);
                values[k] = q * step;
            }
            curves.push({ frames, values, step });
        } else {
            throw bad(source, `${what}: unknown value encoding ${encoding}`);
        }
    }
    while (curves.length < MUSCLE_CLIP_CURVE_COUNT) curves.push(absentCurve());
    const contacts = new Uint8Array(frameCount);
    for (const [foot, bit] of FEET) {
        const runs = r.varint(`${foot} contact count`, frameCount);
        let end = 0;
        for (let i = 0; i < runs; i++) {
            const start = end + r.varint(`${foot} contact gap`, frameCount);
            const length = r.varint(`${foot} contact length`, frameCount);
            if (length < 1 || start + length > frameCount) throw bad(source, `${foot} contact ${i} runs past the clip's ${frameCount} frames`);
            for (let k = start; k < start + length; k++) contacts[k] |= bit;
            end = start + length;
        }
    }
    if (r.remaining !== 0) throw bad(source, `${r.remaining} unexpected bytes after the clip`);
    return validate(
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
            proportions,
            interpolation: version < 3 || flags & 16 ? "catmull-rom" : "spline",
            muscleUnit: flags & 256 ? "angle" : "muscle",
        }),
    );
}

/**
 * Reads a muscle clip file's content, JSON or binary (told apart by the first bytes).
 * @param bytes the file's content
 * @param source the file name, for messages
 */
export function ParseMuscleClip(bytes: Uint8Array, source: string): MuscleClip {
    const head = String.fromCharCode(...bytes.subarray(0, 4));
    if (head === MUSCLE_CLIP_MAGIC) return ParseMuscleClipBinary(bytes, source);
    return ParseMuscleClipJson(new TextDecoder().decode(bytes), source);
}
