import type { IRig } from "../../src/index.js";

// What the convention rigs (test/helpers/conventions*.ts) are made of: the rig with its expected map,
// and the arms, fingers and legs of a 1.7 m body in T-pose that they share.

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

/** A joint: its name, its parent's (null for the root), its position x, y, z (metres). */
export type J = [string, string | null, number, number, number];
type Finger = "thumb" | "index" | "middle" | "ring" | "little";

/** Arm and hand joints of one side: x grows outwards (sign applied by the caller). */
export const ARM = { shoulder: 0.03, upper: 0.17, lower: 0.45, hand: 0.7, y: 1.42 };

/** The human bones of one side's limbs, in the order {@link limbMap} takes their joints. */
const LIMB_BONES = ["Shoulder", "UpperArm", "LowerArm", "Hand", "UpperLeg", "LowerLeg", "Foot", "Toes"] as const;

/** One side's limbs of an expected map: `S` the side (`"left"`, `"right"`), the joints in {@link LIMB_BONES} order. */
export function limbMap(S: string, joints: readonly string[]): Record<string, string> {
    return Object.fromEntries(LIMB_BONES.map((b, i) => [`${S}${b}`, joints[i]]));
}

/**
 * One hand's fingers, three digits each from the hand joint outwards: `side` -1 (left) or 1 (right),
 * `name` names a finger's digit (0 to 2); optionally a metacarpal before the digits (not the thumb's) and a tip after.
 */
export function fingers(
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

/** One side's leg, `names` its thigh, calf, foot and toe joints from `parent` down, then the `extra` joints. */
export function legs(side: number, names: [string, string, string, string], parent: string, extra: J[] = []): J[] {
    const x = side * 0.09;
    return [
        [names[0], parent, x, 0.9, 0],
        [names[1], names[0], x, 0.49, 0.01],
        [names[2], names[1], x, 0.08, -0.01],
        [names[3], names[2], x, 0.02, 0.12],
        ...extra,
    ];
}
