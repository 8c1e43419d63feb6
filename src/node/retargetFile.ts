import { readFile, stat } from "node:fs/promises";
import { extname } from "node:path";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { ParseMuscleClip } from "../clip/clipFile.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import { BakeMuscleClipToAnimationGroup, CreateBakeStats } from "../plugin/bake.js";
import { ConvertFileToMuscleClipsAsync } from "./convertFile.js";
import { WriteCharacterGlbAsync } from "./writeGlb.js";
import { AttachedFeetNotes } from "../io/detachedFeetGltf.js";
import { LoadHumanoidAvatarFromFileAsync, type ILoadAvatarOptions } from "./loadAvatar.js";
import type { ProportionMode } from "../runtime/rigSolverSettings.js";

/**
 * What happens to the clip's travel in the written file:
 * - `"clip"`: the hips carry it (the character walks away from its place in the file, and jumps
 *   back when a player loops the animation);
 * - `"in-place"`: the body stays over its start (travel removed, turning kept);
 * - `"apply"`: the travel is kept in the file. A GLB has no separate root-motion track that players
 *   agree on, so this is the same as `"clip"`: the hips carry it.
 */
export type RetargetRootMotion = "clip" | "in-place" | "apply";

/** Options of {@link RetargetFileToGlbAsync}. */
export interface IRetargetFileOptions extends Pick<ILoadAvatarOptions, "bvh" | "tPose"> {
    /** Only the source clip of this name (glTF sources hold several). Default: every clip of the source, one animation each. */
    clip?: string;
    /** Move the feet onto the clip's foot goals with IK (and hold planted feet). Default true. */
    footIK?: boolean;
    /** Move the hands onto the clip's hand goals with IK. Default false. */
    handIK?: boolean;
    /** Squash-and-stretch: the most a limb may lengthen, share of its length, 0 to 0.5 (0 disables; a near-straight limb may also shorten by up to 2.4%). Default 0.05. */
    stretch?: number;
    /** How the clip's positions scale to the character: `"legs"` (default) or Mecanim's `"com"` (see `ProportionMode`). */
    proportions?: ProportionMode;
    /** Play the clip's translations of spine, neck, shoulders, upper arms and upper legs (`translationDoF` of the animator). Default true. */
    translationDoF?: boolean;
    /** What happens to the clip's travel (see {@link RetargetRootMotion}). Default `"clip"`. */
    rootMotion?: RetargetRootMotion;
    /** Frames per second of the written keys (above 0, at most 10000). Default: each clip's own rate. */
    frameRate?: number;
    /** Joint limits (the animator's `jointLimits`): `"all"` holds every bone, `"none"` none. Default: the character's own set (knees and elbows). */
    jointLimits?: "hinges" | "all" | "none";
    /** A partial bone map for the target character, or the path of a saved bone map file. Default: the automatic map. */
    boneMap?: ILoadAvatarOptions["boneMap"];
    /** Whether a motion file's tilted capture floor is leveled as it is converted (`IMuscleClipConvertOptions.levelFloor`; a muscle clip file is played as it is). Default true. */
    levelFloor?: boolean;
    /** Whether held poses a motion file jumps from or to at its ends stay (`IMuscleClipConvertOptions.keepEndPoses`; a muscle clip file is played as it is). Default false: left out. */
    keepEndPoses?: boolean;
}

/** One animation written. */
export interface IRetargetedAnimation {
    /** Its name in the file (the source clip's name, made unique). */
    readonly name: string;
    /** Keys per track. */
    readonly frames: number;
    /** Frames per second of the keys. */
    readonly frameRate: number;
    /** Length, seconds. */
    readonly durationSeconds: number;
    /** Largest distance left between a foot and its IK goal over the animation (metres). */
    readonly maxFootErrorMetres: number;
    /** Largest limb length factor over the animation (1 = rest length). */
    readonly maxStretch: number;
    /** Frames in which some IK goal was out of reach. */
    readonly unreachableFrames: number;
    /** What did not convert losslessly from the source clip. */
    readonly warnings: readonly string[];
}

/** What {@link RetargetFileToGlbAsync} wrote. */
export interface IRetargetFileResult {
    /** The output path. */
    readonly output: string;
    /** Bytes written. */
    readonly bytes: number;
    /** The animations in the file, in order. */
    readonly animations: readonly IRetargetedAnimation[];
    /** Notes on the target character's bone map (doubtful bones...). */
    readonly characterWarnings: readonly string[];
    /** Notes on the export (for example materials that could not be kept). */
    readonly exportWarnings: readonly string[];
    /** Milliseconds spent: reading and converting the source, loading the character, baking, exporting and writing. */
    readonly timings: {
        /** Reading the source and converting it to muscle clips. */
        readonly sourceMs: number;
        /** Loading the character and building its avatar. */
        readonly characterMs: number;
        /** Baking the clips onto the character (with IK). */
        readonly bakeMs: number;
        /** Exporting the GLB and writing it. */
        readonly exportMs: number;
    };
}

/** Source extensions read as muscle clip files. */
const MUSCLE_CLIP_EXTENSIONS = [".json", ".bin"];
/** Source extensions read as motion files. */
const MOTION_EXTENSIONS = [".bvh", ".glb", ".gltf", ".vrm", ".vrma"];
/** Target extensions: characters. */
const CHARACTER_EXTENSIONS = [".glb", ".gltf", ".vrm"];
/** Most frames per second of the written keys. */
const MAX_RATE = 10_000;
/** Largest squash-and-stretch share accepted (as the animator). */
const MAX_STRETCH = 0.5;

/** A file's bytes, or a {@link HumanoidError} `FILE_READ` naming it. */
async function readBytesAsync(file: string, what = "the file"): Promise<Uint8Array> {
    try {
        return new Uint8Array(await readFile(file));
    } catch (e) {
        const err = e as NodeJS.ErrnoException;
        const why = err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "is a directory" : (err.code ?? err.message);
        throw new HumanoidError("FILE_READ", `${file}: cannot read ${what} (${why})`);
    }
}

/** Fails early, before any conversion, when an input cannot be read: a {@link HumanoidError} `FILE_READ` naming it. */
async function checkReadableAsync(file: string): Promise<void> {
    const s = await stat(file).catch((e: NodeJS.ErrnoException) => {
        throw new HumanoidError("FILE_READ", `${file}: cannot read the file (${e.code === "ENOENT" ? "no such file" : (e.code ?? e.message)})`);
    });
    if (s.isDirectory()) throw new HumanoidError("FILE_READ", `${file}: cannot read the file (is a directory)`);
}

/** Checks the options; throws a {@link HumanoidError} `BAD_OPTION` naming the option. */
function checkOptions(source: string, target: string, output: string, options: IRetargetFileOptions): void {
    const ext = (f: string): string => extname(f).toLowerCase();
    if (![...MUSCLE_CLIP_EXTENSIONS, ...MOTION_EXTENSIONS].includes(ext(source))) {
        throw new HumanoidError(
            "UNSUPPORTED_FORMAT",
            `${source}: unsupported source type '${extname(source) || "(none)"}' (use .muscle.json, .muscle.bin, .bvh, .glb, .gltf, .vrm or .vrma)`,
        );
    }
    if (!CHARACTER_EXTENSIONS.includes(ext(target))) {
        throw new HumanoidError(
            "UNSUPPORTED_FORMAT",
            `${target}: the character (--onto) must be a .glb, .gltf or .vrm file, not '${extname(target) || "(none)"}'`,
        );
    }
    if (ext(output) !== ".glb") {
        throw new HumanoidError("BAD_OPTION", `-o ${output}: the output is a binary glTF file; name it with .glb (or .vrma for a VRM Animation)`);
    }
    const { stretch, frameRate, rootMotion } = options;
    if (stretch !== undefined && !(Number.isFinite(stretch) && stretch >= 0 && stretch <= MAX_STRETCH)) {
        throw new HumanoidError("BAD_OPTION", `--stretch must be a share of the limb's length from 0 to ${MAX_STRETCH} (got ${stretch})`);
    }
    if (frameRate !== undefined && !(Number.isFinite(frameRate) && frameRate > 0 && frameRate <= MAX_RATE)) {
        throw new HumanoidError("BAD_OPTION", `--rate must be a number of frames per second above 0 and at most ${MAX_RATE} (got ${frameRate})`);
    }
    if (rootMotion !== undefined && !["clip", "in-place", "apply"].includes(rootMotion)) {
        throw new HumanoidError("BAD_OPTION", `--root-motion must be in-place, clip or apply (got ${JSON.stringify(rootMotion)})`);
    }
}

/**
 * The source's clips: a muscle clip file, or every (or the named, see `PickClipByName`) clip of a
 * motion file (BVH, GLB, glTF, VRM, VRMA) converted on its own avatar. Throws a
 * {@link HumanoidError} naming the file: unsupported type, unreadable, no such clip.
 * @param source the motion file
 * @param options clip and reading options
 */
export async function ReadSourceClipsAsync(source: string, options: IRetargetFileOptions): Promise<MuscleClip[]> {
    if (MUSCLE_CLIP_EXTENSIONS.includes(extname(source).toLowerCase())) {
        const clip = ParseMuscleClip(await readBytesAsync(source), source);
        if (options.clip !== undefined && options.clip !== clip.name) {
            throw new HumanoidError("BAD_OPTION", `${source}: a muscle clip file holds one clip, named '${clip.name}', not '${options.clip}'`);
        }
        return [clip];
    }
    const converted = await ConvertFileToMuscleClipsAsync(source, {
        clip: options.clip,
        tPose: options.tPose,
        bvh: options.bvh,
        levelFloor: options.levelFloor,
        keepEndPoses: options.keepEndPoses,
    });
    return converted.map((c) => c.clip);
}

/** Names made unique in order: a repeated name gets `-2`, `-3`... */
function uniqueNames(names: readonly string[]): string[] {
    const seen = new Map<string, number>();
    return names.map((name) => {
        const n = (seen.get(name) ?? 0) + 1;
        seen.set(name, n);
        return n === 1 ? name : `${name}-${n}`;
    });
}

/**
 * Retargets motion onto a character and writes the character with the new animation as one GLB
 * file: the offline "retarget to" of the command line (`babylon-humanoid retarget`).
 *
 * The source is a muscle clip file (`.muscle.json` / `.muscle.bin`), a BVH file, or a glTF, VRM or
 * VRMA file with animations (each converted to a muscle clip on the source's own avatar; `clip`
 * picks one, default all). The character (`.glb`, `.gltf`, `.vrm`) is loaded with its avatar; each
 * clip is played on it by a `HumanoidAnimator` (foot IK and planting, squash-and-stretch, root
 * motion as asked) and baked into one animation ({@link BakeMuscleClipToAnimationGroup}). The file
 * written holds the character as loaded (nodes, meshes, skin, materials and textures; a VRM's own
 * extensions are not kept) and only the new animations, not the character file's own clips. Keys
 * are at each clip's rate (or `frameRate`), linear. Every node has a name of its own: its name in
 * the character file, `node<N>` for node N of the file when it had none, with `_2`, `_3`... where
 * a name would repeat (see `GetGltfExportNodeNames`).
 *
 * The output is written whole or not at all (temporary name, then rename). Throws one
 * {@link HumanoidError} naming the file or option: unreadable or unsupported file, not a humanoid,
 * no clip of that name, bad option, write failure.
 * @param source the motion
 * @param target the character
 * @param output the GLB to write (its directory must exist)
 * @param options clip, IK, stretch, root motion, rate, reading options
 */
export async function RetargetFileToGlbAsync(source: string, target: string, output: string, options: IRetargetFileOptions = {}): Promise<IRetargetFileResult> {
    checkOptions(source, target, output, options);
    await checkReadableAsync(source);
    await checkReadableAsync(target);
    let t = performance.now();
    const lap = (): number => {
        const now = performance.now();
        const ms = now - t;
        t = now;
        return ms;
    };
    const clips = await ReadSourceClipsAsync(source, options);
    const sourceMs = lap();
    // Loaded once, with its materials and textures, since it is written out again.
    const { avatar, loaded } = await LoadHumanoidAvatarFromFileAsync(target, { tPose: options.tPose, boneMap: options.boneMap, materials: true });
    const groups: AnimationGroup[] = [];
    try {
        const exportWarnings: string[] = [];
        if (extname(target).toLowerCase() === ".vrm") {
            exportWarnings.push("written as plain glTF: the VRM extensions (humanoid map, expressions, MToon materials) are not kept");
        }
        const container = loaded.container!;
        const scene = container.scene;
        const nodes = loaded.binding!.nodes;
        const characterMs = lap();

        const names = uniqueNames(clips.map((c) => c.name));
        const animations: IRetargetedAnimation[] = [];
        for (let i = 0; i < clips.length; i++) {
            const stats = CreateBakeStats();
            groups.push(
                BakeMuscleClipToAnimationGroup(clips[i], avatar, {
                    targets: nodes,
                    scene,
                    name: names[i],
                    frameRate: options.frameRate,
                    rootMotion: options.rootMotion === "in-place" ? "in-place" : "clip",
                    footIK: options.footIK ?? true,
                    handIK: options.handIK ?? false,
                    stretch: options.stretch,
                    proportions: options.proportions,
                    translationDoF: options.translationDoF,
                    jointLimits: options.jointLimits === "hinges" ? undefined : options.jointLimits,
                    stats,
                }),
            );
            animations.push({
                name: names[i],
                frames: stats.frames,
                frameRate: stats.frameRate,
                durationSeconds: stats.durationSeconds,
                maxFootErrorMetres: stats.maxFootErrorMetres,
                maxStretch: stats.maxStretch,
                unreachableFrames: stats.unreachableFrames,
                warnings: clips[i].warnings,
            });
        }
        const bakeMs = lap();

        // The character and only the new animations.
        const bytes = await WriteCharacterGlbAsync(
            container,
            groups.flatMap((g) => g.targetedAnimations.map((ta) => ta.animation)),
            loaded.gltf,
            output,
        );
        const exportMs = lap();
        return {
            output,
            bytes: bytes.length,
            animations,
            characterWarnings: [...AttachedFeetNotes(loaded.attachedFeet ?? []).map((n) => `${n}, where it stays in the written file`), ...avatar.warnings],
            exportWarnings,
            timings: { sourceMs, characterMs, bakeMs, exportMs },
        };
    } finally {
        for (const g of groups) g.dispose();
        loaded.dispose();
    }
}
