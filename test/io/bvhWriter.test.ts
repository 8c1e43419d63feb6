import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { ComputeRigWorldPose, CreateRigFromBvh, GetBvhFramePose, ParseBvh, type IRigPose } from "../../src/index.js";
import { WriteBvh } from "../../src/io/bvhWriter.js";
import { TINY_BVH } from "../helpers/bvhText.js";

describe("WriteBvh", () => {
    const read = (text: string) => {
        const bvh = ParseBvh(text, "tiny");
        return { bvh, bvhRig: CreateRigFromBvh(bvh, { upAxis: "y", units: "cm" }) };
    };

    it("writes every frame so that the reader puts each joint where it was", () => {
        const { bvh, bvhRig } = read(TINY_BVH);
        const poses = Array.from({ length: bvh.frameCount }, (_, f) => GetBvhFramePose(bvhRig, f));
        const again = read(WriteBvh(bvhRig.rig, poses, { frameTimeSeconds: bvh.frameTimeSeconds }));
        expect(again.bvh.frameCount).toBe(bvh.frameCount);
        for (let f = 0; f < bvh.frameCount; f++) {
            const a = ComputeRigWorldPose(bvhRig.rig, poses[f]).positions;
            const b = ComputeRigWorldPose(again.bvhRig.rig, GetBvhFramePose(again.bvhRig, f)).positions;
            a.forEach((p, i) => expect(Vector3.Distance(p, b[i])).toBeLessThan(1e-5));
        }
    });

    it("refuses a pose that is not finite, naming the frame and the joint, and a rig that is not", () => {
        const { bvh, bvhRig } = read(TINY_BVH);
        const rig = bvhRig.rig;
        const poses: IRigPose[] = Array.from({ length: bvh.frameCount }, (_, f) => GetBvhFramePose(bvhRig, f));
        const bad = rig.joints.findIndex((j, i) => i > 0 && j.kind === rig.joints[1].kind);
        const rotations = poses[1].rotations.map((q, i) => (i === bad ? new Quaternion(NaN, 0, 0, 1) : q));
        const broken = [poses[0], { ...poses[1], rotations }];
        expect(() => WriteBvh(rig, broken)).toThrow(`tiny: frame 1: joint '${rig.joints[bad].name}' has a rotation or position that is not finite`);
        const root = poses[0].positions.map((p, i) => (i === 0 ? new Vector3(Infinity, 0, 0) : p));
        expect(() => WriteBvh(rig, [{ ...poses[0], positions: root }])).toThrow(/frame 0: joint '.+' has a rotation or position that is not finite/);
        const joints = rig.joints.map((j, i) => (i === bad ? { ...j, restRotation: new Quaternion(NaN, 0, 0, 1) } : j));
        expect(() => WriteBvh({ ...rig, joints }, poses)).toThrow("has a rest transform that is not finite");
        const zero = poses[1].rotations.map((q, i) => (i === bad ? new Quaternion(0, 0, 0, 0) : q));
        expect(() => WriteBvh(rig, [{ ...poses[1], rotations: zero }])).toThrow(`tiny: frame 0: joint '${rig.joints[bad].name}' has a rotation`);
        expect(() => WriteBvh(rig, [{ ...poses[1], rotations: poses[1].rotations.slice(1) }])).toThrow(
            `tiny: frame 0: the pose must have a rotation and a position for each of the ${rig.joints.length} joints`,
        );
    });

    it("refuses what the reader would refuse: a frame time, units, a length past its cap", () => {
        const { bvh, bvhRig } = read(TINY_BVH);
        const rig = bvhRig.rig;
        const poses = Array.from({ length: bvh.frameCount }, (_, f) => GetBvhFramePose(bvhRig, f));
        for (const t of [0, NaN, 1e-5, 1e5]) expect(() => WriteBvh(rig, poses, { frameTimeSeconds: t })).toThrow(/tiny: the frame time must be from 0\.0001 to 3600 seconds, got /);
        expect(() => WriteBvh(rig, poses, { units: "furlongs" as "cm" })).toThrow(/tiny: units must be one of m, cm, mm, inches, cmu, got "furlongs"/);
        // 20 km in centimetres.
        const far = poses[0].positions.map((p, i) => (i === 0 ? new Vector3(20_000, 0, 0) : p));
        expect(() => WriteBvh(rig, [{ ...poses[0], positions: far }])).toThrow("tiny: frame 0: the root is further than 1000000 cm from the origin");
        const longBone = rig.joints.map((j, i) => (i === 1 ? { ...j, restPosition: new Vector3(0, 20_000, 0) } : j));
        expect(() => WriteBvh({ ...rig, joints: longBone }, poses)).toThrow("tiny: joint 'Spine' is further than 1000000 cm from its parent");
        // At the caps: read back.
        expect(() => ParseBvh(WriteBvh(rig, poses, { frameTimeSeconds: 1e-4, units: "m" }), "again")).not.toThrow();
    });
});
