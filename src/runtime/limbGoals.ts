import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HUMAN_IK_GOAL_COUNT, HumanIKGoal } from "../muscle/humanPose.js";
import { Vector3LerpToRef } from "../math/hotMath.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

// Scratch shared by every solver (the per-frame path is single-threaded; held per solver, it was
// more of each animator to bring into the cache every frame).
/** A goal's target position and rotation (rig space). */
const target = new Vector3();
const targetRot = new Quaternion();
/** Numbers handed to the limb solver and the lerp: position weight, rotation weight, stretch. */
const weights = new Float64Array(3);

/**
 * The IK solve's work per goal (`HumanoidRigSolver.solveIK`, once the body is placed for the
 * frame): each goal's position weight as applied (`appliedPositionWeights`: with `"legs"`, a
 * foot's by how near the ground it is or how firmly it is held), its target in rig space (hand
 * goals moved with the body, foot goals kept within the leg's shape and a held foot's height
 * still), then the limb solver on the solver's pose, and where it aimed the limb's end into
 * `targets`; a goal of weight 0 only has its `status` reset. Reads the forward kinematics in the
 * solver's `world` and `positions`. Allocation-free; no number passed in a call (see `hotMath`).
 * @param solver the rig solver, decoded and its body placed for this solve
 * @param step the solve's time step (seconds) in `step[0]`, for a held foot's height
 */
export function SolveLimbGoals(solver: HumanoidRigSolver, step: Float64Array): void {
    const pw = solver.positionWeights;
    const rw = solver.rotationWeights;
    const world = solver.world;
    const pos = solver.positions;
    const rot = solver.pose.rotations;
    const lp = solver.pose.positions;
    // Numbers go to the limb solver in an array (see `hotMath`): `weights`.
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
        let wp = pw[g] > 0 ? (pw[g] < 1 ? pw[g] : 1) : 0;
        // "legs": a foot off the ground keeps the leg's own shape (its rotations, as the
        // source's) and only a foot near the ground is moved onto its goal; nothing else forces
        // where a foot in the air is, and legs of other segment lengths would bend otherwise.
        if (solver._legs && g < HumanIKGoal.LeftHand && wp > 0) {
            const near = solver._body.ground[g];
            // A planted foot (footGoalHold, set by planting) is held whatever its ankle's height.
            // Either holds it (1 - (1 - near)(1 - grounded)): smooth in both, where the larger of
            // the two had a kink as the release's ease crossed the height's (the foot jerked).
            const grounded = solver.footGoalHold[g];
            wp *= 1 - (1 - near) * (1 - grounded);
        }
        solver.appliedPositionWeights[g] = wp;
        const wr = rw[g] > 0 ? (rw[g] < 1 ? rw[g] : 1) : 0;
        if (wp === 0 && wr === 0) {
            const s = solver.status[g];
            s.stretch = 1;
            s.error = 0;
            s.unreachable = false;
            continue;
        }
        solver.goalToRig(g, target, targetRot);
        // Hand goals are the body's: they move with it.
        if (g >= HumanIKGoal.LeftHand) target.addInPlace(solver.bodyOffset);
        // "legs": what planting changed of a foot goal, too, within reach of the source's knee.
        else if (solver._legs) {
            solver._legShape.keepLegShape(g, target, true);
            // A held foot whose source's ankle stands still: its height as still (`PlantedFootHeight`).
            solver._plantedHeight.filterInPlace(g, target, solver.footGoalHold, solver.footAnkleStill, step);
        }
        weights[0] = wp;
        weights[1] = wr;
        weights[2] = solver.stretch[g] > 0 ? solver.stretch[g] : 0;
        solver.ik.solveWeighted(g, world, pos, rot, lp, target, targetRot, weights, solver.status[g]);
        Vector3LerpToRef(pos[solver.ik.endJoint(g)], target, weights, 0, solver.targets[g]);
    }
}
