/**
 * One fuzz case: a mutant file through the whole pipeline, parse -> rig -> avatar -> convert ->
 * serialize -> parse -> sample -> decode, and what became of it.
 */
import { basename } from "node:path";
import { ParseMuscleClip } from "../../src/clip/clipFile.js";
import { MuscleClip } from "../../src/clip/muscleClip.js";
import { MuscleClipSampler } from "../../src/clip/clipSampler.js";
import { HumanoidError } from "../../src/errors.js";
import type { HumanoidAvatar } from "../../src/humanoid/avatar.js";
import type { IRigPose } from "../../src/humanoid/rig.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../../src/muscle/decode.js";
import { HumanPose } from "../../src/muscle/humanPose.js";
import { ConvertFileToMuscleClipsAsync, SerializeMuscleClip } from "../../src/node/convertFile.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";

/**
 * What became of a case:
 * - `ok`: a valid result, every number finite, own output read back;
 * - `error`: one clean `HumanoidError` naming the file;
 * - `unnamed`: a `HumanoidError` whose message does not name the file (or is too long to read);
 * - `crash`: any other exception, an unhandled rejection, or the worker died;
 * - `hang`: the case ran past its time budget;
 * - `memory`: the worker went past its memory budget;
 * - `nan`: NaN or Infinity accepted (in a clip, a pose, a decoded rig pose);
 * - `unreadable`: a clip this library wrote that it refuses to read (or to write).
 */
export type FuzzOutcome = "ok" | "error" | "unnamed" | "crash" | "hang" | "memory" | "nan" | "unreadable";

/** Outcomes that are defects. */
export const FAILURES: readonly FuzzOutcome[] = ["unnamed", "crash", "hang", "memory", "nan", "unreadable"];

/** The result of one case. */
export interface ICaseResult {
    readonly outcome: FuzzOutcome;
    /** The error or the finding, one line. */
    readonly message: string;
}

/** Longest error message that still counts as one clear line (characters). */
const MAX_MESSAGE_LENGTH = 2000;

/** Thrown inside a case for a finding that is not an exception of the library. */
class Finding extends Error {
    constructor(
        public readonly outcome: FuzzOutcome,
        message: string,
    ) {
        super(message);
    }
}

function finite(what: string, values: ArrayLike<number>): void {
    for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) throw new Finding("nan", `${what}[${i}] is ${values[i]}`);
}

function checkClip(what: string, clip: MuscleClip): void {
    clip.curves.forEach((c, i) => finite(`${what} curve ${i}`, c.values));
    if (!Number.isFinite(clip.durationSeconds)) throw new Finding("nan", `${what}: duration ${clip.durationSeconds}`);
}

function checkPose(what: string, pose: HumanPose, rig: IRigPose): void {
    finite(`${what} muscles`, pose.values);
    finite(`${what} body`, [pose.bodyPosition.x, pose.bodyPosition.y, pose.bodyPosition.z, pose.bodyRotation.x, pose.bodyRotation.w]);
    for (let j = 0; j < rig.rotations.length; j++) {
        const q = rig.rotations[j];
        const p = rig.positions[j];
        finite(`${what} joint ${j}`, [q.x, q.y, q.z, q.w, p.x, p.y, p.z]);
    }
}

/** Samples a clip at a few times (inside, at the ends, outside) and decodes each pose on an avatar. */
function sampleAndDecode(what: string, clip: MuscleClip, avatar: HumanoidAvatar): void {
    const sampler = new MuscleClipSampler(clip);
    const pose = new HumanPose();
    const rig = CreateReferenceRigPose(avatar);
    const d = clip.durationSeconds;
    for (const t of [0, d / 3, d / 2, d, -1, 2 * d + 0.1]) {
        sampler.sampleToRef(t, pose);
        DecodeHumanPose(avatar, pose, rig);
        checkPose(`${what} at ${t} s`, pose, rig);
    }
}

/** Writes a clip in both formats and reads each back; a refusal is `unreadable`. */
function roundTrip(what: string, clip: MuscleClip): MuscleClip[] {
    return (["json", "bin"] as const).map((format) => {
        let bytes: Uint8Array;
        try {
            bytes = SerializeMuscleClip(clip, format);
        } catch (e) {
            throw new Finding("unreadable", `${what}: writing as ${format} failed: ${String((e as Error).message).slice(0, 300)}`);
        }
        try {
            return ParseMuscleClip(bytes, `${what}.muscle.${format}`);
        } catch (e) {
            throw new Finding("unreadable", `${what}: our own ${format} file is refused: ${String((e as Error).message).slice(0, 300)}`);
        }
    });
}

/**
 * Runs one mutant through the pipeline.
 * @param file the mutant, written to disk with its extension
 * @param ext `.bvh`, `.glb`, `.gltf`, `.vrm`, `.vrma`, `.json` (muscle clip) or `.bin` (muscle clip)
 * @param hasMotion whether the seed holds motion (convert it) or only a character (build its avatar and play a clip on it)
 * @param sample a built-in clip and avatar, to play clips on and to play on avatars
 */
export async function RunCaseAsync(file: string, ext: string, hasMotion: boolean, sample: { clip: MuscleClip; avatar: HumanoidAvatar }): Promise<ICaseResult> {
    try {
        if (ext === ".json" || ext === ".bin") {
            const { readFile } = await import("node:fs/promises");
            const clip = ParseMuscleClip(new Uint8Array(await readFile(file)), file);
            checkClip(file, clip);
            sampleAndDecode(file, clip, sample.avatar);
            for (const back of roundTrip(file, clip)) sampleAndDecode(`${file} (read back)`, back, sample.avatar);
        } else if (!hasMotion) {
            const loaded = await LoadHumanoidAvatarFromFileAsync(file);
            try {
                sampleAndDecode(`sample clip on ${file}`, sample.clip, loaded.avatar);
            } finally {
                loaded.loaded.dispose();
            }
        } else {
            const clips = await ConvertFileToMuscleClipsAsync(file);
            for (const { clip } of clips) {
                checkClip(`${file} (${clip.name})`, clip);
                for (const back of roundTrip(`${file} (${clip.name})`, clip)) {
                    checkClip(`${file} (${clip.name}, read back)`, back);
                    sampleAndDecode(`${file} (${clip.name}, read back)`, back, sample.avatar);
                }
            }
        }
        return { outcome: "ok", message: "" };
    } catch (e) {
        if (e instanceof Finding) return { outcome: e.outcome, message: e.message };
        if (e instanceof HumanoidError) {
            const named = e.message.includes(basename(file));
            const clear = e.message.length > 0 && e.message.length <= MAX_MESSAGE_LENGTH;
            return { outcome: named && clear ? "error" : "unnamed", message: `${e.code}: ${e.message.slice(0, 300)}${e.message.length > 300 ? "..." : ""}` };
        }
        const err = e as Error;
        return {
            outcome: "crash",
            message: `${err?.name ?? "throw"}: ${String(err?.message ?? e).slice(0, 300)} ${String(err?.stack ?? "")
                .split("\n")
                .slice(1, 4)
                .join(" | ")}`,
        };
    }
}
