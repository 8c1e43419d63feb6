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
    });
});
