import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import { MAX_ABS_CLIP_VALUE, MAX_CLIP_SECONDS, MAX_FRAME_RATE, MAX_WARNINGS } from "../limits.js";
import { HumanoidAvatarWithoutBones, type HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { GetRigRestPose } from "../humanoid/rig.js";
import { CanonicalPointToRef, EncodeHumanPose } from "../muscle/encode.js";
import { HumanPose, HUMAN_IK_GOAL_COUNT } from "../muscle/humanPose.js";
import { ALL_MUSCLE_COUNT, MuscleIndexFromName } from "../muscle/muscles.js";
import { MuscleSetup } from "../muscle/setup.js";
import { TRANSLATION_DOF_COUNT } from "../muscle/translationDof.js";
import {
    CURVES_PER_GOAL,
    CURVE_BODY_POSITION,
    CURVE_BODY_ROTATION,
    CURVE_GOALS,
    CURVE_HIPS,
    CURVE_TRANSLATIONS,
    CURVE_ROOT,
    MuscleClip,
    MuscleCurveKinds,
    MUSCLE_CLIP_CURVE_COUNT,
    MuscleCurveNames,
} from "./muscleClip.js";
import { type IMuscleCurve } from "./curve.js";
import { MuscleSamplesToAngleUnits } from "./muscleCurveUnit.js";
import { GetCurveValueStep, ReduceCurve, ReduceCurveGroup } from "./reduce.js";
import { SmoothCurveGroupWithinBands, SmoothWithinBand } from "./smoothing.js";
import { RigPoseDenoiser } from "./poseDenoise.js";
import { ShoulderSideWatch } from "./shoulderSideWatch.js";
import { FitFloorTilt, FloorTiltHeightAt } from "./floorTilt.js";
import { FindReversedCollarbones, ReversedCollarboneWarning } from "./reversedCollarbones.js";
import { DetectFootContacts, type IFootTracks } from "./footContacts.js";
import { DetectContactEnds } from "./contactEnds.js";
import { EndPoseFramesWarning, FindEndPoseFrames } from "./endPoseFrames.js";
import { GetCurveTolerance, PLACEMENT_CLIP_CURVES, TRUNK_CLIP_CURVES } from "./curveTolerance.js";
import { AnimatedJointWatch } from "./animatedJointWatch.js";
import { ForEachFrameRun } from "./frameRuns.js";
import { RigPoseFrameCount } from "./frameGrid.js";
import { SourceProportions, SteadiestSegmentPoint } from "./sourceProportions.js";
import { QuaternionToRotationVectorToRef } from "../math/swingTwist.js";
import {
    DEFAULT_TOLERANCE_DEG,
    LOOP_MATCH_DEG,
    MAX_CLIP_FRAMES,
    SMOOTHING_SHARE,
    type IMuscleClipConvertOptions,
    type IRigPoseSource,
} from "./convertOptions.js";

/** Frames between two progress calls. */
const PROGRESS_EVERY = 256;

const B = HumanBone;
const FOOT_BONES = [
    [B.LeftFoot, B.LeftToes],
    [B.RightFoot, B.RightToes],
] as const;

/**
 * Converts a clip to a {@link MuscleClip}: samples it on a fixed-rate grid, encodes every frame on
 * the avatar (muscles, body, IK goals), derives root motion and foot contacts, and reduces every
 * curve within the tolerance. Throws a {@link HumanoidError} for bad options or an empty clip;
 * what cannot convert losslessly is listed in the clip's `warnings`. A take whose collarbones are
 * turned past a quarter turn on most frames is encoded as if its skeleton had no shoulder there
 * (`FindReversedCollarbones`, with a warning).
 * Held poses the take jumps from at its start or to at its end (a T-pose frame 0) are left out
 * unless `keepEndPoses` (`FindEndPoseFrames`, with a warning; the clip's `sourceStartSeconds`).
 * @param sourceAvatar the avatar of the skeleton the source animates
 * @param take the clip
 * @param options rate, tolerance, loop, name, progress
 */
export function ConvertRigPosesToMuscleClip(sourceAvatar: HumanoidAvatar, take: IRigPoseSource, options: IMuscleClipConvertOptions = {}): MuscleClip {
    const what = `${take.source}${take.name ? ` (${take.name})` : ""}`;
    const rate = options.frameRate ?? take.frameRate;
    if (!(rate > 0 && rate <= MAX_FRAME_RATE)) {
        throw new HumanoidError("BAD_OPTION", `${what}: frame rate must be a number of frames per second in (0, ${MAX_FRAME_RATE}], not ${rate}`);
    }
    const toleranceDeg = options.toleranceDeg ?? DEFAULT_TOLERANCE_DEG;
    if (!(toleranceDeg >= 0 && toleranceDeg <= 45)) {
        throw new HumanoidError("BAD_OPTION", `${what}: tolerance must be between 0 and 45 degrees, not ${toleranceDeg}`);
    }
    const denoiseDeg = options.denoiseToleranceDeg ?? toleranceDeg;
    if (!(denoiseDeg >= 0 && denoiseDeg <= 45)) {
        throw new HumanoidError("BAD_OPTION", `${what}: denoising tolerance must be between 0 and 45 degrees, not ${denoiseDeg}`);
    }
    if (!(take.durationSeconds >= 0) || !Number.isFinite(take.durationSeconds)) {
        throw new HumanoidError("CONVERT", `${what}: the clip has no length (duration ${take.durationSeconds})`);
    }
    if (take.durationSeconds > MAX_CLIP_SECONDS) {
        throw new HumanoidError("CONVERT", `${what}: the clip is ${take.durationSeconds} s long, more than the ${MAX_CLIP_SECONDS} s a clip may last`);
    }
    // Held poses the take jumps from or to at its ends (a T-pose frame 0) are left out: the clip
    // is the window between them (see `FindEndPoseFrames`).
    const found = options.keepEndPoses ? null : FindEndPoseFrames(sourceAvatar, take);
    const ends = found && found.leading.frames + found.trailing.frames > 0 ? found : null;
    const endsWarning = ends ? EndPoseFramesWarning(ends) : null;
    const sourceStart = ends ? ends.leading.frames / ends.frameRate : 0;
    // The window ends on the last kept frame of the source's grid (or, with nothing left out at
    // the end, where the source does: a last partial step stays).
    const windowEnd = ends && ends.trailing.frames ? (ends.count - 1 - ends.trailing.frames) / ends.frameRate : take.durationSeconds;
    const source = ends ? sourceWindow(take, sourceStart, windowEnd - sourceStart) : take;
    const duration = source.durationSeconds;
    // Frames on the grid; a last partial step is dropped unless it is nearly whole (`RigPoseFrameCount`).
    const frameCount = RigPoseFrameCount(duration, rate);
    if (frameCount > MAX_CLIP_FRAMES) {
        throw new HumanoidError("CONVERT", `${what}: ${frameCount} frames at ${rate} fps is more than ${MAX_CLIP_FRAMES}`);
    }
    // Collarbones turned past a quarter turn on most frames: the take is encoded as if its
    // skeleton had no shoulder there (see `FindReversedCollarbones`).
    const reversed = FindReversedCollarbones(sourceAvatar, source, frameCount, rate, duration);
    const avatar = reversed.length
        ? HumanoidAvatarWithoutBones(
              sourceAvatar,
              reversed.map((r) => r.bone),
          )
        : sourceAvatar;
    const setup = MuscleSetup.For(avatar);
    const rig = avatar.rig;
    const pose = GetRigRestPose(rig);
    const human = new HumanPose();
    const samples: Float32Array[] = Array.from({ length: MUSCLE_CLIP_CURVE_COUNT }, () => new Float32Array(frameCount));
    // The trunk's ends (the hip joints' middle and its top, canonical) per frame: the trunk's
    // steadiest point, and the body the feet's common slide is measured against.
    const trunk = { mid: new Float32Array(frameCount * 3), top: new Float32Array(frameCount * 3) };
    const feet: IFootTracks = {
        legLength: setup.legLength / setup.scale,
        body: trunk.mid,
        points: FOOT_BONES.map((bones) => bones.map((b) => (setup.joint[b] >= 0 ? new Float32Array(frameCount * 3) : null))),
        restHeight: FOOT_BONES.map((bones) =>
            bones.map((b) => (setup.joint[b] >= 0 ? CanonicalPointToRef(setup, avatar.referenceWorld.positions[setup.joint[b]], tmpV).y : 0)),
        ),
    };
    const watch = AnimatedJointWatch(avatar, setup);
    const sides = new ShoulderSideWatch(avatar);
    const prevQ: Quaternion[] = Array.from({ length: 1 + HUMAN_IK_GOAL_COUNT }, () => Quaternion.Identity());
    // Frames whose figure is scaled to (nearly) a point have no pose to take (see `holdPointFrames`).
    const point = new Uint8Array(frameCount);
    const hipsJoint = setup.joint[B.Hips];
    const restSpan = Vector3.Distance(avatar.referenceWorld.positions[hipsJoint], avatar.referenceWorld.positions[setup.trunkTop]);
    let yaw = 0;
    // The source's joints denoised first (see `RigPoseDenoiser`): every pose recorded, smoothed,
    // then each sampled again below and re-aimed.
    const denoiser = denoiseDeg > 0 ? new RigPoseDenoiser(avatar, frameCount, rate, (denoiseDeg * Math.PI) / 180) : null;
    const denoise = denoiser !== null && denoiser.isActive;
    if (denoise) {
        for (let f = 0; f < frameCount; f++) {
            source.samplePoseToRef(Math.min(f / rate, duration), pose);
            denoiser.record(f, pose);
            if (options.onProgress && (f % PROGRESS_EVERY === PROGRESS_EVERY - 1 || f === frameCount - 1)) options.onProgress((f + 1) >> 1, frameCount);
        }
        denoiser.smooth();
    }
    for (let f = 0; f < frameCount; f++) {
        const t = Math.min(f / rate, duration);
        source.samplePoseToRef(t, pose);
        if (denoise) denoiser.applyToRef(f, pose);
        EncodeHumanPose(avatar, pose, human);
        watch.check(pose);
        if (!(Vector3.Distance(setup.work.pos[hipsJoint], setup.work.pos[setup.trunkTop]) > POINT_FIGURE_SHARE * restSpan)) point[f] = 1;
        else if (source.figureScaleAt && !(source.figureScaleAt(t) > POINT_FIGURE_SHARE)) point[f] = 1;
        // (A frame with no pose, held at its neighbour's below, is not looked at.)
        if (!point[f]) sides.check(f);
        if (f > 0) keepTwistsContinuous(setup, human.values, samples, f);
        for (let i = 0; i < ALL_MUSCLE_COUNT; i++) samples[i][f] = human.values[i];
        putVector(samples, CURVE_BODY_POSITION, f, human.bodyPosition);
        putRotation(samples, CURVE_BODY_ROTATION, f, human.bodyRotation, prevQ[0]);
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            const c = CURVE_GOALS + g * CURVES_PER_GOAL;
            // The feet are kept from the hips (the file's layout; the sampler adds the hips back).
            if (g < 2) human.goalPositions[g].subtractInPlace(human.hipsPosition);
            putVector(samples, c, f, human.goalPositions[g]);
            putRotation(samples, c + 3, f, human.goalRotations[g], prevQ[1 + g]);
        }
        // Root: the body on the ground plane, and the body's turn about up (its swing-twist twist
        // about Y), unwrapped so that it never jumps by a turn.
        samples[CURVE_ROOT][f] = human.bodyPosition.x;
        samples[CURVE_ROOT + 1][f] = human.bodyPosition.z;
        const q = human.bodyRotation;
        let y = 2 * Math.atan2(q.y, q.w);
        if (f > 0) y += 2 * Math.PI * Math.round((yaw - y) / (2 * Math.PI));
        samples[CURVE_ROOT + 2][f] = yaw = y;
        putVector(samples, CURVE_HIPS, f, human.hipsPosition);
        // The hips' turn as a rotation vector (small: the pelvis turns little from the body).
        QuaternionToRotationVectorToRef(human.hipsRotation, tmpV);
        putVector(samples, CURVE_HIPS + 3, f, tmpV);
        for (let t = 0; t < TRANSLATION_DOF_COUNT; t++) putVector(samples, CURVE_TRANSLATIONS + 3 * t, f, human.translations[t]);
        // Foot points: the encoder's world positions (rig space) into canonical avatar scales.
        for (let s = 0; s < 2; s++) {
            for (let p = 0; p < 2; p++) {
                const out = feet.points[s][p];
                if (!out) continue;
                CanonicalPointToRef(setup, setup.work.pos[setup.joint[FOOT_BONES[s][p]]], tmpV);
                out[f * 3] = tmpV.x;
                out[f * 3 + 1] = tmpV.y;
                out[f * 3 + 2] = tmpV.z;
            }
        }
        // The trunk's ends (the hip joints' middle and its top, canonical), for its steadiest point.
        {
            const wp = setup.work.pos;
            const l = wp[setup.joint[B.LeftUpperLeg]];
            const r = wp[setup.joint[B.RightUpperLeg]];
            tmpV2.set((l.x + r.x) / 2, (l.y + r.y) / 2, (l.z + r.z) / 2);
            CanonicalPointToRef(setup, tmpV2, tmpV);
            tmpV.toArray(trunk.mid, f * 3);
            CanonicalPointToRef(setup, wp[setup.trunkTop], tmpV);
            tmpV.toArray(trunk.top, f * 3);
        }
        if (options.onProgress && (f % PROGRESS_EVERY === PROGRESS_EVERY - 1 || f === frameCount - 1)) {
            // Denoised: the first pass counted half of each frame (half the frames), this one the rest.
            options.onProgress(denoise ? (frameCount >> 1) + ((f + 2) >> 1) : f + 1, frameCount);
        }
    }
    const sideWarning = sides.warning();
    const pointWarning = holdPointFrames(point, samples, [...feet.points.flat(), trunk.mid, trunk.top]);
    if (pointWarning) {
        // A held run between two real frames takes each side's rotations, whose signs were made
        // continuous with the run's own values: made continuous again along the whole clip.
        const starts = [CURVE_BODY_ROTATION, ...Array.from({ length: HUMAN_IK_GOAL_COUNT }, (_, g) => CURVE_GOALS + g * CURVES_PER_GOAL + 3)];
        for (const c of starts) {
            for (let f = 1; f < frameCount; f++) {
                let dot = 0;
                for (let k = 0; k < 4; k++) dot += samples[c + k][f] * samples[c + k][f - 1];
                if (dot < 0) for (let k = 0; k < 4; k++) samples[c + k][f] = -samples[c + k][f];
            }
        }
    }
    // Foot contacts, found on the take as it is (they follow a sloping floor); where its floor
    // tilts, the tilt is taken out of the body's height (`FitFloorTilt`) and the clip's floor found
    // again on the leveled take.
    let ground = DetectFootContacts(feet, frameCount, rate);
    const floorWarning = options.levelFloor === false ? null : levelFloor(feet, ground.contacts, samples, trunk);
    if (floorWarning) ground = DetectFootContacts(feet, frameCount, rate);
    DetectContactEnds(feet, ground.contacts, rate);
    // What a reader refuses is never written: every sample is finite and within the clip value limit.
    for (let c = 0; c < samples.length; c++) {
        const s = samples[c];
        for (let f = 0; f < frameCount; f++) {
            if (!(Math.abs(s[f]) <= MAX_ABS_CLIP_VALUE)) {
                throw new HumanoidError(
                    "CONVERT",
                    `${what}: curve '${MuscleCurveNames[c]}' is ${s[f]} at frame ${f}, beyond the limit of ${MAX_ABS_CLIP_VALUE} in magnitude (the source's values are out of scale or not finite)`,
                    { curve: MuscleCurveNames[c], frame: f, value: s[f] },
                );
            }
        }
    }
    // The trunk's steadiest point (from its hip joints' middle, 0, to its top, 1).
    const trunkSteadyPoint = SteadiestSegmentPoint(trunk.mid, trunk.top, frameCount);
    // Each curve on key frames of its own; the trunk's on shared ones when its jitter cancels
    // along it, its steadiest point above its hips (see `TRUNK_CLIP_CURVES`), else the body's
    // placement's (`PLACEMENT_CLIP_CURVES`).
    const curves = new Array<IMuscleCurve>(samples.length);
    const shareTrunkKeys = options.shareTrunkKeys ?? trunkSteadyPoint > 0;
    // The muscle curves in angle units (`MuscleCurveUnit`): smooth where a muscle's range is lopsided.
    const kept = samples.map((s, c) => (c < ALL_MUSCLE_COUNT ? MuscleSamplesToAngleUnits(c, s) : s));
    // The body's placement together unless asked for every curve on its own (`PLACEMENT_CLIP_CURVES`).
    const group = shareTrunkKeys ? TRUNK_CLIP_CURVES : options.shareTrunkKeys === false ? [] : PLACEMENT_CLIP_CURVES;
    const inGroup = MuscleCurveKinds.map((_, c) => group.includes(c));
    kept.forEach((s, c) => {
        if (inGroup[c]) return;
        // Half the tolerance smooths the curve, the other half places its keys (see
        // `SMOOTHING_SHARE`); the values' grid stays the whole tolerance's.
        // A curve that one value holds within the whole tolerance is that one key, unsmoothed:
        // nothing is smoother (about half of a mocap take's curves; the smoothing's rounds are a
        // fifth of a conversion's time).
        const tolerance = GetCurveTolerance(setup, c, toleranceDeg);
        const step = GetCurveValueStep(tolerance);
        if (rangeOf(s) <= 2 * tolerance) {
            curves[c] = ReduceCurve(s, tolerance, step, "spline");
            return;
        }
        const band = tolerance * SMOOTHING_SHARE;
        curves[c] = ReduceCurve(SmoothWithinBand(s, band), tolerance - band, step, "spline");
    });
    // Smoothed together (the same share of the same filter at every frame, so the jitter that
    // cancels along the trunk, or between the body and its hips, still cancels), then keyed together.
    const groupTolerances = group.map((c) => GetCurveTolerance(setup, c, toleranceDeg));
    const groupCurves = ReduceCurveGroup(
        SmoothCurveGroupWithinBands(
            group.map((c) => kept[c]),
            groupTolerances.map((t) => t * SMOOTHING_SHARE),
        ),
        groupTolerances.map((t) => t - t * SMOOTHING_SHARE),
        groupTolerances.map((t) => GetCurveValueStep(t, true)),
    );
    group.forEach((c, i) => (curves[c] = groupCurves[i]));
    const loop = options.loop ?? loops(setup, samples, frameCount);
    return new MuscleClip({
        name: options.name ?? source.name,
        source: source.source,
        frameRate: rate,
        frameCount,
        loop,
        curves,
        contacts: ground.contacts,
        groundHeight: ground.groundHeight,
        interpolation: "spline",
        muscleUnit: "angle",
        proportions: SourceProportions(setup, trunkSteadyPoint),
        toleranceDeg,
        sourceStartSeconds: sourceStart,
        warnings: CapWarnings([
            ...(endsWarning ? [endsWarning] : []),
            ...source.warnings,
            ...reversed.map(ReversedCollarboneWarning),
            ...watch.warnings(),
            ...(sideWarning ? [sideWarning] : []),
            ...(pointWarning ? [pointWarning] : []),
            ...(floorWarning ? [floorWarning] : []),
        ]),
    });
}

/**
 * The part of a source from `start` seconds, `duration` long, as a source of its own (its times
 * from the part's start).
 */
function sourceWindow(source: IRigPoseSource, start: number, duration: number): IRigPoseSource {
    const figureScaleAt = source.figureScaleAt;
    return {
        name: source.name,
        source: source.source,
        frameRate: source.frameRate,
        durationSeconds: duration,
        warnings: source.warnings,
        samplePoseToRef: (t, result) => source.samplePoseToRef(Math.min(start + t, source.durationSeconds), result),
        ...(figureScaleAt ? { figureScaleAt: (t: number) => figureScaleAt.call(source, Math.min(start + t, source.durationSeconds)) } : {}),
    };
}

/**
 * Takes the tilt of a take's floor out of its body's height (see `FitFloorTilt`): on each frame
 * the body goes down by the floor's height under it (the plane at the body's place on the
 * ground), and with it the foot points and the trunk's ends (`tracks`, three values a frame),
 * which the clip's floor and the trunk's steadiest point are then found on. The pose is kept as
 * it is (the goals and the hips are kept from the body). Returns the warning to give, or null
 * where the floor is level (nothing moved).
 */
function levelFloor(feet: IFootTracks, contacts: Uint8Array, samples: Float32Array[], trunk: { mid: Float32Array; top: Float32Array }): string | null {
    const tilt = FitFloorTilt(feet, contacts);
    if (!(tilt.share > 0)) return null;
    const n = contacts.length;
    const tracks = [...feet.points.flat(), trunk.mid, trunk.top];
    for (let f = 0; f < n; f++) {
        const d = FloorTiltHeightAt(tilt, samples[CURVE_BODY_POSITION][f], samples[CURVE_BODY_POSITION + 2][f]);
        samples[CURVE_BODY_POSITION + 1][f] -= d;
        for (const t of tracks) if (t) t[3 * f + 1] -= d;
    }
    // The angle taken out: the fitted one times the share that counts.
    const taken = (Math.atan(tilt.share * Math.tan((tilt.degrees * Math.PI) / 180)) * 180) / Math.PI;
    return (
        `the floor under the take tilts ${tilt.degrees.toFixed(2)} degrees${tilt.share < 1 ? `, ${taken.toFixed(2)} of them taken out,` : ""} ` +
        `(its planted feet climb ${tilt.rise.toFixed(3)} avatar scales along it): the body is lowered by the floor's height under it, ` +
        `so that characters walk on level ground (option levelFloor: false, convert --keep-floor-tilt, keeps the tilt)`
    );
}

/**
 * A frame whose trunk (hips to its top joint) is shorter than this share of its T-pose length has
 * its figure scaled to a point: its joints all but on one spot (KayKit's spawn from the ground
 * starts so), no pose. So has a frame whose source shows its figure at less than this share of
 * its size (`IRigPoseSource.figureScaleAt`: KayKit's spawn from the air scales every bone to 0,
 * and the poses, which drop scale, have its legs pointing up there).
 */
export const POINT_FIGURE_SHARE = 0.01;

/**
 * Frames flagged in `point` (the figure scaled to a point) take every value of the nearest frame
 * that is not (in `samples`, one value a frame, and in `tracks`, three): encoded, such a frame is
 * the body at the point and whatever turns its collapsed joints give, and played, the character
 * jumped from it to its first real pose (KayKit's spawn from the ground: the hips from the floor to
 * their height in one frame). Returns the warning to give (which frames, which they hold), or null
 * when no frame is flagged or every frame is (nothing to hold).
 */
function holdPointFrames(point: Uint8Array, samples: Float32Array[], tracks: (Float32Array | null)[]): string | null {
    const n = point.length;
    let flagged = 0;
    for (let f = 0; f < n; f++) flagged += point[f];
    if (flagged === 0 || flagged === n) return null;
    const runs: string[] = [];
    ForEachFrameRun(point, 1, (f, e) => {
        // The nearer of the frames either side of the run that are not flagged (before on a tie).
        const before = f - 1;
        const after = e < n ? e : -1;
        for (let g = f; g < e; g++) {
            const from = before >= 0 && (after < 0 || g - before <= after - g) ? before : after;
            for (const s of samples) s[g] = s[from];
            for (const t of tracks) if (t) t.copyWithin(3 * g, 3 * from, 3 * from + 3);
        }
        const end = e - 1;
        runs.push(
            `${f === end ? `frame ${f}` : `frames ${f}-${end}`} (held at ${before >= 0 && after >= 0 ? `frames ${before} and ${after}` : `frame ${before >= 0 ? before : after}`})`,
        );
    });
    const shown = runs.length > 3 ? [...runs.slice(0, 3), `${runs.length - 3} more`] : runs;
    return `the figure is scaled to a point on ${flagged} frame${flagged === 1 ? "" : "s"} (no pose there), which hold the nearest pose: ${shown.join(", ")}`;
}

const tmpV = new Vector3();
const tmpV2 = new Vector3();

/** Longest warning kept, characters (a warning naming a long joint name is cut, so that the file holds it). */
const MAX_WARNING_LENGTH = 4096;

/**
 * A warning list a clip file can hold: at most {@link MAX_WARNINGS} warnings (the last one saying
 * how many more there were), each at most {@link MAX_WARNING_LENGTH} characters.
 */
export function CapWarnings(warnings: readonly string[]): string[] {
    const cut = (w: string): string => (w.length > MAX_WARNING_LENGTH ? `${w.slice(0, MAX_WARNING_LENGTH)}...` : w);
    if (warnings.length <= MAX_WARNINGS) return warnings.map(cut);
    return [...warnings.slice(0, MAX_WARNINGS - 1).map(cut), `... and ${warnings.length - MAX_WARNINGS + 1} more warnings`];
}

/** The largest sample less the smallest. */
function rangeOf(samples: ArrayLike<number>): number {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < samples.length; i++) {
        const v = samples[i];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    return hi - lo;
}

/** The limb twist muscles: a full turn more or less decodes to the same hand or foot (see docs/muscles.md). */
const LIMB_TWISTS: readonly number[] = [
    "Left Arm Twist In-Out",
    "Right Arm Twist In-Out",
    "Left Forearm Twist In-Out",
    "Right Forearm Twist In-Out",
    "Left Upper Leg Twist In-Out",
    "Right Upper Leg Twist In-Out",
    "Left Lower Leg Twist In-Out",
    "Right Lower Leg Twist In-Out",
].map((n) => MuscleIndexFromName(n));

/**
 * A limb twist and the same twist a full turn further decode to the same hand or foot; only the
 * share the limb's upper bone shows differs (by half a turn). Per frame, encoding picks the turn
 * nearest the pose's own; over a clip, this picks the one nearest the previous frame's, so the
 * limb never flips between two frames.
 */
function keepTwistsContinuous(setup: MuscleSetup, values: Float32Array, samples: Float32Array[], f: number): void {
    // `MuscleSetup.muscleToRadians` and `radiansToMuscle` written out: no number crosses a call per frame.
    const min = setup.minDeg;
    const max = setup.maxDeg;
    for (let i = 0; i < LIMB_TWISTS.length; i++) {
        const m = LIMB_TWISTS[i];
        const a = samples[m][f - 1];
        const b = values[m];
        const prev = ((a >= 0 ? a * max[m] : a * -min[m]) * Math.PI) / 180;
        const now = ((b >= 0 ? b * max[m] : b * -min[m]) * Math.PI) / 180;
        const turns = Math.round((prev - now) / (2 * Math.PI));
        if (turns !== 0) {
            const deg = ((now + 2 * Math.PI * turns) * 180) / Math.PI;
            values[m] = deg >= 0 ? deg / max[m] : deg / -min[m];
        }
    }
}

function putVector(samples: Float32Array[], c: number, f: number, v: Vector3): void {
    samples[c][f] = v.x;
    samples[c + 1][f] = v.y;
    samples[c + 2][f] = v.z;
}

/** Writes a rotation on the same hemisphere as the previous frame's, so its curves do not jump. */
function putRotation(samples: Float32Array[], c: number, f: number, q: Quaternion, prev: Quaternion): void {
    // (Written out: `Quaternion.Dot` and `set` hand numbers to or from a call.)
    const sign = f > 0 && q.x * prev.x + q.y * prev.y + q.z * prev.z + q.w * prev.w < 0 ? -1 : 1;
    prev.x = q.x * sign;
    prev.y = q.y * sign;
    prev.z = q.z * sign;
    prev.w = q.w * sign;
    samples[c][f] = prev.x;
    samples[c + 1][f] = prev.y;
    samples[c + 2][f] = prev.z;
    samples[c + 3][f] = prev.w;
}

/** Whether the first and last frames hold the same pose (muscle angles, body and goal rotations within {@link LOOP_MATCH_DEG}). */
function loops(setup: MuscleSetup, samples: Float32Array[], frameCount: number): boolean {
    if (frameCount < 3) return false;
    const last = frameCount - 1;
    for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
        const d = Math.abs(setup.muscleToRadians(i, samples[i][last]) - setup.muscleToRadians(i, samples[i][0]));
        if ((d * 180) / Math.PI > LOOP_MATCH_DEG) return false;
    }
    for (let c = CURVE_BODY_ROTATION; c < CURVE_ROOT; c += c === CURVE_BODY_ROTATION ? 7 : CURVES_PER_GOAL) {
        let dot = 0;
        for (let k = 0; k < 4; k++) dot += samples[c + k][0] * samples[c + k][last];
        // The body turns freely over a clip (a walk in a circle); its loop is the muscles' and goals'.
        if (c !== CURVE_BODY_ROTATION && (2 * Math.acos(Math.min(1, Math.abs(dot))) * 180) / Math.PI > LOOP_MATCH_DEG) return false;
    }
    return true;
}
