import { ARM, fingers, legs, limbMap, type IConventionRig, type J } from "./conventionRig.js";
import { RigFromPoints } from "./rigs.js";

// Convention rigs of a game engine and two 3D packages: UE5 (Unreal), 3ds Max Biped, Rigify (Blender).

/** Unreal Engine 5's mannequin skeleton: its bone names and layout. */
export function ue5(): IConventionRig {
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

/** 3ds Max's Biped: its bone names and layout. */
export function biped(): IConventionRig {
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

/** Blender's Rigify (its deform bones): names and layout. */
export function rigify(): IConventionRig {
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
