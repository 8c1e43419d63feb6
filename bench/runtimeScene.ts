/**
 * The runtime benchmark's scene (bench/runtime.ts): its layout, its characters, and everything each
 * condition plays, set up and stopped: Babylon's retargeted groups, the baked groups of our clip,
 * our three sets of animators (defaults, foot IK off, everything on), the timing marks inside the
 * frame and the write floor. Also the layout bench/abCheckout.ts uses, so that its figures are
 * this scene's.
 */
import "@babylonjs/core/Animations/animatable.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { AnimatorAvatar } from "@babylonjs/core/Animations/animatorAvatar.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Node } from "@babylonjs/core/node.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import { readFileSync } from "node:fs";
import {
    BakeMuscleClipToAnimationGroup,
    BindRigToTransformNode,
    BuildHumanoidAvatar,
    CreateBakeStats,
    HumanBone,
    HumanIKGoal,
    HumanoidAnimator,
    RegisterHumanoidPlugin,
    type HumanoidAvatar,
    type HumanoidRigWriter,
    type IBakeStats,
    type IRigPose,
    type MuscleClip,
} from "../src/index.js";

/** Characters in the benchmark's scene. */
export const CHARACTERS = 50;
/** Frame time of both systems, milliseconds (Babylon's constant animation step). */
export const FRAME_MS = 16;
/** Characters stand on a grid this far apart, metres. */
const SPACING = 1.5;
const GRID_COLUMNS = 10;
/** A character's prefix on its nodes' names. */
const PREFIX = (i: number): string => `c${i}_`;
/** The live animators' settings (foot IK on, defaults otherwise), which the baked anchor is baked with too. */
export const LIVE_OPTIONS = { rootMotion: "in-place", footIK: true, handIK: false } as const;

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
export interface ICharacter {
    readonly root: TransformNode;
    readonly nodes: readonly TransformNode[];
    readonly avatar: HumanoidAvatar;
}

/** The animator's internals the floor and the split need (private: a benchmark may look, the library does not promise them). */
export interface IAnimatorInternals {
    /** What writes the rig pose onto the nodes. */
    _writer?: HumanoidRigWriter;
    /** Its root motion step (the delta and the observers), called on the animator. */
    _rootMotion?: () => void;
}

/**
 * The rig writer an animator writes its nodes with, or null when it is not found.
 * @param animator the animator
 */
export function GetAnimatorWriter(animator: HumanoidAnimator): HumanoidRigWriter | null {
    return (animator as unknown as IAnimatorInternals)._writer ?? null;
}

/** Everything the runtime benchmark's conditions play, in its scene (see {@link BuildRuntimeBenchSceneAsync}). */
export interface IRuntimeBenchScene {
    /** The scene they play in. */
    readonly scene: Scene;
    /** The X Bot's avatar, as loaded from its file (its joints' names find the probed nodes). */
    readonly avatar: HumanoidAvatar;
    /** The walk as a muscle clip: what our animators play and the bake was made from. */
    readonly clip: MuscleClip;
    /** The {@link CHARACTERS} characters, in grid order. */
    readonly characters: readonly ICharacter[];
    /** One avatar shared by every character (the characters' joints in the same order), else one each. */
    readonly sharedAvatar: boolean;
    /** Babylon's group retargeted by `AnimatorAvatar` onto character 0 (the first of {@link groups}). */
    readonly retargeted: AnimationGroup;
    /** Babylon's retargeted groups, one per character. */
    readonly groups: readonly AnimationGroup[];
    /** Our clip baked onto character 0 with {@link LIVE_OPTIONS} (the first of {@link bakedGroups}). */
    readonly baked: AnimationGroup;
    /** The baked groups, one per character. */
    readonly bakedGroups: readonly AnimationGroup[];
    /** What the bake reported. */
    readonly bakeStats: IBakeStats;
    /** Our animators with foot IK (defaults), one per character; attached only while timed. */
    readonly animators: readonly HumanoidAnimator[];
    /** Our animators with foot IK off. */
    readonly animatorsNoIK: readonly HumanoidAnimator[];
    /** Our animators with everything on: the full joint-limit set, world goals for both hands, look-at. */
    readonly animatorsAll: readonly HumanoidAnimator[];
    /** Times inside the last frame: before Babylon's animations, and around our plugin's observer (`performance.now()`). */
    readonly marks: { readonly beforeAnimations: number; readonly pluginStart: number; readonly pluginEnd: number };
    /** Turns the write floor on or off (each character's writer writing two stored poses in turn, every frame). */
    setFloor(on: boolean): void;
}

/**
 * Fills `scene` with the benchmark's characters and every condition's players, all stopped, laid
 * out by {@link ArrangeBenchScene}; anything odd on the way goes to `notes`.
 * @param scene the scene (its engine's delta time pinned to {@link FRAME_MS})
 * @param xbotFile the Mixamo X Bot file the characters are loaded from
 * @param avatar the X Bot's avatar, shared by characters whose joints are in its order
 * @param clip the walk as a muscle clip
 * @param clipName the walk's name in the file
 * @param notes where notes are added
 * @returns the characters and the conditions' players
 */
export async function BuildRuntimeBenchSceneAsync(
    scene: Scene,
    xbotFile: string,
    avatar: HumanoidAvatar,
    clip: MuscleClip,
    clipName: string,
    notes: string[],
): Promise<IRuntimeBenchScene> {
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
    const floorWriters = animators.map((a) => GetAnimatorWriter(a));
    let floorOn = false;
    let floorTurn = 0;
    scene.onBeforeAnimationsObservable.add(() => {
        if (!floorOn) return;
        floorTurn ^= 1;
        for (let i = 0; i < CHARACTERS; i++) floorWriters[i]?.write(floorPoses[i][floorTurn], characters[i].avatar.rig);
    });
    if (floorWriters.some((w) => !w)) notes.push("the animators' writers (_writer) were not found: no floor");

    return {
        scene,
        avatar,
        clip,
        characters,
        sharedAvatar,
        retargeted,
        groups,
        baked,
        bakedGroups,
        bakeStats,
        animators,
        animatorsNoIK,
        animatorsAll,
        marks,
        setFloor: (on) => {
            floorOn = on;
        },
    };
}
