import { FootContact } from "./muscleClip.js";
import type { IFootTracks } from "./footContacts.js";

/**
 * How long the floor under a take's planted feet is averaged over, seconds: the standard deviation
 * of the Gaussian weights (see {@link FloorRise}). It follows a floor that drifts or slopes over
 * seconds and not the step-to-step differences between the feet (one foot standing a centimetre
 * higher than the other on its own: at a step a second these weigh in by under 1%).
 */
export const FLOOR_RISE_SECONDS = 0.5;

/**
 * How far the floor under a take's planted feet rises above the clip's floor as a whole, per frame
 * (avatar scales, 0 or more), for the converter to take out of the body's height: each character
 * then stands on its own flat ground all along the take, as it does at the take's lowest.
 *
 * A mocap floor is not always level or still: CMU's walk (cgspeed's BVH) climbs 0.05 avatar scales
 * over its 2.9 seconds, its planted feet higher at each step, and with one floor height for the
 * whole clip (`MuscleClip.groundHeight`) every character's planted feet floated up to 4 cm above
 * its ground by the take's end. Here the floor under a frame is the Gaussian-weighted mean (over
 * {@link FLOOR_RISE_SECONDS}) of the lowest planted foot point's height, from its T-pose height,
 * on the frames with a contact: smooth, and where no contact lies within three deviations (a long
 * fall, a handstand), eased from the floor before to the floor after. Only a rise counts: a floor below the clip's is
 * left to the runtime, which lifts a planted foot that would sink onto its ground (a lying figure's
 * feet, lower than in the T-pose, must not raise its body off the floor). A take on steps or onto
 * a box plays on flat ground, its body lowered as the floor under its feet rises.
 * @param feet the foot points of every frame (canonical, avatar scales)
 * @param contacts the clip's contact flags ({@link FootContact.Left}, {@link FootContact.Right})
 * @param frameCount frames
 * @param rate frames per second
 * @param groundHeight the clip's floor as a whole (avatar scales; `DetectFootContacts`)
 * @returns per frame, the rise (avatar scales; all 0 without contacts)
 */
export function FloorRise(feet: IFootTracks, contacts: Uint8Array, frameCount: number, rate: number, groundHeight: number): Float64Array {
    // The lowest planted foot point's height from its T-pose height, on frames with a contact.
    const floor = new Float64Array(frameCount).fill(NaN);
    for (let f = 0; f < frameCount; f++) {
        let low = Infinity;
        for (let s = 0; s < 2; s++) {
            if (!(contacts[f] & (s === 0 ? FootContact.Left : FootContact.Right))) continue;
            for (let p = 0; p < 2; p++) {
                const pts = feet.points[s][p];
                if (pts) low = Math.min(low, pts[f * 3 + 1] - feet.restHeight[s][p]);
            }
        }
        if (Number.isFinite(low)) floor[f] = low;
    }
    const rise = new Float64Array(frameCount);
    const sigma = Math.max(1, FLOOR_RISE_SECONDS * rate);
    const reach = Math.ceil(3 * sigma);
    const weights = new Float64Array(reach + 1);
    for (let k = 0; k <= reach; k++) weights[k] = Math.exp(-0.5 * (k / sigma) ** 2);
    let known = false;
    for (let f = 0; f < frameCount; f++) {
        let sum = 0;
        let total = 0;
        const a = Math.max(0, f - reach);
        const b = Math.min(frameCount - 1, f + reach);
        for (let k = a; k <= b; k++) {
            const v = floor[k];
            if (v !== v) continue;
            const w = weights[Math.abs(k - f)];
            sum += w * v;
            total += w;
        }
        if (total > 0) {
            rise[f] = sum / total;
            known = true;
        } else {
            rise[f] = NaN;
        }
    }
    if (!known) return rise.fill(0);
    // Frames with no contact near: between two known frames a smoothstep from one's floor to the
    // other's (no step in the body's height), before the first and after the last known, theirs.
    let f = 0;
    while (f < frameCount) {
        if (rise[f] === rise[f]) {
            f++;
            continue;
        }
        let e = f;
        while (e < frameCount && rise[e] !== rise[e]) e++;
        const from = f > 0 ? rise[f - 1] : rise[e];
        const to = e < frameCount ? rise[e] : from;
        for (let k = f; k < e; k++) {
            const t = (k - f + 1) / (e - f + 1);
            rise[k] = from + (to - from) * t * t * (3 - 2 * t);
        }
        f = e;
    }
    for (let f = 0; f < frameCount; f++) rise[f] = Math.max(0, rise[f] - groundHeight);
    return rise;
}
