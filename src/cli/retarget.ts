import { basename, extname } from "node:path";
import { HumanoidError } from "../errors.js";
import { RetargetFileToGlbAsync, type IRetargetFileOptions, type IRetargetFileResult } from "../node/retargetFile.js";
import { RetargetFileToVrmaAsync, type IRetargetVrmaResult } from "../node/retargetVrma.js";

/** Options of the `retarget` command. */
export interface IRetargetCommandOptions extends IRetargetFileOptions {
    /** The character to retarget onto (`--onto`); optional for a `.vrma` output (then the default VRM Animation skeleton). */
    onto?: string;
    /** The GLB (or `.vrma` VRM Animation) to write (`-o`). */
    out: string;
}

/** Bytes for people. */
function size(bytes: number): string {
    return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`;
}

/** Seconds for people, from milliseconds. */
function seconds(ms: number): string {
    return `${(ms / 1000).toFixed(2)} s`;
}

/** Frames per second for people (BVH rates come out as 120.00048). */
function rate(hz: number): string {
    return String(Math.round(hz * 100) / 100);
}

/**
 * The summary the command prints: what was written, one line per animation (frames, rate, length,
 * how close the feet got to their goals, the most a limb stretched), warnings and timings.
 */
export function FormatRetargetSummary(source: string, options: IRetargetCommandOptions, result: IRetargetFileResult): string {
    const n = result.animations.length;
    const onto = basename(options.onto ?? "");
    const lines = [`${basename(source)} -> ${result.output} on ${onto}: ${n} animation${n === 1 ? "" : "s"}, ${size(result.bytes)}`];
    const ik = options.footIK ?? true;
    for (const a of result.animations) {
        const feet = ik ? `feet within ${(a.maxFootErrorMetres * 1000).toFixed(1)} mm of their goals` : "foot IK off";
        const stretch = `limbs stretched at most ${((a.maxStretch - 1) * 100).toFixed(1)}%`;
        const reach = a.unreachableFrames ? `, ${a.unreachableFrames} frame${a.unreachableFrames === 1 ? "" : "s"} with a goal out of reach` : "";
        lines.push(`  ${a.name}: ${a.frames} frames at ${rate(a.frameRate)} fps, ${a.durationSeconds.toFixed(2)} s; ${feet}; ${stretch}${reach}`);
    }
    const warnings = [
        ...result.characterWarnings.map((w) => `  ${onto}: ${w}`),
        ...result.animations.flatMap((a) => a.warnings.map((w) => `  ${a.name}: ${w}`)),
        ...result.exportWarnings.map((w) => `  ${basename(result.output)}: ${w}`),
    ];
    if (warnings.length) lines.push("Warnings:", ...warnings);
    const t = result.timings;
    lines.push(
        `Done in ${seconds(t.sourceMs + t.characterMs + t.bakeMs + t.exportMs)} (source ${seconds(t.sourceMs)}, character ${seconds(t.characterMs)}, bake ${seconds(t.bakeMs)}, export ${seconds(t.exportMs)}).`,
    );
    return lines.join("\n") + "\n";
}

/** The summary of a VRM Animation written: file, keys, bones and on which skeleton, warnings. */
export function FormatRetargetVrmaSummary(source: string, result: IRetargetVrmaResult): string {
    const lines = [
        `${basename(source)} -> ${result.output}: VRM Animation '${result.name}', ${result.frames} keys at ${rate(result.frameRate)} fps, ${result.bones} bones on the skeleton of ${basename(result.skeleton)}, ${size(result.bytes)}`,
        "  rotations from the muscles, the hips' travel from the body: foot and hand IK do not apply to a VRM Animation",
    ];
    if (result.warnings.length) lines.push("Warnings:", ...result.warnings.map((w) => `  ${result.name}: ${w}`));
    return lines.join("\n") + "\n";
}

/**
 * The `retarget` command: plays a motion (muscle clip, BVH, or glTF/VRM/VRMA animations) on a
 * character with the humanoid runtime (foot IK, squash-and-stretch, root motion) and writes the
 * character with the baked animation as one GLB, whole or not at all; or, when the output ends in
 * `.vrma`, writes the motion as a VRM Animation (on the character's skeleton when `onto` is given,
 * see `RetargetFileToVrmaAsync`). Prints a short summary.
 * Throws one {@link HumanoidError} naming the file or option. Returns the exit code (0).
 * @param source the motion file
 * @param options character, output, clip, IK, stretch, root motion, rate
 * @param io where the summary goes
 */
export async function RunRetargetAsync(source: string, options: IRetargetCommandOptions, io: { out: (text: string) => void }): Promise<number> {
    if (!options.out) throw new HumanoidError("BAD_OPTION", "retarget: give the output with -o <file.glb> (or <file.vrma>)");
    if (extname(options.out).toLowerCase() === ".vrma") {
        io.out(FormatRetargetVrmaSummary(source, await RetargetFileToVrmaAsync(source, options.onto, options.out, options)));
        return 0;
    }
    if (!options.onto) throw new HumanoidError("BAD_OPTION", "retarget: give the character with --onto <character.glb|.gltf|.vrm>");
    const result = await RetargetFileToGlbAsync(source, options.onto, options.out, options);
    io.out(FormatRetargetSummary(source, options, result));
    return 0;
}
