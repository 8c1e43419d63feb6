/**
 * Kill safety (issue 14): `convert` and `retarget` are sent SIGKILL at random moments of bulk runs;
 * no output file is ever partial (an output name holds a whole file that reads back, or nothing),
 * temporary files are named so that they cannot be taken for output, and the next run cleans them
 * up. `BH_KILLS=50` runs 50 kills of each command (default 5).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ParseMuscleClip, ReadGltfJson } from "../../src/index.js";
import { BuildHumanoidAvatar } from "../../src/humanoid/avatar.js";
import { BuildSampleRig, SampleCharacters } from "../../src/samples/sampleCharacters.js";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
import { SampleGlb } from "../fuzz/corpus.js";
import { Rng } from "../fuzz/mutate.js";

const KILLS = Number(process.env.BH_KILLS ?? 5);
/** What the writer names its side files: a leading dot, the target's name, its process id, 8 hex digits, `.tmp` or `.old`. */
const SIDE_FILE = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.(tmp|old)$/;

let dir: string;
let inputs: string[];
let character: string;
beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bh-kill-"));
    inputs = SampleCharacters.flatMap((spec, i) =>
        [4, 7].map((seconds) => {
            const file = join(dir, `walk-${i}-${seconds}.bvh`);
            writeFileSync(file, SampleWalkBvh(spec, { durationSeconds: seconds }));
            return file;
        }),
    );
    const rig = BuildSampleRig(SampleCharacters[1]);
    character = join(dir, "character.glb");
    writeFileSync(character, SampleGlb(rig, BuildHumanoidAvatar(rig)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the CLI from source and kills it after `ms` (or lets it finish); resolves with its exit code or signal. */
function runCli(args: string[], killAfterMs: number | null): Promise<string> {
    return new Promise((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { cwd: process.cwd(), stdio: "ignore" });
        const timer = killAfterMs === null ? null : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
        child.on("exit", (code, signal) => {
            if (timer) clearTimeout(timer);
            resolve(signal ?? String(code));
        });
    });
}

/** Checks every file of a folder: a side file, or a whole output that reads back. Returns the side files seen. */
function checkFolder(out: string, readBack: (file: string) => void): string[] {
    const sides: string[] = [];
    for (const name of readdirSync(out)) {
        const file = join(out, name);
        if (SIDE_FILE.test(name)) {
            sides.push(name);
            continue;
        }
        readBack(file);
    }
    return sides;
}

const readClip = (file: string): void => void ParseMuscleClip(new Uint8Array(readFileSync(file)), file);
const readGlb = (file: string): void => {
    const bytes = new Uint8Array(readFileSync(file));
    ReadGltfJson(bytes, file);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true)).toBe(statSync(file).size);
};

it(`convert: ${KILLS} SIGKILLs at random moments of a bulk run leave no partial output, and the next run cleans up`, async () => {
    const out = join(dir, "clips");
    mkdirSync(out);
    const rng = new Rng(14);
    // A whole run first: it must work, and its length spreads the kills over a run on this machine
    // (later runs replace its files, so the kills also land while old outputs are moved aside).
    const t0 = performance.now();
    expect(await runCli(["convert", ...inputs, "-o", out, "--jobs", "1"], null)).toBe("0");
    const runMs = performance.now() - t0;
    let killed = 0;
    for (let k = 0; k < KILLS; k++) {
        const how = await runCli(["convert", ...inputs, "-o", out, "--jobs", "1"], runMs * (0.1 + 0.85 * rng.next()));
        if (how === "SIGKILL") killed++;
        checkFolder(out, readClip);
    }
    expect(killed).toBeGreaterThan(KILLS / 2);
    expect(await runCli(["convert", ...inputs, "-o", out, "--jobs", "1"], null)).toBe("0");
    expect(checkFolder(out, readClip)).toEqual([]);
    expect(readdirSync(out).sort()).toEqual(inputs.map((f) => f.slice(dir.length + 1).replace(/\.bvh$/, ".muscle.json")).sort());
}, 600_000);

it(`retarget: ${KILLS} SIGKILLs while writing the GLB leave no partial output, and the next run cleans up`, async () => {
    const out = join(dir, "glb");
    mkdirSync(out);
    const target = join(out, "walk.glb");
    const rng = new Rng(41);
    const t0 = performance.now();
    expect(await runCli(["retarget", inputs[inputs.length - 1], "--onto", character, "-o", target], null)).toBe("0");
    const runMs = performance.now() - t0;
    let killed = 0;
    for (let k = 0; k < KILLS; k++) {
        const how = await runCli(["retarget", inputs[inputs.length - 1], "--onto", character, "-o", target], runMs * (0.3 + 0.69 * rng.next()));
        if (how === "SIGKILL") killed++;
        checkFolder(out, readGlb);
    }
    expect(killed).toBeGreaterThan(KILLS / 2);
    expect(await runCli(["retarget", inputs[inputs.length - 1], "--onto", character, "-o", target], null)).toBe("0");
    expect(checkFolder(out, readGlb)).toEqual([]);
    expect(readdirSync(out)).toEqual(["walk.glb"]);
}, 600_000);
