import type { MuscleClip } from "../clip/muscleClip.js";
import type { MuscleClipSampler } from "../clip/clipSampler.js";
import { HumanPose } from "../muscle/humanPose.js";
import { HUMAN_BODY_PART_COUNT, type HumanBodyPart } from "./bodyParts.js";

/** Most clips one layer blends at once (a cross-fade that needs more drops the faintest). */
export const MAX_CLIPS_PER_LAYER = 4;

/** One clip playing on a layer. Read its fields; change them with the player's methods. */
export class HumanoidClipState {
    /** The clip (null when the slot is free). */
    public clip: MuscleClip | null = null;
    /** Play time since the start, seconds, unwrapped (loops count on). */
    public timeSeconds = 0;
    /** Playback speed. */
    public speed = 1;
    /** Whether it loops. */
    public loop = false;
    /** Weight given by the caller. */
    public weight = 1;
    /** Fade factor, 0 to 1: the effective weight is `weight * fade`. */
    public fade = 0;
    /** Fade change per second (negative: fading out; the state frees itself at 0). */
    public fadeRate = 0;
    /** Set once a clip that does not loop has reached its end. */
    public ended = false;
    /** Whether the clip plays mirrored (see {@link IClipPlayOptions.mirror}); set by `play` and `crossFade` (its start and end roots are mirrored then). */
    public mirror = false;
    /**
     * The pose at the current time (root motion already handled), while other clips play with it:
     * the base layer's lone clip with weight is sampled straight into the player's `pose` instead,
     * and this one is then left as it was.
     */
    public readonly pose = new HumanPose();
    /** @internal */
    public sampler: MuscleClipSampler | null = null;
    /** @internal root at the last update: x, z, yaw (canonical, avatar scales) */
    public readonly lastRoot = new Float64Array(3);
    /** @internal root at the clip's start */
    public readonly startRoot = new Float64Array(3);
    /** @internal root at the clip's end */
    public readonly endRoot = new Float64Array(3);
    /** @internal root where the pose shows it (see {@link RootMotionMode}) */
    public readonly shownRoot = new Float64Array(3);
    /** @internal root motion this frame, in the root's own frame: x, z, yaw */
    public readonly delta = new Float64Array(3);
    /** @internal the state has no previous frame (just started or jumped) */
    public fresh = true;
    /** @internal loops the last update's step crossed (negative backwards) */
    public wraps = 0;

    /** Time within the clip, seconds (wrapped when looping, clamped otherwise). */
    public get localSeconds(): number {
        LocalSecondsInto(this, localScratch, 0);
        return localScratch[0];
    }
}

const localScratch = new Float64Array(1);

/**
 * A state's {@link HumanoidClipState.localSeconds} into `out[index]` (the per-frame form: no number returned, see `hotMath`).
 * @internal
 */
export function LocalSecondsInto(s: HumanoidClipState, out: Float64Array, index: number): void {
    const clip = s.clip;
    const d = clip ? clip.durationSeconds : 0;
    if (!clip || d <= 0) {
        out[index] = 0;
    } else if (s.loop) {
        const r = s.timeSeconds % d;
        out[index] = r < 0 ? r + d : r;
    } else {
        out[index] = s.timeSeconds < 0 ? 0 : s.timeSeconds > d ? d : s.timeSeconds;
    }
}

/** A layer: clips blended together, then laid over the layers below on the parts of its mask. */
export class HumanoidLayer {
    /** Layer weight over the layers below, 0 to 1 (the base layer always counts fully). */
    public weight = 1;
    /** Which body parts the layer drives (1) or leaves to the layers below (0), by {@link HumanBodyPart}. */
    public readonly mask = new Uint8Array(HUMAN_BODY_PART_COUNT).fill(1);
    /** The clip slots; those with a clip are playing. */
    public readonly states: HumanoidClipState[] = Array.from({ length: MAX_CLIPS_PER_LAYER }, () => new HumanoidClipState());
    /** The layer's blended pose of the last update (left as it was while the player samples a lone clip of the base layer straight into its own pose). */
    public readonly pose = new HumanPose();
    /** @internal total effective weight of the last update */
    public total = 0;

    /** Limits the layer to some body parts (all others come from the layers below). */
    public setMask(parts: readonly HumanBodyPart[]): void {
        this.mask.fill(0);
        for (const p of parts) this.mask[p] = 1;
    }

    /** The state with the largest effective weight, or null when nothing plays. */
    public get dominant(): HumanoidClipState | null {
        let best: HumanoidClipState | null = null;
        let w = -1;
        for (const s of this.states) {
            if (s.clip && s.weight * s.fade > w) {
                w = s.weight * s.fade;
                best = s;
            }
        }
        return best;
    }
}
