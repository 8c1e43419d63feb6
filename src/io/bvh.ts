import { HumanoidError } from "../errors.js";

/** A BVH channel name. */
export type BvhChannel = "Xposition" | "Yposition" | "Zposition" | "Xrotation" | "Yrotation" | "Zrotation";

const CHANNEL_NAMES: ReadonlySet<string> = new Set(["Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"]);

/** A decimal number as BVH writes them (no hexadecimal, no empty string, no Infinity). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Deepest joint nesting accepted (real skeletons are under 30 levels deep). */
export const BVH_MAX_DEPTH = 1000;

/** Largest frame count accepted, so a corrupt header cannot make the reader allocate gigabytes. */
export const BVH_MAX_FRAMES = 10_000_000;

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
    const num = (tok: string | undefined, line: number, what: string): number => {
        const v = tok !== undefined && DECIMAL.test(tok) ? Number(tok) : NaN;
        if (!Number.isFinite(v)) {
            fail(line, `${what} is not a number: '${tok ?? ""}'`);
        }
        return v;
    };

    const head = next("HIERARCHY");
    if (head.tokens[0].toUpperCase() !== "HIERARCHY") {
        fail(head.line, `expected 'HIERARCHY', found '${head.tokens[0]}' (is this a BVH file?)`);
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
        const kw = keywordLine.tokens[0].toUpperCase();
        const isEndSite = kw === "END";
        let name: string;
        if (isEndSite) {
            if ((keywordLine.tokens[1] ?? "").toUpperCase() !== "SITE") {
                fail(keywordLine.line, `expected 'End Site', found '${keywordLine.tokens.join(" ")}'`);
            }
            name = `${joints[parent].name}/EndSite`;
        } else {
            name = keywordLine.tokens.slice(1).join(" ");
            if (!name) {
                fail(keywordLine.line, `${kw} without a name`);
            }
            if (names.has(name)) {
                fail(keywordLine.line, `joint name '${name}' is used twice`);
            }
            names.add(name);
        }
        const open = next("'{'");
        if (open.tokens[0] !== "{") {
            fail(open.line, `expected '{' after ${isEndSite ? "End Site" : `joint '${name}'`}, found '${open.tokens[0]}'`);
        }
        const offLine = next("OFFSET");
        if (offLine.tokens[0].toUpperCase() !== "OFFSET") {
            fail(offLine.line, `expected OFFSET in ${isEndSite ? "End Site" : `joint '${name}'`}, found '${offLine.tokens[0]}'`);
        }
        if (offLine.tokens.length !== 4) {
            fail(offLine.line, `OFFSET needs 3 numbers, found ${offLine.tokens.length - 1}`);
        }
        const offset: [number, number, number] = [
            num(offLine.tokens[1], offLine.line, "OFFSET x"),
            num(offLine.tokens[2], offLine.line, "OFFSET y"),
            num(offLine.tokens[3], offLine.line, "OFFSET z"),
        ];
        const channels: BvhChannel[] = [];
        const channelStart = channelCount;
        const index = joints.length;
        let after = next("CHANNELS, JOINT, End Site or '}'");
        if (!isEndSite) {
            if (after.tokens[0].toUpperCase() !== "CHANNELS") {
                fail(after.line, `expected CHANNELS in joint '${name}', found '${after.tokens[0]}'`);
            }
            const count = num(after.tokens[1], after.line, "channel count");
            if (!Number.isInteger(count) || count < 0 || count > 6) {
                fail(after.line, `joint '${name}' declares ${after.tokens[1]} channels; a joint has 0 to 6`);
            }
            if (after.tokens.length !== 2 + count) {
                fail(after.line, `joint '${name}' declares ${count} channels but lists ${after.tokens.length - 2}`);
            }
            for (const c of after.tokens.slice(2)) {
                const canonical = c.charAt(0).toUpperCase() + c.slice(1).toLowerCase();
                if (!CHANNEL_NAMES.has(canonical)) {
                    fail(after.line, `unknown channel '${c}' in joint '${name}'`);
                }
                if (channels.includes(canonical as BvhChannel)) {
                    fail(after.line, `channel '${c}' listed twice in joint '${name}'`);
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
                fail(after.line, `an End Site has no children; expected '}', found '${after.tokens[0]}'`);
            }
            if (k !== "JOINT" && k !== "END") {
                fail(after.line, `expected JOINT, End Site or '}' in joint '${name}', found '${after.tokens[0]}'`);
            }
            parseJoint(after, index, depth + 1);
            after = next(`'}' closing joint '${name}'`);
        }
    };

    const rootLine = next("ROOT");
    if (rootLine.tokens[0].toUpperCase() !== "ROOT") {
        fail(rootLine.line, `expected ROOT, found '${rootLine.tokens[0]}'`);
    }
    parseJoint(rootLine, -1, 0);
    const motionLine = next("MOTION");
    if (motionLine.tokens[0].toUpperCase() === "ROOT") {
        fail(motionLine.line, "a second ROOT is not supported; the file must have one skeleton");
    }
    if (motionLine.tokens[0].toUpperCase() !== "MOTION") {
        fail(motionLine.line, `expected MOTION, found '${motionLine.tokens[0]}'`);
    }
    const framesLine = next("Frames:");
    const framesTokens = framesLine.tokens.join(" ").split(":");
    if (framesTokens[0].trim().toUpperCase() !== "FRAMES" || framesTokens.length !== 2) {
        fail(framesLine.line, `expected 'Frames: <count>', found '${framesLine.tokens.join(" ")}'`);
    }
    const frameCount = num(framesTokens[1].trim(), framesLine.line, "frame count");
    if (!Number.isInteger(frameCount) || frameCount < 0 || frameCount > BVH_MAX_FRAMES) {
        fail(framesLine.line, `frame count must be an integer from 0 to ${BVH_MAX_FRAMES}, found ${framesTokens[1].trim()}`);
    }
    const timeLine = next("Frame Time:");
    const timeText = timeLine.tokens.join(" ");
    const colon = timeText.indexOf(":");
    if (colon < 0 || timeText.slice(0, colon).replace(/\s+/g, " ").trim().toUpperCase() !== "FRAME TIME") {
        fail(timeLine.line, `expected 'Frame Time: <seconds>', found '${timeText}'`);
    }
    const frameTimeSeconds = num(timeText.slice(colon + 1).trim(), timeLine.line, "frame time");
    if (!(frameTimeSeconds > 0)) {
        fail(timeLine.line, `frame time must be positive, found ${frameTimeSeconds}`);
    }
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
                fail(fl.line, `frame ${f + 1}, value ${c + 1} is not a number: '${fl.tokens[c]}'`);
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
