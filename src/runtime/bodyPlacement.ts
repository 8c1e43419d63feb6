import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { ForwardKinematicsToRef } from "../muscle/kinematics.js";
import type { MuscleSetup } from "../muscle/setup.js";
import { CriticallyDampedStepInPlace } from "../math/dampedSpring.js";
import { SoftAtLeastOneInPlace } from "../math/softAtLeastOne.js";
import { QuaternionConjugateToRef, Vector3CopyToRef, Vector3LerpToRef } from "../math/hotMath.js";
import { HumanoidCommonHold } from "./commonHold.js";
import { FootGroundWeightsToRef } from "./footGroundWeight.js";
import type { HumanoidLegShape } from "./legShape.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * The trunk's steady point (see `seatBodyOnLegs`) is kept as the source's above this frequency
 * (Hz): above the motion's own band (a walk's pelvis moves at 1 to 3 Hz), where mocap's jitter is.
 */
const TRUNK_HZ = 6;
/**
 * How fast the body follows what the feet on the ground need of it (`"legs"`, see
 * {@link HumanoidBodyPlacement.prepareLegs}): a critically damped spring's frequency, hertz. The
 * need is weighed by each foot's height (its goal's weight goes from 0 to 1 over 0.2 source
 * scales), so it comes in over the few frames a landing foot takes to cross that band (30-40 ms);
 * applied at once, the body's velocity stepped at every landing (KayKit's death onto human
 * characters 1.35-1.55x the source's jerk, 1.15-1.30x now; its forward dodge 1.17-1.33x, 0.97-1.07x).
 * Above a walk's steps (1-3 Hz), as the trunk's steady point's filter (`TRUNK_HZ`): a stride's lift
 * passes.
 */
const LIFT_HZ = 6;
/**
 * Most the trunk's steady point moves the body, avatar scales (1.5 cm at 1 m), softly (tanh):
 * markers' jitter is millimetres, and a large fast turn of a trunk much longer or shorter than
 * the source's (a fall) is motion, not jitter.
 */
const TRUNK_CAP = 0.015;

/** The body is never lowered by more than this share of the leg's length for the feet. */
const MAX_BODY_DROP = 0.3;
/** How fast the body drop follows what the feet need (critically damped spring, hertz). */
const BODY_DROP_HZ = 3;
/** The body drop lags what the feet need by at most this share of the legs' stretch. */
const BODY_DROP_LAG = 0.6;

const tmpV = new Vector3();
const tmpQ = new Quaternion();

/**
 * Scratch shared by every placement (the per-frame path is single-threaded and no placement call
 * runs inside another's): held per solver, it was more of each animator to bring into the cache
 * every frame.
 */
const scratch = {
    /** A foot's IK target (rig space) and its goal's rotation. */
    target: new Vector3(),
    targetRot: new Quaternion(),
    /** A move of the body, or a foot target before it was moved (rig space). */
    shift: new Vector3(),
    /** The number handed to the lerp: a foot goal's position weight. */
    weights: new Float64Array(1),
    /** The trunk's steady point's difference from the source's this solve (rig space, metres; see `seatBodyOnLegs`). */
    trunkNow: new Float64Array(3),
    /** The middle of the hip joints as decoded, before the seat moved them (rig space). */
    trunkMid: new Vector3(),
    /** A spring step's numbers: [w, dt] (see `CriticallyDampedStepInPlace`). */
    springStep: new Float64Array(2),
};

/**
 * Where a {@link HumanoidRigSolver} puts the body over the feet, by its proportion mode (its
 * `proportions`). With `"legs"`: the body seated on the clip's hips scaled by the legs, with the
 * trunk's steady point ({@link seatBodyOnLegs}); then up or down, and the foot goals across, by
 * what the legs' shape needs of them (`HumanoidLegShape`; {@link prepareLegs}); each foot goal's
 * weight by its height (`FootGroundWeightsToRef`); and the body carried along with what the planted
 * feet hold in common ({@link followCommonHold}). With `"com"`: the body lowered for feet beyond
 * the legs' length ({@link lowerBody}). Owned by its solver, which calls it from `decode` and
 * `solveIK`; it reads and writes the solver's public state (its pose, forward kinematics, goals,
 * {@link HumanoidRigSolver.bodyOffset}). Allocation-free after construction.
 */
export class HumanoidBodyPlacement {
    /** The clip's hips of the last decode (canonical, pose units); the solver's `decode` writes them, {@link seatBodyOnLegs} seats the body on them. */
    public readonly clipHips = new Vector3();
    /** Per foot, how much its goal holds by its height (`FootGroundWeightsToRef`). */
    public readonly ground = new Float64Array(2);
    /**
     * The last time step kept ({@link noteStep}, {@link noteFrameStep}; seconds, 0 when none): the
     * next decode's low-passes step by it, and the feet's soles when decode is given none. In an
     * array, handed on as it is (no number boxed on the way).
     */
    public readonly keptStep = new Float64Array(1);
    private readonly _solver: HumanoidRigSolver;
    private readonly _setup: MuscleSetup;
    private readonly _legShape: HumanoidLegShape;
    private readonly _up: Vector3;
    /** What the planted feet hold in common, followed (see {@link followCommonHold}). */
    private readonly _commonHold: HumanoidCommonHold;
    /** The body drop's spring: [0] where it is, [1] its rate, [2] what the feet need (metres; see {@link lowerBody}). */
    private readonly _drop = new Float64Array(3);
    private _dropFresh = true;
    /** The lift's spring: value and velocity (metres, metres a second), the need it follows, the lift applied. */
    private readonly _lift = new Float64Array(4);
    /** The lift starts afresh at its next use (a reset, a jump, legs that cannot be fitted). */
    private _liftFresh = true;
    /** The step was the decoded frame's own ({@link noteFrameStep}): a zero step holds the low-passes still. */
    private _frameStep = false;
    /** The array {@link noteFrameStep} was last given (the player's `step`): `solveIK` given the same one steps by the frame's own step. */
    private _frameStepArray: Float64Array | null = null;
    /** The joints between the limb IK's forward kinematics and the trunk's top (`MuscleSetup.trunkTop`), parents first. */
    private readonly _trunkJoints: Int32Array;
    /** The trunk's steady point's difference from the source's, low-passed ([0..2]), and its rate ([3..5]) (rig space, metres; see {@link seatBodyOnLegs}). */
    private readonly _trunkLow = new Float64Array(6);
    /** Whether the low-pass starts afresh at the next seat. */
    private _trunkFresh = true;

    /**
     * @param solver the solver that owns it (its pose, limb IK, `world` and `positions` made)
     * @param setup the solver's avatar's muscle setup
     * @param legShape the solver's leg shape, which {@link prepareLegs} fits the feet and the body by
     */
    constructor(solver: HumanoidRigSolver, setup: MuscleSetup, legShape: HumanoidLegShape) {
        this._solver = solver;
        this._setup = setup;
        this._legShape = legShape;
        this._commonHold = new HumanoidCommonHold(setup);
        this._up = solver.avatar.frame.up.clone();
        const inFk = new Set(solver.ik.fkJoints);
        const path: number[] = [];
        for (let j = setup.trunkTop; j >= 0 && !inFk.has(j); j = setup.rigParent[j]) path.unshift(j);
        this._trunkJoints = Int32Array.from(path);
    }

    /** Forgets the body drop's, the trunk's, the lift's and the common hold's motion (the solver's `resetSmoothing`). */
    public resetSmoothing(): void {
        this._dropFresh = true;
        this._liftFresh = true;
        this._trunkFresh = true;
        this._commonHold.reset();
    }

    /**
     * Keeps `solveIK`'s time step (`step[0]`, seconds; 0 when not a positive finite number) for the
     * next seat's low-passes (the trunk's steady point, the feet's lift), which start afresh when it
     * is 0 (a pose set directly). In an array: no number is boxed on the way.
     */
    public noteStep(step: Float64Array): void {
        this._keepStep(step, step === this._frameStepArray);
    }

    /**
     * Keeps the time step of the frame being decoded (`decode`'s `step`, as {@link noteStep}): the
     * seat's low-passes step by it, and hold still when it is 0 (no time passed: a paused clip,
     * a bad step), rather than starting afresh.
     */
    public noteFrameStep(step: Float64Array): void {
        this._frameStepArray = step;
        this._keepStep(step, true);
    }

    /** Keeps `step[0]` (0 when not a positive finite number) and whether it is the decoded frame's own. */
    private _keepStep(step: Float64Array, frame: boolean): void {
        this.keptStep[0] = step[0] > 0 && step[0] < Infinity ? step[0] : 0;
        this._frameStep = frame;
    }

    /**
     * No time step is known for this seat (a pose set directly: `solveIK`'s last step was 0 and
     * decode was given none): the seat's low-passes start afresh rather than step or hold.
     */
    private get _noTimeKnown(): boolean {
        return !(this.keptStep[0] > 0 || this._frameStep);
    }

    /** Forward kinematics of the limbs and their ancestors (`HumanoidLimbIK.fkJoints`) into the solver's `world` and `positions`. */
    private _forwardKinematics(): void {
        const solver = this._solver;
        ForwardKinematicsToRef(this._setup, solver.pose.rotations, solver.pose.positions, solver.world, solver.positions, solver.ik.fkJoints);
    }

    /**
     * `"legs"` proportions: moves the body so that the hips (the middle of the upper-leg joints)
     * are where the clip's are, scaled as the feet are (by the legs, heights from the ankles): the
     * body then sits where the character's own legs put it under the feet, and the limb IK corrects
     * only what the leg shapes differ by. Sets {@link HumanoidRigSolver.bodyOffset}.
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
     * low-pass at `TRUNK_HZ`: over the jitter's band the steady point moves as the source's,
     * over the motion's own the hips stay on the legs. The move is capped softly at `TRUNK_CAP`.
     * Nothing for clips without the trunk (files before version 5), a trunk as long as the
     * source's, or a source whose hips are its steadiest point.
     */
    public seatBodyOnLegs(): void {
        const pos = this._solver.positions;
        const o = this._solver.bodyOffset;
        this.footToRig(this.clipHips, o);
        const l = pos[this._solver.ik.upperJoint(0)];
        const r = pos[this._solver.ik.upperJoint(1)];
        const mid = scratch.trunkMid;
        mid.x = (l.x + r.x) * 0.5;
        mid.y = (l.y + r.y) * 0.5;
        mid.z = (l.z + r.z) * 0.5;
        o.subtractInPlace(mid);
        const sp = this._solver.sourceProportions;
        if (sp[7] > 0 && sp[8] > 0 && this._setup.trunkLength > 0) this._steadyTrunk();
        this._moveBody(o);
    }

    /**
     * The trunk's steady point's move, added to {@link HumanoidRigSolver.bodyOffset} (see
     * {@link seatBodyOnLegs}), from the hips' middle as decoded (the scratch's `trunkMid`).
     */
    private _steadyTrunk(): void {
        const setup = this._setup;
        const mx = scratch.trunkMid.x;
        const my = scratch.trunkMid.y;
        const mz = scratch.trunkMid.z;
        ForwardKinematicsToRef(setup, this._solver.pose.rotations, this._solver.pose.positions, this._solver.world, this._solver.positions, this._trunkJoints);
        const top = this._solver.positions[setup.trunkTop];
        const sp = this._solver.sourceProportions;
        const f = (1 - (this._solver.positionScale[0] * sp[7]) / setup.trunkLength) * sp[8];
        const d = scratch.trunkNow;
        d[0] = (top.x - mx) * f;
        d[1] = (top.y - my) * f;
        d[2] = (top.z - mz) * f;
        const lo = this._trunkLow;
        const dt = this.keptStep[0];
        if (this._trunkFresh || this._noTimeKnown) {
            // Afresh, or no time known (a pose set directly): nothing to filter.
            lo[0] = d[0];
            lo[1] = d[1];
            lo[2] = d[2];
            lo[3] = lo[4] = lo[5] = 0;
            this._trunkFresh = false;
        } else if (dt > 0) {
            // Critically damped, exact for the step (as the body drop's), per axis.
            const p = scratch.springStep;
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
        const o = this._solver.bodyOffset;
        o.x -= hx;
        o.y -= hy;
        o.z -= hz;
    }

    /**
     * `"legs"`, at the end of {@link HumanoidRigSolver.decode} when a foot has IK: the forward
     * kinematics, the body seated on the clip's hips, and each foot goal kept where the leg bent as
     * the source's reaches when it is close to it (`HumanoidLegShape.keepLegShape`), before
     * planting holds the goals.
     */
    public prepareLegs(): void {
        this._forwardKinematics();
        this._solver.bodyOffset.setAll(0);
        this.seatBodyOnLegs();
        const scale = this._solver.positionScale[0];
        if (!(scale > 0)) return;
        const target = scratch.target;
        const before = scratch.shift;
        const up = this._up;
        // The body's lift, metres along up (below): a foot off the ground goes with it. With it, past
        // its spring and whether or not the leg's shape is fitted, the feet's soles' move of the
        // whole figure (the solver's `soleShift`, made smooth there; the foot goals on the ground
        // went by it in decode).
        let lifted = this._solver.soleShift[0];
        if (this._legShape.fitLegShare()) {
            // The body up or down by what the feet on the ground need of it (their mean, the
            // nearer the ground the more), so that the legs reach the floor with the source's bends.
            // In the air it keeps the mean of what the legs with IK need (over the same soft
            // maximum as one grounded foot's need; a foot in the air goes with the lift, below, as
            // far as the clip has it off the ground): each leg counts also by an equal share of
            // what the two feet's weights leave, (1 - w_l)(1 - w_r) (smooth in both; the weights'
            // sum becomes 1 + w_l w_r). Without it the need fell to 0 in the air and came back
            // within the few frames a landing foot falls through its weight's band (a jump's: 8
            // frames at 120 fps), and the body moved by it in mid-air (see `_smoothLift`).
            //
            // A foot off the ground by the clip's contacts counts only as far as the other foot is
            // off the ground too: w (s + (1 - s)(1 - s_other)), s the feet's ground shares. In one
            // foot's stance the body is that leg's need alone, in the air and in a double stance as
            // before. A low swinging foot (a sneak's, a crouch's) counted by its height alone, and
            // the body sat between what the stance leg and the swinging leg needed: the stance
            // foot then gave up its leg shape's slack and floated (KayKit's crouch onto six
            // characters 0.03-0.08 leg over the floor, more than its source's own; pure contacts
            // kept the lift 0.2 s into a child's jump, the twenty-eighth session).
            FootGroundWeightsToRef(this._solver, this.ground);
            const w = this.ground;
            const pw = this._solver.positionWeights;
            const gs = this._solver.footGroundShare;
            const gl = gs[0] > 0 ? (gs[0] < 1 ? gs[0] : 1) : 0;
            const gr = gs[1] > 0 ? (gs[1] < 1 ? gs[1] : 1) : 0;
            const wl = pw[0] > 0 && w[0] > 0 ? w[0] * (gl + (1 - gl) * (1 - gr)) : 0;
            const wr = pw[1] > 0 && w[1] > 0 ? w[1] * (gr + (1 - gr) * (1 - gl)) : 0;
            const legs = (pw[0] > 0 ? 1 : 0) + (pw[1] > 0 ? 1 : 0);
            const air = legs > 0 ? ((pw[0] > 0 ? 1 - wl : 1) * (pw[1] > 0 ? 1 - wr : 1)) / legs : 0;
            let shift = 0;
            let total = 0;
            for (let g = 0; g < 2; g++) {
                if (!(pw[g] > 0)) continue;
                const c = this._legShape.shareFit[g];
                const weight = (g === 0 ? wl : wr) + air;
                shift -= weight * (c.x * up.x + c.y * up.y + c.z * up.z);
                total += weight;
            }
            // Numbers go on through the lift's array (see `hotMath`): [2] the need, [3] the lift.
            const lift = this._lift;
            lift[3] = total;
            SoftAtLeastOneInPlace(lift, 3);
            lift[2] = total > 0 ? shift / lift[3] : 0;
            this._smoothLift();
            lifted = lift[3] + lifted;
        } else {
            this._liftFresh = true;
        }
        if (lifted !== 0) {
            before.x = up.x * lifted;
            before.y = up.y * lifted;
            before.z = up.z * lifted;
            this._solver.bodyOffset.addInPlace(before);
            this._moveBody(before);
        }
        for (let g = 0; g < 2; g++) {
            if (!(this._solver.positionWeights[g] > 0)) continue;
            this.footToRig(this._solver.goalPositions[g], target);
            Vector3CopyToRef(target, before);
            // Across: the foot where this leg bent as decoded puts it. Up and down, as far as the
            // foot stands on the ground (`footGroundShare`), the source's height (the body went up
            // or down for the leg's shape, above); off it, where the leg bent as decoded puts it,
            // the body's lift included (a foot in the air keeps the source's knee rather than
            // its height over the floor).
            const c = this._legShape.shareFit[g];
            const along = c.x * up.x + c.y * up.y + c.z * up.z;
            const rise = (along + lifted) * (1 - this._solver.footGroundShare[g]);
            target.x += c.x + (rise - along) * up.x;
            target.y += c.y + (rise - along) * up.y;
            target.z += c.z + (rise - along) * up.z;
            this._legShape.keepLegShape(g, target, false);
            // Back to the goal's units: rig-space change, unrotated from the canonical frame, over the scale.
            target.subtractInPlace(before).applyRotationQuaternionInPlace(this._setup.c0Inverse);
            const goal = this._solver.goalPositions[g];
            goal.x += target.x / scale;
            goal.y += target.y / scale;
            goal.z += target.z / scale;
        }
    }

    /**
     * The feet's lift of the body (its need, `_lift[2]`, metres along up) through a critically
     * damped spring at `LIFT_HZ`, exact for the step, lagging the need by at most `BODY_DROP_LAG` of
     * what the leg may stretch (softly: need + lag tanh((spring - need) / lag), no corner), into
     * `_lift[3]`.
     */
    private _smoothLift(): void {
        const s = this._lift;
        const need = s[2];
        const dt = this.keptStep[0];
        if (this._liftFresh || this._noTimeKnown || !Number.isFinite(s[0] + s[1])) {
            // Afresh, or no time known (a pose set directly): nothing to smooth.
            s[0] = need;
            s[1] = 0;
            s[3] = need;
            this._liftFresh = false;
            return;
        }
        if (dt > 0) {
            const p = scratch.springStep;
            p[0] = 2 * Math.PI * LIFT_HZ;
            p[1] = dt;
            CriticallyDampedStepInPlace(s, 0, 1, s, 2, 1, p);
        }
        const lag = BODY_DROP_LAG * this._solver.stretch[0] * this._solver.ik.limbLengths[0];
        s[3] = lag > 0 ? need + lag * Math.tanh((s[0] - need) / lag) : need;
    }

    /**
     * `"legs"`: moves the body (and all above its hips) by what the two feet's planting
     * corrections hold in common across the ground (`HumanoidCommonHold`), so that a source whose
     * whole figure slides over the floor with both feet down keeps its legs' shape.
     * Steps by the step {@link noteStep} kept (`solveIK` notes it first): a zero step that is the
     * frame's own (a paused clip) holds it still, and with no time known it goes to the hold at
     * once, as the body drop, the lift and the trunk's steady point do.
     */
    public followCommonHold(): void {
        const step = this.keptStep;
        if (!this._commonHold.update(this._solver, step, scratch.shift, this._noTimeKnown)) return;
        this._solver.bodyOffset.addInPlace(scratch.shift);
        this._moveBody(scratch.shift);
    }

    /**
     * Lowers the hips (and everything below them) so that each weighted foot goal is within its
     * leg's length. The drop follows what the feet need through a critically damped spring (so the
     * body moves smoothly as one foot or the other sets it), but never lags by more than the legs
     * can stretch. A zero step that is the decoded frame's own (`decode` and `solveIK` given the
     * same step array: a paused clip) holds it where it is; a zero step otherwise (no time known)
     * sets it to the need at once. Steps by the step {@link noteStep} kept (`solveIK` notes it first).
     * Sets {@link HumanoidRigSolver.bodyDrop} (metres).
     */
    public lowerBody(): void {
        const up = this._up;
        const pos = this._solver.positions;
        const weights = scratch.weights;
        let drop = 0;
        for (let g = 0; g < 2; g++) {
            const w = this._solver.positionWeights[g];
            if (!(w > 0)) continue;
            const upper = this._solver.ik.upperJoint(g);
            const end = this._solver.ik.endJoint(g);
            this._solver.goalToRig(g, scratch.target, scratch.targetRot);
            weights[0] = w < 1 ? w : 1;
            Vector3LerpToRef(pos[end], scratch.target, weights, 0, scratch.target);
            const v = scratch.target.subtractInPlace(pos[upper]);
            const along = v.x * up.x + v.y * up.y + v.z * up.z;
            const across2 = v.x * v.x + v.y * v.y + v.z * v.z - along * along;
            const l = this._solver.ik.limbLengths[g];
            // Need |along + drop| <= sqrt(l^2 - across^2); a goal too far sideways gets level with the hip at most.
            const need = -along - (across2 < l * l ? Math.sqrt(l * l - across2) : 0);
            if (need > drop) drop = need;
        }
        const leg = this._solver.ik.limbLengths[0];
        const limit = MAX_BODY_DROP * leg;
        if (drop > limit) drop = limit;
        // Smooth it: x follows the need; it may lag by part of what the stretch can cover.
        // A zero step that is the frame's own (a paused clip) holds it still; without a step
        // known (`solveIK(0)`), afresh at the need.
        const spring = this._drop;
        const dt = this.keptStep[0];
        if (this._dropFresh || this._noTimeKnown || !Number.isFinite(spring[0] + spring[1])) {
            spring[0] = drop;
            spring[1] = 0;
            this._dropFresh = false;
        } else {
            if (dt > 0) {
                const p = scratch.springStep;
                p[0] = 2 * Math.PI * BODY_DROP_HZ;
                p[1] = dt;
                spring[2] = drop;
                CriticallyDampedStepInPlace(spring, 0, 1, spring, 2, 1, p);
            }
            const lag = BODY_DROP_LAG * this._solver.stretch[0] * leg;
            if (spring[0] < drop - lag) spring[0] = drop - lag;
        }
        drop = spring[0];
        if (!(drop > 0)) {
            this._solver.bodyDrop = 0;
            return;
        }
        this._solver.bodyDrop = drop;
        const o = this._solver.bodyOffset;
        o.x = up.x * -drop;
        o.y = up.y * -drop;
        o.z = up.z * -drop;
        this._moveBody(o);
    }

    /** Moves the hips (in their parent's space) and the forward kinematics below them by `offset` (rig space). */
    private _moveBody(offset: Vector3): void {
        const setup = this._setup;
        const pos = this._solver.positions;
        const hips = setup.joint[HumanBone.Hips];
        const hp = setup.rigParent[hips];
        const fk = this._solver.ik.fkJoints;
        for (let k = 0; k < fk.length; k++) if (setup.belowHips[fk[k]]) pos[fk[k]].addInPlace(offset);
        Vector3CopyToRef(offset, tmpV);
        if (hp >= 0) {
            QuaternionConjugateToRef(this._solver.world[hp], tmpQ);
            tmpV.applyRotationQuaternionInPlace(tmpQ).divideInPlace(setup.worldScale[hp]);
        }
        this._solver.pose.positions[hips].addInPlace(tmpV);
    }

    /** A foot or hips position (canonical, pose units) in rig space (metres): by the position scale, its height from the source's ankle onto the avatar's. */
    public footToRig(p: Vector3, position: Vector3): void {
        const ps = this._solver.positionScale;
        const scale = ps[0];
        tmpV.x = p.x * scale;
        tmpV.y = (p.y - ps[1]) * scale + ps[2];
        tmpV.z = p.z * scale;
        tmpV.applyRotationQuaternionToRef(this._setup.c0, position).addInPlace(this._setup.groundOrigin);
    }
}
