/**
 * The runtime benchmark's figures of one animator on its own, outside the scene (bench/runtime.ts):
 * the heap it grows by over many updates, what one more animator keeps, the garbage an update
 * makes, where an update's time goes step by step, and what each feature (joint limits, world
 * goals, look-at) adds to an update.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { HumanIKGoal, HumanoidAnimator, type MuscleClip } from "../src/index.js";
import { HeapBytesPerCall } from "../test/helpers/allocation.js";
import { FRAMES, ROUNDS, WARMUP_FRAMES } from "./runtimeConditions.js";
import type { IRuntimeBenchResult, IRuntimeUpdateSplit } from "./runtimeResult.js";
import { LIVE_OPTIONS, type IAnimatorInternals, type ICharacter, type IRuntimeBenchScene } from "./runtimeScene.js";

/** Updates before the heap figure: as many as the unit tests let V8 settle the update's code over (allocReal.test.ts). */
const HEAP_WARMUP_FRAMES = 20_000;
const HEAP_FRAMES = 100_000;
/** Calls per allocation probe. */
const ALLOCATION_FRAMES = 2_000;
/** Allocation probes; the least of those no collection ran in counts (see `allocatedBytesPerCall`). */
const ALLOCATION_PROBES = 8;
const SPLIT_FRAMES = 20_000;
/** Full GCs before the heap counts as settled: V8 flushes the bytecode of functions left unused (the scene's, while one animator runs alone) only once it has aged over several. */
const HEAP_MIN_GCS = 10;
/** Most full GCs to wait for the heap to settle. */
const HEAP_MAX_GCS = 20;
/** The heap has settled when a full GC changes it by less than this, bytes. */
const HEAP_SETTLED_BYTES = 1024;

/** A full garbage collection, or null when none can be forced (`--expose-gc`, else V8's flag set at run time). */
function getGc(): (() => void) | null {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === "function") return exposed;
    try {
        setFlagsFromString("--expose-gc");
        const gc = runInNewContext("gc") as unknown;
        return typeof gc === "function" ? (gc as () => void) : null;
    } catch {
        return null;
    }
}

/**
 * Heap used once it stops shrinking under full GCs (V8 frees some things, such as the bytecode of
 * functions not run lately, only after several collections), bytes. Without a GC, as it is.
 */
function settledHeapUsed(gc: (() => void) | null): number {
    let used = process.memoryUsage().heapUsed;
    if (!gc) return used;
    for (let i = 0; i < HEAP_MAX_GCS; i++) {
        gc();
        const now = process.memoryUsage().heapUsed;
        const settled = Math.abs(now - used) < HEAP_SETTLED_BYTES;
        used = now;
        if (settled && i >= HEAP_MIN_GCS) break;
    }
    return used;
}

/**
 * Heap used after {@link HEAP_FRAMES} updates of a playing animator minus before, both settled
 * under full GCs, bytes. In a function of its own: run inside the long benchmark function, the
 * heap after was 8 MB below the heap before, run after run (most likely the loop compiled on the
 * stack, whose optimized frame no longer holds that function's dead locals), a drop that would hide
 * a leak; here the figure is a few hundred bytes.
 */
function heapGrowthOf(animator: HumanoidAnimator, gc: (() => void) | null): number {
    const before = settledHeapUsed(gc);
    for (let f = 0; f < HEAP_FRAMES; f++) animator.update(1 / 60);
    return settledHeapUsed(gc) - before;
}

/** How many animators {@link animatorHeapOf} makes. */
const ANIMATOR_HEAP_COUNT = 20;

/**
 * What one more animator keeps on the heap (see {@link IRuntimeBenchResult.animatorHeapBytes}),
 * bytes; a function of its own for the reason given at {@link heapGrowthOf}.
 */
function animatorHeapOf(make: () => HumanoidAnimator, gc: (() => void) | null): number {
    const before = settledHeapUsed(gc);
    const made: HumanoidAnimator[] = [];
    for (let i = 0; i < ANIMATOR_HEAP_COUNT; i++) {
        const a = make();
        a.update(1 / 60);
        made.push(a);
    }
    const bytes = (settledHeapUsed(gc) - before) / ANIMATOR_HEAP_COUNT;
    for (const a of made) a.dispose();
    return bytes;
}

/**
 * Heap allocated per call of `f`, bytes, as the unit tests count it (`HeapBytesPerCall`: heap used
 * after {@link ALLOCATION_FRAMES} calls minus right after a full GC, the least of
 * {@link ALLOCATION_PROBES} probes in which no collection ran). The largest of five probes of 100
 * calls, as before, read 58 to 1,800 bytes an update between runs of the same code: V8's own work
 * (compiling, feedback) lands in some probes. NaN without a GC, Infinity when every probe had a
 * collection.
 */
function allocatedBytesPerCall(gc: (() => void) | null, f: () => void): number {
    return (gc && HeapBytesPerCall(f, ALLOCATION_FRAMES, ALLOCATION_PROBES, gc)) ?? NaN;
}

/** What {@link MeasureAnimatorAlone} finds. */
export interface IAnimatorAloneFigures {
    /** Heap used after {@link HEAP_FRAMES} updates minus before, as for 100,000 updates, bytes (see `IRuntimeBenchResult.heapGrowthBytesPer100kFrames`). */
    heapGrowthBytesPer100kFrames: number;
    /** Whether a GC could be forced for the heap figures. */
    heapMeasuredAfterGc: boolean;
    /** Heap allocated per update, garbage included, bytes. */
    allocatedPerUpdate: number;
    /** What one more animator keeps on the heap, bytes. */
    animatorHeap: number;
    /** Where an update's time goes, or null when the animator's internals could not be reached. */
    updateSplit: IRuntimeUpdateSplit | null;
    /** One animator's update by what is on, microseconds. */
    featureUpdateMicroseconds: IRuntimeBenchResult["featureUpdateMicroseconds"];
}

/**
 * Heap, garbage and split: the scene's first default animator on its own, outside the scene (it
 * plays, is measured, and is stopped again), then what each feature costs; anything odd goes to
 * `notes`.
 * @param bench the scene and its players, all stopped
 * @param notes where notes are added
 * @returns the figures
 */
export function MeasureAnimatorAlone(bench: IRuntimeBenchScene, notes: string[]): IAnimatorAloneFigures {
    const { clip, characters, animators, animatorsAll } = bench;
    const solo = animators[0];
    solo.play(clip, { loop: true });
    for (let f = 0; f < HEAP_WARMUP_FRAMES; f++) solo.update(1 / 60);
    const gc = getGc();
    const heapGrowth = heapGrowthOf(solo, gc);
    if (!gc) notes.push("no GC could be forced: the heap growth is only indicative");
    const allocatedPerUpdate = allocatedBytesPerCall(gc, () => solo.update(1 / 60));
    const animatorHeap = animatorHeapOf(() => {
        const a = new HumanoidAnimator(characters[0].avatar, characters[0].nodes, { ...LIVE_OPTIONS });
        a.play(clip, { loop: true });
        return a;
    }, gc);
    const updateSplit = splitUpdate(solo, gc);
    const featureUpdateMicroseconds = timeFeatureUpdates(characters[0], animatorsAll[0], clip);
    if (!updateSplit) notes.push("the animator's internals (_writer, _rootMotion) were not found: no time split");
    solo.stop();
    return {
        heapGrowthBytesPer100kFrames: heapGrowth * (100_000 / HEAP_FRAMES),
        heapMeasuredAfterGc: gc !== null,
        allocatedPerUpdate,
        animatorHeap,
        updateSplit,
        featureUpdateMicroseconds,
    };
}

/**
 * What each part costs: animators on character 0 with one part on each, timed in turn, the best
 * of {@link ROUNDS} rounds of {@link FRAMES} updates (after {@link WARMUP_FRAMES}), microseconds
 * an update. Character 0's spot is the origin, where it was loaded: its root binds rig space as the
 * animators made before the move took it, and the world goals are theirs.
 */
function timeFeatureUpdates(c0: ICharacter, spots: HumanoidAnimator, clip: MuscleClip): IRuntimeBenchResult["featureUpdateMicroseconds"] {
    const withParts = (limits: boolean, goals: boolean, look: boolean): HumanoidAnimator => {
        const a = new HumanoidAnimator(c0.avatar, c0.nodes, { ...LIVE_OPTIONS, jointLimits: limits ? "all" : true, rootNode: c0.root });
        if (goals) for (const g of [HumanIKGoal.LeftHand, HumanIKGoal.RightHand]) a.goals.setPosition(g, spots.goals.positions[g], 1);
        if (look) {
            a.lookAt.position.copyFrom(spots.lookAt.position);
            a.lookAt.setWeights(1, 0.3, 1, 1, 0.5);
        }
        a.play(clip, { loop: true });
        return a;
    };
    const parts = {
        defaults: withParts(false, false, false),
        limitsAll: withParts(true, false, false),
        worldGoals: withParts(false, true, false),
        lookAt: withParts(false, false, true),
        all: withParts(true, true, true),
    };
    const featureUpdateMicroseconds = { defaults: Infinity, limitsAll: Infinity, worldGoals: Infinity, lookAt: Infinity, all: Infinity };
    for (let r = 0; r < ROUNDS; r++) {
        for (const k of Object.keys(parts) as (keyof typeof parts)[]) {
            const a = parts[k];
            for (let f = 0; f < WARMUP_FRAMES; f++) a.update(1 / 60);
            const t0 = performance.now();
            for (let f = 0; f < FRAMES; f++) a.update(1 / 60);
            featureUpdateMicroseconds[k] = Math.min(featureUpdateMicroseconds[k], ((performance.now() - t0) * 1000) / FRAMES);
        }
    }
    for (const a of Object.values(parts)) a.dispose();
    return featureUpdateMicroseconds;
}

/**
 * Times each step of {@link HumanoidAnimator.update} (as it runs them) on one playing animator,
 * then a whole update over as many frames. Null when the internals it needs are gone.
 */
function splitUpdate(animator: HumanoidAnimator, gc: (() => void) | null): IRuntimeUpdateSplit | null {
    const internals = animator as unknown as IAnimatorInternals;
    const writer = internals._writer;
    const rootMotion = internals._rootMotion;
    if (!writer || typeof writer.write !== "function" || typeof rootMotion !== "function") return null;
    const { player, solver, planting, avatar } = animator;
    const dt = 1 / 60;
    const t = new Float64Array(6);
    const plant = animator.footPlanting && (solver.positionWeights[0] > 0 || solver.positionWeights[1] > 0);
    for (let f = 0; f < SPLIT_FRAMES; f++) {
        const t0 = performance.now();
        player.update(dt);
        const t1 = performance.now();
        solver.decode(player.pose);
        const t2 = performance.now();
        if (plant) planting.update(player, solver, dt);
        else if (player.jumped) planting.reset();
        const t3 = performance.now();
        solver.solveIK();
        const t4 = performance.now();
        writer.write(solver.pose, avatar.rig);
        const t5 = performance.now();
        rootMotion.call(animator);
        player.clearJump();
        const t6 = performance.now();
        t[0] += t1 - t0;
        t[1] += t2 - t1;
        t[2] += t3 - t2;
        t[3] += t4 - t3;
        t[4] += t5 - t4;
        t[5] += t6 - t5;
    }
    const t0 = performance.now();
    for (let f = 0; f < SPLIT_FRAMES; f++) animator.update(dt);
    const whole = performance.now() - t0;
    const us = (ms: number): number => (ms * 1000) / SPLIT_FRAMES;
    const allocatedBytes = {
        sample: allocatedBytesPerCall(gc, () => player.update(dt)),
        decode: allocatedBytesPerCall(gc, () => solver.decode(player.pose)),
        planting: plant ? allocatedBytesPerCall(gc, () => planting.update(player, solver, dt)) : 0,
        ik: allocatedBytesPerCall(gc, () => solver.solveIK()),
        write: allocatedBytesPerCall(gc, () => writer.write(solver.pose, avatar.rig)),
        rootMotion: allocatedBytesPerCall(gc, () => rootMotion.call(animator)),
    };
    return {
        sampleMicroseconds: us(t[0]),
        decodeMicroseconds: us(t[1]),
        plantingMicroseconds: us(t[2]),
        ikMicroseconds: us(t[3]),
        writeMicroseconds: us(t[4]),
        rootMotionMicroseconds: us(t[5]),
        updateMicroseconds: us(whole),
        allocatedBytes,
    };
}
