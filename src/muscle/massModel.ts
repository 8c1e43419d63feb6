import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { BodySide, GetFingerBone, HumanBone, HumanBoneSides, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { FarthestBoneChildOffset } from "../humanoid/boneChildOffset.js";

const B = HumanBone;

/**
 * Unity's default hierarchy masses (kg of a normal 82.5 kg person; reference §1): a bone's mass plus
 * everything below it. A bone's own mass is its hierarchy mass minus its mapped human children's,
 * so the mass of a missing optional bone falls to its nearest mapped ancestor.
 */
export const HIERARCHY_MASS: Readonly<Partial<Record<HumanBone, number>>> = {
    [HumanBone.Hips]: 82.5,
    [HumanBone.LeftUpperLeg]: 15,
    [HumanBone.RightUpperLeg]: 15,
    [HumanBone.LeftLowerLeg]: 5,
    [HumanBone.RightLowerLeg]: 5,
    [HumanBone.LeftFoot]: 1,
    [HumanBone.RightFoot]: 1,
    [HumanBone.LeftToes]: 0.2,
    [HumanBone.RightToes]: 0.2,
    [HumanBone.Spine]: 40.5,
    [HumanBone.Chest]: 38,
    [HumanBone.UpperChest]: 26,
    [HumanBone.Neck]: 5,
    [HumanBone.Head]: 4,
    [HumanBone.LeftShoulder]: 4.5,
    [HumanBone.RightShoulder]: 4.5,
    [HumanBone.LeftUpperArm]: 4,
    [HumanBone.RightUpperArm]: 4,
    [HumanBone.LeftLowerArm]: 2,
    [HumanBone.RightLowerArm]: 2,
    [HumanBone.LeftHand]: 0.5,
    [HumanBone.RightHand]: 0.5,
};

/**
 * A humanoid's mass model: per mapped bone with mass of its own, the joint it rides on, its mass
 * (kg of {@link HIERARCHY_MASS}'s person) and where its mass sits (the middle of its segment) in
 * the joint's local frame. Built once from the T-pose (`BuildMassModel`).
 */
export interface IMassModel {
    /** The rig joint of each mass point. */
    readonly joint: Int32Array;
    /** Each point's own mass: its bone's hierarchy mass less its mapped human children's. */
    readonly weight: Float32Array;
    /** Each point's offset from its joint, in the joint's rotated T-pose frame (rotation only), metres: the middle of the bone's segment. */
    readonly offset: Vector3[];
    /** The centre of mass in the T-pose (world, metres). */
    readonly centre: Vector3;
}

/**
 * The mass model of an avatar in its T-pose (`avatar.referenceWorld`): each mapped bone's own mass
 * at the middle of its segment (to its next mapped bone; a hand to its middle finger, a foot to its
 * toes or tip, the head to its tip where that is longer than 0.1 of the hips-to-head distance, else
 * 0.3 of that distance up; the pelvis at the
 * centroid of the hips and both hip joints). A missing optional bone's mass falls to its nearest
 * mapped ancestor. Cold path; allocates.
 * @param avatar the avatar
 * @param joint each human bone's rig joint (-1 unmapped)
 * @param parentBone each human bone's nearest mapped human ancestor (-1 none)
 * @param children each rig joint's children (`GetRigChildren`)
 */
export function BuildMassModel(avatar: HumanoidAvatar, joint: Int32Array, parentBone: Int32Array, children: readonly (readonly number[])[]): IMassModel {
    const ref = avatar.referenceWorld;
    const f = avatar.frame;
    const tipOf = (j: number): Vector3 | null => FarthestBoneChildOffset(avatar.rig, children, ref.positions, j);
    const legLength = ref.positions[joint[B.Hips]].subtract(ref.positions[joint[B.LeftFoot]]).length();
    const massJoint: number[] = [];
    const massWeight: number[] = [];
    const massOffset: Vector3[] = [];
    const segmentEnd = (b: HumanBone): Vector3 => {
        const j = joint[b];
        const p = ref.positions[j];
        const at = (x: HumanBone): Vector3 | null => (joint[x] >= 0 ? ref.positions[joint[x]] : null);
        const first = (...xs: HumanBone[]): Vector3 | null => {
            for (const x of xs) {
                const v = at(x);
                if (v) return v;
            }
            return null;
        };
        const side = HumanBoneSides[b];
        const s = side === BodySide.Right ? BodySide.Right : BodySide.Left;
        let end: Vector3 | null;
        switch (b) {
            case B.Hips: {
                // The pelvis: its mass at the centroid of the hips joint and both hip joints,
                // so the "segment end" is the centroid mirrored through the joint.
                const centroid = p
                    .add(at(B.LeftUpperLeg)!)
                    .add(at(B.RightUpperLeg)!)
                    .scale(1 / 3);
                return centroid.scale(2).subtract(p);
            }
            case B.Spine:
                end = first(B.Chest, B.UpperChest, B.Neck, B.Head);
                break;
            case B.Chest:
                end = first(B.UpperChest, B.Neck, B.Head);
                break;
            case B.UpperChest:
                end = first(B.Neck, B.Head);
                break;
            case B.Neck:
                end = at(B.Head);
                break;
            case B.Head: {
                const tip = tipOf(j);
                const hipsToHead = p.subtract(ref.positions[joint[B.Hips]]).length();
                end = tip && tip.length() > 0.1 * hipsToHead ? p.add(tip) : p.add(f.up.scale(0.3 * hipsToHead));
                break;
            }
            case B.LeftShoulder:
            case B.RightShoulder:
                end = at(b === B.LeftShoulder ? B.LeftUpperArm : B.RightUpperArm);
                break;
            case B.LeftHand:
            case B.RightHand: {
                end = first(GetFingerBone(s, 2, 0), GetFingerBone(s, 3, 0), GetFingerBone(s, 1, 0));
                if (!end) {
                    const tip = tipOf(j);
                    const fore = p.subtract(ref.positions[joint[b === B.LeftHand ? B.LeftLowerArm : B.RightLowerArm]]);
                    end = tip ? p.add(tip) : p.add(fore.scale(0.4));
                }
                break;
            }
            case B.LeftFoot:
            case B.RightFoot: {
                end = at(b === B.LeftFoot ? B.LeftToes : B.RightToes);
                const tip = tipOf(j);
                if (!end) end = tip ? p.add(tip) : p.add(f.forward.scale(0.1 * legLength));
                break;
            }
            case B.LeftToes:
            case B.RightToes: {
                const tip = tipOf(j);
                end = tip ? p.add(tip) : p.clone();
                break;
            }
            default: {
                const next: Partial<Record<HumanBone, HumanBone>> = {
                    [B.LeftUpperArm]: B.LeftLowerArm,
                    [B.RightUpperArm]: B.RightLowerArm,
                    [B.LeftLowerArm]: B.LeftHand,
                    [B.RightLowerArm]: B.RightHand,
                    [B.LeftUpperLeg]: B.LeftLowerLeg,
                    [B.RightUpperLeg]: B.RightLowerLeg,
                    [B.LeftLowerLeg]: B.LeftFoot,
                    [B.RightLowerLeg]: B.RightFoot,
                };
                end = next[b] !== undefined ? at(next[b]!) : null;
            }
        }
        return end ?? p.clone();
    };
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const j = joint[b];
        const total = HIERARCHY_MASS[b as HumanBone];
        if (j < 0 || !total) continue;
        let own = total;
        for (let c = 0; c < HUMAN_BONE_COUNT; c++) {
            if (parentBone[c] === b) own -= HIERARCHY_MASS[c as HumanBone] ?? 0;
        }
        if (own <= 0) continue;
        const end = segmentEnd(b);
        const mid = ref.positions[j].add(end).scale(0.5);
        massJoint.push(j);
        massWeight.push(own);
        massOffset.push(mid.subtract(ref.positions[j]).applyRotationQuaternion(Quaternion.Inverse(ref.rotations[j])));
    }
    // The T-pose's centre of mass, summed over the masses as computed (not as stored in 32 bits).
    const centre = Vector3.Zero();
    let total = 0;
    for (let i = 0; i < massJoint.length; i++) {
        const p = ref.positions[massJoint[i]].add(massOffset[i].applyRotationQuaternion(ref.rotations[massJoint[i]]));
        centre.addInPlace(p.scale(massWeight[i]));
        total += massWeight[i];
    }
    centre.scaleInPlace(1 / total);
    return { joint: Int32Array.from(massJoint), weight: Float32Array.from(massWeight), offset: massOffset, centre };
}
