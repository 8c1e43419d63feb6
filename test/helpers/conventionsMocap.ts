import { ARM, fingers, legs, limbMap, type IConventionRig, type J } from "./conventionRig.js";
import { RigFromPoints } from "./rigs.js";

// Convention rigs of motion capture: Perception Neuron, CMU auto-labelled.

/**
 * Perception Neuron (its BVH): four spine bones, and the palm's metacarpals named `InHand`
 * (`LeftInHandIndex`), as long as a finger's first bone: only the names tell them from one.
 */
export function perceptionNeuron(): IConventionRig {
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
export function cmuAutoLabelled(): IConventionRig {
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
