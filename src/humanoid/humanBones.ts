/**
 * The normalized humanoid: 55 human bones (Unity's HumanBodyBones, named in camelCase as VRM 0.x
 * names them), their parents, which are required, their side and their mirror twin.
 *
 * The enum order puts every parent before its children, so a loop over `0..HUMAN_BONE_COUNT-1`
 * visits the hierarchy top-down. Serialized data always uses the string names, never the indices.
 */
export enum HumanBone {
    /** The hips (pelvis): the root of the humanoid, parent of the spine and both legs; carries the body's position (required). */
    Hips = 0,
    /** The lowest spine bone, above the hips (required). */
    Spine,
    /** The chest, above the spine (optional). */
    Chest,
    /** The upper chest, above the chest (optional). */
    UpperChest,
    /** The neck, below the head (optional). */
    Neck,
    /** The head (required). */
    Head,
    /** The left eye, under the head (optional). */
    LeftEye,
    /** The right eye, under the head (optional). */
    RightEye,
    /** The jaw, under the head (optional). */
    Jaw,
    /** The left shoulder (clavicle), between the chest and the upper arm (optional). */
    LeftShoulder,
    /** The left upper arm, from the shoulder joint to the elbow (required). */
    LeftUpperArm,
    /** The left forearm, from the elbow to the wrist (required). */
    LeftLowerArm,
    /** The left hand, from the wrist (required). */
    LeftHand,
    /** The right shoulder (clavicle), between the chest and the upper arm (optional). */
    RightShoulder,
    /** The right upper arm, from the shoulder joint to the elbow (required). */
    RightUpperArm,
    /** The right forearm, from the elbow to the wrist (required). */
    RightLowerArm,
    /** The right hand, from the wrist (required). */
    RightHand,
    /** The left thigh, from the hip joint to the knee (required). */
    LeftUpperLeg,
    /** The left shin, from the knee to the ankle (required). */
    LeftLowerLeg,
    /** The left foot, from the ankle (required). */
    LeftFoot,
    /** The left toes, from the ball of the foot (optional). */
    LeftToes,
    /** The right thigh, from the hip joint to the knee (required). */
    RightUpperLeg,
    /** The right shin, from the knee to the ankle (required). */
    RightLowerLeg,
    /** The right foot, from the ankle (required). */
    RightFoot,
    /** The right toes, from the ball of the foot (optional). */
    RightToes,
    /** The left thumb's first (proximal) segment, nearest the hand (optional). */
    LeftThumbProximal,
    /** The left thumb's middle (intermediate) segment (optional). */
    LeftThumbIntermediate,
    /** The left thumb's last (distal) segment, at the tip (optional). */
    LeftThumbDistal,
    /** The left index finger's first (proximal) segment, nearest the hand (optional). */
    LeftIndexProximal,
    /** The left index finger's middle (intermediate) segment (optional). */
    LeftIndexIntermediate,
    /** The left index finger's last (distal) segment, at the tip (optional). */
    LeftIndexDistal,
    /** The left middle finger's first (proximal) segment, nearest the hand (optional). */
    LeftMiddleProximal,
    /** The left middle finger's middle (intermediate) segment (optional). */
    LeftMiddleIntermediate,
    /** The left middle finger's last (distal) segment, at the tip (optional). */
    LeftMiddleDistal,
    /** The left ring finger's first (proximal) segment, nearest the hand (optional). */
    LeftRingProximal,
    /** The left ring finger's middle (intermediate) segment (optional). */
    LeftRingIntermediate,
    /** The left ring finger's last (distal) segment, at the tip (optional). */
    LeftRingDistal,
    /** The left little finger's first (proximal) segment, nearest the hand (optional). */
    LeftLittleProximal,
    /** The left little finger's middle (intermediate) segment (optional). */
    LeftLittleIntermediate,
    /** The left little finger's last (distal) segment, at the tip (optional). */
    LeftLittleDistal,
    /** The right thumb's first (proximal) segment, nearest the hand (optional). */
    RightThumbProximal,
    /** The right thumb's middle (intermediate) segment (optional). */
    RightThumbIntermediate,
    /** The right thumb's last (distal) segment, at the tip (optional). */
    RightThumbDistal,
    /** The right index finger's first (proximal) segment, nearest the hand (optional). */
    RightIndexProximal,
    /** The right index finger's middle (intermediate) segment (optional). */
    RightIndexIntermediate,
    /** The right index finger's last (distal) segment, at the tip (optional). */
    RightIndexDistal,
    /** The right middle finger's first (proximal) segment, nearest the hand (optional). */
    RightMiddleProximal,
    /** The right middle finger's middle (intermediate) segment (optional). */
    RightMiddleIntermediate,
    /** The right middle finger's last (distal) segment, at the tip (optional). */
    RightMiddleDistal,
    /** The right ring finger's first (proximal) segment, nearest the hand (optional). */
    RightRingProximal,
    /** The right ring finger's middle (intermediate) segment (optional). */
    RightRingIntermediate,
    /** The right ring finger's last (distal) segment, at the tip (optional). */
    RightRingDistal,
    /** The right little finger's first (proximal) segment, nearest the hand (optional). */
    RightLittleProximal,
    /** The right little finger's middle (intermediate) segment (optional). */
    RightLittleIntermediate,
    /** The right little finger's last (distal) segment, at the tip (optional). */
    RightLittleDistal,
}

/** Number of human bones (55). */
export const HUMAN_BONE_COUNT = 55;

/** Which side of the body a human bone is on. */
export enum BodySide {
    /** On the body's midline (hips, spine, neck, head, jaw). */
    Center = 0,
    /** On the body's own left (the character's left, not the viewer's). */
    Left = 1,
    /** On the body's own right. */
    Right = 2,
}

/** The camelCase name of every human bone, indexed by {@link HumanBone} (`"leftUpperArm"`...). */
export const HumanBoneNames: readonly string[] = [
    "hips",
    "spine",
    "chest",
    "upperChest",
    "neck",
    "head",
    "leftEye",
    "rightEye",
    "jaw",
    "leftShoulder",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightShoulder",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "leftToes",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
    "rightToes",
    "leftThumbProximal",
    "leftThumbIntermediate",
    "leftThumbDistal",
    "leftIndexProximal",
    "leftIndexIntermediate",
    "leftIndexDistal",
    "leftMiddleProximal",
    "leftMiddleIntermediate",
    "leftMiddleDistal",
    "leftRingProximal",
    "leftRingIntermediate",
    "leftRingDistal",
    "leftLittleProximal",
    "leftLittleIntermediate",
    "leftLittleDistal",
    "rightThumbProximal",
    "rightThumbIntermediate",
    "rightThumbDistal",
    "rightIndexProximal",
    "rightIndexIntermediate",
    "rightIndexDistal",
    "rightMiddleProximal",
    "rightMiddleIntermediate",
    "rightMiddleDistal",
    "rightRingProximal",
    "rightRingIntermediate",
    "rightRingDistal",
    "rightLittleProximal",
    "rightLittleIntermediate",
    "rightLittleDistal",
];

const H = HumanBone;

/**
 * Parent of every human bone in the full humanoid (Unity's HumanTrait.GetParentBone), -1 for the
 * hips. When an optional parent is not mapped, walk further up ({@link GetMappedHumanParent}).
 */
export const HumanBoneParents: readonly number[] = (() => {
    const p = new Array<number>(HUMAN_BONE_COUNT).fill(-1);
    p[H.Spine] = H.Hips;
    p[H.Chest] = H.Spine;
    p[H.UpperChest] = H.Chest;
    p[H.Neck] = H.UpperChest;
    p[H.Head] = H.Neck;
    p[H.LeftEye] = H.Head;
    p[H.RightEye] = H.Head;
    p[H.Jaw] = H.Head;
    p[H.LeftShoulder] = H.UpperChest;
    p[H.LeftUpperArm] = H.LeftShoulder;
    p[H.LeftLowerArm] = H.LeftUpperArm;
    p[H.LeftHand] = H.LeftLowerArm;
    p[H.RightShoulder] = H.UpperChest;
    p[H.RightUpperArm] = H.RightShoulder;
    p[H.RightLowerArm] = H.RightUpperArm;
    p[H.RightHand] = H.RightLowerArm;
    p[H.LeftUpperLeg] = H.Hips;
    p[H.LeftLowerLeg] = H.LeftUpperLeg;
    p[H.LeftFoot] = H.LeftLowerLeg;
    p[H.LeftToes] = H.LeftFoot;
    p[H.RightUpperLeg] = H.Hips;
    p[H.RightLowerLeg] = H.RightUpperLeg;
    p[H.RightFoot] = H.RightLowerLeg;
    p[H.RightToes] = H.RightFoot;
    for (let f = 0; f < 5; f++) {
        const l = H.LeftThumbProximal + f * 3;
        const r = H.RightThumbProximal + f * 3;
        p[l] = H.LeftHand;
        p[l + 1] = l;
        p[l + 2] = l + 1;
        p[r] = H.RightHand;
        p[r + 1] = r;
        p[r + 2] = r + 1;
    }
    return p;
})();

/** The arm and leg bones, shoulders to hands and thighs to feet (no toes, no fingers). */
export const LimbBones: readonly HumanBone[] = [
    H.LeftShoulder,
    H.RightShoulder,
    H.LeftUpperArm,
    H.RightUpperArm,
    H.LeftLowerArm,
    H.RightLowerArm,
    H.LeftHand,
    H.RightHand,
    H.LeftUpperLeg,
    H.RightUpperLeg,
    H.LeftLowerLeg,
    H.RightLowerLeg,
    H.LeftFoot,
    H.RightFoot,
];

/**
 * The next bone along a limb or finger, the one a bone points at in the T-pose: shoulder to upper
 * arm to forearm to hand, thigh to shin to foot, one finger digit to the next; -1 for the others
 * (hands, feet, distal digits, the spine and head, whose direction is fixed).
 */
export const HumanBoneChainChild: readonly number[] = (() => {
    const c = new Array<number>(HUMAN_BONE_COUNT).fill(-1);
    for (const b of LimbBones) if (b !== H.LeftShoulder && b !== H.RightShoulder) c[HumanBoneParents[b]] = b;
    for (let b = H.LeftThumbProximal; b < HUMAN_BONE_COUNT; b++) if ((b - H.LeftThumbProximal) % 3 < 2) c[b] = b + 1;
    return c;
})();

/** The 15 bones every avatar must map. */
export const RequiredHumanBones: readonly HumanBone[] = [
    H.Hips,
    H.Spine,
    H.Head,
    H.LeftUpperArm,
    H.LeftLowerArm,
    H.LeftHand,
    H.RightUpperArm,
    H.RightLowerArm,
    H.RightHand,
    H.LeftUpperLeg,
    H.LeftLowerLeg,
    H.LeftFoot,
    H.RightUpperLeg,
    H.RightLowerLeg,
    H.RightFoot,
];

/** `true` for the 15 required bones, indexed by {@link HumanBone}. */
export const HumanBoneRequired: readonly boolean[] = (() => {
    const r = new Array<boolean>(HUMAN_BONE_COUNT).fill(false);
    for (const b of RequiredHumanBones) {
        r[b] = true;
    }
    return r;
})();

/** Side of every human bone, indexed by {@link HumanBone}. */
export const HumanBoneSides: readonly BodySide[] = HumanBoneNames.map((n) =>
    n.startsWith("left") ? BodySide.Left : n.startsWith("right") ? BodySide.Right : BodySide.Center,
);

/** The mirror twin of every human bone (left <-> right; centre bones map to themselves). */
export const HumanBoneMirrors: readonly number[] = HumanBoneNames.map((n, i) => {
    if (n.startsWith("left")) {
        return HumanBoneNames.indexOf("right" + n.slice(4));
    }
    if (n.startsWith("right")) {
        return HumanBoneNames.indexOf("left" + n.slice(5));
    }
    return i;
});

/** Finger names in hand order, thumb first. */
export const FingerNames = ["Thumb", "Index", "Middle", "Ring", "Little"] as const;

/** Digit names in order from the hand outwards. */
export const DigitNames = ["Proximal", "Intermediate", "Distal"] as const;

/**
 * The finger bone of a side, finger (0 = thumb ... 4 = little) and digit (0 = proximal, 1 =
 * intermediate, 2 = distal).
 */
export function GetFingerBone(side: BodySide.Left | BodySide.Right, finger: number, digit: number): HumanBone {
    return ((side === BodySide.Left ? H.LeftThumbProximal : H.RightThumbProximal) + finger * 3 + digit) as HumanBone;
}

/** `true` when the bone is one of the 30 finger bones. */
export function IsFingerBone(bone: HumanBone): boolean {
    return bone >= H.LeftThumbProximal;
}

const nameToBone = new Map<string, HumanBone>(HumanBoneNames.map((n, i) => [n, i as HumanBone]));

/**
 * The human bone with this camelCase name (`"leftUpperArm"`), or `undefined`. Matching is exact;
 * VRM 1.0 thumb names are converted by the VRM reader, not here.
 */
export function HumanBoneFromName(name: string): HumanBone | undefined {
    return nameToBone.get(name);
}

/**
 * The nearest ancestor of `bone` that is mapped, walking up the humanoid hierarchy past optional
 * bones that are not; -1 when none (the hips).
 * @param bone the human bone
 * @param isMapped tells whether a human bone is mapped
 */
export function GetMappedHumanParent(bone: HumanBone, isMapped: (b: HumanBone) => boolean): HumanBone | -1 {
    let p = HumanBoneParents[bone];
    while (p >= 0 && !isMapped(p as HumanBone)) {
        p = HumanBoneParents[p];
    }
    return p as HumanBone | -1;
}
