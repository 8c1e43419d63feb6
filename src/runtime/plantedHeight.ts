import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";

/*
 * The height of a held foot whose source's ankle stands still, kept as still.
 *
 * Planting holds a planted foot's place on the ground exactly and leaves its height to the clip,
 * through the legs' shape (`HumanoidLegShape`): a foot that stands still in the source (an idle,
 * a gesture, a kettlebell swing) then goes up and down by what the clip's curves carry that the
 * source did not have: their reduction within the tolerance, the denoiser's smoothed hips carried
 * down the leg, the body's and the foot's curves reduced each on its own, the legs' shape fitted
 * to them. Tenths of a millimetre, but against an ankle that does not move at all it was 6 to 7
 * times the source's jerk (Mixamo's waving gesture onto three characters).
 *
 * Where the clip says the source's ankle stands still (`FootContact.LeftAnkleStill`, as planting
 * weighs it in) and planting holds the foot, the ankle's height goes through a speed-adaptive
 * low-pass (the 1-euro filter of Casiez, Roussel and Vogel, 2012): the slower the height moves,
 * the lower its cutoff, so jitter about a still height is taken out while a height that moves
 * passes with little lag. Only there: where the source's foot rolls (its toes still, its heel
 * rising) the ankle's height is motion, and low-passed it lagged (a walk's legs 0.1 to 0.25 degree
 * further from the source's).
 *
 * 1. Not held (the weight 0) the filter follows the height exactly; it starts there, at rest, as
 *    the weight comes in.
 * 2. Each update: the height's speed, low-passed at `PLANTED_SPEED_CUTOFF_HZ`; the cutoff
 *    `PLANTED_MIN_CUTOFF_HZ` plus `PLANTED_CUTOFF_PER_SPEED` times that speed in the character's
 *    scales a second; the height low-passed at that cutoff.
 * 3. The height shown is the clip's moved toward the filtered one by the weight (planting's hold
 *    times how surely the ankle stands still, each eased), so nothing jumps as either changes.
 */

/** The lowest cutoff of a planted foot's height, Hz: what a still foot's jitter is low-passed at. */
export const PLANTED_MIN_CUTOFF_HZ = 1;
/** How the cutoff rises with the height's speed, Hz per character scale a second (a height moving a third of a scale a second passes at about 30 Hz). */
export const PLANTED_CUTOFF_PER_SPEED = 90;
/** The cutoff of the speed that sets the height's cutoff, Hz. */
export const PLANTED_SPEED_CUTOFF_HZ = 1;

/** A one-pole low-pass's share of a step toward its input, at cutoff `hz` over `dt` seconds. */
function lowPassShare(hz: number, dt: number): number {
    return dt / (dt + 1 / (2 * Math.PI * hz));
}

/**
 * The filter written plainly over a whole series, one foot (the oracle of
 * {@link PlantedFootHeight}'s tests; see the algorithm above). Cold path; allocates.
 * @param heights the foot's height per update, metres
 * @param weights per update, how much of the filtered height to show (0 to 1)
 * @param steps per update, seconds since the last (0: paused)
 * @param scale the character's scale, metres
 * @returns the heights shown
 */
export function FilterPlantedHeightsReference(heights: readonly number[], weights: readonly number[], steps: readonly number[], scale: number): number[] {
    const out: number[] = [];
    let on = false;
    let filtered = 0;
    let speed = 0;
    let last = 0;
    heights.forEach((height, k) => {
        const weight = Math.min(1, weights[k]);
        const dt = steps[k];
        if (!(weight > 0)) {
            on = false;
            out.push(height);
            return;
        }
        if (!on) {
            on = true;
            filtered = last = height;
            speed = 0;
            out.push(height);
            return;
        }
        if (dt > 0) {
            speed += lowPassShare(PLANTED_SPEED_CUTOFF_HZ, dt) * ((height - last) / dt - speed);
            last = height;
            filtered += lowPassShare(PLANTED_MIN_CUTOFF_HZ + (PLANTED_CUTOFF_PER_SPEED * Math.abs(speed)) / scale, dt) * (height - filtered);
        }
        out.push(height + (filtered - height) * weight);
    });
    return out;
}

/**
 * The heights of the two feet through a speed-adaptive low-pass where they are held with their
 * source's ankle still (see the algorithm above). Per-frame path: no allocation; numbers come in
 * and go out in arrays and the math is written out by hand, since V8 boxes a double passed to or
 * returned from a function it does not inline ({@link FilterPlantedHeightsReference} is the
 * readable version, and the tests' oracle).
 */
export class PlantedFootHeight {
    /** Per foot (4 each): the filtered height, metres; its speed, metres a second; the last height given; 1 while a hold is on. */
    private readonly _state = new Float64Array(8);
    /** Per foot: whether the filter ran since the last {@link beginSolve} (a solve that left it out restarts it). */
    private readonly _ran = new Uint8Array(2);
    /** The character's up (unit, rig space): heights are along it. */
    private readonly _up = new Float64Array(3);

    /**
     * @param _scale the character's scale, metres (its speeds are read in scales a second)
     * @param up the character's up, rig space (`avatar.frame.up`; a rig need not stand on +Y)
     */
    constructor(
        private readonly _scale: number,
        up: Vector3,
    ) {
        const l = Math.hypot(up.x, up.y, up.z);
        this._up[0] = up.x / l;
        this._up[1] = up.y / l;
        this._up[2] = up.z / l;
    }

    /**
     * Called as each solve begins: a foot the last solve did not filter (its goal left out, other
     * proportions, no weight at all) starts afresh at its next hold rather than from a height
     * kept from before the gap.
     */
    public beginSolve(): void {
        for (let f = 0; f < 2; f++) {
            if (!this._ran[f]) this._state[4 * f + 3] = 0;
            this._ran[f] = 0;
        }
    }

    /**
     * Moves a foot's goal along the character's up to the height to show it at.
     * @param foot 0 left, 1 right
     * @param target the foot's goal as the clip and the legs' shape put it, rig space, metres; moved along up
     * @param hold per foot, planting's hold (`footGoalHold`)
     * @param still per foot, how surely the source's ankle stands still (`footAnkleStill`): the
     *   filtered height shows by the product of the two (0: `target` as it is)
     * @param step `step[0]`: seconds since the last update (0: paused, the filter does not move)
     */
    public filterInPlace(foot: number, target: Vector3, hold: Float64Array, still: Float64Array, step: Float64Array): void {
        const st = this._state;
        const up = this._up;
        const i = 4 * foot;
        this._ran[foot] = 1;
        const w = hold[foot] * still[foot];
        const height = target.x * up[0] + target.y * up[1] + target.z * up[2];
        if (!(w > 0)) {
            st[i + 3] = 0;
            return;
        }
        if (st[i + 3] === 0) {
            st[i + 3] = 1;
            st[i] = height;
            st[i + 1] = 0;
            st[i + 2] = height;
            return;
        }
        const dt = step[0];
        if (dt > 0 && dt < Infinity) {
            // Two one-pole low-passes (`lowPassShare` written out): the speed, then the height at
            // a cutoff that rises with it.
            const speed = (height - st[i + 2]) / dt;
            st[i + 2] = height;
            st[i + 1] += (dt / (dt + 1 / (2 * Math.PI * PLANTED_SPEED_CUTOFF_HZ))) * (speed - st[i + 1]);
            const v = st[i + 1] < 0 ? -st[i + 1] : st[i + 1];
            const hz = PLANTED_MIN_CUTOFF_HZ + (PLANTED_CUTOFF_PER_SPEED * v) / this._scale;
            st[i] += (dt / (dt + 1 / (2 * Math.PI * hz))) * (height - st[i]);
        }
        const move = (st[i] - height) * (w < 1 ? w : 1);
        target.x += up[0] * move;
        target.y += up[1] * move;
        target.z += up[2] * move;
    }

    /** Forgets both feet's filters (after a jump in time or place): the next hold starts afresh. */
    public reset(): void {
        this._state[3] = 0;
        this._state[7] = 0;
        this._ran.fill(0);
    }
}
