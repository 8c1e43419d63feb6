import { HumanoidError } from "../errors.js";
import { HumanBone, HumanBoneFromName, HUMAN_BONE_COUNT } from "./humanBones.js";

/**
 * Which bones joint limits hold: `"hinges"` (knees and elbows, which then bend backwards no
 * further than their give, `KNEE_OVERSHOOT_DEG` and `ELBOW_OVERSHOOT_DEG`), `"all"` (every bone
 * below the hips), `"none"`.
 */
export type JointLimitBoneSet = "hinges" | "all" | "none";

/**
 * One bone's limit, replacing the default made from its muscle ranges (docs/runtime.md, joint
 * limits). Angles in degrees, in the bone's muscle frame: its rotation from its T-pose relative
 * to its parent, split into a twist about the bone's twist axis and a swing.
 */
export interface IBoneLimitSettings {
    /** The twist about the bone's axis, degrees from the T-pose: `[min <= 0, max >= 0]` (a span of a turn or more: no limit). */
    readonly twistDeg?: readonly [number, number];
    /**
     * The swing polygon: each vertex a swing as a rotation vector `[y, z]` in degrees about the
     * bone's Y and Z muscle axes (a muscle's angle on that axis, from the T-pose); the bone's
     * direction under that swing is the polygon's vertex. At least 3, in any order (sorted by
     * azimuth about the centre); the polygon must be star-shaped about its centre.
     */
    readonly swingDeg?: readonly (readonly [number, number])[];
    /** The swing of the polygon's centre, `[y, z]` degrees (strictly inside). Default: the mean of {@link swingDeg}. */
    readonly centerDeg?: readonly [number, number];
}

/**
 * An avatar's joint limits (`jointLimits` avatar option): which bones are held by default, the
 * margin around the defaults, and per-bone limits. Plain JSON: save it with the avatar's other
 * settings (`SerializeJointLimits` writes the effective limits of every bone in this form).
 */
export interface IJointLimitSettings {
    /** Which bones are limited: a set, or a list of bone names (`"leftLowerLeg"`...). Default `"hinges"`. */
    readonly bones?: JointLimitBoneSet | readonly string[];
    /** Degrees added around each default limit made from muscle ranges (not on a hinge's straight side). Default {@link DEFAULT_JOINT_LIMIT_MARGIN_DEG}. */
    readonly marginDeg?: number;
    /** Per bone (bone names as in bone maps, `"leftLowerLeg"`), a limit replacing the default; a part left out keeps its default. */
    readonly limits?: Readonly<Record<string, IBoneLimitSettings>>;
}

/** Default margin around the limits made from muscle ranges, degrees: room for mocap noise and for the approximations of the default polygons. */
export const DEFAULT_JOINT_LIMIT_MARGIN_DEG = 10;

/** Largest margin accepted, degrees. */
const MAX_MARGIN_DEG = 90;

/** The hinges: knees and elbows. */
export const HINGE_BONES: readonly HumanBone[] = [HumanBone.LeftLowerLeg, HumanBone.RightLowerLeg, HumanBone.LeftLowerArm, HumanBone.RightLowerArm];

/**
 * Per human bone, 1 when a bone set holds it: `"hinges"` the knees and elbows, `"all"` every bone
 * but the hips (whose rotation is the body's), `"none"` none; a list names its bones. Unknown
 * names throw a {@link HumanoidError} `BAD_OPTION` naming `what`.
 */
export function JointLimitBoneMask(set: JointLimitBoneSet | readonly (string | HumanBone)[], what: string): Uint8Array {
    const mask = new Uint8Array(HUMAN_BONE_COUNT);
    if (set === "all") {
        mask.fill(1);
        mask[HumanBone.Hips] = 0;
    } else if (set === "hinges") {
        for (const b of HINGE_BONES) mask[b] = 1;
    } else if (set === "none") {
        // nothing
    } else if (Array.isArray(set)) {
        for (const n of set) {
            const b = typeof n === "number" ? n : HumanBoneFromName(n);
            if (b === undefined || !(b >= 0 && b < HUMAN_BONE_COUNT)) throw new HumanoidError("BAD_OPTION", `${what}: unknown bone ${JSON.stringify(n)}`);
            if (b !== HumanBone.Hips) mask[b] = 1;
        }
    } else {
        throw new HumanoidError("BAD_OPTION", `${what} must be "hinges", "all", "none" or a list of bone names (got ${JSON.stringify(set)})`);
    }
    return mask;
}

const isPair = (v: unknown): v is readonly [number, number] =>
    Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "number" && Number.isFinite(x));

/**
 * Checks an avatar's `jointLimits` settings as data: known keys and bones, numbers where numbers
 * belong, twist ranges holding the T-pose. Throws one {@link HumanoidError} `BAD_OPTION` naming
 * the avatar and the field. (Whether each swing polygon is star-shaped is checked when the limits
 * are built.)
 */
export function CheckJointLimitSettings(avatarName: string, settings: IJointLimitSettings | undefined): void {
    if (settings === undefined) return;
    const where = `${avatarName}: jointLimits`;
    if (typeof settings !== "object" || settings === null || Array.isArray(settings)) throw new HumanoidError("BAD_OPTION", `${where} must be an object`);
    for (const k of Object.keys(settings)) {
        if (!["bones", "marginDeg", "limits"].includes(k)) throw new HumanoidError("BAD_OPTION", `${where}: unknown field '${k}' (bones, marginDeg or limits)`);
    }
    if (settings.bones !== undefined) JointLimitBoneMask(settings.bones, `${where}.bones`);
    const m = settings.marginDeg;
    if (m !== undefined && !(typeof m === "number" && m >= 0 && m <= MAX_MARGIN_DEG)) {
        throw new HumanoidError("BAD_OPTION", `${where}.marginDeg must be from 0 to ${MAX_MARGIN_DEG} degrees (got ${JSON.stringify(m)})`);
    }
    const limits = settings.limits ?? {};
    if (typeof limits !== "object" || limits === null || Array.isArray(limits))
        throw new HumanoidError("BAD_OPTION", `${where}.limits must be an object of bone names`);
    for (const [name, limit] of Object.entries(limits)) {
        const b = HumanBoneFromName(name);
        if (b === undefined || b === HumanBone.Hips) throw new HumanoidError("BAD_OPTION", `${where}.limits: unknown or unlimited bone '${name}'`);
        const at = `${where}.limits.${name}`;
        if (typeof limit !== "object" || limit === null) throw new HumanoidError("BAD_OPTION", `${at} must be an object`);
        for (const k of Object.keys(limit)) {
            if (!["twistDeg", "swingDeg", "centerDeg"].includes(k))
                throw new HumanoidError("BAD_OPTION", `${at}: unknown field '${k}' (twistDeg, swingDeg or centerDeg)`);
        }
        if (limit.twistDeg !== undefined) {
            if (!isPair(limit.twistDeg) || !(limit.twistDeg[0] <= 0 && limit.twistDeg[1] >= 0)) {
                throw new HumanoidError("BAD_OPTION", `${at}.twistDeg must be [min <= 0, max >= 0] degrees (got ${JSON.stringify(limit.twistDeg)})`);
            }
        }
        if (limit.swingDeg !== undefined) {
            if (!Array.isArray(limit.swingDeg) || limit.swingDeg.length < 3 || !limit.swingDeg.every(isPair)) {
                throw new HumanoidError("BAD_OPTION", `${at}.swingDeg must be at least 3 vertices [y, z] in degrees`);
            }
            if (limit.swingDeg.some((p) => Math.hypot(p[0], p[1]) >= 180))
                throw new HumanoidError("BAD_OPTION", `${at}.swingDeg: a swing of half a turn or more`);
        }
        if (limit.centerDeg !== undefined && !isPair(limit.centerDeg)) throw new HumanoidError("BAD_OPTION", `${at}.centerDeg must be [y, z] degrees`);
        if (limit.centerDeg !== undefined && limit.swingDeg === undefined) throw new HumanoidError("BAD_OPTION", `${at}.centerDeg needs swingDeg`);
    }
}
