import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TINY_BVH } from "../helpers/bvhText.js";
import { dataFile, describeWithData } from "../helpers/data.js";

/** Runs the CLI from source (tsx), as `babylon-humanoid ...`. */
function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { encoding: "utf8", cwd: process.cwd() });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bh-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("babylon-humanoid CLI", () => {
    it("says what is wrong in one line and exits 1 for a missing file", () => {
        const r = cli("inspect", "nowhere/missing.glb", "--json");
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe("babylon-humanoid: nowhere/missing.glb: cannot read the file (no such file)\n");
    });

    it("names the file and line of a broken BVH", () => {
        const file = join(dir, "broken.bvh");
        writeFileSync(file, TINY_BVH.replace("OFFSET 0 10 0", "OFFSET 0 ten 0"));
        const r = cli("inspect", file);
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n")).toEqual([`babylon-humanoid: ${file}:8: OFFSET y is not a number: 'ten'`]);
    });

    it("rejects unsupported files and non-humanoids in one line", () => {
        const txt = join(dir, "notes.txt");
        writeFileSync(txt, "hello");
        expect(cli("inspect", txt).stderr).toBe(`babylon-humanoid: ${txt}: unsupported file type '.txt' (use .glb, .gltf, .vrm, .vrma or .bvh)\n`);
        const glb = join(dir, "fake.glb");
        writeFileSync(glb, "not a glb at all");
        const r = cli("inspect", glb);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(new RegExp(`^babylon-humanoid: ${glb}: not a glTF file: its JSON does not parse`));
    });

    it("runs the demo on the built-in samples", () => {
        const r = cli("demo");
        expect(r.code).toBe(0);
        for (const name of ["sample-mixamo-tpose", "sample-unreal-apose", "sample-chibi-unnamed", "sample-cmu-arms-down"]) {
            expect(r.stdout).toContain(name);
        }
        expect(r.stdout).toContain("detected Z-up, inches");
        // The muscle pose lifts the left arm 0.6 of its 100 deg up-range (60 deg) on every sample,
        // and the muscles read back to within rounding.
        const muscleLines = r.stdout.split("\n").filter((l) => l.includes("deg above horizontal"));
        expect(muscleLines).toHaveLength(4);
        for (const line of muscleLines) {
            const [, up, backErr] = /left arm (-?[\d.]+) deg above horizontal.*read back within ([\d.e+-]+)/.exec(line) ?? [];
            expect(Math.abs(Number(up) - 60)).toBeLessThan(0.5);
            expect(Number(backErr)).toBeLessThan(1e-9);
        }
    });
});

describeWithData("babylon-humanoid inspect on real files", () => {
    it("--json prints exactly one object: file, boneMap (#N for unnamed nodes), facing, warnings", () => {
        const file = dataFile("glb/khronos_RiggedFigure.glb");
        const r = cli("inspect", file, "--json");
        expect(r.code).toBe(0);
        expect(r.stderr).toBe("");
        expect(r.stdout.trim().split("\n")).toHaveLength(1);
        const json = JSON.parse(r.stdout);
        expect(Object.keys(json)).toEqual(["file", "boneMap", "facing", "warnings"]);
        expect(json.file).toBe(file);
        expect(json.boneMap.hips).toBe("#2");
        expect(json.boneMap.leftUpperArm).toBe("#16");
        expect(json.facing).toEqual([0, 0, 1]);
        expect(json.warnings).toEqual([]);
    });

    it("prints the bone map, facing and T-pose corrections for people", () => {
        const r = cli("inspect", dataFile("bvh/animated_drawings/cmu1_jumping_jacks.bvh"));
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/BVH, \d+ nodes, 31 joints, 125 frames at 30\.00 fps, Y-up, units: cmu/);
        expect(r.stdout).toMatch(/leftUpperArm\s+LeftShoulder\s+\? its name 'LeftShoulder' suggests shoulder/);
        expect(r.stdout).toMatch(/T-pose: enforced from the rest pose; \d+ bones turned:/);
        expect(r.stdout).toMatch(/leftUpperArm\s+90\.0 deg/);
    });

    it("applies a bone map file and reports a bad one", () => {
        const good = join(dir, "map.json");
        writeFileSync(good, JSON.stringify({ leftShoulder: null, rightShoulder: null }));
        const ok = cli("inspect", dataFile("glb/mixamo_xbot.glb"), "--json", "--bone-map", good);
        expect(ok.code).toBe(0);
        expect(JSON.parse(ok.stdout).boneMap.leftShoulder).toBeUndefined();
        const bad = join(dir, "bad.json");
        writeFileSync(bad, JSON.stringify({ leftElbow: "x" }));
        const r = cli("inspect", dataFile("glb/mixamo_xbot.glb"), "--bone-map", bad);
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(`babylon-humanoid: ${bad}: unknown human bone 'leftElbow'\n`);
    });
});
