/**
 * The runtime benchmark's conditions and their timing (bench/runtime.ts): what plays in each, a
 * sanity probe of each (it moves what it should, the characters stay on their spots, the hands
 * reach their world goals, the baked groups play the live motion), the interleaved rounds that
 * time them, and the per-round medians and ratios the figures are read from.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanIKGoal, type HumanoidAnimator } from "../src/index.js";
import { CHARACTERS, type IRuntimeBenchScene } from "./runtimeScene.js";

/** Frames timed per condition and round: short rounds, many of them (see bench/runtime.ts's header). */
export const FRAMES = 100;
/** Frames played before each timing. */
export const WARMUP_FRAMES = 20;
/** Rounds (odd: the median is a round's own figure). */
export const ROUNDS = 11;
/** Most distance a joint under the baked groups may be from the live animator's after the same frames before a note, metres. */
const BAKED_VS_LIVE_TOLERANCE = 0.02;

/**
 * What plays in a condition: Babylon's retargeted groups (a), the baked groups (e), our animators
 * with defaults (b), foot IK off (d), everything on (f), nothing (c), the write floor (g).
 */
export type Condition = "babylon" | "baked" | "ours" | "oursNoIK" | "oursAll" | "idle" | "floor";

/** The conditions' times over the rounds of {@link TimeConditions}, and what the probes found. */
export interface IConditionTimes {
    /** Largest distance between a joint of character 7 under the live animator and under the baked group after the same frames, metres. */
    readonly bakedVsLive: number;
    /** A condition's median time over rounds, microseconds per character-frame: the whole render, or the animation step inside it. */
    time(c: Condition, part?: "render" | "animate"): number;
    /** A ratio of two conditions' costs over the idle scene, within each round, the median over rounds. */
    costRatio(x: Condition, y: Condition): number;
    /** A ratio of two conditions' times, within each round, the median over rounds. */
    timeRatio(x: Condition, y: Condition, part: "render" | "animate"): number;
}

/**
 * Probes every condition, then times them all over {@link ROUNDS} interleaved rounds of
 * {@link FRAMES} frames (each round in another order, after {@link WARMUP_FRAMES}); anything odd
 * goes to `notes`.
 * @param bench the scene and its players, all stopped (and stopped again after)
 * @param notes where notes are added
 * @returns the rounds' medians and ratios
 */
export function TimeConditions(bench: IRuntimeBenchScene, notes: string[]): IConditionTimes {
    const { scene, avatar, clip, characters, groups, bakedGroups, animators, animatorsNoIK, animatorsAll, marks, setFloor } = bench;
    const conditions: Condition[] = ["babylon", "baked", "ours", "oursNoIK", "oursAll", "idle", "floor"];
    const animatorsOf = (c: Condition): readonly HumanoidAnimator[] | null =>
        c === "ours" ? animators : c === "oursNoIK" ? animatorsNoIK : c === "oursAll" ? animatorsAll : null;
    const start = (c: Condition): void => {
        if (c === "babylon") for (const g of groups) g.start(true);
        if (c === "baked") for (const g of bakedGroups) g.start(true);
        if (c === "floor") setFloor(true);
        const list = animatorsOf(c);
        if (list)
            for (const a of list) {
                a.attachToScene(scene);
                a.play(clip, { loop: true });
            }
    };
    const stop = (c: Condition): void => {
        if (c === "babylon") for (const g of groups) g.stop();
        if (c === "baked") for (const g of bakedGroups) g.stop();
        if (c === "floor") setFloor(false);
        const list = animatorsOf(c);
        if (list)
            for (const a of list) {
                a.stop();
                a.detachFromScene();
            }
    };
    /** Mean ms per frame over `frames`: whole render, and the animation step inside it. */
    const timeFrames = (c: Condition, frames: number): { render: number; animate: number } => {
        let render = 0;
        let animate = 0;
        for (let f = 0; f < frames; f++) {
            const t0 = performance.now();
            scene.render();
            render += performance.now() - t0;
            animate += c === "babylon" || c === "baked" ? marks.pluginStart - marks.beforeAnimations : marks.pluginEnd - marks.pluginStart;
        }
        return { render: render / frames, animate: animate / frames };
    };

    // Sanity: every condition moves (or keeps still) what it should, and characters stay on their spots.
    const hipsJoint = avatar.rig.joints.findIndex((j) => j.name === "mixamorig:Hips");
    const probe = (c: Condition): { moved: number; offSpot: number; joints: Vector3[] } => {
        const hips = characters[7].nodes[hipsJoint];
        const foot = characters[7].nodes[avatar.rig.joints.findIndex((j) => j.name === "mixamorig:LeftFoot")];
        start(c);
        timeFrames(c, 10);
        const a = foot.computeWorldMatrix(true).getTranslation();
        timeFrames(c, 15);
        const b = foot.computeWorldMatrix(true).getTranslation();
        const h = hips.computeWorldMatrix(true).getTranslation();
        const joints = characters[7].nodes.map((n) => n.computeWorldMatrix(true).getTranslation());
        stop(c);
        const spot = characters[7].root.position;
        return { moved: Vector3.Distance(a, b), offSpot: Math.hypot(h.x - spot.x, h.z - spot.z), joints };
    };
    const probed = new Map<Condition, Vector3[]>();
    for (const c of conditions) {
        const { moved, offSpot, joints } = probe(c);
        probed.set(c, joints);
        if (c === "idle" ? moved > 1e-6 : moved < 0.01) notes.push(`${c}: the left foot moved ${moved.toFixed(3)} m over 15 frames`);
        if (offSpot > 0.5) notes.push(`${c}: the hips are ${offSpot.toFixed(2)} m from the character's spot`);
    }
    // Everything on: the hands are on their world goals (they are within reach).
    const all = probed.get("oursAll")!;
    for (const [goal, name] of [
        [HumanIKGoal.LeftHand, "mixamorig:LeftHand"],
        [HumanIKGoal.RightHand, "mixamorig:RightHand"],
    ] as const) {
        const off = Vector3.Distance(all[avatar.rig.joints.findIndex((j) => j.name === name)], animatorsAll[7].goals.positions[goal]);
        if (off > 0.01) notes.push(`oursAll: the ${name} is ${off.toFixed(3)} m from its world goal`);
    }
    // The baked groups play the live motion: every joint where the live animator put it after the same 25 frames.
    const live = probed.get("ours")!;
    const bakedVsLive = Math.max(...probed.get("baked")!.map((p, j) => Vector3.Distance(p, live[j])));
    if (bakedVsLive > BAKED_VS_LIVE_TOLERANCE)
        notes.push(`baked: a joint is ${bakedVsLive.toFixed(3)} m from where the live animator puts it after the same frames`);

    // Interleaved short rounds, each in another order; per round every condition's times.
    const rounds: Array<Record<Condition, { render: number; animate: number }>> = [];
    for (let r = 0; r < ROUNDS; r++) {
        const round = {} as Record<Condition, { render: number; animate: number }>;
        for (let k = 0; k < conditions.length; k++) {
            const c = conditions[(k + r) % conditions.length];
            start(c);
            timeFrames(c, WARMUP_FRAMES);
            round[c] = timeFrames(c, FRAMES);
            stop(c);
        }
        rounds.push(round);
    }
    const median = (values: number[]): number => {
        const v = [...values].sort((x, y) => x - y);
        return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    };
    const us = (ms: number): number => (ms * 1000) / CHARACTERS;
    /** A condition's median time over rounds, microseconds per character-frame. */
    const time = (c: Condition, part: "render" | "animate" = "render"): number => us(median(rounds.map((r) => r[c][part])));
    /** A ratio of two conditions' costs over the idle scene, within each round, the median over rounds. */
    const costRatio = (x: Condition, y: Condition): number => median(rounds.map((r) => (r[x].render - r.idle.render) / (r[y].render - r.idle.render)));
    /** A ratio of two conditions' times, within each round, the median over rounds. */
    const timeRatio = (x: Condition, y: Condition, part: "render" | "animate"): number => median(rounds.map((r) => r[x][part] / r[y][part]));
    return { bakedVsLive, time, costRatio, timeRatio };
}
