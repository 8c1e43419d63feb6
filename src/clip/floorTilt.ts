import type { IFootTracks } from "./footContacts.js";
import { FootContact } from "./muscleClip.js";
import { ForEachFrameRun } from "./frameRuns.js";

/**
 * A take's floor that tilts (a capture volume's floor calibrated a degree off level).
 *
 * CMU's walk (cgspeed's BVH) climbs 0.05 avatar scales over its 2.9 seconds: each planted foot
 * stands a little higher than the one before, and with one floor for the whole clip
 * (`MuscleClip.groundHeight`) every character's planted feet floated up to 4 cm above its ground
 * by the take's end. The converter fits a plane to where the take's feet stand, and where the
 * fit says the floor tilts, takes the tilt out of the body's height: every character then walks
 * on its own level ground.
 *
 * The fit (`FitFloorTilt`): each contact run of each foot gives one point of the floor, the
 * medians over the run of its lowest foot point (ankle or toes, from its T-pose height) and of
 * where that point stands on the ground plane. A plane through them by least squares, every run
 * weighing the same (a run's frames are one standing of the foot, not independent samples),
 * its slope ridge-regularized ({@link FLOOR_TILT_RIDGE_SHARE}): along a direction where the
 * runs spread little (a walk on a line has no spread across it) the slope is all but unknown and
 * is taken toward 0. The slope counts by how clearly the runs show it: its t-statistic (the rise
 * the slope gives over the runs' spread along it, over the fit's residual, never taken under
 * {@link FLOOR_TILT_NOISE_SHARE}) from {@link FLOOR_TILT_T_MIN} (none) to
 * {@link FLOOR_TILT_T_FULL} (all of it), a smoothstep; by its angle, all of it up to
 * {@link FLOOR_TILT_FULL_DEG}, none from {@link FLOOR_TILT_MAX_DEG} (stairs and a steep ramp are
 * the take's motion, not its floor's error; a real incline under 3 degrees is leveled too, and
 * from 3 to 6 in part: `levelFloor: false` keeps it); and by how much better the plane fits than
 * one step in time order does ({@link FLOOR_TILT_STEP_FULL}: a take that steps up onto a
 * platform is no tilted floor, and leveled as one its two flat floors would slope). Fewer than
 * {@link FLOOR_TILT_MIN_RUNS} runs, or a counted rise under {@link FLOOR_TILT_NOISE_SHARE} of a
 * leg: none. The plane goes on past where the feet stood (a body that travels on beyond its last
 * standing keeps going down with it).
 *
 * Measured over the public and 34 unseen takes: the CMU walks climb 0.5-0.9 degrees (t 8-19, a
 * plane leaving 0.04-0.52 of the best step's residual) and are leveled; CMU's kicks, back
 * handspring and a child's dance (t 4.6-6.2, 0.59-1.03) in part; every other take, Bandai's and
 * the AnimatedDrawings walks and runs among them, not at all (t under 3: a dance's tiptoes and a
 * lying figure's raised feet scatter about any plane).
 */

/**
 * The ridge on the floor's slope, as a spread in legs: the runs' spread along a direction (its
 * standard deviation) weighs against this in how much of the slope along it the fit keeps (a
 * spread of a leg keeps 94%, of a twentieth of a leg 4%).
 */
export const FLOOR_TILT_RIDGE_SHARE = 0.25;

/** How well a foot's standing shows the floor's height at best, legs: the fit's residual is never taken under it (about 2 mm on a person). */
export const FLOOR_TILT_NOISE_SHARE = 0.002;

/** The slope's t-statistic from which it counts at all. */
export const FLOOR_TILT_T_MIN = 3;

/** The slope's t-statistic from which it counts in full. */
export const FLOOR_TILT_T_FULL = 6;

/** A floor's tilt counts in full up to this angle, degrees. */
export const FLOOR_TILT_FULL_DEG = 3;

/** A floor's tilt counts not at all from this angle on, degrees (a ramp or stairs). */
export const FLOOR_TILT_MAX_DEG = 6;

/**
 * The plane's residual (sum of squares) over the best single step's in time order
 * (`BestStepResidual`) up to which the tilt counts in full: a floor that climbs steadily leaves
 * a plane far less than any one step does (CMU's walks 0.04-0.52), a floor with a step in it the
 * other way round.
 */
export const FLOOR_TILT_STEP_FULL = 0.5;

/** The same ratio from which the tilt counts not at all (see {@link FLOOR_TILT_STEP_FULL}). */
export const FLOOR_TILT_STEP_NONE = 1;

/** The fewest contact runs a floor's tilt is fitted to (two more than the plane's three unknowns). */
export const FLOOR_TILT_MIN_RUNS = 5;

/** A take's floor as a plane (canonical avatar frame, avatar scales), see {@link FitFloorTilt}. */
export interface IFloorTilt {
    /** The floor's rise per avatar scale along x (canonical: the character's right at the T-pose). */
    readonly slopeX: number;
    /** The floor's rise per avatar scale along z (canonical: forward at the T-pose). */
    readonly slopeZ: number;
    /** Where on the ground plane the rise is 0: the runs' middle, avatar scales (x). */
    readonly originX: number;
    /** Where on the ground plane the rise is 0: the runs' middle, avatar scales (z). */
    readonly originZ: number;
    /** How much of the slope counts, 0 to 1 (the fit's clarity, the tilt's angle, how much better a plane fits than one step, and 0 under a rise of `FLOOR_TILT_NOISE_SHARE`; see the file's comment). */
    readonly share: number;
    /** The fitted tilt, degrees (before `share`). */
    readonly degrees: number;
    /** The slope's t-statistic (before `share`). */
    readonly t: number;
    /** Contact runs the plane is fitted to. */
    readonly runs: number;
    /** The counted rise from the lowest run to the highest along the slope, avatar scales (what leveling takes out). */
    readonly rise: number;
}

const LEVEL: IFloorTilt = { slopeX: 0, slopeZ: 0, originX: 0, originZ: 0, share: 0, degrees: 0, t: 0, runs: 0, rise: 0 };

function smoothstep(t: number): number {
    const c = Math.min(1, Math.max(0, t));
    return c * c * (3 - 2 * c);
}

function median(values: number[]): number {
    const s = values.slice().sort((a, b) => a - b);
    const n = s.length;
    return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/**
 * Fits the plane a take's feet stand on (see the file's comment): its slope, and how much of it
 * counts. Level (share 0) without the legs' length, with fewer than {@link FLOOR_TILT_MIN_RUNS}
 * contact runs, or where the fit does not show a tilt clearly.
 * @param feet the foot points of every frame (canonical, avatar scales) and the legs' length
 * @param contacts per frame, the contact flags ({@link FootContact.Left}, {@link FootContact.Right})
 * @returns the floor's plane
 */
export function FitFloorTilt(feet: IFootTracks, contacts: Uint8Array): IFloorTilt {
    const leg = feet.legLength;
    if (!(leg !== undefined && leg > 0)) return LEVEL;
    const frameCount = contacts.length;
    const run = { x: [] as number[], z: [] as number[], h: [] as number[], start: [] as number[] };
    const flags = new Uint8Array(frameCount);
    for (let s = 0; s < 2; s++) {
        const bit = s === 0 ? FootContact.Left : FootContact.Right;
        for (let f = 0; f < frameCount; f++) flags[f] = contacts[f] & bit ? 1 : 0;
        ForEachFrameRun(flags, 1, (start, end) => {
            const xs: number[] = [];
            const zs: number[] = [];
            const hs: number[] = [];
            for (let f = start; f < end; f++) {
                // The foot's lowest point on this frame.
                let h = Infinity;
                let x = 0;
                let z = 0;
                for (let p = 0; p < feet.points[s].length; p++) {
                    const pts = feet.points[s][p];
                    if (!pts || pts.length < 3 * frameCount) continue;
                    const y = pts[3 * f + 1] - feet.restHeight[s][p];
                    if (y < h) {
                        h = y;
                        x = pts[3 * f];
                        z = pts[3 * f + 2];
                    }
                }
                if (!Number.isFinite(h) || !Number.isFinite(x) || !Number.isFinite(z)) continue;
                xs.push(x);
                zs.push(z);
                hs.push(h);
            }
            if (!hs.length) return;
            run.x.push(median(xs));
            run.z.push(median(zs));
            run.h.push(median(hs));
            run.start.push(start);
        });
    }
    const n = run.h.length;
    if (n < FLOOR_TILT_MIN_RUNS) return { ...LEVEL, runs: n };
    let mx = 0;
    let mz = 0;
    let mh = 0;
    for (let i = 0; i < n; i++) {
        mx += run.x[i] / n;
        mz += run.z[i] / n;
        mh += run.h[i] / n;
    }
    let sxx = 0;
    let sxz = 0;
    let szz = 0;
    let sxh = 0;
    let szh = 0;
    for (let i = 0; i < n; i++) {
        const dx = run.x[i] - mx;
        const dz = run.z[i] - mz;
        const dh = run.h[i] - mh;
        sxx += dx * dx;
        sxz += dx * dz;
        szz += dz * dz;
        sxh += dx * dh;
        szh += dz * dh;
    }
    // (S + n r^2 I) g = s: the slope, ridge-regularized.
    const ridge = n * (FLOOR_TILT_RIDGE_SHARE * leg) ** 2;
    const rxx = sxx + ridge;
    const rzz = szz + ridge;
    const det = rxx * rzz - sxz * sxz;
    const a = (rzz * sxh - sxz * szh) / det;
    const b = (rxx * szh - sxz * sxh) / det;
    let residual = 0;
    for (let i = 0; i < n; i++) {
        const e = run.h[i] - mh - a * (run.x[i] - mx) - b * (run.z[i] - mz);
        residual += e * e;
    }
    const sigma = Math.max(Math.sqrt(residual / (n - 3)), FLOOR_TILT_NOISE_SHARE * leg);
    const g = Math.hypot(a, b);
    if (!(g > 0) || !Number.isFinite(g)) return { ...LEVEL, runs: n };
    const ux = a / g;
    const uz = b / g;
    // The runs' spread along the slope (sum of squares), and the slope's t over the residual.
    const along = ux * ux * sxx + 2 * ux * uz * sxz + uz * uz * szz;
    const t = (g * Math.sqrt(along)) / sigma;
    const degrees = (Math.atan(g) * 180) / Math.PI;
    // A floor with one step in it (a take that steps up onto a platform) is no plane: the best
    // single step in time order, two levels, explains the runs' heights better than the plane.
    const stepped = residual / Math.max(BestStepResidual(run.h, run.start), 1e-30);
    let share =
        smoothstep((t - FLOOR_TILT_T_MIN) / (FLOOR_TILT_T_FULL - FLOOR_TILT_T_MIN)) *
        (1 - smoothstep((degrees - FLOOR_TILT_FULL_DEG) / (FLOOR_TILT_MAX_DEG - FLOOR_TILT_FULL_DEG))) *
        (1 - smoothstep((stepped - FLOOR_TILT_STEP_FULL) / (FLOOR_TILT_STEP_NONE - FLOOR_TILT_STEP_FULL)));
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
        const r = a * (run.x[i] - mx) + b * (run.z[i] - mz);
        lo = Math.min(lo, r);
        hi = Math.max(hi, r);
    }
    // Nothing to level where the counted rise is within what a foot's standing shows.
    if (share * (hi - lo) < FLOOR_TILT_NOISE_SHARE * leg) share = 0;
    return { slopeX: a, slopeZ: b, originX: mx, originZ: mz, share, degrees, t, runs: n, rise: share * (hi - lo) };
}

/**
 * The least sum of squares left by two levels in time order: over every split of the runs (sorted
 * by where each starts) into those before and those after, each side's squared distances from its
 * own mean (prefix sums; the runs' count at least 2).
 * @param heights each run's height
 * @param starts each run's first frame
 */
function BestStepResidual(heights: readonly number[], starts: readonly number[]): number {
    const order = heights.map((_, i) => i).sort((i, j) => starts[i] - starts[j]);
    const n = order.length;
    let total = 0;
    let totalSq = 0;
    for (const i of order) {
        total += heights[i];
        totalSq += heights[i] * heights[i];
    }
    let sum = 0;
    let sq = 0;
    let best = Infinity;
    for (let k = 1; k < n; k++) {
        const h = heights[order[k - 1]];
        sum += h;
        sq += h * h;
        // sum of squares about each side's mean: sq - sum^2 / k, and the rest's.
        const rest = n - k;
        const r = sq - (sum * sum) / k + (totalSq - sq) - ((total - sum) * (total - sum)) / rest;
        if (r < best) best = r;
    }
    return best > 0 ? best : 0;
}

/**
 * The floor's counted height above its middle at a point of the ground plane, avatar scales:
 * `share * (slopeX (x - originX) + slopeZ (z - originZ))`.
 * @param tilt the floor ({@link FitFloorTilt})
 * @param x canonical x, avatar scales
 * @param z canonical z, avatar scales
 * @returns the height, avatar scales (0 where the floor is level)
 */
export function FloorTiltHeightAt(tilt: IFloorTilt, x: number, z: number): number {
    return tilt.share * (tilt.slopeX * (x - tilt.originX) + tilt.slopeZ * (z - tilt.originZ));
}
