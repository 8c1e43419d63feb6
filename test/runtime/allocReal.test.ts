import { Logger } from "@babylonjs/core/Misc/logger.js";
import { ConvertAnimationGroupToMuscleClip, HumanoidAnimator, type IHumanoidAnimatorOptions, type MuscleClip } from "../../src/index.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { gc, HeapBytesPerCall } from "../helpers/allocation.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/**
 * Heap bytes an update of an animator on the X Bot (or the character `file` names) playing a clip
 * (looping, after 20,000 updates to settle), or null without --expose-gc. `clipOf` gives the clip
 * (the character's loaded file at hand).
 */
async function xBotBytesPerUpdate(
    clipOf: (loaded: Awaited<ReturnType<typeof LoadHumanoidAvatarFromFileAsync>>) => Promise<MuscleClip>,
    options: IHumanoidAnimatorOptions,
    file = "glb/mixamo_xbot.glb",
): Promise<number | null> {
    const xbot = await LoadHumanoidAvatarFromFileAsync(dataFile(file));
    try {
        const animator = new HumanoidAnimator(xbot.avatar, xbot.loaded.binding!.nodes, options);
        animator.play(await clipOf(xbot), { loop: true });
        for (let i = 0; i < 20_000; i++) animator.update(1 / 60);
        const bytes = HeapBytesPerCall(() => animator.update(1 / 60));
        animator.dispose();
        return bytes;
    } finally {
        xbot.loaded.dispose();
    }
}

describeWithData("the per-frame path on a real character and clip", () => {
    it("the X Bot walking its own walk (the benchmark's): no number boxed per update", async () => {
        if (!gc) return; // needs --expose-gc, as npm run test:unit gives
        const bytes = await xBotBytesPerUpdate(
            async ({ avatar, loaded }) =>
                ConvertAnimationGroupToMuscleClip(
                    loaded.container!.animationGroups.find((g) => /walk/i.test(g.name))!,
                    avatar,
                ),
            { rootMotion: "in-place" },
        );
        // One boxed number an update is 16 bytes (the clip's proportions' unit vectors, through a
        // choice between a computed number and NaN, were that).
        expect(bytes).toBeLessThan(4);
    }, 120_000);

    it("every joint limit on, the child's jump (its trunk eased into its limits on landing): no number boxed per update", async () => {
        if (!gc) return;
        const bytes = await xBotBytesPerUpdate(
            async () => (await ConvertFileToMuscleClipsAsync(dataFile("bvh/animated_drawings/fair1_jumping_8yo.bvh")))[0].clip,
            {
                jointLimits: "all",
            },
        );
        // The soft limit's ease, written as a function returning a number, boxed two a frame (30 bytes).
        expect(bytes).toBeLessThan(4);
    }, 120_000);

    it("the KayKit mannequin (no shoulder bones: its chest turns as the source's shoulder line) walking Bandai's giant walk: no number boxed per update", async () => {
        if (!gc) return;
        const bytes = await xBotBytesPerUpdate(
            async () => (await ConvertFileToMuscleClipsAsync(dataFile("bvh/bandai/dataset-1_walk_giant_001.bvh")))[0].clip,
            {},
            "glb/kaykit_mannequin/manny_med_mod.gltf",
        );
        expect(bytes).toBeLessThan(4);
    }, 120_000);
});
