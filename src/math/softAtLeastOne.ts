/** Half the span over which {@link SoftAtLeastOne} rounds its corner. */
const SOFT_CORNER = 0.5;

/**
 * `max(1, t)` with its corner at 1 rounded over `1 +- 0.5`, continuous to the second derivative:
 * 1 up to 0.5, `t` from 1.5, between them 1 + 0.5 (2u^3 - u^4), whose slope
 * is the smoothstep from 0 to 1 (u = t - 0.5). What the feet on the ground lift the body by is their weighted
 * need over this of their weights: the need of one foot as it grounds, the mean of two grounded
 * ones. Over `max(1, t)` the lift's velocity stepped as two landing feet's weights passed 1
 * together (the child's jump onto the KayKit mannequin, the head's jerk 3.2x the source's at the
 * landing; 2.12x -> 2.01x over the whole take).
 */
export function SoftAtLeastOne(t: number): number {
    if (t <= 1 - SOFT_CORNER) return 1;
    if (t >= 1 + SOFT_CORNER) return t;
    const u = (t - 1 + SOFT_CORNER) / (2 * SOFT_CORNER);
    return 1 + SOFT_CORNER * (2 * u ** 3 - u ** 4);
}

/**
 * {@link SoftAtLeastOne} of `io[index]`, in place: the per-frame form, no number passed to or
 * returned from a call (see `hotMath`); the readable function above is its test's oracle.
 */
export function SoftAtLeastOneInPlace(io: Float64Array, index: number): void {
    const t = io[index];
    if (t <= 1 - SOFT_CORNER) io[index] = 1;
    else if (t < 1 + SOFT_CORNER) {
        const u = (t - 1 + SOFT_CORNER) / (2 * SOFT_CORNER);
        io[index] = 1 + SOFT_CORNER * u * u * u * (2 - u);
    }
}
