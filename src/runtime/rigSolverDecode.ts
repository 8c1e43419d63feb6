import { HumanBone } from "../humanoid/humanBones.js";
import { DecodeHumanPose } from "../muscle/decode.js";
import { HUMAN_IK_GOAL_COUNT, type HumanPose } from "../muscle/humanPose.js";
import { HasLegProportions } from "../muscle/hipsTurn.js";
import { TRANSLATION_DOF_COUNT } from "../muscle/translationDof.js";
import { QuaternionMultiplyToRef } from "../math/hotMath.js";
import { UpdateSoleShift } from "./footSole.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * The pose's body position across a decode that carries the body (x, z; put back exactly after).
 * Shared by every solver (the per-frame path is single-threaded).
 */
const bodyKept = new Float64Array(2);

/**
 * The decode's steps (`HumanoidRigSolver.decode`): how the pose's positions scale to the avatar
 * (`positionScale` by `proportions`), the stride's carry, the muscles and the body decoded into
 * the solver's pose (limbs at rest length, joint limits held), the pelvis's roll, the IK goals
 * into the canonical frame (`goalPositions`, `goalRotations`), the feet's rotations onto this
 * avatar's feet, the feet's soles, the stance, and with `"legs"` the body seated on the legs for
 * the next `solveIK`. Allocation-free.
 * @param solver the rig solver decoded into
 * @param human the pose (canonical frame, source avatar scales; its body position is put back
 *   exactly after a carried decode)
 * @param step the time step (seconds) in `step[0]`, or undefined (see `HumanoidRigSolver.decode`)
 */
export function DecodeIntoRigSolver(solver: HumanoidRigSolver, human: HumanPose, step: Float64Array | undefined): void {
    if (step) solver._body.noteFrameStep(step);
    if (solver.shoulderFold) solver.shoulderFold.noteStep(step ?? null);
    if (solver.collarboneShake) solver.collarboneShake.noteStep(step ?? null);
    solver.trunkPlace.noteStep(step ?? null);
    const setup = solver._setup;
    solver.footCorrections[0].setAll(0);
    solver.footCorrections[1].setAll(0);
    const sp = solver.sourceProportions;
    const ps = solver.positionScale;
    solver._legs = solver.proportions === "legs" && HasLegProportions(sp);
    if (solver._legs) {
        ps[0] = setup.legLength / sp[0];
        ps[1] = sp[1];
        ps[3] = (setup.hipWidth - sp[2] * ps[0]) / 2;
    } else {
        ps[0] = setup.scale;
        // The ankle's height above the ground maps onto this avatar's own, as with "legs"
        // (Mecanim's feet bottom height): scaled by the centre of mass, a source's ankle lower
        // than this avatar's, for its scale, put the foot goals under the floor.
        ps[1] = sp[1] >= 0 ? sp[1] : setup.ankleHeight / setup.scale;
        ps[3] = 0;
    }
    solver._footRotations.noteBody(human.bodyRotation);
    solver._carry.update(solver, human, solver._legs);
    const carried = solver.carryBody && (solver.carry[2] !== 0 || solver.carry[3] !== 0);
    if (carried) {
        bodyKept[0] = human.bodyPosition.x;
        bodyKept[1] = human.bodyPosition.z;
        human.bodyPosition.x += solver.carry[2];
        human.bodyPosition.z += solver.carry[3];
    }
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) solver.ik.resetLengths(g, solver.pose.positions);
    if (!solver.translationDoF) for (let t = 0; t < TRANSLATION_DOF_COUNT; t++) human.translations[t].setAll(0);
    const limits = solver.jointLimits;
    if (limits) {
        // An elbow past straight only where no IK solves its arm (see `armGoalWeights`).
        for (let s = 0; s < 2; s++) {
            const own = solver.positionWeights[2 + s];
            const goal = solver.armGoalWeights[s];
            const w = own > goal ? own : goal;
            limits.overshootShare[s === 0 ? HumanBone.LeftLowerArm : HumanBone.RightLowerArm] = w > 0 ? (w < 1 ? 1 - w : 0) : 1;
        }
    }
    DecodeHumanPose(
        solver.avatar,
        human,
        solver.pose,
        limits,
        solver._sourceLayouts.trunk,
        solver._sourceLayouts.shoulders,
        solver.shoulderFold,
        solver.collarboneShake,
        solver.trunkPlace,
    );
    // The pelvis's roll scaled to the source's, `"legs"` (pelvisStance.ts).
    if (solver._legs) solver._pelvis.scaleRoll(human, step);
    else solver._pelvis.resetRoll();
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
        human.goalPositions[g].applyRotationQuaternionToRef(human.bodyRotation, solver.goalPositions[g]).addInPlace(human.bodyPosition);
        QuaternionMultiplyToRef(human.bodyRotation, human.goalRotations[g], solver.goalRotations[g]);
    }
    // The feet's rotations onto this avatar's feet (footRotations.ts), each foot's front's rise
    // from its ankle for the feet's soles on the way.
    solver._footRotations.remapInPlace(human.bodyRotation, sp, solver.footGoalHold, solver.goalRotations, solver._sole.rise);
    // The feet's soles ("legs"): the whole figure down so that the lower end of each foot on
    // the ground stands as high as the source's (footSole.ts). The foot goals go by their
    // ground shares here; the body (and a foot off the ground with it) in `prepareLegs`.
    UpdateSoleShift(solver, step);
    // Stance: each foot as far from its own hip joint as the source's was from its, scaled (pelvisStance.ts).
    solver._pelvis.placeFeet(human);
    // The hips as the clip puts them (canonical, pose units): "legs" seats the body on them.
    human.hipsPosition.applyRotationQuaternionToRef(human.bodyRotation, solver._body.clipHips).addInPlace(human.bodyPosition);
    solver._seated = false;
    if (solver._legs && (solver.positionWeights[0] > 0 || solver.positionWeights[1] > 0)) {
        solver._body.prepareLegs();
        solver._seated = true;
    }
    if (carried) {
        human.bodyPosition.x = bodyKept[0];
        human.bodyPosition.z = bodyKept[1];
    }
}
