import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { ComputeRigWorldPose } from "../humanoid/rig.js";
import { ReadRigPoseFromNodes } from "../io/babylonRig.js";
import { FootFrontOffsets } from "../quality/footFronts.js";

/**
 * Follows the fronts of a character's feet that end at their ankles (`FootFrontOffsets`) on its
 * nodes as they play: an empty child node under each such foot's node, where the front is in the
 * pose the nodes stand in when it is made (read back from them as a rig pose, so any pose will do,
 * the whole figure moved too), so that the scene carries it with the foot whatever the node's
 * transform holds (a handedness mirror included). For recordings (`RecordHumanoidRetarget`, the
 * AnimatorAvatar baseline), not the per-frame path; {@link dispose} takes the children away again.
 */
export class FootFrontNodes {
    private readonly _children: (TransformNode | null)[];

    /**
     * @param avatar the character
     * @param nodes its rig's nodes, in its joints' order
     * @param offsets the fronts in the feet's own frames (default the avatar's, `FootFrontOffsets`;
     *   another avatar's of the same file, made with another T-pose, to measure as that one does)
     */
    constructor(avatar: HumanoidAvatar, nodes: readonly TransformNode[], offsets: readonly (Vector3 | null)[] = FootFrontOffsets(avatar)) {
        const now = offsets[0] || offsets[1] ? ComputeRigWorldPose(avatar.rig, ReadRigPoseFromNodes({ rig: avatar.rig, nodes })) : null;
        this._children = [HumanBone.LeftFoot, HumanBone.RightFoot].map((bone, s) => {
            const j = avatar.getJoint(bone);
            const o = offsets[s];
            const foot = j >= 0 ? nodes[j] : undefined;
            if (!o || !now || !foot) return null;
            // The front where the nodes stand now (rig space: the scene's world positions), then in the foot node's own space.
            const world = o.applyRotationQuaternion(now.rotations[j]).addInPlace(now.positions[j]);
            const child = new TransformNode(`${foot.name} front`, foot.getScene(), true);
            child.parent = foot;
            child.position = Vector3.TransformCoordinates(world, Matrix.Invert(foot.computeWorldMatrix(true)));
            return child;
        });
    }

    /** Whether any foot has a front to follow. */
    public get any(): boolean {
        return this._children.some((c) => c !== null);
    }

    /**
     * The fronts where the nodes now put them (their world matrices up to date: read after
     * computing the feet's): `out[0..2]` the left's, `out[3..5]` the right's (world, metres), NaN
     * for a foot without one.
     * @param out six numbers, written
     */
    public readInto(out: Float32Array): Float32Array {
        this._children.forEach((c, s) => {
            if (!c) {
                out.fill(NaN, 3 * s, 3 * s + 3);
                return;
            }
            const p = c.computeWorldMatrix(true).getTranslation();
            out[3 * s] = p.x;
            out[3 * s + 1] = p.y;
            out[3 * s + 2] = p.z;
        });
        return out;
    }

    /** Takes the children away from the feet's nodes. */
    public dispose(): void {
        for (const c of this._children) c?.dispose();
    }
}
