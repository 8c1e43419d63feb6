import type { Quaternion } from "@babylonjs/core/Maths/math.vector.js";

/**
 * Joint limits as the chain solver sees them: anything that moves a joint's local rotation into its
 * allowed set. `JointLimits` (the swing-twist limits of issue 12) satisfies it; tests use a hinge
 * or a cone.
 */
export interface IJointClamp {
    /**
     * Writes into `out` the allowed local rotation nearest `local` (rig space, relative to the
     * joint's parent, as `IRigPose.rotations`); returns true when it had to move it. Must not
     * allocate, throw or produce NaN for a unit `local`; `out` may be `local`.
     * @param bone the id given for the joint in {@link ChainIKSolver.boneIds} (a `HumanBone` for humanoid chains)
     * @param local the rotation to clamp
     * @param out receives the clamped rotation
     */
    clampLocalToRef(bone: number, local: Quaternion, out: Quaternion): boolean;
}
