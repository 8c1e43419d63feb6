/**
 * The bone maps every skeleton in ../shared/data should get, written by reading each file: its
 * hierarchy, the joint positions in the rest pose (or frame 0 for the Bandai files, whose zero pose
 * has every bone along +X) and only then the names. Notes per file say what the names get wrong.
 */

type Map = Record<string, string>;

const SIDES = [
    ["left", "Left"],
    ["right", "Right"],
] as const;
const FINGERS = [
    ["Thumb", "Thumb"],
    ["Index", "Index"],
    ["Middle", "Middle"],
    ["Ring", "Ring"],
    ["Little", "Pinky"],
] as const;
const DIGITS = ["Proximal", "Intermediate", "Distal"] as const;

/** Mixamo names (`prefix` + `LeftUpLeg`...), with eyes and three digits per finger (digit 4 is the tip). */
function mixamo(prefix: string): Map {
    const m: Map = {
        hips: "Hips",
        spine: "Spine",
        chest: "Spine1",
        upperChest: "Spine2",
        neck: "Neck",
        head: "Head",
    };
    for (const [s, S] of SIDES) {
        Object.assign(m, {
            [`${s}Eye`]: `${S}Eye`,
            [`${s}Shoulder`]: `${S}Shoulder`,
            [`${s}UpperArm`]: `${S}Arm`,
            [`${s}LowerArm`]: `${S}ForeArm`,
            [`${s}Hand`]: `${S}Hand`,
            [`${s}UpperLeg`]: `${S}UpLeg`,
            [`${s}LowerLeg`]: `${S}Leg`,
            [`${s}Foot`]: `${S}Foot`,
            [`${s}Toes`]: `${S}ToeBase`,
        });
        for (const [f, F] of FINGERS) {
            DIGITS.forEach((d, i) => {
                m[`${s}${f}${d}`] = `${S}Hand${F}${i + 1}`;
            });
        }
    }
    for (const k of Object.keys(m)) m[k] = prefix + m[k];
    return m;
}

/** Bandai Namco dataset: `UpperArm_L`... No fingers, no upper chest. */
const BANDAI: Map = {
    hips: "Hips",
    spine: "Spine",
    chest: "Chest",
    neck: "Neck",
    head: "Head",
    leftShoulder: "Shoulder_L",
    leftUpperArm: "UpperArm_L",
    leftLowerArm: "LowerArm_L",
    leftHand: "Hand_L",
    rightShoulder: "Shoulder_R",
    rightUpperArm: "UpperArm_R",
    rightLowerArm: "LowerArm_R",
    rightHand: "Hand_R",
    leftUpperLeg: "UpperLeg_L",
    leftLowerLeg: "LowerLeg_L",
    leftFoot: "Foot_L",
    leftToes: "Toes_L",
    rightUpperLeg: "UpperLeg_R",
    rightLowerLeg: "LowerLeg_R",
    rightFoot: "Foot_R",
    rightToes: "Toes_R",
};

/**
 * CMU (cgspeed): LHipJoint sits at the hips (an intermediate bone); three spine bones LowerBack,
 * Spine, Spine1 fill spine, chest, upper chest; Neck1 is an intermediate; the hand has a
 * LeftFingerBase (metacarpal) before LeftHandIndex1, and LThumb.
 */
const CMU: Map = {
    hips: "Hips",
    spine: "LowerBack",
    chest: "Spine",
    upperChest: "Spine1",
    neck: "Neck",
    head: "Head",
    leftShoulder: "LeftShoulder",
    leftUpperArm: "LeftArm",
    leftLowerArm: "LeftForeArm",
    leftHand: "LeftHand",
    rightShoulder: "RightShoulder",
    rightUpperArm: "RightArm",
    rightLowerArm: "RightForeArm",
    rightHand: "RightHand",
    leftUpperLeg: "LeftUpLeg",
    leftLowerLeg: "LeftLeg",
    leftFoot: "LeftFoot",
    leftToes: "LeftToeBase",
    rightUpperLeg: "RightUpLeg",
    rightLowerLeg: "RightLeg",
    rightFoot: "RightFoot",
    rightToes: "RightToeBase",
    leftThumbProximal: "LThumb",
    leftIndexProximal: "LeftHandIndex1",
    rightThumbProximal: "RThumb",
    rightIndexProximal: "RightHandIndex1",
};

/**
 * CMU-ASF style names (AnimatedDrawings jumping jacks): `LeftHip` is the thigh, `LeftCollar` the
 * clavicle, `LeftShoulder` the upper arm, `LeftElbow` the forearm, `LeftWrist` the hand (`lhand`
 * sits at the same place below it). `lowerneck` is at the top of the spine, then Neck, Head.
 * Arms rest hanging down.
 */
const CMU_ASF: Map = {
    hips: "Hips",
    spine: "lowerback",
    chest: "Chest",
    upperChest: "Chest2",
    neck: "lowerneck",
    head: "Head",
    leftShoulder: "LeftCollar",
    leftUpperArm: "LeftShoulder",
    leftLowerArm: "LeftElbow",
    leftHand: "LeftWrist",
    rightShoulder: "RightCollar",
    rightUpperArm: "RightShoulder",
    rightLowerArm: "RightElbow",
    rightHand: "RightWrist",
    leftUpperLeg: "LeftHip",
    leftLowerLeg: "LeftKnee",
    leftFoot: "LeftAnkle",
    leftToes: "LeftToe",
    rightUpperLeg: "RightHip",
    rightLowerLeg: "RightKnee",
    rightFoot: "RightAnkle",
    rightToes: "RightToe",
    leftThumbProximal: "LThumb",
    rightThumbProximal: "RThumb",
};

/**
 * AnimatedDrawings child skeleton (Z-up, inches): four spine bones (Spine..Spine3: spine, chest =
 * Spine2, upper chest = Spine3), `LeftHandEnd` is a tip, one thumb joint.
 */
const FAIR: Map = {
    hips: "Hips",
    spine: "Spine",
    chest: "Spine2",
    upperChest: "Spine3",
    neck: "Neck",
    head: "Head",
    leftShoulder: "LeftShoulder",
    leftUpperArm: "LeftArm",
    leftLowerArm: "LeftForeArm",
    leftHand: "LeftHand",
    rightShoulder: "RightShoulder",
    rightUpperArm: "RightArm",
    rightLowerArm: "RightForeArm",
    rightHand: "RightHand",
    leftUpperLeg: "LeftUpLeg",
    leftLowerLeg: "LeftLeg",
    leftFoot: "LeftFoot",
    leftToes: "LeftToeBase",
    rightUpperLeg: "RightUpLeg",
    rightLowerLeg: "RightLeg",
    rightFoot: "RightFoot",
    rightToes: "RightToeBase",
    leftThumbProximal: "LeftHandThumb1",
    rightThumbProximal: "RightHandThumb1",
};

/**
 * KayKit: no neck, no shoulders; `wrist.l` is the hand joint at the end of the forearm and
 * `hand.l` a point further out in the palm (the clip rig adds `handslot.l`, a prop helper).
 */
const KAYKIT: Map = {
    hips: "hips",
    spine: "spine",
    chest: "chest",
    head: "head",
    leftUpperArm: "upperarm.l",
    leftLowerArm: "lowerarm.l",
    leftHand: "wrist.l",
    rightUpperArm: "upperarm.r",
    rightLowerArm: "lowerarm.r",
    rightHand: "wrist.r",
    leftUpperLeg: "upperleg.l",
    leftLowerLeg: "lowerleg.l",
    leftFoot: "foot.l",
    leftToes: "toes.l",
    rightUpperLeg: "upperleg.r",
    rightLowerLeg: "lowerleg.r",
    rightFoot: "foot.r",
    rightToes: "toes.r",
};

/**
 * RiggedFigure: no names; joints are `#N` (glTF node index). Read from the rest pose: #2 at 0.69 m
 * with three branches is the hips; #11, #12 the spine; #19, #20 neck and head; #16-#18 the arm on
 * the figure's left (glTF +X, the figure faces +Z), #13-#15 the right; #7-#10 left leg, #3-#6 right.
 */
const RIGGED_FIGURE: Map = {
    hips: "#2",
    spine: "#11",
    chest: "#12",
    neck: "#19",
    head: "#20",
    leftUpperArm: "#16",
    leftLowerArm: "#17",
    leftHand: "#18",
    rightUpperArm: "#13",
    rightLowerArm: "#14",
    rightHand: "#15",
    leftUpperLeg: "#7",
    leftLowerLeg: "#8",
    leftFoot: "#9",
    leftToes: "#10",
    rightUpperLeg: "#3",
    rightLowerLeg: "#4",
    rightFoot: "#5",
    rightToes: "#6",
};

/** VRM 1.0 sample (Blender names); the file's own humanoid map says the same. */
function vrmBlender(): Map {
    const m: Map = { hips: "hips", spine: "spine", chest: "chest", neck: "neck", head: "head" };
    for (const [s, S] of [
        ["left", "L"],
        ["right", "R"],
    ] as const) {
        Object.assign(m, {
            [`${s}Eye`]: `eye.${S}`,
            [`${s}Shoulder`]: `shoulder.${S}`,
            [`${s}UpperArm`]: `upper_arm.${S}`,
            [`${s}LowerArm`]: `lower_arm.${S}`,
            [`${s}Hand`]: `hand.${S}`,
            [`${s}UpperLeg`]: `upper_leg.${S}`,
            [`${s}LowerLeg`]: `lower_leg.${S}`,
            [`${s}Foot`]: `foot.${S}`,
            [`${s}Toes`]: `toes.${S}`,
        });
        for (const [f] of FINGERS) {
            DIGITS.forEach((d) => {
                m[`${s}${f}${d}`] = `${f.toLowerCase()}.${d.toLowerCase()}.${S}`;
            });
        }
    }
    return m;
}

/** VRM Animation: nodes named by VRM 1.0 bone names (thumb Metacarpal/Proximal/Distal = Unity Proximal/Intermediate/Distal). No eyes. */
function vrma(): Map {
    const m: Map = { hips: "hips", spine: "spine", chest: "chest", neck: "neck", head: "head" };
    for (const [s] of SIDES) {
        for (const b of ["Shoulder", "UpperArm", "LowerArm", "Hand", "UpperLeg", "LowerLeg", "Foot", "Toes"]) m[`${s}${b}`] = `${s}${b}`;
        for (const [f] of FINGERS) {
            DIGITS.forEach((d) => {
                const vrmDigit = f === "Thumb" ? ["Metacarpal", "Proximal", "Distal"][DIGITS.indexOf(d)] : d;
                m[`${s}${f}${d}`] = `${s}${f}${vrmDigit}`;
            });
        }
    }
    return m;
}

/** Expected map per file (path relative to ../shared/data). */
export const EXPECTED_MAPS: Readonly<Record<string, Map>> = {
    "bvh/animated_drawings/cmu1_jumping_jacks.bvh": CMU_ASF,
    "bvh/animated_drawings/fair1_jumping_8yo.bvh": FAIR,
    "bvh/animated_drawings/fair1_zombie_8yo.bvh": FAIR,
    // Mixamo names without prefix, HeadTop_End a tip, eyes, fingers 1-3 (4 is the tip).
    "bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh": mixamo(""),
    "bvh/bandai/dataset-1_dance-short_normal_001.bvh": BANDAI,
    "bvh/bandai/dataset-1_dash_normal_001.bvh": BANDAI,
    "bvh/bandai/dataset-1_kick_normal_001.bvh": BANDAI,
    "bvh/bandai/dataset-1_run_normal_001.bvh": BANDAI,
    "bvh/bandai/dataset-1_walk-back_normal_001.bvh": BANDAI,
    "bvh/bandai/dataset-1_walk_giant_001.bvh": BANDAI,
    "bvh/bandai/dataset-1_walk_normal_001.bvh": BANDAI,
    "bvh/cmu_cgspeed/cmu_jump.bvh": CMU,
    "bvh/cmu_cgspeed/cmu_walk.bvh": CMU,
    "glb/kaykit_anims/Med_General.glb": KAYKIT,
    "glb/kaykit_anims/Med_MovementAdvanced.glb": KAYKIT,
    "glb/kaykit_anims/Med_MovementBasic.glb": KAYKIT,
    "glb/kaykit_mannequin/manny_med_mod.gltf": KAYKIT,
    "glb/khronos_RiggedFigure.glb": RIGGED_FIGURE,
    "glb/mixamo_xbot.glb": mixamo("mixamorig:"),
    "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm": vrmBlender(),
    "vrm/three-vrm_test.vrma": vrma(),
};

/** Bones only names can find (fingers on hands with fewer than three finger chains). */
export function IsNameOnlyBone(bone: string, file: string): boolean {
    return /Thumb|Index/.test(bone) && /cmu|fair1/.test(file);
}
