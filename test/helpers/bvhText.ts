/** A small valid BVH: root with 6 channels in ZXY order, a 3-channel joint in YXZ order, an End Site. */
export const TINY_BVH = [
    "HIERARCHY",
    "ROOT Hips",
    "{",
    "\tOFFSET 0 0 0",
    "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation",
    "\tJOINT Spine",
    "\t{",
    "\t\tOFFSET 0 10 0",
    "\t\tCHANNELS 3 Yrotation Xrotation Zrotation",
    "\t\tEnd Site",
    "\t\t{",
    "\t\t\tOFFSET 0 5 0",
    "\t\t}",
    "\t}",
    "}",
    "MOTION",
    "Frames: 2",
    "Frame Time: 0.0333333",
    "1 2 3 10 20 30 40 50 60",
    "0 0 0 0 0 0 0 0 90",
    "",
].join("\n");

/** A BVH file's text split into its hierarchy (through "Frame Time") and its frame lines. */
export function SplitBvhFrames(text: string): { head: string[]; frames: string[] } {
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
    const at = lines.findIndex((l) => /^Frame Time/.test(l.trim()));
    return { head: lines.slice(0, at + 1), frames: lines.slice(at + 1) };
}

/** A BVH text from a hierarchy and frame lines (see {@link SplitBvhFrames}), its frame count written to match. */
export function JoinBvhFrames(head: readonly string[], frames: readonly string[]): string {
    return [...head.map((l) => (/^Frames:/.test(l.trim()) ? `Frames: ${frames.length}` : l)), ...frames, ""].join("\n");
}
