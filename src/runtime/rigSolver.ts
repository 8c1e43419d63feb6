import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import type { JointLimits } from "../ik/jointLimits.js";
import { HumanoidLimbIK, LIMB_BONES, type ILimbIKStatus } from "../ik/limbIK.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../muscle/decode.js";
import { HUMAN_IK_GOAL_COUNT, HumanIKGoal, type HumanPose } from "../muscle/humanPose.js";
import { CLIP_PROPORTION_COUNT } from "../clip/muscleClip.js";
import { MuscleSetup } from "../muscle/setup.js";
import { ForwardKinematicsToRef } from "../muscle/kinematics.js";
import { TRANSLATION_DOF_COUNT } from "../muscle/translationDof.js";
import { GOAL_BONES } from "../muscle/encode.js";
import { SwingTwistDecomposeToRef } from "../math/swingTwist.js";
import { CriticallyDampedStepInPlace } from "../math/dampedSpring.js";
import {
    QuaternionConjugateToRef,
    QuaternionFromUnitVectorsToRef,
    QuaternionMultiplyToRef,
    QuaternionSlerpToRef,
    Vector3CopyToRef,
    Vector3DirectionToRef,
    Vector3LerpToRef,
} from "../math/hotMath.js";

/** Default squash-and-stretch of every limb: 5% of its length, as Mecanim's arm and leg stretch. */
export const DEFAULT_LIMB_STRETCH = 0.05;

/**
 * How a clip's positions are scaled to the character (docs/runtime.md, proportions):
 * - `"legs"` (default): stride, foot goals and root travel scale by the legs (the character's leg
 *   length over the source's), and the body sits where the character's own legs put it under the
 *   feet, so a short-legged character walks with bent knees and planted feet;
 * - `"com"`: Mecanim's rule: everything scales by the centre-of-mass height, and the body is
 *   lowered only when the feet could not reach otherwise.
 */
export type ProportionMode = "legs" | "com";

/**
 * With `"legs"` proportions a foot goal weighs fully while the ankle is within this height above its
 * T-pose height (source avatar scales; a contact is within 0.05) ...
 */
const FOOT_IK_GROUND = 0.05;
/** ... and not at all from this height up (smootherstep between: continuous to the acceleration). */
const FOOT_IK_AIR = 0.25;
/**
 * How fast the body follows what the planted feet hold in common (see `_followCommonHold`): the
 * angular frequency of a critically damped spring, per second. Their corrections step in velocity
 * as a foot lands; a body moved at once jerked the head and arms (the report's jerk x1.11). The
 * spring lags a steady slide by 2 / omega seconds of it (80 ms), which bends the legs as much as
 * the body lags: at 12/s (167 ms) KayKit's hit, its figure sliding back over half a second, kept
 * the X Bot's thighs 4-7 degrees off (unseen clips 49 of 70 pairs pass, 51 at 25/s); faster than
 * 25/s the touch-downs of a walk show (50/s: two walks over 1.3x the source's jerk).
 */
const COMMON_HOLD_OMEGA = 25;
/**
 * The trunk's steady point (see `_seatBodyOnLegs`) is kept as the source's above this frequency
 * (Hz): above the motion's own band (a walk's pelvis moves at 1 to 3 Hz), where mocap's jitter is.
 */
const TRUNK_HZ = 6;
/**
 * Most the trunk's steady point moves the body, avatar scales (1.5 cm at 1 m), softly (tanh):
 * markers' jitter is millimetres, and a large fast turn of a trunk much longer or shorter than
 * the source's (a fall) is motion, not jitter.
 */
const TRUNK_CAP = 0.015;

/**
 * With `"legs"` proportions a foot gives up to about this share of the leg's length, up or down,
 * for the knee to keep the source's bend: near straight a millimetre of foot is degrees of knee,
 * and legs of other lengths (or of two lengths, as many mocap skeletons), a floor a few
 * millimetres off or a held foot would bend or straighten it by that much (see `_keepLegShape`).
 */
const LEG_SHAPE_SLACK = 0.01;
/**
 * ...but a foot held on the floor goes no deeper into it than this share of that slack (a
 * quarter: two millimetres on a grown-up, a still leg's sway of a fraction of one is followed).
 */
const LEG_SHAPE_FLOOR_SLACK = 0.25;
/** The body is never lowered by more than this share of the leg's length for the feet. */
const MAX_BODY_DROP = 0.3;
/** How fast the body drop follows what the feet need (critically damped spring, hertz). */
const BODY_DROP_HZ = 3;
/** The body drop lags what the feet need by at most this share of the legs' stretch. */
const BODY_DROP_LAG = 0.6;

/** After joint limits, a limb's end this share of the limb's length or more from its target counts as out of reach (as the limb IK's own test). */
const LIMITED_REACH_SHARE = 1e-4;

const tmpV = new Vector3();
const tmpQ = new Quaternion();

/**
 * Turns {@link HumanPose}s into rig poses of one avatar, with limb IK: decode the muscles and the
 * body, then move feet and hands to the pose's IK goals (scaled to the avatar) with two-bone IK and
 * squash-and-stretch. The core of the runtime, without any scene: the plugin writes its
 * {@link pose} onto nodes. Allocation-free after construction.
 *
 * Per solve: {@link decode} (the pose's goals land in {@link goalPositions} and {@link goalRotations},
 * canonical frame, avatar scales, where a caller may change them, for example to plant a foot),
 * then {@link solveIK}.
 */
export class HumanoidRigSolver {
    /** The avatar solved for. */
    public readonly avatar: HumanoidAvatar;
    /** The result: local rotation and position of every rig joint (rig space). */
    public readonly pose: IRigPose;
    /** IK goal positions of the last decode: canonical frame, avatar scales (as `HumanPose`, but absolute, not body-relative). Writable before {@link solveIK}. */
    public readonly goalPositions: Vector3[] = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    /** IK goal rotations of the last decode: each end's rotation relative to its T-pose, canonical frame. Writable before {@link solveIK}. */
    public readonly goalRotations: Quaternion[] = [Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity()];
    /** Position weight of each goal, 0 to 1 ({@link HumanIKGoal} order). Default: feet 1, hands 0. */
    public readonly positionWeights = new Float32Array([1, 1, 0, 0]);
    /** Rotation weight of each goal, 0 to 1. Default: feet 1, hands 0. */
    public readonly rotationWeights = new Float32Array([1, 1, 0, 0]);
    /** The most each limb may lengthen, share of its length (0 disables; a near-straight limb may also shorten a little, see `SolveTwoBonePositionsToRef`). Default {@link DEFAULT_LIMB_STRETCH}. */
    public readonly stretch = new Float32Array([DEFAULT_LIMB_STRETCH, DEFAULT_LIMB_STRETCH, DEFAULT_LIMB_STRETCH, DEFAULT_LIMB_STRETCH]);
    /** Where the last {@link solveIK} aimed each limb's end (rig space, metres, after the weights; unchanged for limbs with weight 0). */
    public readonly targets: Vector3[] = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    /** What the last {@link solveIK} did per limb (stretch factor, distance left, out of reach). */
    public readonly status: ILimbIKStatus[] = [0, 1, 2, 3].map(() => ({ stretch: 1, error: 0, unreachable: false }));
    /** World rotations (rig space) of the joints IK needs, after the last solve's forward kinematics (before IK). */
    public readonly world: Quaternion[];
    /** World positions (rig space) of the joints IK needs, before IK. */
    public readonly positions: Vector3[];
    /** The limb solver. */
    public readonly ik: HumanoidLimbIK;
    /**
     * How far the last solve lowered the body (metres, rig space) so the feet could reach goals
     * beyond the legs' length (a character whose legs are short for its height); hand goals move
     * down with the body. 0 when the feet reach on their own.
     */
    public bodyDrop = 0;
    /** Whether the body may be lowered for the feet (see {@link bodyDrop}; `"com"` proportions). Default true. */
    public lowerBodyForFeet = true;
    /**
     * Per foot, 0 to 1: how firmly the foot is held on the ground this frame (foot planting sets it:
     * 1 while planted, easing to 0 after lift-off). With `"legs"` proportions a foot off the ground
     * follows its goal less the higher it is, unless it is held. Default 0.
     */
    public readonly footGrounded = new Float64Array(2);
    /**
     * Per foot (left, right): how far above the floor the lower of its ankle and toes is after
     * planting (each from its T-pose height), metres; set by planting with {@link footGrounded}, so that "legs" never
     * pushes a held foot into the floor. Infinity when not set.
     */
    public readonly footClearance = new Float64Array(2).fill(Infinity);
    /**
     * Per foot (left, right): what foot planting added to its goal this frame (canonical, pose
     * units, as {@link goalPositions}); {@link decode} sets both to zero. With `"legs"`, what the
     * two hold in common across the ground moves the body instead of bending the legs (see
     * {@link solveIK}).
     */
    public readonly footCorrections = [new Vector3(), new Vector3()];
    /** The common hold's spring: [0..1] where it is (canonical x, z, pose units), [2..3] its rate, [4..5] its target. */
    private readonly _common = new Float64Array(6);
    /**
     * Per goal (left foot, right foot, left hand, right hand), 0 to 1: the position weight the last
     * {@link solveIK} gave it (its weight in {@link positionWeights}, times, for a foot with
     * `"legs"` proportions, how near the ground it is or how firmly it is held). For inspection.
     */
    public readonly appliedPositionWeights = new Float64Array(HUMAN_IK_GOAL_COUNT);
    /** How positions scale from the clip's source to this avatar. Default `"legs"`. */
    public proportions: ProportionMode = "legs";
    /** Whether decoding moves the joints the pose's translations move (`HumanPose.translations`); false zeroes them. Default true. */
    public translationDoF = true;
    /**
     * The source's proportions for the next {@link decode}, in the array form of
     * `ClipProportionsToArray`: [0] its leg length, [1] its ankle height and [2] its hip width,
     * over its scale, [3..5] its left foot's T-pose direction (canonical), [6] its thigh's share of
     * the leg, [7] its trunk's length over its scale and [8] its trunk's steadiest point; NaN
     * when not known, which takes this avatar's own. The animator copies its clip player's here
     * every frame.
     */
    public readonly sourceProportions = new Float64Array(CLIP_PROPORTION_COUNT).fill(NaN);
    /**
     * How the last {@link decode} maps the pose's feet and travel to the avatar: [0] metres per
     * avatar scale of the pose (the avatar's scale with `"com"`, its leg length over the source's
     * with `"legs"`), [1] the source's ankle height over its scale, [2] the avatar's ankle height
     * (metres), [3] how much wider than the scaled source's this avatar stands, per foot (metres:
     * half its hip width less the scaled source's half; 0 with `"com"`). A foot goal's height maps
     * as `(y - [1]) * [0] + [2]` above the ground; decoding has moved each foot goal out by [3]
     * along the source's hips' right (the stance, see docs/runtime.md).
     */
    public readonly positionScale = new Float64Array(4);
    /**
     * How far the last solve moved the body from where its centre of mass put it (rig space,
     * metres): with `"legs"` proportions, onto the legs under the feet; with `"com"`, down by
     * {@link bodyDrop}.
     */
    public readonly bodyOffset = new Vector3();
    /**
     * Joint limits, or null for none (default null; the animator sets its `jointLimits` here):
     * {@link decode} limits every held bone's rotation before placing the body, and
     * {@link applyJointLimits} limits the pose again after IK.
     */
    public jointLimits: JointLimits | null = null;
    /** Per limb, whether {@link applyJointLimits} aims it again. */
    private readonly _relimb = new Uint8Array(HUMAN_IK_GOAL_COUNT);
    /** The swing {@link applyJointLimits} gives an upper bone. */
    private readonly _limitTurn = new Quaternion();
    /** The body drop's spring: [0] where it is, [1] its rate, [2] what the feet need (metres; see {@link _lowerBody}). */
    private readonly _drop = new Float64Array(3);
    private _dropFresh = true;
    /** A spring step's numbers: [w, dt] (see `CriticallyDampedStepInPlace`). */
    private readonly _springStep = new Float64Array(2);
    private readonly _step = new Float64Array(1);
    private readonly _setup: MuscleSetup;
    private readonly _target = new Vector3();
    private readonly _footFrom = new Vector3();
    /** Per foot, where this leg bent as decoded puts the foot less where the source's share would ({@link _fitLegShare}). */
    private readonly _shareFit: Vector3[] = [new Vector3(), new Vector3()];
    /** Per foot, how much its goal holds by its height ({@link _groundWeights}). */
    private readonly _ground = new Float64Array(2);
    /** Per leg: the inverse T-pose world rotations of its upper and middle joints (rig space): [left upper, left middle, right upper, right middle]. */
    private readonly _legRestInverse: Quaternion[];
    /** Scratch of `_fitLegShare`: a source leg direction turned as this frame's leg. */
    private readonly _leanDir = new Vector3();
    /** See `_prepareLean`: the clip's leg directions it was last made for, and what it made. */
    private readonly _leanKey = new Float64Array(6).fill(NaN);
    private readonly _leanRest = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    private readonly _hipsWorld = new Quaternion();
    /** The body's heading of the last decode: its turn about up (canonical). */
    private readonly _heading = new Quaternion();
    private readonly _footTurn = new Quaternion();
    /** The foot rotations' scratch: the source's foot direction (canonical), the swing and twist about it, the twist's angle. */
    private readonly _footAxis = new Vector3();
    private readonly _footSwing = new Quaternion();
    private readonly _footTwist = new Quaternion();
    private readonly _footAngle = new Float64Array(1);
    /** The clip's hips of the last decode (canonical, pose units). */
    private readonly _clipHips = new Vector3();
    /** The joints between the limb IK's forward kinematics and the trunk's top (`MuscleSetup.trunkTop`), parents first. */
    private readonly _trunkJoints: Int32Array;
    /** The trunk's steady point's difference from the source's, low-passed ([0..2]), and its rate ([3..5]) (rig space, metres; see {@link _seatBodyOnLegs}). */
    private readonly _trunkLow = new Float64Array(6);
    /** That difference this solve (rig space, metres). */
    private readonly _trunkNow = new Float64Array(3);
    /** The middle of the hip joints as decoded, before the seat moved them (rig space). */
    private readonly _trunkMid = new Vector3();
    /** Whether the low-pass starts afresh at the next seat. */
    private _trunkFresh = true;
    /** The last {@link solveIK}'s time step (seconds), for the next decode's low-pass. */
    private _lastStep = 0;
    /** Whether the last decode scales by the legs (`"legs"` and the clip gives its source's proportions). */
    private _legs = false;
    /** Set by {@link decode} when it ran the forward kinematics and seated the body ("legs"), for the next {@link solveIK}. */
    private _seated = false;
    private readonly _targetRot = new Quaternion();
    private readonly _up: Vector3;
    /** Numbers handed to the limb solver and the lerps: position weight, rotation weight, stretch. */
    private readonly _weights = new Float64Array(3);

    /** @param avatar the avatar to solve for */
    constructor(avatar: HumanoidAvatar) {
        this.avatar = avatar;
        this._setup = MuscleSetup.For(avatar);
        this.pose = CreateReferenceRigPose(avatar);
        this.ik = new HumanoidLimbIK(avatar);
        const n = avatar.rig.joints.length;
        this.world = Array.from({ length: n }, () => Quaternion.Identity());
        this.positions = Array.from({ length: n }, () => new Vector3());
        this._up = avatar.frame.up.clone();
        this.positionScale[0] = this._setup.scale;
        this.positionScale[1] = this._setup.ankleHeight / this._setup.scale;
        this.positionScale[2] = this._setup.ankleHeight;
        this.positionScale[3] = 0;
        const inFk = new Set(this.ik.fkJoints);
        const path: number[] = [];
        for (let j = this._setup.trunkTop; j >= 0 && !inFk.has(j); j = this._setup.rigParent[j]) path.unshift(j);
        this._trunkJoints = Int32Array.from(path);
        // The legs' T-pose world rotations, by this solver's own forward kinematics of the reference pose.
        this._forwardKinematics();
        this._legRestInverse = [0, 1].flatMap((g) => [
            Quaternion.Inverse(this.world[this.ik.upperJoint(g)]),
            Quaternion.Inverse(this.world[this.ik.middleJoint(g)]),
        ]);
    }

    /**
     * Decodes a pose into {@link pose} (limbs at rest length) and its IK goals into
     * {@link goalPositions} and {@link goalRotations}.
     */
    public decode(human: HumanPose): void {
        const setup = this._setup;
        this.footCorrections[0].setAll(0);
        this.footCorrections[1].setAll(0);
        const sp = this.sourceProportions;
        const ps = this.positionScale;
        this._legs = this.proportions === "legs" && sp[0] > 0 && sp[1] >= 0 && sp[2] >= 0;
        if (this._legs) {
            ps[0] = setup.legLength / sp[0];
            ps[1] = sp[1];
            ps[3] = (setup.hipWidth - sp[2] * ps[0]) / 2;
        } else {
            ps[0] = setup.scale;
            ps[1] = setup.ankleHeight / setup.scale;
            ps[3] = 0;
        }
        // The body's heading (its turn about up).
        const br = human.bodyRotation;
        const yawLength = Math.sqrt(br.y * br.y + br.w * br.w);
        const hy = yawLength > 1e-9 ? br.y / yawLength : 0;
        const hw = yawLength > 1e-9 ? br.w / yawLength : 1;
        const hq = this._heading;
        hq.x = 0;
        hq.y = hy;
        hq.z = 0;
        hq.w = hw;
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) this.ik.resetLengths(g, this.pose.positions);
        if (!this.translationDoF) for (let t = 0; t < TRANSLATION_DOF_COUNT; t++) human.translations[t].setAll(0);
        DecodeHumanPose(this.avatar, human, this.pose, this.jointLimits);
        if (this._legs) this._turnHipsAsSource(human);
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            human.goalPositions[g].applyRotationQuaternionToRef(human.bodyRotation, this.goalPositions[g]).addInPlace(human.bodyPosition);
            QuaternionMultiplyToRef(human.bodyRotation, human.goalRotations[g], this.goalRotations[g]);
        }
        // Foot rotations: relative to the body's heading H (its turn about up), each goal rotation
        // is split into the swing S of the source's foot direction and the twist T about it
        // (H^-1 R = S T). The foot swings as the source's did, and its twist becomes a twist about
        // this avatar's own foot direction: R' = H S (A T A^-1), A the shortest rotation from the
        // source's T-pose foot direction onto this avatar's. A foot flat on the ground stays flat,
        // and a foot that rolls about its own axis on the source rolls about this one's. Before, the
        // whole rotation was turned by A (R' = H A (H^-1 R) A^-1), which tilts a large swing by the
        // angle between the two feet: KayKit's crawl (feet pointing back, its T-pose foot 46
        // degrees down) onto the CMU skeleton put the feet 21 degrees from the source's, 6 now.
        // A is the left foot's; the right foot's is its mirror image (the clip keeps one foot's
        // direction), so that a skeleton whose feet are not mirror images keeps each foot as it is.
        if (sp[3] === sp[3]) {
            const h = this._heading;
            const from = this._footFrom;
            from.x = sp[3];
            from.y = sp[4];
            from.z = sp[5];
            QuaternionFromUnitVectorsToRef(from, setup.twistAxis[HumanBone.LeftFoot], this._footTurn);
            for (let g = 0; g < 2; g++) {
                if (g === 1) {
                    // Mirrored across the body's middle plane (canonical x): (x, -y, -z, w).
                    this._footTurn.y = -this._footTurn.y;
                    this._footTurn.z = -this._footTurn.z;
                }
                const r = this.goalRotations[g];
                QuaternionConjugateToRef(h, tmpQ);
                QuaternionMultiplyToRef(tmpQ, r, r);
                // H^-1 R = S T, the twist T about the source's foot direction; T' = A T A^-1.
                const fs = this._footAxis;
                fs.x = g === 1 ? -sp[3] : sp[3];
                fs.y = sp[4];
                fs.z = sp[5];
                SwingTwistDecomposeToRef(r, fs, this._footSwing, this._footTwist, this._footAngle, 0);
                QuaternionMultiplyToRef(this._footTurn, this._footTwist, this._footTwist);
                QuaternionConjugateToRef(this._footTurn, tmpQ);
                QuaternionMultiplyToRef(this._footTwist, tmpQ, this._footTwist);
                QuaternionMultiplyToRef(this._footSwing, this._footTwist, r);
                QuaternionMultiplyToRef(h, r, r);
            }
        }
        // Stance: each foot as far from its own hip joint as the source's was from its, scaled: the
        // feet move along the line between the hip joints (the source's hips' right, canonical) by
        // what the two pairs of hip joints differ by. Along the hips, not the body's heading: a
        // pelvis that rolls (one hip up, as in a crawl or a stride) carries its feet with it, and
        // along a level line each foot would be off by the roll times the difference (on a short-
        // legged source onto a long-legged body a fifth of a leg, the knees bent by tens of degrees).
        // A held foot goes up and down with its hip as the pelvis rolls, as the source's leg does
        // (it keeps the leg's shape; taking the lift off held feet bent their knees: pose error
        // 1.08 -> 1.83 deg on the X Bot's idle onto the KayKit mannequin).
        const out = ps[3] / ps[0];
        if (out !== 0) {
            // The hips' right: (body * hips) * (1, 0, 0), canonical.
            QuaternionMultiplyToRef(human.bodyRotation, human.hipsRotation, tmpQ);
            const r = tmpV.copyFromFloats(1, 0, 0).applyRotationQuaternionInPlace(tmpQ);
            const left = this.goalPositions[0];
            const right = this.goalPositions[1];
            left.x -= r.x * out;
            left.y -= r.y * out;
            left.z -= r.z * out;
            right.x += r.x * out;
            right.y += r.y * out;
            right.z += r.z * out;
        }
        // The hips as the clip puts them (canonical, pose units): "legs" seats the body on them.
        human.hipsPosition.applyRotationQuaternionToRef(human.bodyRotation, this._clipHips).addInPlace(human.bodyPosition);
        this._seated = false;
        if (this._legs && (this.positionWeights[0] > 0 || this.positionWeights[1] > 0)) this._prepareLegs();
    }

    /**
     * Limits every bone {@link jointLimits} holds in {@link pose} (their local rotations; nothing
     * when null): the last step of a frame, after IK and world goals. Returns whether a bone
     * changed. Allocation-free.
     */
    public applyJointLimits(): boolean {
        const limits = this.jointLimits;
        if (!limits || !limits.clampRigPoseInPlace(this.pose)) return false;
        // A limb the limits turned is aimed again: its upper bone swings (shortest rotation) so the
        // end is back on the line to its target, the limited joints below kept as they are (a
        // knee's bend, hence the reach, barely changes), and the end turned back to its goal's
        // rotation; then the limits once more (a held upper bone may have left its own).
        const pw = this.positionWeights;
        const rw = this.rotationWeights;
        const changed = limits.changed;
        let any = false;
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            const bones = LIMB_BONES[g];
            this._relimb[g] = (pw[g] > 0 || rw[g] > 0) && (changed[bones[0]] || changed[bones[1]] || changed[bones[2]]) ? 1 : 0;
            if (this._relimb[g]) any = true;
        }
        if (!any) return true;
        this._forwardKinematics();
        const world = this.world;
        const pos = this.positions;
        const rot = this.pose.rotations;
        const parent = this._setup.rigParent;
        const turn = this._limitTurn;
        const endRot = this._targetRot;
        const from = this._footFrom;
        const to = this._target;
        const weights = this._weights;
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            if (!this._relimb[g]) continue;
            const upper = this.ik.upperJoint(g);
            const end = this.ik.endJoint(g);
            // The end's world rotation the IK gave it: its goal's, by the rotation weight.
            this.goalToRig(g, to, endRot);
            weights[0] = rw[g] > 0 ? (rw[g] < 1 ? rw[g] : 1) : 0;
            QuaternionSlerpToRef(world[end], endRot, weights, 0, endRot);
            turn.x = 0;
            turn.y = 0;
            turn.z = 0;
            turn.w = 1;
            if (pw[g] > 0) {
                Vector3DirectionToRef(pos[upper], pos[end], from);
                Vector3DirectionToRef(pos[upper], this.targets[g], to);
                QuaternionFromUnitVectorsToRef(from, to, turn);
                // upper local = P^-1 * turn * W
                QuaternionConjugateToRef(world[parent[upper]], tmpQ);
                QuaternionMultiplyToRef(tmpQ, turn, tmpQ);
                QuaternionMultiplyToRef(tmpQ, world[upper], rot[upper]);
            }
            // end local = (turn * W_parent)^-1 * endRotation
            QuaternionMultiplyToRef(turn, world[parent[end]], tmpQ);
            QuaternionConjugateToRef(tmpQ, tmpQ);
            QuaternionMultiplyToRef(tmpQ, endRot, rot[end]);
        }
        limits.clampRigPoseInPlace(this.pose);
        // What is left between each aimed end and its target (the limits may keep it off): the status.
        this._forwardKinematics();
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            if (!this._relimb[g] || !(pw[g] > 0)) continue;
            const e = pos[this.ik.endJoint(g)];
            const t = this.targets[g];
            const dx = e.x - t.x;
            const dy = e.y - t.y;
            const dz = e.z - t.z;
            const error = Math.sqrt(dx * dx + dy * dy + dz * dz);
            const status = this.status[g];
            status.error = error;
            status.unreachable = error > LIMITED_REACH_SHARE * this.ik.limbLengths[g];
        }
        return true;
    }

    /** Forgets the body drop's and the trunk's motion (after a jump in time or place), so the next solve starts from what it needs. */
    public resetSmoothing(): void {
        this._dropFresh = true;
        this._trunkFresh = true;
        this._common.fill(0);
    }

    /**
     * Moves the limbs whose weights are above 0 to their goals. Call after {@link decode}.
     * @param deltaSeconds time since the last solve, for the body drop's smoothing (0: no smoothing)
     * @param step if given, the time step is read from `step[0]` instead (the player's `step`)
     * @returns the pose ({@link pose})
     */
    public solveIK(deltaSeconds = 0, step?: Float64Array): IRigPose {
        // The step goes on in an array (the player's, or ours), so no number is boxed on the way.
        if (!step) {
            this._step[0] = deltaSeconds;
            step = this._step;
        }
        this._lastStep = step[0] > 0 && step[0] < Infinity ? step[0] : 0;
        const pw = this.positionWeights;
        const rw = this.rotationWeights;
        if (!(pw[0] > 0 || pw[1] > 0 || pw[2] > 0 || pw[3] > 0 || rw[0] > 0 || rw[1] > 0 || rw[2] > 0 || rw[3] > 0)) {
            this.appliedPositionWeights.fill(0);
            return this.pose;
        }
        const world = this.world;
        const pos = this.positions;
        const rot = this.pose.rotations;
        const lp = this.pose.positions;
        // Forward kinematics and the body seated ("legs"), unless decode did both already.
        if (!this._seated) {
            this._forwardKinematics();
            this.bodyOffset.setAll(0);
            if (this._legs) this._seatBodyOnLegs();
        }
        this._seated = false;
        this.bodyDrop = 0;
        if (!this._legs && this.lowerBodyForFeet) this._lowerBody(step);
        if (this._legs) {
            this._groundWeights();
            this._followCommonHold(step);
        }
        // Numbers go to the limb solver in an array (see `hotMath`).
        const weights = this._weights;
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            let wp = pw[g] > 0 ? (pw[g] < 1 ? pw[g] : 1) : 0;
            // "legs": a foot off the ground keeps the leg's own shape (its rotations, as the
            // source's) and only a foot near the ground is moved onto its goal; nothing else forces
            // where a foot in the air is, and legs of other segment lengths would bend otherwise.
            if (this._legs && g < HumanIKGoal.LeftHand && wp > 0) {
                const near = this._ground[g];
                // A planted foot (footGrounded, set by planting) is held whatever its ankle's height.
                // Either holds it (1 - (1 - near)(1 - grounded)): smooth in both, where the larger of
                // the two had a kink as the release's ease crossed the height's (the foot jerked).
                const grounded = this.footGrounded[g];
                wp *= 1 - (1 - near) * (1 - grounded);
            }
            this.appliedPositionWeights[g] = wp;
            const wr = rw[g] > 0 ? (rw[g] < 1 ? rw[g] : 1) : 0;
            if (wp === 0 && wr === 0) {
                const s = this.status[g];
                s.stretch = 1;
                s.error = 0;
                s.unreachable = false;
                continue;
            }
            this.goalToRig(g, this._target, this._targetRot);
            // Hand goals are the body's: they move with it.
            if (g >= HumanIKGoal.LeftHand) this._target.addInPlace(this.bodyOffset);
            // "legs": what planting changed of a foot goal, too, within reach of the source's knee.
            else if (this._legs) this._keepLegShape(g, this._target, true);
            weights[0] = wp;
            weights[1] = wr;
            weights[2] = this.stretch[g] > 0 ? this.stretch[g] : 0;
            this.ik.solveWeighted(g, world, pos, rot, lp, this._target, this._targetRot, weights, this.status[g]);
            Vector3LerpToRef(pos[this.ik.endJoint(g)], this._target, weights, 0, this.targets[g]);
        }
        return this.pose;
    }

    /**
     * `"legs"`: what the two feet's planting corrections hold in common across the ground moves the
     * body (and all above its hips) by as much, so that a source whose whole figure slides over the
     * floor with both feet down (an in-place clip whose root drifts) keeps its legs' shape instead
     * of bending them to reach feet held back. Each correction counts as firmly as its foot is held
     * ({@link footGrounded}: a foot easing out of its hold counts less and less), and the common
     * part is the smaller of the two along their mean: none while one foot is not held, continuous
     * as the corrections are; the body follows it through a critically damped spring
     * (`COMMON_HOLD_OMEGA`), since a correction's velocity steps as a foot lands.
     */
    private _followCommonHold(step: Float64Array): void {
        const a = this.footCorrections[0];
        const b = this.footCorrections[1];
        // Each as firmly as the foot is held (1 planted, easing to 0 over its release).
        const ga = this.footGrounded[0];
        const gb = this.footGrounded[1];
        const ax = a.x * ga;
        const az = a.z * ga;
        const bx = b.x * gb;
        const bz = b.z * gb;
        const mx = (ax + bx) / 2;
        const mz = (az + bz) / 2;
        const m = Math.sqrt(mx * mx + mz * mz);
        const c = this._common;
        c[4] = 0;
        c[5] = 0;
        if (m > 1e-12) {
            const ux = mx / m;
            const uz = mz / m;
            const da = ax * ux + az * uz;
            const db = bx * ux + bz * uz;
            const common = da < db ? da : db;
            if (common > 0) {
                c[4] = ux * common;
                c[5] = uz * common;
            }
        }
        const dt = step[0];
        if (!(dt > 0 && dt < Infinity) || !Number.isFinite(c[0] + c[1] + c[2] + c[3])) {
            // No time step (a pose set still, the first frame, a jump after a reset): no smoothing.
            c[0] = c[4];
            c[1] = c[5];
            c[2] = 0;
            c[3] = 0;
        } else {
            const p = this._springStep;
            p[0] = COMMON_HOLD_OMEGA;
            p[1] = dt;
            CriticallyDampedStepInPlace(c, 0, 2, c, 4, 2, p);
        }
        const k = this.positionScale[0];
        tmpV.x = c[0] * k;
        tmpV.y = 0;
        tmpV.z = c[1] * k;
        if (tmpV.x === 0 && tmpV.z === 0) return;
        tmpV.applyRotationQuaternionToRef(this._setup.c0, this._footFrom);
        this.bodyOffset.addInPlace(this._footFrom);
        this._moveBody(this._footFrom);
    }

    /**
     * Lowers the hips (and everything below them) so that each weighted foot goal is within its
     * leg's length. The drop follows what the feet need through a critically damped spring (so the
     * body moves smoothly as one foot or the other sets it), but never lags by more than the legs
     * can stretch. Sets {@link bodyDrop} (metres).
     */
    private _lowerBody(step: Float64Array): void {
        const deltaSeconds = step[0];
        const up = this._up;
        const pos = this.positions;
        const weights = this._weights;
        let drop = 0;
        for (let g = 0; g < 2; g++) {
            const w = this.positionWeights[g];
            if (!(w > 0)) continue;
            const upper = this.ik.upperJoint(g);
            const end = this.ik.endJoint(g);
            this.goalToRig(g, this._target, this._targetRot);
            weights[0] = w < 1 ? w : 1;
            Vector3LerpToRef(pos[end], this._target, weights, 0, this._target);
            const v = this._target.subtractInPlace(pos[upper]);
            const along = v.x * up.x + v.y * up.y + v.z * up.z;
            const across2 = v.x * v.x + v.y * v.y + v.z * v.z - along * along;
            const l = this.ik.limbLengths[g];
            // Need |along + drop| <= sqrt(l^2 - across^2); a goal too far sideways gets level with the hip at most.
            const need = -along - (across2 < l * l ? Math.sqrt(l * l - across2) : 0);
            if (need > drop) drop = need;
        }
        const leg = this.ik.limbLengths[0];
        const limit = MAX_BODY_DROP * leg;
        if (drop > limit) drop = limit;
        // Smooth it: x follows the need; it may lag by part of what the stretch can cover.
        const spring = this._drop;
        if (this._dropFresh || !(deltaSeconds > 0 && deltaSeconds < Infinity) || !Number.isFinite(spring[0] + spring[1])) {
            spring[0] = drop;
            spring[1] = 0;
            this._dropFresh = false;
        } else {
            const p = this._springStep;
            p[0] = 2 * Math.PI * BODY_DROP_HZ;
            p[1] = deltaSeconds;
            spring[2] = drop;
            CriticallyDampedStepInPlace(spring, 0, 1, spring, 2, 1, p);
            const lag = BODY_DROP_LAG * this.stretch[0] * leg;
            if (spring[0] < drop - lag) spring[0] = drop - lag;
        }
        drop = spring[0];
        if (!(drop > 0)) {
            this.bodyDrop = 0;
            return;
        }
        this.bodyDrop = drop;
        const o = this.bodyOffset;
        o.x = up.x * -drop;
        o.y = up.y * -drop;
        o.z = up.z * -drop;
        this._moveBody(o);
    }

    /**
     * `"legs"` proportions: moves the body so that the hips (the middle of the upper-leg joints)
     * are where the clip's are, scaled as the feet are (by the legs, heights from the ankles): the
     * body then sits where the character's own legs put it under the feet, and the limb IK corrects
     * only what the leg shapes differ by. Sets {@link bodyOffset}.
     *
     * Then the trunk's steady point. In a mocap take the hips jitter more than the chest and
     * head: the markers' noise turns the pelvis and moves it so that the two nearly cancel higher
     * up. Seated by its hip joints and turned as the source's, a trunk longer than the source's
     * (scaled) carries the turn's jitter further: RiggedFigure's head, 0.76 centre-of-mass heights
     * above its hip joints (the CMU skeleton's 0.56), jerked 2.1 times the source's on the CMU walk.
     * The clip records the source's trunk length L_s (hip joints' middle to head, over its scale)
     * and its steadiest point s (0 at the hip joints, 1 at the head: where the third differences of
     * the segment's points are least; 0.5 to 0.9 on the public mocap, 0 on a keyframed fall). With
     * this trunk's lever t (its top less its hip joints' middle, as decoded, length L_t) and the
     * source's taken along it at its own length, k L_s / L_t t (k the legs' scale), the steady points
     * differ by d = s (1 - k L_s / L_t) t. The body moves by -(d - low(d)), low a critically damped
     * low-pass at {@link TRUNK_HZ}: over the jitter's band the steady point moves as the source's,
     * over the motion's own the hips stay on the legs. The move is capped softly at
     * {@link TRUNK_CAP}. Nothing for clips without the trunk (files before version 5), a trunk as
     * long as the source's, or a source whose hips are its steadiest point.
     */
    private _seatBodyOnLegs(): void {
        const pos = this.positions;
        const o = this.bodyOffset;
        this._footToRig(this._clipHips, o);
        const l = pos[this.ik.upperJoint(0)];
        const r = pos[this.ik.upperJoint(1)];
        const mid = this._trunkMid;
        mid.x = (l.x + r.x) * 0.5;
        mid.y = (l.y + r.y) * 0.5;
        mid.z = (l.z + r.z) * 0.5;
        o.subtractInPlace(mid);
        const sp = this.sourceProportions;
        if (sp[7] > 0 && sp[8] > 0 && this._setup.trunkLength > 0) this._steadyTrunk();
        this._moveBody(o);
    }

    /** The trunk's steady point's move, added to {@link bodyOffset} (see {@link _seatBodyOnLegs}), from the hips' middle as decoded ({@link _trunkMid}). */
    private _steadyTrunk(): void {
        const setup = this._setup;
        const mx = this._trunkMid.x;
        const my = this._trunkMid.y;
        const mz = this._trunkMid.z;
        ForwardKinematicsToRef(setup, this.pose.rotations, this.pose.positions, this.world, this.positions, this._trunkJoints);
        const top = this.positions[setup.trunkTop];
        const sp = this.sourceProportions;
        const f = (1 - (this.positionScale[0] * sp[7]) / setup.trunkLength) * sp[8];
        const d = this._trunkNow;
        d[0] = (top.x - mx) * f;
        d[1] = (top.y - my) * f;
        d[2] = (top.z - mz) * f;
        const lo = this._trunkLow;
        const dt = this._lastStep;
        if (this._trunkFresh || !(dt > 0)) {
            // Afresh, or no time passed (a pose set directly): nothing to filter.
            lo[0] = d[0];
            lo[1] = d[1];
            lo[2] = d[2];
            lo[3] = lo[4] = lo[5] = 0;
            this._trunkFresh = false;
        } else {
            // Critically damped, exact for the step (as the body drop's), per axis.
            const p = this._springStep;
            p[0] = 2 * Math.PI * TRUNK_HZ;
            p[1] = dt;
            CriticallyDampedStepInPlace(lo, 0, 3, d, 0, 3, p);
        }
        let hx = d[0] - lo[0];
        let hy = d[1] - lo[1];
        let hz = d[2] - lo[2];
        const h = Math.sqrt(hx * hx + hy * hy + hz * hz);
        const cap = TRUNK_CAP * setup.scale;
        if (h > 1e-12) {
            const k = (cap * Math.tanh(h / cap)) / h;
            hx *= k;
            hy *= k;
            hz *= k;
        }
        const o = this.bodyOffset;
        o.x -= hx;
        o.y -= hy;
        o.z -= hz;
    }

    /** Forward kinematics of the limbs and their ancestors ({@link HumanoidLimbIK.fkJoints}) into {@link world} and {@link positions}. */
    private _forwardKinematics(): void {
        ForwardKinematicsToRef(this._setup, this.pose.rotations, this.pose.positions, this.world, this.positions, this.ik.fkJoints);
    }

    /**
     * `"legs"`, at the end of {@link decode} when a foot has IK: the forward kinematics, the body
     * seated on the clip's hips, and each foot goal kept where the leg bent as the source's
     * reaches when it is close to it ({@link _keepLegShape}), before planting holds the goals.
     */
    private _prepareLegs(): void {
        this._forwardKinematics();
        this.bodyOffset.setAll(0);
        this._seatBodyOnLegs();
        this._seated = true;
        const scale = this.positionScale[0];
        if (!(scale > 0)) return;
        const target = this._target;
        const before = this._footFrom;
        const up = this._up;
        if (this._fitLegShare()) {
            // The body up or down by what the feet on the ground need of it (their mean, the
            // nearer the ground the more), so that the legs reach the floor with the source's bends.
            this._groundWeights();
            const w = this._ground;
            let shift = 0;
            let total = 0;
            for (let g = 0; g < 2; g++) {
                if (!(this.positionWeights[g] > 0 && w[g] > 0)) continue;
                const c = this._shareFit[g];
                shift -= w[g] * (c.x * up.x + c.y * up.y + c.z * up.z);
                total += w[g];
            }
            if (total > 0) {
                shift /= total > 1 ? total : 1;
                before.x = up.x * shift;
                before.y = up.y * shift;
                before.z = up.z * shift;
                this.bodyOffset.addInPlace(before);
                this._moveBody(before);
            }
        }
        for (let g = 0; g < 2; g++) {
            if (!(this.positionWeights[g] > 0)) continue;
            this._footToRig(this.goalPositions[g], target);
            Vector3CopyToRef(target, before);
            // Across: the foot where this leg bent as decoded puts it (up and down stays the source's).
            const c = this._shareFit[g];
            const along = c.x * up.x + c.y * up.y + c.z * up.z;
            target.x += c.x - along * up.x;
            target.y += c.y - along * up.y;
            target.z += c.z - along * up.z;
            this._keepLegShape(g, target, false);
            // Back to the goal's units: rig-space change, unrotated from the canonical frame, over the scale.
            target.subtractInPlace(before).applyRotationQuaternionInPlace(this._setup.c0Inverse);
            const goal = this.goalPositions[g];
            goal.x += target.x / scale;
            goal.y += target.y / scale;
            goal.z += target.z / scale;
        }
    }

    /**
     * `"legs"`: per foot, how much its goal holds by its height above the source's ankle height
     * (1 within {@link FOOT_IK_GROUND}, 0 from {@link FOOT_IK_AIR}, a smootherstep between), into
     * {@link _ground}.
     */
    private _groundWeights(): void {
        for (let g = 0; g < 2; g++) {
            const height = this.goalPositions[g].y - this.positionScale[1];
            const x = height <= FOOT_IK_GROUND ? 0 : height >= FOOT_IK_AIR ? 1 : (height - FOOT_IK_GROUND) / (FOOT_IK_AIR - FOOT_IK_GROUND);
            this._ground[g] = 1 - x * x * x * (x * (6 * x - 15) + 10);
        }
    }

    /**
     * `"legs"`, with the source's thigh share known: per foot, what the thigh and shin sharing the
     * leg otherwise than the source's do to where the foot is, into {@link _shareFit} (rig space,
     * metres). The leg as decoded with the source's share, `hip + s L u + (1 - s) L v` (u, v the
     * thigh's and shin's directions, L this leg's length), puts the foot where the source's goal
     * is, scaled; this leg puts it at `hip + a u + b v`: the difference is `(a - s L) (u - v)`.
     * Across, the foot goal moves by it; up and down, the body does (their mean over the feet on
     * the ground), so that the IK keeps the source's knee, its direction and bend, however short or
     * long the thigh is. Zero for a leg shared as the source's (the goal is then more exact than the
     * bones: its curves are finer).
     *
     * With the source's T-pose leg directions `u0`, `v0` (clip version 6) the difference in full:
     * where this leg, turned from its own T-pose as decoded, puts the foot (`hip + a u + b v`,
     * `u = R_u u0'`, `R_u` the thigh's world turn from this avatar's T-pose, `u0'` its T-pose
     * direction) less where the source's leg, turned alike and scaled to this leg's length,
     * puts it: `c = a u + b v - s L R_u u0 - (1 - s) L R_v v0` (`s L = a` without the share). It
     * holds the share's term and what the two T-poses lean the leg by: a leg that leans forward in
     * its T-pose (the KayKit mannequin's, 1.2 degrees) keeps that lean under a source whose legs
     * hang straight, as a rotation copy does. Zero on the source's own skeleton.
     *
     * Returns whether the share or the directions are known. Needs the forward kinematics of the
     * legs (after seating).
     */
    private _fitLegShare(): boolean {
        const sp = this.sourceProportions;
        const share = sp[6];
        const known = share > 0 && share < 1;
        // The source's T-pose thigh and shin directions (left; the right's mirrored), canonical.
        const lean = sp[9] === sp[9] && sp[12] === sp[12];
        if (lean) this._prepareLean();
        const pos = this.positions;
        const t = this._leanDir;
        for (let g = 0; g < 2; g++) {
            const c = this._shareFit[g];
            c.x = 0;
            c.y = 0;
            c.z = 0;
            if (!known && !lean) continue;
            const hj = this.ik.upperJoint(g);
            const kj = this.ik.middleJoint(g);
            const hip = pos[hj];
            const knee = pos[kj];
            const end = pos[this.ik.endJoint(g)];
            const ux = knee.x - hip.x;
            const uy = knee.y - hip.y;
            const uz = knee.z - hip.z;
            const vx = end.x - knee.x;
            const vy = end.y - knee.y;
            const vz = end.z - knee.z;
            const a = Math.sqrt(ux * ux + uy * uy + uz * uz);
            const b = Math.sqrt(vx * vx + vy * vy + vz * vz);
            if (!(a > 1e-9 && b > 1e-9)) continue;
            if (lean) {
                // c = a u + b v - s L R_u u0 - (1 - s) L R_v v0 (see `_prepareLean`); without the
                // share, this leg's own (s L = a).
                const su = known ? share * (a + b) : a;
                const sv = known ? (1 - share) * (a + b) : b;
                this._leanRest[2 * g].applyRotationQuaternionToRef(this.world[hj], t);
                c.x = ux + vx - su * t.x;
                c.y = uy + vy - su * t.y;
                c.z = uz + vz - su * t.z;
                this._leanRest[2 * g + 1].applyRotationQuaternionToRef(this.world[kj], t);
                c.x -= sv * t.x;
                c.y -= sv * t.y;
                c.z -= sv * t.z;
                continue;
            }
            const k = a - share * (a + b);
            c.x = k * (ux / a - vx / b);
            c.y = k * (uy / a - vy / b);
            c.z = k * (uz / a - vz / b);
        }
        return known || lean;
    }

    /**
     * `"legs"`: moves a foot's IK target up or down (rig up, so that a foot on the ground slides
     * nowhere) towards where its distance from the hip is what the leg bent as decoded (the
     * source's knee) reaches: the whole difference while it is small, never more than about
     * {@link LEG_SHAPE_SLACK} of the leg (`slack * tanh(difference / slack)`), less as the leg
     * leans from hanging down (by the square of its cosine: a level leg is not made shorter or
     * longer by moving its foot up or down), and a held foot no deeper than
     * {@link LEG_SHAPE_FLOOR_SLACK} of the slack into the floor. The knee keeps
     * the source's bend where legs of other lengths, a floor a few millimetres off or a held foot
     * would otherwise bend or straighten it by degrees (near straight, a millimetre is degrees of
     * knee); what is left past the slack the IK closes. Smooth in the target. Needs the forward
     * kinematics of the legs (after seating).
     */
    private _keepLegShape(g: number, target: Vector3, afterPlanting: boolean): void {
        const pos = this.positions;
        const hip = pos[this.ik.upperJoint(g)];
        const end = pos[this.ik.endJoint(g)];
        const up = this._up;
        const vx = target.x - hip.x;
        const vy = target.y - hip.y;
        const vz = target.z - hip.z;
        const d = Math.sqrt(vx * vx + vy * vy + vz * vz);
        const ex = end.x - hip.x;
        const ey = end.y - hip.y;
        const ez = end.z - hip.z;
        const slack = LEG_SHAPE_SLACK * this._setup.legLength;
        if (!(d > 1e-9 && slack > 0)) return;
        // How far down the leg hangs (cosine from straight down).
        const down = -(vx * up.x + vy * up.y + vz * up.z) / d;
        if (!(down > 0)) return;
        const reach = Math.sqrt(ex * ex + ey * ey + ez * ez);
        // The goal's distance past the reach, given back smoothly up to the slack (tanh).
        const given = slack * Math.tanh((d - reach) / slack);
        // Moving the foot up by s shortens the hip-foot distance by s * down (to first order); the
        // give is weighted by down^2 (all of it hanging straight, none level, smoothly), so s = given * down.
        let shift = given * down;
        // After planting, a held foot is not pushed into the floor (planting lifted it onto it):
        // down by its clearance at most ({@link footClearance}).
        // (Read here, not passed: a number passed to a call V8 does not inline is boxed.)
        const held = afterPlanting ? this.footGrounded[g] : 0;
        if (held > 0) {
            const c = this.footClearance[g];
            const lowest = -(c > 0 ? c : 0) - LEG_SHAPE_FLOOR_SLACK * slack;
            // max(shift, lowest) with its corner rounded by a parabola over lowest +- e (a kink
            // would jerk); shift itself from lowest + e up (so never above 0).
            const e = 0.5 * LEG_SHAPE_FLOOR_SLACK * slack;
            const q = shift - lowest + e;
            const floored = q >= 2 * e ? shift : q <= 0 ? lowest : lowest + (q * q) / (4 * e);
            shift = floored * held + shift * (1 - held);
        }
        target.x += up.x * shift;
        target.y += up.y * shift;
        target.z += up.z * shift;
    }

    /**
     * The source's T-pose leg directions (the clip's, {@link sourceProportions} [9..14]) in this
     * avatar's rig space, turned back by its legs' T-pose world rotations (`W0^-1 c0 u0`), into
     * `_leanRest` [left thigh, left shin, right thigh, right shin]; the right leg's are the left's
     * mirror image (canonical x negated). Only when the clip's directions change (no number is
     * handed to a call per frame: V8 boxes those).
     */
    private _prepareLean(): void {
        const sp = this.sourceProportions;
        const key = this._leanKey;
        if (sp[9] === key[0] && sp[10] === key[1] && sp[11] === key[2] && sp[12] === key[3] && sp[13] === key[4] && sp[14] === key[5]) return;
        for (let i = 0; i < 6; i++) key[i] = sp[9 + i];
        for (let k = 0; k < 4; k++) {
            const v = this._leanRest[k];
            const at = k % 2 === 0 ? 9 : 12;
            v.x = k < 2 ? sp[at] : -sp[at];
            v.y = sp[at + 1];
            v.z = sp[at + 2];
            v.applyRotationQuaternionInPlace(this._setup.c0).applyRotationQuaternionInPlace(this._legRestInverse[k]);
        }
    }

    /** Moves the hips (in their parent's space) and the forward kinematics below them by `offset` (rig space). */
    private _moveBody(offset: Vector3): void {
        const setup = this._setup;
        const pos = this.positions;
        const hips = setup.joint[HumanBone.Hips];
        const hp = setup.rigParent[hips];
        const fk = this.ik.fkJoints;
        for (let k = 0; k < fk.length; k++) if (setup.belowHips[fk[k]]) pos[fk[k]].addInPlace(offset);
        Vector3CopyToRef(offset, tmpV);
        if (hp >= 0) {
            QuaternionConjugateToRef(this.world[hp], tmpQ);
            tmpV.applyRotationQuaternionInPlace(tmpQ).divideInPlace(setup.worldScale[hp]);
        }
        this.pose.positions[hips].addInPlace(tmpV);
    }

    /**
     * A goal in rig space: position (metres) and world rotation of its bone, as the last
     * {@link decode} maps it (feet by {@link positionScale}, hands with the body; before the body
     * is moved by {@link bodyOffset}).
     * @param goal which goal
     */
    public goalToRig(goal: HumanIKGoal, position: Vector3, rotation: Quaternion): void {
        const setup = this._setup;
        const p = this.goalPositions[goal];
        if (goal < HumanIKGoal.LeftHand) {
            this._footToRig(p, position);
        } else {
            // Hands: relative to the body, which decoding placed by the avatar's scale.
            const scale = setup.scale;
            tmpV.x = p.x * scale;
            tmpV.y = p.y * scale;
            tmpV.z = p.z * scale;
            tmpV.applyRotationQuaternionToRef(setup.c0, position).addInPlace(setup.groundOrigin);
        }
        // W = c0 * Dc * (c0^-1 * W0)
        QuaternionMultiplyToRef(setup.c0, this.goalRotations[goal], tmpQ);
        QuaternionMultiplyToRef(tmpQ, setup.tposeCanonical[GOAL_BONES[goal]], rotation);
    }

    /**
     * `"legs"`: the hips turned as the source's were, not as the body frame (from hips and
     * shoulders together) puts them: the legs hang from the hips, and a spine of other proportions
     * would otherwise swing them forward or back (and the foot IK bend them back), as it turns the
     * torso and arms. `W = c0 * (bodyRotation * hipsRotation) * (c0^-1 * W0)`, local = `P^-1 * W`
     * with P the hips' parent's world rotation (T-pose).
     */
    private _turnHipsAsSource(human: HumanPose): void {
        const setup = this._setup;
        const hips = setup.joint[HumanBone.Hips];
        const hp = setup.rigParent[hips];
        const w = this._hipsWorld;
        QuaternionMultiplyToRef(human.bodyRotation, human.hipsRotation, w);
        QuaternionMultiplyToRef(setup.c0, w, w);
        QuaternionMultiplyToRef(w, setup.tposeCanonical[HumanBone.Hips], w);
        if (hp >= 0) {
            QuaternionConjugateToRef(setup.work.world[hp], tmpQ);
            QuaternionMultiplyToRef(tmpQ, w, this.pose.rotations[hips]);
        } else {
            this.pose.rotations[hips].copyFrom(w);
        }
    }

    /** A foot or hips position (canonical, pose units) in rig space (metres): by the position scale, its height from the source's ankle onto the avatar's. */
    private _footToRig(p: Vector3, position: Vector3): void {
        const ps = this.positionScale;
        const scale = ps[0];
        tmpV.x = p.x * scale;
        tmpV.y = (p.y - ps[1]) * scale + ps[2];
        tmpV.z = p.z * scale;
        tmpV.applyRotationQuaternionToRef(this._setup.c0, position).addInPlace(this._setup.groundOrigin);
    }

    /** Decodes and solves in one call. Returns {@link pose}. */
    public solve(human: HumanPose, deltaSeconds = 0): IRigPose {
        this.decode(human);
        return this.solveIK(deltaSeconds);
    }
}
