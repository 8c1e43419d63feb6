import { createHash } from "node:crypto";
import { mkdir, stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { basename, dirname, extname, join, relative, resolve, sep } from "node:path";
import { Worker } from "node:worker_threads";
import { SingleBar } from "cli-progress";
import { HumanoidError } from "../errors.js";
import { ErrorLine } from "./errorLine.js";
import type { IBvhRigOptions } from "../io/bvhRig.js";
import { GetVrmAnimationSkeleton } from "../io/vrmAnimationRig.js";
import {
    ClipFileExtension,
    ConvertFileToMuscleClipsAsync,
    MuscleClipOutputPaths,
    SerializeMuscleClip,
    WriteFilesAtomicallyAsync,
    type ClipFileFormat,
} from "../node/convertFile.js";

/** Options of the `convert` command. */
export interface IConvertCommandOptions {
    /** Output: a directory (made if missing), or one file (`.muscle.json` / `.muscle.bin` / `.vrma`) for one clip. Default: beside each input. */
    out?: string;
    /** Only the clip of this name. */
    clip?: string;
    /** Frames per second of the muscle clips (default: each source's own). */
    rate?: number;
    /** Keyframe reduction tolerance, degrees (default 0.1). */
    tolerance?: number;
    /** How far the source's joints may move when denoised, degrees (`IMuscleClipConvertOptions.denoiseToleranceDeg`; default the tolerance, 0 off). */
    denoise?: number;
    /** Keep a floor that tilts under a take as it is (`IMuscleClipConvertOptions.levelFloor` false). Default false: leveled. */
    keepFloorTilt?: boolean;
    /** Keep held poses a take jumps from or to at its ends (`IMuscleClipConvertOptions.keepEndPoses`). Default false: left out, with a warning. */
    keepEndPoses?: boolean;
    /** File format: a muscle clip (`"json"`, `"bin"`) or a VRM Animation (`"vrma"`); default from `out`'s extension, else JSON. */
    format?: ClipFileFormat;
    /** Files converted at once, each in a worker thread (default: the machine's cores, at most the inputs). */
    jobs?: number;
    /** Write each clip's mirror image (left and right swapped, in muscle space). Default false. */
    mirror?: boolean;
    /** Model file whose avatar glTF clips drive (clips kept in their own files). */
    avatar?: string;
    /** T-pose mode of the avatars. */
    tPose?: "auto" | "rest" | "strict";
    /** How BVH files are read. */
    bvh?: IBvhRigOptions;
    /** Convert only this share of the inputs ({@link SelectShardInputs}); default: all of them. */
    shard?: IConvertShard;
    /** Also write a JSON manifest here: one line per input (of the shard) with its outputs, frames, warnings and error. */
    manifest?: string;
}

/** One share of a bulk conversion: shard `index` of `count`, the index counting from 0 (as Kubernetes' `JOB_COMPLETION_INDEX`). */
export interface IConvertShard {
    /** Which shard, from 0 to `count - 1`. */
    readonly index: number;
    /** How many shards the inputs are split into, at least 1. */
    readonly count: number;
}

/**
 * Reads `--shard i/n`: a whole index `i` from 0 to `n - 1` and a whole count `n` of at least 1.
 * Throws a {@link HumanoidError} `BAD_OPTION` naming the option and the value otherwise.
 */
export function ParseShard(text: string): IConvertShard {
    const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
    const index = m ? Number(m[1]) : NaN;
    const count = m ? Number(m[2]) : NaN;
    if (!(count >= 1 && index < count && Number.isSafeInteger(count))) {
        throw new HumanoidError(
            "BAD_OPTION",
            `--shard '${text}': give <index>/<count> with a count of at least 1 and an index from 0 to count - 1 (it counts from 0, as a Kubernetes JOB_COMPLETION_INDEX), for example 0/4`,
        );
    }
    return { index, count };
}

/**
 * The directory every input lies under (absolute): the longest common directory of their
 * resolved paths.
 */
function commonRoot(inputs: readonly string[]): string {
    let root = dirname(resolve(inputs[0]));
    for (const input of inputs) {
        const dir = dirname(resolve(input));
        while (root !== dirname(root) && dir !== root && !dir.startsWith(root.endsWith(sep) ? root : root + sep)) root = dirname(root);
    }
    return root;
}

/**
 * The shard of one input: the first 32 bits of the SHA-256 of its path relative to the inputs'
 * common directory (written with `/`), modulo the shard count. It depends on that path alone, not
 * on the order of the inputs, the machine, where the library is mounted or which other files are
 * there (as long as the common directory stays the same).
 * @param relativePath the input's path relative to the common directory, `/`-separated
 * @param count number of shards, at least 1
 */
export function ShardOfInput(relativePath: string, count: number): number {
    return createHash("sha256").update(relativePath, "utf8").digest().readUInt32BE(0) % count;
}

/**
 * The inputs of one shard, in their given order. Over shards `0/n` ... `(n-1)/n` every input is
 * in exactly one ({@link ShardOfInput}), so n machines running the same command with their own
 * index convert every input once. Shards are balanced by the hash, not exactly: a few files may
 * split unevenly; thousands come within a few percent.
 */
export function SelectShardInputs(inputs: readonly string[], shard: IConvertShard): string[] {
    if (!inputs.length || shard.count === 1) return inputs.slice();
    const root = commonRoot(inputs);
    return inputs.filter((input) => ShardOfInput(relative(root, resolve(input)).split(sep).join("/"), shard.count) === shard.index);
}

/** One line of the `--manifest`: what became of one input. */
export interface IConvertManifestEntry {
    /** The input, as given on the command line. */
    readonly input: string;
    /** The files written for it, one per clip (none when it failed). */
    readonly outputs: ReadonlyArray<{
        readonly file: string;
        readonly clip: string;
        readonly frames: number;
        /** Frames per second. */
        readonly rate: number;
        readonly keys: number;
        readonly bytes: number;
        /** What did not convert losslessly. */
        readonly warnings: readonly string[];
    }>;
    /** The one-line error when the input failed (then nothing was written for it), else null. */
    readonly error: string | null;
}

/**
 * The manifest's text: a JSON array with one input a line, so that it parses whole and also reads
 * line by line (`grep`); the manifests of several shards merge with `jq -s add`.
 */
export function FormatConvertManifest(results: readonly IConvertResult[]): string {
    const entries: IConvertManifestEntry[] = results.map((r) => ({
        input: r.input,
        outputs: r.rows.map((c) => ({ file: c.output, clip: c.clip, frames: c.frames, rate: c.rate, keys: c.keys, bytes: c.bytes, warnings: c.warnings })),
        error: r.error ?? null,
    }));
    return `[\n${entries.map((e) => JSON.stringify(e)).join(",\n")}${entries.length ? "\n" : ""}]\n`;
}

/** One clip written. */
export interface IConvertedRow {
    /** The clip's name. */
    readonly clip: string;
    /** Frames on its grid. */
    readonly frames: number;
    /** Frames per second. */
    readonly rate: number;
    /** Keys kept after reduction, over all curves (a VRM Animation: every frame of every channel). */
    readonly keys: number;
    /** Bytes of the written file. */
    readonly bytes: number;
    /** Bytes of the source motion: the BVH file, or the glTF animation's key data (0 when unknown). */
    readonly sourceBytes: number;
    /** The file written. */
    readonly output: string;
    /** What did not convert losslessly. */
    readonly warnings: readonly string[];
}

/** What became of one input. */
export interface IConvertResult {
    readonly input: string;
    readonly rows: IConvertedRow[];
    /** The one-line error when the input failed (nothing was written for it). */
    readonly error?: string;
}

/** The task a worker (or the main thread) runs for one input. */
export interface IConvertTask {
    readonly input: string;
    readonly options: IConvertCommandOptions;
    /** Where outputs go: a directory, a single file, or beside the input. */
    readonly target: { kind: "dir" | "file" | "beside"; path?: string };
    readonly format: ClipFileFormat;
}

/**
 * Converts one input and writes its clips (all or none). Never throws: a failure comes back as
 * `error`, one line naming the file.
 */
export async function ConvertOneAsync(task: IConvertTask, onProgress?: (fraction: number) => void): Promise<IConvertResult> {
    const { input, options, target, format } = task;
    try {
        const clips = await ConvertFileToMuscleClipsAsync(input, {
            clip: options.clip,
            frameRate: options.rate,
            toleranceDeg: options.tolerance,
            denoiseToleranceDeg: options.denoise,
            levelFloor: !options.keepFloorTilt,
            keepEndPoses: options.keepEndPoses,
            avatar: options.avatar,
            tPose: options.tPose,
            bvh: options.bvh,
            mirror: options.mirror,
            onProgress: onProgress && ((done, total) => onProgress(total > 0 ? done / total : 1)),
        });
        if (target.kind === "file" && clips.length !== 1) {
            throw new HumanoidError(
                "BAD_OPTION",
                `${input}: -o names one file but the input has ${clips.length} clips (name a directory, or pick one with --clip)`,
            );
        }
        const paths =
            target.kind === "file"
                ? [target.path!]
                : MuscleClipOutputPaths(
                      input,
                      clips.map(({ clip }) => clip.name),
                      format,
                      target.kind === "dir" ? target.path : undefined,
                  );
        const files = clips.map(({ clip }, i) => ({ path: paths[i], bytes: SerializeMuscleClip(clip, format) }));
        await WriteFilesAtomicallyAsync(files);
        return {
            input,
            rows: clips.map(({ clip, sourceBytes }, i) => ({
                clip: clip.name,
                frames: clip.frameCount,
                rate: clip.frameRate,
                // A VRM Animation keys every frame of every channel (a rotation per bone, the hips' translation).
                keys: format === "vrma" ? clip.frameCount * (GetVrmAnimationSkeleton().bones.length + 1) : clip.keyCount,
                bytes: files[i].bytes.length,
                sourceBytes,
                output: files[i].path,
                warnings: clip.warnings,
            })),
        };
    } catch (e) {
        return { input, rows: [], error: ErrorLine(input, e) };
    }
}

/**
 * A worker running `convertWorker` next to this file. From the sources (under tsx, as the tests
 * and `npm run cli` run) the worker registers tsx's loader itself, as loader hooks are per thread.
 */
function startWorker(): Worker {
    if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./convertWorker.js", import.meta.url));
    const code = `import { register } from ${JSON.stringify(import.meta.resolve("tsx/esm/api"))}; register(); await import(${JSON.stringify(new URL("./convertWorker.ts", import.meta.url).href)});`;
    return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
}

/** Runs the tasks on `jobs` worker threads (or here, for one job), reporting progress per input. */
async function runTasks(tasks: IConvertTask[], jobs: number, onProgress: (index: number, fraction: number) => void): Promise<IConvertResult[]> {
    const results: IConvertResult[] = new Array(tasks.length);
    if (jobs <= 1 || tasks.length <= 1) {
        for (let i = 0; i < tasks.length; i++) {
            results[i] = await ConvertOneAsync(tasks[i], (f) => onProgress(i, f));
            onProgress(i, 1);
        }
        return results;
    }
    let next = 0;
    /** One task on a worker; a worker that dies fails its task and is replaced for the next. */
    const runOn = (worker: Worker, i: number): Promise<{ result: IConvertResult; alive: boolean }> =>
        new Promise((resolve) => {
            const settle = (result: IConvertResult, alive: boolean): void => {
                worker.off("message", onMessage);
                worker.off("error", onError);
                worker.off("exit", onExit);
                resolve({ result, alive });
            };
            const failed = (why: string): IConvertResult => ({
                input: tasks[i].input,
                rows: [],
                error: `${tasks[i].input}: the conversion worker failed: ${why}`,
            });
            const onMessage = (m: { type: "progress"; fraction: number } | { type: "done"; result: IConvertResult }): void => {
                if (m.type === "progress") onProgress(i, m.fraction);
                else settle(m.result, true);
            };
            const onError = (e: Error): void => settle(failed(e.message), false);
            const onExit = (code: number): void => settle(failed(`it stopped (exit code ${code})`), false);
            worker.on("message", onMessage);
            worker.on("error", onError);
            worker.on("exit", onExit);
            worker.postMessage(tasks[i]);
        });
    const runWorker = async (): Promise<void> => {
        let worker = startWorker();
        try {
            while (next < tasks.length) {
                const i = next++;
                const { result, alive } = await runOn(worker, i);
                results[i] = result;
                onProgress(i, 1);
                if (!alive) {
                    await worker.terminate().catch(() => undefined);
                    worker = startWorker();
                }
            }
        } finally {
            await worker.terminate();
        }
    };
    await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, runWorker));
    return results;
}

/** Bytes for people. */
function size(bytes: number): string {
    return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`;
}

/** A plain text table, columns padded to their widest cell. */
function table(rows: string[][]): string {
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
    return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join("  ")).join("\n");
}

/**
 * The `convert` command: converts every clip of every input to a muscle clip file, several files
 * at once on worker threads, with a progress bar on a terminal and a summary table. One failing
 * input is reported and the others still convert. With `shard`, only that share of the inputs is
 * converted (checks that concern every input, such as two writing the same file, still see them
 * all); with `manifest`, one JSON line per converted input is written, whole, when all are done.
 * Returns the exit code (1 if any input failed).
 */
export async function RunConvertAsync(
    inputs: string[],
    options: IConvertCommandOptions,
    io: { out: (text: string) => void; err: (text: string) => void; progress: boolean },
): Promise<number> {
    if (!inputs.length) throw new HumanoidError("BAD_OPTION", "convert: give at least one input file");
    let target: IConvertTask["target"] = { kind: "beside" };
    let format: ClipFileFormat = options.format ?? "json";
    if (options.format !== undefined && !["json", "bin", "vrma"].includes(options.format)) {
        throw new HumanoidError("BAD_OPTION", `--format must be json, bin or vrma (got ${JSON.stringify(options.format)})`);
    }
    if (options.out) {
        const m = /\.(json|bin|vrma)$/i.exec(options.out);
        const isDir = await stat(options.out).then(
            (s) => s.isDirectory(),
            () => false,
        );
        if (m && !isDir) {
            target = { kind: "file", path: options.out };
            await mkdir(dirname(options.out), { recursive: true }).catch((e: NodeJS.ErrnoException) => {
                throw new HumanoidError("FILE_WRITE", `${options.out}: cannot make its directory (${e.code ?? e.message})`);
            });
            format = options.format ?? (m[1].toLowerCase() as ClipFileFormat);
            if (options.format && options.format !== m[1].toLowerCase()) {
                throw new HumanoidError("BAD_OPTION", `-o ${options.out}: the extension says ${m[1].toLowerCase()} but --format is ${options.format}`);
            }
            if (inputs.length > 1)
                throw new HumanoidError("BAD_OPTION", `-o ${options.out} names one file, but there are ${inputs.length} inputs: name a directory`);
        } else {
            await mkdir(options.out, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
                throw new HumanoidError("FILE_WRITE", `${options.out}: cannot make the output directory (${e.code ?? e.message})`);
            });
            target = { kind: "dir", path: options.out };
        }
    }
    // Two inputs whose outputs would land on the same names: refuse before converting anything.
    if (target.kind !== "file") {
        const stems = new Map<string, string>();
        for (const input of inputs) {
            const stem = join(target.kind === "dir" ? target.path! : dirname(input), basename(input, extname(input)));
            const other = stems.get(stem);
            if (other !== undefined) {
                throw new HumanoidError(
                    "BAD_OPTION",
                    `${other} and ${input} would both write ${stem}${ClipFileExtension(format)}: convert them into different directories`,
                );
            }
            stems.set(stem, input);
        }
    }
    // The manifest's place, checked before converting anything.
    if (options.manifest !== undefined) {
        const manifest = options.manifest;
        if ((await stat(manifest).catch(() => null))?.isDirectory()) {
            throw new HumanoidError("BAD_OPTION", `--manifest ${manifest}: a directory has that name (name the JSON file to write)`);
        }
        await mkdir(dirname(manifest), { recursive: true }).catch((e: NodeJS.ErrnoException) => {
            throw new HumanoidError("FILE_WRITE", `--manifest ${manifest}: cannot make its directory (${e.code ?? e.message})`);
        });
    }
    // The shard is taken after the checks above, which see every input: all shards refuse the same inputs.
    let selected = inputs;
    if (options.shard) {
        const { index, count } = options.shard;
        if (!(Number.isSafeInteger(index) && Number.isSafeInteger(count) && count >= 1 && index >= 0 && index < count)) {
            throw new HumanoidError("BAD_OPTION", `--shard ${index}/${count}: the count must be at least 1 and the index from 0 to count - 1`);
        }
        selected = SelectShardInputs(inputs, options.shard);
    }
    const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), selected.length));
    const tasks: IConvertTask[] = selected.map((input) => ({ input, options, target, format }));
    const fractions = new Float64Array(tasks.length);
    const bar = io.progress
        ? new SingleBar({
              format: "converting [{bar}] {percentage}% | {files}/{total} files done  {file}",
              hideCursor: true,
              clearOnComplete: true,
              stream: process.stderr,
          })
        : null;
    bar?.start(tasks.length, 0, { file: "", files: 0 });
    const results = await runTasks(tasks, jobs, (i, f) => {
        fractions[i] = f;
        if (bar) {
            const done = fractions.reduce((a, b) => a + b, 0);
            bar.update(done, { file: f < 1 ? basename(tasks[i].input) : "", files: fractions.filter((x) => x >= 1).length });
        }
    });
    bar?.stop();
    const rows: string[][] = [["input", "clip", "frames", "fps", "keys", "size", "of source", "warnings", "output"]];
    let failed = 0;
    for (const r of results) {
        if (r.error) {
            failed++;
            rows.push([basename(r.input), "-", "-", "-", "-", "-", "-", "-", "FAILED"]);
            io.err(`babylon-humanoid: ${r.error}`);
            continue;
        }
        for (const c of r.rows) {
            rows.push([
                basename(r.input),
                c.clip,
                String(c.frames),
                String(Math.round(c.rate * 100) / 100),
                String(c.keys),
                size(c.bytes),
                c.sourceBytes > 0 ? `${((100 * c.bytes) / c.sourceBytes).toFixed(0)}%` : "-",
                String(c.warnings.length),
                c.output,
            ]);
        }
    }
    const warnings = results.flatMap((r) =>
        r.rows.flatMap((c) => c.warnings.map((w) => `  ${basename(r.input)}${c.clip !== basename(r.input, extname(r.input)) ? ` (${c.clip})` : ""}: ${w}`)),
    );
    const written = results.reduce((n, r) => n + r.rows.length, 0);
    if (options.manifest !== undefined) {
        await WriteFilesAtomicallyAsync([{ path: options.manifest, bytes: new TextEncoder().encode(FormatConvertManifest(results)) }]);
    }
    io.out(
        [
            table(rows),
            "",
            `${written} clip${written === 1 ? "" : "s"} written from ${results.length - failed} of ${results.length} input${results.length === 1 ? "" : "s"}${failed ? `; ${failed} failed` : ""}.`,
            ...(options.shard ? [`Shard ${options.shard.index}/${options.shard.count}: ${selected.length} of the ${inputs.length} inputs.`] : []),
            ...(options.manifest !== undefined ? [`Manifest: ${options.manifest}`] : []),
            ...(warnings.length ? ["Warnings (what did not convert losslessly):", ...warnings] : []),
        ].join("\n") + "\n",
    );
    return failed ? 1 : 0;
}
