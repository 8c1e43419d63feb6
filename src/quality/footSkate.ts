import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";

/** Horizontal foot speed above which a planted foot counts as sliding, for a leg of {@link REFERENCE_LEG_LENGTH} (m/s; a slow walk's swing foot moves about 2 m/s, a noisy plant stays well under 0.2). */
export const SLIDING_SPEED = 0.5;
/** Leg length (thigh + shin, metres) at which {@link SLIDING_SPEED} applies as is; other legs scale it by their length over this (an adult's is about 0.9 m). */
export const REFERENCE_LEG_LENGTH = 0.9;

/** How much a foot slides while it should be planted; see {@link MeasureFootSkate}. */
export interface IFootSkate {
    /**
     * Foot skating: horizontal distance the foot travels while planted, in leg lengths per second
     * of contact, `Σ pathLength / legLength / contactSeconds`; 0 when there is no contact time.
     */
    readonly drift: number;
    /** Fastest horizontal speed of the foot over a contact interval (m/s); 0 without contact. */
    readonly maxSpeed: number;
    /** Share of the contact intervals whose horizontal speed is above the sliding threshold (0 to 1; 0 without contact). */
    readonly slidingShare: number;
    /** Horizontal distance travelled over all contact intervals (metres). */
    readonly pathLength: number;
    /** Time in contact: contact intervals / frame rate (seconds). */
    readonly contactSeconds: number;
    /** Contact intervals: pairs of consecutive frames that are both in contact. */
    readonly contactIntervals: number;
    /** Contact intervals whose speed is above the sliding threshold. */
    readonly slidingIntervals: number;
    /** The leg length the measure was normalized by (metres). */
    readonly legLength: number;
}

/**
 * Measures foot skating: how far a foot slides over the ground while it should be planted.
 *
 * A contact interval is a pair of consecutive frames `(k - 1, k)` that both have contact, so a
 * maximal run of `m` contact frames gives `m - 1` intervals (a single contact frame gives none).
 * For each, the foot's displacement `d = p[k] - p[k - 1]` is made horizontal,
 * `h = d - (d · up) up`; given several points of the foot (ankle and toes), `|h|` is the smallest
 * of theirs, since a planted foot rolls from heel to toes and the point on the ground is the one
 * that stays (foot contacts are set when the ankle or the toes are low and still). Then
 *
 * - `pathLength = Σ |h|` (metres), `contactSeconds = intervals / frameRate`;
 * - `drift = pathLength / legLength / contactSeconds`, leg lengths per second of contact
 *   (0 for a perfectly planted foot; dividing by the leg length compares characters of any size);
 * - `maxSpeed = max |h| · frameRate` (m/s);
 * - `slidingShare` = share of intervals with `|h| · frameRate > SLIDING_SPEED · legLength / REFERENCE_LEG_LENGTH`.
 *
 * Vertical motion (a heel lifting) is not skating and is left out. Pure: no scene, no allocation
 * per frame.
 * @param positions the foot's world position per frame, x, y, z (3 floats per frame, metres); or a list of such tracks, one per point of the foot
 * @param contacts per frame, truthy when the foot should be planted (`clip.contacts[f] & FootContact.Left`)
 * @param frameRate frames per second of both
 * @param legLength the character's leg length (metres, for example {@link ComputeLegLength})
 * @param up the world up direction (any length), default +Y
 */
export function MeasureFootSkate(
    positions: ArrayLike<number> | readonly ArrayLike<number>[],
    contacts: ArrayLike<number | boolean>,
    frameRate: number,
    legLength: number,
    up: Vector3 = Vector3.Up(),
): IFootSkate {
    if (!(frameRate > 0) || !Number.isFinite(frameRate)) throw new HumanoidError("BAD_OPTION", `foot skate: frame rate must be positive, not ${frameRate}`);
    if (!(legLength > 0) || !Number.isFinite(legLength)) throw new HumanoidError("BAD_OPTION", `foot skate: leg length must be positive, not ${legLength}`);
    const points: readonly ArrayLike<number>[] = isPointList(positions) ? positions : [positions];
    if (!points.length) throw new HumanoidError("BAD_OPTION", "foot skate: no foot point given");
    let frames = contacts.length;
    for (const p of points) frames = Math.min(frames, Math.floor(p.length / 3));
    const ul = up.length();
    if (!(ul > 0)) throw new HumanoidError("BAD_OPTION", "foot skate: the up direction must not be zero");
    const ux = up.x / ul;
    const uy = up.y / ul;
    const uz = up.z / ul;
    const threshold = (SLIDING_SPEED * legLength) / REFERENCE_LEG_LENGTH;
    let pathLength = 0;
    let maxSpeed = 0;
    let intervals = 0;
    let sliding = 0;
    for (let k = 1; k < frames; k++) {
        if (!contacts[k] || !contacts[k - 1]) continue;
        let h = Infinity;
        for (const p of points) {
            const dx = p[3 * k] - p[3 * k - 3];
            const dy = p[3 * k + 1] - p[3 * k - 2];
            const dz = p[3 * k + 2] - p[3 * k - 1];
            // horizontal = d - (d · up) up
            const along = dx * ux + dy * uy + dz * uz;
            h = Math.min(h, Math.hypot(dx - along * ux, dy - along * uy, dz - along * uz));
        }
        const speed = h * frameRate;
        pathLength += h;
        intervals++;
        if (speed > maxSpeed) maxSpeed = speed;
        if (speed > threshold) sliding++;
    }
    return skateOf(pathLength, intervals / frameRate, intervals, sliding, maxSpeed, legLength);
}

/** The figures of a measure from its sums: drift and sliding share derived, as one formula for both the measure and combinations. */
function skateOf(
    pathLength: number,
    contactSeconds: number,
    contactIntervals: number,
    slidingIntervals: number,
    maxSpeed: number,
    legLength: number,
): IFootSkate {
    return {
        drift: contactSeconds > 0 ? pathLength / legLength / contactSeconds : 0,
        maxSpeed,
        slidingShare: contactIntervals > 0 ? slidingIntervals / contactIntervals : 0,
        pathLength,
        contactSeconds,
        contactIntervals,
        slidingIntervals,
        legLength,
    };
}

/** `true` for a list of point tracks rather than one track of numbers. */
function isPointList(positions: ArrayLike<number> | readonly ArrayLike<number>[]): positions is readonly ArrayLike<number>[] {
    return Array.isArray(positions) && (positions.length === 0 || typeof positions[0] !== "number");
}

/**
 * Foot skating of several feet (or clips) together, as if measured as one: path lengths, contact
 * times and intervals are summed, then {@link IFootSkate.drift} and
 * {@link IFootSkate.slidingShare} computed from the sums. All must share one leg length.
 * @param parts results of {@link MeasureFootSkate}
 */
export function CombineFootSkates(parts: readonly IFootSkate[]): IFootSkate {
    if (!parts.length) throw new HumanoidError("BAD_OPTION", "foot skate: nothing to combine");
    const legLength = parts[0].legLength;
    if (parts.some((p) => Math.abs(p.legLength - legLength) > 1e-9 * legLength)) {
        throw new HumanoidError("BAD_OPTION", "foot skate: the parts were measured with different leg lengths");
    }
    let pathLength = 0;
    let contactSeconds = 0;
    let contactIntervals = 0;
    let slidingIntervals = 0;
    let maxSpeed = 0;
    for (const p of parts) {
        pathLength += p.pathLength;
        contactSeconds += p.contactSeconds;
        contactIntervals += p.contactIntervals;
        slidingIntervals += p.slidingIntervals;
        maxSpeed = Math.max(maxSpeed, p.maxSpeed);
    }
    return skateOf(pathLength, contactSeconds, contactIntervals, slidingIntervals, maxSpeed, legLength);
}

/**
 * A character's leg length in its reference T-pose: upper leg to lower leg plus lower leg to foot
 * (hip joint to ankle along the bones), the mean of both legs, metres.
 * @param avatar the character
 */
export function ComputeLegLength(avatar: HumanoidAvatar): number {
    const p = avatar.referenceWorld.positions;
    const leg = (upper: HumanBone, lower: HumanBone, foot: HumanBone): number =>
        Vector3.Distance(p[avatar.getJoint(upper)], p[avatar.getJoint(lower)]) + Vector3.Distance(p[avatar.getJoint(lower)], p[avatar.getJoint(foot)]);
    return (
        (leg(HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, HumanBone.LeftFoot) + leg(HumanBone.RightUpperLeg, HumanBone.RightLowerLeg, HumanBone.RightFoot)) /
        2
    );
}
