/**
 * The fuzzer: `npm run fuzz -- --runs 10000 [--seed 1] [--jobs 2] [--time-ms 5000] [--memory-mb 1024]
 * [--case N] [--save dir] [--no-real] [--json out.json] [--verbose] [--quiet]`.
 *
 * Mutants of the built-in samples and of the public real files (../shared/data, when present) go
 * through parse -> rig -> avatar -> convert -> serialize -> parse -> sample -> decode, each case in
 * a worker process with a CPU-time and a memory budget, and each is classified (see `FuzzOutcome`):
 * ok, clean error, unnamed error, crash, hang, memory, accepted NaN, unreadable own output. Case N
 * of seed S is the same mutant on every machine with the same seed files: `--case N` runs it
 * alone, `--save dir` keeps the mutants of failing cases. Exits 1 when any case failed.
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FAILURES, type FuzzOutcome } from "./case.js";
import type { WorkerMessage } from "./worker.js";

const { values: args } = parseArgs({
    options: {
        runs: { type: "string", default: "1000" },
        seed: { type: "string", default: "1" },
        jobs: { type: "string", default: "2" },
        "time-ms": { type: "string", default: "5000" },
        "memory-mb": { type: "string", default: "1024" },
        case: { type: "string" },
        save: { type: "string", default: "" },
        "no-real": { type: "boolean", default: false },
        json: { type: "string" },
        quiet: { type: "boolean", default: false },
        verbose: { type: "boolean", default: false },
    },
});

const whole = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (!(Number.isInteger(n) && n >= min)) {
        process.stderr.write(`fuzz: --${name} must be a whole number of at least ${min}, not '${v}'\n`);
        process.exit(2);
    }
    return n;
};
const runs = whole("runs", args.runs, 1);
const jobs = whole("jobs", args.jobs, 1);
const timeMs = whole("time-ms", args["time-ms"], 100);
const memoryMb = whole("memory-mb", args["memory-mb"], 64);
const only = args.case === undefined ? null : whole("case", args.case, 0);
const indices = only === null ? Array.from({ length: runs }, (_, i) => i) : [only];

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;
/** How often the budgets are checked, milliseconds. */
const POLL_MS = 50;
/** A case that takes this many times its CPU budget in wall-clock time (a worker starved by a busy machine, or asleep) is a hang too. */
const WALL_FACTOR = 6;

/** CPU seconds and resident bytes of a process, from /proc (0 when it is gone or not Linux). */
function usage(pid: number): { cpu: number; rss: number } {
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const cpu = (Number(f[11]) + Number(f[12])) / TICKS;
        const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
        return { cpu, rss };
    } catch {
        return { cpu: 0, rss: 0 };
    }
}

interface IResult {
    index: number;
    seed: string;
    kinds: string[];
    outcome: FuzzOutcome;
    message: string;
    ms: number;
}

const results: IResult[] = [];
let peakRss = 0;
let next = 0;
const started = performance.now();
const workerFile = fileURLToPath(new URL("./worker.ts", import.meta.url));
let seedNames: string[] = [];

function record(r: IResult): void {
    results.push(r);
    if (FAILURES.includes(r.outcome) || only !== null || args.verbose) {
        process.stdout.write(`case ${args.seed}:${r.index} [${r.seed}; ${r.kinds.join(",")}] ${r.outcome}: ${r.message}\n`);
    }
    if (!args.quiet && results.length % 250 === 0) {
        process.stdout.write(`... ${results.length}/${indices.length} cases, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
}

/** Runs cases on one worker process until none are left; a worker that dies or is killed is replaced. */
function lane(): Promise<void> {
    return new Promise((resolveLane) => {
        let child: ChildProcess;
        let pending: { index: number; cpu0: number; t0: number } | null = null;
        let stderr = "";
        let timer: NodeJS.Timeout | null = null;
        let killedFor: FuzzOutcome | null = null;

        const start = (): void => {
            stderr = "";
            killedFor = null;
            child = fork(workerFile, [], {
                execArgv: ["--import", "tsx", `--max-old-space-size=${memoryMb}`],
                env: { ...process.env, FUZZ_SEED: args.seed, FUZZ_REAL: args["no-real"] ? "0" : "1", FUZZ_SAVE: args.save },
                stdio: ["ignore", "ignore", "pipe", "ipc"],
            });
            child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
            child.on("message", (m: WorkerMessage) => {
                if (m.type === "ready") {
                    seedNames = m.seeds;
                    give();
                    return;
                }
                if (!pending || m.index !== pending.index) return;
                peakRss = Math.max(peakRss, m.maxRssBytes);
                record({ index: m.index, seed: m.seed, kinds: m.kinds, outcome: m.outcome as FuzzOutcome, message: m.message, ms: m.ms });
                pending = null;
                if (m.outcome === "crash") return; // the worker ends itself after a crash; "exit" starts another
                give();
            });
            child.on("exit", (code, signal) => {
                if (timer) clearInterval(timer);
                timer = null;
                if (pending) {
                    const memory = killedFor === "memory" || /heap out of memory|Allocation failed/i.test(stderr);
                    const outcome: FuzzOutcome = killedFor ?? (memory ? "memory" : "crash");
                    const why =
                        killedFor === "hang"
                            ? `over ${timeMs} ms`
                            : memory
                              ? `over ${memoryMb} MiB`
                              : `worker died (${signal ?? code}): ${stderr.split("\n").slice(-4).join(" | ")}`;
                    record({ index: pending.index, seed: "?", kinds: [], outcome, message: why, ms: performance.now() - pending.t0 });
                    pending = null;
                }
                if (next < indices.length) start();
                else resolveLane();
            });
        };

        const give = (): void => {
            if (next >= indices.length) {
                child.kill();
                return;
            }
            const index = indices[next++];
            pending = { index, cpu0: usage(child.pid!).cpu, t0: performance.now() };
            child.send({ index });
            if (!timer) {
                timer = setInterval(() => {
                    if (!pending) return;
                    const u = usage(child.pid!);
                    peakRss = Math.max(peakRss, u.rss);
                    const wall = performance.now() - pending.t0;
                    if ((u.cpu - pending.cpu0) * 1000 > timeMs || wall > WALL_FACTOR * timeMs) killedFor = "hang";
                    else if (u.rss > memoryMb * 2 ** 20) killedFor = "memory";
                    if (killedFor) child.kill("SIGKILL");
                }, POLL_MS);
            }
        };
        start();
    });
}

await Promise.all(Array.from({ length: Math.min(jobs, indices.length) }, lane));

const seconds = (performance.now() - started) / 1000;
const counts = Object.fromEntries((["ok", "error", ...FAILURES] as FuzzOutcome[]).map((o) => [o, results.filter((r) => r.outcome === o).length]));
const slowest = [...results].sort((a, b) => b.ms - a.ms)[0];
const failed = results.filter((r) => FAILURES.includes(r.outcome));
const summary = {
    seed: args.seed,
    cases: results.length,
    seconds: Math.round(seconds),
    counts,
    peakWorkerRssMiB: Math.round(peakRss / 2 ** 20),
    slowestCase: slowest ? { id: `${args.seed}:${slowest.index}`, seed: slowest.seed, ms: Math.round(slowest.ms) } : null,
    seedFiles: seedNames.length,
    results: [...results]
        .sort((a, b) => a.index - b.index)
        .map((r) => ({ id: `${args.seed}:${r.index}`, seed: r.seed, outcome: r.outcome, message: r.message.slice(0, 200) })),
    failures: failed.map((r) => ({ id: `${args.seed}:${r.index}`, seed: r.seed, kinds: r.kinds, outcome: r.outcome, message: r.message })),
};
process.stdout.write(
    `fuzz: ${results.length} cases of ${seedNames.length} seed files in ${summary.seconds} s: ` +
        Object.entries(counts)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ") +
        `; peak worker RSS ${summary.peakWorkerRssMiB} MiB; slowest case ${summary.slowestCase?.id} (${summary.slowestCase?.seed}) ${summary.slowestCase?.ms} ms\n`,
);
if (args.json) writeFileSync(args.json, JSON.stringify(summary, null, 2) + "\n");
if (failed.length) {
    process.stdout.write(`fuzz: ${failed.length} failing cases; replay one with: npm run fuzz -- --seed ${args.seed} --case <N> --save fuzz-cases\n`);
    process.exitCode = 1;
}
