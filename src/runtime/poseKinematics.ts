import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import type { HumanBone } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { ForwardKinematicsToRef } from "../muscle/kinematics.js";
import { MuscleSetup } from "../muscle/setup.js";

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
    /** Per rig joint: the covered joints of its subtree (itself included), parents first; null when it is not covered. */
    private readonly _below: (Int32Array | null)[];

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
        const covered = new Uint8Array(n);
        for (const j of this.joints) covered[j] = 1;
        const isBelow = (j: number, root: number): boolean => {
            for (let k = j; k >= 0; k = setup.rigParent[k]) if (k === root) return true;
            return false;
        };
        this._below = Array.from({ length: n }, (_, root) => (covered[root] ? this.joints.filter((j) => isBelow(j, root)) : null));
    }

    /** Recomputes every covered joint from `pose` (local rotations and positions, rig space). */
    public update(pose: IRigPose): void {
        ForwardKinematicsToRef(this._setup, pose.rotations, pose.positions, this.world, this.positions, this.joints);
    }

    /**
     * Recomputes the covered joints of `joint`'s subtree (itself included) from `pose`: what
     * {@link update} gives when only that subtree changed since the last update (the same numbers:
     * the same arithmetic on the same inputs). Every covered joint when `joint` is not covered.
     * Allocation-free.
     * @param pose the pose
     * @param joint the subtree's root (rig index)
     */
    public updateBelow(pose: IRigPose, joint: number): void {
        const below = this._below[joint];
        ForwardKinematicsToRef(this._setup, pose.rotations, pose.positions, this.world, this.positions, below ?? this.joints);
    }

    /**
     * Recomputes the given joints only (rig indices, parents first, each one's parent listed
     * before it or unchanged since the last update), e.g. the path from a changed joint to one
     * whose world rotation is needed next; the others keep their values. Allocation-free.
     * @param pose the pose
     * @param joints the joints to recompute
     */
    public updateJoints(pose: IRigPose, joints: Int32Array): void {
        ForwardKinematicsToRef(this._setup, pose.rotations, pose.positions, this.world, this.positions, joints);
    }
}
