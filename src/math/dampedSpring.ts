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

/**
 * One step of a critically damped third-order follower that tracks a target moving at constant
 * speed without lag: (D + w)^3 x = 3 w^2 D c + w^3 c, D the time derivative, c the target. Over
 * the step the target is taken to move linearly from `target[prev + i]` to `target[at + i]`; the
 * error e = x - c then obeys (D + w)^3 e = 0, so e(t) = (A + B t + C t^2) exp(-w t) exactly, with
 * A, B and C from the error, its rate and its acceleration at the step's start. A target that
 * starts or stops moving is caught up with over about 3 / w seconds (position, rate and
 * acceleration continuous; the acceleration changes at once, by 3 w^2 times the change of the
 * target's speed), and one moving steadily is followed exactly, where a critically damped spring
 * ({@link CriticallyDampedStepInPlace}) lags it by 2 / w seconds of its motion.
 * Positions `state[x + i]`, rates `state[v + i]`, accelerations `state[a + i]`; `p` is [w, dt]
 * (dt > 0; a step so short that the target's move over it is no finite speed takes the target as
 * having jumped at its start). Allocation-free.
 * @param state positions, rates and accelerations, updated in place
 * @param x index of the first position in `state`
 * @param v index of the first rate
 * @param a index of the first acceleration
 * @param target the targets, this step's and the last step's
 * @param at index of the first of this step's targets in `target`
 * @param prev index of the first of the last step's targets in `target`
 * @param count how many coordinates
 * @param p [w, dt]
 */
export function CriticallyDampedRampStepInPlace(
    state: Float64Array,
    x: number,
    v: number,
    a: number,
    target: Float64Array,
    at: number,
    prev: number,
    count: number,
    p: Float64Array,
): void {
    const w = p[0];
    const dt = p[1];
    const e = Math.exp(-w * dt);
    for (let i = 0; i < count; i++) {
        let speed = (target[at + i] - target[prev + i]) / dt;
        let from = target[prev + i];
        if (!(speed > -Infinity && speed < Infinity)) {
            // A step too short for the target's move to be a speed: the target jumped at its start.
            speed = 0;
            from = target[at + i];
        }
        const e0 = state[x + i] - from;
        const e1 = state[v + i] - speed;
        const e2 = state[a + i];
        const bb = e1 + w * e0;
        const cc = (e2 + 2 * w * e1 + w * w * e0) * 0.5;
        const poly = e0 + (bb + cc * dt) * dt;
        const slope = bb + 2 * cc * dt;
        state[x + i] = target[at + i] + poly * e;
        state[v + i] = speed + (slope - w * poly) * e;
        state[a + i] = (2 * cc - 2 * w * slope + w * w * poly) * e;
    }
}
