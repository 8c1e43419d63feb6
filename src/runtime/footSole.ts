import { CLIP_PROPORTION_FOOT_LENGTH, CLIP_PROPORTION_FOOT_SHARE } from "../clip/clipProportions.js";
import { CriticallyDampedStepInPlace } from "../math/dampedSpring.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * The feet's soles: where on the ground a foot stands, by the lower of its ankle and its front.
 *
 * A foot goal is its ankle, and with `"legs"` proportions its height maps from the source's
 * ankle height onto the character's (`HumanoidRigSolver.positionScale`): a flat foot stands on
 * the floor whatever the two feet's lengths. A foot pitched down (on tiptoe, rolling over its
 * toes) stands on its front, which drops below the ankle by the foot's length times the pitch. A
 * character's foot shorter than the source's, for its leg, pitched as the source's, kept its
 * front above the floor by the difference: KayKit's walk backwards stands on the balls of its
 * feet, and RiggedFigure, whose foot is 0.13 of its leg long where KayKit's is 0.44, floated 0.08
 * leg (7 cm) over the floor; a longer foot pushes its front into it.
 *
 * So each foot's height above the floor is read by its lower end, as the report reads it: the
 * ankle's rise from its T-pose height plus min(0, r), r the rise of the foot's front from the
 * ankle's (the foot's length times how far its direction turned up or down), in leg lengths, for
 * the source's foot as the clip turns it and for the character's as decode turns it. Where the
 * character's lower end stands higher, it should go down by
 *
 *     d = min(0, soft(r_source) - soft(r_character))          (leg lengths, per foot)
 *
 * soft a smooth minimum of r and 0 (`SOLE_SOFTNESS` wide): min has a corner at r = 0, where a
 * foot goes over from its ankle to its front, and the figure would jerk there. Feet of the same
 * length for their legs need none; a flat foot none either. Never up: a source whose T-pose foot
 * pitches otherwise than the character's could ask for it (KayKit's pitched foot onto the VRM
 * sample's flat one, lying: 0.059 leg).
 *
 * **The whole figure moves, not the foot alone.** Lowering one ankle goal leaves the leg to
 * reach it: the knee straightens, near straight by degrees for a millimetre, and the walks' knees
 * jerked up to 4.5 times the source's at every push-off (a foot rolling over its toes; measured with
 * the goal alone lowered, and with the body following it through the feet's lift). Instead the
 * body and both feet move together by what the feet on the ground share, so every leg keeps the
 * shape it had: in one foot's stance that foot's d, in a double stance the lesser move of the two
 * (a smooth maximum of the drops), the other foot keeping what is left over it; in the air none.
 * With each foot's ground share s (the clip's contacts, `footGroundShare`):
 *
 *     D = d_l s_l (1 - s_r) + d_r s_r (1 - s_l) + smax(d_l, d_r) s_l s_r
 *
 * A character whose feet are longer than the source's, for their legs, does not move: its
 * fronts are kept out of the floor foot by foot by planting's floor limit, as before. The move
 * is taken by how upright the body stands ({@link SoleUprightShare}: a figure lying or kneeling
 * is not on its soles), and over a cross-fade with a clip that does not give its source's foot
 * length (a file before version 11) by the share of the clips that do.
 *
 * **Only what lasts.** A walk's push-off rolls the foot over its toes for a tenth of a second
 * and more; a stance on tiptoe lasts. Each foot's d goes through a critically damped low-pass at
 * `SOLE_HZ` in the clip's time before it counts: a sustained pitch (a tiptoe walk's feet stay
 * pitched in the air too) comes through whole, a push-off's brief roll a fraction (without it the
 * figure's own height moved at every step: a child's skipping onto RiggedFigure 1.31 times the
 * source's jerk, 1.00 with it). A foot that sets its heel down faster than the low-pass follows is
 * not taken more than `SOLE_SOFTNESS` into the floor: the low-pass's drop gives way to the
 * need's, less that, a smooth maximum of the two (followed at once, the heels coming down raised
 * the figure as fast: a Bandai run onto the VRM sample 1.30 times the source's jerk, 1.01 before).
 *
 * The per-frame path: numbers go through the instance's arrays (V8 boxes a double handed to a
 * call it does not inline). Allocation-free after construction.
 */

/**
 * How soft the minimum of a foot's front rise and 0 is (leg lengths): the width of the corner
 * where a foot goes over from standing on its ankle to standing on its front. A foot pitched a
 * few degrees (a tenth of a leg long: its front 0.005 leg down) stays within it. Also how far past
 * what a foot needs now the low-pass's drop may go.
 */
export const SOLE_SOFTNESS = 0.02;

/**
 * The width of the smooth corners where the figure goes over from one foot's drop to the other's,
 * or from the low-pass's to what a foot needs now (leg lengths): half the lower end's softness.
 * Each is exact where the two agree and half this lower where they are far apart (a few
 * millimetres on a grown-up).
 */
export const SOLE_CORNER = SOLE_SOFTNESS / 2;

/**
 * The low-pass of each foot's drop, hertz (critically damped): below a walk's push-off, whose
 * roll over the toes lasts 0.1 to 0.2 s (2.5 to 5 Hz), above the half a second and more a stance
 * on tiptoe lasts.
 */
export const SOLE_HZ = 2;

/**
 * The body's tilt from upright (degrees) up to which the figure moves for its feet's soles in
 * full, and from which it does not at all (a smoothstep between): a figure lying or kneeling
 * does not stand on its soles, and moving it down took its body into the floor (KayKit's Death_B
 * onto the CMU skeleton, its raised feet pitched while it lies: planted feet 0.153 -> 0.185 leg).
 */
export const SOLE_UPRIGHT_FROM_DEG = 30;
/** The body's tilt from upright (degrees) from which the figure does not move for its feet's soles (see {@link SOLE_UPRIGHT_FROM_DEG}). */
export const SOLE_UPRIGHT_TO_DEG = 60;
const UPRIGHT_FROM_COS = Math.cos((SOLE_UPRIGHT_FROM_DEG * Math.PI) / 360);
const UPRIGHT_TO_COS = Math.cos((SOLE_UPRIGHT_TO_DEG * Math.PI) / 360);

/**
 * How upright a body stands for its feet's soles, 0 to 1, into `out[0]`: 1 up to
 * {@link SOLE_UPRIGHT_FROM_DEG} of tilt, 0 from {@link SOLE_UPRIGHT_TO_DEG}, a smoothstep between.
 * @param halfTiltCos the cosine of half the body's tilt from upright (the length of its
 *   rotation's twist about up, `sqrt(q.y^2 + q.w^2)`), in `halfTiltCos[at]`
 * @param at where in `halfTiltCos` it is
 * @param out receives the share in `out[0]` (may be `halfTiltCos` itself)
 */
export function SoleUprightShare(halfTiltCos: Float64Array, at: number, out: Float64Array): void {
    let t = (halfTiltCos[at] - UPRIGHT_TO_COS) / (UPRIGHT_FROM_COS - UPRIGHT_TO_COS);
    t = t > 0 ? (t < 1 ? t : 1) : 0;
    out[0] = t * t * (3 - 2 * t);
}

/**
 * How far a direction's point rises when a rotation turns it: (q v).y - v.y, canonical up y, for
 * a unit quaternion q and a vector v (any length), into `out[at]`. (The vector goes as an object:
 * its numbers handed to a call V8 does not inline would be boxed, 16 bytes each a frame.)
 * @param q the rotation (unit)
 * @param v the direction (or any vector)
 * @param out receives the rise in `out[at]`
 * @param at where in `out`
 */
export function RiseByRotationToRef(
    q: { x: number; y: number; z: number; w: number },
    v: { x: number; y: number; z: number },
    out: Float64Array,
    at: number,
): void {
    // q v q^-1 = v + w t + q.xyz x t, t = 2 q.xyz x v; only y is needed, and (q v).y - v.y is the rest.
    const tx = 2 * (q.y * v.z - q.z * v.y);
    const ty = 2 * (q.z * v.x - q.x * v.z);
    const tz = 2 * (q.x * v.y - q.y * v.x);
    out[at] = q.w * ty + (q.z * tx - q.x * tz);
}

/**
 * The smooth minimum of r and 0 (`SOLE_SOFTNESS` wide), in place in `v[at]`:
 * (r - sqrt(r^2 + s^2) + s) / 2: 0 at r = 0, about r + s / 2 far below, s / 2 less than that far
 * above (a constant the two feet share, which their difference cancels).
 * @param v holds r in `v[at]`, replaced by its soft lower end
 * @param at where in `v`
 */
export function SoftLowerEndInPlace(v: Float64Array, at: number): void {
    const r = v[at];
    const s = SOLE_SOFTNESS;
    v[at] = (r - Math.sqrt(r * r + s * s) + s) * 0.5;
}

/**
 * The whole figure's move for its feet's soles (see the file's comment), held per solver: each
 * foot's drop through its low-pass, and their share by the feet on the ground. The solver's
 * `decode` writes the fronts' rises into {@link rise}, then calls {@link update}.
 */
export class HumanoidFootSole {
    /**
     * The fronts' rises from their ankles' this decode, as unit directions turn ([0] left, [1]
     * right the source's foot as the clip turns it; [2], [3] this avatar's as decode turns it):
     * the solver writes them ({@link RiseByRotationToRef}) before each {@link update}, which
     * works on them in place (scaled by the feet's lengths over their legs, through the soft lower
     * end).
     */
    public readonly rise = new Float64Array(4);
    /** Each of this avatar's feet's length over its leg's (ankle joint to toes or the foot's tip, T-pose); 0 for a foot without a front. */
    private readonly _length = new Float64Array(2);
    /** Each foot's drop through the low-pass: [0, 1] where it is (leg lengths), [2, 3] its rate. */
    private readonly _state = new Float64Array(4);
    /** Each foot's drop this decode, before the low-pass (leg lengths). */
    private readonly _need = new Float64Array(2);
    /** A spring step's numbers: [w, dt] (see `CriticallyDampedStepInPlace`). */
    private readonly _spring = new Float64Array(2);
    private _fresh = true;

    /**
     * @param footLengths this avatar's feet's lengths (metres: ankle joint to its front, `MuscleSetup.footLength`, T-pose; 0 without a front)
     * @param legLength this avatar's leg length (metres)
     */
    constructor(footLengths: readonly number[], legLength: number) {
        for (let g = 0; g < 2; g++) this._length[g] = legLength > 0 && footLengths[g] > 0 ? footLengths[g] / legLength : 0;
    }

    /** The low-pass starts afresh at the next update (a jump in time or place). */
    public reset(): void {
        this._fresh = true;
    }

    /**
     * This decode's move of the whole figure along up (source leg lengths; never up), from
     * {@link rise}.
     * @param source the source's foot length over its leg's ([0]; NaN or 0 when not known) and
     *   the share of the pose that comes from clips that give it ([1], 0 to 1; a cross-fade from
     *   a file before version 11 eases the drop in and out by it)
     * @param share each foot's ground share (0 to 1, the solver's `footGroundShare`)
     * @param upright how upright the body stands ([0], 0 to 1, {@link SoleUprightShare}): the move
     *   is taken by it (a figure lying or kneeling does not stand on its soles)
     * @param step the time step (seconds) in `step[0]`, or `null` when none is known: the low-pass
     *   steps by it, holds over a zero step and starts afresh without one
     * @param out receives the move in `out[0]`, and each foot goal's share of it in `out[1]` (left)
     *   and `out[2]` (right): the move times the foot's ground share (the body and a foot off the
     *   ground go by the rest with the body's lift)
     */
    public update(source: Float64Array, share: Float64Array, upright: Float64Array, step: Float64Array | null, out: Float64Array): void {
        const rise = this.rise;
        const need = this._need;
        // Only a character whose feet are shorter than the source's, for their legs, goes down;
        // longer feet keep their fronts out of the floor by planting's floor limit, foot by foot,
        // as before (raising the whole figure for one foot on its front lifted the other off the
        // floor, or with the lesser raise of two feet down, moved it at every step: a walk onto
        // the KayKit mannequin, whose foot is 0.44 of its leg long, its worst bone 2.6 -> 4.3
        // times the source's jerk).
        const length = source[0];
        const known = length > 0 && this._length[0] + this._length[1] < 2 * length;
        const given = known && source[1] > 0 ? (source[1] < 1 ? source[1] : 1) : 0;
        for (let g = 0; g < 2; g++) {
            if (!(given > 0) || !(this._length[g] > 0)) {
                need[g] = 0;
                continue;
            }
            rise[g] *= length;
            rise[2 + g] *= this._length[g];
            SoftLowerEndInPlace(rise, g);
            SoftLowerEndInPlace(rise, 2 + g);
            // Never up, even where the two T-poses pitch the feet otherwise (the character's
            // front then dropping more than the source's, a shorter foot though it is: KayKit's
            // pitched T-pose foot onto the VRM sample's flat one went up 0.059 leg lying). A
            // corner at 0 only where the two cross, which the low-pass smooths.
            const d = (rise[g] - rise[2 + g]) * given;
            need[g] = d < 0 ? d : 0;
        }
        const st = this._state;
        const dt = step ? step[0] : 0;
        if (this._fresh || !step || !(dt >= 0 && dt < Infinity) || !Number.isFinite(st[0] + st[1] + st[2] + st[3])) {
            // Afresh, or no time known (a pose set directly): nothing to smooth.
            st[0] = need[0];
            st[1] = need[1];
            st[2] = 0;
            st[3] = 0;
            this._fresh = false;
        } else if (dt > 0) {
            const p = this._spring;
            p[0] = 2 * Math.PI * SOLE_HZ;
            p[1] = dt;
            CriticallyDampedStepInPlace(st, 0, 2, need, 0, 2, p);
        }
        // The feet on the ground's share of the two drops (see the file's comment).
        const sl = share[0] > 0 ? (share[0] < 1 ? share[0] : 1) : 0;
        const sr = share[1] > 0 ? (share[1] < 1 ? share[1] : 1) : 0;
        // Never much past what the foot needs now: a foot that sets its heel down faster than the
        // low-pass follows would be taken into the floor. The low-pass's drop until it is
        // `SOLE_SOFTNESS` past the need, then the need's, less that (a smooth maximum of the two).
        // Exact where the two agree (a steady stance, a flat foot): less its value there. Not
        // where no clip gives the length any more: the drop then eases out through the low-pass.
        const e = SOLE_CORNER;
        const m = SOLE_SOFTNESS;
        const at = (Math.sqrt(m * m + e * e) - m) * 0.5;
        let a = st[0];
        let b = st[1];
        if (given > 0) {
            let x = need[0] - m - a;
            a += (x + Math.sqrt(x * x + e * e)) * 0.5 - at;
            x = need[1] - m - b;
            b += (x + Math.sqrt(x * x + e * e)) * 0.5 - at;
        }
        // Both feet down: the lesser drop (a smooth maximum, exact where the two agree).
        const both = (a + b + Math.sqrt((a - b) * (a - b) + e * e) - e) * 0.5;
        out[0] = (a * sl * (1 - sr) + b * sr * (1 - sl) + both * sl * sr) * upright[0];
        out[1] = out[0] * sl;
        out[2] = out[0] * sr;
    }
}

// Scratch of the decode's step, shared by every solver (the per-frame path is single-threaded).
/** Handed to {@link HumanoidFootSole.update}: the source's foot length over its leg's (NaN when not known) and the share of the pose from clips that give it. */
const soleSource = new Float64Array(2);
/** The body's half tilt's cosine, then how upright it stands for the feet's soles ({@link SoleUprightShare}). */
const soleUpright = new Float64Array(1);
/** The feet's soles' move (source leg lengths) and each foot goal's share of it ({@link HumanoidFootSole.update}). */
const soleMove = new Float64Array(3);

/**
 * The decode's step for the feet's soles (`HumanoidRigSolver.decode`, after the feet's
 * rotations wrote the fronts' rises into the solver's {@link HumanoidFootSole.rise}): with
 * `"legs"` proportions, a clip that gives its source's proportions and a foot goal weighed, the
 * whole figure's move along up into the solver's `soleShift` (metres; the body, and a foot off
 * the ground with it, go by it in `HumanoidBodyPlacement.prepareLegs`) and each foot goal moved
 * by its ground share of it (`soleGoalShift`, pose units, added to `goalPositions`); otherwise
 * both 0 and the low-pass starts afresh. Allocation-free.
 * @param solver the rig solver being decoded
 * @param step the decode's time step (seconds) in `step[0]`, or undefined: the last `solveIK`'s
 *   then (as the body's lift), and none when that was 0
 */
export function UpdateSoleShift(solver: HumanoidRigSolver, step: Float64Array | undefined): void {
    const sp = solver.sourceProportions;
    const sole = solver.soleShift;
    sole[0] = 0;
    solver.soleGoalShift[0] = 0;
    solver.soleGoalShift[1] = 0;
    if (solver._legs && sp[3] === sp[3] && (solver.positionWeights[0] > 0 || solver.positionWeights[1] > 0)) {
        soleSource[0] = sp[CLIP_PROPORTION_FOOT_LENGTH] / sp[0];
        soleSource[1] = sp[CLIP_PROPORTION_FOOT_SHARE];
        soleUpright[0] = solver._footRotations.halfTiltCos[0];
        SoleUprightShare(soleUpright, 0, soleUpright);
        // Without the frame's step, the last solveIK's (as the body's lift), none when that was 0.
        const kept = solver._body.keptStep;
        solver._sole.update(soleSource, solver.footGroundShare, soleUpright, step ?? (kept[0] > 0 ? kept : null), soleMove);
        const moved = solver.soleGoalShift;
        moved[0] = soleMove[1] * sp[0];
        moved[1] = soleMove[2] * sp[0];
        solver.goalPositions[0].y += moved[0];
        solver.goalPositions[1].y += moved[1];
        sole[0] = soleMove[0] * solver._setup.legLength;
    } else {
        solver._sole.reset();
    }
}
