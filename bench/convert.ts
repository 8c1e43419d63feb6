/**
 * Conversion benchmark: frames per second converting the CMU jump (2752 frames, 31 joints) on one
 * thread; our conversion of the Mixamo X Bot's clips against Babylon's
 * `AnimatorAvatar.retargetAnimationGroup` on the same clips onto the same character, same run; and
 * clip sizes against their sources (BVH text, glTF animation bytes).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { AnimatorAvatar } from "@babylonjs/core/Animations/animatorAvatar.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import {
    BuildHumanoidAvatar,
    ConvertAnimationGroupToMuscleClip,
    ConvertBvhToMuscleClip,
    CreateRigFromBvh,
    GetGltfAnimationByteLength,
    ParseBvh,
    ReadGltfJson,
    SerializeMuscleClipToBinary,
} from "../src/index.js";
import { LoadRigFromFileAsync } from "../src/node/index.js";

export interface IConvertBenchResult {
    /** Frames per second converting the CMU jump, one thread (best of 3). */
    convertFramesPerSecond: number;
    /** Our conversion time over AnimatorAvatar's on the X Bot's clips (below 1: we are faster). */
    convertTimeRatioVsAnimatorAvatar: number;
    oursMillisecondsPerClip: number;
    animatorAvatarMillisecondsPerClip: number;
    /** Binary muscle clip bytes over BVH text bytes (CMU jump). */
    clipSizeRatioVsBvh: number;
    /** Binary muscle clip bytes over glTF animation key bytes (X Bot clips, summed). */
    clipSizeRatioVsGltf: number;
}

const data = (p: string): string => resolve(process.cwd(), "../shared/data", p);

/** Times `f` (milliseconds), best of `runs`. */
function best(runs: number, f: () => void): number {
    let t = Infinity;
    for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        f();
        t = Math.min(t, performance.now() - t0);
    }
    return t;
}

/** The figures, or null when ../shared/data is not beside the project. */
export async function RunConvertBenchAsync(): Promise<IConvertBenchResult | null> {
    const jumpFile = data("bvh/cmu_cgspeed/cmu_jump.bvh");
    const xbotFile = data("glb/mixamo_xbot.glb");
    if (!existsSync(jumpFile) || !existsSync(xbotFile)) return null;

    // CMU jump, one thread.
    const jumpText = readFileSync(jumpFile, "utf8");
    const bvh = CreateRigFromBvh(ParseBvh(jumpText, "cmu_jump.bvh"));
    const jumpAvatar = BuildHumanoidAvatar(bvh.rig);
    let jumpClip = ConvertBvhToMuscleClip(bvh, jumpAvatar);
    const jumpMs = best(3, () => (jumpClip = ConvertBvhToMuscleClip(bvh, jumpAvatar)));
    const clipSizeRatioVsBvh = SerializeMuscleClipToBinary(jumpClip).length / statSync(jumpFile).size;

    // X Bot clips: ours (on the file's own avatar) and AnimatorAvatar (onto a second copy of the X Bot).
    const loaded = await LoadRigFromFileAsync(xbotFile);
    const avatar = BuildHumanoidAvatar(loaded.rig);
    const groups = loaded.container!.animationGroups;
    const doc = ReadGltfJson(readFileSync(xbotFile), "mixamo_xbot.glb");
    let clipBytes = 0;
    let gltfBytes = 0;
    groups.forEach((g, i) => {
        clipBytes += SerializeMuscleClipToBinary(ConvertAnimationGroupToMuscleClip(g, avatar)).length;
        gltfBytes += GetGltfAnimationByteLength(doc, i);
    });
    const ours = best(3, () => groups.forEach((g) => ConvertAnimationGroupToMuscleClip(g, avatar))) / groups.length;
    loaded.dispose();
    const theirs = await animatorAvatarMillisecondsPerClip(xbotFile);
    return {
        convertFramesPerSecond: jumpClip.frameCount / (jumpMs / 1000),
        convertTimeRatioVsAnimatorAvatar: ours / theirs,
        oursMillisecondsPerClip: ours,
        animatorAvatarMillisecondsPerClip: theirs,
        clipSizeRatioVsBvh,
        clipSizeRatioVsGltf: clipBytes / gltfBytes,
    };
}

/** Babylon's own retargeting of every X Bot clip onto a second X Bot in the same scene, ms per clip (best of 3). */
async function animatorAvatarMillisecondsPerClip(file: string): Promise<number> {
    registerBuiltInLoaders();
    const saved = { log: Logger.Log, warn: Logger.Warn };
    Logger.Log = () => undefined;
    Logger.Warn = () => undefined;
    const engine = new NullEngine();
    const scene = new Scene(engine);
    try {
        const bytes = new Uint8Array(readFileSync(file));
        const options = { pluginExtension: ".glb", pluginOptions: { gltf: { animationStartMode: GLTFLoaderAnimationStartMode.NONE } } };
        const source = await LoadAssetContainerAsync(bytes, scene, options);
        const target = await LoadAssetContainerAsync(bytes, scene, options);
        source.addAllToScene();
        target.addAllToScene();
        // Same names on both rigs: rename the source's nodes and map them back, as Babylon's docs advise.
        const map = new Map<string, string>();
        for (const n of source.transformNodes) {
            map.set(`SRC_${n.name}`, n.name);
            n.name = `SRC_${n.name}`;
        }
        const root = target.meshes.find((m) => m.name === "__root__") ?? target.meshes[0];
        const animator = new AnimatorAvatar("bench", root, false, false);
        const groups: AnimationGroup[] = source.animationGroups;
        return (
            best(3, () => {
                for (const g of groups) animator.retargetAnimationGroup(g, { mapNodeNames: map, fixRootPosition: false }).dispose();
            }) / groups.length
        );
    } finally {
        scene.dispose();
        engine.dispose();
        Logger.Log = saved.log;
        Logger.Warn = saved.warn;
    }
}
