import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { MuscleSetup } from "../muscle/setup.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * Scratch shared by every instance (the per-frame path is single-threaded and no call runs inside
 * another's): held per instance, it was more of each animator to bring into the cache every frame.
 */
const scratch = {
    /** Of `fitLegShare`: a source leg direction turned as this frame's leg. */
    leanDir: new Vector3(),
};

/**
 * With `"legs"` proportions a foot gives up to about this share of the leg's length, up or down,
 * for the knee to keep the source's bend: near straight a millimetre of foot is degrees of knee,
 * and legs of other lengths (or of two lengths, as many mocap skeletons), a floor a few
 * millimetres off or a held foot would bend or straighten it by that much (see `keepLegShape`).
 */
const LEG_SHAPE_SLACK = 0.01;
/**
 * ...but a foot held on the floor goes no deeper into it than this share of that slack (a
 * quarter: two millimetres on a grown-up, a still leg's sway of a fraction of one is followed).
 */
const LEG_SHAPE_FLOOR_SLACK = 0.25;
/**
 * Half the width, as a share of that slack, over which the floor limit's corner is rounded at
 * most (see `keepLegShape`): where a held foot rolls onto its toes, the leg's shape pushing it
 * down, the limit opens as fast as the heel rises (2-3 mm a frame), and a corner an eighth of a
 * slack wide was crossed within a frame: the ankle stood still, then rose at the clip's rate (a
 * CMU skipping take onto the VRM sample, its knees 1.97 times the source's jerk, the pair's 1.38;
 * a CMU walk onto the KayKit mannequin 3.51 and 2.02; 1.62 and 1.30, 3.08 and 1.83 now). No wider
 * than the depth the limit allows below the floor (a quarter of the slack and the clearance): a
 * parabola rounding a corner lies above it, and wider it lifted a standing foot with no push off
 * the floor (half a slack always: the VRMA onto the mannequin as bound, its legs 0.06-0.09 degree
 * off a rotation copy's where they had been exact, test/runtime/legLean.test.ts; the skipping
 * take 1.29). A whole slack rounded less well (the walk 1.69, the skipping take 1.31), two the walk
 * 2.20; a slope rising as the cube over a whole slack, three quarters of it below the limit, the
 * walk 1.95 (its curvature three times the parabola's at the top).
 */
const LEG_SHAPE_FLOOR_ROUNDING = 0.5;

/**
 * With `"legs"` proportions, how a {@link HumanoidRigSolver}'s legs keep the source's shape
 * (its knees' direction and bend) where the two legs differ: what this leg's thigh and shin
 * share of it and the two T-poses' leg directions do to where the foot is ({@link fitLegShare}),
 * and each foot's IK target moved up or down within reach of the source's knee
 * ({@link keepLegShape}). Owned by its solver; reads the solver's forward kinematics, source
 * proportions and foot holds. Allocation-free after construction.
 */
export class HumanoidLegShape {
    /** Per foot, where this leg bent as decoded puts the foot less where the source's share would, its hip joint's sway rise included ({@link fitLegShare}; rig space, metres). */
    public readonly shareFit: Vector3[] = [new Vector3(), new Vector3()];
    private readonly _solver: HumanoidRigSolver;
    private readonly _setup: MuscleSetup;
    private readonly _up: Vector3;
    /** Per leg: the inverse T-pose world rotations of its upper and middle joints (rig space): [left upper, left middle, right upper, right middle]. */
    private readonly _legRestInverse: Quaternion[];
    /** See `_prepareLean`: the clip's leg directions it was last made for, and what it made. */
    private readonly _leanKey = new Float64Array(6).fill(NaN);
    private readonly _leanRest = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];

    /**
     * @param solver the solver that owns it, its `world` holding the forward kinematics of its reference pose (the legs' T-pose rotations)
     * @param setup the solver's avatar's muscle setup
     */
    constructor(solver: HumanoidRigSolver, setup: MuscleSetup) {
        this._solver = solver;
        this._setup = setup;
        this._up = solver.avatar.frame.up.clone();
        const ik = solver.ik;
        this._legRestInverse = [0, 1].flatMap((g) => [Quaternion.Inverse(solver.world[ik.upperJoint(g)]), Quaternion.Inverse(solver.world[ik.middleJoint(g)])]);
    }

    /**
     * `"legs"`, with the source's thigh share known: per foot, what the thigh and shin sharing the
     * leg otherwise than the source's do to where the foot is, into {@link shareFit} (rig space,
     * metres). The leg as decoded with the source's share, `hip + s L u + (1 - s) L v` (u, v the
     * thigh's and shin's directions, L this leg's length), puts the foot where the source's goal
     * is, scaled; this leg puts it at `hip + a u + b v`: the difference is `(a - s L) (u - v)`.
     * Across, the foot goal moves by it; up and down, the body does (their mean over the feet on
     * the ground), and so does a foot off the ground by the clip's contacts (`footGroundShare`),
     * so that the IK keeps the source's knee, its direction and bend, however short or long the
     * thigh is. Zero for a leg shared as the source's (the goal is then more exact than the
     * bones: its curves are finer).
     *
     * With the source's T-pose leg directions `u0`, `v0` (clip version 6) the difference in full:
     * where this leg, turned from its own T-pose as decoded, puts the foot (`hip + a u + b v`,
     * `u = R_u u0'`, `R_u` the thigh's world turn from this avatar's T-pose, `u0'` its T-pose
     * direction) less where the source's leg, turned alike and scaled to this leg's length,
     * puts it: `c = a u + b v - s L R_u u0 - (1 - s) L R_v v0` (`s L = a` without the share). It
     * holds the share's term and what the two T-poses lean the leg by: a leg that leans forward in
     * its T-pose keeps that lean under a source whose legs hang straight, as a rotation copy does
     * (a T-pose made with `tPose: "rest"`: "auto" and "strict" hang every leg straight, the KayKit
     * mannequin's 1.2 degrees of lean too). Zero on the source's own skeleton.
     *
     * Up and down it holds also how far this leg's hip joint stands above the source's, scaled,
     * for the clip's hip sway (the solver's `hipSwayRise`, which the foot goals do not follow so
     * that a foot on the floor stays on it): the body goes down by it for a foot on the ground, and
     * a foot in the air goes with its hip. KayKit's runs sway the mannequin's wide pelvis's hip
     * joints forward and back, so a pitched pelvis raised one of a narrower pelvis's hip joints 0.04
     * leg over the source's: the stance leg fell that short of the floor and the leg's shape
     * lifted its foot (0.031 leg, on six characters; 0.001 now).
     *
     * Returns whether the share or the directions are known (the rise counts only with them).
     * Needs the forward kinematics of the legs (after seating).
     */
    public fitLegShare(): boolean {
        const sp = this._solver.sourceProportions;
        const share = sp[6];
        const known = share > 0 && share < 1;
        // The source's T-pose thigh and shin directions (left; the right's mirrored), canonical.
        const lean = sp[9] === sp[9] && sp[12] === sp[12];
        if (lean) this._prepareLean();
        const pos = this._solver.positions;
        const t = scratch.leanDir;
        const rise = this._solver.hipSwayRise;
        // Only with the rest of the fit: without the share or the directions the body takes no
        // lift from the leg's shape, and the rise alone would move it by a part of what it needs
        // (KayKit's run holding a bow onto the X Bot without them: its stance goal 0.007 -> 0.025
        // leg from its leg's reach).
        const swayed = (known || lean) && (rise[0] !== 0 || rise[1] !== 0);
        const scale = this._solver.positionScale[0];
        const up = this._up;
        for (let g = 0; g < 2; g++) {
            const c = this.shareFit[g];
            // The hip joint's rise over the source's for the clip's hip sway (the solver's
            // `hipSwayRise`; metres here): this leg hangs from that much higher.
            const r = swayed ? rise[g] * scale : 0;
            c.x = up.x * r;
            c.y = up.y * r;
            c.z = up.z * r;
            if (!known && !lean) continue;
            const hj = this._solver.ik.upperJoint(g);
            const kj = this._solver.ik.middleJoint(g);
            const hip = pos[hj];
            const knee = pos[kj];
            const end = pos[this._solver.ik.endJoint(g)];
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
                this._leanRest[2 * g].applyRotationQuaternionToRef(this._solver.world[hj], t);
                c.x += ux + vx - su * t.x;
                c.y += uy + vy - su * t.y;
                c.z += uz + vz - su * t.z;
                this._leanRest[2 * g + 1].applyRotationQuaternionToRef(this._solver.world[kj], t);
                c.x -= sv * t.x;
                c.y -= sv * t.y;
                c.z -= sv * t.z;
                continue;
            }
            const k = a - share * (a + b);
            c.x += k * (ux / a - vx / b);
            c.y += k * (uy / a - vy / b);
            c.z += k * (uz / a - vz / b);
        }
        return known || lean;
    }

    /**
     * `"legs"`: moves a foot's IK target up or down (rig up, so that a foot on the ground slides
     * nowhere) towards where its distance from the hip is what the leg bent as decoded (the
     * source's knee) reaches: the whole difference while it is small, never more than about
     * `LEG_SHAPE_SLACK` of the leg (`slack * tanh(difference / slack)`), less as the leg
     * leans from hanging down (by the square of its cosine: a level leg is not made shorter or
     * longer by moving its foot up or down), and a held foot no deeper than
     * `LEG_SHAPE_FLOOR_SLACK` of the slack into the floor. The knee keeps
     * the source's bend where legs of other lengths, a floor a few millimetres off or a held foot
     * would otherwise bend or straighten it by degrees (near straight, a millimetre is degrees of
     * knee); what is left past the slack the IK closes. Smooth in the target. Needs the forward
     * kinematics of the legs (after seating).
     * @param g the foot (0 left, 1 right)
     * @param target the foot's IK target (rig space, metres), moved in place
     * @param afterPlanting whether planting has held the foot (then it is kept out of the floor by the solver's `footFloorHold` and `footClearance`)
     */
    public keepLegShape(g: number, target: Vector3, afterPlanting: boolean): void {
        const pos = this._solver.positions;
        const hip = pos[this._solver.ik.upperJoint(g)];
        const end = pos[this._solver.ik.endJoint(g)];
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
        // down by its clearance at most (the solver's `footClearance`).
        // (Read here, not passed: a number passed to a call V8 does not inline is boxed.)
        const held = afterPlanting ? this._solver.footFloorHold[g] : 0;
        if (held > 0) {
            const c = this._solver.footClearance[g];
            const depth = (c > 0 ? c : 0) + LEG_SHAPE_FLOOR_SLACK * slack;
            const lowest = -depth;
            // max(shift, lowest) with its corner rounded by a parabola over lowest +- e (a kink
            // would jerk; at most e / 4 above the sharp max there); shift itself from lowest + e
            // up. No wider than the depth, so a foot with no push is not lifted off the floor.
            const most = LEG_SHAPE_FLOOR_ROUNDING * slack;
            const e = depth < most ? depth : most;
            const q = shift - lowest + e;
            const floored = q >= 2 * e ? shift : q <= 0 ? lowest : lowest + (q * q) / (4 * e);
            shift = floored * held + shift * (1 - held);
        }
        target.x += up.x * shift;
        target.y += up.y * shift;
        target.z += up.z * shift;
    }

    /**
     * The source's T-pose leg directions (the clip's, {@link HumanoidRigSolver.sourceProportions}
     * [9..14]) in this avatar's rig space, turned back by its legs' T-pose world rotations
     * (`W0^-1 c0 u0`), into `_leanRest` [left thigh, left shin, right thigh, right shin]; the right
     * leg's are the left's mirror image (canonical x negated). Only when the clip's directions change (no number is
     * handed to a call per frame: V8 boxes those).
     */
    private _prepareLean(): void {
        const sp = this._solver.sourceProportions;
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
}
