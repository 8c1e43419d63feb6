import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CriticallyDampedRampStepInPlace } from "../math/dampedSpring.js";
import type { MuscleSetup } from "../muscle/setup.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * How fast the body follows what the planted feet hold in common (see `HumanoidCommonHold`), per
 * second: the triple pole of a third-order follower that tracks a steadily moving hold without
 * lag (`CriticallyDampedRampStepInPlace`). The corrections step in velocity as a foot lands; a body
 * moved at once jerked the head and arms (the report's jerk x1.11). A critically damped spring at
 * 25/s followed before: it lagged a steady slide by 2 / 25 s of it (80 ms), which bent the legs as
 * much as the body lagged (KayKit's hit onto its own mannequin, its figure sliding back over half a
 * second, 0.53 degrees off the source's limbs where a rotation copy is exact; 12/s kept the X Bot's
 * thighs 4-7 degrees off, and faster than 25/s the touch-downs of a walk showed). At 25 / sqrt(3)
 * the follower's acceleration changes at a landing by 3 w^2 = 25^2 times the change of the hold's
 * speed, as the spring's did, and a slide is caught up with instead of trailed (the hit 0.37
 * degrees; the mean over the unseen clips x0.983, their jerk x1.004). The hit's feet, found later
 * to slide under hips that stay, are dragged now (docs/clips.md, step 5); a figure drifting over the
 * floor at half a leg a second bends its knees 0.5 degree with this follower, 1.4 with a spring
 * at 8/s, 17.9 without the hold (test/runtime/commonHold.test.ts).
 */
const COMMON_HOLD_OMEGA = 25 / Math.sqrt(3);

const tmpV = new Vector3();

/**
 * `"legs"`: what the two feet's planting corrections hold in common across the ground, followed
 * smoothly; the body placement moves the body (and all above its hips) by it, so that a source
 * whose whole figure slides over the floor with both feet down (an in-place clip whose root
 * drifts) keeps its legs' shape instead of bending them to reach feet held back (docs/runtime.md).
 * Each correction counts as firmly as its foot is held ({@link HumanoidRigSolver.footGrounded}: a
 * foot easing out of its hold counts less and less), and the common part is the smaller of the
 * two along their mean: none while one foot is not held, continuous as the corrections are. The
 * body follows it through a critically damped third-order follower (`COMMON_HOLD_OMEGA`), since a
 * correction's velocity steps as a foot lands, which follows a steady slide without lag.
 * Allocation-free after construction.
 */
export class HumanoidCommonHold {
    /**
     * The follower: [0..1] where it is (canonical x, z, pose units), [2..3] its rate, [4..5] its
     * target, [6..7] the last update's target, [8..9] its acceleration.
     */
    private readonly _state = new Float64Array(10);
    /** A step's numbers: [w, dt] (see `CriticallyDampedRampStepInPlace`). */
    private readonly _springStep = new Float64Array(2);
    /** The avatar's canonical frame (rig space). */
    private readonly _c0: Quaternion;
    /** Whether the next update starts afresh, where the hold is (after {@link reset}). */
    private _fresh = true;

    /** @param setup the muscle setup of the solver's avatar */
    constructor(setup: MuscleSetup) {
        this._c0 = setup.c0.clone();
    }

    /** Forgets the follower's motion (after a jump in time or place): the next update starts where the hold is. */
    public reset(): void {
        this._state.fill(0);
        this._fresh = true;
    }

    /**
     * One update, after planting set the solver's `footCorrections` and `footGrounded`: into `shift`
     * what the body moves by (rig space, metres).
     * @param solver the solver whose feet are held
     * @param step the time step, seconds, in `step[0]`: a step that is not a positive finite number
     *   holds the follower where it is (a paused clip), its motion kept for the next step
     * @param shift receives the body's move
     * @param noTimeKnown no time is known (a pose set directly): the follower goes to the hold at
     *   once, whatever the step. Default false.
     * @returns whether the body moves (`shift` is left as it was when not)
     */
    public update(solver: HumanoidRigSolver, step: Float64Array, shift: Vector3, noTimeKnown = false): boolean {
        const a = solver.footCorrections[0];
        const b = solver.footCorrections[1];
        // Each as firmly as the foot is held (1 planted, easing to 0 over its release).
        const ga = solver.footGrounded[0];
        const gb = solver.footGrounded[1];
        const ax = a.x * ga;
        const az = a.z * ga;
        const bx = b.x * gb;
        const bz = b.z * gb;
        const mx = (ax + bx) / 2;
        const mz = (az + bz) / 2;
        const m = Math.sqrt(mx * mx + mz * mz);
        const c = this._state;
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
        if (this._fresh || noTimeKnown || !Number.isFinite(c[0] + c[1] + c[2] + c[3] + c[8] + c[9])) {
            // Afresh, or no time known (a pose set directly, the first frame): no smoothing.
            this._fresh = false;
            c[0] = c[4];
            c[1] = c[5];
            c[2] = 0;
            c[3] = 0;
            c[8] = 0;
            c[9] = 0;
            c[6] = c[4];
            c[7] = c[5];
        } else if (dt > 0 && dt < Infinity) {
            const p = this._springStep;
            p[0] = COMMON_HOLD_OMEGA;
            p[1] = dt;
            CriticallyDampedRampStepInPlace(c, 0, 2, 8, c, 4, 6, 2, p);
            c[6] = c[4];
            c[7] = c[5];
        }
        // else: no time passed in the frame (paused): the follower holds where it is, and its
        // motion and the last target it stepped to are kept for the next step (which takes any
        // change of the hold since as a ramp over that step).
        const k = solver.positionScale[0];
        tmpV.x = c[0] * k;
        tmpV.y = 0;
        tmpV.z = c[1] * k;
        if (tmpV.x === 0 && tmpV.z === 0) return false;
        tmpV.applyRotationQuaternionToRef(this._c0, shift);
        return true;
    }
}
