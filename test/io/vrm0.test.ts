import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanBone, HumanBoneNames } from "../../src/index.js";
import { ReadGltfJson, type IGltfDocument } from "../../src/io/gltfJson.js";
import { ReadVrmHumanoid } from "../../src/io/vrm.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { EditGlbJson } from "../helpers/glbJson.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const VRM1 = "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm";

/**
 * The VRM 1.0 sample rewritten as VRM 0.x files make it: the humanoid map in the `VRM` extension
 * as a list of `{ bone, node }`, the thumb named as Unity names it (0.x's proximal, intermediate
 * and distal are 1.0's metacarpal, proximal and distal), and, with `facingBack`, the whole figure
 * turned to face -Z, as VRM 0.x models stand in glTF's axes (three-vrm turns them round), into `output`.
 */
function writeAsVrm0(facingBack: boolean, output: string): void {
    EditGlbJson<IGltfJson>(
        dataFile(VRM1),
        (json) => {
            const v1 = json.extensions.VRMC_vrm as { humanoid: { humanBones: Record<string, { node: number }> } };
            const humanBones = Object.entries(v1.humanoid.humanBones).map(([name, { node }]) => ({
                bone: name.replace(/ThumbProximal$/, "ThumbIntermediate").replace(/ThumbMetacarpal$/, "ThumbProximal"),
                node,
                useDefaultValues: true,
            }));
            delete json.extensions.VRMC_vrm;
            json.extensions.VRM = { specVersion: "0.0", meta: { title: "VRM 0.x rewrite of the VRM 1.0 sample" }, humanoid: { humanBones } };
            json.extensionsUsed = [...json.extensionsUsed.filter((e) => e !== "VRMC_vrm"), "VRM"];
            if (!facingBack) return;
            // Half a turn about Y on every root node: (0, 1, 0, 0) * q, and (-x, y, -z).
            for (const r of json.scenes[0].nodes) {
                const n = json.nodes[r];
                const [x, y, z, w] = n.rotation ?? [0, 0, 0, 1];
                n.rotation = [z, w, -x, -y];
                const [tx, ty, tz] = n.translation ?? [0, 0, 0];
                n.translation = [-tx, ty, -tz];
            }
        },
        output,
    );
}

/** What {@link writeAsVrm0} edits of the glTF JSON. */
interface IGltfJson {
    extensions: Record<string, unknown>;
    extensionsUsed: string[];
    scenes: Array<{ nodes: number[] }>;
    nodes: Array<{ rotation?: number[]; translation?: number[] }>;
}

/** A GLB file's JSON document. */
function glbJson(file: string): IGltfDocument {
    return ReadGltfJson(new Uint8Array(readFileSync(file)), file);
}

describeWithData("a VRM 0.x avatar", () => {
    let dir = "";
    beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), "vrm0-"));
        writeAsVrm0(false, join(dir, "same.vrm"));
        writeAsVrm0(true, join(dir, "back.vrm"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("reads the `VRM` extension's list, the thumb by Unity's names", () => {
        const map = ReadVrmHumanoid(glbJson(join(dir, "same.vrm")), "same.vrm");
        expect(map?.kind).toBe("VRM 0.x");
        const v1 = ReadVrmHumanoid(glbJson(dataFile(VRM1)), VRM1);
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
