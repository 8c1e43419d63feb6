/**
 * The studio's model: the source motions, the characters it plays on, the clock and the settings,
 * and the actions on them. No DOM here: the panels (panels/*.ts) read and drive it, and hear of
 * changes through its observables.
 */
import { Observable } from "@babylonjs/core/Misc/observable.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import type { LinesMesh } from "@babylonjs/core/Meshes/linesMesh.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    BvhPoseSource,
    ComputeRigWorldPose,
    ConvertAnimationGroupToMuscleClip,
    ConvertRigPosesToMuscleClip,
    CreateTransformNodesFromRig,
    HumanBone,
    HumanoidAnimator,
    HumanoidError,
    HumanPose,
    LoadHumanoidCharacterAsync,
    SampleCharacters,
    type HumanBoneMapJson,
    type HumanoidAvatar,
    type IBvhRig,
    type IHumanoidCharacter,
    type IRig,
    type IRigPose,
    type JointLimitBoneSet,
    type MuscleClip,
    type RootMotionMode,
} from "../src/index.js";
import { SampleWalkSource } from "../src/samples/sampleMotion.js";
import { SLOT, SLOT_FIGURE_HEIGHT, SlotWidth, type IStudioScene } from "./scene.js";
import { StickFigure } from "./stickFigure.js";
import { CreateLoadedRigSpace } from "./rigSpace.js";

/** A motion to play: a muscle clip and the skeleton it was made on. */
export interface ISource {
    name: string;
    clip: MuscleClip;
    /** A BVH file: its own poses are shown (not the clip). */
    bvh?: { rig: IBvhRig; poses: BvhPoseSource; pose: IRigPose };
    /** The skeleton the clip was made on (its own avatar). */
    avatar: HumanoidAvatar;
}

/** A character the source plays on. */
export interface ITarget {
    name: string;
    rig: IRig;
    nodes: readonly TransformNode[];
    root: TransformNode;
    declaredBoneMap?: ReadonlyMap<HumanBone, number>;
    overrides: HumanBoneMapJson;
    avatar: HumanoidAvatar;
    animator: HumanoidAnimator | null;
    figure: StickFigure;
    character?: IHumanoidCharacter;
    /** The bytes of the file it was loaded from (characters from files; the surface fit loads its own copy). */
    fileBytes?: Uint8Array;
    /** The node whose space is the rig's: the root made for a rig (samples), or for a loaded character a node under its root that undoes its load transform (rigSpace.ts). */
    rigSpace?: TransformNode;
    /** For loaded characters: the inverse of the root's world matrix when loaded (rig space is that world). */
    rootBindInverse: Matrix;
    /** Debug marks: [0] the centre of mass, [1..4] the goals (feet, then hands), [5], [6] the point each planted foot is held at. */
    debug: Mesh[];
    /** The body-orientation arrow. */
    facing?: LinesMesh;
    /** Where each foot was last frame (world), for its speed. */
    lastFeet: [Vector3, Vector3];
    /** Its slot: where its root stands across the view (x, metres) and how wide the slot is (`SlotWidth` of its height). */
    slotX: number;
    slotWidth: number;
    /** Its joints' height as loaded, metres (the highest less the lowest). */
    height: number;
    error: string;
}

/** The source shown on its own skeleton. */
export interface ISourceFigure {
    nodes: readonly TransformNode[];
    root: TransformNode;
    figure: StickFigure;
    animator: HumanoidAnimator | null;
}

/** What the settings panel controls. */
export interface IStudioSettings {
    footIK: boolean;
    handIK: boolean;
    stretch: number;
    planting: boolean;
    rootMotion: RootMotionMode;
    /** Which bones the characters' joint limits hold (the animator's `jointLimits` option; the IK panel sets it). */
    jointLimits: JointLimitBoneSet;
    twist: { upperArm: number; lowerArm: number; upperLeg: number; lowerLeg: number };
    show: { skeletons: boolean; body: boolean; goals: boolean };
}

type NewTarget = Omit<ITarget, "animator" | "figure" | "debug" | "error" | "rootBindInverse" | "lastFeet" | "slotX" | "slotWidth" | "height">;

/** The studio's state and actions. */
export class Studio {
    readonly sources: ISource[] = [];
    readonly targets: ITarget[] = [];
    source: ISource | null = null;
    sourceFigure: ISourceFigure | null = null;
    /** Clip time, seconds. */
    time = 0;
    playing = true;
    /** Loop the clip (the timeline's checkbox). */
    loop = true;
    /** The characters are posed from the muscle sliders, not the clip. */
    posingByMuscles = false;
    /** The pose the muscle sliders set. */
    readonly musclePose = new HumanPose();
    /** Muscle ranges changed in the muscle panel (degrees by muscle name). */
    readonly muscleRanges: Record<string, [number, number]> = {};
    readonly settings: IStudioSettings = {
        footIK: true,
        handIK: false,
        stretch: 0.05,
        planting: true,
        rootMotion: "in-place",
        jointLimits: "hinges",
        twist: { upperArm: 0.5, lowerArm: 0.5, upperLeg: 0.5, lowerLeg: 0.5 },
        show: { skeletons: true, body: true, goals: true },
    };
    /** A source was added (the argument); it is selected when `useSource` follows. */
    readonly onSourceAdded = new Observable<ISource>();
    /** The source shown and played changed. */
    readonly onSourceChanged = new Observable<ISource>();
    /** Characters were added, rebuilt or failed: lists and maps should be redrawn. */
    readonly onTargetsChanged = new Observable<void>();
    /** Playback started or stopped. */
    readonly onPlayingChanged = new Observable<boolean>();

    constructor(readonly view: IStudioScene) {}

    /** The sample walk, converted on the CMU-style sample: the source when nothing is loaded. */
    sampleSource(): ISource {
        const spec = SampleCharacters[SampleCharacters.length - 1];
        const avatar = BuildHumanoidAvatar(BuildSampleRig(spec));
        const clip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30), { name: "sample walk" });
        return { name: `sample walk (${spec.name})`, clip, avatar };
    }

    /** Tells the panels that the characters changed. */
    targetsChanged(): void {
        this.onTargetsChanged.notifyObservers();
    }

    private _avatarOptions(t: Pick<ITarget, "overrides" | "declaredBoneMap">): Parameters<typeof BuildHumanoidAvatar>[1] {
        return { boneMap: t.overrides, declaredBoneMap: t.declaredBoneMap, muscleRanges: this.muscleRanges, twist: this.settings.twist };
    }

    private _makeAnimator(avatar: HumanoidAvatar, nodes: readonly TransformNode[], root: TransformNode, rigSpace?: TransformNode): HumanoidAnimator {
        const s = this.settings;
        return new HumanoidAnimator(avatar, nodes, {
            rootMotion: s.rootMotion,
            rootNode: root,
            rigSpace,
            footIK: s.footIK,
            handIK: s.handIK,
            stretch: s.stretch,
            footPlanting: s.planting,
            jointLimits: s.jointLimits,
        });
    }

    /** Puts every animator on the current clip at the current time. */
    restartAll(): void {
        const source = this.source;
        if (!source) return;
        for (const t of this.targets) {
            if (!t.animator) continue;
            t.animator.play(source.clip, { loop: this.loop, startSeconds: this.time });
            t.animator.update(0);
        }
        const a = this.sourceFigure?.animator;
        if (a) {
            a.play(source.clip, { loop: this.loop, startSeconds: this.time });
            a.update(0);
        }
    }

    /** Builds a character's avatar again (bone map, ranges or twist changed); a failure is kept in `t.error`. */
    rebuildTarget(t: ITarget): void {
        try {
            t.avatar = BuildHumanoidAvatar(t.rig, this._avatarOptions(t));
            t.animator?.dispose();
            t.animator = this._makeAnimator(t.avatar, t.nodes, t.root, t.rigSpace);
            t.error = "";
        } catch (e) {
            t.error = e instanceof HumanoidError ? e.message : String(e);
        }
    }

    /** {@link rebuildTarget} on every character, then restarts them. */
    rebuildAll(): void {
        for (const t of this.targets) this.rebuildTarget(t);
        this.restartAll();
    }

    /** Adds a character to the right of the others, with its debug marks, and plays the source on it. */
    addTarget(t: NewTarget): ITarget {
        const { scene, camera, materials } = this.view;
        // Its size as loaded: its joints' height (the highest less the lowest), which sets its slot's width.
        let top = -Infinity;
        let bottom = Infinity;
        for (const n of t.nodes) {
            const y = n.getAbsolutePosition().y;
            if (y > top) top = y;
            if (y < bottom) bottom = y;
        }
        const height = top > bottom ? top - bottom : SLOT_FIGURE_HEIGHT;
        const slotWidth = SlotWidth(height);
        // Its slot: to the right of the last character's (the source's, SLOT wide at SLOT, for the first).
        const last = this.targets.at(-1);
        const slotX = (last ? last.slotX : SLOT) - ((last ? last.slotWidth : SLOT) + slotWidth) / 2;
        const target: ITarget = {
            ...t,
            lastFeet: [new Vector3(), new Vector3()],
            slotX,
            slotWidth,
            height,
            rootBindInverse: Matrix.Invert(t.root.computeWorldMatrix(true)),
            animator: null,
            figure: new StickFigure(`skeleton-${t.name}`, t.nodes, t.rig, new Color3(0.15, 0.35, 0.8), scene, t.avatar.getJoint(HumanBone.Hips)),
            debug: [],
            error: "",
        };
        // A loaded character's rig space: the world it was loaded in, carried by its root (made before the root moves).
        target.rigSpace ??= CreateLoadedRigSpace(target.root, `rig-space-${t.name}`);
        // Seen from the front, +X is on the screen's left: the source there, the characters to its right.
        target.root.position.x = slotX;
        target.animator = this._makeAnimator(target.avatar, target.nodes, target.root, target.rigSpace);
        // Debug marks: centre of mass, four goals (two feet, two hands), and the point each planted
        // foot is held at (the overlay puts it between the foot's ankle and toes).
        const size = 0.05;
        target.debug.push(CreateSphere(`com-${t.name}`, { diameter: size * 1.4 }, scene));
        target.debug[0].material = materials.com;
        for (let g = 0; g < 4; g++) {
            const s = CreateSphere(`goal-${t.name}-${g}`, { diameter: size }, scene);
            s.material = g < 2 ? materials.free : materials.goal;
            target.debug.push(s);
        }
        for (let side = 0; side < 2; side++) {
            const s = CreateSphere(`held-${t.name}-${side}`, { diameter: size * 0.6 }, scene);
            s.material = materials.held;
            target.debug.push(s);
        }
        for (const m of target.debug) m.renderingGroupId = 1;
        this.targets.push(target);
        // Frame everyone: the source on the left (+X seen from the front), the characters to its
        // right; far enough for the whole row and the tallest, looking at its middle height.
        const left = SLOT + SLOT / 2;
        const right = slotX - slotWidth / 2;
        const span = left - right;
        const tallest = Math.max(SLOT_FIGURE_HEIGHT, ...this.targets.map((x) => x.height));
        camera.target.x = (left + right) / 2;
        camera.target.y = Math.max(0.8, 0.45 * tallest);
        camera.radius = Math.max(5, 1.2 * span, 2.5 * tallest);
        this.restartAll();
        this.targetsChanged();
        return target;
    }

    /** Adds the built-in sample character `index` of {@link SampleCharacters}. */
    addSampleTarget(index: number): ITarget {
        const spec = SampleCharacters[index];
        const rig = BuildSampleRig(spec);
        const { root, nodes } = CreateTransformNodesFromRig(rig, this.view.scene, { prefix: `${spec.name}:` });
        return this.addTarget({
            name: spec.name,
            rig,
            nodes,
            root,
            rigSpace: root,
            overrides: {},
            avatar: BuildHumanoidAvatar(rig, { muscleRanges: this.muscleRanges, twist: this.settings.twist }),
        });
    }

    /** Loads a character file and adds it; its own clips become sources too (not where its feet were moved under its legs as it loaded). */
    async addFileTargetAsync(bytes: Uint8Array, fileName: string): Promise<ITarget> {
        const character = await LoadHumanoidCharacterAsync(bytes, fileName, this.view.scene, { muscleRanges: this.muscleRanges, twist: this.settings.twist });
        const root = character.container.meshes.find((m) => m.name === "__root__") ?? (character.container.rootNodes[0] as TransformNode);
        const t = this.addTarget({
            name: fileName,
            rig: character.binding.rig,
            nodes: character.binding.nodes,
            root: root as TransformNode,
            declaredBoneMap: character.declaredBoneMap,
            overrides: {},
            avatar: character.avatar,
            character,
            fileBytes: bytes,
        });
        for (const g of character.container.animationGroups) {
            g.stop();
            // Feet moved under the legs as the file loaded (an IK rig's layout): its own clips key
            // those feet from their old parents, so they are not offered as sources.
            if (character.attachedFeet.length) continue;
            this.addSource(
                {
                    name: `${g.name} (${fileName})`,
                    clip: ConvertAnimationGroupToMuscleClip(g, character.avatar, { source: fileName }),
                    avatar: character.avatar,
                },
                false,
            );
        }
        return t;
    }

    /** Adds a source to the list, and shows it when `select`. */
    addSource(s: ISource, select = true): void {
        this.sources.push(s);
        this.onSourceAdded.notifyObservers(s);
        if (select) this.useSource(s);
    }

    /** Shows a source on its own skeleton and plays it on every character. */
    useSource(s: ISource): void {
        const { scene } = this.view;
        this.source = s;
        const old = this.sourceFigure;
        if (old) {
            old.figure.dispose();
            old.animator?.dispose();
            old.root.dispose(false, true);
        }
        const rig = s.bvh ? s.bvh.rig.rig : s.avatar.rig;
        const { root, nodes } = CreateTransformNodesFromRig(rig, scene, { prefix: "SRC:" });
        root.position.x = SLOT;
        const animator = s.bvh ? null : new HumanoidAnimator(s.avatar, nodes, { rootMotion: "in-place", footIK: false, rigSpace: root });
        this.sourceFigure = {
            root,
            nodes,
            animator,
            figure: new StickFigure("skeleton-source", nodes, rig, new Color3(0.8, 0.3, 0.1), scene, s.avatar.getJoint(HumanBone.Hips)),
        };
        this.time = 0;
        this.posingByMuscles = false;
        this.loop = s.clip.loop;
        this.restartAll();
        this.onSourceChanged.notifyObservers(s);
        this.frameSource();
    }

    /** Poses the source figure at the current time (a BVH from its own poses, kept in place), after `dt` seconds. */
    frameSource(dt = 0): void {
        const source = this.source;
        const figure = this.sourceFigure;
        if (!source || !figure) return;
        const b = source.bvh;
        if (b) {
            // From where the clip starts in it (a T-pose frame 0 left out at conversion).
            b.poses.samplePoseToRef(Math.min(source.clip.sourceStartSeconds + this.time, b.poses.durationSeconds), b.pose);
            figure.nodes.forEach((n, j) => {
                n.position.copyFrom(b.pose.positions[j]);
                n.rotationQuaternion!.copyFrom(b.pose.rotations[j]);
            });
            // In place: keep the hips over the figure's spot.
            const hipsJoint = source.avatar.getJoint(HumanBone.Hips);
            const hips = ComputeRigWorldPose(b.rig.rig, b.pose).positions[hipsJoint];
            figure.root.position.set(SLOT - hips.x, 0, -hips.z);
        } else if (figure.animator) {
            if (dt > 0) figure.animator.update(dt);
        }
    }

    /** Moves the clock on by `dt` seconds (when playing), wrapping or stopping at the end, and every figure with it. */
    advance(dt: number): void {
        if (!this.source || !this.playing) return;
        const d = this.source.clip.durationSeconds;
        this.time += dt;
        if (this.time > d) this.time = this.loop && d > 0 ? this.time % d : d;
        for (const t of this.targets) t.animator?.update(dt);
        this.frameSource(dt);
    }

    /** Sends every figure to `t` seconds (clamped to the clip). */
    seek(t: number): void {
        this.time = Math.max(0, Math.min(t, this.source?.clip.durationSeconds ?? 0));
        for (const x of this.targets) {
            x.animator?.seek(this.time);
            x.animator?.update(0);
        }
        this.sourceFigure?.animator?.seek(this.time);
        this.sourceFigure?.animator?.update(0);
        this.frameSource();
    }

    /** Plays or pauses; playing again after posing by muscles goes back to the clip. */
    setPlaying(on: boolean): void {
        this.playing = on;
        if (on && this.posingByMuscles) {
            this.posingByMuscles = false;
            this.restartAll();
        }
        this.onPlayingChanged.notifyObservers(on);
    }

    /** Poses every character with {@link musclePose}, decoded with the current clip's source proportions (as it plays). */
    applyMuscles(): void {
        const proportions = this.source?.clip.proportions ?? null;
        for (const t of this.targets) t.animator?.applyPose(this.musclePose, proportions);
    }

    /** Applies the IK, planting and root-motion settings to the running animators. */
    liveSettings(): void {
        const s = this.settings;
        for (const t of this.targets) {
            const a = t.animator;
            if (!a) continue;
            const f = s.footIK ? 1 : 0;
            const h = s.handIK ? 1 : 0;
            a.solver.positionWeights.set([f, f, h, h]);
            a.solver.rotationWeights.set([f, f, h, h]);
            a.solver.stretch.fill(s.stretch);
            a.footPlanting = s.planting;
            a.player.rootMotion = s.rootMotion;
        }
    }
}
