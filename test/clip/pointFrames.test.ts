import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanPose } from "../../src/index.js";
import { MuscleClipSampler } from "../../src/clip/clipSampler.js";
import { ConvertFileToMuscleClipsAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

describeWithData("frames whose figure is scaled to a point", () => {
    it("hold the nearest real pose, with a warning: KayKit's spawn from the ground", async () => {
        // Its first two frames scale the whole figure to 0: encoded as they were, the body sat on
        // the floor there and jumped up to the hips' height (1.2 m on the X Bot) in one frame.
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_General.glb"));
        const clip = clips.map((c) => c.clip).find((c) => /Spawn_Ground/.test(c.name))!;
        expect(clip).toBeDefined();
        expect(clip.warnings.find((w) => /scaled to a point on 2 frames/.test(w))).toMatch(/frames 0-1 \(held at frame 2\)/);
        const sampler = new MuscleClipSampler(clip);
        const at = (f: number): HumanPose => {
            const pose = new HumanPose();
            sampler.sampleFrameToRef(f, pose);
            return pose;
        };
        const [p0, p1, p2] = [at(0), at(1), at(2)];
        // Within the curves' tolerance (0.1 degree; positions 1.7 mm per CoM height) of frame 2's.
        for (const p of [p0, p1]) {
            expect(p.bodyPosition.subtract(p2.bodyPosition).length()).toBeLessThan(0.01);
            for (let i = 0; i < p.values.length; i++) expect(Math.abs(p.values[i] - p2.values[i])).toBeLessThan(0.01);
        }
        // A clip without such frames says nothing of them (the spawn from the air is the next test's).
        expect(clips.some((c) => c.clip.warnings.some((w) => /scaled to a point/.test(w)) && !/Spawn_Ground|Spawn_Air/.test(c.clip.name))).toBe(false);
    });

    it("hold the nearest shown pose where the source shows its figure at no size: KayKit's spawn from the air", async () => {
        // Its first two frames scale every bone to 0; the poses, which drop scale, have the legs
        // pointing up there (encoded as they were, the X Bot's legs were 151 degrees from where
        // they point a frame later, and its hips dropped by a tenth of their height in one frame).
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_General.glb"));
        const clip = clips.map((c) => c.clip).find((c) => /Spawn_Air/.test(c.name))!;
        expect(clip).toBeDefined();
        expect(clip.warnings.find((w) => /scaled to a point on 2 frames/.test(w))).toMatch(/frames 0-1 \(held at frame 2\)/);
        const sampler = new MuscleClipSampler(clip);
        const at = (f: number): HumanPose => {
            const pose = new HumanPose();
            sampler.sampleFrameToRef(f, pose);
            return pose;
        };
        const [p0, p1, p2] = [at(0), at(1), at(2)];
        for (const p of [p0, p1]) {
            expect(p.bodyPosition.subtract(p2.bodyPosition).length()).toBeLessThan(0.01);
            for (let i = 0; i < p.values.length; i++) expect(Math.abs(p.values[i] - p2.values[i])).toBeLessThan(0.01);
        }
    });
});
