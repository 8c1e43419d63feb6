import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "@babylonjs/core/Animations/animatable.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import type { AssetContainer } from "@babylonjs/core/assetContainer.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import { GLTF2Export } from "@babylonjs/serializers/glTF/2.0/index.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBone,
    HumanoidAnimator,
    ReadGltfJson,
    SampleCharacters,
    type IGltfDocument,
    type MuscleClip,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

// What the retarget tests (test/cli/retarget*.test.ts) share: the command run from source, a
// temporary folder with Babylon's loaders on and its log muted, the sample characters and walk
// written to files, the written GLB read back, and the check that it plays as the live animator.

/** Runs the CLI from source (tsx), as `babylon-humanoid ...`. */
export function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { encoding: "utf8", cwd: process.cwd() });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Babylon's loader turns glTF seconds into frames at this rate. */
export const GLTF_LOADER_FPS = 60;
/** Feet of the written file and of the live animator agree within this (metres). */
const SAME_MOTION_METRES = 1e-3;

const savedLogger = { log: Logger.Log, warn: Logger.Warn };

/**
 * For a test file's beforeAll: a new temporary folder for what its tests write, Babylon's glTF
 * loaders registered, and Babylon's log and warnings muted until {@link closeRetargetScratch}.
 * @returns the folder
 */
export function openRetargetScratch(): string {
    const dir = mkdtempSync(join(tmpdir(), "bh-retarget-"));
    registerBuiltInLoaders();
    Logger.Log = () => undefined;
    Logger.Warn = () => undefined;
    return dir;
}

/** For a test file's afterAll: the folder of {@link openRetargetScratch} removed, Babylon's log and warnings back. */
export function closeRetargetScratch(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
    Logger.Log = savedLogger.log;
    Logger.Warn = savedLogger.warn;
}

/** World position of a node, its ancestors' world matrices refreshed top-down. */
export function worldOf(node: TransformNode): Vector3 {
    const chain: TransformNode[] = [];
    for (let n: TransformNode | null = node; n; n = n.parent as TransformNode | null) chain.unshift(n);
    for (const n of chain) n.computeWorldMatrix(true);
    return node.getAbsolutePosition().clone();
}

/** A sample character (no mesh) written as a GLB: the nodes of its rig under a root, exported by Babylon. */
export async function sampleCharacterGlbAsync(index: number, file: string): Promise<void> {
    const scene = new Scene(new NullEngine());
    try {
        CreateTransformNodesFromRig(BuildSampleRig(SampleCharacters[index]), scene);
        const data = await GLTF2Export.GLBAsync(scene, "character", { exportWithoutWaitingForScene: true });
        writeFileSync(file, new Uint8Array(await (Object.values(data.files)[0] as Blob).arrayBuffer()));
    } finally {
        scene.dispose();
        scene.getEngine().dispose();
    }
}

/** The JSON document of a GLB file. */
export function readGlbJson(file: string): IGltfDocument {
    return ReadGltfJson(new Uint8Array(readFileSync(file)), file);
}

/** The names of every node of a written GLB: all there, none twice. */
export function expectUniqueNodeNames(doc: IGltfDocument): string[] {
    const names = (doc.nodes ?? []).map((n) => n.name);
    expect(names.filter((n) => typeof n !== "string" || n === "")).toEqual([]);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    return names as string[];
}

/** The sample walk as a muscle clip, converted on a sample character. */
export function sampleWalkClip(index = 0, seconds = 2.2, rate = 30): MuscleClip {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[index]));
    return ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, seconds, rate));
}

/** A written GLB loaded into `scene` as a viewer would (its animations not started), everything added. */
export async function loadWrittenGlbAsync(file: string, scene: Scene): Promise<AssetContainer> {
    const container = await LoadAssetContainerAsync(new Uint8Array(readFileSync(file)), scene, {
        pluginExtension: ".glb",
        pluginOptions: { gltf: { animationStartMode: GLTFLoaderAnimationStartMode.NONE } },
    });
    container.addAllToScene();
    return container;
}

/**
 * Checks that a written GLB holds exactly one animation of the expected length, and that playing
 * it puts the feet where a live HumanoidAnimator puts them on the same character at the same times.
 */
export async function expectSameMotionAsync(
    clip: MuscleClip,
    character: string,
    output: string,
    options: { rootMotion: "clip" | "in-place"; proportions?: "legs" | "com" } = { rootMotion: "clip" },
): Promise<number> {
    // Live: the character as the avatar loader reads it, the clip played frame by frame.
    const live = await LoadHumanoidAvatarFromFileAsync(character);
    // Written: the output, loaded as any viewer would.
    const scene = new Scene(new NullEngine());
    try {
        const { avatar } = live;
        const nodes = live.loaded.binding!.nodes;
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: options.rootMotion, proportions: options.proportions });
        const feet = [HumanBone.LeftFoot, HumanBone.RightFoot].map((b) => nodes[avatar.getJoint(b)]);
        const container = await loadWrittenGlbAsync(output, scene);
        expect(container.animationGroups).toHaveLength(1);
        const group: AnimationGroup = container.animationGroups[0];
        expect(group.name).toBe(clip.name);
        expect(group.to / GLTF_LOADER_FPS).toBeCloseTo(clip.durationSeconds, 4);
        const writtenFeet = feet.map((n) => scene.getTransformNodeByName(n.name)!);
        expect(writtenFeet.every(Boolean)).toBe(true);
        group.start(false);
        group.pause();
        const checks = new Set([0, 1, Math.floor(clip.frameCount / 3), Math.floor(clip.frameCount / 2), clip.frameCount - 1]);
        let worst = 0;
        const first: Vector3[] = [];
        let moved = 0;
        animator.play(clip, { loop: false });
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            if (!checks.has(f)) continue;
            group.goToFrame((f / clip.frameRate) * GLTF_LOADER_FPS);
            for (let s = 0; s < 2; s++) {
                const written = worldOf(writtenFeet[s]);
                worst = Math.max(worst, Vector3.Distance(worldOf(feet[s]), written));
                if (f === 0) first.push(written);
                else moved = Math.max(moved, Vector3.Distance(first[s], written));
            }
        }
        expect(worst).toBeLessThan(SAME_MOTION_METRES);
        // A walk: the written feet do move (by more than 10 cm), so the comparison above means something.
        expect(moved).toBeGreaterThan(0.1);
        return worst;
    } finally {
        scene.dispose();
        scene.getEngine().dispose();
        live.loaded.dispose();
    }
}
