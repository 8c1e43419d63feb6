import { Logger } from "@babylonjs/core/Misc/logger.js";
import { ConvertAnimationGroupToMuscleClip, HumanoidAnimator } from "../../src/index.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { gc, HeapBytesPerCall } from "../helpers/allocation.js";

Logger.LogLevels = Logger.ErrorLogLevel;

describeWithData("the per-frame path on a real character and clip", () => {
    it("the X Bot walking its own walk (the benchmark's): no number boxed per update", async () => {
        if (!gc) return; // needs --expose-gc, as npm run test:unit gives
        const { avatar, loaded } = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        try {
            const walk = loaded.container!.animationGroups.find((g) => /walk/i.test(g.name))!;
            const clip = ConvertAnimationGroupToMuscleClip(walk, avatar);
            const animator = new HumanoidAnimator(avatar, loaded.binding!.nodes, { rootMotion: "in-place" });
            animator.play(clip, { loop: true });
            for (let i = 0; i < 20_000; i++) animator.update(1 / 60);
            // One boxed number an update is 16 bytes (the clip's proportions' unit vectors, through
            // a choice between a computed number and NaN, were that).
            expect(HeapBytesPerCall(() => animator.update(1 / 60))).toBeLessThan(4);
            animator.dispose();
        } finally {
            loaded.dispose();
        }
    }, 120_000);

    it("every joint limit on, the child's jump (its trunk eased into its limits on landing): no number boxed per update", async () => {
        if (!gc) return;
        const { avatar, loaded } = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        try {
            const jump = (await ConvertFileToMuscleClipsAsync(dataFile("bvh/animated_drawings/fair1_jumping_8yo.bvh")))[0].clip;
            const animator = new HumanoidAnimator(avatar, loaded.binding!.nodes, { jointLimits: "all" });
            animator.play(jump, { loop: true });
            for (let i = 0; i < 20_000; i++) animator.update(1 / 60);
            // The soft limit's ease, written as a function returning a number, boxed two a frame (30 bytes).
            expect(HeapBytesPerCall(() => animator.update(1 / 60))).toBeLessThan(4);
            animator.dispose();
        } finally {
            loaded.dispose();
        }
    }, 120_000);
});
