/**
 * The retargeting studio: a source motion on its own skeleton beside the same motion retargeted
 * onto one or more characters, playing in sync, with the bone map, muscles, settings and debug
 * drawing at hand. Works with nothing loaded (built-in samples); drop files to use your own.
 */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { CreateLines, CreateLineSystem } from "@babylonjs/core/Meshes/Builders/linesBuilder.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import type { LinesMesh } from "@babylonjs/core/Meshes/linesMesh.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import type { Node as BabylonNode } from "@babylonjs/core/node.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import {
    BakeMuscleClipToAnimationGroup,
    BuildHumanoidAvatar,
    BuildSampleRig,
    BvhPoseSource,
    ComputeRigWorldPose,
    ConvertAnimationGroupToMuscleClip,
    ConvertBvhToMuscleClip,
    ConvertRigPosesToMuscleClip,
    CreateRigFromBvh,
    CreateTransformNodesFromRig,
    GetHumanBodyPart,
    GetRigJointLabel,
    GetRigRestPose,
    HumanBodyPart,
    HumanBone,
    HumanBoneNames,
    HumanBoneRequired,
    HumanoidAnimator,
    HumanoidError,
    HumanPose,
    HUMAN_BONE_COUNT,
    LoadHumanoidCharacterAsync,
    Muscles,
    MuscleSetup,
    ParseBvh,
    ParseHumanBoneMap,
    ParseMuscleClip,
    RigJointKind,
    SampleCharacters,
    SerializeMuscleClipToJson,
    SetGltfExportNodeNames,
    type HumanBoneMapJson,
    type HumanoidAvatar,
    type IBvhRig,
    type IHumanoidCharacter,
    type IRig,
    type IRigPose,
    type MuscleClip,
    type RootMotionMode,
} from "../src/index.js";
import { SampleWalkSource } from "../src/samples/sampleMotion.js";

declare global {
    interface Window {
        __ready?: boolean;
        __studio?: unknown;
    }
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

registerBuiltInLoaders();
const canvas = $<HTMLCanvasElement>("canvas");
const engine = new Engine(canvas, true, { preserveDrawingBuffer: true });
const scene = new Scene(engine);
scene.clearColor = new Color4(0.95, 0.96, 0.98, 1);
const camera = new ArcRotateCamera("camera", Math.PI / 2, Math.PI / 2.4, 5, new Vector3(0, 0.8, 0), scene);
camera.attachControl(canvas, true);
camera.wheelPrecision = 60;
camera.minZ = 0.05;
new HemisphericLight("light", new Vector3(0.2, 1, 0.4), scene);
const ground = CreateGround("ground", { width: 14, height: 8 }, scene);
const groundMat = new StandardMaterial("ground", scene);
groundMat.diffuseColor = new Color3(0.86, 0.87, 0.89);
groundMat.specularColor = Color3.Black();
ground.material = groundMat;

function material(name: string, color: Color3): StandardMaterial {
    const m = new StandardMaterial(name, scene);
    m.diffuseColor = color;
    m.emissiveColor = color.scale(0.4);
    return m;
}
const MATS = {
    com: material("com", new Color3(0.95, 0.7, 0.1)),
    goal: material("goal", new Color3(0.6, 0.2, 0.8)),
    planted: material("planted", new Color3(0.1, 0.7, 0.2)),
    free: material("free", new Color3(0.75, 0.75, 0.75)),
    sliding: material("sliding", new Color3(0.9, 0.1, 0.1)),
};

// ---------------------------------------------------------------------------------------------
// Stick figures: a skeleton drawn as lines from its nodes' world positions.

class StickFigure {
    private readonly _pairs: [number, number][] = [];
    private readonly _lines: Vector3[][] = [];
    private _mesh: LinesMesh | null = null;
    constructor(
        private readonly _name: string,
        private readonly _nodes: readonly TransformNode[],
        rig: IRig,
        private readonly _color: Color3,
    ) {
        rig.joints.forEach((j, i) => {
            if (j.parent >= 0 && j.kind !== RigJointKind.Node && rig.joints[j.parent].kind !== RigJointKind.Node) this._pairs.push([j.parent, i]);
        });
        for (let k = 0; k < this._pairs.length; k++) this._lines.push([new Vector3(), new Vector3()]);
    }
    update(visible: boolean): void {
        if (!visible) {
            if (this._mesh) this._mesh.isVisible = false;
            return;
        }
        this._pairs.forEach(([a, b], k) => {
            this._lines[k][0].copyFrom(this._nodes[a].getAbsolutePosition());
            this._lines[k][1].copyFrom(this._nodes[b].getAbsolutePosition());
        });
        if (!this._mesh) {
            this._mesh = CreateLineSystem(this._name, { lines: this._lines, updatable: true }, scene);
            this._mesh.color = this._color;
            this._mesh.renderingGroupId = 1;
        } else {
            CreateLineSystem(this._name, { lines: this._lines, instance: this._mesh }, scene);
        }
        this._mesh.isVisible = true;
    }
    dispose(): void {
        this._mesh?.dispose();
    }
}

// ---------------------------------------------------------------------------------------------
// Source and targets.

interface ISource {
    name: string;
    clip: MuscleClip;
    /** A BVH file: its own poses are shown (not the clip). */
    bvh?: { rig: IBvhRig; poses: BvhPoseSource; pose: IRigPose };
    /** The skeleton the clip was made on (its own avatar). */
    avatar: HumanoidAvatar;
}

interface ITarget {
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
    /** The root made for a rig (samples): the rig's space. */
    rigSpace?: TransformNode;
    /** For loaded characters: the inverse of the root's world matrix when loaded (rig space is that world). */
    rootBindInverse: Matrix;
    debug: Mesh[];
    /** The body-orientation arrow. */
    facing?: LinesMesh;
    /** Where each foot was last frame (world), for its speed. */
    lastFeet: [Vector3, Vector3];
    error: string;
}

const sources: ISource[] = [];
const targets: ITarget[] = [];
let source: ISource | null = null;
let sourceFigure: { nodes: readonly TransformNode[]; root: TransformNode; figure: StickFigure; animator: HumanoidAnimator | null } | null = null;
let time = 0;
let playing = true;
let posingByMuscles = false;
const musclePose = new HumanPose();
const muscleRanges: Record<string, [number, number]> = {};
const settings = {
    footIK: true,
    handIK: false,
    stretch: 0.05,
    planting: true,
    rootMotion: "in-place" as RootMotionMode,
    twist: { upperArm: 0.5, lowerArm: 0.5, upperLeg: 0.5, lowerLeg: 0.5 },
    show: { skeletons: true, body: true, goals: true },
};
const SLOT = 1.4;

function status(text: string, isError = false): void {
    const el = $("status");
    el.textContent = text;
    el.className = isError ? "error" : "";
}

/** The sample walk, converted on the CMU-style sample: the source when nothing is loaded. */
function sampleSource(): ISource {
    const spec = SampleCharacters[SampleCharacters.length - 1];
    const avatar = BuildHumanoidAvatar(BuildSampleRig(spec));
    const clip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30), { name: "sample walk" });
    return { name: `sample walk (${spec.name})`, clip, avatar };
}

function avatarOptions(t: Pick<ITarget, "overrides" | "declaredBoneMap">): Parameters<typeof BuildHumanoidAvatar>[1] {
    return { boneMap: t.overrides, declaredBoneMap: t.declaredBoneMap, muscleRanges, twist: settings.twist };
}

function makeAnimator(avatar: HumanoidAvatar, nodes: readonly TransformNode[], root: TransformNode, rigSpace?: TransformNode): HumanoidAnimator {
    const a = new HumanoidAnimator(avatar, nodes, {
        rootMotion: settings.rootMotion,
        rootNode: root,
        rigSpace,
        footIK: settings.footIK,
        handIK: settings.handIK,
        stretch: settings.stretch,
        footPlanting: settings.planting,
    });
    return a;
}

/** Puts every animator on the current clip at the current time. */
function restartAll(): void {
    if (!source) return;
    const loop = $<HTMLInputElement>("loop").checked;
    for (const t of targets) {
        if (!t.animator) continue;
        t.animator.play(source.clip, { loop, startSeconds: time });
        t.animator.update(0);
    }
    if (sourceFigure?.animator) {
        sourceFigure.animator.play(source.clip, { loop, startSeconds: time });
        sourceFigure.animator.update(0);
    }
}

function rebuildTarget(t: ITarget): void {
    try {
        t.avatar = BuildHumanoidAvatar(t.rig, avatarOptions(t));
        t.animator?.dispose();
        t.animator = makeAnimator(t.avatar, t.nodes, t.root, t.rigSpace);
        t.error = "";
    } catch (e) {
        t.error = e instanceof HumanoidError ? e.message : String(e);
    }
}

function addTarget(t: Omit<ITarget, "animator" | "figure" | "debug" | "error" | "rootBindInverse" | "lastFeet">): ITarget {
    const target: ITarget = {
        ...t,
        lastFeet: [new Vector3(), new Vector3()],
        rootBindInverse: Matrix.Invert(t.root.computeWorldMatrix(true)),
        animator: null,
        figure: new StickFigure(`skeleton-${t.name}`, t.nodes, t.rig, new Color3(0.15, 0.35, 0.8)),
        debug: [],
        error: "",
    };
    // Seen from the front, +X is on the screen's left: the source there, the characters to its right.
    target.root.position.x = -targets.length * SLOT;
    target.animator = makeAnimator(target.avatar, target.nodes, target.root, target.rigSpace);
    // Debug marks: centre of mass, four goals, two feet.
    const size = 0.05;
    target.debug.push(CreateSphere(`com-${t.name}`, { diameter: size * 1.4 }, scene));
    target.debug[0].material = MATS.com;
    for (let g = 0; g < 4; g++) {
        const s = CreateSphere(`goal-${t.name}-${g}`, { diameter: size }, scene);
        s.material = g < 2 ? MATS.free : MATS.goal;
        target.debug.push(s);
    }
    for (const m of target.debug) m.renderingGroupId = 1;
    targets.push(target);
    // Frame everyone: the source on the left (+X seen from the front), the characters to its right.
    camera.target.x = (SLOT - (targets.length - 1) * SLOT) / 2;
    camera.radius = Math.max(5, 1.7 * (targets.length + 1));
    restartAll();
    refreshPanels();
    return target;
}

function addSampleTarget(index: number): ITarget {
    const spec = SampleCharacters[index];
    const rig = BuildSampleRig(spec);
    const { root, nodes } = CreateTransformNodesFromRig(rig, scene, { prefix: `${spec.name}:` });
    return addTarget({
        name: spec.name,
        rig,
        nodes,
        root,
        rigSpace: root,
        overrides: {},
        avatar: BuildHumanoidAvatar(rig, { muscleRanges, twist: settings.twist }),
    });
}

async function addFileTarget(bytes: Uint8Array, fileName: string): Promise<void> {
    const character = await LoadHumanoidCharacterAsync(bytes, fileName, scene, { muscleRanges, twist: settings.twist });
    const root = character.container.meshes.find((m) => m.name === "__root__") ?? (character.container.rootNodes[0] as TransformNode);
    const t = addTarget({
        name: fileName,
        rig: character.binding.rig,
        nodes: character.binding.nodes,
        root: root as TransformNode,
        declaredBoneMap: character.declaredBoneMap,
        overrides: {},
        avatar: character.avatar,
        character,
    });
    // Its own clips become sources too.
    for (const g of character.container.animationGroups) {
        g.stop();
        addSource(
            { name: `${g.name} (${fileName})`, clip: ConvertAnimationGroupToMuscleClip(g, character.avatar, { source: fileName }), avatar: character.avatar },
            false,
        );
    }
    status(`${fileName}: ${t.avatar.warnings.length ? t.avatar.warnings.join("; ") : "mapped"}`);
}

function addSource(s: ISource, select = true): void {
    sources.push(s);
    const opt = new Option(s.name, String(sources.length - 1));
    $<HTMLSelectElement>("source").add(opt);
    if (select) {
        $<HTMLSelectElement>("source").value = opt.value;
        useSource(s);
    }
}

/** Shows a source on its own skeleton and plays it on every target. */
function useSource(s: ISource): void {
    source = s;
    if (sourceFigure) {
        sourceFigure.figure.dispose();
        sourceFigure.animator?.dispose();
        sourceFigure.root.dispose(false, true);
    }
    const rig = s.bvh ? s.bvh.rig.rig : s.avatar.rig;
    const { root, nodes } = CreateTransformNodesFromRig(rig, scene, { prefix: "SRC:" });
    root.position.x = SLOT;
    const animator = s.bvh ? null : new HumanoidAnimator(s.avatar, nodes, { rootMotion: "in-place", footIK: false, rigSpace: root });
    sourceFigure = { root, nodes, animator, figure: new StickFigure("skeleton-source", nodes, rig, new Color3(0.8, 0.3, 0.1)) };
    time = 0;
    posingByMuscles = false;
    $<HTMLInputElement>("time").max = String(Math.max(0.001, s.clip.durationSeconds));
    $<HTMLInputElement>("loop").checked = s.clip.loop;
    restartAll();
    $("source-info").textContent =
        `${s.clip.frameCount} frames at ${Number(s.clip.frameRate.toFixed(2))} fps, ${s.clip.durationSeconds.toFixed(2)} s${s.clip.warnings.length ? `; ${s.clip.warnings.join("; ")}` : ""}`;
    frameSource();
}

/** Poses the source figure at the current time. */
function frameSource(dt = 0): void {
    if (!source || !sourceFigure) return;
    const b = source.bvh;
    if (b) {
        b.poses.samplePoseToRef(Math.min(time, b.poses.durationSeconds), b.pose);
        sourceFigure.nodes.forEach((n, j) => {
            n.position.copyFrom(b.pose.positions[j]);
            n.rotationQuaternion!.copyFrom(b.pose.rotations[j]);
        });
        // In place: keep the hips over the figure's spot.
        const hipsJoint = source.avatar.getJoint(HumanBone.Hips);
        const hips = ComputeRigWorldPose(b.rig.rig, b.pose).positions[hipsJoint];
        sourceFigure.root.position.set(SLOT - hips.x, 0, -hips.z);
    } else if (sourceFigure.animator) {
        if (dt > 0) sourceFigure.animator.update(dt);
    }
}

// ---------------------------------------------------------------------------------------------
// Files.

async function openFile(file: File): Promise<void> {
    const name = file.name;
    const lower = name.toLowerCase();
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
        if (lower.endsWith(".bvh")) {
            const bvh = CreateRigFromBvh(ParseBvh(new TextDecoder().decode(bytes), name));
            const avatar = BuildHumanoidAvatar(bvh.rig);
            const clip = ConvertBvhToMuscleClip(bvh, avatar);
            addSource({ name, clip, avatar, bvh: { rig: bvh, poses: new BvhPoseSource(bvh), pose: GetRigRestPose(bvh.rig) } });
            status(`${name}: ${clip.frameCount} frames converted to a muscle clip, playing on ${targets.length} character(s)`);
        } else if (lower.endsWith(".json") || lower.endsWith(".bin")) {
            const clip = ParseMuscleClip(bytes, name);
            addSource({ name, clip, avatar: sampleSource().avatar });
            status(`${name}: muscle clip, ${clip.frameCount} frames`);
        } else if (lower.endsWith(".vrma")) {
            const character = await LoadHumanoidCharacterAsync(bytes, name.replace(/\.vrma$/i, ".glb"), scene);
            for (const g of character.container.animationGroups) {
                g.stop();
                addSource({
                    name: `${g.name} (${name})`,
                    clip: ConvertAnimationGroupToMuscleClip(g, character.avatar, { source: name }),
                    avatar: character.avatar,
                });
            }
            character.container.removeAllFromScene();
        } else if (lower.endsWith(".glb") || lower.endsWith(".gltf") || lower.endsWith(".vrm")) {
            await addFileTarget(bytes, name);
        } else {
            throw new HumanoidError("UNSUPPORTED_FORMAT", `${name}: use .glb, .gltf, .vrm, .vrma, .bvh, .muscle.json or .muscle.bin`);
        }
    } catch (e) {
        status(e instanceof HumanoidError ? e.message : `${name}: ${(e as Error).message}`, true);
    }
    refreshPanels();
}

async function openFiles(files: Iterable<File>): Promise<void> {
    for (const f of files) await openFile(f);
}

$<HTMLInputElement>("file-input").addEventListener("change", (e) => {
    const input = e.target as HTMLInputElement;
    if (input.files) void openFiles([...input.files]).then(() => (input.value = ""));
});
document.addEventListener("dragover", (e) => {
    e.preventDefault();
    document.body.classList.add("dragging");
});
document.addEventListener("dragleave", (e) => {
    if (!e.relatedTarget) document.body.classList.remove("dragging");
});
document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dragging");
    if (e.dataTransfer?.files.length) void openFiles([...e.dataTransfer.files]);
});

// ---------------------------------------------------------------------------------------------
// Panels.

function refreshTargetsList(): void {
    $("targets").textContent = `Characters: ${targets.map((t) => t.name + (t.error ? " (error)" : "")).join(", ") || "none"}`;
    const sel = $<HTMLSelectElement>("map-target");
    const keep = sel.value;
    sel.innerHTML = "";
    targets.forEach((t, i) => sel.add(new Option(t.name, String(i))));
    sel.value = keep && Number(keep) < targets.length ? keep : "0";
}

function refreshMap(): void {
    const t = targets[Number($<HTMLSelectElement>("map-target").value)];
    const table = $<HTMLTableElement>("map");
    table.innerHTML = "";
    $("map-error").textContent = t?.error ?? "";
    if (!t) return;
    const labels = t.rig.joints.map((j, i) => (j.kind === RigJointKind.Bone ? GetRigJointLabel(t.rig, i) : null)).filter((l): l is string => l !== null);
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const row = table.insertRow();
        const mapped = t.avatar.getJointLabel(b);
        row.className = !mapped && HumanBoneRequired[b] ? "missing" : t.avatar.doubtful.has(b) ? "doubt" : "";
        const c0 = row.insertCell();
        c0.className = "bone";
        c0.textContent = HumanBoneNames[b];
        if (t.avatar.doubtful.has(b)) c0.title = t.avatar.doubtful.get(b)!;
        const sel = document.createElement("select");
        sel.dataset.bone = HumanBoneNames[b];
        sel.setAttribute("aria-label", `joint of ${HumanBoneNames[b]}`);
        sel.add(new Option("(none)", ""));
        for (const l of labels) sel.add(new Option(l, l));
        sel.value = mapped ?? "";
        sel.addEventListener("change", () => {
            t.overrides = { ...t.overrides, [HumanBoneNames[b]]: sel.value || null };
            rebuildTarget(t);
            restartAll();
            refreshPanels();
        });
        row.insertCell().appendChild(sel);
    }
}

const sliders: HTMLInputElement[] = [];
function buildMusclePanel(): void {
    const box = $("muscles");
    const groups = new Map<HumanBodyPart, number[]>();
    Muscles.forEach((m, i) => {
        const part = GetHumanBodyPart(m.bone);
        if (!groups.has(part)) groups.set(part, []);
        groups.get(part)!.push(i);
    });
    for (const [part, list] of groups) {
        const h = document.createElement("div");
        h.className = "group";
        h.textContent = HumanBodyPart[part].replace(/([a-z])([A-Z])/g, "$1 $2");
        box.appendChild(h);
        for (const i of list) {
            const m = Muscles[i];
            const row = document.createElement("div");
            row.className = "muscle";
            const label = document.createElement("label");
            const id = `muscle-${i}`;
            label.htmlFor = id;
            const name = document.createElement("span");
            name.textContent = m.name;
            const value = document.createElement("output");
            value.textContent = "0";
            label.append(name, value);
            const slider = document.createElement("input");
            slider.type = "range";
            slider.id = id;
            slider.min = "-1";
            slider.max = "1";
            slider.step = "0.01";
            slider.value = "0";
            slider.dataset.muscle = m.name;
            const range = (which: 0 | 1): HTMLInputElement => {
                const n = document.createElement("input");
                n.type = "number";
                n.step = "1";
                n.value = String(which === 0 ? m.minDeg : m.maxDeg);
                n.title = which === 0 ? "degrees at -1" : "degrees at +1";
                n.setAttribute("aria-label", `${m.name} ${which === 0 ? "minimum" : "maximum"} degrees`);
                n.dataset.range = `${m.name}:${which}`;
                n.addEventListener("change", () => {
                    const lo = Number((row.querySelector('[data-range$=":0"]') as HTMLInputElement).value);
                    const hi = Number((row.querySelector('[data-range$=":1"]') as HTMLInputElement).value);
                    if (lo < 0 && hi > 0) {
                        muscleRanges[m.name] = [lo, hi];
                        for (const t of targets) rebuildTarget(t);
                        restartAll();
                        if (posingByMuscles) applyMuscles();
                        refreshPanels();
                    } else status(`${m.name}: the range must go below and above 0 degrees`, true);
                });
                return n;
            };
            slider.addEventListener("input", () => {
                if (!posingByMuscles) startPosing();
                musclePose.values[i] = Number(slider.value);
                value.textContent = `${Number(slider.value).toFixed(2)}`;
                applyMuscles();
            });
            row.append(label, slider, range(0), range(1));
            box.appendChild(row);
            sliders[i] = slider;
        }
    }
}

/** Pauses and poses every character from the sliders, starting from the pose shown now. */
function startPosing(): void {
    setPlaying(false);
    posingByMuscles = true;
    const from = targets[0]?.animator?.player.pose;
    if (from) musclePose.copyFrom(from);
    musclePose.bodyPosition.set(0, musclePose.bodyPosition.y, 0);
    sliders.forEach((s, i) => {
        s.value = String(musclePose.values[i]);
        (s.previousElementSibling!.lastChild as HTMLOutputElement).textContent = musclePose.values[i].toFixed(2);
    });
}

function applyMuscles(): void {
    for (const t of targets) t.animator?.applyPose(musclePose);
}

$("muscles-reset").addEventListener("click", () => {
    if (!posingByMuscles) startPosing();
    musclePose.values.fill(0);
    musclePose.bodyRotation.set(0, 0, 0, 1);
    musclePose.bodyPosition.set(0, 1, 0);
    sliders.forEach((s) => {
        s.value = "0";
        (s.previousElementSibling!.lastChild as HTMLOutputElement).textContent = "0.00";
    });
    applyMuscles();
});
$("muscles-ranges-reset").addEventListener("click", () => {
    for (const k of Object.keys(muscleRanges)) delete muscleRanges[k];
    document.querySelectorAll<HTMLInputElement>("[data-range]").forEach((n) => {
        const [name, which] = n.dataset.range!.split(":");
        const m = Muscles.find((x) => x.name === name)!;
        n.value = String(which === "0" ? m.minDeg : m.maxDeg);
    });
    for (const t of targets) rebuildTarget(t);
    restartAll();
    if (posingByMuscles) applyMuscles();
});

function refreshPanels(): void {
    refreshTargetsList();
    refreshMap();
}

$<HTMLSelectElement>("map-target").addEventListener("change", refreshMap);
$("map-save").addEventListener("click", () => {
    const t = targets[Number($<HTMLSelectElement>("map-target").value)];
    if (t) download(`${t.name.replace(/\.[^.]+$/, "")}.bonemap.json`, t.avatar.serializeBoneMap(), "application/json");
});
$<HTMLInputElement>("map-load").addEventListener("change", async (e) => {
    const input = e.target as HTMLInputElement;
    const t = targets[Number($<HTMLSelectElement>("map-target").value)];
    const file = input.files?.[0];
    if (!t || !file) return;
    try {
        t.overrides = ParseHumanBoneMap(await file.text(), file.name);
        rebuildTarget(t);
        restartAll();
    } catch (err) {
        t.error = (err as Error).message;
    }
    input.value = "";
    refreshPanels();
});

$<HTMLSelectElement>("source").addEventListener("change", (e) => useSource(sources[Number((e.target as HTMLSelectElement).value)]));
const addSample = $<HTMLSelectElement>("add-sample");
SampleCharacters.forEach((s, i) => addSample.add(new Option(s.name, String(i))));
addSample.addEventListener("change", () => {
    if (addSample.value !== "") addSampleTarget(Number(addSample.value));
    addSample.value = "";
});

// Settings: live.
function liveSettings(): void {
    for (const t of targets) {
        const a = t.animator;
        if (!a) continue;
        const f = settings.footIK ? 1 : 0;
        const h = settings.handIK ? 1 : 0;
        a.solver.positionWeights.set([f, f, h, h]);
        a.solver.rotationWeights.set([f, f, h, h]);
        a.solver.stretch.fill(settings.stretch);
        a.footPlanting = settings.planting;
        a.player.rootMotion = settings.rootMotion;
    }
}
$<HTMLInputElement>("foot-ik").addEventListener("change", (e) => ((settings.footIK = (e.target as HTMLInputElement).checked), liveSettings()));
$<HTMLInputElement>("hand-ik").addEventListener("change", (e) => ((settings.handIK = (e.target as HTMLInputElement).checked), liveSettings()));
$<HTMLInputElement>("planting").addEventListener("change", (e) => ((settings.planting = (e.target as HTMLInputElement).checked), liveSettings()));
$<HTMLInputElement>("stretch").addEventListener("input", (e) => {
    settings.stretch = Number((e.target as HTMLInputElement).value);
    $("stretch-value").textContent = `${Math.round(settings.stretch * 100)}%`;
    liveSettings();
});
$<HTMLSelectElement>("root-motion").addEventListener("change", (e) => {
    settings.rootMotion = (e.target as HTMLSelectElement).value as RootMotionMode;
    for (const t of targets) t.root.position.set(-targets.indexOf(t) * SLOT, 0, 0);
    for (const t of targets) rebuildTarget(t);
    restartAll();
});
for (const k of ["upperArm", "lowerArm", "upperLeg", "lowerLeg"] as const) {
    $<HTMLInputElement>(`twist-${k}`).addEventListener("change", (e) => {
        settings.twist = { ...settings.twist, [k]: Number((e.target as HTMLInputElement).value) };
        for (const t of targets) rebuildTarget(t);
        restartAll();
    });
}
for (const k of ["skeletons", "body", "goals"] as const) {
    $<HTMLInputElement>(`show-${k}`).addEventListener("change", (e) => (settings.show[k] = (e.target as HTMLInputElement).checked));
}

// Timeline.
function setPlaying(on: boolean): void {
    playing = on;
    $("play").textContent = on ? "Pause" : "Play";
    if (on && posingByMuscles) {
        posingByMuscles = false;
        restartAll();
    }
}
$("play").addEventListener("click", () => setPlaying(!playing));
$<HTMLInputElement>("time").addEventListener("input", (e) => {
    setPlaying(false);
    posingByMuscles = false;
    seek(Number((e.target as HTMLInputElement).value));
});
$<HTMLInputElement>("loop").addEventListener("change", () => restartAll());

function seek(t: number): void {
    time = Math.max(0, Math.min(t, source?.clip.durationSeconds ?? 0));
    for (const x of targets) {
        x.animator?.seek(time);
        x.animator?.update(0);
    }
    sourceFigure?.animator?.seek(time);
    sourceFigure?.animator?.update(0);
    frameSource();
}

document.addEventListener("keydown", (e) => {
    const tag = (e.target as HTMLElement).tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.key === " ") {
        e.preventDefault();
        setPlaying(!playing);
    } else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        setPlaying(false);
        seek(time + (e.key === "ArrowRight" ? 1 : -1) / (source?.clip.frameRate ?? 30));
    } else if (e.key === "Home") {
        seek(0);
    }
});

// Export.
function download(name: string, data: BlobPart, type: string): void {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([data], { type }));
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
$("export-clip").addEventListener("click", () => {
    if (source) download(`${source.clip.name.replace(/[^\w.-]+/g, "_")}.muscle.json`, SerializeMuscleClipToJson(source.clip), "application/json");
});
$("export-glb").addEventListener("click", async () => {
    const t = targets[0];
    if (!t || !source) return;
    try {
        const group = BakeMuscleClipToAnimationGroup(source.clip, t.avatar, {
            targets: t.nodes,
            rigSpace: t.rigSpace,
            scene,
            footIK: settings.footIK,
            handIK: settings.handIK,
            stretch: settings.stretch,
            rootMotion: settings.rootMotion === "apply" ? "clip" : settings.rootMotion === "delta" ? "in-place" : settings.rootMotion,
        });
        const { GLTF2Export } = await import("@babylonjs/serializers/glTF/2.0/index.js");
        const keep = new Set<BabylonNode>([t.root, ...t.root.getChildren(undefined, false)]);
        // Every node under a name of its own (`node<N>` for an unnamed node N of the character file), put back after.
        const restoreNames = SetGltfExportNodeNames(keep, t.character?.gltf);
        const data = await GLTF2Export.GLBAsync(scene, "retargeted", {
            exportWithoutWaitingForScene: true,
            shouldExportNode: (n) => keep.has(n),
            shouldExportAnimation: (a) => group.targetedAnimations.some((ta) => ta.animation === a),
        }).finally(restoreNames);
        group.dispose();
        const blob = Object.values(data.files)[0] as Blob;
        download(`${source.clip.name.replace(/[^\w.-]+/g, "_")}-on-${t.name.replace(/\.[^.]+$/, "")}.glb`, blob, "model/gltf-binary");
        restartAll();
        status("GLB written");
    } catch (e) {
        status(`Export failed: ${(e as Error).message}`, true);
    }
});
$("inspector").addEventListener("click", async () => {
    const { ShowInspector } = await import("@babylonjs/inspector");
    ShowInspector(scene);
});

// ---------------------------------------------------------------------------------------------
// Frame loop: time, source, targets, drawing, labels.

const labelBox = $("labels");
const tmp = new Vector3();
const q = new Quaternion();
function label(key: string, text: string, at: Vector3): void {
    let el = labelBox.querySelector<HTMLDivElement>(`[data-key="${CSS.escape(key)}"]`);
    if (!el) {
        el = document.createElement("div");
        el.dataset.key = key;
        labelBox.appendChild(el);
    }
    el.textContent = text;
    const p = Vector3.Project(
        at,
        Matrix.IdentityReadOnly,
        scene.getTransformMatrix(),
        camera.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight()),
    );
    const scale = canvas.clientWidth / Math.max(1, engine.getRenderWidth());
    el.style.left = `${p.x * scale}px`;
    el.style.top = `${p.y * scale}px`;
}
/** Rig space to world: the rig's own node (samples), or the world the character was loaded in, moved with its root. */
function rigToWorld(t: ITarget): Matrix {
    return t.rigSpace ? t.rigSpace.getWorldMatrix() : t.rootBindInverse.multiply(t.root.getWorldMatrix());
}

function topOf(nodes: readonly TransformNode[]): Vector3 {
    let best = nodes[0].getAbsolutePosition();
    for (const n of nodes) if (n.getAbsolutePosition().y > best.y) best = n.getAbsolutePosition();
    return best.add(new Vector3(0, 0.15, 0));
}

scene.onBeforeRenderObservable.add(() => {
    if (!source) return;
    const dt = playing ? (engine.getDeltaTime() / 1000) * Number($<HTMLSelectElement>("speed").value) : 0;
    if (playing) {
        const d = source.clip.durationSeconds;
        const loop = $<HTMLInputElement>("loop").checked;
        time += dt;
        if (time > d) time = loop && d > 0 ? time % d : d;
        for (const t of targets) t.animator?.update(dt);
        frameSource(dt);
        $<HTMLInputElement>("time").value = String(time);
    }
    $("time-value").textContent = `${time.toFixed(2)} s`;
});
scene.onAfterRenderObservable.add(() => {
    for (const n of scene.transformNodes) n.computeWorldMatrix();
    if (sourceFigure) {
        sourceFigure.figure.update(settings.show.skeletons || !!source?.bvh);
        label("source", `source: ${source?.name ?? ""}`, topOf(sourceFigure.nodes));
    }
    for (const t of targets) {
        t.figure.update(settings.show.skeletons);
        label(`t-${t.name}`, t.name, topOf(t.nodes));
        const a = t.animator;
        const setup = a ? MuscleSetup.For(t.avatar) : null;
        t.debug.forEach((m, k) => {
            m.isVisible = !!a && (k === 0 ? settings.show.body : settings.show.goals);
            if (!a || !setup) return;
            if (k === 0) {
                // Centre of mass: the pose's body position on the character (rig space), then the world.
                a.player.pose.bodyPosition.scaleToRef(setup.scale, tmp).applyRotationQuaternionInPlace(setup.c0).addInPlace(setup.groundOrigin);
                m.position.copyFrom(Vector3.TransformCoordinates(tmp, rigToWorld(t)));
                // Body orientation: an arrow along the body's forward (canonical +Z turned by the body rotation).
                const fwd = new Vector3(0, 0, 0.35).applyRotationQuaternion(a.player.pose.bodyRotation).applyRotationQuaternion(setup.c0);
                const tip = Vector3.TransformCoordinates(tmp.add(fwd.scale(setup.scale / 1.7)), rigToWorld(t));
                t.facing = CreateLines(`facing-${t.name}`, { points: [m.position.clone(), tip], instance: t.facing ?? undefined, updatable: true }, scene);
                t.facing.color = new Color3(0.95, 0.6, 0.05);
                t.facing.renderingGroupId = 1;
                t.facing.isVisible = settings.show.body;
            } else {
                // The clip's goal, scaled to the character (where IK aims when it is on).
                a.solver.goalToRig(k - 1, tmp, q);
                m.position.copyFrom(Vector3.TransformCoordinates(tmp, rigToWorld(t)));
                if (k <= 2) {
                    // Feet, coloured by the quality metric: green planted, red when the clip says the foot
                    // is down but it slides faster than the report's threshold (0.5 m/s at a 0.9 m leg).
                    const foot = t.nodes[t.avatar.getJoint(k === 1 ? HumanBone.LeftFoot : HumanBone.RightFoot)].getAbsolutePosition();
                    const last = t.lastFeet[k - 1];
                    const dt = engine.getDeltaTime() / 1000;
                    const speed = dt > 0 ? Math.hypot(foot.x - last.x, foot.z - last.z) / dt : 0;
                    last.copyFrom(foot);
                    const contact = (a.player.contacts & k) !== 0;
                    const limit = (0.5 * a.solver.ik.limbLength(k - 1)) / 0.9;
                    m.material = contact && playing && speed > limit ? MATS.sliding : a.planting.planted[k - 1] ? MATS.planted : MATS.free;
                }
            }
        });
    }
});

// ---------------------------------------------------------------------------------------------
// Start: the sample walk on two samples of other proportions.

buildMusclePanel();
addSource(sampleSource());
addSampleTarget(0);
addSampleTarget(2);
engine.runRenderLoop(() => scene.render());
window.addEventListener("resize", () => engine.resize());

/** What the browser tests read. */
window.__studio = {
    time: () => time,
    playing: () => playing,
    source: () => source?.name ?? null,
    frameCount: () => source?.clip.frameCount ?? 0,
    targets: () => targets.map((t) => ({ name: t.name, error: t.error, boneMap: JSON.parse(t.avatar.serializeBoneMap()) as unknown })),
    boneRotation: (target: number, bone: string): number[] => {
        const t = targets[target];
        const j = t.avatar.getJoint(HumanBoneNames.indexOf(bone) as HumanBone);
        return j >= 0 ? t.nodes[j].rotationQuaternion!.asArray() : [];
    },
    hipsPosition: (target: number): number[] => targets[target].nodes[targets[target].avatar.getJoint(HumanBone.Hips)].getAbsolutePosition().asArray(),
};
void scene.whenReadyAsync().then(() => {
    window.__ready = true;
});
