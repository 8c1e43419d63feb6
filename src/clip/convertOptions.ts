import type { IRigPose } from "../humanoid/rig.js";
import { MAX_CLIP_FRAMES as LIMIT_CLIP_FRAMES } from "../limits.js";

/**
 * Where a conversion reads its poses from: a clip of some skeleton that an avatar maps (a BVH file,
 * an AnimationGroup...). Poses are local rotations and positions of the avatar's rig joints, in
 * rig space.
 */
export interface IRigPoseSource {
    /** The clip's name. */
    readonly name: string;
    /** Where it comes from, for people (a file name). */
    readonly source: string;
    /** The clip's own frames per second (its keys' rate), the default conversion rate. */
    readonly frameRate: number;
    /** Length in seconds. */
    readonly durationSeconds: number;
    /** What the source already knows cannot convert losslessly (animated scale, joints missing...). */
    readonly warnings: readonly string[];
    /**
     * Writes the pose at a time into `result`, whose arrays have one entry per rig joint: every
     * joint's local rotation and position (conversion may change `result` between two calls).
     * @param timeSeconds from the clip's start, 0 to `durationSeconds`
     */
    samplePoseToRef(timeSeconds: number, result: IRigPose): void;
    /**
     * Optional: how large the source shows its figure at a time, as a share of its full size: for
     * the hips and each node above them that the clip scales, the smallest axis of its scale then
     * over the largest smallest axis among that node's keys, multiplied down to the hips; 1 where
     * the clip scales none of them. The poses drop scale (muscle space has
     * none), so a clip that hides its figure by scaling it to nothing (KayKit's spawns start so,
     * their joints turned anyhow while unseen) has poses there that nobody sees: conversion holds
     * the nearest shown pose instead (see `ConvertRigPosesToMuscleClip`, warnings).
     * @param timeSeconds from the clip's start, 0 to `durationSeconds`
     * @returns a share, 0 (not shown) to 1 (full size), a little more where a curve overshoots its keys
     */
    figureScaleAt?(timeSeconds: number): number;
}

/** Options of the converters. */
export interface IMuscleClipConvertOptions {
    /** Frames per second of the muscle clip; default the source's own rate. */
    frameRate?: number;
    /**
     * Keyframe reduction tolerance in degrees of muscle angle (and the matching bounds for
     * positions and rotations, see docs/clips.md); default 0.1; 0 keeps every key. Half of it
     * smooths each curve before its keys are chosen within the other half (`SMOOTHING_SHARE`).
     */
    toleranceDeg?: number;
    /**
     * Whether the curves that place the trunk and head (its muscles, the body's and the hips'
     * position and turn, the root: `TRUNK_CLIP_CURVES`) share their key frames, so that mocap's trunk jitter, which cancels at
     * the head, still cancels after the reduction (docs/clips.md). Default: when the source's
     * trunk has a steadier point than its hips (`IClipProportions.trunkSteadyPoint` above 0: mocap,
     * whose hips jitter), there being nothing to keep in a trunk whose hips move most smoothly (most
     * keyframed clips; their body's placement, `PLACEMENT_CLIP_CURVES`, still shares its key
     * frames). False keys each curve on frames of its own, the body's placement's too: a smaller
     * file (about a sixth on mocap), a jerkier head.
     */
    shareTrunkKeys?: boolean;
    /**
     * How far the source's joints may move when they are denoised before its poses are encoded,
     * in degrees: each body joint's smoothed position moves at most this angle times its shortest
     * segment, and each bone turns by at most twice it (`RigPoseDenoiser`; docs/clips.md, step 2).
     * Default the tolerance (`toleranceDeg`); 0 leaves the source as it is. Mocap's solver jitter,
     * which its rotations cancel where its markers are and which no longer cancels on another
     * body, is taken out; a keyframed clip changes only at its sharpest turns. The curves are then
     * smoothed and keyed within the tolerance of the denoised poses. With denoising, every frame
     * is sampled twice, and `onProgress` counts half of each frame in each pass.
     */
    denoiseToleranceDeg?: number;
    /**
     * Whether a floor that tilts under the take is leveled (a capture floor a degree off level,
     * its planted feet higher at each step): on each frame the body goes down by the floor's
     * height under it, so that characters walk on level ground (`FitFloorTilt`, with a warning).
     * Only a tilt the feet show clearly, that one plane fits better than a step, and under 6
     * degrees (stairs and steep ramps stay; a real incline under 3 degrees is leveled too, from 3
     * to 6 in part: false keeps it). Default true.
     */
    levelFloor?: boolean;
    /**
     * Whether held poses the take jumps from at its start or to at its end stay in the clip (a
     * T-pose frame 0, as the cgspeed conversions of the CMU database have; `FindEndPoseFrames`).
     * Default false: they are left out with a warning, and the clip's `sourceStartSeconds` says
     * where it starts in its source. A pose the take moves out of smoothly is motion and always stays.
     */
    keepEndPoses?: boolean;
    /** Whether the clip loops; default: when its first and last poses match (within {@link LOOP_MATCH_DEG}). */
    loop?: boolean;
    /** The clip's name; default the source's. */
    name?: string;
    /** Called now and then with the frames converted so far and the total. */
    onProgress?: (framesDone: number, frameCount: number) => void;
}

/** Default keyframe reduction tolerance, degrees of muscle angle. */
export const DEFAULT_TOLERANCE_DEG = 0.1;

/**
 * The share of a curve's reduction tolerance that smooths it before its keys are chosen
 * (`SmoothWithinBand`); the rest bounds the keys' curve from the smoothed one, so every sample
 * stays within the tolerance as before. Curves on shared trunk keys are smoothed together
 * (`SmoothCurveGroupWithinBands`: their jitter cancels along the trunk, which a band that binds
 * on one curve and not another would undo; see docs/clips.md). Why: the reduced curve's own error
 * was jitter the source did not have. KayKit's keyframed clips onto their own mannequin came out
 * 1.0001 to 1.02 times their source's jerk (AnimatorAvatar's exact copy: 1.0000) and now 0.89 to
 * 1.00; on the report's 126 pairs 120 -> 123 pass, jerk x0.953, limb directions x1.002
 * (docs/clips.md, step 7).
 */
export const SMOOTHING_SHARE = 0.5;
/** Most frames a clip may have; the shared limit of `limits.ts` (readers and writers use the same). */
export const MAX_CLIP_FRAMES = LIMIT_CLIP_FRAMES;
/** A clip loops by default when no muscle angle and no body or goal rotation differ more than this between its first and last frame, degrees. */
export const LOOP_MATCH_DEG = 5;
