import v8 from "node:v8";

/** The garbage collector when node runs with --expose-gc (as npm run test:unit does), else undefined. */
export const gc = (globalThis as { gc?: () => void }).gc;

const newSpaceUsed = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")!.space_used_size;

/**
 * Young-generation bytes allocated per call of `step` (short-lived garbage, e.g. a boxed number):
 * the best of `rounds` rounds of `calls` calls, each round after a full collection, so one-off
 * compiler work is left aside; a round a scavenge ran in reads negative and is dropped. Null when
 * gc is not exposed (the count needs --expose-gc).
 */
export function YoungBytesPerCall(step: () => void, rounds = 8, calls = 100): number | null {
    if (!gc) return null;
    let best = Infinity;
    for (let round = 0; round < rounds; round++) {
        gc();
        const before = newSpaceUsed();
        for (let i = 0; i < calls; i++) step();
        const perCall = (newSpaceUsed() - before) / calls;
        if (perCall >= 0) best = Math.min(best, perCall);
    }
    return best;
}

/**
 * Heap bytes allocated per call of `step` (`calls` calls a round, after a full collection; the
 * least of `rounds` rounds in which no collection ran, as `v8.GCProfiler` reports: a collection
 * during a round frees what the round allocated and would make the count too low; Infinity when
 * every round had one). Finer than {@link YoungBytesPerCall} (whose new-space count reads some 20
 * bytes a call whatever the code does): one boxed number a call shows. Null when gc is not exposed
 * (`collect`: the full collection to run, default the exposed `gc`; the bench passes its own).
 */
export function HeapBytesPerCall(step: () => void, calls = 2_000, rounds = 8, collect: (() => void) | undefined = gc): number | null {
    if (!collect) return null;
    let best = Infinity;
    for (let round = 0; round < rounds; round++) {
        collect();
        const profiler = new v8.GCProfiler();
        profiler.start();
        const before = process.memoryUsage().heapUsed;
        for (let i = 0; i < calls; i++) step();
        const after = process.memoryUsage().heapUsed;
        const collections = profiler.stop()?.statistics.length ?? 0;
        if (collections === 0) best = Math.min(best, (after - before) / calls);
    }
    return best;
}

/**
 * Heap growth (bytes) over `calls` calls of `step`, between two full collections when gc is
 * exposed: the smaller of two such windows, one after the other. A leak grows the heap in both; a
 * one-off does in one only: V8 tiering a function up late keeps its new code and feedback (the
 * animator's loop, warmed by 20,000 updates: 20 KB in its first window of 100,000 alone, 68 KB on
 * a loaded machine, then 2.5-3.8 KB a window; `scratch/heapwin.ts`).
 */
export function HeapGrowth(step: () => void, calls: number): number {
    const window = (): number => {
        gc?.();
        const before = process.memoryUsage().heapUsed;
        for (let i = 0; i < calls; i++) step();
        gc?.();
        return process.memoryUsage().heapUsed - before;
    };
    const first = window();
    return Math.min(first, window());
}

/** The most heap growth a test allows: 64 KiB after collections, 4 MiB without (garbage from boxed numbers may still be there). */
export const HEAP_GROWTH_LIMIT = gc ? 64 * 1024 : 4 * 1024 * 1024;
