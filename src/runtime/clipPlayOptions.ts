// How a clip is played (`HumanoidClipPlayer.play`, `crossFade`, and the animator's): the options
// and their check, made before anything changes.

import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";

/** How to play a clip. */
export interface IClipPlayOptions {
    /** Loop the clip. Default: the clip's own `loop` flag. */
    loop?: boolean;
    /** Playback speed (1 = as recorded, negative plays backwards). Default 1. */
    speed?: number;
    /** Weight among the layer's clips (they are normalized). Default 1. */
    weight?: number;
    /** Where to start, seconds from the clip's start. Default 0. */
    startSeconds?: number;
    /**
     * Play the clip's mirror image (left and right swapped across the body's middle plane, in
     * muscle space: muscles, body, goals, root motion and foot contacts; see `MirrorHumanPoseInPlace`).
     * Default false.
     */
    mirror?: boolean;
}

/**
 * Throws when a play option is not a finite number (a weight below 0 too): a clear error at the call, not NaN in the pose.
 * @param clip the clip to play (its name goes in the message)
 * @param options the options given with it
 * @throws HumanoidError (`BAD_OPTION`) naming the clip, the option and what it must be
 */
export function CheckPlayOptions(clip: MuscleClip, options: IClipPlayOptions): void {
    const bad = (name: string, value: unknown, rule: string): never => {
        throw new HumanoidError("BAD_OPTION", `${clip.name}: ${name} must be ${rule} (got ${String(value)})`);
    };
    if (options.speed !== undefined && !Number.isFinite(options.speed)) bad("speed", options.speed, "a finite number");
    if (options.startSeconds !== undefined && !Number.isFinite(options.startSeconds)) bad("startSeconds", options.startSeconds, "a finite number");
    if (options.weight !== undefined && !(Number.isFinite(options.weight) && options.weight >= 0))
        bad("weight", options.weight, "a finite number of at least 0");
}
