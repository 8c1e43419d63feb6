import { ForEachFrameRun } from "./frameRuns.js";
import { FootContact } from "./muscleClip.js";

/** A foot point is low when it is within this height (avatar scales, about 5 cm on an adult) of the clip's ground, measured from where it is in the T-pose. */
export const CONTACT_HEIGHT = 0.05;
/** A foot point is still when it moves slower than this (avatar scales per second, about 0.5 m/s on an adult). */
export const CONTACT_SPEED = 0.5;
/** Contacts and gaps shorter than this (seconds) are noise: they are removed and filled. */
export const CONTACT_MIN_SECONDS = 0.05;
/** The ground under a frame is found among the foot points within this many seconds either side. */
export const GROUND_WINDOW_SECONDS = 1;
/** Share of those foot-point heights that may lie below the ground (glitches, a start pose). */
export const GROUND_PERCENTILE = 0.1;

/** Per-frame foot points (ankle, toes) in canonical avatar scales, for the contact flags. */
export interface IFootTracks {
    /** [foot][point] -> x, y, z per frame, or null for an unmapped point. */
    readonly points: (Float32Array | null)[][];
    /** [foot][point] -> T-pose height. */
    readonly restHeight: number[][];
    /** Optional: the legs' length, avatar scales: a contact whose foot slides further than {@link CONTACT_DRAG_SHARE} of it before it starts to leave is dropped (without it, no contact is dropped so). */
    readonly legLength?: number;
    /**
     * Optional: where the body is (the middle of the hip joints: x, y, z per frame, canonical avatar
     * scales). Both feet sliding together are a figure sliding over the floor only as far as the
     * body goes along (see {@link CONTACT_DRAG_SHARE}); without it, as far as the feet share.
     */
    readonly body?: Float32Array;
}

/**
 * Foot contacts: a foot is planted on a frame when its ankle or its toes are both low (within
 * {@link CONTACT_HEIGHT} of the clip's ground, from their T-pose height) and still (slower than
 * {@link CONTACT_SPEED}). The clip's ground under a frame is the {@link GROUND_PERCENTILE} of
 * the lowest foot points within {@link GROUND_WINDOW_SECONDS} either side, so a take on a raised,
 * sloping or drifting floor works. Runs shorter than {@link CONTACT_MIN_SECONDS} are then
 * dropped and gaps that short filled, each run starts where its foot has landed, a run whose foot
 * is never slower than a quarter of {@link CONTACT_SPEED} is dropped (the foot passed low), each
 * run ends at its foot's last frame no faster than that (where it starts to leave), (given the
 * legs' length) a run whose foot slides further than {@link CONTACT_DRAG_SHARE} of a leg before
 * then is dropped (the foot is dragged, not planted), and each run left starts at its foot's first
 * frame no faster than a quarter of {@link CONTACT_SPEED} (where it has landed).
 * Also the clip's floor as a whole (`MuscleClip.groundHeight`), avatar scales.
 * @param feet the foot points of every frame
 * @param frameCount frames
 * @param rate frames per second
 */
export function DetectFootContacts(feet: IFootTracks, frameCount: number, rate: number): { contacts: Uint8Array; groundHeight: number } {
    // Per frame, the lowest foot point from its T-pose height.
    const lowest = new Float64Array(frameCount).fill(Infinity);
    for (let s = 0; s < 2; s++) {
        for (let p = 0; p < 2; p++) {
            const pts = feet.points[s][p];
            if (!pts) continue;
            for (let f = 0; f < frameCount; f++) lowest[f] = Math.min(lowest[f], pts[f * 3 + 1] - feet.restHeight[s][p]);
        }
    }
    // The ground under each frame: a low percentile of those within GROUND_WINDOW_SECONDS either
    // side, so a floor that drifts or slopes over a long take is followed and a few odd frames
    // (a stumble, a start pose) do not set it. Computed every 1/8 s and interpolated.
    const ground = groundLevels(lowest, Math.max(1, Math.round(GROUND_WINDOW_SECONDS * rate)), Math.max(1, Math.round(rate / 8)));
    const contacts = new Uint8Array(frameCount);
    const minRun = Math.max(1, Math.round(CONTACT_MIN_SECONDS * rate));
    const feetFlags = [new Uint8Array(frameCount), new Uint8Array(frameCount)];
    const speeds: Float64Array[] = [];
    for (let s = 0; s < 2; s++) {
        const flags = feetFlags[s];
        // Per frame, the slowest of the foot's points (avatar scales per second).
        const speed = new Float64Array(frameCount).fill(Infinity);
        for (let p = 0; p < 2; p++) {
            const pts = feet.points[s][p];
            if (!pts) continue;
            for (let f = 0; f < frameCount; f++) {
                const low = pts[f * 3 + 1] - feet.restHeight[s][p] - ground[f] < CONTACT_HEIGHT;
                const a = Math.max(0, f - 1);
                const b = Math.min(frameCount - 1, f + 1);
                const dist = b > a ? Math.hypot(pts[b * 3] - pts[a * 3], pts[b * 3 + 1] - pts[a * 3 + 1], pts[b * 3 + 2] - pts[a * 3 + 2]) : 0;
                const v = frameCount === 1 ? 0 : (dist * rate) / (b - a);
                if (v < speed[f]) speed[f] = v;
                if (low && v < CONTACT_SPEED) flags[f] = 1;
            }
        }
        cleanRuns(flags, minRun);
        landedRuns(flags, speed, minRun);
        dropUnlanded(flags, speed);
        leavingEnds(flags, speed, minRun);
        speeds.push(speed);
    }
    // Dragged feet, each against the other foot's contacts (ended where it starts to leave, before either is dropped).
    const dragged: Uint8Array[] = [feetFlags[0], feetFlags[1]];
    if (feet.legLength !== undefined && feet.legLength > 0) {
        const most = CONTACT_DRAG_SHARE * feet.legLength;
        const body = feet.body && feet.body.length >= 3 * frameCount ? feet.body : null;
        dragged[0] = dropDrags(feetFlags[0], feet.points[0], feetFlags[1], feet.points[1], body, most);
        dragged[1] = dropDrags(feetFlags[1], feet.points[1], feetFlags[0], feet.points[0], body, most);
    }
    for (let s = 0; s < 2; s++) {
        // Each contact held only from its foot's first still frame, once the drags are weighed
        // over the contact from where it was found to where its foot starts to leave (the
        // frames it lands over count in its slide; the flags are not read again, so they are
        // cut in place).
        stillStarts(dragged[s], speeds[s], minRun);
        const bit = s === 0 ? FootContact.Left : FootContact.Right;
        for (let f = 0; f < frameCount; f++) if (dragged[s][f]) contacts[f] |= bit;
    }
    // The clip's floor as a whole: the same percentile over every frame (0 when no foot is mapped).
    const finite = Array.from(lowest)
        .filter(Number.isFinite)
        .sort((a, b) => a - b);
    const groundHeight = finite.length ? finite[Math.floor(GROUND_PERCENTILE * (finite.length - 1))] : 0;
    return { contacts, groundHeight: groundHeight * groundShare(groundHeight) };
}

/** A clip floor below the T-pose ground by less than this (avatar scales) counts as the same ground: 0. */
const GROUND_HEIGHT_MIN = 0.02;

/** Over how much more height than {@link GROUND_HEIGHT_MIN} a clip's floor height comes in in full, avatar scales. */
const GROUND_HEIGHT_RAMP = 0.01;

/**
 * How much of a clip's floor height (`height`, signed) the clip keeps. Above the T-pose ground, all
 * of it: the feet of nine frames in ten stand higher than in the T-pose, on every character alike
 * (KayKit's throw and dodges stand 0.02 avatar scales up, and a character whose feet are shorter,
 * in its legs, floated up to 0.11 leg on its toes; within 0.02 it was counted as the T-pose
 * ground). Below it, 0 within {@link GROUND_HEIGHT_MIN} (a tenth of the frames with a foot lower
 * than in the T-pose: a figure lying, kneeling or on bent toes, as KayKit's deaths are; lifting the
 * whole clip by it floated their standing feet), all of it from {@link GROUND_HEIGHT_RAMP} further
 * down, and a smoothstep between, so that two takes whose floors differ by a millimetre across the
 * edge do not put the body centimetres apart. Continuous at 0.
 */
function groundShare(height: number): number {
    if (height >= 0) return 1;
    const t = Math.min(1, Math.max(0, (-height - GROUND_HEIGHT_MIN) / GROUND_HEIGHT_RAMP));
    return t * t * (3 - 2 * t);
}

/** Per frame, the {@link GROUND_PERCENTILE} of `v` over [f - w, f + w], computed every `stride` frames and interpolated. */
function groundLevels(v: Float64Array, w: number, stride: number): Float64Array {
    const n = v.length;
    // One window buffer, sorted as numbers in place (a typed array's sort), for every window.
    const buffer = new Float64Array(Math.min(n, 2 * w + 1));
    const at = (f: number): number => {
        const from = Math.max(0, f - w);
        const window = buffer.subarray(0, Math.min(n, f + w + 1) - from);
        window.set(v.subarray(from, from + window.length));
        window.sort();
        return window[Math.floor(GROUND_PERCENTILE * (window.length - 1))];
    };
    const out = new Float64Array(n);
    let f0 = 0;
    let g0 = at(0);
    while (f0 < n - 1) {
        const f1 = Math.min(n - 1, f0 + stride);
        const g1 = at(f1);
        for (let f = f0; f <= f1; f++) out[f] = g0 + ((g1 - g0) * (f - f0)) / (f1 - f0);
        f0 = f1;
        g0 = g1;
    }
    if (n === 1) out[0] = g0;
    return out;
}

/**
 * A foot in contact no faster than this has landed (avatar scales per second, a quarter of
 * {@link CONTACT_SPEED}): `landedRuns` does not move a contact's start past such a frame,
 * `dropUnlanded` drops a contact with none, and `leavingEnds` and `stillStarts` hold a contact
 * from its first such frame to its last (within their caps).
 */
const LANDED_SPEED = CONTACT_SPEED / 4;

/**
 * Starts each contact where its foot has landed: past the first frames of the run over which the
 * foot still slows down (each slower than the one before) and is faster than {@link LANDED_SPEED},
 * at most half the run and never below `minRun` frames. A foot that touches the ground still
 * gliding (a keyframed foot that slides to a stop, a 30 fps take whose stop falls over several
 * frames) is not held until it stops: a hold from the first low frame stopped it at once, a step
 * in its velocity the source does not have (KayKit's sneak, its landing foot at half the contact
 * speed).
 */
function landedRuns(flags: Uint8Array, speed: Float64Array, minRun: number): void {
    ForEachFrameRun(flags, 1, (f, e) => {
        const most = Math.min(Math.floor((e - f) / 2), e - f - minRun);
        let start = f;
        while (start - f < most && speed[start] > LANDED_SPEED && speed[start + 1] < speed[start]) start++;
        flags.fill(0, f, start);
    });
}

/**
 * Drops each contact whose foot is never slower than {@link LANDED_SPEED}, not for one frame: its
 * foot passed low without standing (at a quarter of the contact speed, about 12 cm a second on an
 * adult). Before the drag check, so that such a run does not count as the other foot standing
 * there (dropped after it instead, every figure of the report and the unseen takes the same).
 *
 * Mixamo's floating cycles its legs in the air and its feet were found in contact for two frames
 * at the bottom of each cycle (never slower than 0.19 avatar scales a second): held there, the
 * VRM sample's and the KayKit mannequin's long feet dug 6% of a leg into the floor and
 * RiggedFigure's head jerked 2.9 times the source's. KayKit's walks are cycles in place whose
 * standing foot slides back through the whole step, and had two-frame contacts where that slide
 * slowed: held still there. Of 2088 contacts over the public and the unseen takes, 61 had no
 * such frame, most of them two to six frames long.
 */
function dropUnlanded(flags: Uint8Array, speed: Float64Array): void {
    ForEachFrameRun(flags, 1, (f, e) => {
        let landed = false;
        for (let g = f; g < e && !landed; g++) landed = speed[g] <= LANDED_SPEED;
        if (!landed) flags.fill(0, f, e);
    });
}

/**
 * Ends each contact at its foot's last frame no faster than {@link LANDED_SPEED}, where the foot
 * starts to leave (dropping at most half the run, as it is after `landedRuns`, and leaving at
 * least `minRun` frames; where the cap stops the trim, the frame it ends on is still faster).
 * The frames need not speed up: a foot that slides steadily between the two speeds at its end
 * loses up to half of the contact there.
 *
 * A foot stays under {@link CONTACT_SPEED} for some frames as it leaves (a heel rising about its
 * toes, toes rolling off), and planting held it still to the last of them while the source's foot
 * already moved away (CMU's pick-up, 120 fps: its toes at 0.15 to 0.43 avatar scales a second over
 * the six frames before its contact ended), then let it go with a step in its acceleration (onto
 * a VRM, the knee 2.03 times the source's jerk, 1.53 ending so).
 *
 * Before the drag check (`dropDrags`), so that the slide is weighed over what is held (and the
 * frames the foot lands over), not what the foot moves as it leaves: those frames are not held,
 * and a foot rolling off its toes is not dragged. A child's twirl stands on its left foot for 1.6 s
 * (its toes within 0.045 avatar scales of where they landed until it lifts) and rolls off it over
 * 17 frames at 120 fps: weighed with them, its slide was 0.111 of a leg (0.1 allowed), the contact
 * was dropped, and planting left the foot free, so that it swept 0.46 avatar scales across on
 * RobotExpressive and 0.36 on the KayKit mannequin under a pelvis turning over it, where the
 * source's moves 0.11. So a foot that lands, then slides on steadily between the two speeds, is
 * weighed over the part of it that is held (the first half, as the cap leaves it): held there if
 * that part slides less than the drag allows, and let go where its trim ends, as before.
 */
function leavingEnds(flags: Uint8Array, speed: Float64Array, minRun: number): void {
    ForEachFrameRun(flags, 1, (f, e) => {
        const most = Math.min(Math.floor((e - f) / 2), e - f - minRun);
        let end = e;
        while (e - end < most && speed[end - 1] > LANDED_SPEED) end--;
        flags.fill(0, end, e);
    });
}

/**
 * Starts each contact at its foot's first frame no faster than {@link LANDED_SPEED}, within what
 * `leavingEnds` left (dropping at most half of it and leaving at least `minRun` frames), after the
 * drag check: at the start, `landedRuns` stops where the foot's speed rises for a frame, and a
 * foot that lands and glides on (a twirl's toes) was held from there (CMU's pick-up onto the VRM
 * 1.07 -> 1.00 times the source's jerk with this trim too). The frames it trims still count in the
 * slide: a foot that lands gliding and pivots on (the same twirl's right foot, its toes drifting
 * 0.12 avatar scales through a turn and a half) is dragged and dropped; with this trim before the
 * check too it was held, and its legs leaned (the twirl onto the X Bot: limb directions 0.46 ->
 * 0.94 degree). Trimmed only over frames each faster than the one before (as `landedRuns` does), a speed that dipped for a frame kept the frames before the
 * dip held: within 1% of the figures of this rule, a little worse on every set.
 */
function stillStarts(flags: Uint8Array, speed: Float64Array, minRun: number): void {
    ForEachFrameRun(flags, 1, (f, e) => {
        const first = Math.min(Math.floor((e - f) / 2), e - f - minRun);
        let start = f;
        while (start - f < first && speed[start] > LANDED_SPEED) start++;
        flags.fill(0, f, start);
    });
}

/**
 * A foot that slides over the floor further than this share of its leg within one contact, before
 * it starts to leave (the less moving of its ankle and toes, from where it was as the contact
 * began, across the ground), is dragged, not planted: that contact is dropped, so planting does not hold the foot (the leg
 * bent to hold it) and the report does not count its slide as skating. KayKit's throw drags a foot
 * 0.26 and 0.39 leg (held, its own mannequin's thigh was 9.4 degrees off), Bandai's spinning kick
 * its standing foot 0.16 in its last spin, its dance 0.10-0.17 in three slides; a walk's planted
 * foot moves 0.06 (the CMU walk) or less. What both feet's slides and the body's move have in
 * common while both feet are down is left out (see `dropDrags`): a figure drifting over the floor
 * keeps its contacts; KayKit's Hit_A, whose feet slide back 0.26 leg under hips that stay, does not.
 */
export const CONTACT_DRAG_SHARE = 0.1;

/**
 * `flags` (one foot's contacts) less each contact whose foot slides further than `most` (avatar
 * scales; see {@link CONTACT_DRAG_SHARE}), as a new array. Each point's slide is measured less
 * what it has in common with the same point of the other foot's move since the contact began (along
 * the two moves' mean, the smaller of the two), as long as that foot has been down since then (its
 * move then kept once it lifts), and, given the body's track, with the body's move along that mean
 * too: a figure sliding over the floor on both feet (a root drifting, the CMU jump's start) keeps
 * its contacts, and planting moves its body instead (see `HumanoidFootPlanting`, the common hold);
 * feet sliding together under a body that stays are dragged (KayKit's Hit_A: held, and the body
 * following them, its figure ended 0.3 leg forward of the source's, 0.37 degree of limb directions
 * off its own mannequin where the copy is exact; 0.03 now).
 */
function dropDrags(
    flags: Uint8Array,
    points: readonly (Float32Array | null)[],
    otherFlags: Uint8Array,
    otherPoints: readonly (Float32Array | null)[],
    body: Float32Array | null,
    most: number,
): Uint8Array {
    const out = flags.slice();
    ForEachFrameRun(flags, 1, (f, e) => {
        // The less moving point's furthest from where it was as the contact began.
        let least = Infinity;
        for (let p = 0; p < points.length; p++) {
            const pts = points[p];
            if (!pts) continue;
            const other = otherPoints[p];
            let together = other !== null && otherFlags[f] !== 0;
            // The other foot's move since the contact began, while it has been down (then kept).
            let ox = 0;
            let oz = 0;
            let far = 0;
            for (let g = f + 1; g < e; g++) {
                together = together && otherFlags[g] !== 0;
                if (together) {
                    ox = other![g * 3] - other![f * 3];
                    oz = other![g * 3 + 2] - other![f * 3 + 2];
                }
                // Less what the two moves have in common: along their mean, the smaller of the two.
                const ax = pts[g * 3] - pts[f * 3];
                const az = pts[g * 3 + 2] - pts[f * 3 + 2];
                const mx = ax + ox;
                const mz = az + oz;
                const ml = Math.hypot(mx, mz);
                let shared = Math.min(ax * mx + az * mz, ox * mx + oz * mz);
                // ... and with the body's move since then, when it is known: feet sliding under a
                // body that stays are dragged.
                if (body) shared = Math.min(shared, (body[g * 3] - body[f * 3]) * mx + (body[g * 3 + 2] - body[f * 3 + 2]) * mz);
                const common = ml > 0 ? Math.max(0, shared / ml) : 0;
                const d = ml > 0 ? Math.hypot(ax - (common * mx) / ml, az - (common * mz) / ml) : Math.hypot(ax, az);
                if (d > far) far = d;
            }
            if (far < least) least = far;
        }
        if (least > most && least < Infinity) out.fill(0, f, e);
    });
    return out;
}

/** Fills gaps shorter than `minRun` between contacts, then drops contacts shorter than `minRun`. */
function cleanRuns(flags: Uint8Array, minRun: number): void {
    for (const value of [0, 1]) {
        ForEachFrameRun(flags, value, (f, e) => {
            // A gap (0) is filled only between two contacts; a contact (1) is dropped anywhere.
            const inner = value === 1 || (f > 0 && e < flags.length);
            if (e - f < minRun && inner) flags.fill(1 - value, f, e);
        });
    }
}
