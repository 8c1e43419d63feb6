import { access, mkdir } from "node:fs/promises";
import { dirname, extname } from "node:path";
import { HumanoidError } from "../errors.js";
import { BuildQualityReportAsync, WriteQualityReportAsync, type QualityAnimatorOptions } from "../node/qualityReport.js";
import { SortQualityPairsWorstFirst } from "../quality/reportHtml.js";
import type { TPoseMode } from "../humanoid/tpose.js";
import { ErrorLine } from "./errorLine.js";

/** Options of the `report` command. */
export interface IReportCommandOptions {
    /** Target files (any file with a skeleton). */
    onto: string[];
    /** The HTML page to write. */
    output: string;
    /** The JSON file to write, if any. */
    json?: string;
    /** The clip of glTF sources, by name (default their first). */
    clip?: string;
    /** Skip Babylon's AnimatorAvatar. */
    animatorAvatar?: boolean;
    /** Our runtime's settings (foot IK, planting, stretch, proportions). Default the animator's. */
    animator?: QualityAnimatorOptions;
    /** Keyframe reduction tolerance of the sources' conversion, degrees of muscle angle (0: every frame a key). Default the converter's (0.1). */
    toleranceDeg?: number;
    /** How far the sources' joints may move when denoised before conversion, degrees. Default the tolerance; 0 off. */
    denoiseToleranceDeg?: number;
    /** Animator updates per clip frame (a display faster than the clip). Default 1. */
    updatesPerFrame?: number;
    /** How the avatars' reference T-poses are made. Default `"auto"`. */
    tPose?: TPoseMode;
}

/**
 * `babylon-humanoid report <sources...> --onto <targets...> -o report.html [--json out.json]`:
 * every source onto every target, ours against Babylon's AnimatorAvatar. Progress goes to stderr,
 * one line per pair; a pair that fails is reported and the others go on (exit code 1 then).
 * Returns the exit code.
 */
export async function RunReportAsync(
    sources: string[],
    options: IReportCommandOptions,
    io: { err: (s: string) => void; out: (s: string) => void },
): Promise<number> {
    if (extname(options.output).toLowerCase() !== ".html")
        throw new HumanoidError("BAD_OPTION", `${options.output}: the report is an HTML page: name it .html`);
    if (options.json && extname(options.json).toLowerCase() !== ".json")
        throw new HumanoidError("BAD_OPTION", `${options.json}: --json writes JSON: name it .json`);
    for (const f of [...sources, ...options.onto]) {
        try {
            await access(f);
        } catch {
            throw new HumanoidError("FILE_READ", `${f}: cannot read the file (no such file)`);
        }
    }
    const t0 = performance.now();
    const report = await BuildQualityReportAsync(sources, options.onto, {
        clip: options.clip,
        skipAnimatorAvatar: options.animatorAvatar === false,
        animator: options.animator,
        toleranceDeg: options.toleranceDeg,
        denoiseToleranceDeg: options.denoiseToleranceDeg,
        updatesPerFrame: options.updatesPerFrame,
        tPose: options.tPose,
        onProgress: (done, total, pair, error) => {
            if (pair) {
                const theirs = pair.animatorAvatar ? pair.animatorAvatar.footSkate.toFixed(4) : "n/a";
                const missed = pair.misses.length ? `; misses ${pair.misses.map((m) => m.check).join(", ")}` : "";
                io.err(
                    `[${done}/${total}] ${pair.clip} -> ${pair.target}: foot skating ${pair.ours.footSkate.toFixed(4)} (AnimatorAvatar ${theirs}), pose error ${pair.ours.poseErrorDeg.toFixed(2)} deg, jerk ${pair.ours.jerkRatio.toFixed(2)}${missed}\n`,
                );
            } else {
                io.err(`[${done}/${total}] ${ErrorLine("", error)}\n`);
            }
        },
    });
    await mkdir(dirname(options.output), { recursive: true });
    if (options.json) await mkdir(dirname(options.json), { recursive: true });
    await WriteQualityReportAsync(report, options.output, options.json);
    const worst = SortQualityPairsWorstFirst(report.pairs).filter((p) => p.misses.length);
    io.out(
        `wrote ${options.output}${options.json ? ` and ${options.json}` : ""}: ${report.pairs.length} pairs in ${((performance.now() - t0) / 1000).toFixed(1)} s` +
            (report.failures.length ? `; ${report.failures.length} failed` : "") +
            `; ${report.pairs.length - worst.length} meet every threshold` +
            (worst.length ? `, ${worst.length} miss one or more (worst first):` : "") +
            "\n" +
            worst
                .slice(0, 10)
                .map(
                    (p) =>
                        `  ${p.clip} -> ${p.target.split(/[\\/]/).pop()}: ${p.misses.map((m) => `${m.check} ${m.value.toPrecision(3)} > ${m.limit.toPrecision(3)}`).join("; ")}\n`,
                )
                .join(""),
    );
    return report.failures.length ? 1 : 0;
}
