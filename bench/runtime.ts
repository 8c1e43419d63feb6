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
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import "@babylonjs/core/Animations/animatable.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { AnimatorAvatar } from "@babylonjs/core/Animations/animatorAvatar.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import type { Node } from "@babylonjs/core/node.js";
import { Scene } from "@babylonjs/core/scene.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import {
    BakeMuscleClipToAnimationGroup,
    BindRigToTransformNode,
    BuildHumanoidAvatar,
    ConvertAnimationGroupToMuscleClip,
    CreateBakeStats,
    HumanBone,
    HumanIKGoal,
    HumanoidAnimator,
    RegisterHumanoidPlugin,
    type HumanoidAvatar,
    type HumanoidRigWriter,
    type IRigPose,
    type MuscleClip,
} from "../src/index.js";
import { LoadHumanoidAvatarFromFileAsync } from "../src/node/index.js";
import { HeapBytesPerCall } from "../test/helpers/allocation.js";

/** Time split of one {@link HumanoidAnimator.update}, microseconds per character-frame (one animator, outside the scene). */
export interface IRuntimeUpdateSplit {
    /** Clip sampling, blending and root motion bookkeeping (`player.update`). */
    sampleMicroseconds: number;
    /** Muscles to rig pose (`solver.decode`). */
    decodeMicroseconds: number;
    /** Foot planting (`planting.update`). */
    plantingMicroseconds: number;
    /** Forward kinematics of the limbs, body drop and limb IK (`solver.solveIK`). */
    ikMicroseconds: number;
    /** Rig pose onto the nodes (the animator's rig writer). */
    writeMicroseconds: number;
    /** Root motion delta and observers. */
    rootMotionMicroseconds: number;
    /** A whole `animator.update`, timed on its own over the same frames (the sum of the parts, less the timer's own cost). */
    updateMicroseconds: number;
    /** Heap allocated per call of each step, garbage included, bytes (each step called on its own; NaN without a GC). */
    allocatedBytes: { sample: number; decode: number; planting: number; ik: number; write: number; rootMotion: number };
}

/**
 * Figures of {@link RunRuntimeBenchAsync}. Times are microseconds per character per frame, each
 * the median over rounds; every ratio is the median over rounds of that round's own ratio (the
 * formulas below name the conditions' times within a round), not a ratio of the medians.
 */
export interface IRuntimeBenchResult {
    /** What was measured, for the table's heading. */
    subject: string;
    /** Characters in the scene. */
    characters: number;
    /** Frames timed per condition and round (after a warm-up). */
    frames: number;
    /** `scene.render()` with Babylon's retargeted AnimationGroups playing on every character (a). */
    animatorAvatarMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with Babylon playing our clip baked by `BakeMuscleClipToAnimationGroup` (live settings) on every character (e). */
    bakedMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with our animators playing (foot IK and planting on, default options) (b). */
    oursMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with our animators playing, foot IK off (d). */
    oursNoIKMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with our animators playing with everything of the runtime on: foot IK, the full joint-limit set, world goals for both hands and look-at (f). */
    oursAllMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with nothing playing: the scene's fixed cost (c). */
    idleMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with each character's animator writer writing two stored poses of the live motion in turn, nothing computed: the floor of a live animator (g). */
    floorMicrosecondsPerCharacterFrame: number;
    /**
     * What the floor costs over the idle scene, over what Babylon playing the baked clip costs:
     * (g - c) / (e - c), the median over rounds. The share of the baked clip's cost that writing the
     * nodes and what that makes dirty take whatever computes the pose: the live animator's update
     * itself may cost at most 0.5 less this of it for {@link runtimeCostRatioVsBakedPlayback} to be 0.5.
     */
    floorCostRatioVsBakedPlayback: number;
    /** The animation step alone inside `scene.render()`: Babylon's `animate()` (a). */
    animatorAvatarAnimateMicrosecondsPerCharacterFrame: number;
    /** The animation step alone inside `scene.render()`: Babylon's `animate()` playing the baked groups (e). */
    bakedAnimateMicrosecondsPerCharacterFrame: number;
    /** The animation step alone inside `scene.render()`: our plugin's updates (b). */
    oursAnimateMicrosecondsPerCharacterFrame: number;
    /** The animation step alone inside `scene.render()`: our plugin's updates, IK off (d). */
    oursNoIKAnimateMicrosecondsPerCharacterFrame: number;
    /** The animation step alone inside `scene.render()`: our plugin's updates, everything on (f). */
    oursAllAnimateMicrosecondsPerCharacterFrame: number;
    /** What playing costs over the idle scene with everything on (limits "all", hand world goals, look-at), over Babylon's: (f - c) / (a - c). Issue 12's target: at most 0.3. */
    runtimeCostRatioAllVsAnimatorAvatar: number;
    /** The update alone with everything on over the default update: what limits, world goals and look-at add, as a ratio of the default animate step. */
    animateTimeRatioAllVsDefault: number;
    /**
     * What playing costs over the idle scene, ours (IK on) over Babylon's: (b - c) / (a - c). It
     * counts the animation step and what it causes downstream in the frame (world matrices and
     * skeletons of the nodes it moved). Below 1: ours is cheaper.
     */
    runtimeCostRatioVsAnimatorAvatar: number;
    /** Same, foot IK off: (d - c) / (a - c). */
    runtimeCostRatioNoIKVsAnimatorAvatar: number;
    /**
     * What playing costs over the idle scene, ours (IK on, live) over Babylon playing the same motion
     * baked from our clip: (b - c) / (e - c). Below 1: live is cheaper than its own bake.
     */
    runtimeCostRatioVsBakedPlayback: number;
    /** Same, foot IK off (the bake keeps IK on): (d - c) / (e - c). */
    runtimeCostRatioNoIKVsBakedPlayback: number;
    /** Babylon playing the baked groups over Babylon playing the AnimatorAvatar groups, over the idle scene: (e - c) / (a - c). */
    bakedCostRatioVsAnimatorAvatar: number;
    /** Whole frames, ours (IK on) over the baked playback: b / e. */
    renderTimeRatioVsBakedPlayback: number;
    /** The animation steps alone, ours (IK on) over the baked playback. */
    animateTimeRatioVsBakedPlayback: number;
    /** Whole frames, ours (IK on) over Babylon's: b / a. */
    renderTimeRatioVsAnimatorAvatar: number;
    /** The animation steps alone, ours (IK on) over Babylon's. */
    animateTimeRatioVsAnimatorAvatar: number;
    /** Heap used after 100,000 `animator.update(1/60)` minus before (after a warm-up; both once full GCs no longer change it), bytes. */
    heapGrowthBytesPer100kFrames: number;
    /** Whether a GC could be forced for the heap figure (else it is only indicative). */
    heapMeasuredAfterGc: boolean;
    /**
     * What one more animator (defaults, playing, one update done) keeps on the heap: heap used after
     * making {@link ANIMATOR_HEAP_COUNT} of them on character 0 minus before, both settled under full
     * GCs, over their number, bytes (its own state only: the avatar's tables and the clip are shared).
     */
    animatorHeapBytes: number;
    /** Heap allocated per `animator.update`, garbage included (heap used after 2,000 updates minus right after a full GC, the least of 8 probes no collection ran in), bytes; about 0 when the update allocates nothing; NaN without a GC. */
    allocatedBytesPerUpdate: number;
    /** Animations Babylon's retargeted group plays per character. */
    animatorAvatarTracksPerCharacter: number;
    /** Animations the baked group plays per character (rotations and positions). */
    bakedTracksPerCharacter: number;
    /** Keys per second of the baked group (the clip's own rate). */
    bakedFrameRate: number;
    /** Largest distance between a joint of character 7 under the live animator and under the baked group, after the same frames (world space, metres): the bake is the same motion when this is small. */
    bakedVsLiveMaxJointDistanceMetres: number;
    /** Nodes our animator writes per character. */
    oursNodesWrittenPerCharacter: number;
    /** One avatar shared by every animator (the characters' joints in the same order), else one per character. */
    sharedAvatar: boolean;
    /** Where an update's time goes, or null when the animator's internals could not be reached. */
    updateSplit: IRuntimeUpdateSplit | null;
    /**
     * One animator's update on its own (outside the scene, best of rounds), microseconds, by what is
     * on: the defaults (foot IK, knees and elbows limited), the full limit set, world goals for
     * both hands, look-at, and all three. What each part costs per character-frame.
     */
    featureUpdateMicroseconds: { defaults: number; limitsAll: number; worldGoals: number; lookAt: number; all: number };
    /** Anything odd seen on the way (empty when all is well). */
    notes: string[];
}

/** Characters in the benchmark's scene. */
export const CHARACTERS = 50;
/** Frames timed per condition and round: short rounds, many of them (see the header). */
const FRAMES = 100;
const WARMUP_FRAMES = 20;
/** Rounds (odd: the median is a round's own figure). */
const ROUNDS = 11;
/** Frame time of both systems, milliseconds (Babylon's constant animation step). */
const FRAME_MS = 16;
/** Updates before the heap figure: as many as the unit tests let V8 settle the update's code over (allocReal.test.ts). */
const HEAP_WARMUP_FRAMES = 20_000;
const HEAP_FRAMES = 100_000;
/** Calls per allocation probe. */
const ALLOCATION_FRAMES = 2_000;
/** Allocation probes; the least of those no collection ran in counts (see `allocatedBytesPerCall`). */
const ALLOCATION_PROBES = 8;
const SPLIT_FRAMES = 20_000;
/** Full GCs before the heap counts as settled: V8 flushes the bytecode of functions left unused (the scene's, while one animator runs alone) only once it has aged over several. */
const HEAP_MIN_GCS = 10;
/** Most full GCs to wait for the heap to settle. */
const HEAP_MAX_GCS = 20;
/** The heap has settled when a full GC changes it by less than this, bytes. */
const HEAP_SETTLED_BYTES = 1024;
/** Characters stand on a grid this far apart, metres. */
const SPACING = 1.5;
const GRID_COLUMNS = 10;
const PREFIX = (i: number): string => `c${i}_`;
/** The live animators' settings (foot IK on, defaults otherwise), which the baked anchor is baked with too. */
const LIVE_OPTIONS = { rootMotion: "in-place", footIK: true, handIK: false } as const;
/** Most distance a joint under the baked groups may be from the live animator's after the same frames before a note, metres. */
const BAKED_VS_LIVE_TOLERANCE = 0.02;

const data = (p: string): string => resolve(process.cwd(), "../shared/data", p);

/** A full garbage collection, or null when none can be forced (`--expose-gc`, else V8's flag set at run time). */
function getGc(): (() => void) | null {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === "function") return exposed;
    try {
        setFlagsFromString("--expose-gc");
        const gc = runInNewContext("gc") as unknown;
        return typeof gc === "function" ? (gc as () => void) : null;
    } catch {
        return null;
    }
}

/**
 * Heap used once it stops shrinking under full GCs (V8 frees some things, such as the bytecode of
 * functions not run lately, only after several collections), bytes. Without a GC, as it is.
 */
function settledHeapUsed(gc: (() => void) | null): number {
    let used = process.memoryUsage().heapUsed;
    if (!gc) return used;
    for (let i = 0; i < HEAP_MAX_GCS; i++) {
        gc();
        const now = process.memoryUsage().heapUsed;
        const settled = Math.abs(now - used) < HEAP_SETTLED_BYTES;
        used = now;
        if (settled && i >= HEAP_MIN_GCS) break;
    }
    return used;
}

/**
 * Heap used after {@link HEAP_FRAMES} updates of a playing animator minus before, both settled
 * under full GCs, bytes. In a function of its own: run inside the long benchmark function, the
 * heap after was 8 MB below the heap before, run after run (most likely the loop compiled on the
 * stack, whose optimized frame no longer holds that function's dead locals), a drop that would hide
 * a leak; here the figure is a few hundred bytes.
 */
function heapGrowthOf(animator: HumanoidAnimator, gc: (() => void) | null): number {
    const before = settledHeapUsed(gc);
    for (let f = 0; f < HEAP_FRAMES; f++) animator.update(1 / 60);
    return settledHeapUsed(gc) - before;
}

/** How many animators {@link animatorHeapOf} makes. */
const ANIMATOR_HEAP_COUNT = 20;

/**
 * What one more animator keeps on the heap (see {@link IRuntimeBenchResult.animatorHeapBytes}),
 * bytes; a function of its own for the reason given at {@link heapGrowthOf}.
 */
function animatorHeapOf(make: () => HumanoidAnimator, gc: (() => void) | null): number {
    const before = settledHeapUsed(gc);
    const made: HumanoidAnimator[] = [];
    for (let i = 0; i < ANIMATOR_HEAP_COUNT; i++) {
        const a = make();
        a.update(1 / 60);
        made.push(a);
    }
    const bytes = (settledHeapUsed(gc) - before) / ANIMATOR_HEAP_COUNT;
    for (const a of made) a.dispose();
    return bytes;
}

/**
 * Heap allocated per call of `f`, bytes, as the unit tests count it (`HeapBytesPerCall`: heap used
 * after {@link ALLOCATION_FRAMES} calls minus right after a full GC, the least of
 * {@link ALLOCATION_PROBES} probes in which no collection ran). The largest of five probes of 100
 * calls, as before, read 58 to 1,800 bytes an update between runs of the same code: V8's own work
 * (compiling, feedback) lands in some probes. NaN without a GC, Infinity when every probe had a
 * collection.
 */
function allocatedBytesPerCall(gc: (() => void) | null, f: () => void): number {
    return (gc && HeapBytesPerCall(f, ALLOCATION_FRAMES, ALLOCATION_PROBES, gc)) ?? NaN;
}

/**
 * The benchmark scene's layout: the characters' roots on a grid ({@link GRID_COLUMNS} a row,
 * {@link SPACING} metres apart), every mesh drawn (no frustum culling), a camera looking on. Also
 * bench/abCheckout.ts's, so that its figures are this scene's.
 * @param scene the scene
 * @param roots the characters' root nodes, in grid order
 */
export function ArrangeBenchScene(scene: Scene, roots: readonly TransformNode[]): void {
    roots.forEach((root, i) => root.position.set((i % GRID_COLUMNS) * SPACING, 0, Math.floor(i / GRID_COLUMNS) * SPACING));
    for (const m of scene.meshes) if (m instanceof AbstractMesh) m.alwaysSelectAsActiveMesh = true;
    const camera = new FreeCamera("camera", new Vector3(((GRID_COLUMNS - 1) * SPACING) / 2, 2, -12), scene);
    camera.setTarget(new Vector3(((GRID_COLUMNS - 1) * SPACING) / 2, 1, 3));
}

/** One character: its root, the node of every rig joint, its avatar. */
interface ICharacter {
    readonly root: TransformNode;
    readonly nodes: readonly TransformNode[];
    readonly avatar: HumanoidAvatar;
}

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
        const bytes = new Uint8Array(readFileSync(xbotFile));
        const options = { pluginExtension: ".glb", pluginOptions: { gltf: { animationStartMode: GLTFLoaderAnimationStartMode.NONE } } };

        // 50 characters from one template (the template itself stays out of the scene).
        const template = await LoadAssetContainerAsync(bytes, scene, options);
        const characters: ICharacter[] = [];
        let sharedAvatar = true;
        for (let i = 0; i < CHARACTERS; i++) {
            const entries = template.instantiateModelsToScene((n) => PREFIX(i) + n, false, { doNotInstantiate: true });
            for (const g of entries.animationGroups) g.dispose();
            const root = entries.rootNodes.find((n) => n.name === `${PREFIX(i)}__root__`) ?? entries.rootNodes[0];
            const binding = BindRigToTransformNode(root);
            // Same joints in the same order as the avatar's rig: share it; else this character gets its own.
            const same = binding.nodes.length === avatar.rig.joints.length && binding.nodes.every((n, j) => n.name === PREFIX(i) + avatar.rig.joints[j].name);
            if (!same) sharedAvatar = false;
            characters.push({ root: root as TransformNode, nodes: binding.nodes, avatar: same ? avatar : BuildHumanoidAvatar(binding.rig) });
        }
        if (!sharedAvatar) notes.push("the characters' joint order differs from the file's: one avatar per character");

        // Babylon's side: retarget the walk from a renamed second copy onto character 0, then clone it onto the others.
        const source = await LoadAssetContainerAsync(bytes, scene, options);
        source.addAllToScene();
        const map = new Map<string, string>();
        for (const n of source.transformNodes) {
            map.set(`SRC_${n.name}`, PREFIX(0) + n.name);
            n.name = `SRC_${n.name}`;
        }
        const sourceWalk = source.animationGroups.find((g) => g.name === clipName)!;
        const animatorAvatar = new AnimatorAvatar("bench", characters[0].root, false, false);
        const retargeted = animatorAvatar.retargetAnimationGroup(sourceWalk, { mapNodeNames: map, fixRootPosition: false });
        source.removeAllFromScene();
        source.dispose();
        const index0 = new Map<Node, number>(characters[0].nodes.map((n, j) => [n, j]));
        const groups: AnimationGroup[] = [retargeted];
        let unmapped = 0;
        for (let i = 1; i < CHARACTERS; i++) {
            groups.push(
                retargeted.clone(`${PREFIX(i)}${clipName}`, (target: Node) => {
                    const j = index0.get(target);
                    if (j === undefined) unmapped++;
                    return j === undefined ? target : characters[i].nodes[j];
                }),
            );
        }
        if (unmapped) notes.push(`${unmapped / (CHARACTERS - 1)} retargeted tracks per character target nodes outside the rig: left on character 0`);

        // Babylon playing our clip: baked once onto character 0 with the live animator's settings, cloned onto the others.
        const bakeStats = CreateBakeStats();
        const baked = BakeMuscleClipToAnimationGroup(clip, characters[0].avatar, {
            ...LIVE_OPTIONS,
            targets: characters[0].nodes,
            scene,
            name: `baked_${clipName}`,
            stats: bakeStats,
        });
        const bakedGroups: AnimationGroup[] = [baked];
        let bakedUnmapped = 0;
        for (let i = 1; i < CHARACTERS; i++) {
            bakedGroups.push(
                baked.clone(`${PREFIX(i)}baked_${clipName}`, (target: Node) => {
                    if (target === characters[0].root) return characters[i].root;
                    const j = index0.get(target);
                    if (j === undefined) bakedUnmapped++;
                    return j === undefined ? target : characters[i].nodes[j];
                }),
            );
        }
        if (bakedUnmapped) notes.push(`${bakedUnmapped / (CHARACTERS - 1)} baked tracks per character target nodes outside the rig: left on character 0`);
        if (bakeStats.unreachableFrames) notes.push(`bake: ${bakeStats.unreachableFrames} of ${bakeStats.frames} frames had a limb goal out of reach`);

        // Everything on: the full joint-limit set, both hands on world goals and the head looking
        // at a point (set below, once the characters stand on their spots; the binding's nodes
        // keep rig space where it was read, wherever the character stands when its animator is made).
        const animatorsAll = characters.map((c) => new HumanoidAnimator(c.avatar, c.nodes, { ...LIVE_OPTIONS, jointLimits: "all", rootNode: c.root }));

        ArrangeBenchScene(
            scene,
            characters.map((c) => c.root),
        );

        // Ours: one animator per character with foot IK (defaults), one without; attached only while timed.
        const animators = characters.map((c) => new HumanoidAnimator(c.avatar, c.nodes, { ...LIVE_OPTIONS }));
        const animatorsNoIK = characters.map((c) => new HumanoidAnimator(c.avatar, c.nodes, { ...LIVE_OPTIONS, footIK: false }));

        // Hands 30 cm in front of each character's chest, 15 cm either side, 10 cm down (within
        // reach, no trunk bend); the head looks at a point 2 m ahead, 0.5 m to the side.
        characters.forEach((c, i) => {
            const a = animatorsAll[i];
            // The character's own frame in the world, from its joints as they stand now (world
            // matrices refreshed top-down: the root has just moved to its spot).
            c.root.computeWorldMatrix(true);
            for (const n of c.nodes) n.computeWorldMatrix(true);
            const at = (bone: HumanBone): Vector3 => c.nodes[c.avatar.getJoint(bone)].getAbsolutePosition().clone();
            const right = at(HumanBone.RightUpperLeg).subtract(at(HumanBone.LeftUpperLeg)).normalize();
            const forward = Vector3.Cross(right, Vector3.Up()).normalize();
            const front = at(HumanBone.Chest)
                .add(forward.scale(0.3))
                .add(new Vector3(0, -0.1, 0));
            a.goals.setPosition(HumanIKGoal.LeftHand, front.subtract(right.scale(0.15)), 1);
            a.goals.setPosition(HumanIKGoal.RightHand, front.add(right.scale(0.15)), 1);
            a.lookAt.position.copyFrom(at(HumanBone.Head).add(forward.scale(2)).add(right.scale(0.5)));
            a.lookAt.setWeights(1, 0.3, 1, 1, 0.5);
        });

        // Timing marks inside the frame: before Babylon's animations, around our plugin's observer.
        RegisterHumanoidPlugin(scene);
        const marks = { beforeAnimations: 0, pluginStart: 0, pluginEnd: 0 };
        scene.onBeforeAnimationsObservable.add(() => (marks.beforeAnimations = performance.now()));
        scene.onAfterAnimationsObservable.add(() => (marks.pluginStart = performance.now()), undefined, true);
        scene.onAfterAnimationsObservable.add(() => (marks.pluginEnd = performance.now()));

        // The floor: each character's animator writer, two stored poses of the live motion (frames
        // 10 and 20 of the walk) written in turn, nothing computed (its whole frame is what counts).
        const floorPoses = animators.map((a) => {
            a.play(clip, { loop: true });
            const at = (frames: number): IRigPose => {
                for (let f = 0; f < frames; f++) a.update(FRAME_MS / 1000);
                return { label: "floor", rotations: a.solver.pose.rotations.map((q) => q.clone()), positions: a.solver.pose.positions.map((v) => v.clone()) };
            };
            const poses = [at(10), at(10)];
            a.stop();
            return poses;
        });
        const floorWriters = animators.map((a) => writerOf(a));
        let floorOn = false;
        let floorTurn = 0;
        scene.onBeforeAnimationsObservable.add(() => {
            if (!floorOn) return;
            floorTurn ^= 1;
            for (let i = 0; i < CHARACTERS; i++) floorWriters[i]?.write(floorPoses[i][floorTurn], characters[i].avatar.rig);
        });
        if (floorWriters.some((w) => !w)) notes.push("the animators' writers (_writer) were not found: no floor");

        type Condition = "babylon" | "baked" | "ours" | "oursNoIK" | "oursAll" | "idle" | "floor";
        const conditions: Condition[] = ["babylon", "baked", "ours", "oursNoIK", "oursAll", "idle", "floor"];
        const animatorsOf = (c: Condition): HumanoidAnimator[] | null =>
            c === "ours" ? animators : c === "oursNoIK" ? animatorsNoIK : c === "oursAll" ? animatorsAll : null;
        const start = (c: Condition): void => {
            if (c === "babylon") for (const g of groups) g.start(true);
            if (c === "baked") for (const g of bakedGroups) g.start(true);
            if (c === "floor") floorOn = true;
            const list = animatorsOf(c);
            if (list)
                for (const a of list) {
                    a.attachToScene(scene);
                    a.play(clip, { loop: true });
                }
        };
        const stop = (c: Condition): void => {
            if (c === "babylon") for (const g of groups) g.stop();
            if (c === "baked") for (const g of bakedGroups) g.stop();
            if (c === "floor") floorOn = false;
            const list = animatorsOf(c);
            if (list)
                for (const a of list) {
                    a.stop();
                    a.detachFromScene();
                }
        };
        /** Mean ms per frame over `frames`: whole render, and the animation step inside it. */
        const timeFrames = (c: Condition, frames: number): { render: number; animate: number } => {
            let render = 0;
            let animate = 0;
            for (let f = 0; f < frames; f++) {
                const t0 = performance.now();
                scene.render();
                render += performance.now() - t0;
                animate += c === "babylon" || c === "baked" ? marks.pluginStart - marks.beforeAnimations : marks.pluginEnd - marks.pluginStart;
            }
            return { render: render / frames, animate: animate / frames };
        };

        // Sanity: every condition moves (or keeps still) what it should, and characters stay on their spots.
        const hipsJoint = avatar.rig.joints.findIndex((j) => j.name === "mixamorig:Hips");
        const probe = (c: Condition): { moved: number; offSpot: number; joints: Vector3[] } => {
            const hips = characters[7].nodes[hipsJoint];
            const foot = characters[7].nodes[avatar.rig.joints.findIndex((j) => j.name === "mixamorig:LeftFoot")];
            start(c);
            timeFrames(c, 10);
            const a = foot.computeWorldMatrix(true).getTranslation();
            timeFrames(c, 15);
            const b = foot.computeWorldMatrix(true).getTranslation();
            const h = hips.computeWorldMatrix(true).getTranslation();
            const joints = characters[7].nodes.map((n) => n.computeWorldMatrix(true).getTranslation());
            stop(c);
            const spot = characters[7].root.position;
            return { moved: Vector3.Distance(a, b), offSpot: Math.hypot(h.x - spot.x, h.z - spot.z), joints };
        };
        const probed = new Map<Condition, Vector3[]>();
        for (const c of conditions) {
            const { moved, offSpot, joints } = probe(c);
            probed.set(c, joints);
            if (c === "idle" ? moved > 1e-6 : moved < 0.01) notes.push(`${c}: the left foot moved ${moved.toFixed(3)} m over 15 frames`);
            if (offSpot > 0.5) notes.push(`${c}: the hips are ${offSpot.toFixed(2)} m from the character's spot`);
        }
        // Everything on: the hands are on their world goals (they are within reach).
        const all = probed.get("oursAll")!;
        for (const [goal, name] of [
            [HumanIKGoal.LeftHand, "mixamorig:LeftHand"],
            [HumanIKGoal.RightHand, "mixamorig:RightHand"],
        ] as const) {
            const off = Vector3.Distance(all[avatar.rig.joints.findIndex((j) => j.name === name)], animatorsAll[7].goals.positions[goal]);
            if (off > 0.01) notes.push(`oursAll: the ${name} is ${off.toFixed(3)} m from its world goal`);
        }
        // The baked groups play the live motion: every joint where the live animator put it after the same 25 frames.
        const live = probed.get("ours")!;
        const bakedVsLive = Math.max(...probed.get("baked")!.map((p, j) => Vector3.Distance(p, live[j])));
        if (bakedVsLive > BAKED_VS_LIVE_TOLERANCE)
            notes.push(`baked: a joint is ${bakedVsLive.toFixed(3)} m from where the live animator puts it after the same frames`);

        // Interleaved short rounds, each in another order; per round every condition's times.
        const rounds: Array<Record<Condition, { render: number; animate: number }>> = [];
        for (let r = 0; r < ROUNDS; r++) {
            const round = {} as Record<Condition, { render: number; animate: number }>;
            for (let k = 0; k < conditions.length; k++) {
                const c = conditions[(k + r) % conditions.length];
                start(c);
                timeFrames(c, WARMUP_FRAMES);
                round[c] = timeFrames(c, FRAMES);
                stop(c);
            }
            rounds.push(round);
        }
        const median = (values: number[]): number => {
            const v = [...values].sort((x, y) => x - y);
            return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        };
        const us = (ms: number): number => (ms * 1000) / CHARACTERS;
        /** A condition's median time over rounds, microseconds per character-frame. */
        const time = (c: Condition, part: "render" | "animate" = "render"): number => us(median(rounds.map((r) => r[c][part])));
        /** A ratio of two conditions' costs over the idle scene, within each round, the median over rounds. */
        const costRatio = (x: Condition, y: Condition): number => median(rounds.map((r) => (r[x].render - r.idle.render) / (r[y].render - r.idle.render)));
        /** A ratio of two conditions' times, within each round, the median over rounds. */
        const timeRatio = (x: Condition, y: Condition, part: "render" | "animate"): number => median(rounds.map((r) => r[x][part] / r[y][part]));
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
        const solo = animators[0];
        solo.play(clip, { loop: true });
        for (let f = 0; f < HEAP_WARMUP_FRAMES; f++) solo.update(1 / 60);
        const gc = getGc();
        const heapGrowth = heapGrowthOf(solo, gc);
        if (!gc) notes.push("no GC could be forced: the heap growth is only indicative");
        const allocatedPerUpdate = allocatedBytesPerCall(gc, () => solo.update(1 / 60));
        const animatorHeap = animatorHeapOf(() => {
            const a = new HumanoidAnimator(characters[0].avatar, characters[0].nodes, { ...LIVE_OPTIONS });
            a.play(clip, { loop: true });
            return a;
        }, gc);
        const updateSplit = splitUpdate(solo, gc);
        // What each part costs: animators on character 0 with one part on each, timed in turn
        // (character 0's spot is the origin, where it was loaded: its root binds rig space as the
        // animators made before the move took it, and the world goals are theirs).
        const c0 = characters[0];
        const spots = animatorsAll[0];
        const withParts = (limits: boolean, goals: boolean, look: boolean): HumanoidAnimator => {
            const a = new HumanoidAnimator(c0.avatar, c0.nodes, { ...LIVE_OPTIONS, jointLimits: limits ? "all" : true, rootNode: c0.root });
            if (goals) for (const g of [HumanIKGoal.LeftHand, HumanIKGoal.RightHand]) a.goals.setPosition(g, spots.goals.positions[g], 1);
            if (look) {
                a.lookAt.position.copyFrom(spots.lookAt.position);
                a.lookAt.setWeights(1, 0.3, 1, 1, 0.5);
            }
            a.play(clip, { loop: true });
            return a;
        };
        const parts = {
            defaults: withParts(false, false, false),
            limitsAll: withParts(true, false, false),
            worldGoals: withParts(false, true, false),
            lookAt: withParts(false, false, true),
            all: withParts(true, true, true),
        };
        const featureUpdateMicroseconds = { defaults: Infinity, limitsAll: Infinity, worldGoals: Infinity, lookAt: Infinity, all: Infinity };
        for (let r = 0; r < ROUNDS; r++) {
            for (const k of Object.keys(parts) as (keyof typeof parts)[]) {
                const a = parts[k];
                for (let f = 0; f < WARMUP_FRAMES; f++) a.update(1 / 60);
                const t0 = performance.now();
                for (let f = 0; f < FRAMES; f++) a.update(1 / 60);
                featureUpdateMicroseconds[k] = Math.min(featureUpdateMicroseconds[k], ((performance.now() - t0) * 1000) / FRAMES);
            }
        }
        for (const a of Object.values(parts)) a.dispose();
        if (!updateSplit) notes.push("the animator's internals (_writer, _rootMotion) were not found: no time split");
        solo.stop();

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
            heapGrowthBytesPer100kFrames: heapGrowth * (100_000 / HEAP_FRAMES),
            heapMeasuredAfterGc: gc !== null,
            animatorHeapBytes: animatorHeap,
            allocatedBytesPerUpdate: allocatedPerUpdate,
            animatorAvatarTracksPerCharacter: retargeted.targetedAnimations.length,
            bakedTracksPerCharacter: baked.targetedAnimations.length,
            bakedFrameRate: bakeStats.frameRate,
            bakedVsLiveMaxJointDistanceMetres: bakedVsLive,
            oursNodesWrittenPerCharacter: writerOf(animators[0])?.jointCount ?? NaN,
            sharedAvatar,
            updateSplit,
            featureUpdateMicroseconds,
            notes,
        };
    } finally {
        scene.dispose();
        engine.dispose();
        Logger.Log = saved.log;
        Logger.Warn = saved.warn;
    }
}

/** The animator's internals the split needs (private: a benchmark may look, the library does not promise them). */
interface IAnimatorInternals {
    _writer?: HumanoidRigWriter;
    _rootMotion?: () => void;
}

function writerOf(animator: HumanoidAnimator): HumanoidRigWriter | null {
    return (animator as unknown as IAnimatorInternals)._writer ?? null;
}

/**
 * Times each step of {@link HumanoidAnimator.update} (as it runs them) on one playing animator,
 * then a whole update over as many frames. Null when the internals it needs are gone.
 */
function splitUpdate(animator: HumanoidAnimator, gc: (() => void) | null): IRuntimeUpdateSplit | null {
    const internals = animator as unknown as IAnimatorInternals;
    const writer = internals._writer;
    const rootMotion = internals._rootMotion;
    if (!writer || typeof writer.write !== "function" || typeof rootMotion !== "function") return null;
    const { player, solver, planting, avatar } = animator;
    const dt = 1 / 60;
    const t = new Float64Array(6);
    const plant = animator.footPlanting && (solver.positionWeights[0] > 0 || solver.positionWeights[1] > 0);
    for (let f = 0; f < SPLIT_FRAMES; f++) {
        const t0 = performance.now();
        player.update(dt);
        const t1 = performance.now();
        solver.decode(player.pose);
        const t2 = performance.now();
        if (plant) planting.update(player, solver, dt);
        else if (player.jumped) planting.reset();
        const t3 = performance.now();
        solver.solveIK();
        const t4 = performance.now();
        writer.write(solver.pose, avatar.rig);
        const t5 = performance.now();
        rootMotion.call(animator);
        player.clearJump();
        const t6 = performance.now();
        t[0] += t1 - t0;
        t[1] += t2 - t1;
        t[2] += t3 - t2;
        t[3] += t4 - t3;
        t[4] += t5 - t4;
        t[5] += t6 - t5;
    }
    const t0 = performance.now();
    for (let f = 0; f < SPLIT_FRAMES; f++) animator.update(dt);
    const whole = performance.now() - t0;
    const us = (ms: number): number => (ms * 1000) / SPLIT_FRAMES;
    const allocatedBytes = {
        sample: allocatedBytesPerCall(gc, () => player.update(dt)),
        decode: allocatedBytesPerCall(gc, () => solver.decode(player.pose)),
        planting: plant ? allocatedBytesPerCall(gc, () => planting.update(player, solver, dt)) : 0,
        ik: allocatedBytesPerCall(gc, () => solver.solveIK()),
        write: allocatedBytesPerCall(gc, () => writer.write(solver.pose, avatar.rig)),
        rootMotion: allocatedBytesPerCall(gc, () => rootMotion.call(animator)),
    };
    return {
        sampleMicroseconds: us(t[0]),
        decodeMicroseconds: us(t[1]),
        plantingMicroseconds: us(t[2]),
        ikMicroseconds: us(t[3]),
        writeMicroseconds: us(t[4]),
        rootMotionMicroseconds: us(t[5]),
        updateMicroseconds: us(whole),
        allocatedBytes,
    };
}
