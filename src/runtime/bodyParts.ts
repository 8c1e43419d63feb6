import { HumanBone } from "../humanoid/humanBones.js";
import { Muscles } from "../muscle/muscles.js";
import { TranslationDofBones } from "../muscle/translationDof.js";

const B = HumanBone;

/** Parts of the body a layer can be limited to (as the parts of Unity's avatar masks). */
export enum HumanBodyPart {
    /** Hips, spine, chest and upper chest, and the body's position and orientation. */
    Body = 0,
    /** Neck, head, eyes and jaw. */
    Head = 1,
    /** Left shoulder, upper arm, forearm and hand, and the left hand's IK goal. */
    LeftArm = 2,
    /** Right shoulder, upper arm, forearm and hand, and the right hand's IK goal. */
    RightArm = 3,
    /** Left hand fingers. */
    LeftFingers = 4,
    /** Right hand fingers. */
    RightFingers = 5,
    /** Left upper leg, lower leg, foot and toes, and the left foot's IK goal. */
    LeftLeg = 6,
    /** Right upper leg, lower leg, foot and toes, and the right foot's IK goal. */
    RightLeg = 7,
}

/** Number of {@link HumanBodyPart}s. */
export const HUMAN_BODY_PART_COUNT = 8;

/** The body part a human bone belongs to. */
export function GetHumanBodyPart(bone: HumanBone): HumanBodyPart {
    if (bone < B.LeftThumbProximal) {
        if (bone === B.LeftUpperLeg || bone === B.LeftLowerLeg || bone === B.LeftFoot || bone === B.LeftToes) return HumanBodyPart.LeftLeg;
        if (bone === B.RightUpperLeg || bone === B.RightLowerLeg || bone === B.RightFoot || bone === B.RightToes) return HumanBodyPart.RightLeg;
        if (bone === B.LeftShoulder || bone === B.LeftUpperArm || bone === B.LeftLowerArm || bone === B.LeftHand) return HumanBodyPart.LeftArm;
        if (bone === B.RightShoulder || bone === B.RightUpperArm || bone === B.RightLowerArm || bone === B.RightHand) return HumanBodyPart.RightArm;
        if (bone === B.Neck || bone === B.Head || bone === B.LeftEye || bone === B.RightEye || bone === B.Jaw) return HumanBodyPart.Head;
        return HumanBodyPart.Body;
    }
    return bone <= B.LeftLittleDistal ? HumanBodyPart.LeftFingers : HumanBodyPart.RightFingers;
}

/**
 * The body part of every muscle.
 * @internal
 */
export const MUSCLE_PART: Uint8Array = Uint8Array.from(Muscles.map((m) => GetHumanBodyPart(m.bone)));
/**
 * The body part of every translation DoF (`TranslationDofBones` order).
 * @internal
 */
export const TRANSLATION_PART: Uint8Array = Uint8Array.from(TranslationDofBones.map((b) => GetHumanBodyPart(b)));
/**
 * The body part of every IK goal.
 * @internal
 */
export const GOAL_PART: readonly HumanBodyPart[] = [HumanBodyPart.LeftLeg, HumanBodyPart.RightLeg, HumanBodyPart.LeftArm, HumanBodyPart.RightArm];
