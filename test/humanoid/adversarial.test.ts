import { BuildHumanoidAvatar, BuildSampleRig, ComputeRigWorldPose, type IRig } from "../../src/index.js";
import { RigFromPoints } from "../helpers/rigs.js";

type P = [string, string | null, number, number, number];

/** The Mixamo sample as points, names kept or removed (then `n<i>`), so chains can be added. */
function base(named: boolean): { pts: P[]; at: (mixamoName: string) => P } {
    const rig = BuildSampleRig({ name: "base", height: 1.75, naming: "mixamo", armsDownDeg: 0, build: "adult", fingers: true });
    const w = ComputeRigWorldPose(rig).positions;
    const label = (i: number): string => (named && rig.joints[i].name ? rig.joints[i].name : `n${i}`);
    const pts = rig.joints.map((j, i): P => [label(i), j.parent >= 0 ? label(j.parent) : null, w[i].x, w[i].y, w[i].z]);
    return { pts, at: (n) => pts[rig.joints.findIndex((j) => j.name === `mixamorig:${n}`)] };
}

/** Adds a chain of `count` joints from `from`, each step `(dx, dy, dz)`. */
function chain(pts: P[], prefix: string, from: P, count: number, step: [number, number, number], offset: [number, number, number] = [0, 0, 0]): void {
    let prev = from[0];
    for (let i = 1; i <= count; i++) {
        const name = `${prefix}${i}`;
        pts.push([name, prev, from[2] + offset[0] + step[0] * i, from[3] + offset[1] + step[1] * i, from[4] + offset[2] + step[2] * i]);
        prev = name;
    }
}

const EXPECTED = [
    "hips",
    "spine",
    "chest",
    "upperChest",
    "neck",
    "head",
    "leftUpperArm",
    "leftHand",
    "rightUpperArm",
    "rightHand",
    "leftUpperLeg",
    "leftFoot",
    "rightUpperLeg",
    "rightFoot",
];

describe("capes, coat tails, hair and tails do not take the place of limbs or head", () => {
    const cases: Array<[string, (pts: P[], at: (n: string) => P) => void]> = [
        [
            "six 0.5 m cape chains from the neck",
            (pts, at) => {
                for (let k = 0; k < 6; k++) chain(pts, `cape${k}_`, at("Neck"), 5, [0, -0.1, -0.02], [(k - 2.5) * 0.05, 0, -0.1]);
            },
        ],
        [
            "two 0.5 m coat tails from the upper chest",
            (pts, at) => {
                for (const sx of [-1, 1]) chain(pts, `coat${sx}_`, at("Spine2"), 4, [0, -0.125, 0], [sx * 0.1, 0, -0.1]);
            },
        ],
        ["a 0.9 m hair chain from the head", (pts, at) => chain(pts, "hair", at("Head"), 6, [0, -0.15, -0.02], [0, 0.1, -0.1])],
        [
            "two long pigtails from the head",
            (pts, at) => {
                for (const sx of [-1, 1]) chain(pts, `pig${sx}_`, at("Head"), 6, [sx * 0.03, -0.13, 0], [sx * 0.08, 0.05, -0.05]);
            },
        ],
        ["a 1.2 m tail from the hips", (pts, at) => chain(pts, "tail", at("Hips"), 8, [0, -0.05, -0.14], [0, 0, -0.1])],
        [
            "a skirt of six chains from the hips",
            (pts, at) => {
                for (let k = 0; k < 6; k++) {
                    const a = (k / 6) * 2 * Math.PI;
                    chain(pts, `skirt${k}_`, at("Hips"), 4, [Math.sin(a) * 0.03, -0.1, Math.cos(a) * 0.03], [Math.sin(a) * 0.12, 0, Math.cos(a) * 0.12]);
                }
            },
        ],
    ];
    it.each(cases.flatMap(([name, add]) => [[`${name}, named`, add, true] as const, [`${name}, unnamed`, add, false] as const]))("%s", (_n, add, named) => {
        const plain = base(named);
        const want = BuildHumanoidAvatar(RigFromPoints("plain", plain.pts)).toBoneMapJson();
        const { pts, at } = base(named);
        add(pts, at);
        const rig: IRig = RigFromPoints("with extras", pts);
        const got = BuildHumanoidAvatar(rig).toBoneMapJson();
        for (const bone of EXPECTED) expect([bone, got[bone]]).toEqual([bone, want[bone]]);
    });
});
