import { mkdirSync, writeFileSync } from "node:fs";
import type { ILoadedRig } from "../../src/node/index.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { CreateSurfaceFitMeshes, CreateSurfaceFitSource, FindSkinnedMeshes, type ISurfaceFitMeshes } from "../../src/io/surfaceFitMeshes.js";
import { FitSurfaceToRig, type ISurfaceFitResult, type ISurfaceFitSource } from "../../src/skin/surfaceFitRun.js";
import { MergeSurfaceFitBones } from "../../src/skin/mergeBones.js";
import { XBOT_MERGED_BONES } from "../helpers/mergedXBot.js";
import { MergeHumanBonesOfSurfaceFitRig } from "../../src/skin/coarseRig.js";
import { BuildHumanoidAvatar } from "../../src/humanoid/avatar.js";
import { dataFile, describeWithData } from "../helpers/data.js";

const figures: Record<string, unknown> = {};
function summary(r: ISurfaceFitResult): Record<string, number> {
    return {
        meanError: r.meanError,
        maxError: r.maxError,
        transferQuality: r.transferQuality,
        frames: r.frames,
        sweeps: r.sweeps,
        seconds: r.seconds,
        fittedVertices: r.fittedVertices,
    };
}

describeWithData("surface fit on the X Bot's walk", () => {
    let loaded: ILoadedRig;
    let fit: ISurfaceFitMeshes;
    let source: ISurfaceFitSource;
    beforeAll(async () => {
        loaded = await LoadRigFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        fit = CreateSurfaceFitMeshes(FindSkinnedMeshes(loaded.container!.meshes), "mixamo_xbot.glb");
        source = CreateSurfaceFitSource(
            fit,
            loaded.container!.animationGroups.find((g) => /walk/.test(g.name))!,
            30,
        );
    });
    afterAll(() => {
        loaded?.dispose();
        mkdirSync("test-artifacts", { recursive: true });
        writeFileSync("test-artifacts/surface-fit.json", JSON.stringify(figures, null, 2));
    });

    it.each([false, true])(
        "control: the X Bot fitted to its own walk reaches zero (mean <= 0.01%, worst <= 0.1% of the diagonal; rotation-only: %s)",
        (rotationOnly) => {
            const r = FitSurfaceToRig(source, fit.rig, { rotationOnly });
            figures[`control${rotationOnly ? "RotationOnly" : ""}`] = summary(r);
            expect(r.frames).toBeGreaterThan(20);
            expect(r.meanError).toBeLessThanOrEqual(1e-4);
            expect(r.maxError).toBeLessThanOrEqual(1e-3);
            expect(r.transferQuality).toBeGreaterThan(0.999);
        },
    );

    it.each([false, true])(
        "the X Bot with Spine2 and the fingers merged reproduces at least 95%% of the walk's surface motion (rotation-only: %s)",
        (rotationOnly) => {
            const merged = MergeSurfaceFitBones(fit.rig, (_, name) => XBOT_MERGED_BONES.test(name));
            // Spine2 and the 2 x 5 x 4 finger joints (with their _end tips) are gone.
            const gone = Array.from(merged.target).filter((t, i) => t !== i).length;
            expect(gone).toBeGreaterThanOrEqual(41);
            const r = FitSurfaceToRig(source, merged.rig, { rotationOnly });
            figures[`merged${rotationOnly ? "RotationOnly" : ""}`] = { ...summary(r), mergedBones: gone };
            expect(r.transferQuality).toBeGreaterThanOrEqual(0.95);
            // It cannot be exact: the merged joints' motion is missing.
            expect(r.maxError).toBeGreaterThan(1e-3);
        },
    );
});

describeWithData("the coarse rig from the human bone map", () => {
    it("merges on the X Bot what the Mixamo names say (Spine2 and the fingers): the same skin weights", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        try {
            const fit = CreateSurfaceFitMeshes(FindSkinnedMeshes(loaded.container!.meshes), "mixamo_xbot.glb");
            const byMap = MergeHumanBonesOfSurfaceFitRig(fit.rig, BuildHumanoidAvatar(loaded.rig));
            const byName = MergeSurfaceFitBones(fit.rig, (_, name) => XBOT_MERGED_BONES.test(name));
            expect(byMap.mergedCount).toBeGreaterThanOrEqual(31);
            expect(Array.from(byMap.rig.boneIndices)).toEqual(Array.from(byName.rig.boneIndices));
            expect(Array.from(byMap.rig.boneWeights)).toEqual(Array.from(byName.rig.boneWeights));
            expect(fit.rig.boneNames[Array.from(byMap.target).findIndex((t, j) => t !== j)]).toMatch(/Spine2|Hand/);
        } finally {
            loaded.dispose();
        }
    });
});

describeWithData("surface fit on Khronos' RiggedFigure", () => {
    it("control: its own clip reaches zero too (19 unnamed joints, weights that do not sum to 1)", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile("glb/khronos_RiggedFigure.glb"));
        try {
            const fit = CreateSurfaceFitMeshes(FindSkinnedMeshes(loaded.container!.meshes), "khronos_RiggedFigure.glb");
            const source = CreateSurfaceFitSource(fit, loaded.container!.animationGroups[0], 30);
            const r = FitSurfaceToRig(source, fit.rig);
            expect(r.fittedVertices).toBe(fit.rig.vertexCount);
            expect(r.meanError).toBeLessThanOrEqual(1e-4);
            expect(r.maxError).toBeLessThanOrEqual(1e-3);
        } finally {
            loaded.dispose();
        }
    });
});
