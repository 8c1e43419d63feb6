// Which end of a planted foot the source turns about (its ankle or its toes), per contact frame.
//
// A planted foot is rarely still from heel to toes: it rolls onto its toes as the heel comes up,
// spins on its heel or on the ball of the foot, swings its toes round a heel that stays. Planting
// holds one point of the character's foot still; held at the wrong end, the foot turns about a
// point the source did not turn about, and the hold drags what the clip moves: the CMU twirl onto
// a VRM spun on its heel (its ankle 0.06-0.24 leg a second, its toes 0.4-1.5), the character's
// toes were held instead (they stood 4 mm lower), and the hold's correction grew by a centimetre a
// frame until the toes rose level and the hold jumped to the ankle (the foot 3.1 times the
// source's jerk). Where the still end is, the character's own foot cannot tell: its length and
// pitch are not the source's, and its stillest point in the clip (mid-foot, say) lets both ends
// slide. The source can, so the converter writes it into the clip's contacts.
//
// The algorithm, per foot:
//   1. Per frame, the horizontal speeds of the source's ankle and toes (canonical avatar scales a
//      second, central differences), and their difference (ankle less toes) averaged over
//      `CONTACT_END_HALF_WINDOW` frames either side, against the noise of frame-to-frame speeds.
//   2. Along each contact, the toes are the still end once that difference passes
//      `CONTACT_END_MARGIN`, the ankle once it is below minus the margin; in between the last choice
//      holds. Each contact starts with no end known (planting falls back to the foot's own pitch),
//      unless the foot stands still (step 4).
//   3. When the choice changes, the first in a contact too, the change is written back from where
//      the two speeds last crossed (the difference's last change of sign): there both ends move
//      alike, so the held point goes over without a step in the foot's velocity; from the frame
//      the margin was passed, the end let go was already moving by it. Measured on the 34 unseen
//      AnimatedDrawings takes (136 pairs): the pitch's end held, 123 pairs met the thresholds;
//      the source's end switched at the margin's frame 119; each switch but the first written
//      back 127; the first too 128 (the report's sliding x0.36 more).
//   4. Before any choice in a contact, a foot whose two ends are both still (each slower than
//      `CONTACT_END_STILL`, averaged as above) stands on the end its pitch puts lower: its toes
//      where they are `STILL_TOES_LOWER` lower than its ankle, each from its T-pose height, else
//      its ankle. Either end of a still foot is still, but the character's foot turns where the
//      source's does not (its rotation goes onto a foot of another T-pose pitch relative to the
//      body's heading, which turns above it): held at the point between its ankle and toes that
//      its own pitch gave, both ends slid (Mixamo's standing gun shot onto the VRM sample, 0.0015
//      leg a second where the source's moves 0.0004). On the sets measured: sliding x0.45-0.69
//      (x0.99 on KayKit's clips of `report:extra`), nothing else changed (jerk, limb directions
//      and planted heights within 0.2%).
import { FootContact } from "./muscleClip.js";
import type { IFootTracks } from "./footContacts.js";

/**
 * How much slower than the other end a planted foot's end must move to be its still end, avatar
 * scales a second (about 0.1 m/s on an adult; a fifth of `CONTACT_SPEED`): less than that apart,
 * the end chosen last holds.
 */
export const CONTACT_END_MARGIN = 0.1;
/** The ends' speed difference is averaged over this many frames either side of each (against the noise of per-frame speeds). */
export const CONTACT_END_HALF_WINDOW = 2;
/**
 * Both ends of a planted foot slower than this, avatar scales a second (a fifth of
 * {@link CONTACT_END_MARGIN}: 2 cm a second on an adult), and no end chosen yet in its contact:
 * the foot is still, and it stands on the end its pitch puts lower (step 4 at the top of this file).
 */
export const CONTACT_END_STILL = CONTACT_END_MARGIN / 5;
/**
 * How much lower than its ankle a still foot's toes must be, each from its T-pose height, avatar
 * scales, for it to stand on them (4 mm at 1 m: where planting's own pivot has gone over to the
 * toes, twice its `PIVOT_SPAN`).
 */
export const STILL_TOES_LOWER = 0.004;

/**
 * Adds to each planted frame of `contacts` (bits {@link FootContact.Left} and
 * {@link FootContact.Right}, as `DetectFootContacts` finds them) the end its foot turns about
 * ({@link FootContact.LeftAnkleStill}, {@link FootContact.LeftToesStill} and the right foot's),
 * where the source says (see the algorithm at the top of this file). A foot without both an ankle
 * and a toes track gets none. In place; a frame gets at most one end per foot, and only while that
 * foot is planted.
 * @param feet the source's foot points per frame (canonical avatar scales)
 * @param contacts per frame, the contact flags to add the ends to
 * @param rate frames per second (> 0)
 */
export function DetectContactEnds(feet: IFootTracks, contacts: Uint8Array, rate: number): void {
    const n = contacts.length;
    if (n < 2) return;
    const ankleSpeed = new Float64Array(n);
    const toesSpeed = new Float64Array(n);
    const difference = new Float64Array(n);
    const w = CONTACT_END_HALF_WINDOW;
    const stillSum = CONTACT_END_STILL * (2 * w + 1);
    for (let s = 0; s < 2; s++) {
        const ankle = feet.points[s][0];
        const toes = feet.points[s][1];
        if (!ankle || !toes) continue;
        const foot = s === 0 ? FootContact.Left : FootContact.Right;
        const ankleEnd = s === 0 ? FootContact.LeftAnkleStill : FootContact.RightAnkleStill;
        const toesEnd = s === 0 ? FootContact.LeftToesStill : FootContact.RightToesStill;
        groundSpeedsToRef(ankle, n, rate, ankleSpeed);
        groundSpeedsToRef(toes, n, rate, toesSpeed);
        let end = 0;
        let contactStart = 0;
        // While the end is step 4's: the first frame after the last still one (a change of end is
        // not written back over still frames, which stand on step 4's end, further than the
        // window reaches).
        let fromStill = false;
        let afterStill = 0;
        for (let f = 0; f < n; f++) {
            if (!(contacts[f] & foot)) {
                end = 0;
                contactStart = f + 1;
                fromStill = false;
                continue;
            }
            // Over the window: the ends' speed difference (step 1) and each end's speed (step 4).
            let d = 0;
            let a = 0;
            let t = 0;
            for (let k = -w; k <= w; k++) {
                const g = f + k < 0 ? 0 : f + k > n - 1 ? n - 1 : f + k;
                d += ankleSpeed[g] - toesSpeed[g];
                a += ankleSpeed[g];
                t += toesSpeed[g];
            }
            d /= 2 * w + 1;
            difference[f] = d;
            // Both ends slower than CONTACT_END_STILL (as sums over the window).
            const still = a < stillSum && t < stillSum;
            const was = end;
            if (d > CONTACT_END_MARGIN) end = toesEnd;
            else if (d < -CONTACT_END_MARGIN) end = ankleEnd;
            else if (end === 0 && still) {
                // Still, no end chosen yet: the end the pitch stands on (step 4), from this frame on.
                const ankleUp = ankle[3 * f + 1] - feet.restHeight[s][0];
                const toesUp = toes[3 * f + 1] - feet.restHeight[s][1];
                end = toesUp < ankleUp - STILL_TOES_LOWER ? toesEnd : ankleEnd;
                contacts[f] |= end;
                fromStill = true;
                afterStill = f + 1;
                continue;
            } else if (fromStill && still) afterStill = f + 1;
            if (end !== was) {
                // Back to where the two speeds last crossed (never before the frame `was` was chosen
                // on, whose difference had the other sign, nor before the contact, nor over the
                // still frames of an end step 4 chose, but for the window's reach: a foot counts as
                // still until its move shows in the whole window); the first choice in a contact
                // too (the frames before it not known: `was` is 0).
                const reach = afterStill - (2 * w + 1);
                const first = fromStill && reach > contactStart ? reach : contactStart;
                let g = f;
                while (g > first && Math.sign(difference[g - 1]) === Math.sign(d)) g--;
                for (let h = g; h < f; h++) contacts[h] = (contacts[h] & ~was) | end;
                fromStill = false;
            }
            contacts[f] |= end;
        }
    }
}

/**
 * Per frame, how fast a point moves across the ground (x and z; canonical avatar scales a second):
 * central differences, one-sided at the ends. Into `out` (at least `n` long).
 * @param points x, y, z per frame
 * @param n frames (>= 2)
 * @param rate frames per second
 * @param out the speeds
 */
function groundSpeedsToRef(points: Float32Array, n: number, rate: number, out: Float64Array): void {
    for (let f = 0; f < n; f++) {
        const a = f > 0 ? f - 1 : 0;
        const b = f < n - 1 ? f + 1 : n - 1;
        out[f] = (Math.hypot(points[3 * b] - points[3 * a], points[3 * b + 2] - points[3 * a + 2]) * rate) / (b - a);
    }
}
