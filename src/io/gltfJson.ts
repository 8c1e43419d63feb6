import { HumanoidError } from "../errors.js";

/** The parts of a glTF JSON document this library reads. */
export interface IGltfDocument {
    /** The file's `asset` block. */
    readonly asset?: {
        /** The glTF version the file claims (`"2.0"`). */
        readonly version?: string;
    };
    /** The scene nodes, indexed as glTF indexes them (the `#N` of an unnamed joint). */
    readonly nodes?: ReadonlyArray<{
        /** The node's name, if it has one. */
        readonly name?: string;
        /** Indices of its child nodes. */
        readonly children?: readonly number[];
        /** Index of its mesh, if it has one. */
        readonly mesh?: number;
        /** Index of the skin that deforms its mesh, if any. */
        readonly skin?: number;
    }>;
    /** The skins. */
    readonly skins?: ReadonlyArray<{
        /** Node indices of its joints, in the order of the vertex joint indices. */
        readonly joints: readonly number[];
        /** Node index of the skeleton's root, if the file names one. */
        readonly skeleton?: number;
        /** The skin's name, if it has one. */
        readonly name?: string;
    }>;
    /** The animations (clips). */
    readonly animations?: ReadonlyArray<{
        /** The clip's name, if it has one. */
        readonly name?: string;
        /** Its samplers: accessor indices of key times and values. */
        readonly samplers?: ReadonlyArray<{
            /** Accessor index of the key times (seconds). */
            readonly input?: number;
            /** Accessor index of the key values. */
            readonly output?: number;
        }>;
    }>;
    /** The accessors (typed views of the binary data). */
    readonly accessors?: ReadonlyArray<{
        /** Number of elements. */
        readonly count?: number;
        /** glTF component type code (5126 float, 5123 unsigned short...). */
        readonly componentType?: number;
        /** Element type: `"SCALAR"`, `"VEC3"`, `"VEC4"`... */
        readonly type?: string;
    }>;
    /** The document's extensions by name (`VRMC_vrm`, `VRMC_vrm_animation`, `VRM`...). */
    readonly extensions?: Readonly<Record<string, unknown>>;
    /** Names of the extensions the file uses. */
    readonly extensionsUsed?: readonly string[];
}

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"

/** `true` when the bytes start with the GLB magic number. */
export function IsGlb(bytes: Uint8Array): boolean {
    return bytes.byteLength >= 4 && new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true) === GLB_MAGIC;
}

/**
 * Reads the JSON document of a GLB (binary) or glTF (text) file, checking the GLB header and the
 * basic shape of the document. Throws a {@link HumanoidError} `GLTF_PARSE` naming the file.
 * @param bytes the file content
 * @param source file name for messages
 */
export function ReadGltfJson(bytes: Uint8Array, source: string): IGltfDocument {
    let text: string;
    if (IsGlb(bytes)) {
        const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        if (bytes.byteLength < 20) {
            throw new HumanoidError("GLTF_PARSE", `${source}: GLB file is truncated (${bytes.byteLength} bytes, the header needs 20)`);
        }
        const version = dv.getUint32(4, true);
        if (version !== 2) {
            throw new HumanoidError("GLTF_PARSE", `${source}: GLB version ${version} is not supported (only glTF 2.0)`);
        }
        const length = dv.getUint32(8, true);
        if (length > bytes.byteLength) {
            throw new HumanoidError("GLTF_PARSE", `${source}: GLB file is truncated (header says ${length} bytes, file has ${bytes.byteLength})`);
        }
        const chunkLength = dv.getUint32(12, true);
        const chunkType = dv.getUint32(16, true);
        if (chunkType !== CHUNK_JSON || 20 + chunkLength > bytes.byteLength) {
            throw new HumanoidError("GLTF_PARSE", `${source}: the first GLB chunk is not a complete JSON chunk`);
        }
        text = new TextDecoder().decode(bytes.subarray(20, 20 + chunkLength));
    } else {
        text = new TextDecoder().decode(bytes);
    }
    let doc: unknown;
    try {
        doc = JSON.parse(text);
    } catch (e) {
        throw new HumanoidError("GLTF_PARSE", `${source}: not a glTF file: its JSON does not parse (${(e as Error).message})`);
    }
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
        throw new HumanoidError("GLTF_PARSE", `${source}: not a glTF file: the JSON is not an object`);
    }
    const d = doc as IGltfDocument;
    if (!d.asset || typeof d.asset.version !== "string" || !d.asset.version.startsWith("2")) {
        throw new HumanoidError("GLTF_PARSE", `${source}: not a glTF 2.0 file (asset.version is ${JSON.stringify(d.asset?.version)})`);
    }
    if (d.nodes !== undefined && !Array.isArray(d.nodes)) {
        throw new HumanoidError("GLTF_PARSE", `${source}: 'nodes' is not an array`);
    }
    return d;
}

const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/**
 * Bytes of key data an animation of a glTF document holds: the times and values of its samplers
 * (each accessor counted once). 0 when the document does not describe them.
 * @param doc the glTF JSON
 * @param animation index in `animations`
 */
export function GetGltfAnimationByteLength(doc: IGltfDocument, animation: number): number {
    const a = doc.animations?.[animation];
    const seen = new Set<number>();
    let bytes = 0;
    for (const s of a?.samplers ?? []) {
        for (const i of [s.input, s.output]) {
            if (i === undefined || seen.has(i)) continue;
            seen.add(i);
            const acc = doc.accessors?.[i];
            bytes += (acc?.count ?? 0) * (COMPONENT_BYTES[acc?.componentType ?? 0] ?? 0) * (TYPE_COMPONENTS[acc?.type ?? ""] ?? 0);
        }
    }
    return bytes;
}
