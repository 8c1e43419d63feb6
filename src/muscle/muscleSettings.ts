// The per-avatar muscle settings (ranges and twist shares) and their check, made when an avatar is
// built; `MuscleSetup` reads the ranges they give.
import { HumanoidError } from "../errors.js";
import { MuscleIndexFromName, Muscles } from "./muscles.js";

/** Per-avatar muscle settings (see {@link IHumanoidAvatarOptions}). */
export interface IMuscleSettings {
    /** Range overrides by muscle name: `{"Left Arm Down-Up": [-80, 90]}` (degrees, min < 0 < max). */
    readonly muscleRanges?: Readonly<Record<string, readonly [number, number]>>;
    /** Twist shares (0..1) of the upper arm, forearm, upper leg and lower leg; default 0.5 each. */
    readonly twist?: Readonly<Partial<Record<"upperArm" | "lowerArm" | "upperLeg" | "lowerLeg", number>>>;
}

/**
 * Checks muscle settings and returns the muscle ranges they give (degrees). Throws a
 * {@link HumanoidError} `BAD_OPTION` naming the avatar and the field: unknown muscle, a range
 * that is not `[min < 0, max > 0]`, a twist share outside 0..1. Called when an avatar is built, so
 * encoding and decoding never meet bad settings.
 */
export function CheckMuscleSettings(
    avatarName: string,
    settings: IMuscleSettings,
): {
    /** Low end of every muscle's range, degrees, indexed by muscle (value -1). */
    minDeg: Float32Array;
    /** High end of every muscle's range, degrees (value +1). */
    maxDeg: Float32Array;
} {
    const minDeg = Float32Array.from(Muscles.map((m) => m.minDeg));
    const maxDeg = Float32Array.from(Muscles.map((m) => m.maxDeg));
    for (const [name, range] of Object.entries(settings.muscleRanges ?? {})) {
        const i = MuscleIndexFromName(name);
        if (i < 0) throw new HumanoidError("BAD_OPTION", `${avatarName}: muscleRanges: unknown muscle '${name}'`);
        const [lo, hi] = Array.isArray(range) ? (range as [number, number]) : [NaN, NaN];
        if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo < 0 && hi > 0)) {
            throw new HumanoidError(
                "BAD_OPTION",
                `${avatarName}: muscleRanges['${name}'] must be [min, max] degrees with min < 0 < max, got ${JSON.stringify(range)}`,
            );
        }
        minDeg[i] = lo;
        maxDeg[i] = hi;
    }
    for (const [k, v] of Object.entries(settings.twist ?? {})) {
        if (!["upperArm", "lowerArm", "upperLeg", "lowerLeg"].includes(k)) {
            throw new HumanoidError("BAD_OPTION", `${avatarName}: twist: unknown share '${k}' (upperArm, lowerArm, upperLeg or lowerLeg)`);
        }
        if (!(typeof v === "number" && v >= 0 && v <= 1)) throw new HumanoidError("BAD_OPTION", `${avatarName}: twist.${k} must be between 0 and 1, got ${v}`);
    }
    return { minDeg, maxDeg };
}
