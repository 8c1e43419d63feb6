import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ParseBvh } from "../../src/io/bvh.js";
import { BvhPoseSource } from "../../src/io/bvhClip.js";
import { CreateRigFromBvh, FindWorldPositionJoints } from "../../src/io/bvhRig.js";
import { MeasureQualityPairAsync, type IQualityPair } from "../../src/node/qualityReport.js";
import { WriteBvhWithWorldPositionChannels } from "../helpers/bvhWorldChannels.js";
import { dataFile, describeWithData } from "../helpers/data.js";

// Some exporters write a joint's position channels as where it is in the world, not its
// translation from its parent (the AnimatedDrawings project's CMU takes, their thorax and head; that
// project's reader, as many, reads no position channel but the root's). Read as the format says,
// the CMU dance's thorax stood 57 units from its pelvis (4 by its OFFSET), the trunk leaning 45
// degrees, and every character bent over with it. The child's zombie walk is rewritten here with
// world positions on its spine and head, and must play as the original.
const SOURCE = "bvh/animated_drawings/fair1_zombie_8yo.bvh";
const JOINTS = ["Spine1", "Head"];

describeWithData("position channels that hold world positions", () => {
    let dir = "";
    let rewritten = "";
    beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), "world-channels-"));
        rewritten = WriteBvhWithWorldPositionChannels(dataFile(SOURCE), join(dir, "world.bvh"), JOINTS);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    test("are found, joint by joint, and left out with a warning", () => {
        const bvh = ParseBvh(readFileSync(rewritten, "utf8"), rewritten);
        expect(FindWorldPositionJoints(bvh).map((j) => bvh.joints[j].name)).toEqual(JOINTS);
        const source = new BvhPoseSource(CreateRigFromBvh(bvh));
        expect(source.warnings).toHaveLength(1);
        expect(source.warnings[0]).toContain("Spine1, Head");
        expect(source.warnings[0]).toContain("world positions");
    });

    test("are not found where position channels are translations (Bandai's and Mixamo's write them on every joint; a joint that stretches)", () => {
        const stretched = WriteBvhWithWorldPositionChannels(dataFile(SOURCE), join(dir, "stretch.bvh"), JOINTS, true);
        for (const file of [dataFile("bvh/bandai/dataset-1_walk_normal_001.bvh"), dataFile("bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh"), stretched]) {
            const bvh = ParseBvh(readFileSync(file, "utf8"), file);
            expect(bvh.joints.filter((j) => j.parent >= 0 && j.channels.some((c) => c.endsWith("position"))).length).toBeGreaterThan(1);
            expect([file, FindWorldPositionJoints(bvh)]).toEqual([file, []]);
        }
    });

    // Measured: the same figures as the original to 1e-4 (the channels are written to 5 decimals
    // and left out). Read as translations, the spine stood where the figure is in the room.
    test("plays as the original onto the KayKit mannequin", async () => {
        const measure = async (source: string): Promise<IQualityPair["ours"]> =>
            (await MeasureQualityPairAsync(source, dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"), { skipAnimatorAvatar: true })).ours;
        const a = await measure(dataFile(SOURCE));
        const b = await measure(rewritten);
        expect(Math.abs(b.poseErrorDeg - a.poseErrorDeg)).toBeLessThan(1e-3);
        expect(Math.abs(b.jerkRatio / a.jerkRatio - 1)).toBeLessThan(1e-3);
        for (const segment of Object.keys(a.segmentErrorDeg))
            expect([segment, Math.abs(b.segmentErrorDeg[segment] - a.segmentErrorDeg[segment]) < 0.01]).toEqual([segment, true]);
    }, 60_000);
});
