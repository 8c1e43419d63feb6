/**
 * The fuzzer's seed files: built-in samples (always; made here, in memory) and the public real files
 * of ../shared/data (when that folder is there). Every seed is the bytes of one whole file and the
 * extension its readers pick the format by.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { SerializeMuscleClipToJson } from "../../src/clip/clipFileJson.js";
import { SerializeMuscleClipToBinary } from "../../src/clip/clipFileBinary.js";
import { ConvertRigPosesToMuscleClip } from "../../src/clip/convert.js";
import type { MuscleClip } from "../../src/clip/muscleClip.js";
import { BuildHumanoidAvatar, type HumanoidAvatar } from "../../src/humanoid/avatar.js";
import { GetRigRestPose, type IRig } from "../../src/humanoid/rig.js";
import { BuildSampleRig, SampleCharacters } from "../../src/samples/sampleCharacters.js";
import { SampleWalkBvh, SampleWalkSource } from "../../src/samples/sampleMotion.js";

/** One seed file. */
export interface ISeed {
    /** A short name, shown in case ids and reports. */
    readonly name: string;
    /** File extension with the dot (`.bvh`, `.glb`, `.gltf`, `.vrm`, `.vrma`, `.json` for a muscle clip JSON, `.bin` for a binary one). */
    readonly ext: string;
    /** Whole file. */
    readonly bytes: Uint8Array;
    /** Whether the file holds motion to convert (BVH, glTF with animations). */
    readonly hasMotion: boolean;
}

/** The real test material, beside the project (see ../shared/data/README.md). */
export const SHARED_DATA = resolve(process.cwd(), "../shared/data");

/** A JSON key written as `"__proto__"` in the file (an object cannot hold that key as its own). */
export const PROTO_MARKER = "__fuzz_proto__";

/** Pads to a multiple of 4 with a byte. */
function pad4(bytes: Uint8Array, fill: number): Uint8Array {
    const out = new Uint8Array(Math.ceil(bytes.length / 4) * 4).fill(fill);
    out.set(bytes);
    return out;
}

/**
 * A GLB file: the JSON chunk and, when given, the BIN chunk (each padded as the format asks).
 * @param json the document
 * @param bin the binary buffer (buffers[0])
 */
export function MakeGlb(json: unknown, bin: Uint8Array | null): Uint8Array {
    const jsonBytes = pad4(new TextEncoder().encode(JSON.stringify(json).replace(`"${PROTO_MARKER}"`, '"__proto__"')), 0x20);
    const binBytes = bin ? pad4(bin, 0) : null;
    const length = 12 + 8 + jsonBytes.length + (binBytes ? 8 + binBytes.length : 0);
    const out = new Uint8Array(length);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, 0x46546c67, true);
    dv.setUint32(4, 2, true);
    dv.setUint32(8, length, true);
    dv.setUint32(12, jsonBytes.length, true);
    dv.setUint32(16, 0x4e4f534a, true);
    out.set(jsonBytes, 20);
    if (binBytes) {
        const at = 20 + jsonBytes.length;
        dv.setUint32(at, binBytes.length, true);
        dv.setUint32(at + 4, 0x004e4942, true);
        out.set(binBytes, at + 8);
    }
    return out;
}

/** The JSON and BIN chunks of a GLB (no checks: seeds are well formed). */
export function SplitGlb(bytes: Uint8Array): { json: Record<string, unknown>; bin: Uint8Array | null } {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const jsonLength = dv.getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as Record<string, unknown>;
    const at = 20 + jsonLength;
    const bin = at + 8 <= bytes.length ? bytes.subarray(at + 8, at + 8 + dv.getUint32(at, true)) : null;
    return { json, bin };
}

/**
 * A sample character as a GLB with a walk: one node per joint (rest TRS, right-handed as glTF
 * is: the rig's Z mirrored), no mesh, and a rotation track per joint plus the hips' translation,
 * keyed at 30 fps for one second.
 */
export function SampleGlb(rig: IRig, avatar: HumanoidAvatar): Uint8Array {
    const rate = 30;
    const frames = 31;
    const source = new SampleWalkSource(avatar, 1, rate);
    const pose = GetRigRestPose(rig);
    const n = rig.joints.length;
    const rot = Array.from({ length: n }, () => new Float32Array(frames * 4));
    const pos = new Float32Array(frames * 3);
    const root = rig.joints.findIndex((j) => j.parent < 0);
    for (let f = 0; f < frames; f++) {
        source.samplePoseToRef(f / rate, pose);
        for (let j = 0; j < n; j++) {
            const q: Quaternion = pose.rotations[j];
            rot[j].set([-q.x, -q.y, q.z, q.w], f * 4);
        }
        const p: Vector3 = pose.positions[root];
        pos.set([p.x, p.y, -p.z], f * 3);
    }
    const times = Float32Array.from({ length: frames }, (_, f) => f / rate);
    const parts: Uint8Array[] = [];
    let offset = 0;
    const views: object[] = [];
    const accessors: object[] = [];
    const add = (data: Float32Array, type: string, minMax?: [number, number]): number => {
        parts.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        views.push({ buffer: 0, byteOffset: offset, byteLength: data.byteLength });
        offset += data.byteLength;
        const count = data.length / ({ SCALAR: 1, VEC3: 3, VEC4: 4 } as Record<string, number>)[type];
        accessors.push({ bufferView: views.length - 1, componentType: 5126, count, type, ...(minMax ? { min: [minMax[0]], max: [minMax[1]] } : {}) });
        return accessors.length - 1;
    };
    const input = add(times, "SCALAR", [0, times[frames - 1]]);
    const samplers: object[] = [];
    const channels: object[] = [];
    for (let j = 0; j < n; j++) {
        samplers.push({ input, output: add(rot[j], "VEC4"), interpolation: "LINEAR" });
        channels.push({ sampler: samplers.length - 1, target: { node: j, path: "rotation" } });
    }
    samplers.push({ input, output: add(pos, "VEC3"), interpolation: "LINEAR" });
    channels.push({ sampler: samplers.length - 1, target: { node: root, path: "translation" } });
    const bin = new Uint8Array(offset);
    let at = 0;
    for (const p of parts) {
        bin.set(p, at);
        at += p.length;
    }
    const children = rig.joints.map(() => [] as number[]);
    rig.joints.forEach((j, i) => j.parent >= 0 && children[j.parent].push(i));
    const nodes = rig.joints.map((j, i) => ({
        name: j.name || undefined,
        translation: [j.restPosition.x, j.restPosition.y, -j.restPosition.z],
        rotation: [-j.restRotation.x, -j.restRotation.y, j.restRotation.z, j.restRotation.w],
        ...(children[i].length ? { children: children[i] } : {}),
    }));
    const json = {
        asset: { version: "2.0", generator: "babylon-humanoid fuzzer" },
        scene: 0,
        scenes: [{ nodes: rig.joints.flatMap((j, i) => (j.parent < 0 ? [i] : [])) }],
        nodes,
        animations: [{ name: "walk", samplers, channels }],
        buffers: [{ byteLength: bin.length }],
        bufferViews: views,
        accessors,
    };
    return MakeGlb(json, bin);
}

/** The built-in seeds: the sample walk as BVH (Y-up cm, Z-up inches), as GLB, and as muscle clips. */
export function BuiltInSeeds(): { seeds: ISeed[]; clip: MuscleClip; avatar: HumanoidAvatar } {
    const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
    const seeds: ISeed[] = [];
    SampleCharacters.forEach((spec, i) => {
        seeds.push({
            name: `${spec.name}.bvh`,
            ext: ".bvh",
            bytes: enc(SampleWalkBvh(spec, { durationSeconds: 1, upAxis: i % 2 ? "z" : "y", units: i % 2 ? "inches" : "cm" })),
            hasMotion: true,
        });
    });
    const rig = BuildSampleRig(SampleCharacters[0]);
    const avatar = BuildHumanoidAvatar(rig);
    seeds.push({ name: `${SampleCharacters[0].name}.glb`, ext: ".glb", bytes: SampleGlb(rig, avatar), hasMotion: true });
    const chibi = BuildSampleRig(SampleCharacters[2]);
    seeds.push({ name: `${SampleCharacters[2].name}.glb`, ext: ".glb", bytes: SampleGlb(chibi, BuildHumanoidAvatar(chibi)), hasMotion: true });
    const clip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 1, 30));
    seeds.push({ name: "sample-walk.muscle.json", ext: ".json", bytes: enc(SerializeMuscleClipToJson(clip)), hasMotion: false });
    seeds.push({ name: "sample-walk.muscle.bin", ext: ".bin", bytes: SerializeMuscleClipToBinary(clip), hasMotion: false });
    return { seeds, clip, avatar };
}

/**
 * The public real files of ../shared/data as seeds (none when the folder is absent). A .gltf's
 * external buffers are inlined as data URIs, so that a mutant is one self-contained file.
 * @param maxBytes files larger than this are left out (they make slow cases)
 */
export function RealSeeds(maxBytes = 4 << 20): ISeed[] {
    if (!existsSync(SHARED_DATA)) return [];
    const out: ISeed[] = [];
    const walk = (dir: string): void => {
        for (const f of readdirSync(dir).sort()) {
            const p = join(dir, f);
            if (statSync(p).isDirectory()) {
                walk(p);
                continue;
            }
            const ext = /\.(bvh|glb|gltf|vrm|vrma)$/i.exec(f)?.[0].toLowerCase();
            if (!ext || statSync(p).size > maxBytes) continue;
            let bytes = new Uint8Array(readFileSync(p));
            if (ext === ".gltf") {
                const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: Array<{ uri?: string }>; images?: unknown };
                for (const b of json.buffers ?? []) {
                    if (b.uri && !b.uri.startsWith("data:"))
                        b.uri = "data:application/octet-stream;base64," + readFileSync(join(dirname(p), b.uri)).toString("base64");
                }
                delete json.images;
                bytes = new TextEncoder().encode(JSON.stringify(json));
            }
            const text = ext === ".bvh" ? "" : new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 1 << 20)));
            const hasMotion = ext === ".bvh" || /"animations"\s*:\s*\[\s*\{/.test(text);
            out.push({ name: p.slice(SHARED_DATA.length + 1), ext, bytes, hasMotion });
        }
    };
    walk(SHARED_DATA);
    return out;
}
