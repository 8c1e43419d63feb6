// A first-order low-pass's share for one time step, and its slow turn's step, shared by decode's
// steps that split a turn by time (the shoulders' fold and shake, the trunk's hips piece).
import type { Quaternion } from "@babylonjs/core/Maths/math.vector.js";

/** A first-order low-pass as decode's steps keep one: its time constant and how far its slow part follows the next decode's. */
export interface ILowPassStep {
    /** How far the slow part follows the next decode's, 0 to 1 (`[0]`; in an array: no number is handed to a call on the per-frame path). */
    readonly follow: Float64Array;
    /** Time constant, seconds (0: the slow part follows all the way). */
    fastSeconds: number;
}

/**
 * Sets `low.follow[0]`, how far the slow part follows the next decode's: from the time step,
 * `1 - exp(-step / fastSeconds)`; with no step (a pose set on its own) or no time constant, all the
 * way (1); over a zero step (a paused clip) not at all (0). Takes the low-pass whole, so that no
 * number is handed to the call (a double passed to a call V8 does not inline is boxed).
 * @param low the low-pass (its `fastSeconds` read, its `follow` written)
 * @param step the time step since the last decode in `step[0]`, seconds, or null for none
 */
export function NoteLowPassStep(low: ILowPassStep, step: Float64Array | null): void {
    const f = low.follow;
    if (!step) {
        f[0] = 1;
        return;
    }
    const dt = step[0];
    const t = low.fastSeconds;
    f[0] = !(t > 0) ? 1 : dt > 0 ? (dt < Infinity ? 1 - Math.exp(-dt / t) : 1) : 0;
}

/**
 * One step of a low-pass's slow turn: `slow` follows `now` by `follow[0]` of the way, as a
 * normalized lerp on the same side of the sphere as `slow` (the turns are close: a step's worth).
 * Both unit. Where that has no length (not finite), `slow` becomes `now`. The amount comes in an
 * array: a number handed to a call V8 does not inline is boxed. Allocation-free.
 * @param slow the slow turn, updated in place
 * @param now the turn it follows
 * @param follow how far it follows, `follow[0]`, 0 to 1 (see {@link NoteLowPassStep})
 */
export function FollowTurnInPlace(slow: Quaternion, now: Quaternion, follow: Float64Array): void {
    const f = follow[0];
    const sign = slow.x * now.x + slow.y * now.y + slow.z * now.z + slow.w * now.w < 0 ? -1 : 1;
    const x = slow.x + (now.x * sign - slow.x) * f;
    const y = slow.y + (now.y * sign - slow.y) * f;
    const z = slow.z + (now.z * sign - slow.z) * f;
    const w = slow.w + (now.w * sign - slow.w) * f;
    const length = Math.sqrt(x * x + y * y + z * z + w * w);
    if (!(length > 0)) {
        slow.copyFrom(now);
        return;
    }
    slow.x = x / length;
    slow.y = y / length;
    slow.z = z / length;
    slow.w = w / length;
}
