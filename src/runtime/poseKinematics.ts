import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import type { IRigPose } from "../humanoid/rig.js";
import { QuaternionMultiplyToRef, Vector3CopyToRef } from "../math/hotMath.js";
import { MuscleSetup } from "../muscle/setup.js";

const tmpV = new Vector3();

/**
 * Forward kinematics of a rig pose for the joints the humanoid runtime touches (every mapped bone
 * and its ancestors, `MuscleSetup.fkJoints`), in rig space: the world rotations and positions the
 * world goals and look-at read after the clip's IK and write back as they change the pose.
 * Allocation-free per update.
 */
export class HumanoidPoseKinematics {
    /** World rotation (rig space) of every rig joint; valid for the covered joints after {@link update}. */
    public readonly world: Quaternion[];
    /** World position (rig space, metres) of every rig joint; valid for the covered joints after {@link update}. */
    public readonly positions: Vector3[];
    private readonly _setup: MuscleSetup;

    /** @param avatar the avatar whose poses are measured */
    constructor(avatar: HumanoidAvatar) {
        this._setup = MuscleSetup.For(avatar);
        const n = avatar.rig.joints.length;
        this.world = Array.from({ length: n }, () => Quaternion.Identity());
        this.positions = Array.from({ length: n }, () => new Vector3());
    }

    /** Recomputes every covered joint from `pose` (local rotations and positions, rig space). */
    public update(pose: IRigPose): void {
        const setup = this._setup;
        const fk = setup.fkJoints;
        const parent = setup.rigParent;
        const world = this.world;
        const pos = this.positions;
        const rot = pose.rotations;
        const lp = pose.positions;
        for (let k = 0; k < fk.length; k++) {
            const j = fk[k];
            const p = parent[j];
            if (p < 0) {
                world[j].copyFrom(rot[j]);
                Vector3CopyToRef(lp[j], pos[j]);
            } else {
                // world = parentWorld * local; position = parentPosition + parentWorld * (local position * parent scale)
                QuaternionMultiplyToRef(world[p], rot[j], world[j]);
                lp[j].multiplyToRef(setup.worldScale[p], tmpV);
                tmpV.applyRotationQuaternionInPlace(world[p]);
                pos[p].addToRef(tmpV, pos[j]);
            }
        }
    }
}
