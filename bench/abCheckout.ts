/**
 * A/B of the per-frame update against another checkout of this library, in one process, on the
 * runtime benchmark's scene: `npm run bench:ab -- <other checkout>` (a directory holding `src/`,
 * such as a `git worktree add /tmp/base HEAD~3`; its `node_modules` may be a link to this one's).
 *
 * Why: the runtime benchmark's ratios (bench/runtime.ts) move by 15% between runs of the same code
 * on these machines, more than most changes to the update are worth. Here both versions run in
 * the same process, on the same 50 characters, in alternating rounds: each round renders the
 * scene, then times one update of every animator of one version (50 X Bots, the X Bot's own walk,
 * default options; each version's 50 animators write the same characters' nodes), F frames; the
 * figure is the median over rounds of this version's time over the other's in the same round. The
 * same code against itself reads 0.97 to 1.01 (three runs): differences under about 3% are noise.
 *
 * The other checkout's modules are its own (its own `MuscleSetup` caches and scratch); Babylon's
 * are shared (one copy in node_modules), so both write the same kind of nodes.
 */
import "@babylonjs/core/Animations/animatable.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ArrangeBenchScene, CHARACTERS } from "./runtimeScene.js";

/** The library's surface this harness uses, as either checkout exports it. */
type Library = typeof import("../src/index.js") & typeof import("../src/node/index.js");

const FILE = resolve(import.meta.dirname, "../../shared/data/glb/mixamo_xbot.glb");

async function libraryAt(dir: string): Promise<Library> {
    const url = (p: string): string => pathToFileURL(resolve(dir, p)).href;
    return { ...(await import(url("src/index.ts"))), ...(await import(url("src/node/index.ts"))) } as Library;
}

async function main(): Promise<void> {
    const { values, positionals } = parseArgs({
        allowPositionals: true,
        options: { rounds: { type: "string", default: "60" }, frames: { type: "string", default: "20" } },
    });
    const other = positionals[0];
    if (!other || !existsSync(resolve(other, "src/index.ts"))) {
        console.error("usage: npm run bench:ab -- <other checkout (a directory with src/index.ts)> [--rounds 60] [--frames 20]");
        process.exit(2);
    }
    const rounds = Math.max(2, Number(values.rounds) | 0);
    const frames = Math.max(1, Number(values.frames) | 0);
    const libs: [string, Library][] = [
        ["other", await libraryAt(other)],
        ["this", await libraryAt(resolve(import.meta.dirname, ".."))],
    ];
    registerBuiltInLoaders();
    Logger.Log = () => undefined;
    Logger.Warn = () => undefined;
    const scene = new Scene(new NullEngine());
    const template = await LoadAssetContainerAsync(new Uint8Array(readFileSync(FILE)), scene, {
        pluginExtension: ".glb",
        pluginOptions: { gltf: { animationStartMode: GLTFLoaderAnimationStartMode.NONE } },
    });
    // Each version's avatar and clip, made by its own code from the same file.
    const made = [];
    for (const [, lib] of libs) {
        const { avatar, loaded } = await lib.LoadHumanoidAvatarFromFileAsync(FILE);
        const group = loaded.container!.animationGroups.find((g) => /walk/i.test(g.name))!;
        made.push({ lib, avatar, clip: lib.ConvertAnimationGroupToMuscleClip(group, avatar) });
        loaded.dispose();
    }
    const roots: TransformNode[] = [];
    for (let i = 0; i < CHARACTERS; i++) {
        const e = template.instantiateModelsToScene((n) => `c${i}_${n}`, false, { doNotInstantiate: true });
        for (const g of e.animationGroups) g.dispose();
        roots.push(e.rootNodes[0] as TransformNode);
    }
    ArrangeBenchScene(scene, roots);
    const versions = made.map(({ lib, avatar, clip }) =>
        roots.map((root) => {
            const a = new lib.HumanoidAnimator(avatar, lib.BindRigToTransformNode(root).nodes, { rootMotion: "in-place" });
            a.play(clip, { loop: true });
            return a;
        }),
    );
    // Warm-up: both versions compiled and their state made.
    for (let f = 0; f < 60; f++) {
        for (const set of versions) {
            scene.render();
            for (const a of set) a.update(1 / 60);
        }
    }
    const times: number[][] = versions.map(() => []);
    const frameTimes: number[][] = versions.map(() => []);
    for (let r = 0; r < rounds; r++) {
        for (const k of r % 2 ? [1, 0] : [0, 1]) {
            let t = 0;
            const start = performance.now();
            for (let f = 0; f < frames; f++) {
                scene.render();
                const t0 = performance.now();
                for (const a of versions[k]) a.update(1 / 60);
                t += performance.now() - t0;
            }
            frameTimes[k].push(((performance.now() - start) * 1000) / frames / CHARACTERS);
            times[k].push((t * 1000) / frames / CHARACTERS);
        }
    }
    const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
    const ratios = times[1].map((t, i) => t / times[0][i]).sort((a, b) => a - b);
    console.log(`update in the scene: other ${median(times[0]).toFixed(1)} us, this ${median(times[1]).toFixed(1)} us (medians over ${rounds} rounds)`);
    console.log(
        `this / other: ${median(ratios).toFixed(3)} (median of the rounds' ratios; quartiles ${ratios[Math.floor(rounds / 4)].toFixed(3)} to ${ratios[Math.floor((3 * rounds) / 4)].toFixed(3)})`,
    );
    // The whole frame (the render after each update, which pays for what the update evicted from the cache).
    const differences = frameTimes[1].map((t, i) => t - frameTimes[0][i]).sort((a, b) => a - b);
    console.log(
        `whole frame: other ${median(frameTimes[0]).toFixed(1)} us, this ${median(frameTimes[1]).toFixed(1)} us; this - other: ${median(differences).toFixed(1)} us a character (median of the rounds' differences; quartiles ${differences[Math.floor(rounds / 4)].toFixed(1)} to ${differences[Math.floor((3 * rounds) / 4)].toFixed(1)})`,
    );
    scene.dispose();
}

await main();
