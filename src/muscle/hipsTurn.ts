import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { HumanPose } from "./humanPose.js";
import type { MuscleSetup } from "./setup.js";

/** Scratch for {@link TurnHipsAsSourceInPlace} (single-threaded, no call nests in another). */
const hipsWorld = new Quaternion();
const parentInverse = new Quaternion();

/**
 * With `"legs"` proportions, the hips turned as the source's were rather than as the body frame
 * (from hips and shoulders together) puts them: the legs hang from the hips, and a spine of other
 * proportions would otherwise swing them forward or back (and the foot IK bend them back) as it
 * turns the torso and arms. Sets the hips' local rotation in `pose` (a pose `DecodeHumanPose` has
 * just written, whose work state holds the hips' parent's world rotation) to
 * `P^-1 * c0 * (bodyRotation * hipsRotation) * (c0^-1 * W0)`: P the hips' parent's world rotation,
 * W0 the hips' T-pose world rotation; the bones below turn with it. The rig solver's `decode` and
 * VRM Animation export call it for a clip with leg proportions. Allocation-free.
 * @param setup the avatar's muscle setup
 * @param human the pose decoded (its body and hips rotations, canonical)
 * @param pose the rig pose decoded from it, changed in place
 */
export function TurnHipsAsSourceInPlace(setup: MuscleSetup, human: HumanPose, pose: IRigPose): void {
    const hips = setup.joint[HumanBone.Hips];
    const hp = setup.rigParent[hips];
    const w = hipsWorld;
    QuaternionMultiplyToRef(human.bodyRotation, human.hipsRotation, w);
    QuaternionMultiplyToRef(setup.c0, w, w);
    QuaternionMultiplyToRef(w, setup.tposeCanonical[HumanBone.Hips], w);
    if (hp >= 0) {
        QuaternionConjugateToRef(setup.work.world[hp], parentInverse);
        QuaternionMultiplyToRef(parentInverse, w, pose.rotations[hips]);
    } else {
        pose.rotations[hips].copyFrom(w);
    }
}

/**
 * Whether a clip's proportions (the array form of `ClipProportionsToArray`) let `"legs"` seat the
 * body on the legs: a leg length over 0, an ankle height and a hip width of at least 0 (the rig
 * solver's test; a clip of file version 1 has none).
 * @param values the array form
 */
export function HasLegProportions(values: Float64Array): boolean {
    return values[0] > 0 && values[1] >= 0 && values[2] >= 0;
}
