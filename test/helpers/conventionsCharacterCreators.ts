import { ARM, fingers, legs, limbMap, type IConventionRig, type J } from "./conventionRig.js";
import { RigFromPoints } from "./rigs.js";

// Convention rigs of character creators: Daz Genesis 8, VRoid, Character Creator (and ActorCore).

/** Daz Genesis 8: its bone names and layout. */
export function daz(): IConventionRig {
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

/** VRoid Studio's export: its bone names and layout. */
export function vroid(): IConventionRig {
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

/**
 * Reallusion Character Creator 4 and ActorCore (`CC_Base_`): a hip above a pelvis (the thighs) and
 * a waist (the spine), two neck twists, eyes and jaw under a facial bone, twist bones beside the
 * limbs, and `ShareBone` correctives at the elbows, knees and toes.
 */
export function characterCreator(): IConventionRig {
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
