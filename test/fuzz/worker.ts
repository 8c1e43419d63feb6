/**
 * A fuzz worker (a child process of `run.ts`): builds the seeds once, then for every case index it
 * is sent makes the mutant from the case's own seeded generator, writes it to a temporary file,
 * runs it through the pipeline and reports what became of it. An unhandled rejection or an
 * uncaught exception (what ends a default Node process) is reported as a crash of the case.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunCaseAsync } from "./case.js";
import { BuiltInSeeds, RealSeeds } from "./corpus.js";
import { HashString, Mutate, Rng } from "./mutate.js";

/** A case to run, from the parent. */
export interface ICaseRequest {
    readonly index: number;
}

/** What the worker tells the parent. */
export type WorkerMessage =
    | { readonly type: "ready"; readonly seeds: string[] }
    | {
          readonly type: "result";
          readonly index: number;
          readonly seed: string;
          readonly kinds: string[];
          readonly outcome: string;
          readonly message: string;
          readonly ms: number;
          readonly maxRssBytes: number;
      };

const runSeed = process.env.FUZZ_SEED ?? "1";
const useReal = process.env.FUZZ_REAL !== "0";
const saveDir = process.env.FUZZ_SAVE ?? "";
const sample = BuiltInSeeds();
const seeds = [...sample.seeds, ...(useReal ? RealSeeds() : [])];
const dir = join(tmpdir(), `bh-fuzz-${process.pid}`);
mkdirSync(dir, { recursive: true });
let current = -1;

/** The mutant of a case: the same on every run with the same seed and seed files. */
export function CaseMutant(index: number): { seed: (typeof seeds)[number]; bytes: Uint8Array; kinds: string[] } {
    const rng = new Rng(HashString(`${runSeed}:${index}`));
    const seed = seeds[rng.int(seeds.length)];
    const m = Mutate(rng, seed);
    return { seed, bytes: m.bytes, kinds: m.kinds };
}

const send = (m: WorkerMessage): void => void process.send?.(m);
const die = (what: string) => (e: unknown) => {
    const err = e as Error;
    send({
        type: "result",
        index: current,
        seed: "",
        kinds: [],
        outcome: "crash",
        message: `${what}: ${String(err?.message ?? e).slice(0, 300)} ${String(err?.stack ?? "")
            .split("\n")
            .slice(1, 3)
            .join(" | ")}`,
        ms: 0,
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
    });
    process.exit(70);
};
process.on("unhandledRejection", die("unhandled rejection"));
process.on("uncaughtException", die("uncaught exception"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

process.on("message", (req: ICaseRequest) => {
    void (async () => {
        current = req.index;
        const { seed, bytes, kinds } = CaseMutant(req.index);
        const file = join(dir, `case${req.index}${seed.ext}`);
        writeFileSync(file, bytes);
        // Kept where asked until the case ends well (a hang or a crash never gets to say so).
        const saved = saveDir ? join(saveDir, `case${req.index}${seed.ext}`) : "";
        if (saved) {
            mkdirSync(saveDir, { recursive: true });
            writeFileSync(saved, bytes);
        }
        const t0 = performance.now();
        const r = await RunCaseAsync(file, seed.ext, seed.hasMotion, sample);
        const ms = performance.now() - t0;
        // Let a rejection the loader left behind surface (it would end a default Node process).
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (saved && (r.outcome === "ok" || r.outcome === "error")) rmSync(saved, { force: true });
        rmSync(file, { force: true });
        send({
            type: "result",
            index: req.index,
            seed: seed.name,
            kinds,
            outcome: r.outcome,
            message: r.message,
            ms,
            maxRssBytes: process.resourceUsage().maxRSS * 1024,
        });
    })();
});

send({ type: "ready", seeds: seeds.map((s) => s.name) });
