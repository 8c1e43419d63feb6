import { AlignRestPoses, MatchNearestVertices, type IRestAlignment } from "./vertexMatch.js";
import { SelectFitVertices, type ISurfaceFitRig } from "./fitRig.js";
import { SurfaceFitSolver, type ISurfaceFitOptions } from "./surfaceFit.js";

/**
 * A whole clip's surface fit: the source surface played frame by frame, matched to the rig's
 * vertices in the aligned rest poses, fitted ({@link SurfaceFitSolver}) and measured.
 */

/** A moving surface to fit: a source mesh's vertices, frame by frame (world space, metres). */
export interface ISurfaceFitSource {
    /** Number of vertices. */
    readonly vertexCount: number;
    /** Rest-pose positions, x y z per vertex (the pose the correspondence is made in). */
    readonly restPositions: Float64Array;
    /** Number of frames. */
    readonly frameCount: number;
    /** Writes the positions of every vertex at frame `f` (x y z per vertex) into `out`. */
    frameToRef(f: number, out: Float64Array): void;
}

/** Options of {@link FitSurfaceToRig}. */
export interface ISurfaceFitRunOptions extends Omit<ISurfaceFitOptions, "vertices"> {
    /** Vertices of the rig the fit uses (subsampled by {@link SelectFitVertices}). Default {@link SURFACE_FIT_DEFAULT_VERTICES}. */
    vertexCount?: number;
    /** How the rig's rest pose is carried onto the source's to match vertices. Default {@link AlignRestPoses} (bounding boxes). */
    alignment?: IRestAlignment;
    /** Called after every frame (for progress bars). */
    onFrame?: (frame: number, frameCount: number) => void;
}

/** Default number of rig vertices the fit uses: 3000, enough to pin every bone of a 65-bone body. */
export const SURFACE_FIT_DEFAULT_VERTICES = 3000;

/** The outcome of {@link FitSurfaceToRig}. Errors are measured on every vertex of the rig, not only the fitted ones. */
export interface ISurfaceFitResult {
    /** Frames fitted. */
    readonly frames: number;
    /** Bones of the rig. */
    readonly boneCount: number;
    /** Rotation of every bone at every frame, x y z w, `frames * boneCount * 4` (bind space: rest -> posed, world). */
    readonly rotations: Float64Array;
    /** Translation of every bone at every frame, `frames * boneCount * 3` (metres). */
    readonly translations: Float64Array;
    /** The rig's rest diagonal (metres): the unit of the errors. */
    readonly diagonal: number;
    /** Mean distance between the fitted skin and the source surface, over every vertex and frame, as a fraction of {@link diagonal}. */
    readonly meanError: number;
    /** Worst vertex distance over all frames, as a fraction of {@link diagonal}. */
    readonly maxError: number;
    /** Worst vertex distance of every frame, as a fraction of {@link diagonal}. */
    readonly maxErrorPerFrame: Float64Array;
    /**
     * Share of the surface's motion that the fitted rig reproduces: `1 - sum |fit - source| / sum
     * |source - source at rest|` over every vertex and frame, clamped to [0, 1] (1: all of it).
     */
    readonly transferQuality: number;
    /** Vertices the fit used. */
    readonly fittedVertices: number;
    /** Sweeps over all frames. */
    readonly sweeps: number;
    /** Wall-clock seconds of the fit (matching, solving and measuring). */
    readonly seconds: number;
}

/**
 * Fits `rig` to the moving `source` surface, every frame starting from the previous one's
 * transforms (the first from the rest pose). The correspondence is made once: every rig vertex
 * takes the nearest source vertex in the rest poses aligned by `options.alignment`, and the source
 * positions are carried back into the rig's frame by the inverse alignment.
 */
export function FitSurfaceToRig(source: ISurfaceFitSource, rig: ISurfaceFitRig, options: ISurfaceFitRunOptions = {}): ISurfaceFitResult {
    const started = performance.now();
    const alignment = options.alignment ?? AlignRestPoses(rig.restPositions, source.restPositions);
    const match = MatchNearestVertices(rig.restPositions, source.restPositions, alignment);
    const vertices = SelectFitVertices(rig, options.vertexCount ?? SURFACE_FIT_DEFAULT_VERTICES);
    const solver = new SurfaceFitSolver(rig, { ...options, vertices });
    const n = rig.vertexCount;
    const frames = source.frameCount;
    const b = rig.boneCount;
    const sourceNow = new Float64Array(3 * source.vertexCount);
    const wanted = new Float64Array(3 * n);
    const wantedFitted = new Float64Array(3 * vertices.length);
    const fitted = new Float64Array(3 * n);
    const restWanted = new Float64Array(3 * n);
    const toRig = (src: Float64Array, out: Float64Array): void => {
        const s = 1 / alignment.scale;
        for (let v = 0; v < n; v++) {
            const m = 3 * match[v];
            for (let k = 0; k < 3; k++) out[3 * v + k] = (src[m + k] - alignment.to[k]) * s + alignment.from[k];
        }
    };
    toRig(source.restPositions, restWanted);
    const rotations = new Float64Array(frames * b * 4);
    const translations = new Float64Array(frames * b * 3);
    const maxErrorPerFrame = new Float64Array(frames);
    let sumError = 0;
    let sumMotion = 0;
    let maxError = 0;
    let sweeps = 0;
    const diagonal = solver.diagonal;
    for (let f = 0; f < frames; f++) {
        source.frameToRef(f, sourceNow);
        toRig(sourceNow, wanted);
        for (let i = 0; i < vertices.length; i++) {
            const v = vertices[i];
            wantedFitted[3 * i] = wanted[3 * v];
            wantedFitted[3 * i + 1] = wanted[3 * v + 1];
            wantedFitted[3 * i + 2] = wanted[3 * v + 2];
        }
        sweeps += solver.solveFrame(wantedFitted).sweeps;
        rotations.set(solver.rotations, f * b * 4);
        translations.set(solver.translations, f * b * 3);
        solver.skinRigToRef(fitted);
        let frameMax = 0;
        for (let v = 0; v < n; v++) {
            const i = 3 * v;
            const e = Math.hypot(fitted[i] - wanted[i], fitted[i + 1] - wanted[i + 1], fitted[i + 2] - wanted[i + 2]);
            sumError += e;
            sumMotion += Math.hypot(wanted[i] - restWanted[i], wanted[i + 1] - restWanted[i + 1], wanted[i + 2] - restWanted[i + 2]);
            if (e > frameMax) frameMax = e;
        }
        maxErrorPerFrame[f] = frameMax / diagonal;
        maxError = Math.max(maxError, frameMax);
        options.onFrame?.(f, frames);
    }
    const count = Math.max(1, frames * n);
    return {
        frames,
        boneCount: b,
        rotations,
        translations,
        diagonal,
        meanError: sumError / count / diagonal,
        maxError: maxError / diagonal,
        maxErrorPerFrame,
        transferQuality: sumMotion > 0 ? Math.min(1, Math.max(0, 1 - sumError / sumMotion)) : 1,
        fittedVertices: vertices.length,
        sweeps,
        seconds: (performance.now() - started) / 1000,
    };
}
