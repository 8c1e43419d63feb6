import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { IRigWorldPose } from "../humanoid/rig.js";
import { MuscleSetup } from "../muscle/setup.js";

/**
 * The fronts of a character's feet that end at their ankles (no toes, no tip joint: their front is
 * read from their surface, `MuscleSetup.footFront`), in each foot's own frame
 * (`MuscleSetup.footFrontLocal`, copied): a recording follows such a front with its foot
 * (`footFronts` of a motion recording), as it follows the toes of a foot that has them as a joint.
 * Per foot (left, right): null where the foot has a tip joint (the recording has it among its
 * joints) or no front at all.
 * @param avatar the character
 */
export function FootFrontOffsets(avatar: HumanoidAvatar): [Vector3 | null, Vector3 | null] {
    const local = MuscleSetup.For(avatar).footFrontLocal;
    return [local[0]?.clone() ?? null, local[1]?.clone() ?? null];
}

/**
 * Where the feet's fronts ({@link FootFrontOffsets}) are in a world pose of the character's rig:
 * `out[0..2]` the left's, `out[3..5]` the right's (rig space, metres), NaN for a foot without one.
 * @param avatar the character
 * @param offsets its feet's fronts in their own frames ({@link FootFrontOffsets})
 * @param world a world pose of its rig (`ComputeRigWorldPose`)
 * @param out six numbers, written
 */
export function FootFrontsFromWorldPoseToRef(
    avatar: HumanoidAvatar,
    offsets: readonly (Vector3 | null)[],
    world: IRigWorldPose,
    out: Float32Array,
): Float32Array {
    const p = new Vector3();
    [HumanBone.LeftFoot, HumanBone.RightFoot].forEach((bone, s) => {
        const o = offsets[s];
        const j = avatar.getJoint(bone);
        if (!o || j < 0) {
            out.fill(NaN, 3 * s, 3 * s + 3);
            return;
        }
        o.applyRotationQuaternionToRef(world.rotations[j], p).addInPlace(world.positions[j]);
        out[3 * s] = p.x;
        out[3 * s + 1] = p.y;
        out[3 * s + 2] = p.z;
    });
    return out;
}
