import { extname } from "node:path";
import { HumanoidError } from "../errors.js";
import { SerializeVrmAnimationToGlb } from "../io/vrmAnimationFile.js";
import { CreateVrmAnimationSkeleton, GetVrmAnimationSkeleton, VrmAnimationFromMuscleClip, type IVrmAnimationSkeleton } from "../io/vrmAnimationRig.js";
import { MAX_FRAME_RATE } from "../limits.js";
import { WriteFilesAtomicallyAsync } from "./convertFile.js";
import { LoadHumanoidAvatarFromFileAsync } from "./loadAvatar.js";
import { ReadSourceClipsAsync, type IRetargetFileOptions } from "./retargetFile.js";

/** What {@link RetargetFileToVrmaAsync} wrote. */
export interface IRetargetVrmaResult {
    /** The output path. */
    readonly output: string;
    /** Bytes written. */
    readonly bytes: number;
    /** The animation's name (the source clip's). */
    readonly name: string;
    /** Keys per track. */
    readonly frames: number;
    /** Keys per second. */
    readonly frameRate: number;
    /** Human bones in the file (one node and one rotation track each). */
    readonly bones: number;
    /** The skeleton's proportions: `"the built-in adult"` or the character file. */
    readonly skeleton: string;
    /** What did not convert losslessly from the source clip. */
    readonly warnings: readonly string[];
}

/** Source extensions this path reads (as `retarget`). */
const SOURCE_EXTENSIONS = [".json", ".bin", ".bvh", ".glb", ".gltf", ".vrm", ".vrma"];
/** Characters whose skeleton a VRM Animation can be written on. */
const CHARACTER_EXTENSIONS = [".glb", ".gltf", ".vrm"];

/**
 * Writes a motion as a VRM Animation file (`.vrma`), the `retarget ... -o x.vrma` of the command
 * line. The source is anything `retarget` reads (muscle clip file, BVH, GLB, glTF, VRM, VRMA; one
 * clip: `clip` picks it when the file has several). Without a character the keys are on the default
 * skeleton ({@link GetVrmAnimationSkeleton}, the same file as `convert --format vrma`); with one
 * (`target`, a GLB, glTF or VRM) on that character's own human bones and T-pose proportions
 * ({@link CreateVrmAnimationSkeleton}), so that a player of that model finds a track for every bone
 * it has and none for bones it lacks (a VRM's T-pose is its rest pose as bound, as players take
 * it, whatever `options.tPose` says; a GLB's or glTF's is made as `options.tPose` says). Rotations come from the muscles, the hips' travel from the
 * body position; foot and hand IK, stretch and foot planting do not apply (a VRM Animation has no
 * goals: players pose bones from the rotations alone). Keys at `frameRate` (default the clip's).
 *
 * Written whole or not at all. Throws one {@link HumanoidError} naming the file or option.
 * @param source the motion
 * @param target the character whose skeleton to write on, or undefined for the default one
 * @param output the `.vrma` file to write (its directory must exist)
 * @param options clip, rate, reading options, bone map of the character
 */
export async function RetargetFileToVrmaAsync(
    source: string,
    target: string | undefined,
    output: string,
    options: IRetargetFileOptions = {},
): Promise<IRetargetVrmaResult> {
    const ext = (f: string): string => extname(f).toLowerCase();
    if (ext(output) !== ".vrma") throw new HumanoidError("BAD_OPTION", `-o ${output}: a VRM Animation is named with .vrma`);
    if (!SOURCE_EXTENSIONS.includes(ext(source))) {
        throw new HumanoidError(
            "UNSUPPORTED_FORMAT",
            `${source}: unsupported source type '${extname(source) || "(none)"}' (use .muscle.json, .muscle.bin, .bvh, .glb, .gltf, .vrm or .vrma)`,
        );
    }
    if (target !== undefined && !CHARACTER_EXTENSIONS.includes(ext(target))) {
        throw new HumanoidError(
            "UNSUPPORTED_FORMAT",
            `${target}: the character (--onto) must be a .glb, .gltf or .vrm file, not '${extname(target) || "(none)"}'`,
        );
    }
    const rate = options.frameRate;
    if (rate !== undefined && !(Number.isFinite(rate) && rate > 0 && rate <= MAX_FRAME_RATE)) {
        throw new HumanoidError("BAD_OPTION", `--rate must be a number of frames per second above 0 and at most ${MAX_FRAME_RATE} (got ${rate})`);
    }
    const clips = await ReadSourceClipsAsync(source, options);
    if (clips.length !== 1) {
        throw new HumanoidError(
            "BAD_OPTION",
            `${source}: a .vrma holds one animation but the source has ${clips.length} clips (${clips.map((c) => `'${c.name}'`).join(", ")}): pick one with --clip`,
        );
    }
    const clip = clips[0];
    let skeleton: IVrmAnimationSkeleton = GetVrmAnimationSkeleton();
    if (target !== undefined) {
        // A VRM's rest pose is its T-pose (VRM 1.0 says so) and players turn its bones from it:
        // the skeleton takes it as it is, whatever `tPose` says, so that a limb bound a little off
        // straight plays in them as here (the enforcement would align it and the file's turns with it).
        const tPose = ext(target) === ".vrm" ? "rest" : options.tPose;
        const { avatar, loaded } = await LoadHumanoidAvatarFromFileAsync(target, { tPose, boneMap: options.boneMap });
        try {
            skeleton = CreateVrmAnimationSkeleton(avatar);
        } finally {
            loaded.dispose();
        }
    }
    const data = VrmAnimationFromMuscleClip(clip, { frameRate: rate, skeleton });
    const bytes = SerializeVrmAnimationToGlb(data);
    await WriteFilesAtomicallyAsync([{ path: output, bytes }]);
    return {
        output,
        bytes: bytes.length,
        name: clip.name,
        frames: data.times.length,
        frameRate: rate ?? clip.frameRate,
        bones: skeleton.bones.length,
        skeleton: target ?? "the built-in adult",
        warnings: clip.warnings,
    };
}
