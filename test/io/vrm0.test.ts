import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanBone, HumanBoneNames } from "../../src/index.js";
import { ReadVrmHumanoid } from "../../src/io/vrm.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const VRM1 = "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm";

/** A GLB's JSON and the bytes after its JSON chunk (the binary chunk, as it is). */
function splitGlb(bytes: Buffer): { json: Record<string, unknown> & { nodes: Array<Record<string, number[]>> }; rest: Buffer } {
    const jsonLength = bytes.readUInt32LE(12);
    return { json: JSON.parse(bytes.subarray(20, 20 + jsonLength).toString("utf8")), rest: bytes.subarray(20 + jsonLength) };
}

function joinGlb(json: unknown, rest: Buffer): Buffer {
    let text = Buffer.from(JSON.stringify(json), "utf8");
    text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
    const head = Buffer.alloc(20);
    head.writeUInt32LE(0x46546c67, 0);
    head.writeUInt32LE(2, 4);
    head.writeUInt32LE(20 + text.length + rest.length, 8);
    head.writeUInt32LE(text.length, 12);
    head.writeUInt32LE(0x4e4f534a, 16);
    return Buffer.concat([head, text, rest]);
}

/**
 * The VRM 1.0 sample rewritten as VRM 0.x files make it: the humanoid map in the `VRM` extension
 * as a list of `{ bone, node }`, the thumb named as Unity names it (0.x's proximal, intermediate
 * and distal are 1.0's metacarpal, proximal and distal), and, with `facingBack`, the whole figure
 * turned to face -Z, as VRM 0.x models stand in glTF's axes (three-vrm turns them round).
 */
function asVrm0(facingBack: boolean): Buffer {
    const { json, rest } = splitGlb(readFileSync(dataFile(VRM1)));
    const ext = json.extensions as Record<string, { humanoid: { humanBones: Record<string, { node: number }> } } | unknown>;
    const v1 = ext.VRMC_vrm as { humanoid: { humanBones: Record<string, { node: number }> } };
    const humanBones = Object.entries(v1.humanoid.humanBones).map(([name, { node }]) => ({
        bone: name.replace(/ThumbProximal$/, "ThumbIntermediate").replace(/ThumbMetacarpal$/, "ThumbProximal"),
        node,
        useDefaultValues: true,
    }));
    delete ext.VRMC_vrm;
    ext.VRM = { specVersion: "0.0", meta: { title: "VRM 0.x rewrite of the VRM 1.0 sample" }, humanoid: { humanBones } };
    json.extensionsUsed = [...(json.extensionsUsed as string[]).filter((e) => e !== "VRMC_vrm"), "VRM"];
    if (facingBack) {
        // Half a turn about Y on every root node: (0, 1, 0, 0) * q, and (-x, y, -z).
        for (const r of (json.scenes as Array<{ nodes: number[] }>)[0].nodes) {
            const n = json.nodes[r];
            const [x, y, z, w] = n.rotation ?? [0, 0, 0, 1];
            n.rotation = [z, w, -x, -y];
            const [tx, ty, tz] = n.translation ?? [0, 0, 0];
            n.translation = [-tx, ty, -tz];
        }
    }
    return joinGlb(json, rest);
}

describeWithData("a VRM 0.x avatar", () => {
    let dir = "";
    beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), "vrm0-"));
        writeFileSync(join(dir, "same.vrm"), asVrm0(false));
        writeFileSync(join(dir, "back.vrm"), asVrm0(true));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("reads the `VRM` extension's list, the thumb by Unity's names", () => {
        const map = ReadVrmHumanoid(splitGlb(readFileSync(join(dir, "same.vrm"))).json as never, "same.vrm");
        expect(map?.kind).toBe("VRM 0.x");
        const v1 = ReadVrmHumanoid(splitGlb(readFileSync(dataFile(VRM1))).json as never, VRM1);
        expect(v1?.kind).toBe("VRM 1.0");
        expect(map!.nodes).toEqual(v1!.nodes);
    });

    it("maps every bone to the same joint as the 1.0 file, facing -Z when its figure does", async () => {
        const one = (await LoadHumanoidAvatarFromFileAsync(dataFile(VRM1))).avatar;
        for (const name of ["same.vrm", "back.vrm"]) {
            const zero = (await LoadHumanoidAvatarFromFileAsync(join(dir, name))).avatar;
            const differ = HumanBoneNames.filter((_, b) => zero.getJoint(b as HumanBone) !== one.getJoint(b as HumanBone));
            expect([name, differ]).toEqual([name, []]);
            expect(zero.getJoint(HumanBone.LeftThumbProximal)).toBeGreaterThanOrEqual(0);
            const forward = zero.frame.forward;
            expect([name, Math.round(forward.z)]).toEqual([name, name === "back.vrm" ? -Math.round(one.frame.forward.z) : Math.round(one.frame.forward.z)]);
        }
    });

    it("plays a walk as the 1.0 file does, however it faces", async () => {
        const walk = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const one = await MeasureQualityPairAsync(walk, dataFile(VRM1), { skipAnimatorAvatar: true });
        const back = await MeasureQualityPairAsync(walk, join(dir, "back.vrm"), { skipAnimatorAvatar: true });
        expect(back.ours.poseErrorDeg).toBeCloseTo(one.ours.poseErrorDeg, 6);
        expect(back.ours.jerkRatio).toBeCloseTo(one.ours.jerkRatio, 6);
        expect(back.ours.footSkate).toBeCloseTo(one.ours.footSkate, 6);
        expect(back.ours.contactHeightError).toBeCloseTo(one.ours.contactHeightError, 6);
    }, 120_000);
});
