import { readFileSync } from "node:fs";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { BuildHumanoidAvatar, ConvertBvhToMuscleClip, CreateRigFromBvh, HumanBone, HumanoidAnimator, ParseBvh } from "../../src/index.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { SoftAtLeastOne, SoftAtLeastOneInPlace } from "../../src/math/softAtLeastOne.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

describe("SoftAtLeastOne: max(1, t) with its corner rounded", () => {
    const h = 1e-4;
    const d1 = (t: number): number => (SoftAtLeastOne(t + h) - SoftAtLeastOne(t - h)) / (2 * h);
    const d2 = (t: number): number => (SoftAtLeastOne(t + h) - 2 * SoftAtLeastOne(t) + SoftAtLeastOne(t - h)) / (h * h);

    it("in place (the per-frame form) is the readable function", () => {
        const io = new Float64Array(1);
        for (let t = -2; t <= 4; t += 0.001) {
            io[0] = t;
            SoftAtLeastOneInPlace(io, 0);
            expect(io[0]).toBeCloseTo(SoftAtLeastOne(t), 14);
        }
    });

    it("is max(1, t) outside 1 +- 0.5 and never below it, at most 0.1 above", () => {
        for (let t = -2; t <= 4; t += 0.01) {
            const m = Math.max(1, t);
            if (t <= 0.5 || t >= 1.5) expect(SoftAtLeastOne(t)).toBeCloseTo(m, 12);
            expect(SoftAtLeastOne(t)).toBeGreaterThanOrEqual(m - 1e-12);
            expect(SoftAtLeastOne(t)).toBeLessThanOrEqual(m + 0.1);
        }
    });

    it("is continuous with its slope and curvature at both ends of the corner, and never falls", () => {
        for (const t of [0.5, 1.5]) {
            expect(SoftAtLeastOne(t + 1e-9)).toBeCloseTo(SoftAtLeastOne(t - 1e-9), 8);
            expect(d1(t + 2 * h)).toBeCloseTo(d1(t - 2 * h), 3);
            expect(Math.abs(d2(t + 3 * h) - d2(t - 3 * h))).toBeLessThan(0.05);
        }
        // No corner anywhere: the slope moves by little over a small step (max(1, t) jumps 0 -> 1 at 1).
        for (let t = 0; t <= 2; t += 0.01) expect(Math.abs(d1(t + 0.01) - d1(t))).toBeLessThan(0.05);
        let last = -Infinity;
        for (let t = 0; t <= 2; t += 0.001) {
            expect(SoftAtLeastOne(t)).toBeGreaterThanOrEqual(last);
            last = SoftAtLeastOne(t);
        }
    });
});

describeWithData("the body's lift as both feet land together", () => {
    // The child's jump (120 fps) onto the KayKit mannequin: both feet come down in the same frames
    // (333-337), their ground weights passing 1 together. Over max(1, weights) the body's lift
    // stepped in velocity there, and the head's height moved 1.5 mm in third differences at frame
    // 336 (the source's head: 0.1 mm); with the corner rounded, at most 0.5 mm.
    it("keeps the head's vertical third difference under 1 mm over the landing", async () => {
        const file = "bvh/animated_drawings/fair1_jumping_8yo.bvh";
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file));
        const clip = ConvertBvhToMuscleClip(bvh, BuildHumanoidAvatar(bvh.rig));
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        try {
            const nodes = target.loaded.binding!.nodes;
            const animator = new HumanoidAnimator(target.avatar, nodes, { rootMotion: "clip" });
            animator.play(clip, { loop: false });
            const head = nodes[target.avatar.getJoint(HumanBone.Head)];
            const heights: number[] = [];
            for (let f = 0; f <= 341; f++) {
                animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                head.computeWorldMatrix(true);
                heights.push(head.getAbsolutePosition().y);
            }
            animator.dispose();
            let most = 0;
            for (let f = 333; f <= 341; f++) most = Math.max(most, Math.abs(heights[f] - 3 * heights[f - 1] + 3 * heights[f - 2] - heights[f - 3]));
            expect(most).toBeLessThan(0.001);
        } finally {
            target.loaded.dispose();
        }
    });
});
