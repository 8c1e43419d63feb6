import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, HumanBoneNames } from "../humanoid/humanBones.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { MuscleSetup } from "./setup.js";

/**
 * Translation degrees of freedom (Unity's "Translation DoF", which it has on the spine, chest,
 * neck, shoulders and upper legs): a clip may move these bones' joints away from where their
 * parent puts them in the T-pose, as stylized clips do to sway the hip joints or shrug a shoulder
 * on a rig without shoulder bones (the KayKit clips move the upper legs by up to 10 cm and the
 * upper arms by 6). Muscle space alone has rotations only, and such a clip would lose that part of
 * its motion on every character, its own included.
 *
 * Each offset is measured in its mapped parent bone's frame relative to that bone's T-pose
 * (canonical axes: right, up, forward as the character stands in its T-pose), in a length of the
 * character's own body at that place (`MuscleSetup.translationUnit`, see
 * {@link TranslationDofUnits}): `u = Dc(parent)^-1 * c0^-1 * d / unit`, `d` the joint's world
 * offset from its T-pose place below its parent. It turns with the parent and scales with the
 * body part, so a hip joint that sways a fifth of the source's hip width sways a fifth of any
 * character's (scaled by the height instead, a sway made for broad hips turns a narrow pelvis
 * about). The upper arm is in the set for rigs with no shoulder bone, where its translation is
 * the shoulder's motion; the head for necks that stretch.
 */
export const TranslationDofBones: readonly HumanBone[] = [
    HumanBone.Spine,
    HumanBone.Chest,
    HumanBone.UpperChest,
    HumanBone.Neck,
    HumanBone.Head,
    HumanBone.LeftShoulder,
    HumanBone.RightShoulder,
    HumanBone.LeftUpperArm,
    HumanBone.RightUpperArm,
    HumanBone.LeftUpperLeg,
    HumanBone.RightUpperLeg,
];

/** Number of translation degrees of freedom (bones of {@link TranslationDofBones}: 11). */
export const TRANSLATION_DOF_COUNT = TranslationDofBones.length;

/** The slot of every human bone in {@link TranslationDofBones}, -1 for bones without one (indexed by {@link HumanBone}). */
export const TranslationDofSlot: Int8Array = (() => {
    const slots = new Int8Array(HumanBoneNames.length).fill(-1);
    TranslationDofBones.forEach((b, s) => (slots[b] = s));
    return slots;
})();

/** The curve name prefix of each translation, `translation.<bone>` (its curves add `.x|y|z`). */
export const TranslationDofNames: readonly string[] = TranslationDofBones.map((b) => `translation.${HumanBoneNames[b]}`);

/** The slot each slot mirrors to (left and right swap, centre bones stay). */
export const TranslationDofMirrors: readonly number[] = TranslationDofBones.map((b) => {
    const name = HumanBoneNames[b];
    const other = name.startsWith("left") ? `right${name.slice(4)}` : name.startsWith("right") ? `left${name.slice(5)}` : name;
    return TranslationDofBones.findIndex((x) => HumanBoneNames[x] === other);
});

const tmpQ = new Quaternion();

/**
 * The length each translation DoF of an avatar is measured in (metres, {@link TranslationDofBones}
 * order), from its T-pose joint positions: the distance between the hip joints for the upper legs,
 * between the upper-arm joints for the shoulders and upper arms, and the T-pose distance from the
 * mapped parent bone's joint for the spine, chest, upper chest, neck and head; the avatar's scale
 * (its T-pose centre-of-mass height) where that length is 0 or a bone is missing.
 * @param positions T-pose world positions of the rig's joints
 */
export function TranslationDofUnits(setup: Pick<MuscleSetup, "joint" | "parentBone" | "scale">, positions: readonly Vector3[]): Float64Array {
    const at = (b: HumanBone): Vector3 | null => (setup.joint[b] >= 0 ? positions[setup.joint[b]] : null);
    const span = (a: HumanBone, b: HumanBone): number => {
        const pa = at(a);
        const pb = at(b);
        return pa && pb ? Vector3.Distance(pa, pb) : 0;
    };
    const units = new Float64Array(TRANSLATION_DOF_COUNT);
    TranslationDofBones.forEach((b, s) => {
        let u: number;
        if (b === HumanBone.LeftUpperLeg || b === HumanBone.RightUpperLeg) u = span(HumanBone.LeftUpperLeg, HumanBone.RightUpperLeg);
        else if (b === HumanBone.LeftShoulder || b === HumanBone.RightShoulder || b === HumanBone.LeftUpperArm || b === HumanBone.RightUpperArm)
            u = span(HumanBone.LeftUpperArm, HumanBone.RightUpperArm);
        else u = setup.parentBone[b] >= 0 ? span(setup.parentBone[b] as HumanBone, b) : 0;
        units[s] = u > 1e-6 * setup.scale ? u : setup.scale;
    });
    return units;
}

/**
 * A translation's slot value from a joint's world offset `d` (rig space): the inverse of
 * {@link TranslationDofOffsetToRef}, `u = Dc(parent)^-1 * c0^-1 * d / unit`. Allocation-free.
 * @returns `result`
 */
export function TranslationDofFromOffsetToRef(setup: MuscleSetup, dc: readonly Quaternion[], slot: number, d: Vector3, result: Vector3): Vector3 {
    const parent = setup.parentBone[TranslationDofBones[slot]];
    if (parent < 0) return result.setAll(0);
    // Written out (no number passed to a call): the encoder's per-frame path (see `hotMath`).
    QuaternionMultiplyToRef(setup.c0, dc[parent], tmpQ);
    QuaternionConjugateToRef(tmpQ, tmpQ);
    d.applyRotationQuaternionToRef(tmpQ, result);
    const k = 1 / setup.translationUnit[slot];
    result.x *= k;
    result.y *= k;
    result.z *= k;
    return result;
}

/**
 * The world offset of translation slot `slot` for a pose: `c0 * dc[parent] * u * unit` (rig
 * space), where `dc` holds the mapped bones' rotations from their T-pose in canonical axes, as the
 * encoder and decoder keep them. Allocation-free.
 * @param u the slot's offset (canonical parent frame, in the slot's `translationUnit`)
 * @returns `result`
 */
export function TranslationDofOffsetToRef(setup: MuscleSetup, dc: readonly Quaternion[], slot: number, u: Vector3, result: Vector3): Vector3 {
    const parent = setup.parentBone[TranslationDofBones[slot]];
    if (parent < 0) return result.setAll(0);
    // Written out (no number passed to a call): the decoder's per-frame path (see `hotMath`).
    QuaternionMultiplyToRef(setup.c0, dc[parent], tmpQ);
    const scale = setup.translationUnit[slot];
    result.x = u.x * scale;
    result.y = u.y * scale;
    result.z = u.z * scale;
    return result.applyRotationQuaternionInPlace(tmpQ);
}

/**
 * Whether any slot of `translations` is not zero (the decoder's shortcut: most clips have no
 * translations).
 */
export function HasTranslationDof(translations: readonly Vector3[]): boolean {
    for (let s = 0; s < translations.length; s++) {
        const t = translations[s];
        if (t.x !== 0 || t.y !== 0 || t.z !== 0) return true;
    }
    return false;
}
