import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HumanoidError } from "../../src/index.js";
import { RetargetFileToGlbAsync } from "../../src/node/index.js";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
import { cli, closeRetargetScratch, openRetargetScratch, sampleCharacterGlbAsync } from "../helpers/retargetFixtures.js";

// How `babylon-humanoid retarget` fails: one line naming the file or option, exit code 1, nothing written.

let dir: string;
beforeAll(() => {
    dir = openRetargetScratch();
});
afterAll(() => closeRetargetScratch(dir));

describe("babylon-humanoid retarget on the built-in samples", () => {
    it("fails in one line naming the file or option, exit code 1, nothing written", async () => {
        const character = join(dir, "cmu.glb");
        await sampleCharacterGlbAsync(3, character);
        const bvh = join(dir, "walk2.bvh");
        writeFileSync(bvh, SampleWalkBvh());
        const sub = mkdtempSync(join(dir, "fail-"));
        const out = join(sub, "out.glb");
        // From the command line: a bad option value, a missing file, a source that is not a humanoid.
        let r = cli("retarget", bvh, "--onto", character, "-o", out, "--stretch", "abc");
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe(
            "error: option '--stretch <fraction>' argument 'abc' is invalid. --stretch must be a share of the limb's length from 0 to 0.5, for example 0.05\n",
        );
        const missing = join(dir, "nowhere.bvh");
        r = cli("retarget", missing, "--onto", character, "-o", out);
        expect([r.code, r.stdout, r.stderr]).toEqual([1, "", `babylon-humanoid: ${missing}: cannot read the file (no such file)\n`]);
        const notHumanoid = join(dir, "stick.bvh");
        writeFileSync(
            notHumanoid,
            "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0\n",
        );
        r = cli("retarget", notHumanoid, "--onto", character, "-o", out);
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr.startsWith(`babylon-humanoid: ${notHumanoid}:`)).toBe(true);
        // From the API, the same checks the command relies on.
        const fails = async (p: Promise<unknown>): Promise<string> => {
            try {
                await p;
            } catch (e) {
                expect(e).toBeInstanceOf(HumanoidError);
                return (e as HumanoidError).message;
            }
            throw new Error("expected a HumanoidError");
        };
        expect(await fails(RetargetFileToGlbAsync(bvh, character, out, { stretch: 0.9 }))).toBe(
            "--stretch must be a share of the limb's length from 0 to 0.5 (got 0.9)",
        );
        expect(await fails(RetargetFileToGlbAsync(bvh, character, out, { rootMotion: "delta" as never }))).toBe(
            '--root-motion must be in-place, clip or apply (got "delta")',
        );
        expect(await fails(RetargetFileToGlbAsync(bvh, join(dir, "nobody.glb"), out))).toBe(`${join(dir, "nobody.glb")}: cannot read the file (no such file)`);
        expect(await fails(RetargetFileToGlbAsync(bvh, bvh, out))).toBe(`${bvh}: the character (--onto) must be a .glb, .gltf or .vrm file, not '.bvh'`);
        expect(await fails(RetargetFileToGlbAsync(bvh, character, join(sub, "out.gltf")))).toBe(
            `-o ${join(sub, "out.gltf")}: the output is a binary glTF file; name it with .glb (or .vrma for a VRM Animation)`,
        );
        expect(await fails(RetargetFileToGlbAsync(join(dir, "notes.txt"), character, out))).toMatch(
            /notes\.txt: unsupported source type '\.txt' \(use \.muscle\.json, /,
        );
        expect(await fails(RetargetFileToGlbAsync(bvh, character, join(sub, "no-such-dir", "out.glb")))).toMatch(
            /no-such-dir\/out\.glb: cannot write the file \(ENOENT\)$/,
        );
        // Nothing was written, not even a temporary file.
        expect(readdirSync(sub)).toEqual([]);
    });
});
