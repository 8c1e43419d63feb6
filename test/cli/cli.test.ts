import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { MirrorMuscleClip, ParseMuscleClip, ParseMuscleClipJson, ReadGltfJson, type HumanoidError } from "../../src/index.js";
import { MuscleClipOutputPaths, WriteFilesAtomicallyAsync } from "../../src/node/index.js";
import { ParseShard, SelectShardInputs, type IConvertManifestEntry } from "../../src/cli/convert.js";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
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

    it("runs the demo on the built-in samples, end to end: converts, retargets onto the chibi, writes the GLB, measures", () => {
        const dir = mkdtempSync(join(tmpdir(), "bh-demo-"));
        const r = cli("demo", "-o", dir);
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
        expect(r.stdout).toMatch(/-> muscle clip: 200 curves, \d+ keys within 0\.1 deg, \d+ bytes binary \(\d+% of the BVH\), loop true/);
        expect(r.stdout.match(/feet 0\.\d\d m apart front to back/g)).toHaveLength(4);
        // The retarget: a GLB written, feet on their goals, and less foot skating than AnimatorAvatar.
        expect(r.stdout).toMatch(/-> .*sample-walk-on-sample-chibi-unnamed\.glb: \d+ bytes, 67 frames at 30 fps; feet within 0\.\d mm of their goals/);
        expect(readdirSync(dir).sort()).toEqual(["sample-chibi-unnamed.glb", "sample-walk-on-sample-chibi-unnamed.glb", "sample-walk.bvh"]);
        // Both GLBs name every node, none twice (the chibi's joints have no names of their own).
        for (const glb of ["sample-chibi-unnamed.glb", "sample-walk-on-sample-chibi-unnamed.glb"]) {
            const names = ReadGltfJson(new Uint8Array(readFileSync(join(dir, glb))), glb).nodes!.map((n) => n.name);
            expect(names.length).toBeGreaterThan(20);
            expect(names.every((n) => typeof n === "string" && n !== "")).toBe(true);
            expect(new Set(names).size).toBe(names.length);
        }
        const [, ours, theirs] = /foot skating \(leg lengths per contact second\)\s+([\d.]+)\s+([\d.]+)/.exec(r.stdout) ?? [];
        expect(Number(ours)).toBeLessThan(Number(theirs) / 5);
        rmSync(dir, { recursive: true, force: true });
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

describe("babylon-humanoid convert", () => {
    it("converts several files at once; a broken one is reported, the others still convert, nothing half written", () => {
        const out = join(dir, "clips");
        const walk = join(dir, "walk.bvh");
        const walkZ = join(dir, "walk-zup.bvh");
        const broken = join(dir, "broken.bvh");
        writeFileSync(walk, SampleWalkBvh());
        writeFileSync(walkZ, SampleWalkBvh(undefined, { upAxis: "z", units: "inches" }));
        writeFileSync(broken, SampleWalkBvh().replace(/MOTION\nFrames: 67/, "MOTION\nFrames: 68"));
        const r = cli("convert", walk, broken, walkZ, "-o", out, "--jobs", "2", "--format", "bin");
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n")).toEqual([
            `babylon-humanoid: ${broken}:${SampleWalkBvh().split("\n").length}: unexpected end of file, expected frame 68 of 68 (the file is truncated)`,
        ]);
        expect(r.stdout).toMatch(/^input\s+clip\s+frames\s+fps\s+keys\s+size\s+of source\s+warnings\s+output$/m);
        expect(r.stdout).toMatch(/^walk\.bvh\s+walk\s+67\s+30\s+\d+\s+[\d.]+ kB\s+\d+%\s+0\s+.*walk\.muscle\.bin$/m);
        expect(r.stdout).toMatch(/^broken\.bvh\s+-.*FAILED$/m);
        expect(r.stdout).toMatch(/2 clips written from 2 of 3 inputs; 1 failed\./);
        expect(readdirSync(out).sort()).toEqual(["walk-zup.muscle.bin", "walk.muscle.bin"]);
        const a = ParseMuscleClip(readFileSync(join(out, "walk.muscle.bin")), "a");
        const b = ParseMuscleClip(readFileSync(join(out, "walk-zup.muscle.bin")), "b");
        // The same walk, written Y-up in cm and Z-up in inches, gives the same muscles.
        for (let c = 0; c < a.curves.length; c++) {
            expect(Math.abs(a.curves[c].values[0] - b.curves[c].values[0])).toBeLessThan(1e-3);
        }
    });

    it("writes one named file with -o, JSON by its extension, and refuses a clip name the file lacks", () => {
        const walk = join(dir, "walk1.bvh");
        writeFileSync(walk, SampleWalkBvh());
        const target = join(dir, "one.muscle.json");
        const r = cli("convert", walk, "-o", target, "--rate", "60", "--tolerance", "0.5");
        expect(r.code).toBe(0);
        const clip = ParseMuscleClipJson(readFileSync(target, "utf8"), target);
        expect([clip.frameRate, clip.frameCount, clip.toleranceDeg]).toEqual([60, 133, 0.5]);
        const bad = cli("convert", walk, "--clip", "run", "-o", join(dir, "none"));
        expect(bad.code).toBe(1);
        expect(bad.stderr).toBe(`babylon-humanoid: ${walk}: a BVH file holds one clip, named 'walk1', not 'run'\n`);
        expect(readdirSync(join(dir, "none"))).toEqual([]);
        const opt = cli("convert", walk, "--tolerance", "90");
        expect(opt.code).not.toBe(0);
        expect(opt.stderr).toMatch(/--tolerance must be between 0 and 45 degrees/);
    });

    it("convert --denoise sets how far the source's joints may move when denoised (0: as they are), and refuses a value out of range", () => {
        const walk = join(dir, "walk-denoise.bvh");
        writeFileSync(walk, SampleWalkBvh());
        const values = (denoise: string): number[] => {
            const target = join(dir, `denoise-${denoise}.muscle.json`);
            const r = cli("convert", walk, "-o", target, "--denoise", denoise);
            expect(r.code).toBe(0);
            return ParseMuscleClipJson(readFileSync(target, "utf8"), target).curves.flatMap((c) => Array.from(c.values));
        };
        const none = values("0");
        const wide = values("5");
        expect(none.length === wide.length && none.every((v, i) => v === wide[i])).toBe(false);
        const bad = cli("convert", walk, "--denoise", "-1");
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toMatch(/--denoise must be between 0 and 45 degrees/);
    });

    it("report --tolerance converts the sources at that tolerance: 0 keeps every key, and the self round trip is then exact", () => {
        const walk = join(dir, "walk-report.bvh");
        writeFileSync(walk, SampleWalkBvh());
        const poseError = (...extra: string[]): number => {
            const json = join(dir, `report${extra.join("")}.json`);
            const r = cli("report", walk, "--onto", walk, "-o", join(dir, "report.html"), "--json", json, "--no-animator-avatar", "--no-planting", ...extra);
            expect(r.code).toBe(0);
            return JSON.parse(readFileSync(json, "utf8")).pairs[0].ours.poseErrorDeg as number;
        };
        const reduced = poseError();
        const exact = poseError("--tolerance", "0");
        expect(reduced).toBeGreaterThan(1e-3);
        expect(exact).toBeLessThan(reduced / 10);
        const bad = cli("report", walk, "--onto", walk, "-o", join(dir, "bad.html"), "--tolerance", "-1");
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toMatch(/--tolerance must be between 0 and 45 degrees/);
    });

    it("report --t-pose makes the avatars' reference poses as asked and says so in the JSON; other modes are refused", () => {
        const walk = join(dir, "walk-tpose.bvh");
        writeFileSync(walk, SampleWalkBvh());
        const json = join(dir, "report-tpose.json");
        const r = cli("report", walk, "--onto", walk, "-o", join(dir, "report-tpose.html"), "--json", json, "--no-animator-avatar", "--t-pose", "rest");
        expect(r.code).toBe(0);
        expect(JSON.parse(readFileSync(json, "utf8")).pairs[0].settings.tPose).toBe("rest");
        const bad = cli("report", walk, "--onto", walk, "-o", join(dir, "bad.html"), "--t-pose", "sideways");
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toMatch(/--t-pose <mode>' argument 'sideways' is invalid/);
    });

    it("--mirror writes the clip's mirror image (MirrorMuscleClip of the plain conversion); --joint-limits takes all, hinges or none", () => {
        const walk = join(dir, "walk2.bvh");
        writeFileSync(walk, SampleWalkBvh());
        const plain = join(dir, "plain.muscle.json");
        const mirrored = join(dir, "mirrored.muscle.json");
        expect(cli("convert", walk, "-o", plain).code).toBe(0);
        expect(cli("convert", walk, "-o", mirrored, "--mirror").code).toBe(0);
        const a = MirrorMuscleClip(ParseMuscleClipJson(readFileSync(plain, "utf8"), plain));
        const b = ParseMuscleClipJson(readFileSync(mirrored, "utf8"), mirrored);
        expect(b.source).toMatch(/\(mirrored\)$/);
        b.curves.forEach((c, i) => expect(Array.from(c.values)).toEqual(Array.from(a.curves[i].values)));
        expect(Array.from(b.contacts)).toEqual(Array.from(a.contacts));
        const bad = cli("retarget", walk, "--onto", walk, "-o", join(dir, "x.glb"), "--joint-limits", "some");
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toMatch(/--joint-limits.*some.*(all|hinges|none)/s);
    });
});

describe("writing converted clips", () => {
    it("refuses two inputs that would write the same file, before converting anything", () => {
        for (const d of ["a", "b"]) {
            mkdirSync(join(dir, d), { recursive: true });
            writeFileSync(join(dir, d, "same.bvh"), SampleWalkBvh());
        }
        const out = join(dir, "same-out");
        const r = cli("convert", join(dir, "a", "same.bvh"), join(dir, "b", "same.bvh"), "-o", out);
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(
            `babylon-humanoid: ${join(dir, "a", "same.bvh")} and ${join(dir, "b", "same.bvh")} would both write ${join(out, "same")}.muscle.json: convert them into different directories\n`,
        );
        expect(readdirSync(out)).toEqual([]);
    });

    it("writes all files or none: a failure puts the old files back and leaves no temporary file", async () => {
        const d = join(dir, "atomic");
        mkdirSync(join(d, "b.muscle.json"), { recursive: true }); // a directory where a file should go
        writeFileSync(join(d, "a.muscle.json"), "old");
        const e = await WriteFilesAtomicallyAsync([
            { path: join(d, "a.muscle.json"), bytes: new TextEncoder().encode("new") },
            { path: join(d, "b.muscle.json"), bytes: new TextEncoder().encode("new") },
        ]).then(
            () => null,
            (x: HumanoidError) => x,
        );
        expect(e?.code).toBe("FILE_WRITE");
        expect(e?.message).toBe(`${join(d, "b.muscle.json")}: cannot write the file (a directory has that name)`);
        expect(readFileSync(join(d, "a.muscle.json"), "utf8")).toBe("old");
        expect(readdirSync(d).sort()).toEqual(["a.muscle.json", "b.muscle.json"]);
        await WriteFilesAtomicallyAsync([{ path: join(d, "a.muscle.json"), bytes: new TextEncoder().encode("new") }]);
        expect(readFileSync(join(d, "a.muscle.json"), "utf8")).toBe("new");
        expect(readdirSync(d).sort()).toEqual(["a.muscle.json", "b.muscle.json"]);
    });

    it("gives clips whose names make the same file name distinct files", () => {
        expect(MuscleClipOutputPaths("in/x.glb", ["walk cycle", "walk/cycle", "run"], "bin", "out")).toEqual([
            join("out", "x.walk_cycle.muscle.bin"),
            join("out", "x.walk_cycle-2.muscle.bin"),
            join("out", "x.run.muscle.bin"),
        ]);
    });
});

describeWithData("babylon-humanoid convert on real files", () => {
    it("converts every clip of a glTF file, and clips kept in their own file against a model (--avatar)", () => {
        const out = join(dir, "kaykit");
        const r = cli(
            "convert",
            dataFile("glb/kaykit_anims/Med_MovementBasic.glb"),
            "--avatar",
            dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"),
            "-o",
            out,
            "--clip",
            "Rig_Medium|Walking_A",
        );
        expect(r.code).toBe(0);
        expect(readdirSync(out)).toEqual(["Med_MovementBasic.muscle.json"]);
        expect(r.stdout).toContain(
            "Med_MovementBasic.glb (Rig_Medium|Walking_A): the clip animates nodes the avatar does not have, ignored: handslot.l, handslot.r",
        );
        const all = cli("convert", dataFile("glb/mixamo_xbot.glb"), "-o", join(dir, "xbot"), "--format", "bin");
        expect(all.code).toBe(0);
        expect(readdirSync(join(dir, "xbot")).sort()).toEqual([
            "mixamo_xbot.Armature_Armature_agree_Armature.muscle.bin",
            "mixamo_xbot.Armature_Armature_run_Armature.muscle.bin",
            "mixamo_xbot.Armature_Armature_walk_Armature.muscle.bin",
        ]);
    });

    it("levels a take's tilted floor with a warning, and keeps it with --keep-floor-tilt", () => {
        const walk = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const [leveled, kept] = [join(dir, "leveled.muscle.json"), join(dir, "kept.muscle.json")];
        const r = cli("convert", walk, "-o", leveled);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/the floor under the take tilts 0\.9\d degrees/);
        expect(cli("convert", walk, "-o", kept, "--keep-floor-tilt").code).toBe(0);
        const [a, b] = [leveled, kept].map((f) => ParseMuscleClipJson(readFileSync(f, "utf8"), f));
        expect(a.warnings.some((w) => w.includes("floor under the take"))).toBe(true);
        expect(b.warnings.some((w) => w.includes("floor under the take"))).toBe(false);
        // The leveled take's floor is found again (its feet's lowest tenth stands elsewhere).
        expect(a.groundHeight).not.toBe(b.groundHeight);
    });
});

describe("bulk conversion: --shard and --manifest", () => {
    /** A library of relative paths, as a batch runner would glob them. */
    const library = Array.from({ length: 240 }, (_, i) => `mocap/${["walks", "runs", "misc/old"][i % 3]}/take_${i}.bvh`);

    it("splits the inputs into shards that are disjoint and cover every input, whatever the order or the mount point", () => {
        for (const count of [1, 2, 3, 5, 8]) {
            const seen = new Map<string, number>();
            const sizes: number[] = [];
            for (let index = 0; index < count; index++) {
                const shard = SelectShardInputs(library, { index, count });
                sizes.push(shard.length);
                for (const input of shard) seen.set(input, (seen.get(input) ?? 0) + 1);
                // The same files under another root, given in another order, fall in the same shard.
                const moved = SelectShardInputs(library.map((p) => `/mnt/elsewhere/${p}`).reverse(), { index, count });
                expect(moved.map((p) => p.slice("/mnt/elsewhere/".length)).sort()).toEqual([...shard].sort());
            }
            expect(seen.size).toBe(library.length);
            expect([...seen.values()].every((n) => n === 1)).toBe(true);
            // Balanced by the hash: no shard of 240 inputs is empty or more than twice its share.
            expect(Math.min(...sizes)).toBeGreaterThan(0);
            expect(Math.max(...sizes)).toBeLessThan((2 * library.length) / count + 1);
        }
    });

    it("reads --shard i/n and refuses anything else in one message naming the option", () => {
        expect(ParseShard("0/1")).toEqual({ index: 0, count: 1 });
        expect(ParseShard(" 3/4")).toEqual({ index: 3, count: 4 });
        for (const bad of ["2/2", "-1/2", "1", "a/b", "0/0", "1.5/3", "1/2/3", ""]) {
            expect(() => ParseShard(bad)).toThrow(`--shard '${bad}': give <index>/<count> with a count of at least 1 and an index from 0 to count - 1`);
        }
        const r = cli("convert", "x.bvh", "--shard", "4/4");
        expect(r.code).not.toBe(0);
        expect(r.stderr.trim()).toBe(
            "error: option '--shard <i/n>' argument '4/4' is invalid. give <index>/<count> with a count of at least 1 and an index from 0 to count - 1 (it counts from 0, as a Kubernetes JOB_COMPLETION_INDEX), for example 0/4",
        );
    });

    it("runs the same command on every shard: each input converted once, every one in a manifest with its result", () => {
        const lib = join(dir, "library");
        const inputs: string[] = [];
        for (const [i, sub] of ["walks", "walks", "runs", "runs", "misc", "misc", "misc"].entries()) {
            mkdirSync(join(lib, sub), { recursive: true });
            const file = join(lib, sub, `take_${i}.bvh`);
            writeFileSync(file, i === 3 ? SampleWalkBvh().replace(/MOTION\nFrames: 67/, "MOTION\nFrames: 68") : SampleWalkBvh());
            inputs.push(file);
        }
        const out = join(dir, "library-clips");
        const entries: IConvertManifestEntry[] = [];
        for (let index = 0; index < 3; index++) {
            const manifest = join(dir, "manifests", `shard-${index}.json`);
            const r = cli("convert", ...inputs, "-o", out, "--format", "bin", "--jobs", "1", "--shard", `${index}/3`, "--manifest", manifest);
            const mine = JSON.parse(readFileSync(manifest, "utf8")) as IConvertManifestEntry[];
            // One line per input of the shard, between the brackets.
            expect(readFileSync(manifest, "utf8").trim().split("\n")).toHaveLength(mine.length + 2);
            expect(mine.map((e) => e.input)).toEqual(SelectShardInputs(inputs, { index, count: 3 }));
            expect(r.stdout).toContain(`Shard ${index}/3: ${mine.length} of the 7 inputs.`);
            expect(r.code).toBe(mine.some((e) => e.error) ? 1 : 0);
            entries.push(...mine);
        }
        expect(entries.map((e) => e.input).sort()).toEqual([...inputs].sort());
        for (const e of entries) {
            if (e.input === inputs[3]) {
                expect(e.outputs).toEqual([]);
                expect(e.error).toMatch(new RegExp(`^${inputs[3]}:\\d+: unexpected end of file, expected frame 68 of 68`));
                continue;
            }
            expect(e.error).toBeNull();
            expect(e.outputs).toHaveLength(1);
            const [o] = e.outputs;
            expect(o.file).toBe(join(out, `${basename(e.input, ".bvh")}.muscle.bin`));
            expect([o.clip, o.frames, o.warnings]).toEqual([basename(e.input, ".bvh"), 67, []]);
            const clip = ParseMuscleClip(readFileSync(o.file), o.file);
            expect([clip.frameCount, clip.frameRate, clip.keyCount, readFileSync(o.file).length]).toEqual([67, o.rate, o.keys, o.bytes]);
            expect(o.rate).toBeCloseTo(30, 2);
        }
        expect(readdirSync(out).sort()).toEqual(
            inputs
                .filter((_, i) => i !== 3)
                .map((p) => `${basename(p, ".bvh")}.muscle.bin`)
                .sort(),
        );
        expect(readdirSync(join(dir, "manifests")).sort()).toEqual(["shard-0.json", "shard-1.json", "shard-2.json"]);
    });

    it("refuses a manifest path that is a directory before converting anything", () => {
        const walk = join(dir, "walk-m.bvh");
        writeFileSync(walk, SampleWalkBvh());
        const out = join(dir, "manifest-dir-out");
        const r = cli("convert", walk, "-o", out, "--manifest", dir);
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(`babylon-humanoid: --manifest ${dir}: a directory has that name (name the JSON file to write)\n`);
        expect(readdirSync(out)).toEqual([]);
    });
});
