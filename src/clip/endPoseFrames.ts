import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HumanBoneNames, IsFingerBone } from "../humanoid/humanBones.js";
import { ComputeRigWorldPose, GetRigRestPose, type IRigPose, type IRigWorldPose } from "../humanoid/rig.js";
import { MuscleSetup } from "../muscle/setup.js";
import { MAX_CLIP_FRAMES } from "../limits.js";
import { RigPoseFrameCount } from "./frameGrid.js";

/*
 * Held poses a take jumps from at its start, or to at its end.
 *
 * Many exports write the skeleton's reference pose as the take's first frame: the cgspeed BVH
 * conversions of the CMU database hold the T-pose at frame 0 and start walking at frame 1, their
 * joints 0.66 leg apart in 1/120 s. Kept, that frame is a pop at every start (and at every turn of
 * a loop), and being the take's sharpest move by far it also sets most of its jerk. A person
 * trims it by eye; this finds it by the same sign:
 *
 * 1. Each frame of the source's own grid (its keys) is read as the body's joints in the hips'
 *    frame (no fingers, no travel, no turn), in leg lengths.
 * 2. At the start, the held run is frame 0 and every next frame within `HELD_POSE_STILL` of it.
 *    Its pose must be a reference pose: every joint within `REFERENCE_POSE_NEAR` of where the
 *    rig's rest pose or the avatar's reference T-pose has it.
 * 3. The step out of the run (its last frame to the next) is a jump when it is at least
 *    `POSE_JUMP_MIN` and `POSE_JUMP_RATIO` times the largest step of the `JUMP_CONTEXT_FRAMES`
 *    frames after it: motion out of a reference pose never starts so much faster than it goes on.
 * 4. The end is read the same way backwards. A run longer than `MAX_HELD_SHARE` of the take or
 *    `MAX_HELD_SECONDS`, or one that would leave fewer than `MIN_KEPT_FRAMES`, is the take's own.
 * 5. A run the source does not show (its figure scaled under `SHOWN_FIGURE_SHARE`: KayKit's spawns
 *    start so) is not left out: the conversion holds the first shown pose there, keeping the
 *    clip's timing.
 *
 * A pose held and then left smoothly (a take that starts from a T-pose and moves out of it) has
 * no jump and stays.
 */

/** Frames of a held run move less than this from its first frame, leg lengths (joints from the hips). */
export const HELD_POSE_STILL = 0.005;
/** A held run's pose is a reference pose when every joint is within this of the rest pose's or the reference T-pose's, leg lengths (joints in the hips' frame). */
export const REFERENCE_POSE_NEAR = 0.15;
/** A step out of a held run is a jump only when at least this long, leg lengths (joints from the hips). */
export const POSE_JUMP_MIN = 0.1;
/** ...and at least this many times the largest step of the frames after it (see {@link JUMP_CONTEXT_FRAMES}). */
export const POSE_JUMP_RATIO = 3;
/** Frames after a jump (before it, at the end) whose steps it is compared with. */
export const JUMP_CONTEXT_FRAMES = 5;
/** The largest share of the take's frames a held run at one end may be. */
export const MAX_HELD_SHARE = 0.25;
/** The longest a held run at one end may be, seconds (a pose held longer is the take's own). */
export const MAX_HELD_SECONDS = 2;
/** A held run must show its figure at least this share of its size (`figureScaleAt`, see step 5). */
export const SHOWN_FIGURE_SHARE = 0.5;
/** So many frames are always kept: a take is looked at only when it has more. */
export const MIN_KEPT_FRAMES = 2 * JUMP_CONTEXT_FRAMES + 2;

/** One end's held run that {@link FindEndPoseFrames} found. */
export interface IEndPoseRun {
    /** Frames in the run, of the source's own grid (0: none). */
    readonly frames: number;
    /** How far the joints jump between the run and the motion, leg lengths (the largest joint's move, from the hips). */
    readonly jump: number;
    /** The largest step of the frames beside the jump, leg lengths (what the jump is compared with). */
    readonly next: number;
}

/** Held poses a take jumps from at its start and to at its end (see {@link FindEndPoseFrames}). */
export interface IEndPoseFrames {
    /** The source's own frame rate, frames a second: the runs' grid. */
    readonly frameRate: number;
    /** Frames on that grid (`RigPoseFrameCount`; 0 when the take was not looked at). */
    readonly count: number;
    /** The run at the start. */
    readonly leading: IEndPoseRun;
    /** The run at the end. */
    readonly trailing: IEndPoseRun;
}

/** What {@link FindEndPoseFrames} reads of a pose source (`IRigPoseSource`'s grid and sampler). */
export interface IEndPoseSampler {
    /** The source's own frames per second (its keys' rate): the grid read. */
    readonly frameRate: number;
    /** Length in seconds. */
    readonly durationSeconds: number;
    /** Writes the pose at a time (seconds from the start) into `result`. */
    samplePoseToRef(timeSeconds: number, result: IRigPose): void;
    /** Optional: how large the source shows its figure at a time, as a share of its full size (`IRigPoseSource.figureScaleAt`). */
    figureScaleAt?(timeSeconds: number): number;
}

const NONE: IEndPoseRun = { frames: 0, jump: 0, next: 0 };

/**
 * Finds the held poses a take jumps from at its start or to at its end (a T-pose frame 0, as the
 * cgspeed CMU conversions have; see the algorithm above). Reads the source on its own grid,
 * `source.frameRate`: only as many frames as the runs and their context need. Cold path;
 * allocates.
 * @param avatar the avatar of the skeleton the source animates
 * @param source the clip
 * @returns the runs at each end, `frames` 0 where there is none
 */
export function FindEndPoseFrames(avatar: HumanoidAvatar, source: IEndPoseSampler): IEndPoseFrames {
    const rate = source.frameRate;
    const none = { frameRate: rate, count: 0, leading: NONE, trailing: NONE };
    // The grid as the converter counts it; none for a rate or length that is no finite positive number.
    const count =
        rate > 0 && source.durationSeconds > 0 && Number.isFinite(rate * source.durationSeconds) ? RigPoseFrameCount(source.durationSeconds, rate) : 0;
    if (!(count >= MIN_KEPT_FRAMES + 1 && count <= MAX_CLIP_FRAMES)) return none;
    const legLength = MuscleSetup.For(avatar).legLength;
    const hips = avatar.getJoint(HumanBone.Hips);
    const joints = HumanBoneNames.map((_, b) => b as HumanBone)
        .filter((b) => b !== HumanBone.Hips && !IsFingerBone(b) && avatar.getJoint(b) >= 0)
        .map((b) => avatar.getJoint(b));
    const pose = GetRigRestPose(avatar.rig);
    /** A world pose's joints in its hips' frame, leg lengths, three numbers a joint. */
    const read = (w: IRigWorldPose): Float64Array => {
        const out = new Float64Array(3 * joints.length);
        Quaternion.InverseToRef(w.rotations[hips], inverse);
        joints.forEach((j, i) => {
            w.positions[j].subtractToRef(w.positions[hips], tmp).applyRotationQuaternionInPlace(inverse);
            out[3 * i] = tmp.x / legLength;
            out[3 * i + 1] = tmp.y / legLength;
            out[3 * i + 2] = tmp.z / legLength;
        });
        return out;
    };
    const references = [read(ComputeRigWorldPose(avatar.rig, GetRigRestPose(avatar.rig))), read(avatar.referenceWorld)];
    const cache = new Map<number, Float64Array>();
    /** Whether frame f shows its figure (see step 5). */
    const shown = (f: number): boolean => !source.figureScaleAt || source.figureScaleAt(Math.min(f / rate, source.durationSeconds)) >= SHOWN_FIGURE_SHARE;
    /** Frame f's joints in its hips' frame, leg lengths, three numbers a joint (kept when `keep`). */
    const at = (f: number, keep = true): Float64Array => {
        let out = cache.get(f);
        if (out) return out;
        source.samplePoseToRef(Math.min(f / rate, source.durationSeconds), pose);
        out = read(ComputeRigWorldPose(avatar.rig, pose));
        if (keep) cache.set(f, out);
        return out;
    };
    /** The largest joint's distance between two readings, leg lengths. */
    const distance = (p: Float64Array, q: Float64Array): number => {
        let most = 0;
        for (let i = 0; i < p.length; i += 3) {
            const d = Math.hypot(p[i] - q[i], p[i + 1] - q[i + 1], p[i + 2] - q[i + 2]);
            if (!(d <= most)) most = d; // NaN counts as the most
        }
        return most;
    };
    /** The largest joint's move between two frames, leg lengths. */
    const apart = (a: number, b: number): number => distance(at(a), at(b));
    const maxRun = Math.min(Math.floor(MAX_HELD_SHARE * count), Math.ceil(MAX_HELD_SECONDS * rate), count - MIN_KEPT_FRAMES);
    /** The held run from frame `first` going `dir` (+1 from the start, -1 from the end). */
    const run = (first: number, dir: 1 | -1): IEndPoseRun => {
        // A reference pose the source shows, first: a take that holds any other pose (an idle)
        // is not read on.
        if (!shown(first) || !references.some((r) => distance(at(first), r) <= REFERENCE_POSE_NEAR)) return NONE;
        let n = 1;
        while (n <= maxRun && distance(at(first), at(first + dir * n, false)) < HELD_POSE_STILL) n++;
        if (n > maxRun) return NONE;
        const last = first + dir * (n - 1);
        const jump = apart(last, last + dir);
        let next = 0;
        for (let k = 1; k <= JUMP_CONTEXT_FRAMES; k++) next = Math.max(next, apart(last + dir * k, last + dir * (k + 1)));
        if (!(jump >= POSE_JUMP_MIN && jump >= POSE_JUMP_RATIO * next)) return NONE;
        return { frames: n, jump, next };
    };
    const leading = run(0, 1);
    // The end's run, within what the start's leaves.
    const trailing = count - leading.frames >= MIN_KEPT_FRAMES + 1 ? run(count - 1, -1) : NONE;
    return { frameRate: rate, count, leading, trailing: leading.frames + trailing.frames <= count - MIN_KEPT_FRAMES ? trailing : NONE };
}

/**
 * The warning a conversion gives for the runs it left out (see {@link FindEndPoseFrames}), or
 * null when there are none.
 */
export function EndPoseFramesWarning(ends: IEndPoseFrames): string | null {
    const say = (run: IEndPoseRun, first: boolean): string =>
        `${first ? "first" : "last"} ${run.frames === 1 ? "frame is a held pose" : `${run.frames} frames hold a pose`} the take jumps ${first ? "from" : "to"} ` +
        `(its joints ${run.jump.toFixed(2)} leg apart in one frame; the ${JUMP_CONTEXT_FRAMES} frames ${first ? "after" : "before"} move at most ${run.next.toFixed(3)} a frame)`;
    const parts: string[] = [];
    if (ends.leading.frames) parts.push(say(ends.leading, true));
    if (ends.trailing.frames) parts.push(say(ends.trailing, false));
    if (!parts.length) return null;
    const where: string[] = [];
    if (ends.leading.frames) where.push(`starts ${(ends.leading.frames / ends.frameRate).toFixed(4)} s into its source`);
    if (ends.trailing.frames) where.push(`ends ${(ends.trailing.frames / ends.frameRate).toFixed(4)} s before its source's last frame`);
    return (
        `the ${parts.join("; the ")}: left out as a reference pose, not motion; the clip ${where.join(" and ")}` +
        ` (option keepEndPoses, convert --keep-end-poses, keeps ${ends.leading.frames + ends.trailing.frames > 1 ? "them" : "it"})`
    );
}

const tmp = new Vector3();
const inverse = new Quaternion();
