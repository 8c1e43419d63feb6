import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { QuaternionFromUnitVectorsToRef } from "../math/hotMath.js";
import { TwistAngleNear } from "../math/swingTwist.js";
import { type MuscleClip } from "../clip/muscleClip.js";
import { ClipProportionsToArray } from "../clip/clipProportions.js";
import { POINT_FIGURE_SHARE } from "../clip/convert.js";
import { MuscleClipSampler } from "../clip/clipSampler.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HumanBoneNames, IsFingerBone } from "../humanoid/humanBones.js";
import { HumanPose } from "../muscle/humanPose.js";
import { MuscleSetup } from "../muscle/setup.js";
import { GOAL_BONES } from "../muscle/encode.js";
import { LIMB_BONES } from "../ik/limbIK.js";
import { HumanoidRigSolver } from "../runtime/rigSolver.js";
import type { ProportionMode } from "../runtime/rigSolverSettings.js";
import { CombineFootSkates, ComputeLegLength, MeasureFootSkate } from "./footSkate.js";

const B = HumanBone;

/** A motion recorded on a character: every rig joint's world position (rig space, metres) per frame. */
export interface IMotionRecording {
    /** The character's avatar (its rig's joints are the ones recorded). */
    readonly avatar: HumanoidAvatar;
    /** Frames per second. */
    readonly frameRate: number;
    /** Per frame, 3 floats per rig joint, in `avatar.rig.joints` order. */
    readonly positions: readonly Float32Array[];
    /**
     * Optional, per frame: how large the figure is shown, as a share of its full size, where the
     * positions leave out a scale the clip animates (a source read from its poses, which drop
     * scale: `IRigPoseSource.figureScaleAt`); 1 throughout when absent, and past its end. A source
     * frame shown at `POINT_FIGURE_SHARE` (1%) or less has no pose (conversion holds another
     * there): {@link MeasureRetargetQuality} leaves it out of the limb directions and the jerk.
     */
    readonly figureScale?: Float32Array;
    /**
     * Optional, per frame: where the fronts of the feet that end at their ankles are (6 floats: the
     * left's x, y, z, then the right's; rig space, metres; NaN for a foot without one): the feet
     * whose front is read from their surface (`MuscleSetup.footFront`, `FootFrontOffsets`), which
     * no joint holds. Sliding and heights are measured at them as at a foot's toes; without them
     * such a foot is measured at its ankle alone.
     */
    readonly footFronts?: readonly Float32Array[];
}

/** The headline figures of one retarget (see docs/metrics.md for the formulas and thresholds). */
export interface IRetargetQualitySummary {
    /** Horizontal drift of the standing foot point on the source's contact frames, leg lengths per contact second. */
    footSkate: number;
    /** Mean distance of planted feet from the ground (float or sink), leg lengths. */
    contactHeightError: number;
    /** Mean distance of ankles and wrists from the source's IK goals scaled to the target, leg lengths. */
    goalError: number;
    /** Longest limb over all frames, as a share of its rest length (1 = never stretched). */
    maxStretch: number;
    /** Mean angle between limb-segment directions of source and target in their body frames, each from its T-pose, degrees. */
    poseErrorDeg: number;
    /** RMS jerk of the target's joints over the source's, both in their own scales (1 = as smooth as the source). */
    jerkRatio: number;
    /** The largest per-bone jerk ratio among the knees, elbows, ankles, wrists and head ({@link JERK_WATCHED_BONES}). */
    boneJerkMax: number;
    /** Signed mean height of planted feet above the target's floor, against their T-pose height (leg lengths; + floats, - sinks). */
    floorOffset: number;
}

/** Everything measured on one retarget: the summary and what the report plots. */
export interface IRetargetQuality extends IRetargetQualitySummary {
    /** Frames compared. */
    frames: number;
    /** Frames per second. */
    frameRate: number;
    /** Share of the source's contact frames where the standing point slides faster than 0.5 m/s at a 0.9 m leg. */
    slidingShare: number;
    /** Share of frames with a limb more than 0.1% longer than at rest. */
    stretchShare: number;
    /** Mean horizontal distance between the target's and the source's hips paths (each from its start, in its own leg lengths with "legs" proportions, else its scale). */
    rootTrajectoryError: number;
    /** Mean angle per limb segment, degrees (segment name -> angle). */
    segmentErrorDeg: Record<string, number>;
    /** Jerk ratio per human bone (its joint's RMS jerk over the source's, each in its own scale), by bone name; body bones mapped on both. */
    boneJerkRatio: Record<string, number>;
    /** The bone of {@link JERK_WATCHED_BONES} with the largest jerk ratio (its name), "" when none is mapped on both. */
    boneJerkWorst: string;
    /** Per frame: height of the lowest point of each foot above its T-pose height, metres ([left, right]), less the recording's floor (`floorHeight`). */
    footHeight: [Float32Array, Float32Array];
    /** Per frame: horizontal speed of the standing point of each foot, m/s ([left, right]). */
    footSpeed: [Float32Array, Float32Array];
    /** Per frame: the clip's foot contacts (FootContact bits). */
    contacts: Uint8Array;
    /** Per frame: the longest limb as a share of its rest length. */
    stretch: Float32Array;
    /** Per frame: the mean goal error, leg lengths. */
    goalErrorPerFrame: Float32Array;
}

/**
 * Where the limb directions' heading frames go over from each character's own heading to the
 * source's for both: the cosine of half a body's tilt (its up's swing from up) at which the target
 * keeps its own (lying, 90 degrees, and less) and at which it takes the source's (120 degrees and
 * more), the lesser of the two bodies' counting; see `poseErrorDeg`.
 */
const HEADING_OWN_COS = Math.SQRT1_2;
const HEADING_FROM_SOURCE_COS = 0.5;

/** A source segment shorter than this share of its T-pose length counts as having no direction (a figure scaled to a point); see `poseErrorDeg`. */
const DEGENERATE_SEGMENT_SHARE = 1e-3;

/** Limb segments compared for pose fidelity: name, from bone, to bone. */
const SEGMENTS: ReadonlyArray<readonly [string, HumanBone, HumanBone]> = [
    ["spine", B.Hips, B.Head],
    ["left upper arm", B.LeftUpperArm, B.LeftLowerArm],
    ["left forearm", B.LeftLowerArm, B.LeftHand],
    ["right upper arm", B.RightUpperArm, B.RightLowerArm],
    ["right forearm", B.RightLowerArm, B.RightHand],
    ["left thigh", B.LeftUpperLeg, B.LeftLowerLeg],
    ["left shin", B.LeftLowerLeg, B.LeftFoot],
    ["right thigh", B.RightUpperLeg, B.RightLowerLeg],
    ["right shin", B.RightLowerLeg, B.RightFoot],
    ["left foot", B.LeftFoot, B.LeftToes],
    ["right foot", B.RightFoot, B.RightToes],
];

/** The bones whose jerk ratio {@link IRetargetQualitySummary.boneJerkMax} watches: knees, elbows, ankles, wrists and head (where jitter shows first). */
export const JERK_WATCHED_BONES: readonly HumanBone[] = [
    B.LeftLowerLeg,
    B.RightLowerLeg,
    B.LeftLowerArm,
    B.RightLowerArm,
    B.LeftFoot,
    B.RightFoot,
    B.LeftHand,
    B.RightHand,
    B.Head,
];

/** A joint's position at a frame. */
function at(rec: IMotionRecording, frame: number, joint: number, out: Vector3): Vector3 {
    const p = rec.positions[frame];
    return out.set(p[3 * joint], p[3 * joint + 1], p[3 * joint + 2]);
}

/** The body frame (right, up, forward) of a recording at a frame, from the upper legs and arms (as the muscle space's body orientation). */
function bodyFrame(rec: IMotionRecording, frame: number, right: Vector3, up: Vector3, fwd: Vector3): void {
    const a = rec.avatar;
    const lul = at(rec, frame, a.getJoint(B.LeftUpperLeg), new Vector3());
    const rul = at(rec, frame, a.getJoint(B.RightUpperLeg), new Vector3());
    const lua = at(rec, frame, a.getJoint(B.LeftUpperArm), new Vector3());
    const rua = at(rec, frame, a.getJoint(B.RightUpperArm), new Vector3());
    const hips = lul.subtract(rul).normalize();
    const arms = lua.subtract(rua).normalize();
    // Arms on the wrong sides of the chest (a broken take: collarbones turned half a turn, labels
    // swapped) would leave the sum no direction: past across the hips' line the arms' line counts
    // less, none at 120 degrees from it, and reversed beyond (all of it reversed when opposite), so
    // such a take faces as its chest does. Continuous; as before up to across.
    const along = Vector3.Dot(hips, arms);
    const left = hips.add(arms.scaleInPlace(along < 0 ? 1 + 2 * along : 1)).normalize();
    const u = lua.add(rua).subtract(lul).subtract(rul);
    u.subtractInPlace(left.scale(Vector3.Dot(u, left))).normalize();
    up.copyFrom(u);
    Vector3.CrossToRef(up, left, fwd);
    fwd.normalize();
    right.copyFrom(left).scaleInPlace(-1);
}

/** Options of {@link MeasureRetargetQuality}. */
export interface IRetargetQualityOptions {
    /**
     * How the clip's goals and travel are scaled to the target for the goal error and the root
     * path, as the runtime's `proportions` setting: `"legs"` (default; the root path in leg
     * lengths) or `"com"` (in centre-of-mass heights).
     */
    proportions?: ProportionMode;
    /**
     * Where the target recording's floor is: metres above its character's T-pose ground (the lowest
     * foot joint of its reference pose), along its up. Planted feet's heights are taken from
     * there. Default 0: the T-pose ground. A source measured against itself passes its clip's
     * floor (`groundHeight` times its avatar's scale): a BVH's zero pose hangs anywhere (the CMU
     * takes' a leg and more below where their feet stand), and from there its own planted
     * heights, the report's allowance for the character's, read 1.1-1.2 legs. A value that is not
     * finite counts as 0.
     */
    floorHeight?: number;
}

/**
 * Measures a retarget: the target's recorded motion against the source's and the clip's (contacts,
 * IK goals). Both recordings are on the clip's frame grid (frame f = f / frameRate seconds); the
 * shorter one sets the frames compared. Cold path; allocates. Formulas in docs/metrics.md.
 * @param source the source motion on its own skeleton
 * @param target the retargeted motion on the target character
 * @param clip the source converted to a muscle clip (contacts, goals)
 * @param options how goals scale to the target (the runtime's proportions)
 */
export function MeasureRetargetQuality(
    source: IMotionRecording,
    target: IMotionRecording,
    clip: MuscleClip,
    options: IRetargetQualityOptions = {},
): IRetargetQuality {
    const mode = options.proportions ?? "legs";
    const floor = Number.isFinite(options.floorHeight) ? (options.floorHeight as number) : 0;
    const frames = Math.min(source.positions.length, target.positions.length, clip.frameCount);
    const rate = target.frameRate;
    const ta = target.avatar;
    const sa = source.avatar;
    const ts = MuscleSetup.For(ta);
    const ss = MuscleSetup.For(sa);
    const leg = ComputeLegLength(ta);
    const up = ta.frame.up;
    const v = new Vector3();
    const w = new Vector3();

    // Foot skating and heights: the ankle and the front of each foot (its toes, or where it has
    // none mapped its own tip joint, `MuscleSetup.footTip`: measured at the ankle alone, a foot
    // rolled onto its front read as sliding and one turned about its ankle, its front sliding, as still).
    // A foot that ends at its ankle is measured at its front as read from its surface too, where the
    // recording follows it (`footFronts`).
    const restHeight = (p: Vector3): number => Vector3.Dot(p.subtract(ts.groundOrigin), up);
    const tracks: Float32Array[][] = [];
    const rests: number[][] = [];
    [B.LeftFoot, B.RightFoot].forEach((b, s) => {
        tracks.push([]);
        rests.push([]);
        for (const j of [ta.getJoint(b), ts.footTip[s]]) {
            if (j < 0) continue;
            const t = new Float32Array(3 * frames);
            for (let f = 0; f < frames; f++) at(target, f, j, v).toArray(t, 3 * f);
            tracks[s].push(t);
            rests[s].push(restHeight(ta.referenceWorld.positions[j]));
        }
        const front = ts.footFront[s];
        const fronts = target.footFronts;
        if (ts.footTip[s] < 0 && front && fronts && fronts.length >= frames && fronts.slice(0, frames).every((p) => Number.isFinite(p[3 * s]))) {
            const t = new Float32Array(3 * frames);
            for (let f = 0; f < frames; f++) t.set(fronts[f].subarray(3 * s, 3 * s + 3), 3 * f);
            tracks[s].push(t);
            rests[s].push(restHeight(front));
        }
    });
    const contactsOf = (bit: number): Uint8Array => Uint8Array.from(clip.contacts.subarray(0, frames), (c) => c & bit);
    const skate = CombineFootSkates([1, 2].map((bit, s) => MeasureFootSkate(tracks[s], contactsOf(bit), rate, leg, up)));
    const footHeight: [Float32Array, Float32Array] = [new Float32Array(frames), new Float32Array(frames)];
    const footSpeed: [Float32Array, Float32Array] = [new Float32Array(frames), new Float32Array(frames)];
    let heightSum = 0;
    let signedSum = 0;
    let heightCount = 0;
    for (let s = 0; s < 2; s++) {
        for (let f = 0; f < frames; f++) {
            let h = Infinity;
            let speed = Infinity;
            tracks[s].forEach((t, p) => {
                v.set(t[3 * f], t[3 * f + 1], t[3 * f + 2]);
                h = Math.min(h, Vector3.Dot(v.subtractInPlace(ts.groundOrigin), up) - rests[s][p] - floor);
                if (f > 0) {
                    v.set(t[3 * f] - t[3 * f - 3], t[3 * f + 1] - t[3 * f - 2], t[3 * f + 2] - t[3 * f - 1]);
                    v.subtractInPlace(up.scale(Vector3.Dot(v, up)));
                    speed = Math.min(speed, v.length() * rate);
                }
            });
            footHeight[s][f] = h;
            footSpeed[s][f] = f > 0 ? speed : 0;
            if (clip.contacts[f] & (s === 0 ? 1 : 2)) {
                heightSum += Math.abs(h);
                signedSum += h;
                heightCount++;
            }
        }
    }

    // Goals: the clip's IK goals as the runtime scales them to the target (its floor on the
    // target's ground): the solver's own mapping, before IK and planting.
    const sampler = new MuscleClipSampler(clip);
    const pose = new HumanPose();
    const solver = new HumanoidRigSolver(ta);
    solver.proportions = mode;
    ClipProportionsToArray(clip.proportions, solver.sourceProportions);
    const goalErrorPerFrame = new Float32Array(frames);
    const rot = new Quaternion();
    let goalSum = 0;
    for (let f = 0; f < frames; f++) {
        sampler.sampleFrameToRef(f, pose);
        pose.bodyPosition.y -= clip.groundHeight;
        solver.decode(pose);
        let sum = 0;
        for (let g = 0; g < 4; g++) {
            solver.goalToRig(g, v, rot);
            sum += Vector3.Distance(v, at(target, f, ta.getJoint(GOAL_BONES[g]), w)) / leg;
        }
        goalErrorPerFrame[f] = sum / 4;
        goalSum += sum / 4;
    }

    // Stretch.
    const rest = LIMB_BONES.map(([a, b, c]) => {
        const p = ta.referenceWorld.positions;
        return Vector3.Distance(p[ta.getJoint(a)], p[ta.getJoint(b)]) + Vector3.Distance(p[ta.getJoint(b)], p[ta.getJoint(c)]);
    });
    const stretch = new Float32Array(frames);
    let stretched = 0;
    const pa = new Vector3();
    const pb = new Vector3();
    const pc = new Vector3();
    for (let f = 0; f < frames; f++) {
        let most = 0;
        LIMB_BONES.forEach(([a, b, c], l) => {
            at(target, f, ta.getJoint(a), pa);
            at(target, f, ta.getJoint(b), pb);
            at(target, f, ta.getJoint(c), pc);
            most = Math.max(most, (Vector3.Distance(pa, pb) + Vector3.Distance(pb, pc)) / rest[l]);
        });
        stretch[f] = most;
        if (most > 1.001) stretched++;
    }

    // Pose fidelity: segment directions in each character's heading frame (its canonical frame,
    // right, up and forward as it stands in its T-pose, turned about up as its body faces now),
    // each from its T-pose: the target's segment should have turned from its T-pose direction as
    // the source's turned from its own (the shortest rotation from the source's rest direction to
    // its direction now, applied to the target's rest direction), so that rest shapes that differ
    // (a foot pitched down more, a head further forward) are not counted as errors.
    const segments = SEGMENTS.filter(([, a, b]) => ta.getJoint(a) >= 0 && ta.getJoint(b) >= 0 && sa.getJoint(a) >= 0 && sa.getJoint(b) >= 0);
    const segmentSum = new Float64Array(segments.length);
    const ds = new Vector3();
    const dt = new Vector3();
    const restVector = (av: HumanoidAvatar, a: HumanBone, b: HumanBone): Vector3 => {
        const p = av.referenceWorld.positions;
        return p[av.getJoint(b)].subtract(p[av.getJoint(a)]).applyRotationQuaternion(MuscleSetup.For(av).c0Inverse);
    };
    const sourceRestVectors = segments.map(([, a, b]) => restVector(sa, a, b));
    const sourceRest = sourceRestVectors.map((r) => r.normalizeToNew());
    const targetRest = segments.map(([, a, b]) => restVector(ta, a, b).normalize());
    const turn = new Quaternion();
    const sHeading = new Quaternion();
    const tHeading = new Quaternion();
    const fr = new Vector3();
    const fu = new Vector3();
    const ff = new Vector3();
    const axes = new Matrix();
    const frameQ = new Quaternion();
    const frameT = new Quaternion();
    /** The body frame of a recording at a frame as a rotation in canonical axes (right, up, forward as columns). */
    const frameRotation = (rec: IMotionRecording, setup: MuscleSetup, f: number, out: Quaternion): Quaternion => {
        bodyFrame(rec, f, fr, fu, ff);
        fr.applyRotationQuaternionInPlace(setup.c0Inverse);
        fu.applyRotationQuaternionInPlace(setup.c0Inverse);
        ff.applyRotationQuaternionInPlace(setup.c0Inverse);
        Matrix.FromXYZAxesToRef(fr, fu, ff, axes);
        return Quaternion.FromRotationMatrixToRef(axes, out).normalize();
    };
    const restFrame = (rec: IMotionRecording): Quaternion => {
        const av = rec.avatar;
        const p = av.referenceWorld.positions;
        const rest: IMotionRecording = { avatar: av, frameRate: 1, positions: [Float32Array.from(p.flatMap((x) => [x.x, x.y, x.z]))] };
        return Quaternion.Inverse(frameRotation(rest, MuscleSetup.For(av), 0, new Quaternion()));
    };
    const sRest = restFrame(source);
    const tRest = restFrame(target);
    /**
     * Canonical -> heading frame of both characters at a frame into `sHeading` and `tHeading`: the
     * turn about up that undoes where each body faces, the twist about up of its frame's turn from
     * the T-pose (well defined lying down or crawling too, where the frame's forward points at the
     * floor). The twist of a turn q is atan2(q.y, q.w), and |(q.y, q.w)| is the cosine of half the
     * body's tilt (how far its up has swung from up): turned upside down the twist has no value
     * (none at all half a turn about a level axis, as at the top of a cartwheel or a handspring),
     * and near it the least difference between two bodies' frames (an arms' line a little higher
     * on one) turns one heading far from the other: a cartwheel onto RiggedFigure read 17 to 91
     * degrees on limbs that pointed within 2 degrees of the source's. So the target's heading goes
     * over to the source's as either body tilts from lying to a third of a turn past it (90 to 120
     * degrees: a smoothstep of the lesser cosine of the half tilt between cos 45 and cos 60
     * degrees); upright to lying each character keeps its own, as before.
     */
    const headings = (f: number): void => {
        frameRotation(source, ss, f, frameQ).multiplyInPlace(sRest);
        frameRotation(target, ts, f, frameT).multiplyInPlace(tRest);
        const ys = 2 * Math.atan2(frameQ.y, frameQ.w);
        // The target's heading from the source's: its twist on the turn nearest the source's.
        const d = TwistAngleNear(frameT, Vector3.UpReadOnly, ys) - ys;
        const c = Math.min(Math.hypot(frameQ.y, frameQ.w), Math.hypot(frameT.y, frameT.w));
        const x = Math.max(0, Math.min(1, (c - HEADING_FROM_SOURCE_COS) / (HEADING_OWN_COS - HEADING_FROM_SOURCE_COS)));
        const own = x * x * (3 - 2 * x);
        Quaternion.RotationAxisToRef(Vector3.UpReadOnly, -ys, sHeading).multiplyInPlace(ss.c0Inverse);
        Quaternion.RotationAxisToRef(Vector3.UpReadOnly, -(ys + own * d), tHeading).multiplyInPlace(ts.c0Inverse);
    };
    // A source segment of no length has no direction (a clip that scales its figure down to a
    // point, as KayKit's spawns start): such frames are left out of that segment's mean, for every
    // character measured alike (they read 90 to 180 degrees, whatever the character did). So is
    // every segment of a frame whose source shows its figure at no size (`figureScale`): its
    // recorded positions leave the scale out, and conversion holds another pose there.
    const sourceRestLength = sourceRestVectors.map((r) => r.length());
    const segmentCount = new Float64Array(segments.length);
    const fs = source.figureScale;
    const hidden = Uint8Array.from({ length: frames }, (_, f) => (fs && f < fs.length && !(fs[f] > POINT_FIGURE_SHARE) ? 1 : 0));
    for (let f = 0; f < frames; f++) {
        // A source shown at no size (scaled to nothing, its poses turned anyhow) has no pose.
        if (hidden[f]) continue;
        headings(f);
        segments.forEach(([, a, b], k) => {
            at(source, f, sa.getJoint(b), v).subtractInPlace(at(source, f, sa.getJoint(a), w));
            if (!(v.length() > DEGENERATE_SEGMENT_SHARE * sourceRestLength[k])) return;
            segmentCount[k]++;
            v.applyRotationQuaternionToRef(sHeading, ds).normalize();
            QuaternionFromUnitVectorsToRef(sourceRest[k], ds, turn);
            targetRest[k].applyRotationQuaternionToRef(turn, ds);
            at(target, f, ta.getJoint(b), v).subtractInPlace(at(target, f, ta.getJoint(a), w));
            v.applyRotationQuaternionToRef(tHeading, dt).normalize();
            const c = Math.max(-1, Math.min(1, Vector3.Dot(ds, dt)));
            segmentSum[k] += (Math.acos(c) * 180) / Math.PI;
        });
    }
    const segmentErrorDeg: Record<string, number> = {};
    segments.forEach(([name], k) => (segmentErrorDeg[name] = segmentSum[k] / Math.max(1, segmentCount[k])));
    const counted = segmentCount.reduce((x, y) => x + y, 0);
    const poseErrorDeg = counted > 0 ? segmentSum.reduce((x, y) => x + y, 0) / counted : 0;

    // Jerk: RMS third difference of the body's joints (no fingers), each in its own scale; overall
    // and per bone; over the frames whose source is shown (all four of a third difference).
    const bodyBones = HumanBoneNames.map((_, b) => b as HumanBone).filter((b) => !IsFingerBone(b) && ta.getJoint(b) >= 0 && sa.getJoint(b) >= 0);
    // Per frame from the third, whether its third difference's four frames are all shown in the
    // source (across a frame whose source is not shown, its recorded pose is none).
    const shownWindow = Uint8Array.from({ length: frames }, (_, f) => (f >= 3 && !(hidden[f] || hidden[f - 1] || hidden[f - 2] || hidden[f - 3]) ? 1 : 0));
    /** Sum over frames and axes of the squared third differences of one bone's joint, in the recording's scale. */
    const jerkSum = (rec: IMotionRecording, bone: HumanBone, scale: number): number => {
        const j = rec.avatar.getJoint(bone);
        let sum = 0;
        for (let f = 3; f < frames; f++) {
            if (!shownWindow[f]) continue;
            for (let c = 0; c < 3; c++) {
                const x = (k: number): number => rec.positions[f - k][3 * j + c];
                const d = (x(0) - 3 * x(1) + 3 * x(2) - x(3)) / scale;
                sum += d * d;
            }
        }
        return sum;
    };
    const perFrames = shownWindow.reduce((n, x) => n + x, 0);
    const sourceSums = bodyBones.map((b) => jerkSum(source, b, ss.scale));
    const targetSums = bodyBones.map((b) => jerkSum(target, b, ts.scale));
    const total = (sums: number[]): number => (perFrames && sums.length ? Math.sqrt(sums.reduce((x, y) => x + y, 0) / (perFrames * sums.length)) : 0);
    const sourceJerk = total(sourceSums);
    const jerkRatio = sourceJerk > 0 ? total(targetSums) / sourceJerk : 1;
    const boneJerkRatio: Record<string, number> = {};
    let boneJerkMax = 0;
    let boneJerkWorst = "";
    bodyBones.forEach((b, k) => {
        // A bone that does not move in the source (a still head) has no jerk to compare with: the
        // body's overall jerk stands in, so that its ratio stays meaningful.
        const floor = (sourceJerk * 1e-3) ** 2 * perFrames;
        const ratio = Math.sqrt(targetSums[k] / Math.max(sourceSums[k], floor, 1e-300));
        boneJerkRatio[HumanBoneNames[b]] = perFrames ? ratio : 1;
        if (JERK_WATCHED_BONES.includes(b) && perFrames && ratio > boneJerkMax) {
            boneJerkMax = ratio;
            boneJerkWorst = HumanBoneNames[b];
        }
    });

    // Root path: the hips on the ground plane, from their start, in each character's canonical
    // frame, in its leg lengths ("legs": travel scales by the legs) or its scale ("com").
    const unit = (setup: MuscleSetup): number => (mode === "legs" && clip.proportions ? setup.legLength : setup.scale);
    const path = (rec: IMotionRecording, setup: MuscleSetup, f: number, out: Vector3): Vector3 =>
        at(rec, f, rec.avatar.getJoint(B.Hips), out)
            .subtractInPlace(setup.groundOrigin)
            .applyRotationQuaternionInPlace(setup.c0Inverse)
            .scaleInPlace(1 / unit(setup));
    const s0 = path(source, ss, 0, new Vector3());
    const t0 = path(target, ts, 0, new Vector3());
    let rootSum = 0;
    for (let f = 0; f < frames; f++) {
        path(source, ss, f, v).subtractInPlace(s0);
        path(target, ts, f, w).subtractInPlace(t0);
        rootSum += Math.hypot(v.x - w.x, v.z - w.z);
    }

    return {
        frames,
        frameRate: rate,
        footSkate: skate.drift,
        slidingShare: skate.slidingShare,
        contactHeightError: heightCount ? heightSum / heightCount / leg : 0,
        goalError: frames ? goalSum / frames : 0,
        maxStretch: stretch.reduce((a, b) => Math.max(a, b), 0),
        stretchShare: frames ? stretched / frames : 0,
        poseErrorDeg,
        segmentErrorDeg,
        jerkRatio,
        boneJerkMax,
        boneJerkRatio,
        boneJerkWorst,
        floorOffset: heightCount ? signedSum / heightCount / leg : 0,
        rootTrajectoryError: frames ? rootSum / frames : 0,
        footHeight,
        footSpeed,
        contacts: clip.contacts.slice(0, frames),
        stretch,
        goalErrorPerFrame,
    };
}
