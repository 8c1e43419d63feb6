/**
 * What a caller sets on a surface fit ({@link SurfaceFitSolver}) and what one frame's solve reports:
 * the options, their default tolerance and sweep cap, and the frame's result.
 */

/** Options of {@link SurfaceFitSolver}. */
export interface ISurfaceFitOptions {
    /** Fit rotations only, keeping every bone's length (see {@link SurfaceFitSolver}). Default false. */
    rotationOnly?: boolean;
    /**
     * Stop the sweeps of a frame when the RMS residual improves by less than this fraction of the
     * model's diagonal. Default {@link SURFACE_FIT_TOLERANCE}.
     */
    tolerance?: number;
    /** Most sweeps per frame. Default {@link SURFACE_FIT_MAX_SWEEPS}. */
    maxSweeps?: number;
    /** Vertices used by the fit (indices into the rig's vertices); default all. See {@link SelectFitVertices}. */
    vertices?: Int32Array;
}

/**
 * Default sweep tolerance: 1e-7 of the diagonal (0.2 micrometres on a 1.9 m character), well
 * below the control run's 1e-4 mean error target, so the sweeps only stop once further ones would
 * change nothing measurable.
 */
export const SURFACE_FIT_TOLERANCE = 1e-7;

/** Default cap of sweeps per frame; a frame started from the previous one needs a handful. */
export const SURFACE_FIT_MAX_SWEEPS = 200;

/** What one frame's solve did. */
export interface ISurfaceFitFrameResult {
    /** Sweeps run. */
    readonly sweeps: number;
    /** RMS residual over the fitted vertices after the last sweep (metres). */
    readonly rms: number;
}
