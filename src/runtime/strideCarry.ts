import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanPose } from "../muscle/humanPose.js";
import { QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

const tmpV = new Vector3();
const tmpQ = new Quaternion();

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
 * offsets, each weighed by how much the foot stands on the ground by the clip's contacts while
 * planting holds the feet (the solver's `footCarryWeight`: the ground share, which comes in over
 * the contact blend, 0.2 s, before a contact begins and goes out over it after one ends), over the
 * larger of 1 and the weights' sum (two held feet turning opposite ways cancel). Coming in before
 * the touch-down, the body starts to swing round a landing foot as the source's foot comes down,
 * so the foot arrives still and the body's velocity turns over the whole ease. Weighed by
 * planting's hold of the foot's goal instead (which eases in over 0.1 s after the touch-down), a
 * spin's landing foot arrived moving with its offset's swing (a CMU twirl onto the KayKit mannequin:
 * 1.5 avatar scales a second by the median, 0.64 now), planting stopped it within 33 ms while the carry came
 * in over 0.1 s, and the leg took the difference (3.05 times the source's jerk, its right foot
 * 4.5; 1.69 and its head 2.4 now, the head's the carry's own turn of the body's velocity at each
 * step of the spin). The price: a foot coming down while the other still stands on a turning
 * pelvis takes some of that foot's carry away before it lands (CMU's spinning kick onto the
 * mannequin, its standing thigh 7.8 -> 9.9 degrees off the source's; a run, whose foot in the air
 * always weighs in part, leans its standing leg more too). Taken in at once as the
 * foot was planted, or through an ease of the carry's own over 50 ms, the body's velocity turned
 * round within a few frames at every landing of a spin. Taken on the
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

    /**
     * One decode's step into {@link carry} [0], [1], added to its total [2], [3]. No step (and the
     * offset forgotten) without a stance offset (`"com"`, or the source's pelvis scaled), without
     * foot IK, or for a pose or ground turn that is not finite.
     * @param solver the owning solver: its `positionScale` (this decode's), `positionWeights`, `footCarryWeight` (this decode's) and `groundYaw`
     * @param human the pose being decoded (canonical frame): its body and hips rotations
     * @param legs whether this decode scales by the legs (`"legs"` with the source's proportions known)
     */
    public update(solver: HumanoidRigSolver, human: HumanPose, legs: boolean): void {
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
            const share = solver.footCarryWeight;
            const wl = share[0] > 0 ? (share[0] < 1 ? share[0] : 1) : 0;
            const wr = share[1] > 0 ? (share[1] < 1 ? share[1] : 1) : 0;
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

    /** Takes no step at the next {@link update} (after a jump in time or place); the total stays. */
    public skipStep(): void {
        this._last[2] = 0;
    }

    /** The total back to 0 and no step at the next {@link update}. */
    public reset(): void {
        this.carry.fill(0);
        this._last[2] = 0;
    }
}
