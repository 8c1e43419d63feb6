import type { IRig } from "../../src/index.js";
import { RigFromPoints } from "./rigs.js";

/**
 * Skeletons in the naming conventions of common tools that are not among the real files (UE5,
 * Daz Genesis 8, 3ds Max Biped, VRoid, Rigify, Character Creator,
 * Perception Neuron, CMU auto-labelled), each with its characteristic structure: extra spine
 * and neck bones, twist bones beside or inside the limbs, metacarpals, clavicles under the neck,
 * a pelvis between hip and thighs, long hair and skirt chains. Positions are a 1.7 m body in
 * T-pose (left at -X, facing +Z), metres.
 */
export interface IConventionRig {
    readonly name: string;
    readonly rig: IRig;
    /** The map Unity users would expect. */
    readonly expected: Record<string, string>;
    /** Bones only names can find. */
    readonly nameOnly: readonly string[];
}

type J = [string, string | null, number, number, number];
type Finger = "thumb" | "index" | "middle" | "ring" | "little";

/** Arm and hand joints of one side: x grows outwards (sign applied by the caller). */
const ARM = { shoulder: 0.03, upper: 0.17, lower: 0.45, hand: 0.7, y: 1.42 };

/** The human bones of one side's limbs, in the order {@link limbMap} takes their joints. */
const LIMB_BONES = ["Shoulder", "UpperArm", "LowerArm", "Hand", "UpperLeg", "LowerLeg", "Foot", "Toes"] as const;

/** One side's limbs of an expected map: `S` the side (`"left"`, `"right"`), the joints in {@link LIMB_BONES} order. */
function limbMap(S: string, joints: readonly string[]): Record<string, string> {
    return Object.fromEntries(LIMB_BONES.map((b, i) => [`${S}${b}`, joints[i]]));
}

function fingers(
    side: number,
    hand: string,
    name: (finger: Finger, digit: number) => string,
    options: { metacarpal?: (finger: Finger) => string | null; tips?: (finger: Finger) => string | null } = {},
): J[] {
    const out: J[] = [];
    const z = { thumb: 0.035, index: 0.022, middle: 0, ring: -0.02, little: -0.038 } as const;
    for (const f of ["thumb", "index", "middle", "ring", "little"] as const) {
        let parent = hand;
        const meta = f === "thumb" ? null : options.metacarpal?.(f);
        if (meta) {
            out.push([meta, hand, side * (ARM.hand + 0.015), ARM.y, z[f] * 0.6]);
            parent = meta;
        }
        const x0 = f === "thumb" ? ARM.hand + 0.02 : ARM.hand + 0.085;
        const step = f === "thumb" ? 0.022 : 0.026;
        for (let d = 0; d < 3; d++) {
            const zz = f === "thumb" ? z.thumb + 0.018 * d : z[f];
            out.push([name(f, d), parent, side * (x0 + step * d), ARM.y - (f === "thumb" ? 0.01 : 0), zz]);
            parent = name(f, d);
        }
        const tip = options.tips?.(f);
        if (tip) out.push([tip, parent, side * (x0 + step * 3), ARM.y, f === "thumb" ? z.thumb + 0.054 : z[f]]);
    }
    return out;
}

function legs(side: number, names: [string, string, string, string], parent: string, extra: J[] = []): J[] {
    const x = side * 0.09;
    return [
        [names[0], parent, x, 0.9, 0],
        [names[1], names[0], x, 0.49, 0.01],
        [names[2], names[1], x, 0.08, -0.01],
        [names[3], names[2], x, 0.02, 0.12],
        ...extra,
    ];
}

function ue5(): IConventionRig {
    const j: J[] = [
        ["root", null, 0, 0, 0],
        ["pelvis", "root", 0, 0.95, 0],
        ["spine_01", "pelvis", 0, 1.01, 0],
        ["spine_02", "spine_01", 0, 1.08, 0],
        ["spine_03", "spine_02", 0, 1.16, 0],
        ["spine_04", "spine_03", 0, 1.25, 0],
        ["spine_05", "spine_04", 0, 1.36, 0],
        ["neck_01", "spine_05", 0, 1.46, 0],
        ["neck_02", "neck_01", 0, 1.51, 0.005],
        ["head", "neck_02", 0, 1.57, 0.01],
        ["ik_foot_root", "root", 0, 0, 0],
        ["ik_hand_root", "root", 0, 0, 0],
        ["ik_hand_gun", "ik_hand_root", 0.7, 1.42, 0],
    ];
    const expected: Record<string, string> = {
        hips: "pelvis",
        spine: "spine_01",
        chest: "spine_04",
        upperChest: "spine_05",
        neck: "neck_01",
        head: "head",
    };
    for (const [s, side, S] of [
        ["l", -1, "left"],
        ["r", 1, "right"],
    ] as const) {
        j.push(
            [`clavicle_${s}`, "spine_05", side * ARM.shoulder, ARM.y, 0],
            [`upperarm_${s}`, `clavicle_${s}`, side * ARM.upper, ARM.y, 0],
            [`upperarm_twist_01_${s}`, `upperarm_${s}`, side * 0.24, ARM.y, 0],
            [`upperarm_twist_02_${s}`, `upperarm_${s}`, side * 0.35, ARM.y, 0],
            [`lowerarm_${s}`, `upperarm_${s}`, side * ARM.lower, ARM.y, 0],
            [`lowerarm_twist_01_${s}`, `lowerarm_${s}`, side * 0.53, ARM.y, 0],
            [`lowerarm_twist_02_${s}`, `lowerarm_${s}`, side * 0.62, ARM.y, 0],
            [`hand_${s}`, `lowerarm_${s}`, side * ARM.hand, ARM.y, 0],
            ...fingers(side, `hand_${s}`, (f, d) => `${f === "little" ? "pinky" : f}_0${d + 1}_${s}`, {
                metacarpal: (f) => `${f === "little" ? "pinky" : f}_metacarpal_${s}`,
            }),
            ...legs(side, [`thigh_${s}`, `calf_${s}`, `foot_${s}`, `ball_${s}`], "pelvis", [
                [`thigh_twist_01_${s}`, `thigh_${s}`, side * 0.09, 0.7, 0.005],
                [`calf_twist_01_${s}`, `calf_${s}`, side * 0.09, 0.3, 0],
                [`ik_foot_${s}`, "ik_foot_root", side * 0.09, 0.08, 0],
                [`ik_hand_${s}`, "ik_hand_gun", side * 0.7, ARM.y, 0],
            ]),
        );
        Object.assign(
            expected,
            limbMap(S, [`clavicle_${s}`, `upperarm_${s}`, `lowerarm_${s}`, `hand_${s}`, `thigh_${s}`, `calf_${s}`, `foot_${s}`, `ball_${s}`]),
        );
        for (const [f, F] of [
            ["thumb", "Thumb"],
            ["index", "Index"],
            ["middle", "Middle"],
            ["ring", "Ring"],
            ["pinky", "Little"],
        ]) {
            ["Proximal", "Intermediate", "Distal"].forEach((d, i) => (expected[`${S}${F}${d}`] = `${f}_0${i + 1}_${s}`));
        }
    }
    return { name: "UE5 Manny", rig: RigFromPoints("ue5", j), expected, nameOnly: [] };
}

function daz(): IConventionRig {
    const j: J[] = [
        ["hip", null, 0, 1.0, 0],
        ["pelvis", "hip", 0, 0.98, -0.01],
        ["abdomenLower", "hip", 0, 1.05, 0],
        ["abdomenUpper", "abdomenLower", 0, 1.13, 0],
        ["chestLower", "abdomenUpper", 0, 1.22, 0],
        ["chestUpper", "chestLower", 0, 1.33, 0],
        ["neckLower", "chestUpper", 0, 1.45, 0],
        ["neckUpper", "neckLower", 0, 1.5, 0.005],
        ["head", "neckUpper", 0, 1.57, 0.01],
        ["headEnd", "head", 0, 1.72, 0.01],
    ];
    const expected: Record<string, string> = {
        hips: "hip",
        spine: "abdomenLower",
        chest: "chestLower",
        upperChest: "chestUpper",
        neck: "neckLower",
        head: "head",
    };
    for (const [s, side, S] of [
        ["l", -1, "left"],
        ["r", 1, "right"],
    ] as const) {
        const fname = { thumb: "Thumb", index: "Index", middle: "Mid", ring: "Ring", little: "Pinky" } as const;
        const carpal = { index: "1", middle: "2", ring: "3", little: "4" } as const;
        j.push(
            [`${s}Collar`, "chestUpper", side * ARM.shoulder, ARM.y, 0],
            [`${s}ShldrBend`, `${s}Collar`, side * ARM.upper, ARM.y, 0],
            [`${s}ShldrTwist`, `${s}ShldrBend`, side * 0.31, ARM.y, 0],
            [`${s}ForearmBend`, `${s}ShldrTwist`, side * ARM.lower, ARM.y, 0],
            [`${s}ForearmTwist`, `${s}ForearmBend`, side * 0.575, ARM.y, 0],
            [`${s}Hand`, `${s}ForearmTwist`, side * ARM.hand, ARM.y, 0],
            ...fingers(side, `${s}Hand`, (f, d) => `${s}${fname[f]}${d + 1}`, { metacarpal: (f) => `${s}Carpal${carpal[f as keyof typeof carpal]}` }),
            [`${s}ThighBend`, "pelvis", side * 0.09, 0.93, 0],
            [`${s}ThighTwist`, `${s}ThighBend`, side * 0.09, 0.72, 0.005],
            [`${s}Shin`, `${s}ThighTwist`, side * 0.09, 0.49, 0.01],
            [`${s}Foot`, `${s}Shin`, side * 0.09, 0.08, -0.01],
            [`${s}Metatarsals`, `${s}Foot`, side * 0.09, 0.04, 0.05],
            [`${s}Toe`, `${s}Metatarsals`, side * 0.09, 0.02, 0.13],
        );
        Object.assign(expected, limbMap(S, [`${s}Collar`, `${s}ShldrBend`, `${s}ForearmBend`, `${s}Hand`, `${s}ThighBend`, `${s}Shin`, `${s}Foot`, `${s}Toe`]));
        for (const [f, F] of [
            ["Thumb", "Thumb"],
            ["Index", "Index"],
            ["Mid", "Middle"],
            ["Ring", "Ring"],
            ["Pinky", "Little"],
        ]) {
            ["Proximal", "Intermediate", "Distal"].forEach((d, i) => (expected[`${S}${F}${d}`] = `${s}${f}${i + 1}`));
        }
    }
    // Without names the toe joint after the metatarsals cannot be told from them.
    return { name: "Daz Genesis 8", rig: RigFromPoints("daz", j), expected, nameOnly: ["leftToes", "rightToes"] };
}

function biped(): IConventionRig {
    const j: J[] = [
        ["Bip01", null, 0, 0.95, 0],
        ["Bip01 Pelvis", "Bip01", 0, 0.95, 0],
        ["Bip01 Spine", "Bip01 Pelvis", 0, 1.02, 0],
        ["Bip01 Spine1", "Bip01 Spine", 0, 1.14, 0],
        ["Bip01 Spine2", "Bip01 Spine1", 0, 1.27, 0],
        ["Bip01 Neck", "Bip01 Spine2", 0, 1.42, 0],
        ["Bip01 Head", "Bip01 Neck", 0, 1.52, 0.01],
        ["Bip01 HeadNub", "Bip01 Head", 0, 1.72, 0.01],
    ];
    const expected: Record<string, string> = {
        hips: "Bip01 Pelvis",
        spine: "Bip01 Spine",
        chest: "Bip01 Spine1",
        upperChest: "Bip01 Spine2",
        neck: "Bip01 Neck",
        head: "Bip01 Head",
    };
    for (const [s, side, S] of [
        ["L", -1, "left"],
        ["R", 1, "right"],
    ] as const) {
        const p = `Bip01 ${s}`;
        const idx = { thumb: 0, index: 1, middle: 2, ring: 3, little: 4 } as const;
        j.push(
            [`${p} Clavicle`, "Bip01 Neck", side * ARM.shoulder, ARM.y, 0],
            [`${p} UpperArm`, `${p} Clavicle`, side * ARM.upper, ARM.y, 0],
            [`${p} Forearm`, `${p} UpperArm`, side * ARM.lower, ARM.y, 0],
            [`${p} Hand`, `${p} Forearm`, side * ARM.hand, ARM.y, 0],
            ...fingers(side, `${p} Hand`, (f, d) => `${p} Finger${idx[f]}${d ? d : ""}`, { tips: (f) => `${p} Finger${idx[f]}Nub` }),
            ...legs(side, [`${p} Thigh`, `${p} Calf`, `${p} Foot`, `${p} Toe0`], "Bip01 Spine", [[`${p} Toe0Nub`, `${p} Toe0`, side * 0.09, 0.02, 0.17]]),
        );
        Object.assign(
            expected,
            limbMap(S, [`${p} Clavicle`, `${p} UpperArm`, `${p} Forearm`, `${p} Hand`, `${p} Thigh`, `${p} Calf`, `${p} Foot`, `${p} Toe0`]),
        );
        for (const [f, F] of [
            ["0", "Thumb"],
            ["1", "Index"],
            ["2", "Middle"],
            ["3", "Ring"],
            ["4", "Little"],
        ]) {
            ["Proximal", "Intermediate", "Distal"].forEach((d, i) => (expected[`${S}${F}${d}`] = `${p} Finger${f}${i ? i : ""}`));
        }
    }
    // The clavicles hang from the neck: only the name 'Neck' says the arms' branch point is the neck.
    return { name: "3ds Max Biped", rig: RigFromPoints("biped", j), expected, nameOnly: ["neck", "spine", "chest", "upperChest"] };
}

function vroid(): IConventionRig {
    const j: J[] = [
        ["Root", null, 0, 0, 0],
        ["J_Bip_C_Hips", "Root", 0, 0.95, 0],
        ["J_Bip_C_Spine", "J_Bip_C_Hips", 0, 1.03, 0],
        ["J_Bip_C_Chest", "J_Bip_C_Spine", 0, 1.15, 0],
        ["J_Bip_C_UpperChest", "J_Bip_C_Chest", 0, 1.28, 0],
        ["J_Bip_C_Neck", "J_Bip_C_UpperChest", 0, 1.45, 0],
        ["J_Bip_C_Head", "J_Bip_C_Neck", 0, 1.53, 0.01],
        ["J_Adj_L_FaceEye", "J_Bip_C_Head", -0.032, 1.6, 0.07],
        ["J_Adj_R_FaceEye", "J_Bip_C_Head", 0.032, 1.6, 0.07],
    ];
    // Long hair down the back and a skirt: secondary chains as long as an arm.
    for (let h = 0; h < 4; h++) {
        let parent = "J_Bip_C_Head";
        for (let k = 1; k <= 6; k++) {
            const name = `J_Sec_Hair${h + 1}_0${k}`;
            j.push([name, parent, (h - 1.5) * 0.04, 1.62 - 0.1 * k, -0.1 - 0.01 * k]);
            parent = name;
        }
    }
    for (const [x, z] of [
        [-0.1, 0.08],
        [0.1, 0.08],
        [-0.12, -0.08],
        [0.12, -0.08],
    ]) {
        let parent = "J_Bip_C_Hips";
        for (let k = 1; k <= 4; k++) {
            const name = `J_Sec_Skirt_${x < 0 ? "L" : "R"}_${z < 0 ? "B" : "F"}_0${k}`;
            j.push([name, parent, x * (1 + 0.2 * k), 0.95 - 0.11 * k, z * (1 + 0.2 * k)]);
            parent = name;
        }
    }
    const expected: Record<string, string> = {
        hips: "J_Bip_C_Hips",
        spine: "J_Bip_C_Spine",
        chest: "J_Bip_C_Chest",
        upperChest: "J_Bip_C_UpperChest",
        neck: "J_Bip_C_Neck",
        head: "J_Bip_C_Head",
        leftEye: "J_Adj_L_FaceEye",
        rightEye: "J_Adj_R_FaceEye",
    };
    for (const [s, side, S] of [
        ["L", -1, "left"],
        ["R", 1, "right"],
    ] as const) {
        const F = { thumb: "Thumb", index: "Index", middle: "Middle", ring: "Ring", little: "Little" } as const;
        j.push(
            [`J_Bip_${s}_Shoulder`, "J_Bip_C_UpperChest", side * ARM.shoulder, ARM.y, 0],
            [`J_Bip_${s}_UpperArm`, `J_Bip_${s}_Shoulder`, side * ARM.upper, ARM.y, 0],
            [`J_Bip_${s}_LowerArm`, `J_Bip_${s}_UpperArm`, side * ARM.lower, ARM.y, 0],
            [`J_Bip_${s}_Hand`, `J_Bip_${s}_LowerArm`, side * ARM.hand, ARM.y, 0],
            ...fingers(side, `J_Bip_${s}_Hand`, (f, d) => `J_Bip_${s}_${F[f]}${d + 1}`),
            ...legs(side, [`J_Bip_${s}_UpperLeg`, `J_Bip_${s}_LowerLeg`, `J_Bip_${s}_Foot`, `J_Bip_${s}_ToeBase`], "J_Bip_C_Hips"),
        );
        Object.assign(
            expected,
            limbMap(S, [
                `J_Bip_${s}_Shoulder`,
                `J_Bip_${s}_UpperArm`,
                `J_Bip_${s}_LowerArm`,
                `J_Bip_${s}_Hand`,
                `J_Bip_${s}_UpperLeg`,
                `J_Bip_${s}_LowerLeg`,
                `J_Bip_${s}_Foot`,
                `J_Bip_${s}_ToeBase`,
            ]),
        );
        for (const f of ["Thumb", "Index", "Middle", "Ring", "Little"]) {
            ["Proximal", "Intermediate", "Distal"].forEach((d, i) => (expected[`${S}${f}${d}`] = `J_Bip_${s}_${f}${i + 1}`));
        }
    }
    return { name: "VRoid", rig: RigFromPoints("vroid", j), expected, nameOnly: [] };
}

function rigify(): IConventionRig {
    const j: J[] = [
        ["root", null, 0, 0, 0],
        ["DEF-spine", "root", 0, 0.95, 0],
        ["DEF-spine.001", "DEF-spine", 0, 1.05, 0],
        ["DEF-spine.002", "DEF-spine.001", 0, 1.16, 0],
        ["DEF-spine.003", "DEF-spine.002", 0, 1.29, 0],
        ["DEF-spine.004", "DEF-spine.003", 0, 1.45, 0],
        ["DEF-spine.005", "DEF-spine.004", 0, 1.5, 0.005],
        ["DEF-spine.006", "DEF-spine.005", 0, 1.56, 0.01],
        ["DEF-jaw", "DEF-spine.006", 0, 1.55, 0.05],
        ["DEF-forehead", "DEF-spine.006", 0, 1.68, 0.08],
    ];
    const expected: Record<string, string> = {
        hips: "DEF-spine",
        spine: "DEF-spine.001",
        chest: "DEF-spine.002",
        upperChest: "DEF-spine.003",
        neck: "DEF-spine.004",
        head: "DEF-spine.006",
        jaw: "DEF-jaw",
    };
    for (const [s, side, S] of [
        ["L", -1, "left"],
        ["R", 1, "right"],
    ] as const) {
        const F = { thumb: "thumb", index: "f_index", middle: "f_middle", ring: "f_ring", little: "f_pinky" } as const;
        const palm = { index: "01", middle: "02", ring: "03", little: "04" } as const;
        j.push(
            [`DEF-shoulder.${s}`, "DEF-spine.003", side * ARM.shoulder, ARM.y, 0],
            [`DEF-upper_arm.${s}`, `DEF-shoulder.${s}`, side * ARM.upper, ARM.y, 0],
            [`DEF-upper_arm.${s}.001`, `DEF-upper_arm.${s}`, side * 0.31, ARM.y, 0],
            [`DEF-forearm.${s}`, `DEF-upper_arm.${s}.001`, side * ARM.lower, ARM.y, 0],
            [`DEF-forearm.${s}.001`, `DEF-forearm.${s}`, side * 0.575, ARM.y, 0],
            [`DEF-hand.${s}`, `DEF-forearm.${s}.001`, side * ARM.hand, ARM.y, 0],
            ...fingers(side, `DEF-hand.${s}`, (f, d) => `DEF-${F[f]}.0${d + 1}.${s}`, { metacarpal: (f) => `DEF-palm.${palm[f as keyof typeof palm]}.${s}` }),
            [`DEF-pelvis.${s}`, "DEF-spine", side * 0.1, 1.02, -0.08],
            [`DEF-thigh.${s}`, "DEF-spine", side * 0.09, 0.9, 0],
            [`DEF-thigh.${s}.001`, `DEF-thigh.${s}`, side * 0.09, 0.7, 0.005],
            [`DEF-shin.${s}`, `DEF-thigh.${s}.001`, side * 0.09, 0.49, 0.01],
            [`DEF-shin.${s}.001`, `DEF-shin.${s}`, side * 0.09, 0.29, 0],
            [`DEF-foot.${s}`, `DEF-shin.${s}.001`, side * 0.09, 0.08, -0.01],
            [`DEF-toe.${s}`, `DEF-foot.${s}`, side * 0.09, 0.02, 0.12],
        );
        Object.assign(
            expected,
            limbMap(S, [
                `DEF-shoulder.${s}`,
                `DEF-upper_arm.${s}`,
                `DEF-forearm.${s}`,
                `DEF-hand.${s}`,
                `DEF-thigh.${s}`,
                `DEF-shin.${s}`,
                `DEF-foot.${s}`,
                `DEF-toe.${s}`,
            ]),
        );
        for (const [f, Fn] of [
            ["thumb", "Thumb"],
            ["f_index", "Index"],
            ["f_middle", "Middle"],
            ["f_ring", "Ring"],
            ["f_pinky", "Little"],
        ]) {
            ["Proximal", "Intermediate", "Distal"].forEach((d, i) => (expected[`${S}${Fn}${d}`] = `DEF-${f}.0${i + 1}.${s}`));
        }
    }
    return { name: "Rigify", rig: RigFromPoints("rigify", j), expected, nameOnly: ["jaw"] };
}

/**
 * Reallusion Character Creator 4 and ActorCore (`CC_Base_`): a hip above a pelvis (the thighs) and
 * a waist (the spine), two neck twists, eyes and jaw under a facial bone, twist bones beside the
 * limbs, and `ShareBone` correctives at the elbows, knees and toes.
 */
function characterCreator(): IConventionRig {
    const j: J[] = [
        ["CC_Base_BoneRoot", null, 0, 0, 0],
        ["CC_Base_Hip", "CC_Base_BoneRoot", 0, 1.0, 0],
        ["CC_Base_Pelvis", "CC_Base_Hip", 0, 0.98, -0.01],
        ["CC_Base_Waist", "CC_Base_Hip", 0, 1.06, 0],
        ["CC_Base_Spine01", "CC_Base_Waist", 0, 1.16, 0],
        ["CC_Base_Spine02", "CC_Base_Spine01", 0, 1.3, 0],
        ["CC_Base_NeckTwist01", "CC_Base_Spine02", 0, 1.46, 0],
        ["CC_Base_NeckTwist02", "CC_Base_NeckTwist01", 0, 1.51, 0.005],
        ["CC_Base_Head", "CC_Base_NeckTwist02", 0, 1.57, 0.01],
        ["CC_Base_FacialBone", "CC_Base_Head", 0, 1.6, 0.03],
        ["CC_Base_JawRoot", "CC_Base_FacialBone", 0, 1.58, 0.04],
        ["CC_Base_Teeth02", "CC_Base_JawRoot", 0, 1.56, 0.08],
        ["CC_Base_L_Eye", "CC_Base_FacialBone", -0.03, 1.65, 0.08],
        ["CC_Base_R_Eye", "CC_Base_FacialBone", 0.03, 1.65, 0.08],
    ];
    const expected: Record<string, string> = {
        hips: "CC_Base_Hip",
        spine: "CC_Base_Waist",
        chest: "CC_Base_Spine01",
        upperChest: "CC_Base_Spine02",
        neck: "CC_Base_NeckTwist01",
        head: "CC_Base_Head",
        leftEye: "CC_Base_L_Eye",
        rightEye: "CC_Base_R_Eye",
        jaw: "CC_Base_JawRoot",
    };
    for (const [s, side, S] of [
        ["L", -1, "left"],
        ["R", 1, "right"],
    ] as const) {
        const p = (n: string): string => `CC_Base_${s}_${n}`;
        const F = { thumb: "Thumb", index: "Index", middle: "Mid", ring: "Ring", little: "Pinky" } as const;
        j.push(
            [p("Clavicle"), "CC_Base_Spine02", side * ARM.shoulder, ARM.y, 0],
            [p("Upperarm"), p("Clavicle"), side * ARM.upper, ARM.y, 0],
            [p("UpperarmTwist01"), p("Upperarm"), side * 0.22, ARM.y, 0],
            [p("UpperarmTwist02"), p("Upperarm"), side * 0.34, ARM.y, 0],
            [p("Forearm"), p("Upperarm"), side * ARM.lower, ARM.y, 0],
            [p("ForearmTwist01"), p("Forearm"), side * 0.52, ARM.y, 0],
            [p("ForearmTwist02"), p("Forearm"), side * 0.63, ARM.y, 0],
            [p("ElbowShareBone"), p("Forearm"), side * ARM.lower, ARM.y, -0.02],
            [p("Hand"), p("Forearm"), side * ARM.hand, ARM.y, 0],
            ...fingers(side, p("Hand"), (f, d) => p(`${F[f]}${d + 1}`)),
            ...legs(side, [p("Thigh"), p("Calf"), p("Foot"), p("ToeBase")], "CC_Base_Pelvis", [
                [p("ThighTwist01"), p("Thigh"), side * 0.09, 0.8, 0.003],
                [p("ThighTwist02"), p("Thigh"), side * 0.09, 0.65, 0.006],
                [p("CalfTwist01"), p("Calf"), side * 0.09, 0.35, 0.003],
                [p("CalfTwist02"), p("Calf"), side * 0.09, 0.2, -0.003],
                [p("KneeShareBone"), p("Calf"), side * 0.09, 0.49, 0.04],
                [p("ToeBaseShareBone"), p("ToeBase"), side * 0.09, 0.02, 0.13],
                [p("BigToe1"), p("ToeBase"), side * 0.07, 0.015, 0.15],
                [p("MidToe1"), p("ToeBase"), side * 0.095, 0.015, 0.15],
            ]),
        );
        Object.assign(expected, limbMap(S, [p("Clavicle"), p("Upperarm"), p("Forearm"), p("Hand"), p("Thigh"), p("Calf"), p("Foot"), p("ToeBase")]));
        for (const [f, finger] of [
            ["Thumb", "Thumb"],
            ["Index", "Index"],
            ["Mid", "Middle"],
            ["Ring", "Ring"],
            ["Pinky", "Little"],
        ]) {
            ["Proximal", "Intermediate", "Distal"].forEach((d, i) => (expected[`${S}${finger}${d}`] = p(`${f}${i + 1}`)));
        }
    }
    // Without names the facial bone, above the head joint with the eyes and jaw on it, is taken for the head.
    return { name: "Character Creator", rig: RigFromPoints("cc", j), expected, nameOnly: ["head", "leftEye", "rightEye", "jaw"] };
}

/**
 * Perception Neuron (its BVH): four spine bones, and the palm's metacarpals named `InHand`
 * (`LeftInHandIndex`), as long as a finger's first bone: only the names tell them from one.
 */
function perceptionNeuron(): IConventionRig {
    const j: J[] = [
        ["Hips", null, 0, 0.95, 0],
        ["Spine", "Hips", 0, 1.03, 0],
        ["Spine1", "Spine", 0, 1.12, 0],
        ["Spine2", "Spine1", 0, 1.21, 0],
        ["Spine3", "Spine2", 0, 1.3, 0],
        ["Neck", "Spine3", 0, 1.45, 0],
        ["Head", "Neck", 0, 1.53, 0.01],
    ];
    const expected: Record<string, string> = { hips: "Hips", spine: "Spine", chest: "Spine2", upperChest: "Spine3", neck: "Neck", head: "Head" };
    const nameOnly: string[] = [];
    for (const [s, side, S] of [
        ["Left", -1, "left"],
        ["Right", 1, "right"],
    ] as const) {
        const F = { thumb: "Thumb", index: "Index", middle: "Middle", ring: "Ring", little: "Pinky" } as const;
        const hand = fingers(side, `${s}Hand`, (f, d) => `${s}Hand${F[f]}${d + 1}`);
        // Each metacarpal from the wrist to 0.4 of the way to its finger's first joint (the Neuron's 4 and 5.7 cm).
        for (const f of ["index", "middle", "ring", "little"] as const) {
            const k = hand.findIndex((x) => x[0] === `${s}Hand${F[f]}1`);
            const first = hand[k];
            hand.splice(k, 0, [`${s}InHand${F[f]}`, `${s}Hand`, side * (ARM.hand + 0.4 * (Math.abs(first[2]) - ARM.hand)), ARM.y, first[4] * 0.4]);
            first[1] = `${s}InHand${F[f]}`;
        }
        j.push(
            [`${s}Shoulder`, "Spine3", side * ARM.shoulder, ARM.y, 0],
            [`${s}Arm`, `${s}Shoulder`, side * ARM.upper, ARM.y, 0],
            [`${s}ForeArm`, `${s}Arm`, side * ARM.lower, ARM.y, 0],
            [`${s}Hand`, `${s}ForeArm`, side * ARM.hand, ARM.y, 0],
            ...hand,
            ...legs(side, [`${s}UpLeg`, `${s}Leg`, `${s}Foot`, `${s}ToeBase`], "Hips"),
        );
        Object.assign(expected, limbMap(S, [`${s}Shoulder`, `${s}Arm`, `${s}ForeArm`, `${s}Hand`, `${s}UpLeg`, `${s}Leg`, `${s}Foot`, `${s}ToeBase`]));
        for (const [f, finger] of [
            ["Thumb", "Thumb"],
            ["Index", "Index"],
            ["Middle", "Middle"],
            ["Ring", "Ring"],
            ["Pinky", "Little"],
        ]) {
            ["Proximal", "Intermediate", "Distal"].forEach((d, i) => {
                expected[`${S}${finger}${d}`] = `${s}Hand${f}${i + 1}`;
                if (f !== "Thumb") nameOnly.push(`${S}${finger}${d}`);
            });
        }
    }
    return { name: "Perception Neuron", rig: RigFromPoints("neuron", j), expected, nameOnly };
}

/**
 * CMU mocap auto-labelled from markers (`pelvis`, `thorax`, `lfemur`, ...: the AnimatedDrawings
 * project's `cmu_new2` takes): a spine of one joint, a few centimetres above the pelvis, from
 * which the head and both clavicles hang; no neck; the arms hanging down in the rest pose; no End
 * Sites (hands, toes and head end the chains).
 */
function cmuAutoLabelled(): IConventionRig {
    // The files' offsets (inches), left at -X, facing +Z, Y up.
    const k = 0.0254 * 1.1;
    const j: J[] = [
        ["pelvis", null, 0, 33 * k, 0],
        ["thorax", "pelvis", 0, 36.4 * k, -1.97 * k],
        ["head", "thorax", 0, 53.3 * k, -1.97 * k],
    ];
    const expected: Record<string, string> = { hips: "pelvis", spine: "thorax", head: "head" };
    for (const [s, side, S] of [
        ["l", -1, "left"],
        ["r", 1, "right"],
    ] as const) {
        j.push(
            [`${s}clavicle`, "thorax", 0, 50.9 * k, -1.97 * k],
            [`${s}humerus`, `${s}clavicle`, side * 6.1 * k, 51.6 * k, -1.97 * k],
            [`${s}radius`, `${s}humerus`, side * 6.1 * k, 41.2 * k, -1.97 * k],
            [`${s}hand`, `${s}radius`, side * 6.1 * k, 31.5 * k, -1.97 * k],
            [`${s}femur`, "pelvis", side * 4.04 * k, 33 * k, 0],
            [`${s}tibia`, `${s}femur`, side * 4.04 * k, 16.7 * k, 0],
            [`${s}foot`, `${s}tibia`, side * 4.04 * k, 1.6 * k, 0],
            [`${s}toes`, `${s}foot`, side * 4.04 * k, 1.6 * k, 4.09 * k],
        );
        Object.assign(expected, limbMap(S, [`${s}clavicle`, `${s}humerus`, `${s}radius`, `${s}hand`, `${s}femur`, `${s}tibia`, `${s}foot`, `${s}toes`]));
    }
    return { name: "CMU auto-labelled", rig: RigFromPoints("cmu-auto", j), expected, nameOnly: [] };
}

/** All convention rigs. */
export const CONVENTION_RIGS: readonly IConventionRig[] = [ue5(), daz(), biped(), vroid(), rigify(), characterCreator(), perceptionNeuron(), cmuAutoLabelled()];
