import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { FootContact, HumanBone, MuscleClip } from "../../src/index.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { RecordHumanoidRetarget } from "../../src/node/qualityReport.js";
import { FilterPlantedHeightsReference, PlantedFootHeight } from "../../src/runtime/plantedHeight.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

// The height of a held foot whose source's ankle stands still (src/runtime/plantedHeight.ts).

/** RMS third difference of a series. */
function jerk(x: readonly number[]): number {
    let sum = 0;
    for (let f = 3; f < x.length; f++) sum += (x[f] - 3 * x[f - 1] + 3 * x[f - 2] - x[f - 3]) ** 2;
    return Math.sqrt(sum / Math.max(1, x.length - 3));
}

/** A repeatable jitter in [-1, 1] (a linear congruential sequence). */
function jitter(seed: number): () => number {
    let s = seed >>> 0;
    return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** The class's path over a series, one foot: the heights it shows. */
function run(filter: PlantedFootHeight, foot: number, heights: readonly number[], weights: readonly number[], steps: readonly number[]): number[] {
    const target = new Vector3();
    const hold = new Float64Array(2);
    const still = new Float64Array(2);
    const step = new Float64Array(1);
    return heights.map((h, k) => {
        target.set(0.1, h, -0.2);
        hold[foot] = weights[k];
        still[foot] = 1;
        step[0] = steps[k];
        filter.beginSolve();
        filter.filterInPlace(foot, target, hold, still, step);
        expect([target.x, target.z]).toEqual([0.1, -0.2]);
        return target.y;
    });
}

describe("PlantedFootHeight", () => {
    const scale = 0.9;
    const dt = 1 / 30;

    test("the per-frame path gives what the plain reference does (holds coming and going, pauses, both feet)", () => {
        const noise = jitter(11);
        const n = 400;
        const heights = Array.from({ length: n }, (_, k) => 0.08 + 0.02 * Math.sin(k / 17) * (k % 90 < 45 ? 1 : 0) + 1e-4 * noise());
        const weights = Array.from({ length: n }, (_, k) => (k % 70 < 10 ? 0 : Math.min(1.3, ((k % 70) - 10) / 8)));
        const steps = Array.from({ length: n }, (_, k) => (k % 53 === 7 ? 0 : k % 2 ? dt : dt / 2));
        for (const foot of [0, 1]) {
            const fast = run(new PlantedFootHeight(scale, Vector3.Up()), foot, heights, weights, steps);
            const plain = FilterPlantedHeightsReference(heights, weights, steps, scale);
            expect(Math.max(...fast.map((h, k) => Math.abs(h - plain[k])))).toBeLessThan(1e-12);
            // It changes something (the held frames are filtered).
            expect(Math.max(...fast.map((h, k) => Math.abs(h - heights[k])))).toBeGreaterThan(1e-5);
        }
    });

    test("a still height with a tenth of a millimetre of jitter: the jitter's jerk down more than eightfold (about nine measured)", () => {
        const noise = jitter(7);
        const input = Array.from({ length: 90 }, () => 0.08 + 1e-4 * noise());
        const output = run(
            new PlantedFootHeight(scale, Vector3.Up()),
            0,
            input,
            input.map(() => 1),
            input.map((_, f) => (f ? dt : 0)),
        );
        expect(jerk(output)).toBeLessThan(jerk(input) / 8);
        // Never further from the input than the jitter.
        expect(Math.max(...output.map((h, f) => Math.abs(h - input[f])))).toBeLessThan(2e-4);
    });

    test("a height that moves is followed: a third of a scale a second, within 3 mm once under way, and at rest again after", () => {
        let h = 0.08;
        const input = Array.from({ length: 60 }, (_, f) => (f >= 15 && f < 30 ? (h += (scale / 3) * dt) : h));
        const output = run(
            new PlantedFootHeight(scale, Vector3.Up()),
            0,
            input,
            input.map(() => 1),
            input.map((_, f) => (f ? dt : 0)),
        );
        expect(Math.max(...output.slice(20, 30).map((o, k) => Math.abs(o - input[20 + k])))).toBeLessThan(3e-3);
        expect(Math.abs(output[59] - input[59])).toBeLessThan(1e-4);
    });

    test("not held, the height as it is; the hold eases the filtered height in without a jump; a paused update moves nothing; a reset starts afresh", () => {
        const filter = new PlantedFootHeight(scale, Vector3.Up());
        expect(run(filter, 1, [0.1234], [0], [dt])).toEqual([0.1234]);
        const noise = jitter(3);
        const input = [0.08, ...Array.from({ length: 30 }, () => 0.08 + 1e-4 * noise())];
        const weights = input.map((_, f) => Math.min(1, Math.max(0, (f - 1) / 10)));
        const output = run(
            filter,
            1,
            input,
            weights,
            input.map(() => dt),
        );
        let steps = 0;
        for (let f = 1; f < output.length; f++) steps = Math.max(steps, Math.abs(output[f] - output[f - 1]));
        expect(steps).toBeLessThan(2.5e-4);
        const last = output[output.length - 1] - input[input.length - 1];
        // Paused: the filtered height stays where it was, whatever the clip's says.
        expect(run(filter, 1, [0.09], [1], [0])[0]).toBeCloseTo(input[input.length - 1] + last, 12);
        filter.reset();
        expect(run(filter, 1, [0.2], [1], [dt])).toEqual([0.2]);
        // A solve that left the foot out (other proportions, its goal off) restarts it too.
        run(filter, 1, [0.2, 0.2001, 0.2], [1, 1, 1], [dt, dt, dt]);
        filter.beginSolve();
        expect(run(filter, 1, [0.25], [1], [dt])).toEqual([0.25]);
        // A step of no finite length moves nothing and leaves no NaN.
        const out = run(filter, 1, [0.25, 0.2501, 0.2502], [1, 1, 1], [dt, Infinity, dt]);
        expect(out.every(Number.isFinite)).toBe(true);
    });

    test("heights are along the character's up, whatever axis that is in its rig", () => {
        const up = new Vector3(0, 0, 2);
        const filter = new PlantedFootHeight(scale, up);
        const noise = jitter(5);
        const target = new Vector3();
        const hold = Float64Array.of(1, 1);
        const still = Float64Array.of(1, 1);
        const step = Float64Array.of(dt);
        const zs: number[] = [];
        const raw: number[] = [];
        for (let f = 0; f < 90; f++) {
            const z = 0.08 + 1e-4 * noise();
            raw.push(z);
            target.set(0.3, -0.4 + 1e-4 * noise(), z);
            const y = target.y;
            filter.beginSolve();
            filter.filterInPlace(0, target, hold, still, step);
            // Across up (x, y) nothing moves; along it the height is filtered as an upright rig's.
            expect([target.x, target.y]).toEqual([0.3, y]);
            zs.push(target.z);
        }
        expect(jerk(zs)).toBeLessThan(jerk(raw) / 8);
    });
});

describeWithData("a standing foot whose ankle the source holds still, on a real clip", () => {
    test("Mixamo's agree onto the VRM sample: the right ankle's height on its still frames far less jerky than with the clip's still ends taken away", async () => {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile("glb/mixamo_xbot.glb"), { clip: "agree" }))[0].clip;
        const still = FootContact.RightAnkleStill;
        const frames = Array.from(clip.contacts.keys()).filter((f) => clip.contacts[f] & FootContact.Right && clip.contacts[f] & still);
        // The clip stands on its right ankle for most of its frames.
        expect(frames.length).toBeGreaterThan(0.5 * clip.frameCount);
        const without = new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], contacts: clip.contacts.map((c) => c & ~still) });
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"));
        try {
            const ankle = target.avatar.getJoint(HumanBone.RightFoot);
            const heights = (c: MuscleClip): number[] => {
                const rec = RecordHumanoidRetarget(c, target.avatar, target.loaded.binding!.nodes).positions;
                // The still frames' run after the hold has eased in (a tenth of a second).
                return frames.filter((f) => f >= frames[0] + 6).map((f) => rec[f][3 * ankle + 1]);
            };
            const held = jerk(heights(clip));
            const free = jerk(heights(without));
            expect(free).toBeGreaterThan(0);
            expect(held).toBeLessThan(free / 3);
        } finally {
            target.loaded.dispose();
        }
    });
});
