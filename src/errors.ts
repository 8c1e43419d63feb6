/**
 * Machine-readable codes of {@link HumanoidError}. Each names one kind of bad input; the message
 * says which file, line, bone or field.
 */
export type HumanoidErrorCode =
    /** A BVH file could not be parsed (the message carries the line number). */
    | "BVH_PARSE"
    /** A glTF/GLB/VRM file could not be read or has no usable node hierarchy. */
    | "GLTF_PARSE"
    /** The file extension or content is not a format this library reads. */
    | "UNSUPPORTED_FORMAT"
    /** A file could not be read from disk. */
    | "FILE_READ"
    /** The skeleton hierarchy is broken (cycles, bad parent indices, no joints). */
    | "BAD_HIERARCHY"
    /** The skeleton does not look like a humanoid (no hips with two legs and a spine, no arms...). */
    | "NOT_HUMANOID"
    /** One or more required human bones are not mapped (the message lists all of them). */
    | "MISSING_REQUIRED_BONES"
    /** A bone map (user override, JSON or VRM) is invalid: unknown bone, unknown joint, joint used twice, wrong order. */
    | "BAD_BONE_MAP"
    /** An option has an invalid value. */
    | "BAD_OPTION"
    /** A muscle clip file (JSON or binary) is invalid: truncated, unknown version, wrong lengths, NaN, unknown keys. */
    | "CLIP_PARSE"
    /** A clip cannot be converted: no frames, no animation that reaches the avatar's bones. */
    | "CONVERT"
    /** A file could not be written. */
    | "FILE_WRITE"
    /** A mesh has no skin (skeleton, bone indices and weights) where one is needed, or its skin refers to bones it lacks. */
    | "NOT_SKINNED";

/**
 * The one error type of babylon-humanoid. Cold paths (parsing, mapping, building an avatar)
 * throw it with a {@link HumanoidErrorCode} and a message that names the input.
 */
export class HumanoidError extends Error {
    /** What kind of problem this is. */
    public readonly code: HumanoidErrorCode;
    /** Extra structured details (for example the list of missing bones), when there are any. */
    public readonly details?: Readonly<Record<string, unknown>>;

    /**
     * @param code what kind of problem this is
     * @param message a sentence naming the file, line, bone or field
     * @param details optional structured details for programs
     */
    constructor(code: HumanoidErrorCode, message: string, details?: Record<string, unknown>) {
        super(message);
        this.name = "HumanoidError";
        this.code = code;
        this.details = details;
    }
}
