import { readFileSync } from "node:fs";
import { BuildHumanoidAvatar, ComputeRigWorldPose, CreateRigFromBvh, GetBvhFramePose, HumanBone, ParseBvh, type IBvhFile } from "../../src/index.js";
import { TINY_BVH } from "../helpers/bvhText.js";
import { dataFile, describeWithData } from "../helpers/data.js";

type M4 = number[][];
const mul = (a: M4, b: M4): M4 => a.map((r) => b[0].map((_, j) => r.reduce((s, v, k) => s + v * b[k][j], 0)));
const rot = (axis: number, deg: number): M4 => {
    const t = (deg * Math.PI) / 180;
    const c = Math.cos(t);
    const s = Math.sin(t);
    if (axis === 0)
        return [
            [1, 0, 0, 0],
            [0, c, -s, 0],
            [0, s, c, 0],
            [0, 0, 0, 1],
        ];
    if (axis === 1)
        return [
            [c, 0, s, 0],
            [0, 1, 0, 0],
            [-s, 0, c, 0],
            [0, 0, 0, 1],
        ];
    return [
        [c, -s, 0, 0],
        [s, c, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
    ];
};
const trans = (x: number, y: number, z: number): M4 => [
    [1, 0, 0, x],
    [0, 1, 0, y],
    [0, 0, 1, z],
    [0, 0, 0, 1],
];

/**
 * The slow, obvious oracle: BVH forward kinematics in the file's own right-handed axes with 4x4
 * column-vector matrices, local = T(offset or position channels) * R(c1) * R(c2) * R(c3).
 */
function oraclePositions(bvh: IBvhFile, frame: number): number[][] {
    const world: M4[] = [];
    return bvh.joints.map((j, i) => {
        const v = (k: number): number => bvh.motion[frame * bvh.channelCount + j.channelStart + k];
        let t = [...j.offset];
        let local: M4 = trans(t[0], t[1], t[2]);
        const pos = j.channels.map((c, k) => (c.endsWith("position") ? k : -1)).filter((k) => k >= 0);
        if (pos.length) {
            t = [...j.offset];
            j.channels.forEach((c, k) => {
                if (c.endsWith("position")) t[c.charCodeAt(0) - 88] = v(k);
            });
            local = trans(t[0], t[1], t[2]);
        }
        j.channels.forEach((c, k) => {
            if (c.endsWith("rotation")) local = mul(local, rot(c.charCodeAt(0) - 88, v(k)));
        });
        world[i] = j.parent >= 0 ? mul(world[j.parent], local) : local;
        return [world[i][0][3], world[i][1][3], world[i][2][3]];
    });
}

describe("BVH to rig space", () => {
    it("mirrors X (right-handed Y-up file to left-handed rig) and honours each joint's channel order", () => {
        const bvh = ParseBvh(TINY_BVH, "tiny.bvh");
        const r = CreateRigFromBvh(bvh, { upAxis: "y", units: "m" });
        for (let f = 0; f < bvh.frameCount; f++) {
            const ours = ComputeRigWorldPose(r.rig, GetBvhFramePose(r, f)).positions;
            const want = oraclePositions(bvh, f);
            ours.forEach((p, i) => {
                expect(p.x).toBeCloseTo(-want[i][0], 9);
                expect(p.y).toBeCloseTo(want[i][1], 9);
                expect(p.z).toBeCloseTo(want[i][2], 9);
            });
        }
    });

    it("turns Z-up files Y-up: (x, y, z) -> (-x, z, -y), and scales units", () => {
        const bvh = ParseBvh(TINY_BVH, "tiny.bvh");
        const r = CreateRigFromBvh(bvh, { upAxis: "z", units: "cm" });
        const ours = ComputeRigWorldPose(r.rig, GetBvhFramePose(r, 0)).positions;
        oraclePositions(bvh, 0).forEach((w, i) => {
            expect(ours[i].x).toBeCloseTo(-w[0] * 0.01, 9);
            expect(ours[i].y).toBeCloseTo(w[2] * 0.01, 9);
            expect(ours[i].z).toBeCloseTo(-w[1] * 0.01, 9);
        });
    });

    it("rejects bad options with a clear error", () => {
        const bvh = ParseBvh(TINY_BVH, "tiny.bvh");
        expect(() => CreateRigFromBvh(bvh, { units: -1 })).toThrow(/tiny\.bvh: units must be a positive number/);
        expect(() => CreateRigFromBvh(bvh, { units: "furlongs" as never })).toThrow(/unknown units 'furlongs'/);
        expect(() => GetBvhFramePose(CreateRigFromBvh(bvh), 5)).toThrow(/frame 5 is out of range \(0\.\.1\)/);
    });
});

describeWithData("BVH files of ../shared/data in rig space", () => {
    const cases: Array<[string, "y" | "z", string]> = [
        ["bvh/cmu_cgspeed/cmu_walk.bvh", "y", "cmu"],
        ["bvh/bandai/dataset-1_walk_normal_001.bvh", "y", "cm"],
        ["bvh/animated_drawings/fair1_jumping_8yo.bvh", "z", "inches"],
        ["bvh/animated_drawings/cmu1_jumping_jacks.bvh", "y", "cmu"],
        ["bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh", "y", "cm"],
    ];
    it.each(cases)("%s: %s-up, units %s, a person-sized body standing up", (file, up, units) => {
        const bvh = ParseBvh(readFileSync(dataFile(file), "utf8"), file);
        const r = CreateRigFromBvh(bvh);
        expect(r.conversion.upAxis).toBe(up);
        expect(r.conversion.unitsName).toBe(units);
        const avatar = BuildHumanoidAvatar(r.rig);
        const w = avatar.referenceWorld.positions;
        const height = w[avatar.getJoint(HumanBone.Head)].y - w[avatar.getJoint(HumanBone.LeftFoot)].y;
        expect(height).toBeGreaterThan(0.8); // the AnimatedDrawings skeletons are children
        expect(height).toBeLessThan(1.9);
    });

    it("matches the oracle on every frame of the jumping jacks (channel orders differ between joints)", () => {
        const file = "bvh/animated_drawings/cmu1_jumping_jacks.bvh";
        const bvh = ParseBvh(readFileSync(dataFile(file), "utf8"), file);
        const r = CreateRigFromBvh(bvh, { upAxis: "y", units: "m" });
        let worst = 0;
        for (let f = 0; f < bvh.frameCount; f++) {
            const ours = ComputeRigWorldPose(r.rig, GetBvhFramePose(r, f)).positions;
            oraclePositions(bvh, f).forEach((w, i) => {
                worst = Math.max(worst, Math.abs(ours[i].x + w[0]), Math.abs(ours[i].y - w[1]), Math.abs(ours[i].z - w[2]));
            });
        }
        expect(worst).toBeLessThan(1e-9);
    });
});

describe("BVH options are checked", () => {
    it("rejects unknown units, axes and frames", () => {
        const bvh = ParseBvh(TINY_BVH, "tiny.bvh");
        expect(() => CreateRigFromBvh(bvh, { units: "toString" as never })).toThrow(/unknown units 'toString'/);
        expect(() => CreateRigFromBvh(bvh, { upAxis: "x" as never })).toThrow(/upAxis must be "auto", "y" or "z"/);
        expect(() => GetBvhFramePose(CreateRigFromBvh(bvh), 0.5)).toThrow(/frame 0\.5 is out of range/);
    });
});
