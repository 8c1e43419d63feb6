import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { FitFileToGlbAsync } from "../../src/node/fitFile.js";
import { CreateSurfaceFitMeshes, CreateSurfaceFitSource, FindSkinnedMeshes } from "../../src/io/surfaceFitMeshes.js";
import { BoundingDiagonal } from "../../src/skin/fitRig.js";
import { dataFile, describeWithData } from "../helpers/data.js";

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { encoding: "utf8", cwd: process.cwd() });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bh-fit-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeWithData("babylon-humanoid fit", () => {
    const xbot = dataFile("glb/mixamo_xbot.glb");

    it("prints one JSON object with the control run and the transfer, and writes the GLB", () => {
        const out = join(dir, "xbot-self.glb");
        const r = cli("fit", xbot, "--clip", "walk", "--rig", xbot, "-o", out, "--json", "--vertices", "1500");
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        const lines = r.stdout.trim().split("\n");
        expect(lines).toHaveLength(1);
        const j = JSON.parse(lines[0]) as Record<string, number>;
        for (const k of ["controlMeanError", "controlMaxError", "meanError", "maxError", "transferQuality", "frames", "seconds"])
            expect(typeof j[k]).toBe("number");
        expect(j.vertices).toBe(1500);
        expect(j.controlMeanError).toBeLessThan(1e-4);
        expect(j.controlMaxError).toBeLessThan(1e-3);
        expect(j.transferQuality).toBeGreaterThan(0.999);
        expect(existsSync(out)).toBe(true);
    });

    it("names the file in one line and writes nothing when the clip or the skin is missing", () => {
        const out = join(dir, "never.glb");
        const noClip = cli("fit", xbot, "--clip", "moonwalk", "--rig", xbot, "-o", out);
        expect(noClip.code).toBe(1);
        expect(noClip.stderr).toMatch(new RegExp(`^babylon-humanoid: ${xbot}: no clip named 'moonwalk' \\(the file has .*walk.*\\)\\n$`));
        const vrm = dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm");
        const noSkin = cli("fit", xbot, "--clip", "walk", "--rig", vrm, "-o", out);
        expect(noSkin.code).toBe(1);
        expect(noSkin.stderr).toBe(`babylon-humanoid: ${vrm}: has no skinned mesh, so no surface to fit\n`);
        const bvh = cli("fit", dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"), "--clip", "walk", "--rig", xbot, "-o", out);
        expect(bvh.stderr).toMatch(/must be a skinned \.glb, \.gltf or \.vrm character, not '\.bvh'/);
        expect(existsSync(out)).toBe(false);
        expect(readdirSync(dir).filter((f) => f.startsWith("never"))).toEqual([]);
    });

    it("the GLB it writes plays the fitted surface back: the rig's skin follows the source's to the fit's error", async () => {
        const out = join(dir, "merged-check.glb");
        const r = await FitFileToGlbAsync(xbot, xbot, out, { clip: "walk", vertices: 1500 });
        const src = await LoadRigFromFileAsync(xbot);
        const back = await LoadRigFromFileAsync(out);
        try {
            const srcFit = CreateSurfaceFitMeshes(FindSkinnedMeshes(src.container!.meshes), xbot);
            const backFit = CreateSurfaceFitMeshes(FindSkinnedMeshes(back.container!.meshes), out);
            expect(back.container!.animationGroups).toHaveLength(1);
            const a = CreateSurfaceFitSource(
                srcFit,
                src.container!.animationGroups.find((g) => /walk/.test(g.name))!,
                30,
            );
            const b = CreateSurfaceFitSource(backFit, back.container!.animationGroups[0], 30);
            expect(b.frameCount).toBe(r.transfer.frames);
            const pa = new Float64Array(3 * a.vertexCount);
            const pb = new Float64Array(3 * b.vertexCount);
            const diag = BoundingDiagonal(srcFit.rig.restPositions);
            let worst = 0;
            for (const f of [0, Math.floor(b.frameCount / 2), b.frameCount - 1]) {
                a.frameToRef(f, pa);
                b.frameToRef(f, pb);
                for (let i = 0; i < pa.length; i += 3) worst = Math.max(worst, Math.hypot(pa[i] - pb[i], pa[i + 1] - pb[i + 1], pa[i + 2] - pb[i + 2]));
            }
            // float32 keys and Babylon's float32 matrices: about 1e-6 of the diagonal on top of the fit's own error
            expect(worst / diag).toBeLessThan(1e-4);
        } finally {
            src.dispose();
            back.dispose();
        }
    });
});
