/**
 * Runtime benchmark: our {@link HumanoidAnimator} against two anchors, Babylon playing the
 * `AnimatorAvatar`-retargeted `AnimationGroup` of the same clip and Babylon playing our own clip
 * baked into an `AnimationGroup` (`BakeMuscleClipToAnimationGroup`), on the same 50 characters, in
 * the same scene and the same run.
 *
 * One NullEngine scene holds 50 Mixamo X Bots (`instantiateModelsToScene` of one loaded file, every
 * mesh always active, as if all were on screen). The clip is the X Bot's own `walk`: for Babylon,
 * retargeted by `AnimatorAvatar.retargetAnimationGroup` from a second copy of the file (its nodes
 * renamed `SRC_`, `mapNodeNames`, `fixRootPosition: false`, as bench/convert.ts) onto the first
 * character, then cloned onto the others with their own nodes and played with `start(true)`; for
 * us, converted once into a muscle clip and played by one animator per character (one shared
 * avatar). The baked anchor is that muscle clip baked once onto character 0 with the live
 * animator's settings (foot IK on, hand IK off, default stretch and planting, root motion in place,
 * keys at the clip's own rate), cloned onto the others as Babylon's group is and played the same
 * way: the same motion, with all the per-frame work of the live animator done ahead of time.
 *
 * A last condition is the floor any live animator pays here: each character's own animator writer
 * (the nodes ours writes) writing two stored poses of the live motion in turn, every frame, nothing
 * computed; what it costs over the idle scene is the writes and the world matrices and skeletons
 * they make dirty, which the baked groups pay too.
 *
 * Every condition times `scene.render()` (the whole frame: animation, world matrices, skeletons)
 * over the same frames, and the animation step alone inside it. The conditions are interleaved
 * over many short rounds (each round in another order), every ratio is taken within a round, and
 * the median over rounds is kept (the absolute times too): this machine's speed drifts by twice
 * over minutes, which a best round per condition, taken minutes apart, turned into ratios from
 * 0.35 to 1.1 for the same code. Costs are taken over the idle scene (nothing playing) in the
 * same round.
 *
 * Both systems advance by 16 ms a frame: Babylon's groups through
 * `scene.useConstantAnimationDeltaTime`, our plugin (which reads `engine.getDeltaTime()`, 0 when
 * frames are rendered without the engine's render loop) through the engine's delta time pinned to
 * the same 16 ms. NullEngine renders as fast as it is called: nothing caps or skips frames.
 *
 * This file loads the clip, makes the engine and assembles the figures; the scene and its players
 * are bench/runtimeScene.ts's, the conditions' probes and timed rounds bench/runtimeConditions.ts's,
 * the one-animator figures (heap, garbage, split, features) bench/runtimeSolo.ts's, and the
 * figures' type bench/runtimeResult.ts's. bench/run.ts prints them.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import "@babylonjs/core/Animations/animatable.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { ConvertAnimationGroupToMuscleClip, type MuscleClip } from "../src/index.js";
import { LoadHumanoidAvatarFromFileAsync } from "../src/node/index.js";
import { FRAMES, ROUNDS, TimeConditions } from "./runtimeConditions.js";
import type { IRuntimeBenchResult } from "./runtimeResult.js";
import { BuildRuntimeBenchSceneAsync, CHARACTERS, FRAME_MS, GetAnimatorWriter } from "./runtimeScene.js";
import { MeasureAnimatorAlone } from "./runtimeSolo.js";

const data = (p: string): string => resolve(process.cwd(), "../shared/data", p);

/** The figures, or null when ../shared/data is not beside the project. */
export async function RunRuntimeBenchAsync(): Promise<IRuntimeBenchResult | null> {
    const xbotFile = data("glb/mixamo_xbot.glb");
    if (!existsSync(xbotFile)) return null;
    const notes: string[] = [];

    // Our side, cold: the X Bot's avatar and its walk as a muscle clip (in the file's own scene).
    const { avatar, loaded } = await LoadHumanoidAvatarFromFileAsync(xbotFile);
    const walk = loaded.container!.animationGroups.find((g) => /walk/i.test(g.name));
    if (!walk) {
        loaded.dispose();
        throw new Error(`${xbotFile}: no walk clip (clips: ${loaded.container!.animationGroups.map((g) => g.name).join(", ")})`);
    }
    const clipName = walk.name;
    const clip: MuscleClip = ConvertAnimationGroupToMuscleClip(walk, avatar);
    loaded.dispose();

    registerBuiltInLoaders();
    const saved = { log: Logger.Log, warn: Logger.Warn };
    Logger.Log = () => undefined;
    Logger.Warn = () => undefined;
    const engine = new NullEngine();
    // Our plugin steps by engine.getDeltaTime(), which only the render loop updates: pin it to Babylon's constant step.
    engine.getDeltaTime = () => FRAME_MS;
    const scene = new Scene(engine);
    scene.useConstantAnimationDeltaTime = true;
    try {
        const bench = await BuildRuntimeBenchSceneAsync(scene, xbotFile, avatar, clip, clipName, notes);
        const { time, costRatio, timeRatio, bakedVsLive } = TimeConditions(bench, notes);
        const a = time("babylon");
        const e = time("baked");
        const b = time("ours");
        const d = time("oursNoIK");
        const f = time("oursAll");
        const g = time("floor");
        const idle = time("idle");
        if (a - idle < 0.1 * a) notes.push("Babylon's groups cost less than a tenth of the frame over the idle scene: the net ratio is noisy");
        if (e - idle < 0.1 * e) notes.push("the baked groups cost less than a tenth of the frame over the idle scene: the net ratio is noisy");

        // Heap and split: one animator on its own, outside the scene.
        const alone = MeasureAnimatorAlone(bench, notes);

        return {
            subject: `${CHARACTERS} Mixamo X Bots, '${clipName}', NullEngine, ${FRAMES} frames x ${ROUNDS} rounds, medians of per-round figures`,
            characters: CHARACTERS,
            frames: FRAMES,
            animatorAvatarMicrosecondsPerCharacterFrame: a,
            bakedMicrosecondsPerCharacterFrame: e,
            oursMicrosecondsPerCharacterFrame: b,
            oursNoIKMicrosecondsPerCharacterFrame: d,
            oursAllMicrosecondsPerCharacterFrame: f,
            idleMicrosecondsPerCharacterFrame: idle,
            floorMicrosecondsPerCharacterFrame: g,
            floorCostRatioVsBakedPlayback: costRatio("floor", "baked"),
            animatorAvatarAnimateMicrosecondsPerCharacterFrame: time("babylon", "animate"),
            bakedAnimateMicrosecondsPerCharacterFrame: time("baked", "animate"),
            oursAnimateMicrosecondsPerCharacterFrame: time("ours", "animate"),
            oursNoIKAnimateMicrosecondsPerCharacterFrame: time("oursNoIK", "animate"),
            oursAllAnimateMicrosecondsPerCharacterFrame: time("oursAll", "animate"),
            runtimeCostRatioAllVsAnimatorAvatar: costRatio("oursAll", "babylon"),
            animateTimeRatioAllVsDefault: timeRatio("oursAll", "ours", "animate"),
            runtimeCostRatioVsAnimatorAvatar: costRatio("ours", "babylon"),
            runtimeCostRatioNoIKVsAnimatorAvatar: costRatio("oursNoIK", "babylon"),
            runtimeCostRatioVsBakedPlayback: costRatio("ours", "baked"),
            runtimeCostRatioNoIKVsBakedPlayback: costRatio("oursNoIK", "baked"),
            bakedCostRatioVsAnimatorAvatar: costRatio("baked", "babylon"),
            renderTimeRatioVsBakedPlayback: timeRatio("ours", "baked", "render"),
            animateTimeRatioVsBakedPlayback: timeRatio("ours", "baked", "animate"),
            renderTimeRatioVsAnimatorAvatar: timeRatio("ours", "babylon", "render"),
            animateTimeRatioVsAnimatorAvatar: timeRatio("ours", "babylon", "animate"),
            heapGrowthBytesPer100kFrames: alone.heapGrowthBytesPer100kFrames,
            heapMeasuredAfterGc: alone.heapMeasuredAfterGc,
            animatorHeapBytes: alone.animatorHeap,
            allocatedBytesPerUpdate: alone.allocatedPerUpdate,
            animatorAvatarTracksPerCharacter: bench.retargeted.targetedAnimations.length,
            bakedTracksPerCharacter: bench.baked.targetedAnimations.length,
            bakedFrameRate: bench.bakeStats.frameRate,
            bakedVsLiveMaxJointDistanceMetres: bakedVsLive,
            oursNodesWrittenPerCharacter: GetAnimatorWriter(bench.animators[0])?.jointCount ?? NaN,
            sharedAvatar: bench.sharedAvatar,
            updateSplit: alone.updateSplit,
            featureUpdateMicroseconds: alone.featureUpdateMicroseconds,
            notes,
        };
    } finally {
        scene.dispose();
        engine.dispose();
        Logger.Log = saved.log;
        Logger.Warn = saved.warn;
    }
}
