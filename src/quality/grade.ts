import type { IRetargetQuality } from "./metrics.js";

/**
 * The quality thresholds a retarget is held to (docs/metrics.md, "Thresholds"), as checks one pair
 * passes or fails, so that a report can list the worst pairs first and say which line each misses.
 * Each threshold is a named constant with its unit.
 */

/** Most jerk (target over source) on a pair of normally proportioned characters. */
export const MAX_JERK_RATIO = 1.3;
/** Most jerk of any watched bone (knees, elbows, ankles, wrists, head), target over source, on a pair of normally proportioned characters. */
export const MAX_BONE_JERK_RATIO = 2.0;
/** Limb direction error allowed above AnimatorAvatar's (degrees), where AnimatorAvatar's is under {@link ANIMATOR_AVATAR_POSE_LIMIT_DEG}. */
export const POSE_MARGIN_DEG = 0.5;
/** AnimatorAvatar's limb direction error below which ours is held to it (degrees). */
export const ANIMATOR_AVATAR_POSE_LIMIT_DEG = 10;
/** Most mean limb direction error on a pair of normally proportioned characters (degrees). */
export const MAX_POSE_ERROR_DEG = 3;
/** Most mean direction error of any leg segment of a short-legged character (degrees). */
export const MAX_CARTOON_LEG_SEGMENT_DEG = 8;
/** Most foot skating as a share of AnimatorAvatar's on a pair of two rigs. */
export const MAX_SKATE_SHARE = 0.2;
/**
 * Most distance of planted feet from the floor (leg lengths, mean over contact frames), or the
 * source's own distance when that is more (a crawl whose feet rest on their tops, a fall: what the
 * clip calls down is not a foot standing on its sole, and a faithful retarget does as the source).
 */
export const MAX_CONTACT_HEIGHT = 0.03;
/** Foot skating this small counts as none when a limit is 0 (a source or baseline that never slides), leg lengths per contact second. */
export const SKATE_FLOOR = 0.001;
/** Longest any limb may get (x its rest length). */
export const MAX_LIMB_STRETCH = 1.05;
/** Most mean limb direction error of a clip played on its own skeleton (degrees), with foot planting. */
export const MAX_SELF_POSE_ERROR_DEG = 1;
/** The same without foot planting (degrees): what is left is only the muscle space's round trip. */
export const MAX_SELF_POSE_ERROR_NO_PLANTING_DEG = 0.1;
/**
 * Leg length over the centre-of-mass height of a character of normal human proportions: from
 * this to {@link NORMAL_LEG_RATIO_MAX} (an adult's is about 0.85; the child mocap 0.85, a
 * Khronos figure 0.71, the KayKit chibi 0.53).
 */
export const NORMAL_LEG_RATIO_MIN = 0.65;
/** See {@link NORMAL_LEG_RATIO_MIN}. */
export const NORMAL_LEG_RATIO_MAX = 1.1;

/** What grading needs of one pair. */
export interface IGradedPair {
    /** Whether the clip plays on its own skeleton (source file and target file are the same). */
    readonly selfRoundTrip: boolean;
    /** Leg length over scale of the source and of the target (see {@link NORMAL_LEG_RATIO_MIN}). */
    readonly sourceLegRatio: number;
    readonly targetLegRatio: number;
    /** Foot skating of the source's own motion on its own contacts (leg lengths per contact second). */
    readonly sourceFootSkate: number;
    /** The source's own planted feet from its floor (its contact height error on its own skeleton, leg lengths). */
    readonly sourceContactHeight: number;
    /** Whether our runtime held planted feet in this run. */
    readonly planting: boolean;
    readonly ours: IRetargetQuality;
    readonly animatorAvatar: IRetargetQuality | null;
}

/** One threshold a pair missed: what, the figure, the limit, and how far past it (figure over limit, above 1 when missed). */
export interface IQualityMiss {
    readonly check: string;
    readonly value: number;
    readonly limit: number;
    readonly excess: number;
}

/** Whether a leg-length ratio is one of normal human proportions. */
export function IsNormallyProportioned(legRatio: number): boolean {
    return legRatio >= NORMAL_LEG_RATIO_MIN && legRatio <= NORMAL_LEG_RATIO_MAX;
}

/** The leg segments of {@link IRetargetQuality.segmentErrorDeg}. */
const LEG_SEGMENTS = ["left thigh", "left shin", "right thigh", "right shin", "left foot", "right foot"];

/**
 * Every threshold a pair misses (empty when it meets them all), worst first. Which lines apply
 * depends on the pair: jerk and the 3 degree mean on pairs of normally proportioned characters,
 * AnimatorAvatar's jerk and the leg segments on a short-legged target, skating against
 * AnimatorAvatar's on two rigs, the round-trip bounds on a clip's own skeleton.
 */
export function GradeQualityPair(p: IGradedPair): IQualityMiss[] {
    const o = p.ours;
    const a = p.animatorAvatar;
    const misses: IQualityMiss[] = [];
    const check = (name: string, value: number, limit: number): void => {
        if (!(value <= limit)) misses.push({ check: name, value, limit, excess: limit > 0 ? value / limit : Infinity });
    };
    const normal = IsNormallyProportioned(p.sourceLegRatio) && IsNormallyProportioned(p.targetLegRatio);
    const cartoon = !IsNormallyProportioned(p.targetLegRatio);
    if (p.selfRoundTrip) {
        check(
            p.planting ? "self round trip pose error (deg)" : "self round trip pose error without planting (deg)",
            o.poseErrorDeg,
            p.planting ? MAX_SELF_POSE_ERROR_DEG : MAX_SELF_POSE_ERROR_NO_PLANTING_DEG,
        );
    } else {
        if (normal) {
            check("jerk ratio", o.jerkRatio, MAX_JERK_RATIO);
            check(`bone jerk ratio (${o.boneJerkWorst})`, o.boneJerkMax, MAX_BONE_JERK_RATIO);
            check("limb direction error (deg)", o.poseErrorDeg, MAX_POSE_ERROR_DEG);
        }
        if (cartoon && a) check("jerk ratio over AnimatorAvatar's", o.jerkRatio, a.jerkRatio);
        if (cartoon) {
            for (const seg of LEG_SEGMENTS)
                if (seg in o.segmentErrorDeg) check(`${seg} direction error (deg)`, o.segmentErrorDeg[seg], MAX_CARTOON_LEG_SEGMENT_DEG);
        }
        if (a && a.poseErrorDeg < ANIMATOR_AVATAR_POSE_LIMIT_DEG)
            check("limb direction error over AnimatorAvatar's (deg)", o.poseErrorDeg, a.poseErrorDeg + POSE_MARGIN_DEG);
        if (a) check("foot skating over AnimatorAvatar's", o.footSkate, Math.max(SKATE_FLOOR, MAX_SKATE_SHARE * a.footSkate));
        check("foot skating over the source's own", o.footSkate, Math.max(SKATE_FLOOR, p.sourceFootSkate));
    }
    check("planted feet from the floor (leg)", o.contactHeightError, Math.max(MAX_CONTACT_HEIGHT, p.sourceContactHeight));
    check("longest limb (x rest)", o.maxStretch, MAX_LIMB_STRETCH + 1e-6);
    return misses.sort((x, y) => y.excess - x.excess);
}
