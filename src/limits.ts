/**
 * The limits of input: what the readers accept and the writers write, in one place. Every reader
 * (BVH, glTF/GLB/VRM, muscle clips in both formats) refuses what lies beyond them with one
 * `HumanoidError` naming the file, the line or field and the value; every writer and the
 * converter check the same limits, so nothing this library writes is refused when read back.
 * Each limit is far beyond any real rig or clip (the figures in brackets are the largest met in
 * practice) and low enough that a file within all of them converts in seconds and well under a
 * gigabyte.
 */

/** Most joints of a skeleton: BVH joints with their End Sites, or glTF nodes (real rigs: under 1,000 with face and fingers). */
export const MAX_JOINTS = 10_000;

/** Deepest nesting of joints or glTF nodes, counting the root as 1 (real skeletons: under 50). */
export const MAX_DEPTH = 1000;

/** Longest joint, node, clip or animation name, in UTF-16 code units (real names: under 100). */
export const MAX_NAME_LENGTH = 1024;

/** Longest string a muscle clip file holds (its name, source, each warning), in UTF-8 bytes. */
export const MAX_STRING_BYTES = 1 << 20;

/** Most warnings a muscle clip holds; a conversion keeps the first ones and says how many more there were. */
export const MAX_WARNINGS = 10_000;

/** Most frames a clip may have: a BVH's motion, a muscle clip (9 hours at 30 fps, 2.3 hours at 120). */
export const MAX_CLIP_FRAMES = 1_000_000;

/**
 * Longest clip, seconds (4 hours). A glTF animation's key times must lie within it: one corrupt
 * key time would otherwise plan a clip of millions of frames from a file of a few keys.
 */
export const MAX_CLIP_SECONDS = 4 * 3600;

/**
 * Longest time between two keys of one glTF animation track, seconds. A flipped bit in one key
 * time moves it minutes or days away from the others, and the clip would be sampled that long
 * from a handful of keys; real tracks key at least every few seconds.
 */
export const MAX_KEY_GAP_SECONDS = 60;

/**
 * Most values a BVH's motion block may hold (frames times channels): 64 million doubles, 512 MB.
 * The reader also checks that the declared frames fit in the bytes the file has before allocating.
 */
export const MAX_BVH_VALUES = 1 << 26;

/**
 * Largest magnitude of a length in a source file, in the file's own units: BVH OFFSETs and
 * position channels, glTF translations (a million metres, or a kilometre in a millimetre file;
 * motion capture volumes are tens of metres).
 */
export const MAX_ABS_LENGTH = 1e6;

/** Largest magnitude of a BVH rotation channel, degrees (unwrapped angles of a long spin reach some thousands). */
export const MAX_ABS_ROTATION_DEG = 1e6;

/**
 * Largest magnitude of a value in a muscle clip curve: muscles are near -1..1, positions in
 * avatar scales, rotations are unit quaternions and rotation vectors. Far below float32's 3.4e38, so
 * that blending and spline overshoot between keys stays finite.
 */
export const MAX_ABS_CLIP_VALUE = 1e9;

/** Highest frame rate of a clip, frames per second (a muscle clip, a conversion, a bake). */
export const MAX_FRAME_RATE = 10_000;

/** Lowest frame rate of a clip file, frames per second (one frame an hour): a lower rate would make its duration overflow. */
export const MIN_FRAME_RATE = 1 / 3600;

/** The limits above by name, for tables and messages. */
export const InputLimits = {
    MAX_JOINTS,
    MAX_DEPTH,
    MAX_NAME_LENGTH,
    MAX_STRING_BYTES,
    MAX_WARNINGS,
    MAX_CLIP_FRAMES,
    MAX_CLIP_SECONDS,
    MAX_KEY_GAP_SECONDS,
    MAX_BVH_VALUES,
    MAX_ABS_LENGTH,
    MAX_ABS_ROTATION_DEG,
    MAX_ABS_CLIP_VALUE,
    MAX_FRAME_RATE,
    MIN_FRAME_RATE,
} as const;

/** A value cut for a message: long strings are shortened so that an error about a long name is not itself long. */
export function QuoteForMessage(value: unknown, maxLength = 80): string {
    let s: string;
    try {
        s = typeof value === "string" ? value : String(JSON.stringify(value) ?? value);
    } catch {
        s = String(value);
    }
    return s.length > maxLength ? `${s.slice(0, maxLength)}... (${s.length} characters)` : s;
}
