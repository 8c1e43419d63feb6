import { AlignRestPoses, MatchNearestVertices, type IRestAlignment } from "./vertexMatch.js";
import { SelectFitVertices, type ISurfaceFitRig } from "./fitRig.js";
import { SurfaceFitSolver } from "./surfaceFit.js";
import type { ISurfaceFitOptions } from "./surfaceFitOptions.js";

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
 * A surface fit run one frame at a time, so a caller can show progress or keep a page responsive
 * between frames ({@link FitSurfaceToRig} runs it to the end in one go). Every frame starts from
 * the previous one's transforms (the first from the rest pose). The correspondence is made once,
 * in the constructor: every rig vertex takes the nearest source vertex in the rest poses aligned
 * by `options.alignment`, and the source positions are carried back into the rig's frame by the
 * inverse alignment. After each {@link step}, {@link wanted}, {@link fitted} and
 * {@link vertexErrors} hold that frame.
 */
export class SurfaceFitRun {
    /** The rest alignment of the rig onto the source (`source = scale * (rig - from) + to`). */
    public readonly alignment: IRestAlignment;
    /** For every rig vertex, the source vertex it follows. */
    public readonly match: Int32Array;
    /** Frames the run fits (the source's). */
    public readonly frameCount: number;
    /** The rig's rest diagonal (metres): the unit of the errors. */
    public readonly diagonal: number;
    /** The source surface at the last fitted frame, carried into the rig's frame: x y z per rig vertex (metres). */
    public readonly wanted: Float64Array;
    /** The fitted rig's skin at the last fitted frame: x y z per rig vertex (metres). */
    public readonly fitted: Float64Array;
    /** Distance between {@link fitted} and {@link wanted} of every rig vertex at the last fitted frame, as a fraction of {@link diagonal}. */
    public readonly vertexErrors: Float64Array;

    private readonly _source: ISurfaceFitSource;
    private readonly _rig: ISurfaceFitRig;
    private readonly _options: ISurfaceFitRunOptions;
    private readonly _vertices: Int32Array;
    private readonly _solver: SurfaceFitSolver;
    private readonly _sourceNow: Float64Array;
    private readonly _wantedFitted: Float64Array;
    private readonly _restWanted: Float64Array;
    private readonly _rotations: Float64Array;
    private readonly _translations: Float64Array;
    private readonly _maxErrorPerFrame: Float64Array;
    private _frame = 0;
    private _sumError = 0;
    private _sumMotion = 0;
    private _maxError = 0;
    private _sweeps = 0;
    private _milliseconds = 0;

    /**
     * Matches the vertices and sets the solver up (the slow part before the first frame).
     * @param source the moving surface
     * @param rig the rig to fit (never written)
     * @param options vertices, alignment, rotation-only, tolerance, progress
     */
    constructor(source: ISurfaceFitSource, rig: ISurfaceFitRig, options: ISurfaceFitRunOptions = {}) {
        const started = performance.now();
        this._source = source;
        this._rig = rig;
        this._options = options;
        this.alignment = options.alignment ?? AlignRestPoses(rig.restPositions, source.restPositions);
        this.match = MatchNearestVertices(rig.restPositions, source.restPositions, this.alignment);
        this._vertices = SelectFitVertices(rig, options.vertexCount ?? SURFACE_FIT_DEFAULT_VERTICES);
        this._solver = new SurfaceFitSolver(rig, { ...options, vertices: this._vertices });
        const n = rig.vertexCount;
        const b = rig.boneCount;
        this.frameCount = source.frameCount;
        this.diagonal = this._solver.diagonal;
        this._sourceNow = new Float64Array(3 * source.vertexCount);
        this.wanted = new Float64Array(3 * n);
        this._wantedFitted = new Float64Array(3 * this._vertices.length);
        this.fitted = new Float64Array(3 * n);
        this.vertexErrors = new Float64Array(n);
        this._restWanted = new Float64Array(3 * n);
        this.sourceToRigToRef(source.restPositions, this._restWanted);
        this._rotations = new Float64Array(this.frameCount * b * 4);
        this._translations = new Float64Array(this.frameCount * b * 3);
        this._maxErrorPerFrame = new Float64Array(this.frameCount);
        this._milliseconds = performance.now() - started;
    }

    /** Frames fitted so far. */
    public get framesDone(): number {
        return this._frame;
    }

    /** True when every frame is fitted. */
    public get done(): boolean {
        return this._frame >= this.frameCount;
    }

    /**
     * Carries source positions (x y z per source vertex, e.g. a frame of the source) into the rig's
     * frame, one per rig vertex (the matched source vertex of each): `out` holds 3 numbers per rig vertex.
     */
    public sourceToRigToRef(sourcePositions: ArrayLike<number>, out: Float64Array): Float64Array {
        const { scale, from, to } = this.alignment;
        const s = 1 / scale;
        const match = this.match;
        for (let v = 0; v < this._rig.vertexCount; v++) {
            const m = 3 * match[v];
            for (let k = 0; k < 3; k++) out[3 * v + k] = (sourcePositions[m + k] - to[k]) * s + from[k];
        }
        return out;
    }

    /** Fits the next frame and measures it; false (and nothing done) when every frame is fitted. */
    public step(): boolean {
        if (this.done) return false;
        const started = performance.now();
        const f = this._frame;
        const n = this._rig.vertexCount;
        const b = this._rig.boneCount;
        const vertices = this._vertices;
        const wanted = this.wanted;
        const fitted = this.fitted;
        const restWanted = this._restWanted;
        this._source.frameToRef(f, this._sourceNow);
        this.sourceToRigToRef(this._sourceNow, wanted);
        for (let i = 0; i < vertices.length; i++) {
            const v = vertices[i];
            this._wantedFitted[3 * i] = wanted[3 * v];
            this._wantedFitted[3 * i + 1] = wanted[3 * v + 1];
            this._wantedFitted[3 * i + 2] = wanted[3 * v + 2];
        }
        this._sweeps += this._solver.solveFrame(this._wantedFitted).sweeps;
        this._rotations.set(this._solver.rotations, f * b * 4);
        this._translations.set(this._solver.translations, f * b * 3);
        this._solver.skinRigToRef(fitted);
        let frameMax = 0;
        for (let v = 0; v < n; v++) {
            const i = 3 * v;
            const e = Math.hypot(fitted[i] - wanted[i], fitted[i + 1] - wanted[i + 1], fitted[i + 2] - wanted[i + 2]);
            this.vertexErrors[v] = e / this.diagonal;
            this._sumError += e;
            this._sumMotion += Math.hypot(wanted[i] - restWanted[i], wanted[i + 1] - restWanted[i + 1], wanted[i + 2] - restWanted[i + 2]);
            if (e > frameMax) frameMax = e;
        }
        this._maxErrorPerFrame[f] = frameMax / this.diagonal;
        this._maxError = Math.max(this._maxError, frameMax);
        this._frame++;
        this._milliseconds += performance.now() - started;
        this._options.onFrame?.(f, this.frameCount);
        return true;
    }

    /**
     * The figures of the frames fitted so far (all of them once {@link done}). `seconds` is the time
     * spent matching and fitting, not the time between steps.
     */
    public result(): ISurfaceFitResult {
        const frames = this._frame;
        const b = this._rig.boneCount;
        const count = Math.max(1, frames * this._rig.vertexCount);
        const diagonal = this.diagonal;
        return {
            frames,
            boneCount: b,
            rotations: this._rotations.slice(0, frames * b * 4),
            translations: this._translations.slice(0, frames * b * 3),
            diagonal,
            meanError: this._sumError / count / diagonal,
            maxError: this._maxError / diagonal,
            maxErrorPerFrame: this._maxErrorPerFrame.slice(0, frames),
            transferQuality: this._sumMotion > 0 ? Math.min(1, Math.max(0, 1 - this._sumError / this._sumMotion)) : 1,
            fittedVertices: this._vertices.length,
            sweeps: this._sweeps,
            seconds: this._milliseconds / 1000,
        };
    }
}

/**
 * Fits `rig` to the moving `source` surface, every frame in turn: a {@link SurfaceFitRun} stepped to
 * the end. See there for the correspondence and the order of frames.
 */
export function FitSurfaceToRig(source: ISurfaceFitSource, rig: ISurfaceFitRig, options: ISurfaceFitRunOptions = {}): ISurfaceFitResult {
    const run = new SurfaceFitRun(source, rig, options);
    while (run.step());
    return run.result();
}
