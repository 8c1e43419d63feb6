import { MirrorMuscleClip } from "../clip/mirrorClip.js";
import { randomBytes } from "node:crypto";
import { readdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { SerializeMuscleClipToJson } from "../clip/clipFileJson.js";
import { SerializeMuscleClipToBinary } from "../clip/clipFileBinary.js";
import type { IMuscleClipConvertOptions } from "../clip/convertOptions.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import { ConvertAnimationGroupToMuscleClip } from "../io/animationGroupClip.js";
import { ConvertBvhToMuscleClip } from "../io/bvhClip.js";
import { GetGltfAnimationByteLength } from "../io/gltfJson.js";
import { SerializeMuscleClipToVrmAnimation } from "../io/vrmAnimationFile.js";
import { LoadHumanoidAvatarFromFileAsync, type ILoadAvatarOptions } from "./loadAvatar.js";
import { LoadRigFromFileAsync } from "./loadFile.js";

/** Muscle clip file formats: readable JSON or compact binary. */
export type MuscleClipFormat = "json" | "bin";

/**
 * Formats a converted clip can be written in: a muscle clip file (`"json"`, `"bin"`) or a VRM
 * Animation (`"vrma"`, see `SerializeMuscleClipToVrmAnimation`), which any VRM player reads.
 */
export type ClipFileFormat = MuscleClipFormat | "vrma";

/** The file name ending of a format: `.muscle.json`, `.muscle.bin` or `.vrma`. */
export function ClipFileExtension(format: ClipFileFormat): string {
    return format === "vrma" ? ".vrma" : `.muscle.${format}`;
}

/** Options of {@link ConvertFileToMuscleClipsAsync}. */
export interface IConvertFileOptions extends Omit<IMuscleClipConvertOptions, "name" | "onProgress">, Pick<ILoadAvatarOptions, "bvh" | "tPose"> {
    /** Only the clip of this name (glTF files hold several). Default: every clip. */
    clip?: string;
    /**
     * For glTF/VRM clips: the model file whose avatar the clips drive, when the clips live in a file
     * of their own (matched by node name). Default: the clip file's own skeleton.
     */
    avatar?: string;
    /** Write the clips' mirror images (left and right swapped, `MirrorMuscleClip`). Default false. */
    mirror?: boolean;
    /** Called now and then with the frames converted so far over all clips of the file, and their total. */
    onProgress?: (framesDone: number, framesTotal: number) => void;
}

/** One converted clip and the size of what it came from. */
export interface IConvertedClip {
    /** The muscle clip. */
    readonly clip: MuscleClip;
    /** Bytes of the source motion: the BVH file, or the glTF animation's key data (0 when unknown). */
    readonly sourceBytes: number;
}

/**
 * Reads a motion file (BVH, GLB, glTF, VRM, VRMA) and converts its clips to muscle clips: a BVH's
 * motion, or every AnimationGroup of a glTF file (or the one named by `clip`). Throws one
 * {@link HumanoidError} naming the file: unreadable, not a humanoid, no clip, no clip of that name.
 * Nothing is written.
 * @param file the input
 * @param options clip, model avatar, rate, tolerance, loop, BVH reading, progress
 */
export async function ConvertFileToMuscleClipsAsync(file: string, options: IConvertFileOptions = {}): Promise<IConvertedClip[]> {
    const convert = {
        frameRate: options.frameRate,
        toleranceDeg: options.toleranceDeg,
        denoiseToleranceDeg: options.denoiseToleranceDeg,
        shareTrunkKeys: options.shareTrunkKeys,
        loop: options.loop,
        levelFloor: options.levelFloor,
        keepEndPoses: options.keepEndPoses,
    };
    const loaded = await LoadRigFromFileAsync(file, { bvh: options.bvh });
    let model: Awaited<ReturnType<typeof LoadHumanoidAvatarFromFileAsync>> | undefined;
    try {
        if (loaded.bvh) {
            if (options.clip !== undefined && options.clip !== basename(file).replace(/\.bvh$/i, "")) {
                throw new HumanoidError(
                    "BAD_OPTION",
                    `${file}: a BVH file holds one clip, named '${basename(file).replace(/\.bvh$/i, "")}', not '${options.clip}'`,
                );
            }
            const avatar = BuildHumanoidAvatar(loaded.rig, { tPose: options.tPose });
            const size = (await stat(file)).size;
            const clip = ConvertBvhToMuscleClip(loaded.bvh, avatar, { ...convert, onProgress: options.onProgress });
            return [{ clip: options.mirror ? MirrorMuscleClip(clip) : clip, sourceBytes: size }];
        }
        const groups = loaded.container?.animationGroups ?? [];
        if (!groups.length) throw new HumanoidError("CONVERT", `${file}: the file has no animations to convert`);
        const chosen = options.clip === undefined ? groups : [PickClipByName(groups, options.clip, file)];
        let avatar: HumanoidAvatar;
        if (options.avatar) {
            // The model maps the source's skeleton: its hierarchy as the file has it.
            model = await LoadHumanoidAvatarFromFileAsync(options.avatar, { tPose: options.tPose, attachDetachedFeet: false });
            avatar = model.avatar;
        } else {
            avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap, tPose: options.tPose });
        }
        const total = chosen.reduce((n, g) => n + Math.max(1, g.to - g.from), 0);
        let before = 0;
        const out: IConvertedClip[] = [];
        for (const g of chosen) {
            const span = Math.max(1, g.to - g.from);
            const clip = ConvertAnimationGroupToMuscleClip(g, avatar, {
                ...convert,
                source: file,
                onProgress: options.onProgress && ((done, count) => options.onProgress!(Math.round(before + (done / count) * span), total)),
            });
            before += span;
            const index = groups.indexOf(g);
            out.push({ clip: options.mirror ? MirrorMuscleClip(clip) : clip, sourceBytes: loaded.gltf ? GetGltfAnimationByteLength(loaded.gltf, index) : 0 });
        }
        return out;
    } finally {
        loaded.dispose();
        model?.loaded.dispose();
    }
}

/** Anything with a clip name (an AnimationGroup, a muscle clip). */
export interface INamedClip {
    /** The clip's name. */
    readonly name: string;
}

/**
 * The clip `name` picks: the one of that exact name, else the one whose name contains it (case
 * aside), so that `walk` picks `Armature|Armature|walk_Armature`. Throws a {@link HumanoidError}
 * `BAD_OPTION` naming the file and listing its clips when none or several contain it.
 * @param clips the file's clips
 * @param name the name asked for (`--clip`)
 * @param file the file, for the message
 */
export function PickClipByName<T extends INamedClip>(clips: readonly T[], name: string, file: string): T {
    const exact = clips.find((c) => c.name === name);
    if (exact) return exact;
    const partial = clips.filter((c) => c.name.toLowerCase().includes(name.toLowerCase()));
    if (partial.length === 1) return partial[0];
    const why = partial.length > 1 ? `${partial.length} clips have '${name}' in their name` : `no clip named '${name}'`;
    throw new HumanoidError("BAD_OPTION", `${file}: ${why} (the file has ${clips.map((c) => `'${c.name}'`).join(", ") || "no clips"})`);
}

/** A clip name made safe for a file name. */
function safeName(name: string): string {
    return name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+|_+$/g, "") || "clip";
}

/**
 * The output path of a clip: `<input base>[.<clip>].muscle.json|bin` (or `.vrma`) in `outDir`
 * (default: beside the input). The clip's name is added when the input holds several clips.
 */
export function MuscleClipOutputPath(input: string, clipName: string, format: ClipFileFormat, options: { outDir?: string; several: boolean }): string {
    const base = basename(input, extname(input));
    const name = options.several ? `${base}.${safeName(clipName)}` : base;
    return join(options.outDir ?? dirname(input), `${name}${ClipFileExtension(format)}`);
}

/**
 * The output paths of several clips of one input, made distinct: clips whose names come out the
 * same in a file name (`walk cycle`, `walk/cycle`) get `-2`, `-3`... in clip order.
 */
export function MuscleClipOutputPaths(input: string, clipNames: readonly string[], format: ClipFileFormat, outDir?: string): string[] {
    const seen = new Map<string, number>();
    return clipNames.map((name) => {
        const path = MuscleClipOutputPath(input, name, format, { outDir, several: clipNames.length > 1 });
        const n = (seen.get(path) ?? 0) + 1;
        seen.set(path, n);
        const ext = ClipFileExtension(format);
        return n === 1 ? path : `${path.slice(0, -ext.length)}-${n}${ext}`;
    });
}

/** A clip file's bytes in a format (a VRM Animation: keys at the clip's own rate on the default skeleton). */
export function SerializeMuscleClip(clip: MuscleClip, format: ClipFileFormat): Uint8Array {
    if (format === "vrma") return SerializeMuscleClipToVrmAnimation(clip);
    return format === "bin" ? SerializeMuscleClipToBinary(clip) : new TextEncoder().encode(SerializeMuscleClipToJson(clip));
}

/** The side files {@link WriteFilesAtomicallyAsync} makes: `.<target name>.<pid>.<8 hex>.tmp` (new content) or `.old` (the file it replaces). */
const SIDE_FILE = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.(tmp|old)$/;

/** Whether a process of this id runs (one of another user counts as running). */
function processRuns(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === "EPERM";
    }
}

/**
 * Removes what a write killed midway left in a folder: the temporary files of processes that no
 * longer run are deleted, and the old file such a process had moved aside is put back when its
 * target is missing (deleted when the target is there). Side files are named so that they cannot
 * be taken for output (a leading dot, the writer's process id, `.tmp` or `.old`).
 * @param dir the folder
 */
export async function CleanStaleTemporaryFilesAsync(dir: string): Promise<void> {
    let names: string[];
    try {
        names = await readdir(dir);
    } catch {
        return; // not there (yet): nothing to clean
    }
    for (const name of names) {
        const m = SIDE_FILE.exec(name);
        if (!m || processRuns(Number(m[2]))) continue;
        const side = join(dir, name);
        if (m[3] === "tmp") {
            await unlink(side).catch(() => undefined);
            continue;
        }
        const target = join(dir, m[1]);
        if (await stat(target).catch(() => null)) await unlink(side).catch(() => undefined);
        else await rename(side, target).catch(() => undefined);
    }
}

/**
 * Writes files all or nothing: each to a temporary name beside its target first; when every one is
 * written, files already at the targets are moved aside and the new ones renamed into place. If
 * any step fails, what was put in place is removed, the old files are put back, and one
 * {@link HumanoidError} `FILE_WRITE` names the file. What an earlier write killed midway left
 * beside the targets is cleaned first ({@link CleanStaleTemporaryFilesAsync}). Returns the bytes
 * written per file.
 * @param files target path and content of each file (distinct paths)
 */
export async function WriteFilesAtomicallyAsync(files: ReadonlyArray<{ path: string; bytes: Uint8Array }>): Promise<number[]> {
    for (const d of new Set(files.map((f) => dirname(f.path)))) await CleanStaleTemporaryFilesAsync(d);
    const tag = `${process.pid}.${randomBytes(4).toString("hex")}`;
    const side = (path: string, kind: string): string => join(dirname(path), `.${basename(path)}.${tag}.${kind}`);
    const fail = (path: string) => (e: NodeJS.ErrnoException) => {
        throw e instanceof HumanoidError ? e : new HumanoidError("FILE_WRITE", `${path}: cannot write the file (${e.code ?? e.message})`);
    };
    const temps: string[] = [];
    const placed: string[] = [];
    const moved: Array<{ path: string; backup: string }> = [];
    let done = false;
    try {
        for (const f of files) {
            const tmp = side(f.path, "tmp");
            temps.push(tmp);
            await writeFile(tmp, f.bytes).catch(fail(f.path));
        }
        for (let i = 0; i < files.length; i++) {
            const target = files[i].path;
            const existing = await stat(target).catch(() => null);
            if (existing?.isDirectory()) throw new HumanoidError("FILE_WRITE", `${target}: cannot write the file (a directory has that name)`);
            if (existing) {
                const backup = side(target, "old");
                await rename(target, backup).catch(fail(target));
                moved.push({ path: target, backup });
            }
            await rename(temps[i], target).catch(fail(target));
            temps[i] = "";
            placed.push(target);
        }
        done = true;
        return files.map((f) => f.bytes.length);
    } finally {
        if (!done) {
            // Undo: remove what was put in place, put the old files back.
            for (const p of placed) await unlink(p).catch(() => undefined);
            for (const m of moved) await rename(m.backup, m.path).catch(() => undefined);
        } else {
            for (const m of moved) await unlink(m.backup).catch(() => undefined);
        }
        await Promise.all(temps.filter(Boolean).map((t) => unlink(t).catch(() => undefined)));
    }
}
