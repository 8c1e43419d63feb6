import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanPose } from "../muscle/humanPose.js";
import { QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

const tmpV = new Vector3();
const tmpQ = new Quaternion();

/**
 * Seconds over which a foot that lands comes into the carry (a smootherstep from the weight it
 * had, 0 from the air, to its hold):
 * taken in at once, the body's velocity stepped by what the pelvis's turn carried it at the moment
 * the foot landed (a spin, its pelvis turning fast, onto a VRM: the hips 1.85 times the source's
 * jerk and the head 3.3, 0.67 and 1.55 with this ease; onto KayKit's mannequin, whose wider stance
 * carries more, 7 times the source's jerk, 3 with it). What the ease leaves out of the carry is
 * left out for good: a stride a little shorter, the leg leaning a little more, over 50 ms.
 */
export const CARRY_EASE_SECONDS = 0.05;

/**
 * The stride's carry of a {@link HumanoidRigSolver} (docs/runtime.md, the stride's carry): how far
 * the body moves over the held feet that the clip's own path does not have.
 *
 * With `"legs"` proportions each foot goal is pushed out along the hips' right by
 * o = half the difference of the two pelvises' widths (this one's less the source's, scaled; see the
 * stance in `HumanoidRigSolver.decode`). A foot held where it landed leaves its hip free to swing
 * round it by o times the pelvis's turn more than the source's hip swings round the source's foot,
 * and the leg leaned by that (the giant walk onto the KayKit mannequin: thighs 6 degrees off the
 * source's, the spinning kick's 8 and its shin 10.6, the stance hip 0.7 leg from the held foot
 * where the source's is 0.09). The body moves instead, by minus the change of the held feet's
 * offsets, weighed by how firmly each was held on the last update (`footGrounded`, eased in over
 * `CARRY_EASE_SECONDS` after the foot lands), over the
 * larger of 1 and the weights' sum (two held feet turning opposite ways cancel). Taken on the
 * ground the feet are held on (turned by the solver's `groundYaw` from the pose's frame) and given
 * back in the pose's frame. In a walk it carries the figure forward in both stances (the pelvis
 * turns one way over each foot, and the feet are on opposite sides): a longer stride than the
 * scaled source's, its own.
 *
 * Owned by its solver, which moves the body by the total or hands each step to its caller
 * (`HumanoidRigSolver.carryBody`). Allocation-free.
 */
export class HumanoidStrideCarry {
    /** This decode's step ([0], [1]) and the total since the last {@link reset} ([2], [3]): canonical x and z, pose units. */
    public readonly carry = new Float64Array(4);
    /** The left foot's stance offset of the last update (ground frame x, z, pose units; the right's is its negative), and whether it is known ([2]). */
    private readonly _last = new Float64Array(3);
    /** Per foot, how far its ease into the carry has gone (0 to 1, 1 when none runs; see `CARRY_EASE_SECONDS`): back to 0 when its hold rises; [2] this update's share of the ease. */
    private readonly _in = new Float64Array(3).fill(1);
    /** Per foot, the weight of the last update ([0], [1]), what the running ease began from ([2], [3]) and the last update's hold ([4], [5]). */
    private readonly _weight = new Float64Array(6);
    /** The step array of {@link noteStep}, or null. */
    private _step: Float64Array | null = null;

    /**
     * One decode's step into {@link carry} [0], [1], added to its total [2], [3]. No step (and the
     * offset forgotten) without a stance offset (`"com"`, or the source's pelvis scaled), without
     * foot IK, or for a pose or ground turn that is not finite.
     * @param solver the owning solver: its `positionScale` (this decode's), `positionWeights`, `footGrounded` (the last update's) and `groundYaw`
     * @param human the pose being decoded (canonical frame): its body and hips rotations
     * @param legs whether this decode scales by the legs (`"legs"` with the source's proportions known)
     */
    public update(solver: HumanoidRigSolver, human: HumanPose, legs: boolean): void {
        // Each foot's weight: how firmly it is held, but where that rose since the last update
        // (a touch-down, also one while an ease still runs), eased from the weight it had to it
        // over CARRY_EASE_SECONDS (a smootherstep, on by this update's share of the ease: the
        // step's, `noteStep`, all of it with no step known). From what it was, not from 0: a release that ran up to the next touch-down
        // never let go of the foot entirely (its hold eased out to 1e-6, not 0), and an ease that
        // began only from 0 never began (a child's dab onto the mannequin, spinning as it lands: the body's velocity
        // stepped, its head 5 times the source's jerk). The share is kept in the array: held in a
        // local across the loop, it was boxed on every update.
        const e = this._in;
        const w = this._weight;
        const step = this._step;
        e[2] = step === null ? 1 : step[0] > 0 ? step[0] / CARRY_EASE_SECONDS : 0;
        // (Every number in the arrays: locals of these across the loop were boxed: 168 bytes an update.)
        for (let g = 0; g < 2; g++) {
            // The hold rose since the last update (a touch-down): a new ease from the weight now.
            if ((solver.footGrounded[g] > 0 ? solver.footGrounded[g] : 0) > w[4 + g]) {
                e[g] = 0;
                w[2 + g] = w[g];
            }
            w[4 + g] = solver.footGrounded[g] > 0 ? solver.footGrounded[g] : 0;
            if (e[g] < 1) {
                e[g] += e[2];
                if (e[g] > 1) e[g] = 1;
                w[g] = w[2 + g] + (w[4 + g] - w[2 + g]) * e[g] * e[g] * e[g] * (e[g] * (6 * e[g] - 15) + 10);
                if (w[g] > w[4 + g]) w[g] = w[4 + g];
            } else w[g] = w[4 + g];
        }
        const c = this.carry;
        c[0] = 0;
        c[1] = 0;
        const last = this._last;
        const ps = solver.positionScale;
        const out = legs ? ps[3] / ps[0] : 0;
        if (out === 0 || !(out === out) || !(solver.positionWeights[0] > 0 || solver.positionWeights[1] > 0)) {
            // No stance offset or no foot IK: no carry at all. Written out rather than through
            // `reset`: with a call here V8 inlined the decode otherwise and the world goals'
            // per-frame path boxed numbers (70 bytes an update).
            c[2] = 0;
            c[3] = 0;
            last[2] = 0;
            return;
        }
        // The hips' right, (body * hips) * (1, 0, 0), canonical; the left foot's offset across it
        // (the right's is its negative), on the ground: turned by the ground's yaw,
        // (x, z) -> (x cos + z sin, -x sin + z cos).
        QuaternionMultiplyToRef(human.bodyRotation, human.hipsRotation, tmpQ);
        const r = tmpV.copyFromFloats(1, 0, 0).applyRotationQuaternionInPlace(tmpQ);
        const cy = Math.cos(solver.groundYaw[0]);
        const sy = Math.sin(solver.groundYaw[0]);
        const lx = -(r.x * cy + r.z * sy) * out;
        const lz = -(-r.x * sy + r.z * cy) * out;
        // A pose or ground turn that is not finite takes no step and is not remembered.
        if (!(lx - lx === 0 && lz - lz === 0)) {
            last[2] = 0;
            return;
        }
        if (last[2]) {
            const wl = w[0];
            const wr = w[1];
            const n = wl + wr > 1 ? wl + wr : 1;
            // Minus the held offsets' change, w_l d + w_r (-d), on the ground; back to the pose's frame.
            const gx = (-(wl - wr) * (lx - last[0])) / n;
            const gz = (-(wl - wr) * (lz - last[1])) / n;
            c[0] = gx * cy - gz * sy;
            c[1] = gx * sy + gz * cy;
            c[2] += c[0];
            c[3] += c[1];
        }
        last[0] = lx;
        last[1] = lz;
        last[2] = 1;
    }

    /**
     * The time step the next {@link update} eases held feet in by, in `step[0]` (seconds; kept, not
     * copied), or null for none known (a foot held is in at once). Handed over apart from the
     * update, as the body placement's frame step is (its `noteFrameStep`).
     */
    public noteStep(step: Float64Array | null): void {
        this._step = step;
    }

    /** Takes no step at the next {@link update} (after a jump in time or place); the total stays. */
    public skipStep(): void {
        this._last[2] = 0;
    }

    /** The total back to 0 and no step at the next {@link update}. */
    public reset(): void {
        this.carry.fill(0);
        this._last[2] = 0;
        this._in.fill(1);
        this._weight.fill(0);
    }
}
