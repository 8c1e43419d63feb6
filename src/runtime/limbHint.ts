import { Quaternion, type Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { HumanoidPoseKinematics } from "./poseKinematics.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

const qTurn = new Quaternion();
const qEnd = new Quaternion();
const qParent = new Quaternion();

/**
 * Turns limb `g` about the line from its root to its end so that its middle joint (knee or elbow)
 * moves toward `hint` by the goal's hint weight (`weights[g]`, clamped to 0..1); the end keeps its
 * place and world rotation. Nothing turns for a straight limb or a hint on the line. Writes the
 * upper bone's and the end's local rotations into the solver's pose. Needs `fk`'s forward
 * kinematics of the solved limb. Allocation-free; no number passed in a call (see `hotMath`).
 * @param g the goal, `HumanIKGoal` order (its limb)
 * @param solver the rig solver whose limb IK and pose are used (its pose is changed)
 * @param fk forward kinematics of the pose (rig space), up to date for the limb
 * @param parent each rig joint's parent (`MuscleSetup.rigParent`)
 * @param hint the hint position (rig space, metres)
 * @param weights the hint weight per goal, 0 (no turn) to 1 (the middle joint turned fully toward the hint)
 */
export function TurnLimbTowardHint(
    g: number,
    solver: HumanoidRigSolver,
    fk: HumanoidPoseKinematics,
    parent: Int32Array,
    hint: Vector3,
    weights: Float32Array,
): void {
    const ik = solver.ik;
    const pose = solver.pose;
    const upper = ik.upperJoint(g);
    const middle = ik.middleJoint(g);
    const end = ik.endJoint(g);
    const a = fk.positions[upper];
    const b = fk.positions[middle];
    const c = fk.positions[end];
    // axis: root -> end; u, v: the middle joint and the hint across it.
    let ax = c.x - a.x;
    let ay = c.y - a.y;
    let az = c.z - a.z;
    const al = Math.sqrt(ax * ax + ay * ay + az * az);
    if (!(al > 1e-9)) return;
    ax /= al;
    ay /= al;
    az /= al;
    let ux = b.x - a.x;
    let uy = b.y - a.y;
    let uz = b.z - a.z;
    let d = ux * ax + uy * ay + uz * az;
    ux -= ax * d;
    uy -= ay * d;
    uz -= az * d;
    let vx = hint.x - a.x;
    let vy = hint.y - a.y;
    let vz = hint.z - a.z;
    d = vx * ax + vy * ay + vz * az;
    vx -= ax * d;
    vy -= ay * d;
    vz -= az * d;
    const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
    const vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
    // A straight limb has no plane to turn; a hint on the line gives no direction.
    if (!(ul > 1e-6 * al && vl > 1e-6 * al)) return;
    // Signed angle from u to v about the axis.
    const cx = uy * vz - uz * vy;
    const cy = uz * vx - ux * vz;
    const cz = ux * vy - uy * vx;
    const hw = weights[g];
    const angle = Math.atan2(cx * ax + cy * ay + cz * az, ux * vx + uy * vy + uz * vz) * (hw > 0 ? (hw < 1 ? hw : 1) : 0);
    const s = Math.sin(angle * 0.5);
    // S: the turn about the axis (world, rig space)
    qTurn.x = ax * s;
    qTurn.y = ay * s;
    qTurn.z = az * s;
    qTurn.w = Math.cos(angle * 0.5);
    // The end's world rotation before the turn, and its parent's after it.
    qEnd.copyFrom(fk.world[end]);
    // upper local' = P^-1 * S * W_upper
    const pu = parent[upper];
    QuaternionMultiplyToRef(qTurn, fk.world[upper], pose.rotations[upper]);
    if (pu >= 0) {
        QuaternionConjugateToRef(fk.world[pu], qParent);
        QuaternionMultiplyToRef(qParent, pose.rotations[upper], pose.rotations[upper]);
    }
    // end local' = (S * W_endParent)^-1 * W_end (the end keeps its world rotation)
    const pe = parent[end];
    QuaternionMultiplyToRef(qTurn, fk.world[pe], qParent);
    QuaternionConjugateToRef(qParent, qParent);
    QuaternionMultiplyToRef(qParent, qEnd, pose.rotations[end]);
}
