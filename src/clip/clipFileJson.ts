// The muscle clip file as JSON (`.muscle.json`): readable, one curve a line.
import { MAX_CLIP_FRAMES, MAX_STRING_BYTES, MAX_WARNINGS, QuoteForMessage } from "../limits.js";
import { MuscleClip, MuscleCurveNames } from "./muscleClip.js";
import { type CurveInterpolation, type IMuscleCurve } from "./curve.js";
import { CLIP_SHOULDER_OFFSET_COUNT, CLIP_TRUNK_OFFSET_COUNT, type IClipProportions } from "./clipProportions.js";
import type { MuscleCurveUnit } from "./muscleCurveUnit.js";
import {
    AbsentCurve,
    ClipFileError,
    ContactFlagsOfVersion,
    ContactRuns,
    CONTACT_ENDS,
    CONTACT_ENDS_VERSION,
    CONTACT_FEET,
    CurveCountOfVersion,
    LEG_DIRECTIONS,
    MUSCLE_CLIP_FORMAT,
    MUSCLE_CLIP_OLDEST_VERSION,
    MUSCLE_CLIP_VERSION,
    PROPORTION_RANGE,
    TRUNK_RANGE,
    Utf8ByteLength,
    ValidateMuscleClip,
} from "./clipFileRules.js";

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

/**
 * A clip as readable JSON (`.muscle.json`): the header fields, foot contacts as inclusive frame
 * ranges, and every curve by name as `{frames, values}` (and `step` for a curve whose values are
 * on a grid, see `IMuscleCurve.step`), one curve per line. Values are written with the fewest
 * digits that read back as the same float32, so the file round-trips exactly.
 */
export function SerializeMuscleClipToJson(clip: MuscleClip): string {
    ValidateMuscleClip(`${QuoteForMessage(clip.name || "clip")}: cannot be written`, clip, "FILE_WRITE");
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
        ...(clip.sourceStartSeconds !== 0 ? { sourceStartSeconds: clip.sourceStartSeconds } : {}),
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
                      ...(clip.proportions.shoulderOffsets !== undefined
                          ? { shoulderOffsets: clip.proportions.shoulderOffsets.map((x) => (Object.is(x, -0) ? NEGATIVE_ZERO : x)) }
                          : {}),
                      ...(clip.proportions.footLength !== undefined ? { footLength: clip.proportions.footLength } : {}),
                  },
              }
            : {}),
        warnings: clip.warnings,
        contacts: Object.fromEntries(ContactFlagsOfVersion(MUSCLE_CLIP_VERSION).map(([name, bit]) => [name, ContactRuns(clip.contacts, bit)])),
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
const OPTIONAL_JSON_KEYS = ["groundHeight", "proportions", "interpolation", "muscleUnit", "sourceStartSeconds"];

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
        throw ClipFileError(source, `not a JSON muscle clip: its JSON does not parse (${(e as Error).message})`);
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw ClipFileError(source, "not a JSON muscle clip: the top level is not an object");
    const o = doc as Record<string, unknown>;
    if (o.format !== MUSCLE_CLIP_FORMAT)
        throw ClipFileError(source, `not a muscle clip: format is ${JSON.stringify(o.format)}, expected "${MUSCLE_CLIP_FORMAT}"`);
    if (!(Number.isInteger(o.version) && (o.version as number) >= MUSCLE_CLIP_OLDEST_VERSION && (o.version as number) <= MUSCLE_CLIP_VERSION))
        throw ClipFileError(
            source,
            `unknown muscle clip version ${JSON.stringify(o.version)} (this library reads versions ${MUSCLE_CLIP_OLDEST_VERSION} to ${MUSCLE_CLIP_VERSION})`,
        );
    if (o.version === 1 && "proportions" in o) throw ClipFileError(source, "proportions is a version 2 key, the file says version 1");
    if ((o.version as number) < 3 && "interpolation" in o) throw ClipFileError(source, `interpolation is a version 3 key, the file says version ${o.version}`);
    if ((o.version as number) < 8 && "muscleUnit" in o) throw ClipFileError(source, `muscleUnit is a version 8 key, the file says version ${o.version}`);
    if ((o.version as number) < 12 && "sourceStartSeconds" in o)
        throw ClipFileError(source, `sourceStartSeconds is a version 12 key, the file says version ${o.version}`);
    for (const k of Object.keys(o)) if (!JSON_KEYS.includes(k) && !OPTIONAL_JSON_KEYS.includes(k)) throw ClipFileError(source, `unknown key '${k}'`);
    for (const k of JSON_KEYS) if (!(k in o)) throw ClipFileError(source, `missing key '${k}'`);
    const str = (k: string): string => {
        if (typeof o[k] !== "string") throw ClipFileError(source, `${k} must be a string`);
        if (Utf8ByteLength(o[k] as string) > MAX_STRING_BYTES) throw ClipFileError(source, `${k} is longer than ${MAX_STRING_BYTES} bytes`);
        return o[k] as string;
    };
    const num = (k: string): number => {
        if (typeof o[k] !== "number") throw ClipFileError(source, `${k} must be a number`);
        return o[k] as number;
    };
    if (typeof o.loop !== "boolean") throw ClipFileError(source, "loop must be true or false");
    if (!Array.isArray(o.warnings) || o.warnings.length > MAX_WARNINGS || !o.warnings.every((w) => typeof w === "string")) {
        throw ClipFileError(source, "warnings must be a list of strings");
    }
    const frameCount = num("frameCount");
    if (!(Number.isInteger(frameCount) && frameCount >= 1 && frameCount <= MAX_CLIP_FRAMES)) {
        throw ClipFileError(source, `frameCount must be a whole number from 1 to ${MAX_CLIP_FRAMES}, found ${frameCount}`);
    }
    // Contacts: {leftFoot: [[start, end], ...], rightFoot: [...]}, inclusive, within the clip; from
    // version 10 also the feet's still ends (leftAnkleStill..., each optional: none when left out).
    const contacts = new Uint8Array(frameCount);
    const c = o.contacts;
    if (typeof c !== "object" || c === null || Array.isArray(c)) throw ClipFileError(source, "contacts must be an object {leftFoot, rightFoot}");
    const cc = c as Record<string, unknown>;
    const flagNames = ContactFlagsOfVersion(o.version as number);
    for (const k of Object.keys(cc)) {
        if (flagNames.some(([n]) => n === k)) continue;
        if (CONTACT_ENDS.some(([n]) => n === k))
            throw ClipFileError(source, `contacts.${k} is a version ${CONTACT_ENDS_VERSION} key, the file says version ${o.version}`);
        throw ClipFileError(source, `contacts: unknown key '${k}'`);
    }
    for (const [name, bit] of flagNames) {
        const runs = cc[name];
        if (runs === undefined && !CONTACT_FEET.some(([n]) => n === name)) continue;
        if (!Array.isArray(runs)) throw ClipFileError(source, `contacts.${name} must be a list of [start, end] frame ranges`);
        // Ranges in order, apart: so the file cannot ask for more work than it has frames.
        let after = 0;
        for (const r of runs) {
            if (!Array.isArray(r) || r.length !== 2 || !r.every((x) => Number.isInteger(x)) || !(r[0] >= 0 && r[0] <= r[1] && r[1] < frameCount)) {
                throw ClipFileError(source, `contacts.${name}: ${JSON.stringify(r)} is not a [start, end] range of frames within 0..${frameCount - 1}`);
            }
            if (r[0] < after)
                throw ClipFileError(source, `contacts.${name}: ${JSON.stringify(r)} starts before the previous range ends (ranges must be in order and apart)`);
            for (let f = r[0]; f <= r[1]; f++) contacts[f] |= bit;
            after = r[1] + 2;
        }
    }
    const curvesObj = o.curves;
    if (typeof curvesObj !== "object" || curvesObj === null || Array.isArray(curvesObj))
        throw ClipFileError(source, "curves must be an object of named curves");
    const co = curvesObj as Record<string, unknown>;
    const names = MuscleCurveNames.slice(0, CurveCountOfVersion(o.version as number));
    for (const k of Object.keys(co))
        if (!names.includes(k))
            throw ClipFileError(source, `curves: unknown curve '${k}'${MuscleCurveNames.includes(k) ? ` in a version ${o.version} file` : ""}`);
    const curves: IMuscleCurve[] = MuscleCurveNames.map((name, i) => {
        if (i >= names.length) return AbsentCurve();
        const cv = co[name];
        if (cv === undefined) throw ClipFileError(source, `curves: missing curve '${name}'`);
        if (typeof cv !== "object" || cv === null || Array.isArray(cv)) throw ClipFileError(source, `curve '${name}' must be {frames, values}`);
        const keys = Object.keys(cv);
        const stepped = o.version !== 1 && keys.includes("step");
        if (keys.length !== (stepped ? 3 : 2) || !keys.includes("frames") || !keys.includes("values"))
            throw ClipFileError(
                source,
                `curve '${name}' must have exactly the keys frames and values${o.version !== 1 ? " (and step, if its values are on a grid)" : ""}`,
            );
        const { frames, values, step } = cv as { frames: unknown; values: unknown; step?: unknown };
        if (!Array.isArray(frames) || !frames.every((x) => Number.isInteger(x) && x >= 0 && x < frameCount)) {
            throw ClipFileError(source, `curve '${name}': frames must be whole frame numbers within 0..${frameCount - 1}`);
        }
        if (!Array.isArray(values) || !values.every((x) => typeof x === "number")) throw ClipFileError(source, `curve '${name}': values must be numbers`);
        if (!stepped) return { frames: Uint32Array.from(frames as number[]), values: Float32Array.from(values as number[]) };
        if (!(typeof step === "number" && step > 0 && step < Infinity)) throw ClipFileError(source, `curve '${name}': step must be a positive number`);
        return { frames: Uint32Array.from(frames as number[]), values: Float32Array.from(values as number[]), step: Math.fround(step) };
    });
    return ValidateMuscleClip(
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
            sourceStartSeconds: o.sourceStartSeconds === undefined ? 0 : num("sourceStartSeconds"),
            proportions: o.proportions === undefined ? null : jsonProportions(source, o.proportions, o.version as number),
            // Either as the file has it: `ValidateMuscleClip` names a value of neither kind.
            interpolation: (o.version as number) < 3 ? "catmull-rom" : ((o.interpolation ?? "spline") as CurveInterpolation),
            muscleUnit: (o.muscleUnit ?? "muscle") as MuscleCurveUnit,
        }),
    );
}

/**
 * The `proportions` object of a JSON clip: exactly `{legLength, ankleHeight, hipWidth,
 * footDirection}`, `thighShare` from version 3 on, `trunkLength` and `trunkSteadyPoint` from
 * version 5 on, `thighDirection` and `shinDirection` from version 6 on, `trunkOffsets` (a list
 * of numbers) from version 7 on, `shoulderOffsets` (a list of numbers) from version 9 on and `footLength` from version 11 on (their ranges and counts, and that the trunk and the leg have both
 * or neither, are checked with the clip).
 */
function jsonProportions(source: string, v: unknown, version: number): IClipProportions {
    if (typeof v !== "object" || v === null || Array.isArray(v))
        throw ClipFileError(source, "proportions must be an object {legLength, ankleHeight, hipWidth, footDirection}");
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
        if (k === "thighShare" && version < 3) throw ClipFileError(source, `proportions.thighShare is a version 3 key, the file says version ${version}`);
        if (Object.hasOwn(TRUNK_RANGE, k) && version < 5) throw ClipFileError(source, `proportions.${k} is a version 5 key, the file says version ${version}`);
        const leg = (LEG_DIRECTIONS as readonly string[]).includes(k);
        if (leg && version < 6) throw ClipFileError(source, `proportions.${k} is a version 6 key, the file says version ${version}`);
        if (k === "trunkOffsets" && version < 7) throw ClipFileError(source, `proportions.trunkOffsets is a version 7 key, the file says version ${version}`);
        if (k === "shoulderOffsets" && version < 9)
            throw ClipFileError(source, `proportions.shoulderOffsets is a version 9 key, the file says version ${version}`);
        if (k === "footLength" && version < 11) throw ClipFileError(source, `proportions.footLength is a version 11 key, the file says version ${version}`);
        if (
            !Object.hasOwn(PROPORTION_RANGE, k) &&
            !Object.hasOwn(TRUNK_RANGE, k) &&
            !leg &&
            k !== "footDirection" &&
            k !== "thighShare" &&
            k !== "trunkOffsets" &&
            k !== "shoulderOffsets" &&
            k !== "footLength"
        )
            throw ClipFileError(source, `proportions: unknown key '${k}'`);
    }
    for (const k of ["thighShare", "footLength", ...Object.keys(TRUNK_RANGE)])
        if (k in o && typeof o[k] !== "number") throw ClipFileError(source, `proportions.${k} must be a number`);
    for (const k of Object.keys(PROPORTION_RANGE)) if (typeof o[k] !== "number") throw ClipFileError(source, `proportions.${k} must be a number`);
    const vector = (k: string): [number, number, number] | undefined => {
        const d = o[k];
        if (d === undefined && k !== "footDirection") return undefined;
        if (!Array.isArray(d) || d.length !== 3 || !d.every((x) => typeof x === "number")) throw ClipFileError(source, `proportions.${k} must be [x, y, z]`);
        return [d[0], d[1], d[2]];
    };
    const d = vector("footDirection")!;
    const thighDirection = vector("thighDirection");
    const shinDirection = vector("shinDirection");
    const numberList = (key: string, count: number): number[] | undefined => {
        const list = o[key];
        if (list !== undefined && !Array.isArray(list))
            throw ClipFileError(source, `proportions.${key} must be a list of ${count} numbers, found ${QuoteForMessage(JSON.stringify(list))}`);
        list?.forEach((x: unknown, i: number) => {
            if (typeof x !== "number") throw ClipFileError(source, `proportions.${key}[${i}] must be a number, found ${QuoteForMessage(JSON.stringify(x))}`);
        });
        return list as number[] | undefined;
    };
    const trunkOffsets = numberList("trunkOffsets", CLIP_TRUNK_OFFSET_COUNT);
    const shoulderOffsets = numberList("shoulderOffsets", CLIP_SHOULDER_OFFSET_COUNT);
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
        ...(trunkOffsets !== undefined ? { trunkOffsets } : {}),
        ...(shoulderOffsets !== undefined ? { shoulderOffsets } : {}),
        ...(typeof o.footLength === "number" ? { footLength: o.footLength } : {}),
    };
}
