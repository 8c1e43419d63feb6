import { HumanBone, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import type { ISurfaceFitRig } from "./fitRig.js";
import { MergeSurfaceFitBones } from "./mergeBones.js";

/**
 * A second, coarser rig for the surface fit made from a character's own one by its human bone
 * map: chosen human bones merged into their parents (by default the upper chest and every finger
 * joint, as the Mixamo X Bot's `Spine2` and fingers in issue 13's test), so any mapped humanoid
 * gives a rig the fit cannot reproduce exactly without new data.
 */

/** The human bones {@link MergeHumanBonesOfSurfaceFitRig} merges by default: the upper chest and the 30 finger joints. */
export const SURFACE_FIT_COARSE_HUMAN_BONES: readonly HumanBone[] = [
    HumanBone.UpperChest,
    ...Array.from({ length: HumanBone.RightLittleDistal - HumanBone.LeftThumbProximal + 1 }, (_, i) => (HumanBone.LeftThumbProximal + i) as HumanBone),
];

/**
 * Merges into their parents ({@link MergeSurfaceFitBones}) the rig's bones that `avatar` maps to
 * one of `humanBones`, found by name (the rig's bone names are the joint labels of the avatar's
 * rig, as for a glTF character read by `CreateSurfaceFitMeshes` and `LoadHumanoidCharacterAsync`),
 * and every bone below a merged one that the avatar does not map (finger tips). Never writes
 * `rig`. Cold path; allocates.
 * @param rig the surface-fit rig of the character
 * @param avatar the character's humanoid avatar
 * @param humanBones the human bones to merge (default {@link SURFACE_FIT_COARSE_HUMAN_BONES})
 * @returns the merged rig, for every bone the bone its weights went to, and how many bones were merged
 */
export function MergeHumanBonesOfSurfaceFitRig(
    rig: ISurfaceFitRig,
    avatar: HumanoidAvatar,
    humanBones: readonly HumanBone[] = SURFACE_FIT_COARSE_HUMAN_BONES,
): {
    /** The merged rig: the same bones, the merged ones with no vertex weight. */
    rig: ISurfaceFitRig;
    /** For every bone, the bone its weights went to (itself when kept). */
    target: Int32Array;
    /** How many bones were merged. */
    mergedCount: number;
} {
    const mapped = new Set<string>();
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const label = avatar.getJointLabel(b);
        if (label !== undefined) mapped.add(label);
    }
    const wanted = new Set<string>();
    for (const b of humanBones) {
        const label = avatar.getJointLabel(b);
        if (label !== undefined) wanted.add(label);
    }
    // Bones come parents first in no guaranteed order: decide each from its chain of ancestors.
    const merged = new Int8Array(rig.boneCount).fill(-1);
    const isMerged = (j: number): boolean => {
        if (merged[j] < 0) {
            const name = rig.boneNames[j];
            const p = rig.boneParents[j];
            merged[j] = wanted.has(name) || (!mapped.has(name) && p >= 0 && isMerged(p)) ? 1 : 0;
        }
        return merged[j] === 1;
    };
    const result = MergeSurfaceFitBones(rig, (j) => isMerged(j));
    let mergedCount = 0;
    result.target.forEach((t, j) => (mergedCount += t !== j ? 1 : 0));
    return { ...result, mergedCount };
}
