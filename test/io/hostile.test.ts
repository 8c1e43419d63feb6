/**
 * Regression tests of issue 14: each input that crashed, hung, let NaN or Infinity through, or
 * made a file this library could not read back, now refused at the edge with one HumanoidError
 * naming the file, the line or field and the value (or written and read back whole).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
    BuildHumanoidAvatar,
    ConvertBvhToMuscleClip,
    CreateRigFromBvh,
    MuscleClip,
    ParseBvh,
    ParseHumanBoneMap,
    ReduceCurve,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    ReadGltfJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
} from "../../src/index.js";
import { MAX_ABS_CLIP_VALUE, MAX_JOINTS, MAX_NAME_LENGTH, MAX_STRING_BYTES } from "../../src/limits.js";
import { ConvertFileToMuscleClipsAsync, LoadRigFromFileAsync } from "../../src/node/index.js";
import { BuildSampleRig, SampleCharacters } from "../../src/samples/sampleCharacters.js";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { MakeGlb, SampleGlb, SplitGlb } from "../fuzz/corpus.js";
import { TINY_BVH } from "../helpers/bvhText.js";
import { errorOf, errorOfAsync } from "../helpers/errors.js";

let dir: string;
beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bh-hostile-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built-in walk as BVH, 1 s (a humanoid to convert). */
const WALK = SampleWalkBvh(SampleCharacters[0], { durationSeconds: 1 });

/** The walk with `n` sibling joints (no channels) under its root. */
function wideBvh(n: number): string {
    const at = WALK.indexOf("\n", WALK.search(/CHANNELS/)) + 1;
    const extra: string[] = [];
    for (let i = 0; i < n; i++) extra.push(`JOINT extra${i}\n{\nOFFSET 0 1 0\nCHANNELS 0\n}\n`);
    return WALK.slice(0, at) + extra.join("") + WALK.slice(at);
}

describe("BVH: counts and values beyond what a file holds or a rig has", () => {
    it("refuses a frame count its bytes cannot hold before allocating (Frames: 10000000 with 336 channels crashed)", () => {
        const wide = TINY_BVH.replace("Frames: 2", "Frames: 1000000").replace("Frame Time: 0.0333333", "Frame Time: 0.001");
        const e = errorOf(() => ParseBvh(wide, "lying.bvh"));
        expect(e.code).toBe("BVH_PARSE");
        expect(e.message).toMatch(/^lying\.bvh:17: the file declares 1000000 frames of 9 channels, but only \d+ characters follow/);
        expect(() => ParseBvh(TINY_BVH.replace("Frames: 2", "Frames: 10000000"), "huge.bvh")).toThrow(
            /huge\.bvh:17: frame count must be an integer from 0 to 1000000/,
        );
    });

    it("refuses rotations that overflow (5.7e307 degrees made NaN rotations) and positions that overflow float32 (1e154)", () => {
        expect(() => ParseBvh(TINY_BVH.replace("1 2 3 10 20 30", "1 2 3 5.7e307 20 30"), "spin.bvh")).toThrow(
            /^spin\.bvh:19: frame 1, value 4 is 5\.7e307, beyond the limit of 1000000 in magnitude$/,
        );
        expect(() => ParseBvh(TINY_BVH.replace("1 2 3 10 20 30", "1e154 2 3 10 20 30"), "far.bvh")).toThrow(
            /^far\.bvh:19: frame 1, value 1 is 1e154, beyond the limit/,
        );
        expect(() => ParseBvh(TINY_BVH.replace("OFFSET 0 10 0", "OFFSET 0 1e300 0"), "off.bvh")).toThrow(/^off\.bvh:8: OFFSET y is 1e300, beyond the limit/);
        expect(() => ParseBvh(TINY_BVH.replace("Frame Time: 0.0333333", "Frame Time: 1e-300"), "fast.bvh")).toThrow(/^fast\.bvh:18: frame time must be from/);
    });

    it("refuses a 1 MiB joint name with a short message (its warning was longer than the clip file's cap)", () => {
        const name = "J".repeat(1 << 20);
        const e = errorOf(() => ParseBvh(TINY_BVH.replace("JOINT Spine", `JOINT ${name}`), "long.bvh"));
        expect(e.message).toMatch(
            new RegExp(`^long\\.bvh:6: joint name 'J+\\.\\.\\. \\(${1 << 20} characters\\)' is longer than ${MAX_NAME_LENGTH} characters$`),
        );
        expect(e.message.length).toBeLessThan(300);
    });

    it(`refuses a 20,000-joint BVH at once, naming the limit of ${MAX_JOINTS} joints`, () => {
        const text = wideBvh(20_000);
        const t0 = performance.now();
        const e = errorOf(() => ParseBvh(text, "wide.bvh"));
        expect(performance.now() - t0).toBeLessThan(1000);
        expect(e.message).toBe(
            `wide.bvh:1: the hierarchy declares ${20_000 + (WALK.match(/^\s*(ROOT|JOINT|End Site)/gm) ?? []).length} joints (End Sites included), more than the 10000 this library reads`,
        );
    });

    it("converts a wide BVH (2,000 extra joints) in linear time", () => {
        const t0 = performance.now();
        const rig = CreateRigFromBvh(ParseBvh(wideBvh(2000), "wide.bvh"));
        const clip = ConvertBvhToMuscleClip(rig, BuildHumanoidAvatar(rig.rig));
        expect(clip.frameCount).toBe(31);
        expect(performance.now() - t0).toBeLessThan(5000);
    });

    it("never writes a clip its reader refuses: samples beyond the clip value limit are a CONVERT error", () => {
        // A skeleton a ten-millionth of the usual size whose root travels 9e5 units in one frame: the body position is ~1e13 avatar scales.
        let text = WALK.replace(
            /OFFSET (\S+) (\S+) (\S+)/g,
            (_, x: string, y: string, z: string) => `OFFSET ${Number(x) * 1e-7} ${Number(y) * 1e-7} ${Number(z) * 1e-7}`,
        );
        const motion = text.indexOf("Frame Time:");
        const firstFrame = text.indexOf("\n", motion) + 1;
        const lines = text.slice(firstFrame).split("\n");
        lines.forEach((l, i) => {
            if (!l.trim()) return;
            const v = l.split(" ");
            for (let k = 0; k < 3; k++) v[k] = String(Number(v[k]) * 1e-7);
            if (i === 3) v[0] = "900000";
            lines[i] = v.join(" ");
        });
        text = text.slice(0, firstFrame) + lines.join("\n");
        const rig = CreateRigFromBvh(ParseBvh(text, "tiny.bvh"), { units: "cm" });
        const e = errorOf(() => ConvertBvhToMuscleClip(rig, BuildHumanoidAvatar(rig.rig)));
        expect(e.code).toBe("CONVERT");
        expect(e.message).toMatch(new RegExp(`^tiny\\.bvh.*: curve '[^']+' is \\S+ at frame 3, beyond the limit of ${MAX_ABS_CLIP_VALUE} in magnitude`));
    });
});

/** A minimal glTF document with a chain of nodes. */
function gltf(extra: Record<string, unknown> = {}, nodes: unknown[] = [{ name: "a", children: [1] }, { name: "b", children: [2] }, { name: "c" }]): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ asset: { version: "2.0" }, scenes: [{ nodes: [0] }], nodes, ...extra }));
}

describe("glTF: the JSON checked before Babylon walks it", () => {
    it('refuses "skins": false (our joint filter crashed on it)', () => {
        expect(() => ReadGltfJson(gltf({ skins: false }), "s.glb")).toThrow(/^s\.glb: 'skins' must be an array, found false$/);
    });

    it("refuses children cycles (Babylon spun forever on KayKit's wrist.l given the root as a child), two parents, depth and node count", () => {
        const cycle = [
            { name: "root", children: [1] },
            { name: "arm", children: [2] },
            { name: "wrist.l", children: [0] },
        ];
        expect(() => ReadGltfJson(gltf({ scenes: [] }, cycle), "c.gltf")).toThrow(
            /^c\.gltf: nodes\[\d\] is its own ancestor \(the children lists make a cycle\)$/,
        );
        const twoParents = [{ children: [2] }, { children: [2] }, {}];
        expect(() => ReadGltfJson(gltf({ scenes: [] }, twoParents), "p.gltf")).toThrow(
            /^p\.gltf: nodes\[1\]\.children\[0\] is node 2, already a child of node 0/,
        );
        const deep = Array.from({ length: 1001 }, (_, i) => (i < 1000 ? { children: [i + 1] } : {}));
        expect(() => ReadGltfJson(gltf({}, deep), "d.gltf")).toThrow(/^d\.gltf: nodes\[\d+\] is nested more than 1000 levels deep$/);
        const wide = [{ children: Array.from({ length: 10_000 }, (_, i) => i + 1) }, ...Array.from({ length: 10_000 }, () => ({}))];
        expect(() => ReadGltfJson(gltf({}, wide), "w.gltf")).toThrow(/^w\.gltf: 'nodes' has 10001 nodes, more than the 10000 this library reads$/);
        expect(() => ReadGltfJson(gltf({}, [{ children: [7] }]), "r.gltf")).toThrow(
            /^r\.gltf: nodes\[0\]\.children\[0\] must be the index of one of the 1 nodes, found 7$/,
        );
    });

    it("refuses accessor counts and byte lengths the file does not hold, before the loader allocates them", () => {
        const rig = BuildSampleRig(SampleCharacters[0]);
        const { json, bin } = SplitGlb(SampleGlb(rig, BuildHumanoidAvatar(rig)));
        const big = structuredClone(json) as { buffers: Array<{ byteLength: number }>; accessors: Array<{ count: number }> };
        big.buffers[0].byteLength = 2 ** 40;
        expect(() => ReadGltfJson(MakeGlb(big, bin), "b.glb")).toThrow(
            /^b\.glb: buffers\[0\]\.byteLength is 1099511627776, but the GLB's BIN chunk holds \d+ bytes$/,
        );
        const count = structuredClone(json) as { accessors: Array<{ count: number }> };
        count.accessors[1].count = 1e308;
        expect(() => ReadGltfJson(MakeGlb(count, bin), "a.glb")).toThrow(
            /^a\.glb: accessors\[1\] holds 1e\+308 elements of 16 bytes, more than its buffer view's \d+ bytes hold/,
        );
        count.accessors[1].count = -1;
        expect(() => ReadGltfJson(MakeGlb(count, bin), "a.glb")).toThrow(/^a\.glb: accessors\[1\]\.count must be a whole number of at least 1, found -1$/);
        count.accessors[1].count = 2 ** 31;
        expect(() => ReadGltfJson(MakeGlb(count, bin), "a.glb")).toThrow(
            /^a\.glb: accessors\[1\] holds 2147483648 elements of 16 bytes, more than its buffer view's/,
        );
    });

    it("a GLB whose buffer is larger than its BIN chunk and whose nodes cycle: one error, no unhandled rejection (that ended the process)", async () => {
        const rig = BuildSampleRig(SampleCharacters[0]);
        const { json, bin } = SplitGlb(SampleGlb(rig, BuildHumanoidAvatar(rig)));
        const bad = structuredClone(json) as { buffers: Array<{ byteLength: number }>; nodes: Array<{ children?: number[] }> };
        bad.buffers[0].byteLength = 2 ** 40;
        bad.nodes[5].children = [...(bad.nodes[5].children ?? []), 0];
        const file = join(dir, "cycle-big.glb");
        writeFileSync(file, MakeGlb(bad, bin));
        const e = await errorOfAsync(LoadRigFromFileAsync(file));
        expect(e.code).toBe("GLTF_PARSE");
        expect(e.message.startsWith(`${file}: `)).toBe(true);
        await new Promise((r) => setTimeout(r, 200)); // an unhandled rejection would end the test run here
    });

    describe("animation keys", () => {
        const rig = BuildSampleRig(SampleCharacters[0]);
        const glb = SampleGlb(rig, BuildHumanoidAvatar(rig));
        /** The sample GLB with float32 number `k` of the BIN chunk (times first, then each joint's rotations) set. */
        function withFloat(name: string, k: number, v: number): string {
            const { json, bin } = SplitGlb(glb);
            const b = bin!.slice();
            new DataView(b.buffer).setFloat32(k * 4, v, true);
            const file = join(dir, name);
            writeFileSync(file, MakeGlb(json, b));
            return file;
        }

        it("the sample GLB converts (the cases below fail for their one value only)", async () => {
            const clips = await ConvertFileToMuscleClipsAsync(withFloat("fine.glb", 0, 0));
            expect(clips).toHaveLength(1);
        });

        it("refuses Infinity in a rotation accessor (it went into 38 curves without a word)", async () => {
            const e = await errorOfAsync(ConvertFileToMuscleClipsAsync(withFloat("inf.glb", 31 + 5, Infinity)));
            expect(e.code).toBe("CONVERT");
            expect(e.message).toMatch(
                /inf\.glb \(walk\): key 1 of the rotationQuaternion animation of '[^']*' has the value Infinity, not a finite number within 1000000 in magnitude$/,
            );
        });

        it("refuses one corrupt key time far from the others (RiggedFigure's planned 9.8 million frames)", async () => {
            const e = await errorOfAsync(ConvertFileToMuscleClipsAsync(withFloat("late.glb", 30, 655360)));
            expect(e.code).toBe("CONVERT");
            expect(e.message).toMatch(/late\.glb \(walk\): .*(keys 29 and 30 .* are \d+(\.\d+)? s apart, more than 60 s|beyond the 14400 s a clip may last)/);
        });
    });
});

describe("muscle clips: one validation for readers and writers", () => {
    const clip = ConvertBvhToMuscleClip(CreateRigFromBvh(ParseBvh(WALK, "walk.bvh")));
    const json = SerializeMuscleClipToJson(clip);

    it("refuses frameRate 5e-324 (duration Infinity) in both formats", () => {
        const e = errorOf(() => ParseMuscleClipJson(json.replace(/"frameRate": [^,]+/, '"frameRate": 5e-324'), "r.muscle.json"));
        expect(e.message).toMatch(/^r\.muscle\.json: frameRate must be in \[0\.000277\d*, 10000\] frames per second .*found 5e-324$/);
        const bin = SerializeMuscleClipToBinary(clip);
        new DataView(bin.buffer).setFloat64(8, 5e-324, true);
        expect(() => ParseMuscleClipBinary(bin, "r.muscle.bin")).toThrow(/^r\.muscle\.bin: frameRate must be in/);
    });

    it("refuses keys near float32's largest (their spline overshoot became -Infinity)", () => {
        const big = json.replace(/("Left Arm Down-Up": \{"frames": \[[^\]]*\], "values": \[)([^,\]]+)/, "$13.3e38");
        expect(big).not.toBe(json);
        expect(() => ParseMuscleClipJson(big, "big.muscle.json")).toThrow(
            /^big\.muscle\.json: curve 'Left Arm Down-Up': value 0 is 3\.\d+e\+38, beyond the limit of 1000000000 in magnitude$/,
        );
    });

    it("the JSON reader refuses a name over 1 MiB, as the binary one does, and nothing writes one", () => {
        const name = "n".repeat(MAX_STRING_BYTES + 1);
        expect(() => ParseMuscleClipJson(json.replace(/"name": "[^"]*"/, `"name": "${name}"`), "n.muscle.json")).toThrow(
            /^n\.muscle\.json: name is longer than 1048576 bytes$/,
        );
        const long = new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], name });
        for (const write of [SerializeMuscleClipToJson, SerializeMuscleClipToBinary]) {
            const e = errorOf(() => write(long));
            expect(e.code).toBe("FILE_WRITE");
            expect(e.message).toMatch(/cannot be written: name must be a string of at most 1048576 bytes$/);
            expect(e.message.length).toBeLessThan(300);
        }
    });

    it("refuses a step that is finite as a double but not as a float32 (1e308 read as Infinity, written as invalid JSON)", () => {
        expect(json).toMatch(/"step": /);
        for (const v of ["1e308", "1e-320"]) {
            expect(() => ParseMuscleClipJson(json.replace(/"step": [^}]+/, `"step": ${v}`), "s.muscle.json")).toThrow(
                /^s\.muscle\.json: curve '[^']+': step must be a positive number up to 1000000000 \(as a float32\), found (Infinity|0)$/,
            );
        }
    });

    it("a clip within the limits round-trips through both formats", () => {
        expect(ParseMuscleClipJson(json, "ok.muscle.json").frameCount).toBe(clip.frameCount);
        expect(ParseMuscleClipBinary(SerializeMuscleClipToBinary(clip), "ok.muscle.bin").frameCount).toBe(clip.frameCount);
    });
});

describe("bone maps and options", () => {
    it("a bone map of wrong types, unknown bones and long names gets one short error listing the first problems", () => {
        const map: Record<string, unknown> = { leftUpperArm: 5, rightUpperArm: ["x"], head: "J".repeat(MAX_NAME_LENGTH + 1), __proto__x: 1 };
        for (let i = 0; i < 100_000; i++) map[`bone${i}`] = "x";
        const e = errorOf(() => ParseHumanBoneMap(JSON.stringify(map), "map.json"));
        expect(e.code).toBe("BAD_BONE_MAP");
        expect(e.message).toMatch(
            /^map\.json: 'leftUpperArm' must be a joint name or null, not 5; 'rightUpperArm' must be a joint name or null, not \["x"\]; 'head' names a joint of 1025 characters/,
        );
        expect(e.message).toMatch(/; and 99984 more problems$/);
        expect(e.message.length).toBeLessThan(2000);
        expect(() => ParseHumanBoneMap('{"__proto__": "Hips"}', "proto.json")).toThrow(/^proto\.json: unknown human bone '__proto__'$/);
    });

    it("CreateRigFromBvh refuses units that are not a finite positive number", () => {
        const bvh = ParseBvh(WALK, "walk.bvh");
        for (const units of [Infinity, -1, 0, NaN])
            expect(() => CreateRigFromBvh(bvh, { units })).toThrow(/^walk\.bvh: units must be a positive number of metres per file unit/);
    });
});

describe("keyframe reduction of values so large that float32 rounding takes the whole tolerance", () => {
    it("keys every frame at most once (a negative fan keyed frames twice: 82 keys for 81 frames, a clip its writer refused)", () => {
        const samples = Float32Array.from({ length: 81 }, (_, i) => 1e7 + ((i * 7919) % 13) - 6);
        const c = ReduceCurve(samples, 0.01, 0.01 / 16);
        expect(c.frames.length).toBeLessThanOrEqual(81);
        for (let k = 1; k < c.frames.length; k++) expect(c.frames[k]).toBeGreaterThan(c.frames[k - 1]);
        expect(c.frames[c.frames.length - 1]).toBe(80);
    });
});

describe("deep and wide rigs build an avatar in linear time", () => {
    it("a 900-deep chain below a hand (the arm and leg searches were O(n^4) in the chain's length: minutes)", () => {
        // Unnamed joints (mapped by structure alone); the chain of zero-length bones goes on from the tip of an arm (fuzz case 1:3995).
        const rig = BuildSampleRig(SampleCharacters[2]);
        const hand = 21;
        expect(rig.joints.some((j) => j.parent === hand)).toBe(false);
        const joints = [...rig.joints];
        for (let i = 0; i < 900; i++) {
            joints.push({
                ...rig.joints[hand],
                name: `chain${i}`,
                parent: i ? joints.length - 1 : hand,
                restPosition: Vector3.Zero(),
                sourceIndex: -1,
            });
        }
        const t0 = performance.now();
        const avatar = BuildHumanoidAvatar({ source: "deep", joints });
        expect(performance.now() - t0).toBeLessThan(2000);
        expect(avatar.rig.joints).toHaveLength(rig.joints.length + 900);
    });
});
