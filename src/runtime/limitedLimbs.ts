// After the joint limits turned bones of a limb that IK had put on its goal, the limb aimed at its
// target again: the step `HumanoidRigSolver.applyJointLimits` takes once the limits changed a
// bone (the readable form of each rotation is in the comments beside it; the per-frame path
// hands no number to a call and allocates nothing).
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { JointLimits } from "../ik/jointLimits.js";
import { LIMB_BONES } from "../ik/limbIK.js";
import { HUMAN_IK_GOAL_COUNT } from "../muscle/humanPose.js";
import { ForwardKinematicsToRef } from "../muscle/kinematics.js";
import type { MuscleSetup } from "../muscle/setup.js";
import {
    QuaternionConjugateToRef,
    QuaternionFromUnitVectorsToRef,
    QuaternionMultiplyToRef,
    QuaternionSlerpToRef,
    Vector3DirectionToRef,
} from "../math/hotMath.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/** After joint limits, a limb's end this share of the limb's length or more from its target counts as out of reach (as the limb IK's own test). */
const LIMITED_REACH_SHARE = 1e-4;

const tmpQ = new Quaternion();

/** Scratch shared by every solver (the per-frame path is single-threaded). */
const scratch = {
    /** Per limb, whether it is aimed again. */
    relimb: new Uint8Array(HUMAN_IK_GOAL_COUNT),
    /** The swing an upper bone is given. */
    limitTurn: new Quaternion(),
    /** A goal's target position and rotation (rig space). */
    target: new Vector3(),
    targetRot: new Quaternion(),
    footFrom: new Vector3(),
    /** The number handed to the slerp: the rotation weight. */
    weights: new Float64Array(1),
};

/**
 * Aims again each limb of `solver` whose bones the joint limits just turned (`limits.changed`),
 * where its IK goal weighs (position or rotation weight above 0): the upper bone swings by the
 * shortest rotation that puts the limb's end back on the line to its target (the solver's
 * `targets`), the limited joints below kept as they are (a knee's bend, hence the reach, barely
 * changes), and the end turned back to its goal's rotation by the rotation weight; then the
 * limits once more (a swung upper bone may have left its own), and each aimed limb's status
 * (`error`, metres, and `unreachable` past a ten-thousandth of the limb's length) from where its
 * end now is. Reads and writes the solver's pose, `world` and `positions`. Allocation-free.
 * @param solver the solver whose pose the limits have just clamped (`clampRigPoseInPlace` returned true)
 * @param limits the solver's joint limits
 * @param setup the solver's muscle setup (`MuscleSetup.For(solver.avatar)`)
 */
export function AimLimitedLimbs(solver: HumanoidRigSolver, limits: JointLimits, setup: MuscleSetup): void {
    // A limb the limits turned is aimed again: its upper bone swings (shortest rotation) so the
    // end is back on the line to its target, the limited joints below kept as they are (a
    // knee's bend, hence the reach, barely changes), and the end turned back to its goal's
    // rotation; then the limits once more (a held upper bone may have left its own).
    const pw = solver.positionWeights;
    const rw = solver.rotationWeights;
    const changed = limits.changed;
    let any = false;
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
        const bones = LIMB_BONES[g];
        scratch.relimb[g] = (pw[g] > 0 || rw[g] > 0) && (changed[bones[0]] || changed[bones[1]] || changed[bones[2]]) ? 1 : 0;
        if (scratch.relimb[g]) any = true;
    }
    if (!any) return;
    ForwardKinematicsToRef(setup, solver.pose.rotations, solver.pose.positions, solver.world, solver.positions, solver.ik.fkJoints);
    const world = solver.world;
    const pos = solver.positions;
    const rot = solver.pose.rotations;
    const parent = setup.rigParent;
    const turn = scratch.limitTurn;
    const endRot = scratch.targetRot;
    const from = scratch.footFrom;
    const to = scratch.target;
    const weights = scratch.weights;
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
        if (!scratch.relimb[g]) continue;
        const upper = solver.ik.upperJoint(g);
        const end = solver.ik.endJoint(g);
        // The end's world rotation the IK gave it: its goal's, by the rotation weight.
        solver.goalToRig(g, to, endRot);
        weights[0] = rw[g] > 0 ? (rw[g] < 1 ? rw[g] : 1) : 0;
        QuaternionSlerpToRef(world[end], endRot, weights, 0, endRot);
        turn.x = 0;
        turn.y = 0;
        turn.z = 0;
        turn.w = 1;
        if (pw[g] > 0) {
            Vector3DirectionToRef(pos[upper], pos[end], from);
            Vector3DirectionToRef(pos[upper], solver.targets[g], to);
            QuaternionFromUnitVectorsToRef(from, to, turn);
            // upper local = P^-1 * turn * W
            QuaternionConjugateToRef(world[parent[upper]], tmpQ);
            QuaternionMultiplyToRef(tmpQ, turn, tmpQ);
            QuaternionMultiplyToRef(tmpQ, world[upper], rot[upper]);
        }
        // end local = (turn * W_parent)^-1 * endRotation
        QuaternionMultiplyToRef(turn, world[parent[end]], tmpQ);
        QuaternionConjugateToRef(tmpQ, tmpQ);
        QuaternionMultiplyToRef(tmpQ, endRot, rot[end]);
    }
    limits.clampRigPoseInPlace(solver.pose);
    // What is left between each aimed end and its target (the limits may keep it off): the status.
    ForwardKinematicsToRef(setup, solver.pose.rotations, solver.pose.positions, solver.world, solver.positions, solver.ik.fkJoints);
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
        if (!scratch.relimb[g] || !(pw[g] > 0)) continue;
        const e = pos[solver.ik.endJoint(g)];
        const t = solver.targets[g];
        const dx = e.x - t.x;
        const dy = e.y - t.y;
        const dz = e.z - t.z;
        const error = Math.sqrt(dx * dx + dy * dy + dz * dz);
        const status = solver.status[g];
        status.error = error;
        status.unreachable = error > LIMITED_REACH_SHARE * solver.ik.limbLengths[g];
    }
}
