/**
 * Smoothing within a band: before a curve is reduced to keys, the jitter finer than the
 * reduction's tolerance is taken out of it, so that a clip is never jerkier than its source for
 * having been reduced, and mocap's own sub-tolerance noise does not reach the character.
 *
 * The curve sought is the one of least jerk energy E(x) = sum over frames of (x[i] - 3 x[i-1] +
 * 3 x[i-2] - x[i-3])^2 whose every sample stays within `band` of the source's, the two end
 * samples kept as they are (so a looping clip's seam stays where the source put it). It is found
 * by projected gradient descent: each round moves every inner sample against the gradient of E
 * and back into its band. The gradient is 2 D^T D x, D the third difference; D^T D is the 7-tap
 * filter (-1, 6, -15, 20, -15, 6, -1) with its largest eigenvalue 64 (at the highest frequency,
 * (2 sin(w/2))^6), so the step 1/128 of the gradient (1/64 of D^T D x) never raises E and takes
 * out the highest frequency whole in one round. Where no band binds, the rounds are a linear
 * filter, (1 - (2 sin(w/2))^6 / 64)^rounds at angular frequency w a frame: over the default eight
 * rounds it keeps 34% of a wave at a quarter of the sample rate, 99.3% at a tenth (3 Hz at 30
 * frames a second) and 99.99% at a twentieth, the motion itself. A few rounds are the point, not convergence: the
 * jitter sits at the top of the spectrum, and E's true minimum would also bend the motion's own
 * slow curves as far as the band lets it.
 *
 * Two passes of plain arithmetic over Float64Arrays per round (see `test/clip/smoothing.test.ts`
 * for the oracle: the same rounds written as a dense matrix product).
 */

/** Rounds of {@link SmoothWithinBand} by default: enough to quiet the top half of the spectrum (see the file's note). */
export const SMOOTHING_ROUNDS = 8;

/**
 * The curve of least jerk within `band` of every sample, its first and last samples kept, as
 * {@link SMOOTHING_ROUNDS} rounds of projected gradient descent on the summed squared third
 * differences (see the file's note): each inner sample ends within `band` of its own (at most
 * float rounding), and the energy never rises from the samples'. `band` 0, or fewer than 5
 * samples, returns the samples unchanged.
 * @param samples a curve's values, one per frame
 * @param band how far a sample may move, in the curve's unit (>= 0)
 * @param rounds how many rounds (default {@link SMOOTHING_ROUNDS})
 * @returns a new array (the samples are not changed)
 */
export function SmoothWithinBand(samples: ArrayLike<number>, band: number, rounds = SMOOTHING_ROUNDS): Float64Array {
    const n = samples.length;
    const x = Float64Array.from(samples);
    if (!(band > 0) || n < 5 || !(rounds > 0)) return x;
    const d = new Float64Array(n + 3);
    for (let r = 0; r < rounds; r++) {
        // d[i] is the third difference ending at i (0 where it would reach before the curve).
        for (let i = 3; i < n; i++) d[i] = x[i] - 3 * x[i - 1] + 3 * x[i - 2] - x[i - 3];
        for (let i = 1; i < n - 1; i++) {
            // (D^T D x)[i]: each third difference that x[i] takes part in, by its weight in it.
            const g = d[i] - 3 * d[i + 1] + 3 * d[i + 2] - d[i + 3];
            const v = x[i] - g / 64;
            const s = samples[i];
            x[i] = v < s - band ? s - band : v > s + band ? s + band : v;
        }
    }
    return x;
}
