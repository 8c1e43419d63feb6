import { HumanoidError } from "../errors.js";
import {
    MAX_ABS_LENGTH,
    MAX_ABS_ROTATION_DEG,
    MAX_BVH_VALUES,
    MAX_CLIP_FRAMES,
    MAX_CLIP_SECONDS,
    MAX_FRAME_RATE,
    MIN_FRAME_RATE,
    MAX_DEPTH,
    MAX_JOINTS,
    MAX_NAME_LENGTH,
    QuoteForMessage,
} from "../limits.js";

/** A BVH channel name. */
export type BvhChannel = "Xposition" | "Yposition" | "Zposition" | "Xrotation" | "Yrotation" | "Zrotation";

const CHANNEL_NAMES: ReadonlySet<string> = new Set(["Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"]);

/** A decimal number as BVH writes them (no hexadecimal, no empty string, no Infinity). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Deepest joint nesting accepted (real skeletons are under 30 levels deep); the shared {@link MAX_DEPTH}. */
export const BVH_MAX_DEPTH = MAX_DEPTH;

/** Largest frame count accepted, so a corrupt header cannot make the reader allocate gigabytes; the shared {@link MAX_CLIP_FRAMES}. */
export const BVH_MAX_FRAMES = MAX_CLIP_FRAMES;

/** Motion blocks up to this many values are allocated as declared; larger ones only when the file has the bytes for them. */
const SMALL_MOTION_VALUES = 1 << 16;

/** One joint (or End Site) of a BVH hierarchy, in the file's own axes and units. */
export interface IBvhJoint {
    /** Joint name; End Sites are named `<parent>/EndSite`. */
    readonly name: string;
    /** Index of the parent in {@link IBvhFile.joints}, -1 for the root. */
    readonly parent: number;
    /** OFFSET from the parent (file units and axes). */
    readonly offset: readonly [number, number, number];
    /** The joint's channels in file order (empty for End Sites). */
    readonly channels: readonly BvhChannel[];
    /** Index of the joint's first channel in a frame's values. */
    readonly channelStart: number;
    /** `true` for an End Site. */
    readonly isEndSite: boolean;
    /** 1-based line of the joint's declaration, for messages. */
    readonly line: number;
}

/** A parsed BVH file: hierarchy and motion, exactly as the file says (no unit or axis conversion). */
export interface IBvhFile {
    /** File name or label, used in messages. */
    readonly source: string;
    /** Joints in file order (parents first), End Sites included. */
    readonly joints: readonly IBvhJoint[];
    /** Number of values per frame. */
    readonly channelCount: number;
    /** Number of frames. */
    readonly frameCount: number;
    /** Seconds per frame (`Frame Time`). */
    readonly frameTimeSeconds: number;
    /** All frames, `frameCount * channelCount` values: positions in file units, rotations in degrees. */
    readonly motion: Float64Array;
}

interface ILine {
    readonly tokens: string[];
    readonly line: number;
}

/**
 * Parses the text of a BVH file. Honours every joint's own CHANNELS list (any order, any subset of
 * the six channels, so 3 or 6 channels), End Sites, CRLF line ends and tabs. Any problem throws one
 * {@link HumanoidError} `BVH_PARSE` whose message starts with `<source>:<line>:`.
 * @param text the file content
 * @param source file name for messages
 */
export function ParseBvh(text: string, source = "BVH"): IBvhFile {
    const lines = text.split(/\r\n|\r|\n/);
    let li = 0;
    const fail = (line: number, msg: string): never => {
        throw new HumanoidError("BVH_PARSE", `${source}:${line}: ${msg}`, { file: source, line });
    };
    /** Next non-empty line, split into tokens. */
    const next = (what: string): ILine => {
        while (li < lines.length) {
            const t = lines[li].trim();
            li++;
            if (t) {
                return { tokens: t.split(/\s+/), line: li };
            }
        }
        return fail(lines.length, `unexpected end of file, expected ${what}`);
    };
    const num = (tok: string | undefined, line: number, what: string, limit = Infinity): number => {
        const v = tok !== undefined && DECIMAL.test(tok) ? Number(tok) : NaN;
        if (!Number.isFinite(v)) {
            fail(line, `${what} is not a number: '${QuoteForMessage(tok ?? "")}'`);
        }
        if (Math.abs(v) > limit) {
            fail(line, `${what} is ${QuoteForMessage(tok)}, beyond the limit of ${limit} in magnitude`);
        }
        return v;
    };

    // Count the joints first, so that a huge hierarchy is refused at once, with its size.
    const motionAt = text.search(/^\s*MOTION\b/im);
    const declared = (text.slice(0, motionAt < 0 ? text.length : motionAt).match(/^\s*(ROOT|JOINT|End\s+Site)\b/gim) ?? []).length;
    if (declared > MAX_JOINTS) {
        fail(1, `the hierarchy declares ${declared} joints (End Sites included), more than the ${MAX_JOINTS} this library reads`);
    }
    const head = next("HIERARCHY");
    if (head.tokens[0].toUpperCase() !== "HIERARCHY") {
        fail(head.line, `expected 'HIERARCHY', found '${QuoteForMessage(head.tokens[0])}' (is this a BVH file?)`);
    }
    const joints: IBvhJoint[] = [];
    let channelCount = 0;
    const names = new Set<string>();

    // Recursive descent over JOINT / End Site blocks (depth capped, so a corrupt file cannot
    // overflow the call stack).
    const parseJoint = (keywordLine: ILine, parent: number, depth: number): void => {
        if (depth > BVH_MAX_DEPTH) {
            fail(keywordLine.line, `joints are nested more than ${BVH_MAX_DEPTH} levels deep`);
        }
        if (joints.length >= MAX_JOINTS) {
            fail(keywordLine.line, `more than ${MAX_JOINTS} joints (End Sites included); no skeleton this library reads has so many`);
        }
        const kw = keywordLine.tokens[0].toUpperCase();
        const isEndSite = kw === "END";
        let name: string;
        if (isEndSite) {
            if ((keywordLine.tokens[1] ?? "").toUpperCase() !== "SITE") {
                fail(keywordLine.line, `expected 'End Site', found '${QuoteForMessage(keywordLine.tokens.join(" "))}'`);
            }
            name = `${joints[parent].name}/EndSite`;
        } else {
            name = keywordLine.tokens.slice(1).join(" ");
            if (!name) {
                fail(keywordLine.line, `${kw} without a name`);
            }
            if (name.length > MAX_NAME_LENGTH) {
                fail(keywordLine.line, `joint name '${QuoteForMessage(name)}' is longer than ${MAX_NAME_LENGTH} characters`);
            }
            if (names.has(name)) {
                fail(keywordLine.line, `joint name '${name}' is used twice`);
            }
            names.add(name);
        }
        const open = next("'{'");
        if (open.tokens[0] !== "{") {
            fail(open.line, `expected '{' after ${isEndSite ? "End Site" : `joint '${name}'`}, found '${QuoteForMessage(open.tokens[0])}'`);
        }
        const offLine = next("OFFSET");
        if (offLine.tokens[0].toUpperCase() !== "OFFSET") {
            fail(offLine.line, `expected OFFSET in ${isEndSite ? "End Site" : `joint '${name}'`}, found '${QuoteForMessage(offLine.tokens[0])}'`);
        }
        if (offLine.tokens.length !== 4) {
            fail(offLine.line, `OFFSET needs 3 numbers, found ${offLine.tokens.length - 1}`);
        }
        const offset: [number, number, number] = [
            num(offLine.tokens[1], offLine.line, "OFFSET x", MAX_ABS_LENGTH),
            num(offLine.tokens[2], offLine.line, "OFFSET y", MAX_ABS_LENGTH),
            num(offLine.tokens[3], offLine.line, "OFFSET z", MAX_ABS_LENGTH),
        ];
        const channels: BvhChannel[] = [];
        const channelStart = channelCount;
        const index = joints.length;
        let after = next("CHANNELS, JOINT, End Site or '}'");
        if (!isEndSite) {
            if (after.tokens[0].toUpperCase() !== "CHANNELS") {
                fail(after.line, `expected CHANNELS in joint '${name}', found '${QuoteForMessage(after.tokens[0])}'`);
            }
            const count = num(after.tokens[1], after.line, "channel count");
            if (!Number.isInteger(count) || count < 0 || count > 6) {
                fail(after.line, `joint '${name}' declares ${QuoteForMessage(after.tokens[1])} channels; a joint has 0 to 6`);
            }
            if (after.tokens.length !== 2 + count) {
                fail(after.line, `joint '${name}' declares ${count} channels but lists ${after.tokens.length - 2}`);
            }
            for (const c of after.tokens.slice(2)) {
                const canonical = c.charAt(0).toUpperCase() + c.slice(1).toLowerCase();
                if (!CHANNEL_NAMES.has(canonical)) {
                    fail(after.line, `unknown channel '${QuoteForMessage(c)}' in joint '${name}'`);
                }
                if (channels.includes(canonical as BvhChannel)) {
                    fail(after.line, `channel '${QuoteForMessage(c)}' listed twice in joint '${name}'`);
                }
                channels.push(canonical as BvhChannel);
            }
            channelCount += count;
            after = next("JOINT, End Site or '}'");
        }
        joints.push({ name, parent, offset, channels, channelStart, isEndSite, line: keywordLine.line });
        for (;;) {
            const k = after.tokens[0].toUpperCase();
            if (k === "}") {
                return;
            }
            if (isEndSite) {
                fail(after.line, `an End Site has no children; expected '}', found '${QuoteForMessage(after.tokens[0])}'`);
            }
            if (k !== "JOINT" && k !== "END") {
                fail(after.line, `expected JOINT, End Site or '}' in joint '${name}', found '${QuoteForMessage(after.tokens[0])}'`);
            }
            parseJoint(after, index, depth + 1);
            after = next(`'}' closing joint '${name}'`);
        }
    };

    const rootLine = next("ROOT");
    if (rootLine.tokens[0].toUpperCase() !== "ROOT") {
        fail(rootLine.line, `expected ROOT, found '${QuoteForMessage(rootLine.tokens[0])}'`);
    }
    parseJoint(rootLine, -1, 0);
    const motionLine = next("MOTION");
    if (motionLine.tokens[0].toUpperCase() === "ROOT") {
        fail(motionLine.line, "a second ROOT is not supported; the file must have one skeleton");
    }
    if (motionLine.tokens[0].toUpperCase() !== "MOTION") {
        fail(motionLine.line, `expected MOTION, found '${QuoteForMessage(motionLine.tokens[0])}'`);
    }
    const framesLine = next("Frames:");
    const framesTokens = framesLine.tokens.join(" ").split(":");
    if (framesTokens[0].trim().toUpperCase() !== "FRAMES" || framesTokens.length !== 2) {
        fail(framesLine.line, `expected 'Frames: <count>', found '${QuoteForMessage(framesLine.tokens.join(" "))}'`);
    }
    const frameCount = num(framesTokens[1].trim(), framesLine.line, "frame count");
    if (!Number.isInteger(frameCount) || frameCount < 0 || frameCount > BVH_MAX_FRAMES) {
        fail(framesLine.line, `frame count must be an integer from 0 to ${BVH_MAX_FRAMES}, found ${QuoteForMessage(framesTokens[1].trim())}`);
    }
    const timeLine = next("Frame Time:");
    const timeText = timeLine.tokens.join(" ");
    const colon = timeText.indexOf(":");
    if (colon < 0 || timeText.slice(0, colon).replace(/\s+/g, " ").trim().toUpperCase() !== "FRAME TIME") {
        fail(timeLine.line, `expected 'Frame Time: <seconds>', found '${QuoteForMessage(timeText)}'`);
    }
    const frameTimeSeconds = num(timeText.slice(colon + 1).trim(), timeLine.line, "frame time");
    if (!(frameTimeSeconds > 0)) {
        fail(timeLine.line, `frame time must be positive, found ${frameTimeSeconds}`);
    }
    if (!(frameTimeSeconds >= 1 / MAX_FRAME_RATE && frameTimeSeconds <= 1 / MIN_FRAME_RATE)) {
        fail(timeLine.line, `frame time must be from ${1 / MAX_FRAME_RATE} to ${1 / MIN_FRAME_RATE} seconds, found ${frameTimeSeconds}`);
    }
    if (frameCount * frameTimeSeconds > MAX_CLIP_SECONDS) {
        fail(timeLine.line, `${frameCount} frames of ${frameTimeSeconds} s is longer than ${MAX_CLIP_SECONDS} s`);
    }
    // Check the declared frames against what the file holds before allocating much: each value
    // takes at least two characters (a digit and a separator). (A small count that is wrong is
    // found frame by frame, with the line where the file ends.)
    if (frameCount * channelCount > MAX_BVH_VALUES) {
        fail(framesLine.line, `${frameCount} frames of ${channelCount} channels is more than ${MAX_BVH_VALUES} values`);
    }
    let rest = 0;
    for (let k = li; k < lines.length; k++) rest += lines[k].length + 1;
    if (frameCount * channelCount > SMALL_MOTION_VALUES && frameCount * Math.max(1, channelCount) * 2 > rest + 1) {
        fail(
            framesLine.line,
            `the file declares ${frameCount} frames of ${channelCount} channels, but only ${rest} characters follow (the file is truncated or the count is wrong)`,
        );
    }
    // Magnitude limit of each channel: lengths for positions, degrees for rotations.
    const channelLimit = new Float64Array(channelCount);
    for (const j of joints) j.channels.forEach((c, i) => (channelLimit[j.channelStart + i] = c.endsWith("rotation") ? MAX_ABS_ROTATION_DEG : MAX_ABS_LENGTH));
    const motion = new Float64Array(frameCount * channelCount);
    for (let f = 0; f < frameCount; f++) {
        const fl = next(`frame ${f + 1} of ${frameCount} (the file is truncated)`);
        if (fl.tokens.length !== channelCount) {
            fail(fl.line, `frame ${f + 1} has ${fl.tokens.length} values, the hierarchy declares ${channelCount} channels`);
        }
        const base = f * channelCount;
        for (let c = 0; c < channelCount; c++) {
            const tok = fl.tokens[c];
            const v = DECIMAL.test(tok) ? Number(tok) : NaN;
            if (!Number.isFinite(v)) {
                fail(fl.line, `frame ${f + 1}, value ${c + 1} is not a number: '${QuoteForMessage(fl.tokens[c])}'`);
            }
            if (Math.abs(v) > channelLimit[c]) {
                fail(fl.line, `frame ${f + 1}, value ${c + 1} is ${QuoteForMessage(tok)}, beyond the limit of ${channelLimit[c]} in magnitude`);
            }
            motion[base + c] = v;
        }
    }
    while (li < lines.length) {
        if (lines[li].trim()) {
            fail(li + 1, `unexpected data after the last of ${frameCount} frames`);
        }
        li++;
    }
    return { source, joints, channelCount, frameCount, frameTimeSeconds, motion };
}
