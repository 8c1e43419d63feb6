import { HUMAN_IK_GOAL_COUNT } from "../muscle/humanPose.js";
import { ALL_MUSCLE_COUNT, MuscleNames } from "../muscle/muscles.js";
import { TRANSLATION_DOF_COUNT, TranslationDofNames } from "../muscle/translationDof.js";
import type { MuscleCurveUnit } from "./muscleCurveUnit.js";
import { BuildCurveSegmentTable, type CurveInterpolation, type ICurveSegmentTable, type IMuscleCurve } from "./curve.js";
import { CLIP_PROPORTION_COUNT, ClipProportionsToArray, type IClipProportions } from "./clipProportions.js";

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
 * How near a frame, in frames, a clip time counts as on it for the foot contacts held there
 * (`MuscleClipSampler.contactsHeldAtSlot`, the player's look-ahead): a millionth, so that time
 * summed over updates that drifts off a frame by rounding still lands on it.
 */
export const CONTACT_FRAME_SNAP = 1e-6;

/**
 * Foot-contact flags of a frame: bit 0 left foot, bit 1 right foot planted; while a foot is
 * planted, bits 2 to 5 may say which end of it the source turns about (its still end, see
 * `DetectContactEnds`): the ankle, or the toes (a foot standing still: the end its pitch puts
 * lower). Neither set: not known (a contact's frames before its two ends' speeds part, while the
 * foot moves; files of version 9 or older, and a still foot's frames in files converted before
 * 2026-12-07), and planting holds the end the foot's own pitch stands on.
 */
export enum FootContact {
    /** No foot on the ground. */
    None = 0,
    /** The left foot is planted. */
    Left = 1,
    /** The right foot is planted. */
    Right = 2,
    /** The left foot is planted and turns about its ankle (a heel spin: the toes lift or swing round it). */
    LeftAnkleStill = 4,
    /** The right foot is planted and turns about its ankle. */
    RightAnkleStill = 8,
    /** The left foot is planted and turns about its toes (the heel comes up or swings round them). */
    LeftToesStill = 16,
    /** The right foot is planted and turns about its toes. */
    RightToesStill = 32,
}

/** Every {@link FootContact} bit a frame may hold. */
export const FOOT_CONTACT_BITS = 63;

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
    /** Where the clip's first frame is in its source, seconds (see {@link MuscleClip.sourceStartSeconds}). Default 0. */
    sourceStartSeconds?: number;
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

    /**
     * Where the clip's first frame is in the source it was converted from, seconds from the
     * source's start: 0, unless the conversion left out a held pose the take jumps from (a T-pose
     * frame 0; `IMuscleClipConvertOptions.keepEndPoses`). Whatever shows or measures the source
     * beside the clip (the quality report, the playground) reads the source from here.
     */
    public readonly sourceStartSeconds: number;

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
        this.sourceStartSeconds = init.sourceStartSeconds ?? 0;
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

/** Names of the IK goals in files, in `HumanIKGoal` order. */
export const GoalNames: readonly string[] = GOAL_NAMES;
