import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { HumanPose } from "../muscle/humanPose.js";
import type { MuscleSetup } from "../muscle/setup.js";
import { HipsKeptChains, ScaleHipsRollToRef, TurnHipsAsSourceInPlace } from "../muscle/hipsTurn.js";
import { TranslationDofSlot } from "../muscle/translationDof.js";
import { QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * The time constant of the low-pass through which how much the feet stand reaches the pelvis's
 * roll scaling, seconds (`decode`; `ScaleHipsRollToRef`'s `share[1]`): longer than a run's flight
 * between two steps (a tenth to a fifth of a second), so the scale does not change with each
 * step, shorter than a flying kick's or a cartwheel's time off the ground (half a second and
 * more), where the roll's scaling fades out as before.
 */
export const ROLL_GROUND_SECONDS = 0.3;

/** The translation DoF slots of the two hip joints (see `TranslationDofBones`). */
const LEFT_HIP_SLOT = TranslationDofSlot[HumanBone.LeftUpperLeg];
const RIGHT_HIP_SLOT = TranslationDofSlot[HumanBone.RightUpperLeg];

const tmpV = new Vector3();
const tmpQ = new Quaternion();
/** Scratch shared by every instance (the per-frame path is single-threaded): a foot's move across for the two pelvises' widths, and what the hips' translations move the left foot by, the right by its negative (canonical, pose units). */
const scratch = {
    offset: new Vector3(),
    sway: new Vector3(),
};

/**
 * The pelvis under `"legs"` proportions, in `HumanoidRigSolver.decode`: its roll scaled to the
 * source's for this pelvis's width ({@link scaleRoll}), and the feet set as far from this
 * pelvis's hip joints as the source's were from its own ({@link placeFeet}). Owned by its
 * solver; reads and writes the solver's pose, foot goals and `hipSwayRise`. Allocation-free after
 * construction.
 */
export class HumanoidPelvisStance {
    /** The pelvis's rotation as {@link scaleRoll} left it (canonical, world): its roll scaled, or the source's where nothing is scaled; {@link placeFeet} reads it. */
    public readonly pelvis = new Quaternion();
    private readonly _solver: HumanoidRigSolver;
    private readonly _setup: MuscleSetup;
    /** The bones that keep their world rotations where the pelvis's roll is scaled, with the joints between the hips and each (`HipsKeptChains`). */
    private readonly _hipsKept: Int32Array;
    /** How much the feet stand, low-passed ([0]), and whether that is running ([1], 1 or 0; see {@link scaleRoll}). */
    private readonly _rollGround = new Float64Array(2);
    /** The roll's share handed to `ScaleHipsRollToRef` (in an array: a number passed to a call is boxed). */
    private readonly _rollShare = new Float64Array(2);

    /**
     * @param solver the solver whose pose and foot goals it works on
     * @param setup the solver's muscle setup
     */
    constructor(solver: HumanoidRigSolver, setup: MuscleSetup) {
        this._solver = solver;
        this._setup = setup;
        this._hipsKept = HipsKeptChains(setup);
    }

    /** The low-pass of how much the feet stand starts afresh at the next {@link scaleRoll} (a jump, a pose without a step, no leg proportions). */
    public resetRoll(): void {
        this._rollGround[1] = 0;
    }

    /**
     * The pelvis's roll, `"legs"`: a pelvis wider than the source's, scaled, raises one hip
     * joint over the other by more as it rolls, and the legs hanging from them must bend or
     * straighten by the difference to stand on the floor (the KayKit mannequin's pelvis is
     * nearly as wide as its legs are long: the X Bot's clip where it stands rolled over one
     * leg put that thigh 3.3 and shin 4.5 degrees off the source's, 0.26 and 0.24 scaled). So
     * the roll's rise is scaled by the two widths' ratio (the source's, scaled, over this
     * one's; never up: a narrower pelvis keeps the source's roll) as far as the roll is small
     * (`HIPS_ROLL_FADE`) or the feet stand, the hip joints rising and falling as the source's
     * did, scaled; the spine and the upper legs keep the turn the source's roll gave them
     * (joints between them and the hips turn with the hips, carrying the hip joints). How much
     * the feet stand is the larger of their ground shares through a low-pass
     * (`ROLL_GROUND_SECONDS`): Mixamo's chicken dance rolls its hips 20 degrees over two planted
     * feet, and on the mannequin the fade let the roll through nearly whole, the stance lifting
     * a planted foot with its hip joint 7 cm off the floor (its feet 4.6 times the source's
     * jerk, 1.3 now); followed at once, the scale changed with each of a run's steps (a CMU run
     * onto the mannequin 1.79 -> 2.11 times the source's jerk).
     * After `DecodeHumanPose`, with the decoded pose in the solver's.
     * @param human the pose decoded (its hips' rotation is read; its translations and the rig pose's hips turned)
     * @param step the frame's time step (seconds) in `step[0]`, or undefined for a pose set directly
     */
    public scaleRoll(human: HumanPose, step: Float64Array | undefined): void {
        const solver = this._solver;
        const setup = this._setup;
        const sp = solver.sourceProportions;
        const ps = solver.positionScale;
        const share = this._rollShare;
        share[0] = setup.hipWidth > 0 ? (sp[2] * ps[0]) / setup.hipWidth : 1;
        // How much the feet stand: the larger of the two ground shares, low-passed over the
        // frame's step (taken at once on the first decode and after a jump). A decode without
        // a step (a pose set directly, `applyPose`; the report's goals) has no motion to read
        // the feet's standing from: the fade goes by the roll alone, as for a body in the air,
        // and the low-pass starts afresh.
        const rg = this._rollGround;
        if (step) {
            const gl = solver.footGroundShare[0];
            const gr = solver.footGroundShare[1];
            const stand = gl > gr ? gl : gr;
            const dt = step[0] > 0 && step[0] < Infinity ? step[0] : 0;
            if (!(rg[1] > 0)) rg[0] = stand;
            else rg[0] += (stand - rg[0]) * (1 - Math.exp(-dt / ROLL_GROUND_SECONDS));
            rg[1] = 1;
            share[1] = rg[0];
        } else {
            rg[1] = 0;
            share[1] = 0;
        }
        QuaternionMultiplyToRef(human.bodyRotation, human.hipsRotation, tmpQ);
        if (ScaleHipsRollToRef(tmpQ, share, this.pelvis)) TurnHipsAsSourceInPlace(setup, human, solver.pose, this.pelvis, this._hipsKept);
        else TurnHipsAsSourceInPlace(setup, human, solver.pose);
    }

    /**
     * Stance: each foot as far from its own hip joint as the source's was from its, scaled: the
     * feet move along the line between the hip joints (the source's hips' right, canonical) by
     * what the two pairs of hip joints differ by. Along the hips, not the body's heading: a
     * pelvis that rolls (one hip up, as in a crawl or a stride) carries its feet with it, and
     * along a level line each foot would be off by the roll times the difference (on a short-
     * legged source onto a long-legged body a fifth of a leg, the knees bent by tens of degrees).
     * A held foot goes up and down with its hip as the pelvis rolls, as the source's leg does
     * (it keeps the leg's shape; taking the lift off held feet bent their knees: pose error
     * 1.08 -> 1.83 deg on the X Bot's idle onto the KayKit mannequin).
     * A clip that moves the hip joints (their translation DoF, in hip widths: KayKit's clips
     * swing them forward and back by up to half a hip width as the pelvis sways) moves each by
     * that share of this pelvis's width, and moved the source's by that share of its own: each
     * foot moves across by the difference too, its hip's translation less the two hips' mean
     * (the hips' middle, where the body is seated, moves with the mean), turned with the hips,
     * times what the widths differ by. Only across: up and down it would lift a foot on the
     * floor off it where this pelvis sways less than the source's (KayKit's walk backwards onto
     * the X Bot: planted feet 0.063 -> 0.093 leg above the floor).
     * After the foot goals are in the canonical frame (the solver's `goalPositions`); nothing where
     * the two pelvises' widths agree for the scale (`"com"`).
     * @param human the pose decoded (its body and hips' rotations, its hips' translations)
     */
    public placeFeet(human: HumanPose): void {
        const solver = this._solver;
        const setup = this._setup;
        const sp = solver.sourceProportions;
        const ps = solver.positionScale;
        solver.hipSwayRise[0] = 0;
        solver.hipSwayRise[1] = 0;
        const out = ps[3] / ps[0];
        if (out !== 0) {
            // The hips' right: (body * hips) * (1, 0, 0), canonical.
            QuaternionMultiplyToRef(human.bodyRotation, human.hipsRotation, tmpQ);
            const r = tmpV.copyFromFloats(1, 0, 0).applyRotationQuaternionInPlace(tmpQ);
            const left = solver.goalPositions[0];
            const right = solver.goalPositions[1];
            // This pelvis's hip joints at half its width along its line (its roll scaled, above),
            // the source's at half its own, scaled, along the source's: each foot moves by the
            // difference (with the roll scaled, across the ground; up and down about none).
            const o = scratch.offset;
            o.copyFromFloats(1, 0, 0).applyRotationQuaternionInPlace(this.pelvis);
            const a = setup.hipWidth / 2 / ps[0];
            const b = sp[2] / 2;
            o.x = a * o.x - b * r.x;
            o.y = a * o.y - b * r.y;
            o.z = a * o.z - b * r.z;
            left.subtractInPlace(o);
            right.addInPlace(o);
            // The hips' translations: half their difference, (u_l - u_r) / 2, is the left hip's
            // from the mean, the right's its negative; times 2 out, turned with the hips.
            const tl = human.translations[LEFT_HIP_SLOT];
            const tr = human.translations[RIGHT_HIP_SLOT];
            const d = scratch.sway;
            d.x = (tl.x - tr.x) * out;
            d.y = (tl.y - tr.y) * out;
            d.z = (tl.z - tr.z) * out;
            if (d.x !== 0 || d.y !== 0 || d.z !== 0) {
                d.applyRotationQuaternionInPlace(tmpQ);
                // Up and down, the body goes instead (`hipSwayRise`): the left hip joint is d.y
                // above the source's, scaled, the right -d.y.
                solver.hipSwayRise[0] = d.y;
                solver.hipSwayRise[1] = -d.y;
                d.y = 0;
                left.addInPlace(d);
                right.subtractInPlace(d);
            }
        }
    }
}
