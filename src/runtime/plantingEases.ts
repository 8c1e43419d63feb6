// How foot planting (`HumanoidFootPlanting`) eases a foot in and out: how long a foot that lands
// takes to stop and the landing speeds that stretch that stop, how long a foot below the floor
// takes to rise onto it, how long a released foot takes to go back onto the clip's path and the
// cubic it goes back along, and how the source's still ankle comes in and goes out.

import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CONTACT_SPEED } from "../clip/footContacts.js";

/** Default time a released foot takes to go back to the clip's own path, seconds. */
export const DEFAULT_CONTACT_BLEND_SECONDS = 0.2;
/**
 * Default time a foot that touches down takes to come to a stop, seconds: 0.025, about what a
 * landing foot takes (the child's jump mocap at 120 fps slows its toes over 3 frames). The hold
 * eases in over this time less one frame of the clip, so the foot slows from the speed it lands
 * with to rest at a constant rate (no step in its velocity) and travels half that speed times the
 * ease more: 17 ms at 120 fps, 8 ms at 60, and none at 40 fps or less, where the source's own
 * samples show the stop as a step too. A stop at once in a 120 fps take steps the foot's velocity
 * where the source's is smooth, and since a step's third difference against the motion's own grows
 * as the rate squared, it showed as jerk (the child's jump 1.33x the source's on five targets,
 * 1.25-1.28x with the ease); a full 0.025-0.03 s ease at every rate made 30 fps takes, whose feet
 * land still moving, slide three times as far.
 */
export const DEFAULT_TOUCHDOWN_SECONDS = 0.025;
/**
 * Seconds a planted foot whose lower end (ankle or toes) is below the floor takes to rise onto it
 * (its T-pose height): a foot longer or steeper than the source's, pitched as the source's, would
 * dig its toes in.
 */
export const FLOOR_EASE_SECONDS = 0.1;
/**
 * Over how long the share of a held foot's height kept as still as its source's ankle
 * (`HumanoidRigSolver.footAnkleStill`, `PlantedFootHeight`) comes in and goes out, seconds.
 */
export const ANKLE_STILL_EASE_SECONDS = 0.2;
/** How the floor lift rounds max(0, -height) off, avatar scales of the pose (half a centimetre at 1 m). */
export const FLOOR_ROUNDING = 0.005;
/**
 * A landing foot's speed up to which it stops over the touch-down's time as set (`touchdownSeconds`),
 * the character's avatar scales per second: the speed under which a clip's contacts count a foot as
 * still (`CONTACT_SPEED`). A foot that lands faster stops over as much longer as it is faster, so
 * that it slows down no harder: on a character of other proportions than the source's a still
 * source foot can land moving (a chibi's short legs under a body that travels as the source's: a
 * CMU run onto the KayKit mannequin landed its feet at 0.8-1.0). Its speed was cut to this at once
 * at the touch-down instead, a step in the foot's velocity in one frame (that run's feet 2.1-2.3
 * times the source's jerk, the pair's 1.78 against AnimatorAvatar's 1.68; 1.61 now).
 */
export const STILL_LANDING_SPEED = CONTACT_SPEED;
/**
 * The fastest a landing foot is taken to move, avatar scales per second (twice
 * `STILL_LANDING_SPEED`, so a stop takes at most twice the touch-down's time); what it moves faster
 * than that is cut at once. A stop at a steady rate travels half the speed times its time, so the
 * hold's travel grows as the speed squared: a kick onto the mannequin landing its foot at 3.3 scales
 * a second, stopped over all of it, ended planted 11 degrees off the source's shin direction (8.6
 * at three times, within 8 at twice).
 */
export const MAX_LANDING_SPEED = 2 * STILL_LANDING_SPEED;
/**
 * The release's cubic Hermite at `t[0]` of its way (0 to 1) over `t[1]` seconds into `out`: from
 * `from` with the rate `rate` (per second) to `end` at rest. `out` may not be an input.
 * Allocation-free.
 * @param from where the release starts (the correction as the foot lifts off, or as a cut-short release left it)
 * @param rate its rate there, per second
 * @param end where the release ends, at rest
 * @param t [0] how far along (0 to 1), [1] the release's length, seconds
 * @param out receives the point
 */
export function ReleaseCurveToRef(from: Vector3, rate: Vector3, end: Vector3, t: Float64Array, out: Vector3): void {
    const x = t[0];
    const h00 = (2 * x - 3) * x * x + 1;
    const h10 = ((x - 2) * x + 1) * x * t[1];
    const h01 = 1 - h00;
    out.x = from.x * h00 + rate.x * h10 + end.x * h01;
    out.y = from.y * h00 + rate.y * h10 + end.y * h01;
    out.z = from.z * h00 + rate.z * h10 + end.z * h01;
}
