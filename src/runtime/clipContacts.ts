import { CONTACT_FRAME_SNAP, type MuscleClip } from "../clip/muscleClip.js";
import { MirrorContacts } from "../muscle/mirror.js";
import { type HumanoidClipState, type HumanoidLayer, LocalSecondsInto } from "./clipLayer.js";

/**
 * Where a playing clip's feet are in contact around the time shown: how soon a foot is next down,
 * how long ago it was last, and how much it stands on the ground by the contacts around now (the
 * clip player's look-ahead and look-back: `HumanoidClipPlayer.nextContactToRef`,
 * `previousContactToRef` and `groundSharesToRef`). As for a clip's contacts, a foot is down between
 * two frames only when it is on both; a looping clip wraps round, looked through once at most; a
 * mirrored clip's left foot is its source's right. Numbers pass in arrays so that none is boxed;
 * allocation-free.
 */

/**
 * Scratch shared by every player (the per-frame path is single-threaded and no call here runs
 * inside another's).
 */
const scratch = {
    /** A state's local time, seconds. */
    local: new Float64Array(1),
    /** What `contactQuery` finds: the foot's contact flag, the frame position now. */
    query: new Float64Array(2),
    /** The look-ahead and look-back of `GroundSharesToRef`, seconds. */
    span: new Float64Array(1),
    /** A scan's frame position now, the frame it starts from and how many frames it reaches (handed over in an array: V8 boxes a number passed to a call it does not inline). */
    scan: new Float64Array(3),
};

/**
 * A clip state's clip, or null when it has none or fewer than two frames; with it, into
 * `scratch.query`: [0] the foot's contact flag as the clip has it (a mirrored clip's left foot is
 * its right), [1] the state's frame position now.
 */
function contactQuery(s: HumanoidClipState | null, side: number): MuscleClip | null {
    const clip = s ? s.clip : null;
    if (!s || !clip || clip.frameCount < 2) return null;
    const own = side === 0 ? 1 : 2;
    const q = scratch.query;
    q[0] = s.mirror ? MirrorContacts(own) : own;
    LocalSecondsInto(s, scratch.local, 0);
    q[1] = scratch.local[0] * clip.frameRate;
    return clip;
}

/**
 * Whether a foot is down in a clip state now, as its sampler holds the contacts at the state's
 * time (`MuscleClipSampler.contactsHeldAtSlot`: between two frames only when down on both),
 * mirrored with the clip.
 * @param s the clip state
 * @param side 0 left foot, 1 right foot
 */
export function IsContactHeld(s: HumanoidClipState, side: number): boolean {
    const clip = s.clip;
    const sampler = s.sampler;
    if (!clip || !sampler) return false;
    LocalSecondsInto(s, scratch.local, 0);
    sampler.frameSlot[0] = scratch.local[0] * clip.frameRate;
    const own = side === 0 ? 1 : 2;
    return (sampler.contactsHeldAtSlot() & (s.mirror ? MirrorContacts(own) : own)) !== 0;
}

/**
 * With `scratch.scan` holding [frame, from, reach]: the first frame with the foot's contact flag
 * (`scratch.query[0]`) on the way from `from` to later frames, its time from `frame` (seconds)
 * into `io[index]`; none past `reach` frames from `frame`, a looping clip looked through once at
 * most. Leaves `io[index]` as it is when none.
 */
function scanLaterToRef(s: HumanoidClipState, clip: MuscleClip, io: Float64Array, index: number): void {
    const bit = scratch.query[0];
    const frame = scratch.scan[0];
    const from = scratch.scan[1];
    const reach = scratch.scan[2];
    const last = clip.frameCount - 1;
    let end = frame + reach + CONTACT_FRAME_SNAP;
    if (end > from + last) end = from + last;
    for (let f = from; f <= end; f++) {
        let g = f;
        if (g > last) {
            if (!s.loop) return;
            // A looping clip's last frame is its first: frame `last` is frame 0 again.
            g = g % last;
        }
        if (clip.contacts[g] & bit) {
            io[index] = (f - frame) / clip.frameRate;
            return;
        }
    }
}

/** As {@link scanLaterToRef}, towards earlier frames. */
function scanEarlierToRef(s: HumanoidClipState, clip: MuscleClip, io: Float64Array, index: number): void {
    const bit = scratch.query[0];
    const frame = scratch.scan[0];
    const from = scratch.scan[1];
    const reach = scratch.scan[2];
    const last = clip.frameCount - 1;
    let end = frame - reach - CONTACT_FRAME_SNAP;
    if (end < from - last) end = from - last;
    for (let f = from; f >= end; f--) {
        let g = f;
        if (g < 0) {
            if (!s.loop) return;
            // A looping clip's frame 0 is its last: frame -1 is frame `last - 1`.
            g = (g % last) + last;
        }
        if (clip.contacts[g] & bit) {
            io[index] = (frame - f) / clip.frameRate;
            return;
        }
    }
}

/**
 * How soon a foot is next in contact in a clip state, from its time now, in the direction the
 * state plays (a clip played backwards comes to its earlier frames next): when the first frame
 * that has it is reached. Reads the horizon (seconds of the clip's time to look ahead) from
 * `io[index]` and writes the seconds there, or Infinity when no contact comes within the horizon
 * (or the state has no clip of two frames or more).
 * @param s the clip state, or null (Infinity)
 * @param side 0 left foot, 1 right foot
 * @param io holds the horizon at `index`, and receives the answer there
 * @param index where in `io`
 */
export function NextContactToRef(s: HumanoidClipState | null, side: number, io: Float64Array, index: number): void {
    const horizon = io[index];
    io[index] = Infinity;
    const clip = contactQuery(s, side);
    if (!s || !clip || !(horizon > 0)) return;
    const frame = scratch.query[1];
    const scan = scratch.scan;
    scan[0] = frame;
    scan[2] = horizon * clip.frameRate;
    // A contact starts on its first frame (as for `contacts`: a foot is down between two
    // frames only when it is on both): the next contact frame after now (before now, played
    // backwards), from there on.
    if (s.speed < 0) {
        scan[1] = Math.ceil(frame - CONTACT_FRAME_SNAP) - 1;
        scanEarlierToRef(s, clip, io, index);
    } else {
        scan[1] = Math.floor(frame + CONTACT_FRAME_SNAP) + 1;
        scanLaterToRef(s, clip, io, index);
    }
}

/**
 * How long ago a foot was last in contact in a clip state, from its time now (as
 * {@link NextContactToRef}, looking back the way the state has played): 0 while it is in contact
 * (on a frame that has it, or between two that both have it, whatever the horizon), else the
 * time since its last contact frame. Reads the horizon (seconds of the clip's time to look back)
 * from `io[index]` and writes the seconds there, or Infinity when no contact was within the horizon.
 * @param s the clip state, or null (Infinity)
 * @param side 0 left foot, 1 right foot
 * @param io holds the horizon at `index`, and receives the answer there
 * @param index where in `io`
 */
export function PreviousContactToRef(s: HumanoidClipState | null, side: number, io: Float64Array, index: number): void {
    const horizon = io[index];
    io[index] = Infinity;
    const clip = contactQuery(s, side);
    if (!s || !clip || !(horizon >= 0)) return;
    // Down now (whatever the horizon).
    if (IsContactHeld(s, side)) {
        io[index] = 0;
        return;
    }
    const frame = scratch.query[1];
    const scan = scratch.scan;
    scan[0] = frame;
    scan[2] = horizon * clip.frameRate;
    // Not down now: the last frame down at or before now (at or after, played backwards) within
    // the horizon (a contact's last frame is where it ends).
    if (s.speed < 0) {
        scan[1] = Math.ceil(frame - CONTACT_FRAME_SNAP);
        scanLaterToRef(s, clip, io, index);
    } else {
        scan[1] = Math.floor(frame + CONTACT_FRAME_SNAP);
        scanEarlierToRef(s, clip, io, index);
    }
}

/**
 * Per foot, how much it stands on the ground by a layer's clips' contacts around their time now,
 * into `out[0]` (left) and `out[1]` (right): per clip, 1 in a contact, easing to 0 along a
 * smootherstep over `io[index]` seconds of the clip's own time (at half speed the ease lasts twice
 * as long) after one ends and from 0 over as long before one begins (the two joined as
 * 1 - (1 - a)(1 - b), so that a foot between two near contacts stays down in part); then the
 * clips' shares by their weights, so that a cross-fade moves it smoothly. Continuous in the clips'
 * time for a span above 0; with a span of 0, the contact as held now (a clip of one frame: its
 * frame's). 1 when nothing plays.
 * @param layer the layer the contacts come from, or null (1 for both feet)
 * @param io holds the span at `index` (seconds)
 * @param index where in `io`
 * @param out receives the two shares
 */
export function GroundSharesToRef(layer: HumanoidLayer | null, io: Float64Array, index: number, out: Float64Array): void {
    const span = io[index];
    const t = scratch.span;
    for (let side = 0; side < 2; side++) {
        let sum = 0;
        let total = 0;
        if (layer) {
            for (const s of layer.states) {
                const clip = s.clip;
                const w = s.weight * s.fade;
                if (!clip || !(w > 0)) continue;
                total += w;
                if (IsContactHeld(s, side)) {
                    sum += w;
                    continue;
                }
                // The span in the clip's own seconds (as the look-ahead's horizon): a speed
                // changed mid-ease does not step the share.
                if (!(span > 0)) continue;
                t[0] = span;
                NextContactToRef(s, side, t, 0);
                const a = t[0] < span ? 1 - t[0] / span : 0;
                t[0] = span;
                PreviousContactToRef(s, side, t, 0);
                const b = t[0] < span ? 1 - t[0] / span : 0;
                const sa = a * a * a * (a * (6 * a - 15) + 10);
                const sb = b * b * b * (b * (6 * b - 15) + 10);
                sum += w * (1 - (1 - sa) * (1 - sb));
            }
        }
        out[side] = total > 0 ? sum / total : 1;
    }
}
