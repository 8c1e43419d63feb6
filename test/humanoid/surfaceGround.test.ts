import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanBone } from "../../src/humanoid/humanBones.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { LoadHumanoidAvatarFromFileAsync, LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { EditGlbJson } from "../helpers/glbJson.js";
import { MoveXBotToesOffFeet } from "../helpers/toelessFeet.js";

// The ground of a character is the lowest point of its feet in the T-pose (`MuscleSetup.scale`
// is the centre of mass's height above it). A foot that ends at its ankle (no toes, no tip joint:
// many game rigs, the Saxon warrior of colesam/uploads) has no joint below the ankle, and the
// ground was the ankle itself: the character planted its ankles on the floor, its boots 7 cm in.
// Where the rig comes with its meshes, the ground is then its surface's lowest point
// (`IRig.surfaceBelow`, from the vertices bound to the foot).

describeWithData("the ground of feet that end at their ankles", () => {
    it("is the surface's lowest point: the X Bot with its toes taken off its feet keeps its ankles as high above its ground", async () => {
        const dir = mkdtempSync(join(tmpdir(), "bh-ankles-"));
        try {
            const file = join(dir, "xbot_ankles.glb");
            EditGlbJson(dataFile("glb/mixamo_xbot.glb"), MoveXBotToesOffFeet, file);
            const original = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
            const ankles = await LoadHumanoidAvatarFromFileAsync(file);
            try {
                const a = MuscleSetup.For(original.avatar);
                const b = MuscleSetup.For(ankles.avatar);
                expect(ankles.avatar.getJoint(HumanBone.LeftToes)).toBe(-1);
                expect(b.footTip).toEqual([-1, -1]);
                // The X Bot's own ground is its toe ends' height, which its soles share within a few mm.
                // Before: 0 (the ankles the lowest joints), and the centre of mass 8 cm lower for the scale.
                expect(Math.abs(b.ankleHeight - a.ankleHeight)).toBeLessThan(0.005);
                expect(Math.abs(b.scale - a.scale) / a.scale).toBeLessThan(0.005);
                // The surface below the foot: its sole, as far below its ankle.
                const foot = original.avatar.getJoint(HumanBone.LeftFoot);
                expect(original.loaded.rig.surfaceBelow![foot]).toBeGreaterThan(0.08);
                expect(original.loaded.rig.surfaceBelow![foot]).toBeLessThan(0.1);
            } finally {
                original.loaded.dispose();
                ankles.loaded.dispose();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    }, 60_000);

    it("a rig without meshes knows no surface: a BVH's ground is its joints'", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"));
        try {
            expect(loaded.rig.surfaceBelow).toBeUndefined();
        } finally {
            loaded.dispose();
        }
    }, 60_000);
});
