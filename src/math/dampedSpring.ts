/**
 * One step of a critically damped spring, x'' = -2 w x' - w^2 (x - target), exact over the step
 * for a target held constant during it: with off = x - target and m = (v + w off) dt,
 * x <- target + (off + m) e and v <- (v - w m) e, e = exp(-w dt). Steps `count` coordinates at
 * once: positions `state[x + i]`, rates `state[v + i]` (per second), targets `target[at + i]`.
 * `p[0]` is w (radians per second), `p[1]` the step (seconds, > 0). Numbers other than small
 * indices pass in arrays (V8 boxes a double passed to a call it does not inline, which allocates).
 * Allocation-free; the body drop, the trunk's steady point and look-at share it.
 * @param state positions and rates, updated in place
 * @param x index of the first position in `state`
 * @param v index of the first rate in `state`
 * @param target the targets
 * @param at index of the first target in `target`
 * @param count how many coordinates
 * @param p [w, dt]
 */
export function CriticallyDampedStepInPlace(state: Float64Array, x: number, v: number, target: Float64Array, at: number, count: number, p: Float64Array): void {
    const omega = p[0];
    const dt = p[1];
    const e = Math.exp(-omega * dt);
    for (let i = 0; i < count; i++) {
        const off = state[x + i] - target[at + i];
        const m = (state[v + i] + omega * off) * dt;
        state[x + i] = target[at + i] + (off + m) * e;
        state[v + i] = (state[v + i] - omega * m) * e;
    }
}
