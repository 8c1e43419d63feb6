import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import type { IRigPose } from "../humanoid/rig.js";
import type { JointLimits } from "../ik/jointLimits.js";
import { HumanoidLimbIK, type ILimbIKStatus } from "../ik/limbIK.js";
import { CreateReferenceRigPose } from "../muscle/decode.js";
import { HUMAN_IK_GOAL_COUNT, HumanIKGoal, type HumanPose } from "../muscle/humanPose.js";
import { CLIP_PROPORTION_COUNT, ClipLayoutViews } from "../clip/clipProportions.js";
import { MuscleSetup } from "../muscle/setup.js";
import { ForwardKinematicsToRef } from "../muscle/kinematics.js";
import { GOAL_BONES } from "../muscle/encode.js";
import { QuaternionMultiplyToRef } from "../math/hotMath.js";
import { MissingShoulderFold } from "../muscle/shoulderFold.js";
import { CollarboneShake } from "../muscle/collarboneShake.js";
import { TrunkPlaceLowPass } from "../muscle/trunkMatch.js";
import { HumanoidBodyPlacement } from "./bodyPlacement.js";
import { FootGroundWeightsToRef } from "./footGroundWeight.js";
import { PlantedFootHeight } from "./plantedHeight.js";
import { HumanoidLegShape } from "./legShape.js";
import { HumanoidStrideCarry } from "./strideCarry.js";
import { HumanoidFootSole } from "./footSole.js";
import { HumanoidFootRotations } from "./footRotations.js";
import { HumanoidPelvisStance } from "./pelvisStance.js";
import { AimLimitedLimbs } from "./limitedLimbs.js";
import { SolveLimbGoals } from "./limbGoals.js";
import { DecodeIntoRigSolver } from "./rigSolverDecode.js";
import { DEFAULT_LIMB_STRETCH, type ProportionMode } from "./rigSolverSettings.js";

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
     * 1 while planted, easing to 0 after lift-off). The feet's common hold weighs each foot by it.
     * Default 0.
     */
    public readonly footGrounded = new Float64Array(2);
    /**
     * Per foot, 0 to 1: how firmly its IK goal holds it against the leg's own shape this frame
     * (foot planting sets it: as {@link footGrounded}, but eased in over `FLOOR_EASE_SECONDS` from
     * touch-down, from what it was then, and eased out over the release from what it was at
     * lift-off). It matters with `"legs"` proportions, where a foot off the ground follows its goal
     * less the higher it is, unless it is held, and for the feet's rotations of a body past
     * `FOOT_FRAME_TILT_FROM_DEG` of tilt (a held foot keeps the heading's frame). A foot landing
     * above the floor, where its goal's weight is partial, stepped onto the goal in the frame it
     * landed while this stepped to 1 (a child's dab onto the KayKit mannequin: the ankle 2.5 cm in
     * a frame). Default 0.
     */
    public readonly footGoalHold = new Float64Array(2);
    /**
     * Per foot: how surely the source's ankle stands still there, 0 to 1 (set by planting: the
     * clip's still end as planting weighs it in, `FootContact.LeftAnkleStill`): with
     * {@link footGoalHold}, how much of the foot's height goes through `PlantedFootHeight`. Default 0.
     */
    public readonly footAnkleStill = new Float64Array(2);
    /**
     * Per foot, 0 to 1: how much it stands on the ground by the clip's contacts (the animator sets
     * it before each decode: 1 in a contact, easing to 0 over the contact blend after one ends and
     * from 0 before one begins, `HumanoidClipPlayer.groundSharesToRef`). With `"legs"` proportions
     * a foot's height is the clip's where it is 1 (the body goes up or down for the leg's shape)
     * and where the leg bent as the source's puts it where it is 0 (docs/runtime.md, the leg's
     * shape). Default 1: every foot's height the clip's.
     */
    public readonly footGroundShare = new Float64Array(2).fill(1);
    /**
     * Per foot, 0 to 1: how much the stride's carry weighs it ({@link carry}, `HumanoidStrideCarry`):
     * how much it stands on the ground by the clip's contacts, whether or not planting holds it yet
     * (during a cross-fade planting holds a foot once its contacts weigh half). The animator sets
     * it before each decode: {@link footGroundShare} with planting on (eased over at least
     * `FLOOR_EASE_SECONDS`, 0.1 s, when the contact blend is shorter), 0 with it off (a foot that is
     * not held has no hip to swing round it). It comes in over the contact blend before a contact
     * begins, so the body starts to swing round a landing foot as the source's foot comes down and
     * the foot lands still (docs/runtime.md, the stride's carry). A caller that drives a solver and
     * `HumanoidFootPlanting` itself sets it the same way (until 2026-12-06 the carry read planting's
     * {@link footGoalHold}). Default 0: no carry.
     */
    public readonly footCarryWeight = new Float64Array(2);
    /**
     * Per foot (left, right): how far above the floor the lower of its ankle and toes is after
     * planting (each from its T-pose height), metres; eased in from touch-down over the height's
     * ease from what it was in the air, and while a release eases out no more than on the hold's
     * last update (so the limit it sets goes with {@link footFloorHold}, not with a foot landing
     * or rising fast); set by planting with {@link footGrounded}, so that "legs" never pushes a
     * held foot into the floor. Infinity when not set.
     */
    public readonly footClearance = new Float64Array(2).fill(Infinity);
    /**
     * Per foot (left, right), 0 to 1: how firmly `"legs"` keeps a foot out of the floor (no deeper
     * than {@link footClearance}): `1 - (1 - footGrounded)(1 - footGroundShare)`, held or about to
     * be by the clip's contacts ({@link footGroundShare} comes in over the contact blend before a
     * contact begins). With {@link footGrounded} alone the limit stepped in the frame a foot landed:
     * the leg's shape had taken a landing foot a few millimetres into the floor in the air, and the
     * limit took them back at once (a foot twice as long as the source's landing on its toes: the
     * knee 4.9 times the source's jerk). Set by planting; default 0.
     */
    public readonly footFloorHold = new Float64Array(2);
    /**
     * Per foot (left, right): what foot planting added to its goal this frame (canonical, pose
     * units, as {@link goalPositions}); {@link decode} sets both to zero. With `"legs"`, what the
     * two hold in common across the ground moves the body instead of bending the legs (see
     * {@link solveIK}).
     */
    public readonly footCorrections = [new Vector3(), new Vector3()];
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
     * the leg, [7] its trunk's length over its scale and [8] its trunk's steadiest point, and the
     * rest of `ClipProportionsToArray`'s layout (leg directions, trunk and shoulder offsets); NaN when not
     * known, which takes this avatar's own. The animator copies its clip player's here
     * every frame.
     */
    public readonly sourceProportions = new Float64Array(CLIP_PROPORTION_COUNT).fill(NaN);
    /** @internal The source's trunk and shoulder layouts within {@link sourceProportions} (views): what decode turns this trunk's segments and shoulders by. */
    public readonly _sourceLayouts = ClipLayoutViews(this.sourceProportions);
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
     * How far the last {@link decode} moved the whole figure up so that the feet on the ground
     * stand on the lower of their ankles and fronts as the source's did (metres along up, negative
     * down; `"legs"` with a clip that gives its source's foot length, else 0; docs/runtime.md, the
     * feet's soles): a character whose foot is shorter than the source's, for its leg, goes down
     * as the source stands on tiptoe. The foot goals on the ground went by it in `decode` (times
     * their ground shares), the body goes by it with the feet's lift. In an array: no number
     * boxed on the way. For inspection.
     */
    public readonly soleShift = new Float64Array(1);
    /** Per foot: how far {@link decode} moved its goal along up for the feet's soles ({@link soleShift} times its ground share, 0 or less; pose units, as {@link goalPositions}). */
    public readonly soleGoalShift = new Float64Array(2);
    /**
     * Per foot (`"legs"`): how far its hip joint stands above where the source's, scaled, stood
     * for the clip's hip sway alone (the hip joints' translations, in hip widths, moving this pelvis's
     * joints by its own width and the source's by its; the pelvis's roll goes to the foot goals
     * whole, see the stance in `decode`): the up-and-down part of that difference,
     * which {@link decode} does not give the foot goals (a foot on the floor stays on it), so the
     * leg's shape has the body go down by it instead (`HumanoidLegShape.fitLegShare`). Pose units,
     * as {@link goalPositions}; 0 without a sway or where the pelvises are alike.
     */
    public readonly hipSwayRise = new Float64Array(2);
    /**
     * The stride's carry of the last {@link decode} (canonical x and z, pose units, `"legs"`): how
     * far the body moved over the held feet that the clip's own path does not have, this decode
     * ([0], [1]) and since the last {@link resetCarry} ([2], [3]). A pelvis wider than the
     * source's, scaled, turning over a held foot carries its hip round that foot further than the
     * source's; the body goes with the hip (minus the change of the held feet's stance offsets,
     * weighed by {@link footCarryWeight}), so the leg keeps the source's lean and the figure's stride
     * is its own (docs/runtime.md, the stride's carry). With {@link carryBody} the body and every
     * goal move by the total; otherwise the caller moves the ground by each step (the animator adds
     * it to the root's travel). 0 with `"com"` proportions or nothing held.
     */
    public readonly carry: Float64Array;
    /**
     * For a character without one or both shoulder bones: what decode needs to fold a missing
     * shoulder's fast turns by place (its slow ones carried from frame to frame; docs/runtime.md,
     * the shoulders); `fastSeconds` 0 folds every turn as a rotation. Null for a character with both.
     */
    public readonly shoulderFold: MissingShoulderFold | null;
    /**
     * The low-pass that makes a mapped shoulder's socket shake as the source's
     * ({@link CollarboneShake}, `MatchCollarboneShakeInPlace`), or null for a character without
     * shoulders or their layout. Forgotten with {@link shoulderFold}.
     */
    public readonly collarboneShake: CollarboneShake | null;
    /**
     * The low-pass that hands the fast part of the hips' piece's turn on to the spine
     * (`TrunkPlaceLowPass`, `MatchTrunkToSource`; docs/runtime.md, the trunk's layout); its
     * `fastSeconds` 0 turns the trunk by its chords only. Forgotten with {@link shoulderFold}.
     */
    public readonly trunkPlace = new TrunkPlaceLowPass();
    /**
     * Whether {@link decode} moves the body and goals by the stride's carry (the animator sets it
     * for the `"clip"` root motion, where the body goes where the clip puts it); false: the carry
     * is only reported in {@link carry}, for the caller to move the ground by. Default true.
     */
    public carryBody = true;
    /**
     * The turn from the pose's frame to the ground's (radians about up, Babylon's sense: the
     * player's ground root's yaw less its shown root's), which the stride's carry is taken in: the
     * ground a foot is held on. The animator sets it before each decode; default 0 (the pose's
     * frame is the ground's).
     */
    public readonly groundYaw = new Float64Array(1);
    /** @internal The stride's carry's state: see `HumanoidStrideCarry`. */
    public readonly _carry = new HumanoidStrideCarry();
    /**
     * Joint limits, or null for none (default null; the animator sets its `jointLimits` here):
     * {@link decode} limits every held bone's rotation before placing the body, and
     * {@link applyJointLimits} limits the pose again after IK.
     */
    public jointLimits: JointLimits | null = null;
    /**
     * Per arm (left, right), 0 to 1: the weight of goals that solve the arm after this solver's own
     * IK (the animator's world goals set it every update). With the arm's own hand weight in
     * {@link positionWeights}, it takes the elbow's give past straight away (`JointLimits.overshoot`):
     * an arm under IK bends a straight elbow its pole's way, and one past straight turned round.
     */
    public readonly armGoalWeights = new Float32Array(2);
    private readonly _step = new Float64Array(1);
    /** @internal The avatar's muscle setup (`MuscleSetup.For(avatar)`). */
    public readonly _setup: MuscleSetup;
    /** @internal Where the body goes over the feet by {@link proportions} (the "legs" seat, the "com" drop): see `HumanoidBodyPlacement`. */
    public readonly _body: HumanoidBodyPlacement;
    /** @internal The feet's soles' move of the figure (footSole.ts); see {@link soleShift}. */
    public readonly _sole: HumanoidFootSole;
    /** @internal The feet's rotations onto this avatar's feet (footRotations.ts). */
    public readonly _footRotations: HumanoidFootRotations;
    /** @internal How the legs keep the source's shape ("legs"): see `HumanoidLegShape`. */
    public readonly _legShape: HumanoidLegShape;
    /** @internal A held foot's height kept still while its source's ankle stands still: see `PlantedFootHeight`. */
    public readonly _plantedHeight: PlantedFootHeight;
    /** @internal Whether the last decode scales by the legs (`"legs"` and the clip gives its source's proportions). */
    public _legs = false;
    /** @internal The pelvis's roll and the feet's stance under `"legs"` (pelvisStance.ts). */
    public readonly _pelvis: HumanoidPelvisStance;
    /** @internal Set by {@link decode} when it ran the forward kinematics and seated the body ("legs"), for the next {@link solveIK}. */
    public _seated = false;

    /** @param avatar the avatar to solve for */
    constructor(avatar: HumanoidAvatar) {
        this.avatar = avatar;
        this._setup = MuscleSetup.For(avatar);
        this.pose = CreateReferenceRigPose(avatar);
        this.ik = new HumanoidLimbIK(avatar);
        const n = avatar.rig.joints.length;
        this.world = Array.from({ length: n }, () => Quaternion.Identity());
        this.positions = Array.from({ length: n }, () => new Vector3());
        this._pelvis = new HumanoidPelvisStance(this, this._setup);
        this.positionScale[0] = this._setup.scale;
        this.positionScale[1] = this._setup.ankleHeight / this._setup.scale;
        this.positionScale[2] = this._setup.ankleHeight;
        this.positionScale[3] = 0;
        // The legs' T-pose world rotations, by this solver's own forward kinematics of the reference pose.
        this._forwardKinematics();
        this._legShape = new HumanoidLegShape(this, this._setup);
        this._plantedHeight = new PlantedFootHeight(this._setup.scale, avatar.frame.up);
        const fold = new MissingShoulderFold(this._setup);
        this.shoulderFold = fold.isActive ? fold : null;
        const shake = new CollarboneShake(this._setup);
        this.collarboneShake = shake.isActive ? shake : null;
        this._body = new HumanoidBodyPlacement(this, this._setup, this._legShape);
        this._sole = new HumanoidFootSole(this._setup.footLength, this._setup.legLength);
        this._footRotations = new HumanoidFootRotations(this._setup);
        this.carry = this._carry.carry;
    }

    /**
     * Decodes a pose into {@link pose} (limbs at rest length) and its IK goals into
     * {@link goalPositions} and {@link goalRotations}.
     * @param human the pose (canonical frame, source avatar scales)
     * @param step if given, the time step since the last frame, seconds, in `step[0]` (the player's
     *   `step`): `"legs"` smooths where the body is seated by it (the trunk's steady point, the feet's
     *   lift, the feet's soles: {@link soleShift}), and holds them still over a zero step. Without it, the last {@link solveIK}'s step,
     *   and none (nothing smoothed) when that was 0. A missing shoulder's low-pass ({@link shoulderFold})
     *   steps by it too; without it, that shoulder folds in as a rotation only.
     */
    public decode(human: HumanPose, step?: Float64Array): void {
        DecodeIntoRigSolver(this, human, step);
    }

    /**
     * Limits every bone {@link jointLimits} holds in {@link pose} (their local rotations; nothing
     * when null): the last step of a frame, after IK and world goals. Returns whether a bone
     * changed. Allocation-free.
     */
    public applyJointLimits(): boolean {
        const limits = this.jointLimits;
        if (!limits || !limits.clampRigPoseInPlace(this.pose)) return false;
        AimLimitedLimbs(this, limits, this._setup);
        return true;
    }

    /**
     * Lets go of every foot planting held: {@link footGrounded}, {@link footGoalHold}, {@link footFloorHold} and {@link footAnkleStill} 0,
     * {@link footClearance} Infinity (their defaults), so the legs keep no floor limit of a hold.
     */
    public clearFootHolds(): void {
        this.footGrounded.fill(0);
        this.footGoalHold.fill(0);
        this.footFloorHold.fill(0);
        this.footAnkleStill.fill(0);
        this.footClearance.fill(Infinity);
    }

    /** Forgets the body drop's and the trunk's motion (after a jump in time or place), so the next solve starts from what it needs. */
    public resetSmoothing(): void {
        this._pelvis.resetRoll();
        // The stride's carry takes no step across the jump; its total stays (the body keeps its
        // place through a cross-fade: `resetCarry` when the motion starts afresh).
        this._carry.skipStep();
        this._sole.reset();
        this._plantedHeight.reset();
        this._body.resetSmoothing();
        if (this.shoulderFold) this.shoulderFold.reset();
        if (this.collarboneShake) this.collarboneShake.reset();
        this.trunkPlace.reset();
    }

    /**
     * Moves the limbs whose weights are above 0 to their goals. Call after {@link decode}.
     * @param deltaSeconds time since the last solve, for the body drop's smoothing (0: no smoothing)
     * @param step if given, the time step is read from `step[0]` instead (the player's `step`); the
     *   same array {@link decode} was given makes it the frame's own step, and a zero one then holds
     *   the body drop still (a paused clip) rather than setting it to its need
     * @returns the pose ({@link pose})
     */
    public solveIK(deltaSeconds = 0, step?: Float64Array): IRigPose {
        // The step goes on in an array (the player's, or ours), so no number is boxed on the way.
        if (!step) {
            this._step[0] = deltaSeconds;
            step = this._step;
        }
        this._body.noteStep(step);
        this._plantedHeight.beginSolve();
        const pw = this.positionWeights;
        const rw = this.rotationWeights;
        if (!(pw[0] > 0 || pw[1] > 0 || pw[2] > 0 || pw[3] > 0 || rw[0] > 0 || rw[1] > 0 || rw[2] > 0 || rw[3] > 0)) {
            this.appliedPositionWeights.fill(0);
            return this.pose;
        }
        // Forward kinematics and the body seated ("legs"), unless decode did both already.
        if (!this._seated) {
            this._forwardKinematics();
            this.bodyOffset.setAll(0);
            if (this._legs) this._body.seatBodyOnLegs();
        }
        this._seated = false;
        this.bodyDrop = 0;
        if (!this._legs && this.lowerBodyForFeet) this._body.lowerBody();
        if (this._legs) {
            FootGroundWeightsToRef(this, this._body.ground);
            this._body.followCommonHold();
        }
        // Each goal onto its limb: its weight, its target, the limb solver (limbGoals.ts).
        SolveLimbGoals(this, step);
        return this.pose;
    }

    /** Forward kinematics of the limbs and their ancestors ({@link HumanoidLimbIK.fkJoints}) into {@link world} and {@link positions}. */
    private _forwardKinematics(): void {
        ForwardKinematicsToRef(this._setup, this.pose.rotations, this.pose.positions, this.world, this.positions, this.ik.fkJoints);
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
            this._body.footToRig(p, position);
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
     * Forgets the stride's carry ({@link carry}): its total back to 0 and no step taken at the next
     * decode. The animator calls it when the motion starts afresh (a play without fade, a seek, a
     * change of root motion) and, where the body goes where the clip puts it, at a loop.
     */
    public resetCarry(): void {
        this._carry.reset();
    }

    /**
     * Decodes and solves in one call (the decode without a step: a missing shoulder folds in as a
     * rotation only, see {@link shoulderFold}). Returns {@link pose}.
     */
    public solve(human: HumanPose, deltaSeconds = 0): IRigPose {
        this.decode(human);
        return this.solveIK(deltaSeconds);
    }
}
