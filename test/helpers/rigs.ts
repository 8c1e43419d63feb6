import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { RigJointKind, type IRig } from "../../src/index.js";

/** Builds a rig from world positions (identity rotations), for hand-made test skeletons. */
export function RigFromPoints(source: string, joints: Array<[name: string, parent: string | null, x: number, y: number, z: number]>): IRig {
    const index = new Map(joints.map(([n], i) => [n, i]));
    return {
        source,
        joints: joints.map(([name, parent, x, y, z], i) => {
            const p = parent === null ? -1 : index.get(parent)!;
            const base = p >= 0 ? joints[p] : null;
            return {
                name,
                parent: p,
                kind: RigJointKind.Bone,
                restPosition: base ? new Vector3(x - base[2], y - base[3], z - base[4]) : new Vector3(x, y, z),
                restRotation: Quaternion.Identity(),
                restScale: Vector3.One(),
                sourceIndex: i,
            };
        }),
    };
}

/** A four-legged animal: spine horizontal along +Z, legs straight down, a neck and head in front, a tail. */
export function Quadruped(): IRig {
    const j: Array<[string, string | null, number, number, number]> = [
        ["pelvis", null, 0, 1, -0.5],
        ["spine1", "pelvis", 0, 1, -0.2],
        ["spine2", "spine1", 0, 1, 0.1],
        ["chest", "spine2", 0, 1, 0.4],
        ["neck", "chest", 0, 1.2, 0.6],
        ["head", "neck", 0, 1.35, 0.8],
        ["tail1", "pelvis", 0, 1, -0.7],
        ["tail2", "tail1", 0, 0.95, -0.9],
    ];
    for (const [side, x] of [
        ["L", -0.2],
        ["R", 0.2],
    ] as const) {
        j.push(
            [`hindThigh${side}`, "pelvis", x, 0.95, -0.5],
            [`hindShin${side}`, `hindThigh${side}`, x, 0.5, -0.5],
            [`hindFoot${side}`, `hindShin${side}`, x, 0.1, -0.5],
            [`hindToe${side}`, `hindFoot${side}`, x, 0.0, -0.4],
            [`frontUpper${side}`, "chest", x, 0.95, 0.4],
            [`frontLower${side}`, `frontUpper${side}`, x, 0.5, 0.4],
            [`frontPaw${side}`, `frontLower${side}`, x, 0.1, 0.4],
            [`frontToe${side}`, `frontPaw${side}`, x, 0.0, 0.5],
        );
    }
    return RigFromPoints("quadruped", j);
}

/**
 * The joints of {@link PlainHumanoid} as points (name, parent, x y z in metres), the right leg's
 * raised by `rightLegRise` metres (a pelvis rolled in its rest pose).
 */
export function PlainHumanoidPoints(rightLegRise = 0): Array<[string, string | null, number, number, number]> {
    const j: Array<[string, string | null, number, number, number]> = [
        ["Hips", null, 0, 0.9, 0],
        ["Spine", "Hips", 0, 1.05, 0],
        ["Chest", "Spine", 0, 1.25, 0],
        ["Neck", "Chest", 0, 1.45, 0],
        ["Head", "Neck", 0, 1.55, 0],
        ["HeadEnd", "Head", 0, 1.72, 0],
    ];
    for (const [s, x] of [
        ["Left", -1],
        ["Right", 1],
    ] as const) {
        const r = x > 0 ? rightLegRise : 0;
        j.push(
            [`${s}Shoulder`, "Chest", 0.03 * x, 1.4, 0],
            [`${s}Arm`, `${s}Shoulder`, 0.17 * x, 1.4, 0],
            [`${s}ForeArm`, `${s}Arm`, 0.45 * x, 1.4, 0],
            [`${s}Hand`, `${s}ForeArm`, 0.7 * x, 1.4, 0],
            [`${s}HandEnd`, `${s}Hand`, 0.88 * x, 1.4, 0],
            [`${s}UpLeg`, "Hips", 0.09 * x, 0.85 + r, 0],
            [`${s}Leg`, `${s}UpLeg`, 0.09 * x, 0.47 + r, 0.01],
            [`${s}Foot`, `${s}Leg`, 0.09 * x, 0.08 + r, 0],
            [`${s}Toe`, `${s}Foot`, 0.09 * x, 0.02 + r, 0.12],
        );
    }
    return j;
}

/** A simple humanoid in T-pose (1.7 m), named plainly; facing +Z, left at -X. */
export function PlainHumanoid(): IRig {
    return RigFromPoints("plain humanoid", PlainHumanoidPoints());
}
