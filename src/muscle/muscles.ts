import { HumanBone, HUMAN_BONE_COUNT, HumanBoneMirrors } from "../humanoid/humanBones.js";

/**
 * The 95 muscles (Unity's HumanTrait order and names; reference §2): each is one rotation axis of
 * one human bone with a default range in degrees.
 *
 * The motion a positive value makes is given in the **canonical body frame**: R = the character's
 * right, U = up, F = forward (a character in rig space facing +Z has R = +X). Left-side muscles are
 * written here; right-side ones are their mirror images (R -> -R), so the same value makes the
 * mirrored motion on both sides. Names "A-B" mean negative = A, positive = B.
 */

/** Muscle count (95): Unity's muscles, indices 0-94. */
export const MUSCLE_COUNT = 95;

/**
 * Extra muscles (28), indices 95-122: the motions Unity's set lacks, which real motion has: side
 * swings of finger intermediate and distal digits and of the toes, of elbows and knees while
 * nearly straight (bent further, their sideways part becomes twist of the bone above, as Mecanim
 * does), and the foot's roll (inversion and eversion). With them a round trip keeps every bone's
 * direction. Decoding ignores them where a rig has no such bone.
 */
export const EXTRA_MUSCLE_COUNT = 28;

/** All muscle values a {@link HumanPose} carries: {@link MUSCLE_COUNT} + {@link EXTRA_MUSCLE_COUNT}. */
export const ALL_MUSCLE_COUNT = 123;

/** Which rotation a muscle drives: 0 twist about the bone (X), 1 the Y swing, 2 the Z swing. */
export type MuscleAxis = 0 | 1 | 2;

type V = readonly [number, number, number];
const R: V = [1, 0, 0];
const U: V = [0, 1, 0];
const F: V = [0, 0, 1];
const neg = (v: V): V => [-v[0], -v[1], -v[2]];
const norm = (v: V): V => {
    const l = Math.hypot(v[0], v[1], v[2]);
    return [v[0] / l, v[1] / l, v[2] / l];
};
const L = neg(R);
const B = neg(F);
const D = neg(U);

/**
 * How a positive value moves the bone, in the canonical frame (left side or centre):
 * - swing muscles (Y, Z): the point `tip` (a direction from the joint, usually along the bone)
 *   moves towards `toward`; the rotation axis is `tip x toward`;
 * - twist muscles (X): the direction `tip` (across the bone) turns towards `toward`.
 */
export interface IMuscleMotion {
    /** Swing muscles: the point (a direction from the joint, usually along the bone) that moves; twist muscles: the direction across the bone that turns. Canonical frame (right, up, forward). */
    readonly tip: readonly [number, number, number];
    /** Where a positive value moves `tip` (canonical frame). */
    readonly toward: readonly [number, number, number];
}

/** One muscle. */
export interface IMuscleInfo {
    /** Unity's HumanTrait.MuscleName, e.g. `"Left Arm Down-Up"`. */
    readonly name: string;
    /** The bone it moves. */
    readonly bone: HumanBone;
    /** Which of the bone's axes. */
    readonly axis: MuscleAxis;
    /** Default range (degrees): value -1 is `minDeg`, +1 is `maxDeg`. This is the low end (negative or 0). */
    readonly minDeg: number;
    /** The range's high end, degrees (the angle of value +1). */
    readonly maxDeg: number;
    /** The motion of a positive value (canonical frame, mirrored for the right side). */
    readonly motion: IMuscleMotion;
}

const H = HumanBone;
type Row = [name: string, bone: HumanBone, axis: MuscleAxis, min: number, max: number, tip: V, toward: V];

/** Spine, chest, upper chest, neck, head: up the body; front-back bends, left-right bends, turns. */
function trunk(prefix: string, bone: HumanBone, range: number, names: [string, string, string]): Row[] {
    return [
        [`${prefix} ${names[0]}`, bone, 2, -range, range, U, B], // positive: bend back / look up
        [`${prefix} ${names[1]}`, bone, 1, -range, range, U, R], // positive: to the right
        [`${prefix} ${names[2]}`, bone, 0, -range, range, F, R], // positive: turn right
    ];
}

/** Left-side rows of one finger (thumb has its own directions). */
function finger(name: string, f: number, spreadToward: V, spread: [number, number], stretch1: [number, number], stretch23: [number, number], tip: V): Row[] {
    const prox = (H.LeftThumbProximal + f * 3) as HumanBone;
    return [
        [`Left ${name} 1 Stretched`, prox, 2, stretch1[0], stretch1[1], tip, U],
        [`Left ${name} Spread`, prox, 1, spread[0], spread[1], tip, spreadToward],
        [`Left ${name} 2 Stretched`, (prox + 1) as HumanBone, 2, stretch23[0], stretch23[1], tip, U],
        [`Left ${name} 3 Stretched`, (prox + 2) as HumanBone, 2, stretch23[0], stretch23[1], tip, U],
    ];
}

const THUMB_TIP = norm([-1, 0, 1]); // out and forward, 45 degrees (VRM T-pose)
// The thumb's joints bend in the palm's plane: curling sweeps the tip across the palm towards the
// little finger (back and in), stretching the other way; spreading moves it off the palm's plane.
const THUMB_STRETCH = norm([-1, 0, -1]);

const LEFT_LEG: Row[] = [
    ["Left Upper Leg Front-Back", H.LeftUpperLeg, 2, -90, 50, D, B],
    ["Left Upper Leg In-Out", H.LeftUpperLeg, 1, -60, 60, D, L],
    ["Left Upper Leg Twist In-Out", H.LeftUpperLeg, 0, -60, 60, F, L],
    ["Left Lower Leg Stretch", H.LeftLowerLeg, 2, -80, 80, D, F],
    ["Left Lower Leg Twist In-Out", H.LeftLowerLeg, 0, -90, 90, F, L],
    ["Left Foot Up-Down", H.LeftFoot, 2, -50, 50, F, D],
    ["Left Foot Twist In-Out", H.LeftFoot, 1, -30, 30, F, L], // the toes turn out (about the foot's up axis)
    ["Left Toes Up-Down", H.LeftToes, 2, -50, 50, F, D],
];
const LEFT_ARM: Row[] = [
    ["Left Shoulder Down-Up", H.LeftShoulder, 2, -15, 30, L, U],
    ["Left Shoulder Front-Back", H.LeftShoulder, 1, -15, 15, L, B],
    ["Left Arm Down-Up", H.LeftUpperArm, 2, -60, 100, L, U],
    ["Left Arm Front-Back", H.LeftUpperArm, 1, -100, 100, L, B],
    ["Left Arm Twist In-Out", H.LeftUpperArm, 0, -90, 90, F, U],
    ["Left Forearm Stretch", H.LeftLowerArm, 2, -80, 80, L, B],
    ["Left Forearm Twist In-Out", H.LeftLowerArm, 0, -90, 90, F, U],
    ["Left Hand Down-Up", H.LeftHand, 2, -80, 80, L, U],
    ["Left Hand In-Out", H.LeftHand, 1, -40, 40, L, B],
];
const LEFT_FINGERS: Row[] = [
    ["Left Thumb 1 Stretched", H.LeftThumbProximal, 2, -20, 20, THUMB_TIP, THUMB_STRETCH],
    ["Left Thumb Spread", H.LeftThumbProximal, 1, -25, 25, THUMB_TIP, D],
    ["Left Thumb 2 Stretched", H.LeftThumbIntermediate, 2, -40, 35, THUMB_TIP, THUMB_STRETCH],
    ["Left Thumb 3 Stretched", H.LeftThumbDistal, 2, -40, 35, THUMB_TIP, THUMB_STRETCH],
    ...finger("Index", 1, F, [-20, 20], [-50, 50], [-45, 45], L),
    ...finger("Middle", 2, F, [-7.5, 7.5], [-50, 50], [-45, 45], L),
    ...finger("Ring", 3, B, [-7.5, 7.5], [-50, 50], [-45, 45], L),
    ...finger("Little", 4, B, [-20, 20], [-50, 50], [-45, 45], L),
];

/** Extra muscles: side swing of the finger intermediate and distal digits (positive: towards the thumb side). */
const LEFT_EXTRA: Row[] = ["Thumb", "Index", "Middle", "Ring", "Little"].flatMap((name, f) =>
    [1, 2].map((d): Row => [
        `Left ${name} ${d + 1} In-Out`,
        (H.LeftThumbProximal + f * 3 + d) as HumanBone,
        1,
        -20,
        20,
        f === 0 ? THUMB_TIP : L,
        f === 0 ? D : F,
    ]),
);

/** Mirrors a left-side row to the right side. */
function mirrorRow(row: Row): Row {
    const m = (v: V): V => [-v[0], v[1], v[2]];
    return [row[0].replace(/^Left /, "Right "), HumanBoneMirrors[row[1]] as HumanBone, row[2], row[3], row[4], m(row[5]), m(row[6])];
}

const ROWS: Row[] = [
    ...trunk("Spine", H.Spine, 40, ["Front-Back", "Left-Right", "Twist Left-Right"]),
    ...trunk("Chest", H.Chest, 40, ["Front-Back", "Left-Right", "Twist Left-Right"]),
    ...trunk("UpperChest", H.UpperChest, 20, ["Front-Back", "Left-Right", "Twist Left-Right"]),
    ...trunk("Neck", H.Neck, 40, ["Nod Down-Up", "Tilt Left-Right", "Turn Left-Right"]),
    ...trunk("Head", H.Head, 40, ["Nod Down-Up", "Tilt Left-Right", "Turn Left-Right"]),
    ["Left Eye Down-Up", H.LeftEye, 2, -10, 15, F, U],
    ["Left Eye In-Out", H.LeftEye, 1, -20, 20, F, L],
    ["Right Eye Down-Up", H.RightEye, 2, -10, 15, F, U],
    ["Right Eye In-Out", H.RightEye, 1, -20, 20, F, R],
    ["Jaw Close", H.Jaw, 2, -10, 10, F, U],
    ["Jaw Left-Right", H.Jaw, 1, -10, 10, F, R],
    ...LEFT_LEG,
    ...LEFT_LEG.map(mirrorRow),
    ...LEFT_ARM,
    ...LEFT_ARM.map(mirrorRow),
    ...LEFT_FINGERS,
    ...LEFT_FINGERS.map(mirrorRow),
    ...LEFT_EXTRA,
    ...LEFT_EXTRA.map(mirrorRow),
    ["Left Toes In-Out", H.LeftToes, 1, -30, 30, F, L],
    ["Right Toes In-Out", H.RightToes, 1, -30, 30, F, R],
    ["Left Lower Leg In-Out", H.LeftLowerLeg, 1, -20, 20, D, L],
    ["Right Lower Leg In-Out", H.RightLowerLeg, 1, -20, 20, D, R],
    ["Left Forearm Down-Up", H.LeftLowerArm, 1, -20, 20, L, U],
    ["Right Forearm Down-Up", H.RightLowerArm, 1, -20, 20, R, U],
    ["Left Foot Roll In-Out", H.LeftFoot, 0, -30, 30, D, L], // about the foot's own axis: the sole turns out (eversion)
    ["Right Foot Roll In-Out", H.RightFoot, 0, -30, 30, D, R],
];

/** Every muscle, Unity's 95 in Unity's order (index = muscle id), then the 28 extra ones. */
export const Muscles: readonly IMuscleInfo[] = ROWS.map(([name, bone, axis, min, max, tip, toward]) => ({
    name,
    bone,
    axis,
    minDeg: min,
    maxDeg: max,
    motion: { tip, toward },
}));

/** Muscle names in order (`MuscleNames[39] === "Left Arm Down-Up"`), the 28 extra ones last. */
export const MuscleNames: readonly string[] = Muscles.map((m) => m.name);

/** For every human bone, the muscle of each axis [X twist, Y, Z], -1 where the bone has none. */
export const BoneMuscles: readonly (readonly [number, number, number])[] = (() => {
    const out: [number, number, number][] = [];
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) out.push([-1, -1, -1]);
    Muscles.forEach((m, i) => {
        out[m.bone][m.axis] = i;
    });
    return out;
})();

const byName = new Map(MuscleNames.map((n, i) => [n, i]));

/** The index of a muscle by its name, or -1. */
export function MuscleIndexFromName(name: string): number {
    return byName.get(name) ?? -1;
}

/**
 * For every muscle, the muscle of the mirrored motion and the sign it takes: left and right swap;
 * centre bones keep their front-back, down-up and close muscles and negate left-right, tilt, turn
 * and twist muscles.
 */
export const MuscleMirrors: readonly {
    /** Index of the muscle of the mirrored motion (itself for a centre muscle). */
    readonly muscle: number;
    /** The sign its value takes. */
    readonly sign: 1 | -1;
}[] = Muscles.map((m, i) => {
    if (m.name.startsWith("Left ")) return { muscle: byName.get(m.name.replace(/^Left /, "Right "))!, sign: 1 };
    if (m.name.startsWith("Right ")) return { muscle: byName.get(m.name.replace(/^Right /, "Left "))!, sign: 1 };
    return { muscle: i, sign: m.motion.toward[0] !== 0 ? -1 : 1 };
});
