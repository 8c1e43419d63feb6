/**
 * The normalized humanoid: 55 human bones (Unity's HumanBodyBones, named in camelCase as VRM 0.x
 * names them), their parents, which are required, their side and their mirror twin.
 *
 * The enum order puts every parent before its children, so a loop over `0..HUMAN_BONE_COUNT-1`
 * visits the hierarchy top-down. Serialized data always uses the string names, never the indices.
 */
export enum HumanBone {
    Hips = 0,
    Spine,
    Chest,
    UpperChest,
    Neck,
    Head,
    LeftEye,
    RightEye,
    Jaw,
    LeftShoulder,
    LeftUpperArm,
    LeftLowerArm,
    LeftHand,
    RightShoulder,
    RightUpperArm,
    RightLowerArm,
    RightHand,
    LeftUpperLeg,
    LeftLowerLeg,
    LeftFoot,
    LeftToes,
    RightUpperLeg,
    RightLowerLeg,
    RightFoot,
    RightToes,
    LeftThumbProximal,
    LeftThumbIntermediate,
    LeftThumbDistal,
    LeftIndexProximal,
    LeftIndexIntermediate,
    LeftIndexDistal,
    LeftMiddleProximal,
    LeftMiddleIntermediate,
    LeftMiddleDistal,
    LeftRingProximal,
    LeftRingIntermediate,
    LeftRingDistal,
    LeftLittleProximal,
    LeftLittleIntermediate,
    LeftLittleDistal,
    RightThumbProximal,
    RightThumbIntermediate,
    RightThumbDistal,
    RightIndexProximal,
    RightIndexIntermediate,
    RightIndexDistal,
    RightMiddleProximal,
    RightMiddleIntermediate,
    RightMiddleDistal,
    RightRingProximal,
    RightRingIntermediate,
    RightRingDistal,
    RightLittleProximal,
    RightLittleIntermediate,
    RightLittleDistal,
}

/** Number of human bones (55). */
export const HUMAN_BONE_COUNT = 55;

/** Which side of the body a human bone is on. */
export enum BodySide {
    Center = 0,
    Left = 1,
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
