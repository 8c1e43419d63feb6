import { basename } from "node:path";
import { SingleBar } from "cli-progress";
import { FitFileToGlbAsync, type IFitFileOptions, type IFitFileResult } from "../node/fitFile.js";

/** Options of the `fit` command. */
export interface IFitCommandOptions extends Omit<IFitFileOptions, "onProgress"> {
    /** The skinned character to fit (`--rig`). */
    rig: string;
    /** The GLB to write (`-o`). */
    out: string;
    /** Print one JSON object instead of the summary. */
    json?: boolean;
}

/** Percent of the diagonal for people. */
function pct(fraction: number): string {
    return `${(100 * fraction).toPrecision(2)}%`;
}

/**
 * The one object `fit --json` prints: errors as fractions of the fitted rig's rest diagonal,
 * transfer quality from 0 to 1, frames, seconds (the whole command), and what was fitted.
 */
export function FitResultJson(source: string, options: IFitCommandOptions, r: IFitFileResult): Record<string, unknown> {
    return {
        source,
        rig: options.rig,
        output: r.output,
        clip: r.clip,
        rotationOnly: !!options.rotationOnly,
        vertices: r.transfer.fittedVertices,
        controlMeanError: r.control.meanError,
        controlMaxError: r.control.maxError,
        meanError: r.transfer.meanError,
        maxError: r.transfer.maxError,
        transferQuality: r.transfer.transferQuality,
        frames: r.transfer.frames,
        seconds: r.seconds,
        fitSeconds: r.transfer.seconds,
        bytes: r.bytes,
    };
}

/** The summary the command prints without `--json`. */
export function FormatFitSummary(source: string, options: IFitCommandOptions, r: IFitFileResult): string {
    const c = r.control;
    const t = r.transfer;
    return (
        [
            `${basename(source)} '${r.clip}' -> ${r.output} on ${basename(options.rig)}: ${t.frames} frames, ${t.fittedVertices} vertices fitted${options.rotationOnly ? ", rotations only" : ""}`,
            `  control (${basename(source)} fitted to its own clip): mean ${pct(c.meanError)}, worst ${pct(c.maxError)} of the diagonal`,
            `  transfer: mean ${pct(t.meanError)}, worst ${pct(t.maxError)} of the diagonal; ${(100 * t.transferQuality).toFixed(1)}% of the surface motion reproduced`,
            `Done in ${r.seconds.toFixed(2)} s (transfer fit ${t.seconds.toFixed(2)} s).`,
        ].join("\n") + "\n"
    );
}

/**
 * The `fit` command: the clip of a skinned source fitted onto another skinned character through
 * the surface, written as one GLB (see `FitFileToGlbAsync`); prints a summary or, with `json`,
 * exactly one JSON object. A progress bar goes to stderr on a terminal. Returns the exit code (0).
 */
export async function RunFitAsync(source: string, options: IFitCommandOptions, io: { out: (text: string) => void; progress?: boolean }): Promise<number> {
    const bar = io.progress
        ? new SingleBar({ format: "fitting [{bar}] {percentage}% | frame {value}/{total}", hideCursor: true, clearOnComplete: true, stream: process.stderr })
        : null;
    let started = false;
    try {
        const result = await FitFileToGlbAsync(source, options.rig, options.out, {
            clip: options.clip,
            rotationOnly: options.rotationOnly,
            vertices: options.vertices,
            frameRate: options.frameRate,
            onProgress: (done, total) => {
                if (!bar) return;
                if (!started) bar.start(total, 0);
                started = true;
                bar.update(done);
            },
        });
        bar?.stop();
        io.out(options.json ? JSON.stringify(FitResultJson(source, options, result)) + "\n" : FormatFitSummary(source, options, result));
        return 0;
    } finally {
        bar?.stop();
    }
}
