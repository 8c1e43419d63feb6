// What the muscle clip file's two forms share: its version and format marks, what a file may
// hold (`ValidateMuscleClip`, which every reader and writer runs), and the curves of older versions.
import { HumanoidError, type HumanoidErrorCode } from "../errors.js";
import { MAX_ABS_CLIP_VALUE, MAX_CLIP_FRAMES, MAX_CLIP_SECONDS, MAX_FRAME_RATE, MAX_STRING_BYTES, MAX_WARNINGS, MIN_FRAME_RATE } from "../limits.js";
import {
    FootContact,
    FOOT_CONTACT_BITS,
    MuscleClip,
    MuscleCurveNames,
    MUSCLE_CLIP_CURVE_COUNT,
    MUSCLE_CLIP_CURVE_COUNT_V1,
    MUSCLE_CLIP_CURVE_COUNT_V3,
} from "./muscleClip.js";
import { type IMuscleCurve } from "./curve.js";
import {
    CLIP_LEG_DIRECTION_MAX_Y,
    CLIP_SHOULDER_OFFSET_COUNT,
    CLIP_FOOT_LENGTH_RANGE,
    CLIP_THIGH_SHARE_RANGE,
    CLIP_TRUNK_LENGTH_RANGE,
    CLIP_TRUNK_OFFSET_COUNT,
    CLIP_TRUNK_OFFSET_MAX,
    type IClipProportions,
} from "./clipProportions.js";

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
 * is set, see `MuscleCurveUnit`); older files hold muscle values. Version 9 added the source's
 * shoulder layout (`proportions.shoulderOffsets`, binary flag bit 9); older files play without it
 * (the shoulders turn as the muscles say, not so that the line between the upper-arm joints turns
 * as the source's did). Version 10 added each planted foot's still end (`FootContact.LeftAnkleStill`
 * and the rest: JSON `contacts.leftAnkleStill`..., binary four more lists of runs after the feet's);
 * older files know no end, and planting holds the end the foot's pitch stands on. Version 11 added
 * the source's foot length (`proportions.footLength`, binary flag bit 10); older files play
 * without it (each foot goal's height is its ankle's, not the lower of its ankle and its front).
 * Version 12 added where the clip starts in its source (`sourceStartSeconds`, binary flag bit 11,
 * written when not 0); older files start where their source does.
 */
export const MUSCLE_CLIP_VERSION = 12;
/** The first file version with the feet's still ends ({@link CONTACT_ENDS}). */
export const CONTACT_ENDS_VERSION = 10;
/** The oldest file version this library reads. */
export const MUSCLE_CLIP_OLDEST_VERSION = 1;
/** Source proportions a file may give: each over the source's scale, within these (no humanoid is outside them). */
export const PROPORTION_RANGE = { legLength: [0.05, 5], ankleHeight: [0, 1], hipWidth: [0, 2] } as const;
/** The thigh share a file may give (upper leg over the whole leg): no humanoid leg is outside it. */
const THIGH_SHARE_RANGE = CLIP_THIGH_SHARE_RANGE;
/** The source's trunk a file may give (both or neither): its length over its scale, and its steadiest point's share of it. */
export const TRUNK_RANGE = { trunkLength: CLIP_TRUNK_LENGTH_RANGE, trunkSteadyPoint: [0, 1] } as const;
/** The source's T-pose leg directions a file may give (both or neither; unit vectors [x, y, z]). */
export const LEG_DIRECTIONS = ["thighDirection", "shinDirection"] as const;
/** First four bytes of a binary muscle clip ("BHMC"). */
export const MUSCLE_CLIP_MAGIC = "BHMC";

/** The foot-contact flags by their names in a JSON clip. */
export const CONTACT_FEET = [
    ["leftFoot", FootContact.Left],
    ["rightFoot", FootContact.Right],
] as const;

/** The still-end flags of planted feet by their names in a JSON clip (version {@link CONTACT_ENDS_VERSION} on), each with its foot's flag. */
export const CONTACT_ENDS = [
    ["leftAnkleStill", FootContact.LeftAnkleStill, FootContact.Left],
    ["rightAnkleStill", FootContact.RightAnkleStill, FootContact.Right],
    ["leftToesStill", FootContact.LeftToesStill, FootContact.Left],
    ["rightToesStill", FootContact.RightToesStill, FootContact.Right],
] as const;

/** Per foot, its two still-end flags (a frame may have one, not both). */
const BOTH_ENDS = [
    ["left", FootContact.LeftAnkleStill | FootContact.LeftToesStill],
    ["right", FootContact.RightAnkleStill | FootContact.RightToesStill],
] as const;

/** The contact flags a file from version {@link CONTACT_ENDS_VERSION} on stores as runs, by name, in the binary form's order. */
const CONTACT_FLAGS_WITH_ENDS: readonly (readonly [string, FootContact])[] = [...CONTACT_FEET, ...CONTACT_ENDS.map(([name, bit]) => [name, bit] as const)];

/** The contact flags a file of a version stores as runs, by name, in the order the binary form has them. */
export function ContactFlagsOfVersion(version: number): readonly (readonly [string, FootContact])[] {
    return version >= CONTACT_ENDS_VERSION ? CONTACT_FLAGS_WITH_ENDS : CONTACT_FEET;
}

/** One clip error naming the file and the field. */
export function ClipFileError(source: string, what: string, code: HumanoidErrorCode = "CLIP_PARSE"): HumanoidError {
    return new HumanoidError(code, `${source}: ${what}`);
}

/** UTF-8 length of a string, in bytes. */
export function Utf8ByteLength(s: string): number {
    return s.length * 3 <= MAX_STRING_BYTES ? s.length : new TextEncoder().encode(s).length;
}

/**
 * Checks a clip's parts: rate, frame count, strings, every curve's keys (strictly increasing frames
 * on the grid, from 0 to the last frame, finite values within `MAX_ABS_CLIP_VALUE`), contacts.
 * Readers and writers both run it (so nothing is written that would not read back). Throws a
 * {@link HumanoidError} (`CLIP_PARSE` by default) naming the field.
 */
export function ValidateMuscleClip(source: string, clip: MuscleClip, code: HumanoidErrorCode = "CLIP_PARSE"): MuscleClip {
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
        if (typeof v !== "string" || Utf8ByteLength(v) > MAX_STRING_BYTES) throw bad(source, `${what} must be a string of at most ${MAX_STRING_BYTES} bytes`);
    }
    if (!Array.isArray(clip.warnings) || clip.warnings.length > MAX_WARNINGS) throw bad(source, `warnings must be a list of at most ${MAX_WARNINGS} strings`);
    clip.warnings.forEach((w, i) => {
        if (typeof w !== "string" || Utf8ByteLength(w) > MAX_STRING_BYTES)
            throw bad(source, `warning ${i} must be a string of at most ${MAX_STRING_BYTES} bytes`);
    });
    if (!(Number.isInteger(clip.frameCount) && clip.frameCount >= 1 && clip.frameCount <= MAX_CLIP_FRAMES)) {
        throw bad(source, `frameCount must be a whole number from 1 to ${MAX_CLIP_FRAMES}, found ${clip.frameCount}`);
    }
    if (!(Number.isFinite(clip.toleranceDeg) && clip.toleranceDeg >= 0)) throw bad(source, `toleranceDeg must be a number >= 0, found ${clip.toleranceDeg}`);
    if (!(Math.abs(clip.groundHeight) <= MAX_ABS_CLIP_VALUE))
        throw bad(source, `groundHeight must be a finite number within ${MAX_ABS_CLIP_VALUE} in magnitude, found ${clip.groundHeight}`);
    if (!(clip.sourceStartSeconds >= 0 && clip.sourceStartSeconds <= MAX_CLIP_SECONDS))
        throw bad(source, `sourceStartSeconds must be a number of seconds from 0 to ${MAX_CLIP_SECONDS}, found ${clip.sourceStartSeconds}`);
    if (clip.proportions) {
        for (const [k, [lo, hi]] of Object.entries(PROPORTION_RANGE)) {
            const v = clip.proportions[k as keyof typeof PROPORTION_RANGE];
            if (!(v >= lo && v <= hi)) throw bad(source, `proportions.${k} must be a number from ${lo} to ${hi} (source scales), found ${v}`);
        }
        const footLength = clip.proportions.footLength;
        if (footLength !== undefined && !(footLength >= CLIP_FOOT_LENGTH_RANGE[0] && footLength <= CLIP_FOOT_LENGTH_RANGE[1]))
            throw bad(
                source,
                `proportions.footLength must be a number from ${CLIP_FOOT_LENGTH_RANGE[0]} to ${CLIP_FOOT_LENGTH_RANGE[1]} (source scales), found ${footLength}`,
            );
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
        const offsetList = (key: "trunkOffsets" | "shoulderOffsets", count: number, what: string): void => {
            const offsets = proportions[key];
            if (offsets === undefined) return;
            if (!(Array.isArray(offsets) && offsets.length === count))
                throw bad(
                    source,
                    `proportions.${key} must be a list of ${count} numbers (${what}), found ${Array.isArray(offsets) ? `a list of ${offsets.length}` : typeof offsets}`,
                );
            // Every index (not `forEach`, which skips the holes of a sparse array).
            for (let i = 0; i < count; i++) {
                const x: unknown = offsets[i];
                if (!(typeof x === "number" && Math.abs(x) <= CLIP_TRUNK_OFFSET_MAX))
                    throw bad(
                        source,
                        `proportions.${key}[${i}] must be a number from -${CLIP_TRUNK_OFFSET_MAX} to ${CLIP_TRUNK_OFFSET_MAX} (source scales), found ${String(x)}`,
                    );
            }
        };
        offsetList("trunkOffsets", CLIP_TRUNK_OFFSET_COUNT, "x y z of the spine, chest, upper chest, neck and head");
        offsetList("shoulderOffsets", CLIP_SHOULDER_OFFSET_COUNT, "x y z of the left shoulder, left upper arm, right shoulder and right upper arm");
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
    for (let f = 0; f < clip.frameCount; f++) {
        const c = clip.contacts[f];
        if (c & ~FOOT_CONTACT_BITS)
            throw bad(source, `contacts: frame ${f} has flags 0x${c.toString(16)}, beyond the known 0x${FOOT_CONTACT_BITS.toString(16)}`);
        for (const [name, bit, foot] of CONTACT_ENDS) {
            if (c & bit && !(c & foot))
                throw bad(source, `contacts.${name}: frame ${f} is not in a contact of its foot (${foot === FootContact.Left ? "leftFoot" : "rightFoot"})`);
        }
        for (const [side, both] of BOTH_ENDS) {
            if ((c & both) === both) throw bad(source, `contacts: frame ${f} has both still ends of the ${side} foot (${side}AnkleStill and ${side}ToesStill)`);
        }
    }
    return clip;
}

/** Curves a file of a version holds (the first of {@link MuscleCurveNames}; later ones read as {@link AbsentCurve}). */
export function CurveCountOfVersion(version: number): number {
    return version === 1 ? MUSCLE_CLIP_CURVE_COUNT_V1 : version < 4 ? MUSCLE_CLIP_CURVE_COUNT_V3 : MUSCLE_CLIP_CURVE_COUNT;
}

/** A curve an older file does not have: one key, 0. */
export function AbsentCurve(): IMuscleCurve {
    return { frames: new Uint32Array(1), values: new Float32Array(1) };
}

/** Inclusive frame ranges where a contact bit is set. */
export function ContactRuns(contacts: Uint8Array, bit: number): [number, number][] {
    const runs: [number, number][] = [];
    for (let f = 0; f < contacts.length; f++) {
        if (!(contacts[f] & bit)) continue;
        const start = f;
        while (f + 1 < contacts.length && contacts[f + 1] & bit) f++;
        runs.push([start, f]);
    }
    return runs;
}
