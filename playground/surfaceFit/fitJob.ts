/**
 * The surface fit run in the page: a private copy of a character file is loaded into a scene of its
 * own (never rendered, so nothing the studio shows moves), its clip is played on its skin, and two
 * fits run frame by frame with the page kept responsive between slices: the control run (its own
 * rig, which must reach about zero) and the transfer onto the coarse rig (the upper chest and the
 * fingers merged into their parents). The transfer is recorded frame by frame for the view.
 */
import type { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import {
    CreateSurfaceFitMeshes,
    CreateSurfaceFitSource,
    FindSkinnedMeshes,
    HumanoidError,
    MergeHumanBonesOfSurfaceFitRig,
    SurfaceFitRun,
    SURFACE_FIT_DEFAULT_VERTICES,
    type HumanoidAvatar,
    type ISurfaceFitResult,
} from "../../src/index.js";

/** What to fit. */
export interface IFitJobOptions {
    /** Fit rotations only (bone lengths kept). */
    rotationOnly: boolean;
    /** Rig vertices the fit uses. Default {@link SURFACE_FIT_DEFAULT_VERTICES}. */
    vertices?: number;
    /** Frames per second the clip is sampled at. Default 30. */
    frameRate?: number;
    /** Called between slices: frames done of all (control run then transfer), and which run. */
    onProgress?: (done: number, total: number, phase: "control" | "transfer") => void;
}

/** A finished fit: the figures of both runs and the transfer's surfaces at every frame, in the character's world (metres). */
export interface IFitRecording {
    readonly clip: string;
    readonly frameRate: number;
    readonly frames: number;
    readonly vertexCount: number;
    /** Triangles of the character's skinned meshes, 3 vertex indices each (into the concatenated vertices). */
    readonly indices: Uint32Array;
    /** The source surface at every frame (x y z per vertex). */
    readonly source: Float32Array[];
    /** The coarse rig's fitted skin at every frame (x y z per vertex). */
    readonly fitted: Float32Array[];
    /** Distance between the two at every vertex and frame, as a fraction of the diagonal. */
    readonly errors: Float32Array[];
    /** The character's rest diagonal (metres). */
    readonly diagonal: number;
    /** Bones the coarse rig merged into their parents. */
    readonly mergedBones: number;
    readonly control: ISurfaceFitResult;
    readonly transfer: ISurfaceFitResult;
}

/** Milliseconds of fitting between two yields to the browser: long enough that redrawing the page (slow in software WebGL) does not dominate. */
const SLICE_MILLISECONDS = 150;

const yieldToBrowser = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Steps `run` to the end in slices, calling `each` after every frame and `progress` between slices. */
async function runAsync(run: SurfaceFitRun, each: (run: SurfaceFitRun) => void, progress: () => void): Promise<ISurfaceFitResult> {
    while (!run.done) {
        const started = performance.now();
        while (!run.done && performance.now() - started < SLICE_MILLISECONDS) {
            run.step();
            each(run);
        }
        progress();
        await yieldToBrowser();
    }
    return run.result();
}

/**
 * Fits the clip `clipName` of the character file (`bytes`, named `fileName`, humanoid `avatar`) onto
 * its own rig and onto its coarse rig. Throws a {@link HumanoidError} naming the file when it has no
 * skinned mesh, no such clip or nothing to merge.
 */
export async function RunSurfaceFitAsync(
    engine: Engine,
    bytes: Uint8Array,
    fileName: string,
    avatar: HumanoidAvatar,
    clipName: string,
    options: IFitJobOptions,
): Promise<IFitRecording> {
    const scene = new Scene(engine, { virtual: true });
    try {
        const container = await LoadAssetContainerAsync(bytes, scene, {
            name: fileName,
            pluginExtension: /\.gltf$/i.test(fileName) ? ".gltf" : ".glb",
            pluginOptions: { gltf: { animationStartMode: 0 /* NONE */, skipMaterials: true } },
        });
        const meshes = FindSkinnedMeshes(container.meshes);
        if (!meshes.length) throw new HumanoidError("NOT_SKINNED", `${fileName}: has no skinned mesh, so no surface to fit`);
        const group = container.animationGroups.find((g) => g.name === clipName);
        if (!group) throw new HumanoidError("BAD_OPTION", `${fileName}: has no clip '${clipName}'`);
        for (const g of container.animationGroups) g.stop();
        const fit = CreateSurfaceFitMeshes(meshes, fileName);
        const coarse = MergeHumanBonesOfSurfaceFitRig(fit.rig, avatar);
        if (!coarse.mergedCount)
            throw new HumanoidError("BAD_OPTION", `${fileName}: its bone map has no upper chest or finger bones to merge, so no second rig to fit`);
        const frameRate = options.frameRate ?? 30;
        const surface = CreateSurfaceFitSource(fit, group, frameRate);
        const runOptions = { rotationOnly: options.rotationOnly, vertexCount: options.vertices ?? SURFACE_FIT_DEFAULT_VERTICES };
        const total = 2 * surface.frameCount;
        const control = new SurfaceFitRun(surface, fit.rig, runOptions);
        const controlResult = await runAsync(
            control,
            () => undefined,
            () => options.onProgress?.(control.framesDone, total, "control"),
        );
        const transfer = new SurfaceFitRun(surface, coarse.rig, runOptions);
        const source: Float32Array[] = [];
        const fitted: Float32Array[] = [];
        const errors: Float32Array[] = [];
        const transferResult = await runAsync(
            transfer,
            (r) => {
                source.push(new Float32Array(r.wanted));
                fitted.push(new Float32Array(r.fitted));
                errors.push(new Float32Array(r.vertexErrors));
            },
            () => options.onProgress?.(surface.frameCount + transfer.framesDone, total, "transfer"),
        );
        group.stop();
        // The meshes' triangles, every mesh's indices moved past the vertices before it.
        const parts = fit.bindings.map((b) => b.mesh.getIndices() ?? []);
        const indices = new Uint32Array(parts.reduce((s, p) => s + p.length, 0));
        let at = 0;
        let base = 0;
        fit.bindings.forEach((b, i) => {
            // A mirrored mesh (glTF's handedness flip) has its triangles wound the other way in world space.
            const flip = b.mesh.getWorldMatrix().determinant() < 0;
            const p = parts[i];
            for (let k = 0; k + 2 < p.length; k += 3) {
                indices[at++] = base + p[k];
                indices[at++] = base + (flip ? p[k + 2] : p[k + 1]);
                indices[at++] = base + (flip ? p[k + 1] : p[k + 2]);
            }
            base += b.geometry.vertexCount;
        });
        return {
            clip: group.name,
            frameRate,
            frames: transferResult.frames,
            vertexCount: fit.rig.vertexCount,
            indices,
            source,
            fitted,
            errors,
            diagonal: transferResult.diagonal,
            mergedBones: coarse.mergedCount,
            control: controlResult,
            transfer: transferResult,
        };
    } finally {
        scene.dispose();
    }
}
