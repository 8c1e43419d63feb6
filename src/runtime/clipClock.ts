// A playing clip's clock: its time, its fade, and its events (loops, the end), advanced once per
// update of the clip player before any pose is sampled.

import type { HumanoidClipState } from "./clipLayer.js";
import type { HumanoidClipPlayer } from "./clipPlayer.js";

/**
 * Most loops one update counts (loop events and root motion alike): a step that crosses more
 * (a speed of millions, a step of hours) counts this many. One event and one root segment per
 * loop crossed, uncapped, hung the update (an infinite speed never returned).
 */
export const MAX_LOOPS_PER_STEP = 100;

/**
 * Advances one state's clock by the player's time step (`player.step[0]`, which its update sets
 * before the clocks run): time, fade and events (loops, the end, on the player's observables); the
 * loops crossed go to `wraps`. The clip player's, each update, for every state with a clip.
 * Allocation-free.
 * @param player the player whose step it takes and whose observables it notifies
 * @param s the state (its clip set)
 */
export function AdvanceClipClock(player: HumanoidClipPlayer, s: HumanoidClipState): void {
    const dt = player.step[0];
    const clip = s.clip!;
    const duration = clip.durationSeconds;
    const before = s.timeSeconds;
    // A speed that is not a number or infinite (a state's field set so) plays as 0.
    const speed = s.speed;
    if (!s.fresh && speed > -Infinity && speed < Infinity) s.timeSeconds += dt * speed;
    // Fades.
    // A fade ends only in its own direction: over an update of no time a clip fading in is
    // still at 0 and one fading out still at 1 (a cross-fade followed by such an update
    // freed the incoming clip and kept the outgoing one for good).
    if (s.fadeRate !== 0) {
        s.fade += s.fadeRate * dt;
        if (s.fadeRate > 0 && s.fade >= 1) {
            s.fade = 1;
            s.fadeRate = 0;
        } else if (s.fadeRate < 0 && s.fade <= 0) {
            s.fade = 0;
            s.clip = null;
            return;
        }
    }
    // Loops and the end.
    let wraps = 0;
    if (duration > 0 && !s.fresh) {
        if (s.loop) {
            wraps = Math.floor(s.timeSeconds / duration) - Math.floor(before / duration);
            // A step crossing more loops than anyone watches (a speed of millions) counts
            // MAX_LOOPS_PER_STEP of them, events and root motion alike: one each was a hang.
            if (wraps > MAX_LOOPS_PER_STEP) wraps = MAX_LOOPS_PER_STEP;
            else if (wraps < -MAX_LOOPS_PER_STEP) wraps = -MAX_LOOPS_PER_STEP;
            s.wraps = wraps;
            // One event per loop, even when a long step crosses several; none more once a
            // handler has put another clip (or this one afresh) in the state.
            for (let k = wraps < 0 ? -wraps : wraps; k > 0 && s.clip === clip && !s.fresh; k--) player.onLoopObservable.notifyObservers(s);
            if (s.clip !== clip || s.fresh) {
                // The state now plays what the handler started, from its start: no loop of its own.
                s.wraps = 0;
                return;
            }
        } else if (!s.ended && (s.speed >= 0 ? s.timeSeconds >= duration : s.timeSeconds <= 0)) {
            s.ended = true;
            player.onEndObservable.notifyObservers(s);
        }
    } else if (duration <= 0 && !s.fresh && !s.loop && !s.ended && dt > 0) {
        // A clip of one frame ends as soon as it has been shown.
        s.ended = true;
        player.onEndObservable.notifyObservers(s);
    }
    s.wraps = wraps;
}
