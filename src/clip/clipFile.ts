import type { MuscleClip } from "./muscleClip.js";
import { MUSCLE_CLIP_MAGIC } from "./clipFileRules.js";
import { ParseMuscleClipJson } from "./clipFileJson.js";
import { ParseMuscleClipBinary } from "./clipFileBinary.js";

/**
 * Reads a muscle clip file's content, JSON or binary (told apart by the first bytes).
 * @param bytes the file's content
 * @param source the file name, for messages
 */
export function ParseMuscleClip(bytes: Uint8Array, source: string): MuscleClip {
    const head = String.fromCharCode(...bytes.subarray(0, 4));
    if (head === MUSCLE_CLIP_MAGIC) return ParseMuscleClipBinary(bytes, source);
    return ParseMuscleClipJson(new TextDecoder().decode(bytes), source);
}
