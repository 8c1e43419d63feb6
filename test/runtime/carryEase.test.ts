import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanoidAnimator, HumanPose } from "../../src/index.js";
import { CONTACT_SPEED } from "../../src/clip/footContacts.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import type { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { HumanoidStrideCarry } from "../../src/runtime/strideCarry.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

// A foot comes into the stride's carry as much as it stands on the ground by the clip's contacts
// (the solver's footCarryWeight: the ground share, which comes in before a contact begins, while
// planting holds the feet). Found on spins (the AnimatedDrawings project's `twirl` takes), whose
// landing feet arrived moving with their stance offsets' swing: first the carry came in at once as
// the foot was planted, then through an ease of its own over 50 ms, then with planting's hold of
// the foot's goal (0.1 s after the touch-down).

/** A solver as the carry reads it: a stance offset, foot IK on, the feet's carry weights and holds to set. */
function stubSolver(): { solver: HumanoidRigSolver; weight: Float64Array; hold: Float64Array } {
    const weight = new Float64Array(2);
    const hold = new Float64Array(2);
    const solver = {
        positionScale: Float64Array.of(1, 0.1, 0.1, 0.05),
        positionWeights: Float32Array.of(1, 1, 0, 0),
        footCarryWeight: weight,
        footGoalHold: hold,
        footGrounded: hold,
        groundYaw: new Float64Array(1),
    };
    return { solver: solver as unknown as HumanoidRigSolver, weight, hold };
}

/** The carry's steps of a pelvis turning at a steady rate, the left foot's carry weight per update from `weight`, its goal's hold from `held`. */
function steps(count: number, weight: (i: number) => number, held: (i: number) => number = weight): Vector3[] {
    const carry = new HumanoidStrideCarry();
    const stub = stubSolver();
    const human = new HumanPose();
    const out: Vector3[] = [];
    for (let i = 0; i < count; i++) {
        stub.weight[0] = weight(i);
        stub.hold[0] = held(i);
        human.hipsRotation.copyFrom(Quaternion.RotationAxis(Vector3.Up(), 0.025 * i));
        carry.update(stub.solver, human, true);
        out.push(new Vector3(carry.carry[0], 0, carry.carry[1]));
    }
    return out;
}

describe("the stride's carry: each foot as much as it stands on the ground", () => {
    test("the carry's step is the foot's full step times its carry weight, whatever planting's hold of its goal", () => {
        // The weight comes in over updates 10-22 (a smootherstep), the goal held at once at 22.
        const ease = (i: number): number => {
            const x = Math.min(1, Math.max(0, (i - 10) / 12));
            return x * x * x * (x * (6 * x - 15) + 10);
        };
        const s = steps(40, ease, (i) => (i >= 22 ? 1 : 0));
        const full = s[39].length();
        expect(full).toBeGreaterThan(1e-4);
        for (let i = 1; i < 40; i++) expect(Math.abs(s[i].length() - full * ease(i))).toBeLessThan(1e-9 * full + 1e-12);
        // No step while the foot has no weight, its goal held or not.
        for (let i = 0; i <= 10; i++) expect(s[i].length()).toBe(0);
        expect(
            steps(
                10,
                () => 0,
                () => 1,
            ).every((v) => v.length() === 0),
        ).toBe(true);
    });

    test("a weight past 1 or below 0 counts as 1 or 0", () => {
        const s = steps(10, (i) => (i < 5 ? -0.5 : 1.5));
        const t = steps(10, (i) => (i < 5 ? 0 : 1));
        for (let i = 0; i < 10; i++) expect(s[i].length()).toBeCloseTo(t[i].length(), 12);
    });
});

describeWithData("the stride's carry comes in before a foot lands", () => {
    /** The horizontal speeds (the character's avatar scales a second) of the feet's goals over the update each touches down on, planting on. */
    async function landingSpeeds(
        bvh: string,
        options: { footPlanting?: boolean } = {},
        blendSeconds?: number,
        updatesPerFrame = 1,
    ): Promise<{ speeds: number[]; weights: number[][]; shares: number[][]; carried: number }> {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile(bvh)))[0].clip;
        const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        const a = new HumanoidAnimator(loaded.avatar, loaded.loaded.binding!.nodes, { rootMotion: "clip", ...options });
        if (blendSeconds !== undefined) a.planting.blendSeconds = blendSeconds;
        a.play(clip, { loop: false });
        const scale = MuscleSetup.For(loaded.avatar).scale;
        const dt = 1 / clip.frameRate / updatesPerFrame;
        const last: Array<[number, number] | null> = [null, null];
        const was = [false, false];
        const speeds: number[] = [];
        const weights: number[][] = [];
        const shares: number[][] = [];
        let carried = 0;
        for (let f = 0; f < clip.frameCount * updatesPerFrame; f++) {
            a.update(f === 0 ? 0 : dt);
            carried = Math.max(carried, Math.hypot(a.solver.carry[2], a.solver.carry[3]));
            const ps = a.solver.positionScale;
            weights.push(Array.from(a.solver.footCarryWeight));
            shares.push(Array.from(a.solver.footGroundShare));
            for (let s = 0; s < 2; s++) {
                const g = a.solver.goalPositions[s];
                const p: [number, number] = [g.x * ps[0], g.z * ps[0]];
                const now = a.planting.planted[s];
                const before = last[s];
                if (now && !was[s] && before && f > 2) speeds.push(Math.hypot(p[0] - before[0], p[1] - before[1]) / dt / scale);
                was[s] = now;
                last[s] = p;
            }
        }
        loaded.loaded.dispose();
        return { speeds, weights, shares, carried };
    }

    test("the zombie walk onto the KayKit mannequin (a pelvis wide for its legs): its feet land as slowly as a still foot moves", async () => {
        // Weighed by planting's hold of the goal (0.1 s after the touch-down), the feet landed at
        // 0.27 avatar scales a second by the median and 0.79 at the 90th percentile, moving with
        // their stance offsets' swing; 0.14 and 0.44 weighed by the ground share.
        const { speeds, weights, shares } = await landingSpeeds("bvh/animated_drawings/fair1_zombie_8yo.bvh");
        expect(speeds.length).toBeGreaterThan(10);
        speeds.sort((x, y) => x - y);
        expect(speeds[Math.floor(speeds.length / 2)]).toBeLessThan(CONTACT_SPEED / 2);
        expect(speeds[Math.floor(speeds.length * 0.9)]).toBeLessThan(CONTACT_SPEED);
        // The weight is the ground share, planting on.
        weights.forEach((w, f) => expect(w).toEqual(shares[f]));
    }, 60_000);

    test("planting off: no foot is held, so no carry", async () => {
        const { weights, carried } = await landingSpeeds("bvh/animated_drawings/fair1_zombie_8yo.bvh", { footPlanting: false });
        for (const w of weights) expect(w).toEqual([0, 0]);
        expect(carried).toBe(0);
    }, 60_000);

    test("a contact blend of 0 (the ground share a step): the weight still comes in over the height's ease", async () => {
        // Four updates a frame: over FLOOR_EASE_SECONDS (0.1 s) a smootherstep rises at most 1.875
        // times its mean rate, under 0.2 an update at 30 fps; the share itself steps by 1.
        const { weights, shares, carried } = await landingSpeeds("bvh/animated_drawings/fair1_zombie_8yo.bvh", {}, 0, 4);
        expect(carried).toBeGreaterThan(0);
        let weightStep = 0;
        let shareStep = 0;
        for (let f = 1; f < weights.length; f++)
            for (let s = 0; s < 2; s++) {
                weightStep = Math.max(weightStep, Math.abs(weights[f][s] - weights[f - 1][s]));
                shareStep = Math.max(shareStep, Math.abs(shares[f][s] - shares[f - 1][s]));
            }
        expect(shareStep).toBe(1);
        expect(weightStep).toBeLessThan(0.2);
    }, 60_000);
});
