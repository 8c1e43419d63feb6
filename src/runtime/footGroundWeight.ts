import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * With `"legs"` proportions a foot goal weighs fully while the ankle is within this height above its
 * T-pose height (source avatar scales; a contact is within 0.05) ...
 */
const FOOT_IK_GROUND = 0.05;
/** ... and not at all from this height up (smootherstep between: continuous to the acceleration). */
const FOOT_IK_AIR = 0.25;

/**
 * `"legs"`: per foot, how much its goal holds by its height above the source's ankle height
 * (1 within `FOOT_IK_GROUND`, 0 from `FOOT_IK_AIR`, a smootherstep between), into `ground`
 * (`HumanoidBodyPlacement.ground`); the height less what decode moved the goal by for the feet's
 * soles (the solver's `soleGoalShift`: the whole figure moved, not the foot within it; the part a
 * foot partly off the ground takes with the body's lift is not taken off). Allocation-free.
 * @param solver the rig solver whose foot goals (canonical, source avatar scales) are weighed
 * @param ground receives the weight per foot, 0 (in the air) to 1 (on the ground), left foot first
 */
export function FootGroundWeightsToRef(solver: HumanoidRigSolver, ground: Float64Array): void {
    for (let g = 0; g < 2; g++) {
        // (Less the feet's soles' move of the goal: the whole figure moved, not the foot within it.)
        const height = solver.goalPositions[g].y - solver.soleGoalShift[g] - solver.positionScale[1];
        const x = height <= FOOT_IK_GROUND ? 0 : height >= FOOT_IK_AIR ? 1 : (height - FOOT_IK_GROUND) / (FOOT_IK_AIR - FOOT_IK_GROUND);
        ground[g] = 1 - x * x * x * (x * (6 * x - 15) + 10);
    }
}
