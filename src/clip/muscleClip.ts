import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HUMAN_IK_GOAL_COUNT, type HumanPose } from "../muscle/humanPose.js";
import { ALL_MUSCLE_COUNT, MuscleNames } from "../muscle/muscles.js";
import { TRANSLATION_DOF_COUNT, TranslationDofNames } from "../muscle/translationDof.js";
import { AngleUnitToMuscleValue, AngleUnitsToMuscleValuesInPlace, type MuscleCurveUnit } from "./muscleCurveUnit.js";
import { SplineSlopesToRef } from "./spline.js";

/** First curve of the body position (x, y, z): canonical frame, avatar scales. */
export const CURVE_BODY_POSITION = ALL_MUSCLE_COUNT;
/** First curve of the body rotation (x, y, z, w). */
export const CURVE_BODY_ROTATION = CURVE_BODY_POSITION + 3;
/** First curve of the IK goals: per goal (`HumanIKGoal` order) position x, y, z then rotation x, y, z, w. */
export const CURVE_GOALS = CURVE_BODY_ROTATION + 4;
/** Curves per IK goal (3 position + 4 rotation). */
export const CURVES_PER_GOAL = 7;
/** First curve of the root motion: x, z (the body on the ground plane, avatar scales) and yaw (radians about up, unwrapped). */
export const CURVE_ROOT = CURVE_GOALS + HUMAN_IK_GOAL_COUNT * CURVES_PER_GOAL;
/**
 * First curve of the hips, files of version 2 on: `HumanPose.hipsPosition` (x, y, z, relative to
 * the body, avatar scales), then `HumanPose.hipsRotation` as a rotation vector (x, y, z: axis
 * times angle, radians).
 */
export const CURVE_HIPS = CURVE_ROOT + 3;
/**
 * First curve of the translations, files of version 4 on: `HumanPose.translations` (x, y, z per
 * bone of `TranslationDofBones`: canonical parent bone frame, in `MuscleSetup.translationUnit`).
 */
export const CURVE_TRANSLATIONS = CURVE_HIPS + 6;
/** Number of curves in every muscle clip (123 muscles, 7 body, 28 goals, 3 root, 6 hips, 33 translations). */
export const MUSCLE_CLIP_CURVE_COUNT = CURVE_TRANSLATIONS + 3 * TRANSLATION_DOF_COUNT;
/** Number of curves in a file of version 2 or 3 (no translation curves). */
export const MUSCLE_CLIP_CURVE_COUNT_V3 = CURVE_TRANSLATIONS;
/** Number of curves in a file of version 1 (no hips curves). */
export const MUSCLE_CLIP_CURVE_COUNT_V1 = CURVE_HIPS;

/** What a curve measures, which sets its unit and its reduction tolerance. */
export enum MuscleCurveKind {
    /** A muscle: its value, or its angle over the larger end of its reference range, as the clip's `muscleUnit` says (tolerance: the angle tolerance over that end). */
    Muscle = 0,
    /** A length in avatar scales (tolerance: the angle tolerance in radians, one scale away). */
    Position = 1,
    /** One component of a unit quaternion (tolerance: a quarter of the angle tolerance in radians). */
    Rotation = 2,
    /** An angle in radians (tolerance: the angle tolerance). */
    Angle = 3,
}

const GOAL_NAMES = ["leftFoot", "rightFoot", "leftHand", "rightHand"] as const;

/**
 * The name of every curve, in clip order: the 123 muscle names, then `bodyPosition.x|y|z`,
 * `bodyRotation.x|y|z|w`, `goals.<leftFoot|rightFoot|leftHand|rightHand>.position.x|y|z` and
 * `.rotation.x|y|z|w`, `root.x`, `root.z`, `root.yaw`, `hips.position.x|y|z`, `hips.turn.x|y|z`,
 * `translation.<bone>.x|y|z` (version 4: `TranslationDofNames`). Files use these names, never indices.
 * The foot goals' position curves hold the foot less the hips (`HumanPose.goalPositions[foot] -
 * HumanPose.hipsPosition`, both relative to the body): what places a foot under its leg comes from
 * one curve, kept fine (a version 1 file has no hips curves, which read as 0, so its feet are
 * relative to the body as they were).
 */
export const MuscleCurveNames: readonly string[] = [
    ...MuscleNames,
    ...["x", "y", "z"].map((c) => `bodyPosition.${c}`),
    ...["x", "y", "z", "w"].map((c) => `bodyRotation.${c}`),
    ...GOAL_NAMES.flatMap((g) => [...["x", "y", "z"].map((c) => `goals.${g}.position.${c}`), ...["x", "y", "z", "w"].map((c) => `goals.${g}.rotation.${c}`)]),
    "root.x",
    "root.z",
    "root.yaw",
    ...["x", "y", "z"].map((c) => `hips.position.${c}`),
    ...["x", "y", "z"].map((c) => `hips.turn.${c}`),
    ...TranslationDofNames.flatMap((t) => ["x", "y", "z"].map((c) => `${t}.${c}`)),
];

/** The kind of every curve, in clip order. */
export const MuscleCurveKinds: readonly MuscleCurveKind[] = MuscleCurveNames.map((n, i) => {
    if (i < ALL_MUSCLE_COUNT) return MuscleCurveKind.Muscle;
    if (n === "root.yaw" || n.startsWith("hips.turn.")) return MuscleCurveKind.Angle;
    return n.includes("otation.") ? MuscleCurveKind.Rotation : MuscleCurveKind.Position;
});

/**
 * How a clip's curves pass between their keys: cubic Hermite segments, with at each key the
 * slope of
 * - `"spline"` (clips this library makes, file version 3): the natural cubic spline through the
 *   keys (`SplineSlopesToRef`): velocity and acceleration continuous across keys, so a reduced
 *   curve adds no jerk where its keys are;
 * - `"catmull-rom"` (files of version 1 and 2): the centred difference of its neighbours
 *   (one-sided at the ends, {@link EvaluateCurveSegment}): velocity continuous, the acceleration
 *   jumps at keys (at the reduction's tolerance, a jerk spike at each key).
 *
 * Either way a curve with one key is constant and two keys make a straight line.
 */
export type CurveInterpolation = "spline" | "catmull-rom";

/**
 * One curve: keys on the clip's frame grid, interpolated as the clip's
 * {@link CurveInterpolation} says.
 */
export interface IMuscleCurve {
    /** Frame index of every key, strictly increasing, the first 0 and the last `frameCount - 1` (or a single key at 0). */
    readonly frames: Uint32Array;
    /** Value of every key, in the unit of the curve's {@link MuscleCurveKind} (a muscle curve's as the clip's `muscleUnit` says). */
    readonly values: Float32Array;
    /**
     * When set (> 0), every value is a whole multiple of it (as float32, see `SnapToStep`): the
     * binary file then stores the values as integer differences, a byte or two a key. The
     * converter sets it to a sixteenth of the curve's reduction tolerance; absent, values are any
     * float32 (stored as four bytes).
     */
    readonly step?: number;
}

/** Slope (value per frame) of a curve at key k: the centred difference of its neighbours, one-sided at the ends. */
function keySlope(frames: ArrayLike<number>, values: ArrayLike<number>, k: number): number {
    const last = frames.length - 1;
    const a = k > 0 ? k - 1 : 0;
    const b = k < last ? k + 1 : last;
    return (values[b] - values[a]) / (frames[b] - frames[a]);
}

/**
 * A curve's value between keys `k` and `k + 1` (at least two keys): the cubic Hermite segment
 * through both keys with the keys' slopes (see {@link IMuscleCurve}). `frame` is clamped to the
 * segment. Allocation-free.
 * @param frames key frames
 * @param values key values
 * @param k the segment's first key
 * @param frame frame position
 */
export function EvaluateCurveSegment(frames: ArrayLike<number>, values: ArrayLike<number>, k: number, frame: number): number {
    const f0 = frames[k];
    const h = frames[k + 1] - f0;
    let t = (frame - f0) / h;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const t2 = t * t;
    const t3 = t2 * t;
    const m0 = keySlope(frames, values, k) * h;
    const m1 = keySlope(frames, values, k + 1) * h;
    return (2 * t3 - 3 * t2 + 1) * values[k] + (t3 - 2 * t2 + t) * m0 + (3 * t2 - 2 * t3) * values[k + 1] + (t3 - t2) * m1;
}

/**
 * How near a frame, in frames, a clip time counts as on it for the foot contacts held there
 * (`MuscleClipSampler.contactsHeldAtSlot`, the player's look-ahead): a millionth, so that time
 * summed over updates that drifts off a frame by rounding still lands on it.
 */
export const CONTACT_FRAME_SNAP = 1e-6;

/** Foot-contact flags of a frame: bit 0 left foot, bit 1 right foot. */
export enum FootContact {
    /** No foot on the ground. */
    None = 0,
    /** The left foot is planted. */
    Left = 1,
    /** The right foot is planted. */
    Right = 2,
}

/**
 * What a clip keeps of its source character's proportions, in the source's avatar scales (its
 * T-pose centre-of-mass height): what the runtime needs to scale stride, foot goals and root travel
 * by the legs of the character it plays on (`proportions: "legs"`, docs/runtime.md).
 */
export interface IClipProportions {
    /** The source's leg length (upper plus lower leg, T-pose, mean of both) over its scale. */
    readonly legLength: number;
    /** The source's T-pose ankle height above its ground over its scale. */
    readonly ankleHeight: number;
    /** The source's T-pose distance between its two upper-leg joints over its scale. */
    readonly hipWidth: number;
    /**
     * The direction the source's left foot points in its T-pose (heel or ankle to toes: its twist
     * axis), canonical frame, unit; the right foot's is its mirror image. Foot goal rotations are
     * carried from this foot onto the character's (a foot that rolls about its own axis on the
     * source rolls about the character's).
     */
    readonly footDirection: readonly [number, number, number];
    /**
     * The source's upper leg over its whole leg (upper plus lower, T-pose, mean of both), 0 to 1;
     * absent in files before version 3. With it the runtime places a foot where the character's
     * own leg, bent as the source's, puts it (the knee then keeps the source's bend however the
     * thigh and shin share the leg); without it the foot goes where the source's foot went.
     */
    readonly thighShare?: number;
    /**
     * The source's T-pose distance from the middle of its upper-leg joints to its head (its neck
     * without one) over its scale; with {@link trunkSteadyPoint}, absent in files before version 5.
     * With both the runtime keeps the trunk's steadiest point moving as the source's over mocap's
     * jitter where the character's trunk is longer or shorter than the source's (docs/runtime.md).
     */
    readonly trunkLength?: number;
    /**
     * How far up its trunk the source's steadiest point is, from the middle of its hip joints (0)
     * to its trunk's top (1): the point of that segment whose path has the least third
     * differences over the clip (mocap: about 0.5 to 0.9, its hips jitter; a keyframed clip whose
     * hips move smoothly: 0). Given with {@link trunkLength}.
     */
    readonly trunkSteadyPoint?: number;
    /**
     * The direction of the source's left upper leg in its T-pose (hip joint to knee), canonical
     * frame, unit, the mean of its left one and its right one's mirror image; with
     * {@link shinDirection}, absent in files before version 6. With both the runtime places a foot
     * where the character's own leg, turned from its T-pose as the source's, puts it, however the
     * two T-poses lean the leg (a leg that leans forward in its T-pose would otherwise be made
     * straight under a source whose legs hang straight, and be drawn a degree or more off).
     */
    readonly thighDirection?: readonly [number, number, number];
    /** The direction of the source's left lower leg in its T-pose (knee to ankle), as {@link thighDirection}; given with it. */
    readonly shinDirection?: readonly [number, number, number];
    /**
     * The source's trunk as its T-pose lays it out: 15 numbers, x y z of each of its spine, chest,
     * upper chest, neck and head joints from the one before (the spine's from the middle of its
     * upper-leg joints), canonical frame, over its scale; zeros for a chest or upper chest it does
     * not map, and without a neck the head's offset in the neck's place and zeros in the head's
     * (`MuscleSetup.clipTrunkOffsets`). Absent in files before version 7. With it the runtime turns
     * each segment of the character's trunk as the source's trunk turns over the same share of its
     * length, so that a trunk whose joints sit elsewhere along it bends as the source's does and
     * mocap's spine jitter cancels as it did on the source (docs/runtime.md); without it each
     * bone turns as the source's bone of the same name.
     */
    readonly trunkOffsets?: readonly number[];
}

/** How many numbers {@link IClipProportions.trunkOffsets} holds: x y z of the spine, chest, upper chest, neck and head. */
export const CLIP_TRUNK_OFFSET_COUNT = 15;
/** The most any of {@link IClipProportions.trunkOffsets} may be in magnitude (source scales): no humanoid's trunk joint is further from the one before. */
export const CLIP_TRUNK_OFFSET_MAX = 2;

/** The thigh share a clip may give ({@link IClipProportions.thighShare}): no humanoid leg is outside it; the converter leaves the share out otherwise. */
export const CLIP_THIGH_SHARE_RANGE = [0.05, 0.95] as const;

/** The source's trunk length over its scale a clip may give ({@link IClipProportions.trunkLength}): no humanoid is outside it; the converter leaves the trunk out otherwise. */
export const CLIP_TRUNK_LENGTH_RANGE = [0.05, 5] as const;

/**
 * The most a clip's T-pose leg direction ({@link IClipProportions.thighDirection}, `shinDirection`)
 * may point away from straight down, as its y component's bound (-0.5: 60 degrees): no humanoid's
 * T-pose leg is outside it; the converter leaves the directions out otherwise.
 */
export const CLIP_LEG_DIRECTION_MAX_Y = -0.5;

/** Length of the array form of {@link IClipProportions} ({@link ClipProportionsToArray}). */
export const CLIP_PROPORTION_COUNT = 30;
/** Where {@link IClipProportions.trunkOffsets} starts in the array form ({@link ClipProportionsToArray}). */
export const CLIP_PROPORTION_TRUNK_OFFSETS = 15;

/**
 * A clip's proportions as numbers, for the per-frame path: [0] leg length, [1] ankle height,
 * [2] hip width, [3..5] foot direction, [6] thigh share, [7] trunk length, [8] trunk steady point,
 * [9..11] thigh direction, [12..14] shin direction, [15..29] trunk offsets (NaN when absent; see
 * {@link IClipProportions}); all NaN when `proportions` is null. Allocation-free. Returns `out`.
 */
export function ClipProportionsToArray(proportions: IClipProportions | null, out: Float64Array): Float64Array {
    if (!proportions) {
        for (let i = 0; i < CLIP_PROPORTION_COUNT; i++) out[i] = NaN;
        return out;
    }
    out[0] = proportions.legLength;
    out[1] = proportions.ankleHeight;
    out[2] = proportions.hipWidth;
    out[3] = proportions.footDirection[0];
    out[4] = proportions.footDirection[1];
    out[5] = proportions.footDirection[2];
    out[6] = proportions.thighShare ?? NaN;
    out[7] = proportions.trunkLength ?? NaN;
    out[8] = proportions.trunkSteadyPoint ?? NaN;
    const thigh = proportions.thighDirection;
    const shin = proportions.shinDirection;
    for (let i = 0; i < 3; i++) {
        out[9 + i] = thigh && shin ? thigh[i] : NaN;
        out[12 + i] = thigh && shin ? shin[i] : NaN;
    }
    const trunk = proportions.trunkOffsets;
    for (let i = 0; i < CLIP_TRUNK_OFFSET_COUNT; i++)
        out[CLIP_PROPORTION_TRUNK_OFFSETS + i] = trunk && trunk.length === CLIP_TRUNK_OFFSET_COUNT ? trunk[i] : NaN;
    return out;
}

/** What {@link MuscleClip} is made from. */
export interface IMuscleClipInit {
    /** Clip name (the AnimationGroup's name, or the BVH file's base name). */
    name: string;
    /** Where it came from, for people: a file name, `file#clip`. */
    source: string;
    /** Frames per second of the grid the keys lie on (> 0). */
    frameRate: number;
    /** Frames on the grid (>= 1); the clip lasts `(frameCount - 1) / frameRate` seconds. */
    frameCount: number;
    /** Whether the clip is meant to loop. */
    loop: boolean;
    /** The {@link MUSCLE_CLIP_CURVE_COUNT} curves, in {@link MuscleCurveNames} order. */
    curves: IMuscleCurve[];
    /** Per frame, {@link FootContact} flags. */
    contacts: Uint8Array;
    /** The reduction tolerance the curves were made with, degrees (0 for exact keys). */
    toleranceDeg: number;
    /** What could not convert losslessly, in words. */
    warnings: string[];
    /** Height of the clip's floor above the T-pose ground, avatar scales (see {@link MuscleClip.groundHeight}). Default 0. */
    groundHeight?: number;
    /** The source's proportions (see {@link MuscleClip.proportions}). Default null (not known). */
    proportions?: IClipProportions | null;
    /** How the curves pass between keys (see {@link CurveInterpolation}). Default `"spline"`. */
    interpolation?: CurveInterpolation;
    /** What the muscle curves hold (see {@link MuscleClip.muscleUnit}). Default `"muscle"`. */
    muscleUnit?: MuscleCurveUnit;
}

/**
 * A humanoid animation that belongs to no skeleton: per frame on a fixed-rate grid, a
 * {@link HumanPose} (muscles, body, IK goals), a root-motion track and foot contacts, stored as
 * keyframe-reduced curves in typed arrays. Play it on any avatar with {@link MuscleClipSampler}.
 * Immutable by convention: the arrays are shared, do not write into them.
 */
export class MuscleClip {
    /** Clip name. */
    public readonly name: string;
    /** Where it came from (file, file#clip). */
    public readonly source: string;
    /** Frames per second of the key grid. */
    public readonly frameRate: number;
    /** Frames on the grid. */
    public readonly frameCount: number;
    /** Whether the clip is meant to loop. */
    public readonly loop: boolean;
    /** Every curve, in {@link MuscleCurveNames} order. */
    public readonly curves: readonly IMuscleCurve[];
    /** Per frame, {@link FootContact} flags. */
    public readonly contacts: Uint8Array;
    /** The reduction tolerance, degrees. */
    public readonly toleranceDeg: number;
    /** What could not convert losslessly. */
    public readonly warnings: readonly string[];
    /**
     * Height of the floor the clip's feet stand on, above the ground of the T-pose it was measured
     * against, in avatar scales (canonical up). Usually 0; not 0 when the source's motion has its
     * floor elsewhere than under its rest pose's feet (a BVH whose hips rest at the origin and walk
     * at their height above the floor). Playback subtracts it so every character stands on its own
     * ground; `bodyPosition` keeps the source's own heights.
     */
    public readonly groundHeight: number;
    /**
     * The source character's leg length, ankle height and hip width over its scale, or null when the clip
     * does not say (files of version 1): the runtime then takes the proportions of the character it
     * plays on as the source's.
     */
    public readonly proportions: IClipProportions | null;
    /**
     * {@link proportions} in the array form of {@link ClipProportionsToArray} (NaN when null), for
     * the per-frame path (typed-array reads box nothing).
     * @internal
     */
    public readonly proportionValues: Float64Array;

    /** How the curves pass between their keys (see {@link CurveInterpolation}). */
    public readonly interpolation: CurveInterpolation;

    /**
     * What the first {@link ALL_MUSCLE_COUNT} curves hold: muscle values (`"muscle"`: files before
     * version 8, clips built by hand) or each muscle's angle over the larger end of its reference
     * range (`"angle"`, what the converter makes: a curve as smooth as the motion where a muscle's
     * range is lopsided, see `MuscleCurveUnit`). Samplers give muscle values either way.
     */
    public readonly muscleUnit: MuscleCurveUnit;

    /** Builds a clip from its parts; they are not copied. Use the converters or the file readers rather than this. */
    constructor(init: IMuscleClipInit) {
        this.name = init.name;
        this.source = init.source;
        this.frameRate = init.frameRate;
        this.frameCount = init.frameCount;
        this.loop = init.loop;
        this.curves = init.curves;
        this.contacts = init.contacts;
        this.toleranceDeg = init.toleranceDeg;
        this.warnings = init.warnings;
        this.groundHeight = init.groundHeight ?? 0;
        this.proportions = init.proportions ?? null;
        this.interpolation = init.interpolation ?? "spline";
        this.muscleUnit = init.muscleUnit ?? "muscle";
        this.proportionValues = ClipProportionsToArray(this.proportions, new Float64Array(CLIP_PROPORTION_COUNT));
    }

    /** Length in seconds: `(frameCount - 1) / frameRate`. */
    public get durationSeconds(): number {
        return (this.frameCount - 1) / this.frameRate;
    }

    /**
     * Every curve's segments as polynomials, built on first use and shared by every sampler of the
     * clip (see {@link ICurveSegmentTable}): 40 bytes a key.
     * @internal
     */
    public get segments(): ICurveSegmentTable {
        return (this._segments ??= BuildCurveSegmentTable(this.curves, this.interpolation));
    }

    private _segments: ICurveSegmentTable | undefined;

    /**
     * Whether any translation curve (`HumanPose.translations`) is not constantly 0: clips that only
     * turn their bones (most) sample and decode no translations.
     */
    public get hasTranslations(): boolean {
        if (this._hasTranslations === undefined) {
            this._hasTranslations = false;
            for (let c = CURVE_TRANSLATIONS; c < MUSCLE_CLIP_CURVE_COUNT; c++) {
                const v = this.curves[c].values;
                for (let k = 0; k < v.length; k++) if (v[k] !== 0) this._hasTranslations = true;
            }
        }
        return this._hasTranslations;
    }

    private _hasTranslations: boolean | undefined;

    /** Number of keys over all curves. */
    public get keyCount(): number {
        let n = 0;
        for (const c of this.curves) n += c.frames.length;
        return n;
    }
}

/**
 * A clip's curves laid out flat for the per-frame path: every key of every curve in one array, and
 * per key the segment that starts there as a cubic in frames since the key,
 * `c0 + u (c1 + u (c2 + u c3))`: the clip's Hermite segment (the slopes of its
 * {@link CurveInterpolation}; {@link EvaluateCurveSegment} for Catmull-Rom) expanded once, so a sample reads four numbers and does no division). A curve's last key
 * carries the constant segment of its value. One shape of arrays for every clip, so the sampler's
 * reads stay monomorphic; shared by every sampler of a clip.
 * @internal
 */
export interface ICurveSegmentTable {
    /** Per curve, the index of its first key in {@link keyFrames}; one more entry closes the last curve. */
    readonly keyStart: Uint32Array;
    /** Frame of every key, curve after curve. */
    readonly keyFrames: Float64Array;
    /** Four coefficients per key, in {@link keyFrames} order (value, per frame, per frame squared, per frame cubed). */
    readonly coefficients: Float64Array;
}

/**
 * Builds the {@link ICurveSegmentTable} of a set of curves (each at least one key).
 * @param curves the curves, in clip order
 * @param interpolation how they pass between keys
 * @internal
 */
export function BuildCurveSegmentTable(curves: readonly IMuscleCurve[], interpolation: CurveInterpolation): ICurveSegmentTable {
    const keyStart = new Uint32Array(curves.length + 1);
    for (let c = 0; c < curves.length; c++) keyStart[c + 1] = keyStart[c] + curves[c].frames.length;
    const total = keyStart[curves.length];
    const keyFrames = new Float64Array(total);
    const coefficients = new Float64Array(total * 4);
    for (let c = 0; c < curves.length; c++) {
        const { frames, values } = curves[c];
        const s = keyStart[c];
        const last = frames.length - 1;
        const slopes = interpolation === "spline" ? SplineSlopesToRef(frames, values, new Float64Array(frames.length)) : null;
        for (let k = 0; k <= last; k++) {
            keyFrames[s + k] = frames[k];
            const o = (s + k) * 4;
            const v0 = values[k];
            coefficients[o] = v0;
            if (k === last) continue;
            // The Hermite segment of EvaluateCurveSegment in t = u / h, expanded in u.
            const h = frames[k + 1] - frames[k];
            const v1 = values[k + 1];
            const m0 = (slopes ? slopes[k] : keySlope(frames, values, k)) * h;
            const m1 = (slopes ? slopes[k + 1] : keySlope(frames, values, k + 1)) * h;
            coefficients[o + 1] = m0 / h;
            coefficients[o + 2] = (3 * (v1 - v0) - 2 * m0 - m1) / (h * h);
            coefficients[o + 3] = (2 * (v0 - v1) + m0 + m1) / (h * h * h);
        }
    }
    return { keyStart, keyFrames, coefficients };
}

/** Largest number of keys a cursor steps over before it searches instead. */
const CURSOR_WALK = 4;

/**
 * Reads a {@link MuscleClip} at any time. Keeps one cursor per curve, so playing forward costs a
 * constant time per curve and frame; a jump costs a binary search. Allocates nothing after
 * construction; one sampler per playing instance.
 */
export class MuscleClipSampler {
    /** The clip read. */
    public readonly clip: MuscleClip;
    /**
     * The frame position the `...Slot` methods read (fractional; they clamp it): the per-frame
     * path hands it over here rather than as an argument.
     * @internal
     */
    public readonly frameSlot = new Float64Array(1);
    private readonly _cursor: Uint32Array;
    private readonly _keyStart: Uint32Array;
    private readonly _keyFrames: Float64Array;
    private readonly _coefficients: Float64Array;
    private readonly _tmp = new Float64Array(4);
    /** Sampled values of the curves other than the muscles', by curve index (`_evalSpan` writes them, `_vec`, `_quat` and `_turn` read them). */
    private readonly _values: Float64Array;
    /** The frame position `_evalSpan` reads. */
    private readonly _at = new Float64Array(1);
    /** Whether the clip moves any translation (else they are written as 0 without sampling). */
    private readonly _translations: boolean;
    /** Whether the muscle curves are in angle units (turned into muscle values once sampled). */
    private readonly _angleUnit: boolean;

    /** @param clip the clip to read */
    constructor(clip: MuscleClip) {
        this.clip = clip;
        this._translations = clip.hasTranslations;
        this._angleUnit = clip.muscleUnit === "angle";
        this._cursor = new Uint32Array(clip.curves.length);
        this._values = new Float64Array(Math.max(clip.curves.length, CURVE_TRANSLATIONS + 3 * TRANSLATION_DOF_COUNT));
        const table = clip.segments;
        this._keyStart = table.keyStart;
        this._keyFrames = table.keyFrames;
        this._coefficients = table.coefficients;
    }

    /**
     * Frame position (fractional) of a time: wrapped into the clip when it loops, clamped otherwise.
     * @param timeSeconds time from the clip's start
     */
    public frameAt(timeSeconds: number): number {
        const clip = this.clip;
        const last = clip.frameCount - 1;
        if (last <= 0 || !Number.isFinite(timeSeconds)) return timeSeconds === Infinity && !clip.loop ? last : 0;
        let f = timeSeconds * clip.frameRate;
        if (clip.loop) {
            f %= last;
            if (f < 0) f += last;
        } else if (f < 0) {
            f = 0;
        } else if (f > last) {
            f = last;
        }
        return f;
    }

    /**
     * One curve's value at a fractional frame (no wrapping); a muscle curve's as a muscle value,
     * whatever the clip's {@link MuscleClip.muscleUnit}.
     * @param curve curve index ({@link MuscleCurveNames} order)
     * @param frame frame position, 0 to `frameCount - 1`
     */
    public evaluate(curve: number, frame: number): number {
        this._at[0] = frame;
        this._evalSpan(curve, 1, this._tmp, 0);
        return this._angleUnit && curve < ALL_MUSCLE_COUNT ? AngleUnitToMuscleValue(curve, this._tmp[0]) : this._tmp[0];
    }

    /**
     * The pose at a time: muscles, body and goals (rotations normalized). Returns `result`.
     * @param timeSeconds time from the clip's start (wrapped or clamped, see {@link frameAt})
     * @param result the pose to write
     */
    public sampleToRef(timeSeconds: number, result: HumanPose): HumanPose {
        return this.sampleFrameToRef(this.frameAt(timeSeconds), result);
    }

    /**
     * The pose at a frame position (fractional, 0 to `frameCount - 1`, clamped, never wrapped: the
     * last frame of a looping clip is its own). Returns `result`.
     */
    public sampleFrameToRef(frame: number, result: HumanPose): HumanPose {
        this.frameSlot[0] = frame;
        return this.sampleSlotToRef(result);
    }

    /**
     * {@link sampleFrameToRef} at the frame position in {@link frameSlot}: the per-frame form, no
     * number passed (V8 boxes a number passed to a call it does not inline, which allocates).
     * @internal
     */
    public sampleSlotToRef(result: HumanPose): HumanPose {
        this._clampSlot();
        // Every curve the pose needs in a few spans, one loop each (not a call per curve), then
        // the vectors and rotations made of them.
        this._evalSpan(0, ALL_MUSCLE_COUNT, result.values, 0);
        if (this._angleUnit) AngleUnitsToMuscleValuesInPlace(result.values);
        const c = this._values;
        this._evalSpan(CURVE_BODY_POSITION, CURVE_ROOT - CURVE_BODY_POSITION, c, CURVE_BODY_POSITION);
        this._evalSpan(CURVE_HIPS, 6, c, CURVE_HIPS);
        this._vec(CURVE_BODY_POSITION, result.bodyPosition);
        this._quat(CURVE_BODY_ROTATION, result.bodyRotation);
        this._vec(CURVE_HIPS, result.hipsPosition);
        this._turn(CURVE_HIPS + 3, result.hipsRotation);
        const t = result.translations;
        if (this._translations) {
            this._evalSpan(CURVE_TRANSLATIONS, 3 * TRANSLATION_DOF_COUNT, c, CURVE_TRANSLATIONS);
            for (let i = 0; i < TRANSLATION_DOF_COUNT; i++) this._vec(CURVE_TRANSLATIONS + 3 * i, t[i]);
        } else {
            for (let i = 0; i < TRANSLATION_DOF_COUNT; i++) t[i].setAll(0);
        }
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            const k = CURVE_GOALS + g * CURVES_PER_GOAL;
            this._vec(k, result.goalPositions[g]);
            this._quat(k + 3, result.goalRotations[g]);
        }
        // The feet are kept from the hips (see MuscleCurveNames).
        result.goalPositions[0].addInPlace(result.hipsPosition);
        result.goalPositions[1].addInPlace(result.hipsPosition);
        return result;
    }

    /**
     * The root at a time: its position on the ground plane written to `result` (x, 0, z; canonical
     * frame, avatar scales). Returns the root's yaw in radians (unwrapped over the clip).
     */
    public sampleRootToRef(timeSeconds: number, result: Vector3): number {
        return this.sampleRootFrameToRef(this.frameAt(timeSeconds), result);
    }

    /**
     * The root at a frame position (fractional, clamped to the clip, never wrapped): see
     * {@link sampleRootToRef}. Returns the yaw in radians.
     */
    public sampleRootFrameToRef(frame: number, result: Vector3): number {
        this.frameSlot[0] = frame;
        const t = this._tmp;
        this.sampleRootSlotInto(t);
        result.set(t[0], 0, t[1]);
        return t[2];
    }

    /**
     * {@link sampleRootFrameToRef} at the frame position in {@link frameSlot}, into `out`: x, z and
     * yaw (no number passed or returned, see {@link sampleSlotToRef}).
     * @internal
     */
    public sampleRootSlotInto(out: Float64Array): void {
        this._clampSlot();
        this._evalSpan(CURVE_ROOT, 3, out, 0);
    }

    /** {@link FootContact} flags of the frame nearest a time. */
    public contactsAt(timeSeconds: number): number {
        return this.clip.contacts[Math.round(this.frameAt(timeSeconds))];
    }

    /** {@link FootContact} flags of the frame nearest a frame position (clamped, never wrapped). */
    public contactsAtFrame(frame: number): number {
        this.frameSlot[0] = frame;
        return this.contactsAtSlot();
    }

    /**
     * {@link contactsAtFrame} at the frame position in {@link frameSlot} (see {@link sampleSlotToRef}).
     * @internal
     */
    public contactsAtSlot(): number {
        this._clampSlot();
        return this.clip.contacts[Math.round(this._at[0])];
    }

    /**
     * {@link FootContact} flags held over the frame position in {@link frameSlot}: a foot counts as
     * down between two frames only when it is down on both (on a frame itself, that frame's own
     * flags; a position within `CONTACT_FRAME_SNAP` of one counts as on it). A contact thus
     * spans exactly from its first frame to its last, whatever the rate the clip is shown at: the
     * clip's foot, interpolated between a contact frame and the next one off the ground, is
     * already arriving or leaving. Clamped, never wrapped (the player wraps a loop's time).
     * @internal
     */
    public contactsHeldAtSlot(): number {
        this._clampSlot();
        const frame = this._at[0];
        const near = Math.round(frame);
        const flags = this.clip.contacts;
        if (Math.abs(frame - near) < CONTACT_FRAME_SNAP) return flags[near];
        const below = Math.floor(frame);
        return flags[below] & flags[below + 1];
    }

    /** The frame position of {@link frameSlot}, clamped to the clip, into `_at`. */
    private _clampSlot(): void {
        const last = this.clip.frameCount - 1;
        const frame = this.frameSlot[0];
        this._at[0] = frame > 0 ? (frame < last ? frame : last) : 0;
    }

    /**
     * Writes the values of the curves `first` to `first + count - 1` at the frame position `_at[0]`
     * into `out[at]` onwards (curve `first + i` into `out[at + i]`), in one loop: each curve's
     * polynomial segment from the clip's {@link ICurveSegmentTable} (its {@link CurveInterpolation},
     * tested against slow references). The frame comes from an array and the values go straight
     * into one: no number is passed to or returned from a call, so nothing is boxed (no
     * allocation per sample).
     */
    private _evalSpan(first: number, count: number, out: Float32Array | Float64Array, at: number): void {
        const keyFrames = this._keyFrames;
        const keyStart = this._keyStart;
        const cursor = this._cursor;
        const c = this._coefficients;
        const frame = this._at[0];
        const shift = at - first;
        for (let curve = first; curve < first + count; curve++) {
            const s = keyStart[curve];
            const n = keyStart[curve + 1] - s;
            let k = cursor[curve];
            if (k >= n || keyFrames[s + k] > frame || (k + CURSOR_WALK < n && keyFrames[s + k + CURSOR_WALK] <= frame)) {
                // Binary search: the last key at or before the frame.
                let lo = 0;
                let hi = n;
                while (hi - lo > 1) {
                    const mid = (lo + hi) >> 1;
                    if (keyFrames[s + mid] <= frame) lo = mid;
                    else hi = mid;
                }
                k = lo;
            } else {
                while (k + 1 < n && keyFrames[s + k + 1] <= frame) k++;
            }
            cursor[curve] = k;
            const o = (s + k) * 4;
            const u = frame - keyFrames[s + k];
            out[curve + shift] = c[o] + u * (c[o + 1] + u * (c[o + 2] + u * c[o + 3]));
        }
    }

    /** A vector of three sampled curves from `c` (`_values`). */
    private _vec(c: number, out: Vector3): void {
        const t = this._values;
        out.x = t[c];
        out.y = t[c + 1];
        out.z = t[c + 2];
    }

    /** A rotation vector (three sampled curves from `c`, `_values`) as a quaternion: the exp map, written out (see `RotationVectorToQuaternionToRef`). */
    private _turn(c: number, out: Quaternion): void {
        const t = this._values;
        const x = t[c];
        const y = t[c + 1];
        const z = t[c + 2];
        const angle = Math.sqrt(x * x + y * y + z * z);
        if (angle < 1e-12) {
            out.x = x * 0.5;
            out.y = y * 0.5;
            out.z = z * 0.5;
            out.w = 1;
            return;
        }
        const k = Math.sin(angle * 0.5) / angle;
        out.x = x * k;
        out.y = y * k;
        out.z = z * k;
        out.w = Math.cos(angle * 0.5);
    }

    /** A quaternion of four sampled curves from `c` (`_values`), normalized. */
    private _quat(c: number, out: Quaternion): void {
        const t = this._values;
        const x = t[c];
        const y = t[c + 1];
        const z = t[c + 2];
        const w = t[c + 3];
        const len = Math.sqrt(x * x + y * y + z * z + w * w);
        if (len > 1e-12) {
            out.x = x / len;
            out.y = y / len;
            out.z = z / len;
            out.w = w / len;
        } else {
            out.x = 0;
            out.y = 0;
            out.z = 0;
            out.w = 1;
        }
    }
}

/** Names of the IK goals in files, in `HumanIKGoal` order. */
export const GoalNames: readonly string[] = GOAL_NAMES;
