#!/usr/bin/env node
// Throughput of `babylon-humanoid convert --jobs N` on the public BVH files of ../shared/data, the
// built CLI (npm run build first). Runs --jobs 1 and --jobs 2 (or the counts given) alternately,
// `ROUNDS` times each in this one run, and prints frames per second and the ratio to --jobs 1,
// from the best round of each (shared machines are noisy). COPIES=k makes the library k times
// larger (symbolic links under other names), so that starting the workers weighs less. Usage:
//   node scripts/bulk-throughput.mjs [jobs...]        e.g. COPIES=4 node scripts/bulk-throughput.mjs 1 2
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

const ROUNDS = 3;
const data = join(import.meta.dirname, "..", "..", "shared", "data", "bvh");
const cli = join(import.meta.dirname, "..", "dist", "lib", "cli", "main.js");
if (!existsSync(data)) {
    process.stderr.write(`bulk-throughput: ${data} is missing (the public data set beside the project)\n`);
    process.exit(1);
}
if (!existsSync(cli)) {
    process.stderr.write(`bulk-throughput: ${cli} is missing: run npm run build first\n`);
    process.exit(1);
}
const files = readdirSync(data)
    .flatMap((d) => readdirSync(join(data, d)).map((f) => join(data, d, f)))
    .filter((f) => f.endsWith(".bvh"))
    .sort();
const copies = Math.max(1, Number(process.env.COPIES ?? 1));
const jobsList = process.argv.slice(2).map(Number);
if (!jobsList.length) jobsList.push(1, 2);
const tmp = mkdtempSync(join(tmpdir(), "bh-bulk-"));
const inputs = files.slice();
if (copies > 1) {
    mkdirSync(join(tmp, "library"));
    for (let c = 2; c <= copies; c++) {
        for (const f of files) {
            const link = join(tmp, "library", `copy${c}_${f.split("/").pop()}`);
            symlinkSync(f, link);
            inputs.push(link);
        }
    }
}
const best = new Map();
let frames = 0;
try {
    for (let round = 0; round < ROUNDS; round++) {
        for (const jobs of jobsList) {
            const out = join(tmp, `out-${jobs}-${round}`);
            const manifest = join(tmp, `manifest-${jobs}-${round}.json`);
            const t0 = process.hrtime.bigint();
            execFileSync(process.execPath, [cli, "convert", ...inputs, "-o", out, "--format", "bin", "--jobs", String(jobs), "--manifest", manifest], {
                stdio: ["ignore", "ignore", "inherit"],
            });
            const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
            const entries = JSON.parse(readFileSync(manifest, "utf8"));
            const failed = entries.filter((e) => e.error);
            if (failed.length) throw new Error(`${failed.length} inputs failed: ${failed[0].error}`);
            frames = entries.reduce((n, e) => n + e.outputs.reduce((m, o) => m + o.frames, 0), 0);
            best.set(jobs, Math.min(best.get(jobs) ?? Infinity, seconds));
            process.stdout.write(`round ${round + 1} --jobs ${jobs}: ${seconds.toFixed(2)} s\n`);
        }
    }
} finally {
    rmSync(tmp, { recursive: true, force: true });
}
// What the machine gives two threads at the moment: fixed arithmetic on one worker, then the same on
// two at once; 2.00x means two free cores, 1.00x that a second thread gains nothing (other load).
const ARITHMETIC = "function f(){let x=0; for(let i=0;i<2e8;i++){x+=Math.sqrt(i);} return x;} require('node:worker_threads').parentPort.postMessage(f());";
const onWorkers = async (n) => {
    const t0 = process.hrtime.bigint();
    await Promise.all(
        Array.from(
            { length: n },
            () =>
                new Promise((resolve) => {
                    const w = new Worker(ARITHMETIC, { eval: true });
                    w.once("message", () => void w.terminate().then(resolve));
                }),
        ),
    );
    return Number(process.hrtime.bigint() - t0) / 1e9;
};
const oneThread = await onWorkers(1);
const twoThreads = await onWorkers(2);
process.stdout.write(`\nspare cores now: twice the arithmetic on two threads ran at ${((2 * oneThread) / twoThreads).toFixed(2)}x the rate of one thread\n`);
const base = best.get(jobsList[0]);
process.stdout.write(
    `${inputs.length} BVH files (${files.length} x ${copies}), ${frames} frames; best of ${ROUNDS} (wall clock, including process start); load average ${loadavg()[0].toFixed(2)}\n`,
);
for (const jobs of jobsList) {
    const s = best.get(jobs);
    process.stdout.write(`--jobs ${jobs}: ${s.toFixed(2)} s, ${Math.round(frames / s)} frames/s, ${(base / s).toFixed(2)}x --jobs ${jobsList[0]}\n`);
}
