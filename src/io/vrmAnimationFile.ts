import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import { MAX_NAME_LENGTH } from "../limits.js";
import { VrmHumanBoneName } from "./vrm.js";
import { VrmAnimationFromMuscleClip, type IVrmAnimationData, type IVrmAnimationOptions } from "./vrmAnimationRig.js";

/** The `VRMC_vrm_animation` version written. */
export const VRM_ANIMATION_SPEC_VERSION = "1.0";

/** glTF constants used below. */
const FLOAT = 5126;
const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"
const CHUNK_BIN = 0x004e4942; // "BIN\0"

/** One accessor's data, appended to the binary chunk. */
interface IPart {
    readonly data: Float32Array;
    readonly type: "SCALAR" | "VEC3" | "VEC4";
    readonly min?: number[];
    readonly max?: number[];
}

/**
 * Writes a VRM Animation file (`.vrma`: binary glTF 2.0 with the `VRMC_vrm_animation` extension)
 * from the keys of {@link VrmAnimationFromMuscleClip}: one node per human bone, named by its VRM
 * 1.0 name, in the T-pose (rest rotations the identity, translations from the parent), the
 * extension's `humanoid.humanBones` pointing at them, and one animation with a linear rotation
 * channel per bone and a linear translation channel on the hips. No look-at, no expressions.
 * Readers such as three-vrm's `VRMAnimationLoaderPlugin` play it on any VRM. Throws a
 * {@link HumanoidError} `CONVERT` when the data is inconsistent (lengths, non-finite values),
 * naming the animation and the bone.
 * @param data the keys, in glTF's axes
 */
export function SerializeVrmAnimationToGlb(data: IVrmAnimationData): Uint8Array {
    const frames = data.times.length;
    const n = data.bones.length;
    const fail = (what: string): never => {
        throw new HumanoidError("CONVERT", `VRM Animation '${data.name.slice(0, 80)}': ${what}`);
    };
    if (frames < 1) fail("no keys");
    if (n < 1 || data.bones[0] !== 0 || data.parents[0] !== -1) fail("the first node must be the hips, with no parent");
    if (data.parents.length !== n || data.rotations.length !== n || data.restTranslations.length !== 3 * n)
        fail("one parent, rest translation and rotation track per bone");
    if (data.hipsTranslations.length !== 3 * frames) fail(`the hips translation track has ${data.hipsTranslations.length / 3} keys, not ${frames}`);
    for (let f = 1; f < frames; f++) if (!(data.times[f] > data.times[f - 1])) fail(`key time ${f} (${data.times[f]} s) does not follow the one before`);
    data.rotations.forEach((r, i) => {
        if (r.length !== 4 * frames) fail(`bone '${VrmHumanBoneName(data.bones[i])}' has ${r.length / 4} rotation keys, not ${frames}`);
        if (!r.every(Number.isFinite)) fail(`bone '${VrmHumanBoneName(data.bones[i])}' has a rotation key that is not a finite number`);
    });
    if (!data.hipsTranslations.every(Number.isFinite) || !data.restTranslations.every(Number.isFinite) || !data.times.every(Number.isFinite)) {
        fail("a translation or key time is not a finite number");
    }

    const parts: IPart[] = [];
    const add = (part: IPart): number => parts.push(part) - 1;
    const timeAccessor = add({ data: data.times, type: "SCALAR", min: [data.times[0]], max: [data.times[frames - 1]] });
    const children: number[][] = data.bones.map(() => []);
    data.parents.forEach((p, i) => {
        if (i > 0) {
            if (!(p >= 0 && p < i)) fail(`bone '${VrmHumanBoneName(data.bones[i])}' has no parent before it`);
            children[p].push(i);
        }
    });
    const nodes = data.bones.map((b, i) => ({
        name: VrmHumanBoneName(b),
        translation: Array.from(data.restTranslations.subarray(3 * i, 3 * i + 3)),
        ...(children[i].length ? { children: children[i] } : {}),
    }));
    const samplers: Array<{ input: number; output: number; interpolation: "LINEAR" }> = [];
    const channels: Array<{ sampler: number; target: { node: number; path: "rotation" | "translation" } }> = [];
    const channel = (node: number, path: "rotation" | "translation", output: number): void => {
        channels.push({ sampler: samplers.push({ input: timeAccessor, output, interpolation: "LINEAR" }) - 1, target: { node, path } });
    };
    channel(0, "translation", add({ data: data.hipsTranslations, type: "VEC3" }));
    data.rotations.forEach((r, i) => channel(i, "rotation", add({ data: r, type: "VEC4" })));

    // Every accessor in one buffer view of its own, packed end to end (float32: 4-byte aligned).
    let byteLength = 0;
    const bufferViews = parts.map((p) => {
        const view = { buffer: 0, byteOffset: byteLength, byteLength: p.data.byteLength };
        byteLength += p.data.byteLength;
        return view;
    });
    const components = { SCALAR: 1, VEC3: 3, VEC4: 4 } as const;
    const accessors = parts.map((p, i) => ({
        bufferView: i,
        componentType: FLOAT,
        count: p.data.length / components[p.type],
        type: p.type,
        ...(p.min ? { min: p.min, max: p.max } : {}),
    }));
    const humanBones: Record<string, { node: number }> = {};
    data.bones.forEach((b, i) => (humanBones[VrmHumanBoneName(b)] = { node: i }));
    const gltf = {
        asset: { version: "2.0", generator: "babylon-humanoid" },
        extensionsUsed: ["VRMC_vrm_animation"],
        extensions: { VRMC_vrm_animation: { specVersion: VRM_ANIMATION_SPEC_VERSION, humanoid: { humanBones } } },
        scene: 0,
        scenes: [{ nodes: [0] }],
        nodes,
        animations: [{ name: data.name.slice(0, MAX_NAME_LENGTH), samplers, channels }],
        accessors,
        bufferViews,
        buffers: [{ byteLength }],
    };

    const json = new TextEncoder().encode(JSON.stringify(gltf));
    const jsonLength = (json.length + 3) & ~3;
    const binLength = (byteLength + 3) & ~3;
    const total = 12 + 8 + jsonLength + 8 + binLength;
    const out = new Uint8Array(total);
    const view = new DataView(out.buffer);
    view.setUint32(0, GLB_MAGIC, true);
    view.setUint32(4, 2, true);
    view.setUint32(8, total, true);
    view.setUint32(12, jsonLength, true);
    view.setUint32(16, CHUNK_JSON, true);
    out.set(json, 20);
    out.fill(0x20, 20 + json.length, 20 + jsonLength); // the JSON chunk is padded with spaces
    let at = 20 + jsonLength;
    view.setUint32(at, binLength, true);
    view.setUint32(at + 4, CHUNK_BIN, true);
    at += 8;
    // glTF's binary data is little-endian whatever the machine's order.
    for (const p of parts) {
        for (let i = 0; i < p.data.length; i++, at += 4) view.setFloat32(at, p.data[i], true);
    }
    return out;
}

/**
 * A muscle clip as a VRM Animation file: {@link VrmAnimationFromMuscleClip} then
 * {@link SerializeVrmAnimationToGlb}. The bytes of a `.vrma` file.
 * @param clip the clip
 * @param options key rate (default: the clip's)
 */
export function SerializeMuscleClipToVrmAnimation(clip: MuscleClip, options: IVrmAnimationOptions = {}): Uint8Array {
    return SerializeVrmAnimationToGlb(VrmAnimationFromMuscleClip(clip, options));
}
