import { stat } from "node:fs/promises";
import { extname } from "node:path";
import { Animation } from "@babylonjs/core/Animations/animation.js";
import { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Node } from "@babylonjs/core/node.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { HumanoidError } from "../errors.js";
import { MultiplyMatricesToArray } from "../io/skinnedMesh.js";
import { CreateSurfaceFitMeshes, CreateSurfaceFitSource, FindSkinnedMeshes, type ISurfaceFitMeshes } from "../io/surfaceFitMeshes.js";
import { FitSurfaceToRig, SURFACE_FIT_DEFAULT_VERTICES, type ISurfaceFitResult } from "../skin/surfaceFitRun.js";
import { WriteCharacterGlbAsync } from "./writeGlb.js";
import { PickClipByName } from "./convertFile.js";
import { LoadRigFromFileAsync, type ILoadedRig } from "./loadFile.js";

/** Options of {@link FitFileToGlbAsync}. */
export interface IFitFileOptions {
    /** The source clip: its exact name, or a part of it (case-insensitive) that only one clip has. Required. */
    clip: string;
    /** Fit rotations only, keeping bone lengths. Default false. */
    rotationOnly?: boolean;
    /** Vertices of each rig the fit uses. Default {@link SURFACE_FIT_DEFAULT_VERTICES}. */
    vertices?: number;
    /** Frames per second the clip is sampled and the animation keyed at. Default 30. */
    frameRate?: number;
    /** Called after every fitted frame: `done` of `total` over the control run and the transfer. */
    onProgress?: (done: number, total: number) => void;
}

/** What {@link FitFileToGlbAsync} did. Errors are fractions of the fitted rig's rest diagonal. */
export interface IFitFileResult {
    /** The GLB written. */
    readonly output: string;
    /** Its size in bytes. */
    readonly bytes: number;
    /** The clip's full name. */
    readonly clip: string;
    /** The control run: the source's own rig fitted to its own clip (should be about 0). */
    readonly control: ISurfaceFitResult;
    /** The transfer: the target rig fitted to the source's surface. */
    readonly transfer: ISurfaceFitResult;
    /** Wall-clock seconds of the whole command (loading, both fits, writing). */
    readonly seconds: number;
}

const CHARACTER_EXTENSIONS = [".glb", ".gltf", ".vrm"];

async function checkReadableAsync(file: string): Promise<void> {
    const s = await stat(file).catch((e: NodeJS.ErrnoException) => {
        throw new HumanoidError("FILE_READ", `${file}: cannot read the file (${e.code === "ENOENT" ? "no such file" : (e.code ?? e.message)})`);
    });
    if (s.isDirectory()) throw new HumanoidError("FILE_READ", `${file}: cannot read the file (is a directory)`);
}

function checkOptions(source: string, target: string, output: string, options: IFitFileOptions): void {
    for (const [file, what] of [
        [source, "the source"],
        [target, "the rig (--rig)"],
    ] as const) {
        if (!CHARACTER_EXTENSIONS.includes(extname(file).toLowerCase())) {
            throw new HumanoidError(
                "UNSUPPORTED_FORMAT",
                `${file}: ${what} must be a skinned .glb, .gltf or .vrm character, not '${extname(file) || "(none)"}'`,
            );
        }
    }
    if (extname(output).toLowerCase() !== ".glb") throw new HumanoidError("BAD_OPTION", `${output}: the output (-o) must be a .glb file`);
    if (typeof options.clip !== "string" || !options.clip) throw new HumanoidError("BAD_OPTION", "fit: give the source clip with --clip <name>");
    if (options.vertices !== undefined && !(Number.isInteger(options.vertices) && options.vertices >= 10)) {
        throw new HumanoidError("BAD_OPTION", `fit: --vertices must be a whole number of at least 10, not ${options.vertices}`);
    }
    if (options.frameRate !== undefined && !(options.frameRate > 0 && options.frameRate <= 1000)) {
        throw new HumanoidError("BAD_OPTION", `fit: the frame rate must be above 0 and at most 1000, not ${options.frameRate}`);
    }
}

function fitMeshes(loaded: ILoadedRig, file: string): ISurfaceFitMeshes {
    const meshes = FindSkinnedMeshes(loaded.container?.meshes ?? []);
    if (!meshes.length) throw new HumanoidError("NOT_SKINNED", `${file}: has no skinned mesh, so no surface to fit`);
    return CreateSurfaceFitMeshes(meshes, file);
}

/**
 * Moves a clip from one skinned character to another through their surfaces: the source clip is
 * played on the source's skin, and the target rig's bone transforms are fitted frame by frame to
 * reproduce that surface ({@link FitFileToGlbAsync} runs {@link FitSurfaceToRig} twice: first the
 * control run, the source's own rig fitted to its own clip, then the transfer). The target file is
 * written as one GLB with the fitted animation on its joint nodes (linear keys at `frameRate`),
 * whole or not at all. Throws one {@link HumanoidError} naming the file or option.
 * @param source the skinned character with the clip
 * @param target the skinned character to fit (`--rig`)
 * @param output the GLB to write
 * @param options clip, rotation-only, vertices, frame rate, progress
 */
export async function FitFileToGlbAsync(source: string, target: string, output: string, options: IFitFileOptions): Promise<IFitFileResult> {
    const started = performance.now();
    checkOptions(source, target, output, options);
    await checkReadableAsync(source);
    await checkReadableAsync(target);
    const rate = options.frameRate ?? 30;
    const src = await LoadRigFromFileAsync(source);
    let dst: ILoadedRig | null = null;
    let group: AnimationGroup | null = null;
    try {
        const groups = src.container?.animationGroups ?? [];
        const clip = PickClipByName(groups, options.clip, source);
        const sourceFit = fitMeshes(src, source);
        const surface = CreateSurfaceFitSource(sourceFit, clip, rate);
        const total = 2 * surface.frameCount;
        const fitOptions = { rotationOnly: !!options.rotationOnly, vertexCount: options.vertices ?? SURFACE_FIT_DEFAULT_VERTICES };
        const control = FitSurfaceToRig(surface, sourceFit.rig, { ...fitOptions, onFrame: (f) => options.onProgress?.(f + 1, total) });
        dst = await LoadRigFromFileAsync(target, { materials: true });
        const targetFit = fitMeshes(dst, target);
        const transfer = FitSurfaceToRig(surface, targetFit.rig, { ...fitOptions, onFrame: (f) => options.onProgress?.(surface.frameCount + f + 1, total) });
        clip.stop();

        group = CreateFittedAnimationGroup(targetFit, transfer, rate, clip.name);
        const bytes = await WriteCharacterGlbAsync(
            dst.container!,
            group.targetedAnimations.map((ta) => ta.animation),
            dst.gltf,
            output,
        );
        return { output, bytes: bytes.length, clip: clip.name, control, transfer, seconds: (performance.now() - started) / 1000 };
    } finally {
        group?.dispose();
        dst?.dispose();
        src.dispose();
    }
}

/**
 * The fitted transforms as an animation of the rig's joint nodes: at every frame, joint `j`'s world
 * matrix is its rest world matrix followed by the fitted `T_j`, and its node gets the local
 * position, rotation and scaling that put it there under its parent (the parent's fitted world
 * matrix, or its rest one for nodes that are not fitted). Keys are linear, `frameRate` per second.
 * Call it with the nodes at rest (it reads their parents' world matrices).
 */
export function CreateFittedAnimationGroup(fit: ISurfaceFitMeshes, result: ISurfaceFitResult, frameRate: number, name: string): AnimationGroup {
    const binding = fit.bindings[0];
    const b = result.boneCount;
    const nodes: Array<TransformNode | null> = binding.bones.map((bone) => bone?.getTransformNode() ?? null);
    const slotOf = new Map<Node, number>();
    nodes.forEach((n, s) => n && slotOf.set(n, s));
    const depth = (n: Node): number => (n.parent ? depth(n.parent) + 1 : 0);
    const order = nodes.map((n, s) => ({ n, s })).filter((e) => e.n !== null);
    order.sort((x, y) => depth(x.n!) - depth(y.n!));
    const restParent = new Map<number, Float64Array>();
    for (const { n, s } of order) {
        const p = n!.parent;
        if (p && !slotOf.has(p)) restParent.set(s, Float64Array.from(p.computeWorldMatrix(true).m));
    }
    const world = new Float64Array(16 * b);
    const tm = new Float64Array(16);
    const inv = new Matrix();
    const local = new Float64Array(16);
    const m = new Matrix();
    const scale = new Vector3();
    const rotation = new Quaternion();
    const position = new Vector3();
    const keys = order.map(() => ({
        p: [] as Array<{ frame: number; value: Vector3 }>,
        r: [] as Array<{ frame: number; value: Quaternion }>,
        s: [] as Array<{ frame: number; value: Vector3 }>,
    }));
    for (let f = 0; f < result.frames; f++) {
        order.forEach(({ n, s }, k) => {
            // world_j = restWorld_j * T_j (row vectors: rest first, then the fitted motion)
            const q = Quaternion.FromArray(result.rotations, (f * b + s) * 4);
            const t = Vector3.FromArray(result.translations, (f * b + s) * 3);
            Matrix.ComposeToRef(Vector3.One(), q, t, m);
            for (let i = 0; i < 16; i++) tm[i] = m.m[i];
            MultiplyMatricesToArray(fit.restJointWorld, 16 * s, tm, 0, world, 16 * s);
            // local = world * inverse(parentWorld)
            const p = n!.parent;
            const ps = p ? slotOf.get(p) : undefined;
            const parentWorld = ps !== undefined ? world.subarray(16 * ps, 16 * ps + 16) : restParent.get(s);
            if (parentWorld) {
                Matrix.FromArrayToRef(Array.from(parentWorld), 0, inv);
                inv.invert();
                MultiplyMatricesToArray(world, 16 * s, inv.m, 0, local, 0);
            } else {
                local.set(world.subarray(16 * s, 16 * s + 16));
            }
            Matrix.FromArrayToRef(Array.from(local), 0, m);
            m.decompose(scale, rotation, position);
            keys[k].p.push({ frame: f, value: position.clone() });
            keys[k].r.push({ frame: f, value: rotation.clone() });
            keys[k].s.push({ frame: f, value: scale.clone() });
        });
    }
    const group = new AnimationGroup(name, nodes.find((n) => n)?.getScene());
    order.forEach(({ n }, k) => {
        const make = (property: string, type: number, list: Array<{ frame: number; value: unknown }>): void => {
            const a = new Animation(`${n!.name}.${property}`, property, frameRate, type, Animation.ANIMATIONLOOPMODE_CYCLE);
            a.setKeys(list);
            group.addTargetedAnimation(a, n!);
        };
        make("position", Animation.ANIMATIONTYPE_VECTOR3, keys[k].p);
        make("rotationQuaternion", Animation.ANIMATIONTYPE_QUATERNION, keys[k].r);
        make("scaling", Animation.ANIMATIONTYPE_VECTOR3, keys[k].s);
    });
    return group;
}
