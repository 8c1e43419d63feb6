import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";

/**
 * Scratch shared by every rig solver (`HumanoidRigSolver`'s decode and IK; the per-frame path is
 * single-threaded and no solver call runs inside another's): held per solver, it was a few more
 * kilobytes of each animator to bring into the cache every frame.
 */
export const rigSolverScratch = {
    /** A goal's target position and rotation (rig space). */
    target: new Vector3(),
    targetRot: new Quaternion(),
    /** Numbers handed to the limb solver and the lerps: position weight, rotation weight, stretch. */
    weights: new Float64Array(3),
    /** The pose's body position across a decode that carries the body (x, z; put back exactly after). */
    bodyKept: new Float64Array(2),
    /** Handed to the feet's soles: the source's foot length over its leg's (NaN when not known) and the share of the pose from clips that give it. */
    soleSource: new Float64Array(2),
    /** The body's half tilt's cosine, then how upright it stands for the feet's soles (`SoleUprightShare`). */
    soleUpright: new Float64Array(1),
    /** The feet's soles' move (source leg lengths) and each foot goal's share of it (`HumanoidFootSole.update`). */
    soleMove: new Float64Array(3),
};
