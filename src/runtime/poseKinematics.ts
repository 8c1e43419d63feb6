import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import type { HumanBone } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { QuaternionMultiplyToRef, Vector3CopyToRef } from "../math/hotMath.js";
import { MuscleSetup } from "../muscle/setup.js";

const tmpV = new Vector3();

/**
 * Forward kinematics of a rig pose in rig space, for some human bones and their ancestors (all
 * mapped bones by default, `MuscleSetup.fkJoints`): the world rotations and positions the world
 * goals and look-at read after the clip's IK and write back as they change the pose.
 * Allocation-free per update.
 */
export class HumanoidPoseKinematics {
    /** World rotation (rig space) of every rig joint; valid for the covered joints after {@link update}. */
    public readonly world: Quaternion[];
    /** World position (rig space, metres) of every rig joint; valid for the covered joints after {@link update}. */
    public readonly positions: Vector3[];
    /** The joints covered, parents first (rig indices). */
    public readonly joints: Int32Array;
    private readonly _setup: MuscleSetup;

    /**
     * @param avatar the avatar whose poses are measured
     * @param bones the human bones to cover, with their ancestors (unmapped ones skipped); default every mapped bone
     */
    constructor(avatar: HumanoidAvatar, bones?: readonly HumanBone[]) {
        this._setup = MuscleSetup.For(avatar);
        const setup = this._setup;
        if (bones) {
            const need = new Uint8Array(avatar.rig.joints.length);
            for (const b of bones) for (let j = setup.joint[b]; j >= 0 && !need[j]; j = setup.rigParent[j]) need[j] = 1;
            this.joints = setup.fkJoints.filter((j) => need[j] === 1);
        } else {
            this.joints = setup.fkJoints;
        }
        const n = avatar.rig.joints.length;
        this.world = Array.from({ length: n }, () => Quaternion.Identity());
        this.positions = Array.from({ length: n }, () => new Vector3());
    }

    /** Recomputes every covered joint from `pose` (local rotations and positions, rig space). */
    public update(pose: IRigPose): void {
        const setup = this._setup;
        const fk = this.joints;
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
