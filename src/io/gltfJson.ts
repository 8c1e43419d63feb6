import { HumanoidError } from "../errors.js";
import { MAX_ABS_LENGTH, MAX_DEPTH, MAX_JOINTS, MAX_NAME_LENGTH, QuoteForMessage } from "../limits.js";

/** A value as a message shows it: strings quoted (so an empty one shows), long ones cut. */
const Q = (v: unknown): string => QuoteForMessage(typeof v === "string" ? JSON.stringify(v) : v);

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
const CHUNK_BIN = 0x004e4942; // "BIN\0"

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
    let glb = false;
    let binLength = -1;
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
        // The BIN chunk, when there is one, follows the JSON chunk.
        const binAt = 20 + chunkLength;
        if (binAt + 8 <= Math.min(length, bytes.byteLength) && dv.getUint32(binAt + 4, true) === CHUNK_BIN) {
            binLength = Math.min(dv.getUint32(binAt, true), Math.min(length, bytes.byteLength) - binAt - 8);
        }
        glb = true;
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
    CheckGltfDocument(doc as Record<string, unknown>, source, glb ? binLength : null);
    return d;
}

/** Top-level glTF properties that are arrays when present. */
const ARRAY_PROPERTIES = [
    "accessors",
    "animations",
    "buffers",
    "bufferViews",
    "cameras",
    "images",
    "materials",
    "meshes",
    "nodes",
    "samplers",
    "scenes",
    "skins",
    "textures",
    "extensionsUsed",
    "extensionsRequired",
];

/**
 * Checks what Babylon's loader would walk or allocate before it does: the top-level arrays, every
 * node (children in range, one parent each, no cycle, no deeper than `MAX_DEPTH`, at most
 * `MAX_JOINTS` nodes, names within `MAX_NAME_LENGTH`, finite transforms), scenes, skins, animation
 * channels and samplers, and that every accessor lies in its buffer view, every buffer view in its
 * buffer, and a GLB's own buffer in its BIN chunk (so no count or length can make the loader
 * allocate what the file does not hold). Throws one {@link HumanoidError} `GLTF_PARSE` naming the
 * file, the property and the value.
 * @param doc the parsed JSON
 * @param source file name for messages
 * @param binLength for a GLB: the bytes its BIN chunk holds (-1 when it has none); null for a .gltf
 */
function CheckGltfDocument(doc: Record<string, unknown>, source: string, binLength: number | null): void {
    const fail = (where: string, what: string): never => {
        throw new HumanoidError("GLTF_PARSE", `${source}: ${where} ${what}`, { file: source, where });
    };
    for (const k of ARRAY_PROPERTIES) {
        if (doc[k] !== undefined && !Array.isArray(doc[k])) fail(`'${k}'`, `must be an array, found ${Q(doc[k])}`);
    }
    const list = (k: string): unknown[] => (doc[k] as unknown[] | undefined) ?? [];
    const obj = (where: string, v: unknown): Record<string, unknown> => {
        if (typeof v !== "object" || v === null || Array.isArray(v)) fail(where, `must be an object, found ${Q(v)}`);
        return v as Record<string, unknown>;
    };
    const index = (where: string, v: unknown, count: number, what: string): number => {
        if (!(Number.isInteger(v) && (v as number) >= 0 && (v as number) < count))
            fail(where, `must be the index of one of the ${count} ${what}, found ${Q(v)}`);
        return v as number;
    };
    const optionalIndex = (o: Record<string, unknown>, where: string, key: string, count: number, what: string): void => {
        if (o[key] !== undefined) index(`${where}.${key}`, o[key], count, what);
    };
    const whole = (where: string, v: unknown, min: number): number => {
        if (!(Number.isInteger(v) && (v as number) >= min)) fail(where, `must be a whole number of at least ${min}, found ${Q(v)}`);
        return v as number;
    };
    const nodes = list("nodes");
    if (nodes.length > MAX_JOINTS) fail("'nodes'", `has ${nodes.length} nodes, more than the ${MAX_JOINTS} this library reads`);
    const meshCount = list("meshes").length;
    const skinCount = list("skins").length;
    const cameraCount = list("cameras").length;
    const parent = new Int32Array(nodes.length).fill(-1);
    nodes.forEach((v, i) => {
        const where = `nodes[${i}]`;
        const n = obj(where, v);
        if (n.name !== undefined && (typeof n.name !== "string" || n.name.length > MAX_NAME_LENGTH))
            fail(`${where}.name`, `must be a string of at most ${MAX_NAME_LENGTH} characters, found ${Q(n.name)}`);
        optionalIndex(n, where, "mesh", meshCount, "meshes");
        optionalIndex(n, where, "skin", skinCount, "skins");
        optionalIndex(n, where, "camera", cameraCount, "cameras");
        for (const [key, size, limit] of [
            ["translation", 3, MAX_ABS_LENGTH],
            ["rotation", 4, 2],
            ["scale", 3, MAX_ABS_LENGTH],
            ["matrix", 16, MAX_ABS_LENGTH],
        ] as const) {
            const t = n[key];
            if (t === undefined) continue;
            if (!Array.isArray(t) || t.length !== size || !t.every((x) => typeof x === "number" && Math.abs(x) <= limit))
                fail(`${where}.${key}`, `must be ${size} finite numbers within ${limit} in magnitude, found ${Q(t)}`);
        }
        if (n.children === undefined) return;
        if (!Array.isArray(n.children)) fail(`${where}.children`, `must be an array, found ${Q(n.children)}`);
        (n.children as unknown[]).forEach((c, k) => {
            const child = index(`${where}.children[${k}]`, c, nodes.length, "nodes");
            if (child === i) fail(`${where}.children[${k}]`, `is the node itself (a cycle)`);
            if (parent[child] >= 0) fail(`${where}.children[${k}]`, `is node ${child}, already a child of node ${parent[child]} (a node has one parent)`);
            parent[child] = i;
        });
    });
    // With one parent each, a cycle is a chain of parents that never ends; depth by memoised walks (linear).
    const depth = new Int32Array(nodes.length); // 0 unknown, -1 on the current path
    const path: number[] = [];
    for (let i = 0; i < nodes.length; i++) {
        let n = i;
        while (n >= 0 && depth[n] === 0) {
            depth[n] = -1;
            path.push(n);
            n = parent[n];
        }
        if (n >= 0 && depth[n] === -1) fail(`nodes[${n}]`, `is its own ancestor (the children lists make a cycle)`);
        let d = n >= 0 ? depth[n] : 0;
        while (path.length) {
            const m = path.pop()!;
            depth[m] = ++d;
            if (d > MAX_DEPTH) fail(`nodes[${m}]`, `is nested more than ${MAX_DEPTH} levels deep`);
        }
    }
    list("scenes").forEach((v, i) => {
        const sc = obj(`scenes[${i}]`, v);
        if (sc.nodes === undefined) return;
        if (!Array.isArray(sc.nodes)) fail(`scenes[${i}].nodes`, `must be an array, found ${Q(sc.nodes)}`);
        (sc.nodes as unknown[]).forEach((c, k) => {
            const n = index(`scenes[${i}].nodes[${k}]`, c, nodes.length, "nodes");
            if (parent[n] >= 0) fail(`scenes[${i}].nodes[${k}]`, `is node ${n}, a child of node ${parent[n]}: a scene lists root nodes only`);
        });
    });
    if (doc.scene !== undefined) index("'scene'", doc.scene, list("scenes").length, "scenes");
    list("skins").forEach((v, i) => {
        const sk = obj(`skins[${i}]`, v);
        if (!Array.isArray(sk.joints) || !sk.joints.length) fail(`skins[${i}].joints`, `must be a non-empty array of node indices, found ${Q(sk.joints)}`);
        (sk.joints as unknown[]).forEach((j, k) => index(`skins[${i}].joints[${k}]`, j, nodes.length, "nodes"));
        optionalIndex(sk, `skins[${i}]`, "skeleton", nodes.length, "nodes");
        optionalIndex(sk, `skins[${i}]`, "inverseBindMatrices", list("accessors").length, "accessors");
    });
    // Buffers, views and accessors: every range inside what holds it.
    const buffers = list("buffers");
    const bufferBytes = buffers.map((v, i) => {
        const b = obj(`buffers[${i}]`, v);
        const n = whole(`buffers[${i}].byteLength`, b.byteLength, 0);
        if (b.uri !== undefined && typeof b.uri !== "string") fail(`buffers[${i}].uri`, `must be a string, found ${Q(b.uri)}`);
        if (binLength !== null && i === 0 && b.uri === undefined && n > binLength)
            fail(`buffers[0].byteLength`, `is ${n}, but the GLB's BIN chunk holds ${Math.max(0, binLength)} bytes`);
        if (b.uri === undefined && !(binLength !== null && i === 0) && b.extensions === undefined)
            fail(`buffers[${i}]`, `has no uri (only a GLB's first buffer may have none)`);
        if (typeof b.uri === "string" && b.uri.startsWith("data:")) {
            const comma = b.uri.indexOf(",");
            const base64 = b.uri.slice(0, comma).endsWith(";base64");
            const payload = comma < 0 ? 0 : b.uri.length - comma - 1;
            const held = base64 ? Math.floor((payload * 3) / 4) : payload;
            if (n > held) fail(`buffers[${i}].byteLength`, `is ${n}, but its data URI holds about ${held} bytes`);
        }
        return n;
    });
    const views = list("bufferViews");
    const viewBytes = views.map((v, i) => {
        const where = `bufferViews[${i}]`;
        const bv = obj(where, v);
        const b = index(`${where}.buffer`, bv.buffer, buffers.length, "buffers");
        const offset = bv.byteOffset === undefined ? 0 : whole(`${where}.byteOffset`, bv.byteOffset, 0);
        const length = whole(`${where}.byteLength`, bv.byteLength, 1);
        if (offset + length > bufferBytes[b]) fail(where, `bytes ${offset} to ${offset + length} lie outside buffer ${b} (${bufferBytes[b]} bytes)`);
        if (bv.byteStride !== undefined) whole(`${where}.byteStride`, bv.byteStride, 4);
        return { length, stride: (bv.byteStride as number | undefined) ?? 0 };
    });
    const accessors = list("accessors");
    accessors.forEach((v, i) => {
        const where = `accessors[${i}]`;
        const a = obj(where, v);
        const count = whole(`${where}.count`, a.count, 1);
        const component = COMPONENT_BYTES[a.componentType as number];
        if (!component) fail(`${where}.componentType`, `must be one of ${Object.keys(COMPONENT_BYTES).join(", ")}, found ${Q(a.componentType)}`);
        const components = typeof a.type === "string" && Object.hasOwn(TYPE_COMPONENTS, a.type) ? TYPE_COMPONENTS[a.type] : 0;
        if (!components) fail(`${where}.type`, `must be one of ${Object.keys(TYPE_COMPONENTS).join(", ")}, found ${Q(a.type)}`);
        const element = component * components;
        if (a.bufferView === undefined) {
            // All zeros (or sparse): the loader allocates count elements, so they must be few enough.
            if (count * element > MAX_ZERO_ACCESSOR_BYTES)
                fail(`${where}.count`, `is ${count} with no buffer view: more than ${MAX_ZERO_ACCESSOR_BYTES} bytes of zeros`);
            return;
        }
        const view = viewBytes[index(`${where}.bufferView`, a.bufferView, views.length, "bufferViews")];
        const offset = a.byteOffset === undefined ? 0 : whole(`${where}.byteOffset`, a.byteOffset, 0);
        const stride = view.stride || element;
        if (offset + stride * (count - 1) + element > view.length)
            fail(where, `holds ${count} elements of ${element} bytes, more than its buffer view's ${view.length} bytes hold (from byte ${offset})`);
    });
    list("animations").forEach((v, i) => {
        const where = `animations[${i}]`;
        const an = obj(where, v);
        if (an.name !== undefined && (typeof an.name !== "string" || an.name.length > MAX_NAME_LENGTH))
            fail(`${where}.name`, `must be a string of at most ${MAX_NAME_LENGTH} characters, found ${Q(an.name)}`);
        if (!Array.isArray(an.samplers)) fail(`${where}.samplers`, `must be an array, found ${Q(an.samplers)}`);
        if (!Array.isArray(an.channels)) fail(`${where}.channels`, `must be an array, found ${Q(an.channels)}`);
        const samplers = an.samplers as unknown[];
        samplers.forEach((sv, k) => {
            const sm = obj(`${where}.samplers[${k}]`, sv);
            index(`${where}.samplers[${k}].input`, sm.input, accessors.length, "accessors");
            index(`${where}.samplers[${k}].output`, sm.output, accessors.length, "accessors");
        });
        (an.channels as unknown[]).forEach((cv, k) => {
            const ch = obj(`${where}.channels[${k}]`, cv);
            index(`${where}.channels[${k}].sampler`, ch.sampler, samplers.length, "samplers");
            const target = obj(`${where}.channels[${k}].target`, ch.target);
            optionalIndex(target, `${where}.channels[${k}].target`, "node", nodes.length, "nodes");
        });
    });
}

/** Most bytes an accessor without a buffer view may ask the loader to allocate (16 MiB). */
const MAX_ZERO_ACCESSOR_BYTES = 1 << 24;

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
