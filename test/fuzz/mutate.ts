/**
 * Seeded mutators: what a careless or hostile user makes of a file. Byte-level (truncation, bit
 * flips, overwritten or repeated ranges), text-level (numbers replaced by special values, lines
 * dropped or repeated, huge counts, deep and wide BVH hierarchies, long names), glTF-level (wrong
 * JSON types, node cycles, many nodes, huge byte lengths and counts, special floats in the BIN
 * chunk) and muscle-clip-level (wrong types and special numbers in the JSON). Everything is drawn
 * from one {@link Rng}, so a case id gives the same mutant on every machine with the same seeds.
 */
import { MakeGlb, PROTO_MARKER, SplitGlb, type ISeed } from "./corpus.js";

/** A small, fast, seeded PRNG (mulberry32). */
export class Rng {
    private _s: number;
    /** @param seed any 32-bit number */
    constructor(seed: number) {
        this._s = seed >>> 0;
    }
    /** A number in [0, 1). */
    public next(): number {
        let t = (this._s = (this._s + 0x6d2b79f5) >>> 0);
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    /** A whole number in [0, n). */
    public int(n: number): number {
        return Math.floor(this.next() * n);
    }
    /** One of the items. */
    public pick<T>(items: readonly T[]): T {
        return items[this.int(items.length)];
    }
    /** `true` with probability p. */
    public chance(p: number): boolean {
        return this.next() < p;
    }
}

/** A 32-bit hash of a string (FNV-1a), to seed a case from its id. */
export function HashString(s: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
}

/** Largest mutant a wide BVH with channels grows to (bytes): reading more is work in proportion to the input, not a hang. */
const MAX_MUTANT_BYTES = 8 << 20;

/** Numbers no real file has, as text. */
const SPECIAL_TEXT = [
    "0",
    "-0",
    "1e308",
    "-1e308",
    "5.7e307",
    "1e154",
    "-1e154",
    "3.4e38",
    "1e39",
    "5e-324",
    "1e-300",
    "10000000",
    "99999999999",
    "4294967296",
    "9007199254740993",
    "-1",
    "-2147483648",
    "1e400",
    "NaN",
    "Infinity",
    "-Infinity",
    "0x10",
    "1,5",
    "",
];
/** Numbers no real file has, as values (JSON and binary). */
const SPECIAL_VALUES = [0, -0, -1, 1e308, -1e308, 1e154, 3.4e38, 5e-324, 2 ** 32, 2 ** 40, 9007199254740994, 1e9, -2147483648, Infinity, -Infinity, NaN];
/** Wrong-typed JSON values. */
const WRONG_TYPES: unknown[] = [false, true, null, "", "x", [], {}, [1, 2], { a: 1 }, -1, 1.5];

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The kinds of mutation, for reports. */
export type MutationKind =
    | "truncate"
    | "bitflip"
    | "overwrite"
    | "splice"
    | "number"
    | "lines"
    | "bvh-frames"
    | "bvh-deep"
    | "bvh-wide"
    | "long-name"
    | "json-value"
    | "json-type"
    | "gltf-cycle"
    | "gltf-wide"
    | "gltf-deep"
    | "gltf-length"
    | "gltf-floats"
    | "proto";

/** One mutant and what was done to make it. */
export interface IMutant {
    readonly bytes: Uint8Array;
    readonly kinds: MutationKind[];
}

function truncate(rng: Rng, b: Uint8Array): Uint8Array {
    return b.slice(0, rng.int(b.length));
}

function bitflip(rng: Rng, b: Uint8Array): Uint8Array {
    const out = b.slice();
    const n = 1 + rng.int(16);
    for (let i = 0; i < n && out.length; i++) out[rng.int(out.length)] ^= 1 << rng.int(8);
    return out;
}

function overwrite(rng: Rng, b: Uint8Array): Uint8Array {
    const out = b.slice();
    if (!out.length) return out;
    const at = rng.int(out.length);
    const len = Math.min(out.length - at, 1 + rng.int(64));
    const fill = rng.pick([0, 0xff, -1]);
    for (let i = 0; i < len; i++) out[at + i] = fill < 0 ? rng.int(256) : fill;
    return out;
}

function splice(rng: Rng, b: Uint8Array): Uint8Array {
    if (b.length < 2) return b;
    const a = rng.int(b.length);
    const len = Math.min(b.length - a, 1 + rng.int(256));
    if (rng.chance(0.5)) {
        const out = new Uint8Array(b.length - len);
        out.set(b.subarray(0, a));
        out.set(b.subarray(a + len), a);
        return out;
    }
    const times = 1 + rng.int(8);
    const chunk = b.subarray(a, a + len);
    const out = new Uint8Array(b.length + len * times);
    out.set(b.subarray(0, a + len));
    for (let t = 1; t <= times; t++) out.set(chunk, a + len * t);
    out.set(b.subarray(a + len), a + len * (times + 1));
    return out;
}

/** Replaces 1 to 8 numbers of a text with special values. */
function numbers(rng: Rng, text: string): string {
    const re = /-?\d+(\.\d+)?([eE][+-]?\d+)?/g;
    const spans: Array<[number, number]> = [];
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) && spans.length < 200_000) spans.push([m.index, m.index + m[0].length]);
    if (!spans.length) return text;
    const chosen = Array.from({ length: 1 + rng.int(8) }, () => rng.pick(spans)).sort((x, y) => y[0] - x[0]);
    let out = text;
    let last = Infinity;
    for (const [a, z] of chosen) {
        if (z > last) continue;
        out = out.slice(0, a) + rng.pick(SPECIAL_TEXT) + out.slice(z);
        last = a;
    }
    return out;
}

/** Drops, repeats or swaps lines. */
function lines(rng: Rng, text: string): string {
    const ls = text.split("\n");
    const n = 1 + rng.int(4);
    for (let k = 0; k < n && ls.length > 1; k++) {
        const i = rng.int(ls.length);
        const op = rng.int(3);
        if (op === 0) ls.splice(i, 1);
        else if (op === 1) ls.splice(i, 0, ...Array.from({ length: 1 + rng.int(4) }, () => ls[i]));
        else {
            const j = rng.int(ls.length);
            [ls[i], ls[j]] = [ls[j], ls[i]];
        }
    }
    return ls.join("\n");
}

/** A BVH whose `Frames:` line lies. */
function bvhFrames(rng: Rng, text: string): string {
    return text.replace(/Frames:\s*\d+/, `Frames: ${rng.pick(["0", "1", "10000000", "999999", "4294967297", "1000001", String(1 + rng.int(100000))])}`);
}

/** Joint blocks inserted after the root's CHANNELS line: a chain (deep) or siblings (wide). */
function bvhNest(rng: Rng, text: string, deep: boolean): string {
    const at = text.search(/CHANNELS[^\n]*\n/);
    if (at < 0) return text;
    const end = text.indexOf("\n", at) + 1;
    const n = deep ? rng.pick([50, 500, 999, 1001, 5000]) : rng.pick([100, 1000, 5000, 9000, 10_001, 20_000, 25_000]);
    const parts: string[] = [];
    const channels = rng.chance(0.3) ? "CHANNELS 3 Zrotation Xrotation Yrotation" : "CHANNELS 0";
    for (let i = 0; i < n; i++) parts.push(`JOINT fuzz${i}\n{\nOFFSET 0 ${deep ? 0.1 : 1} 0\n${channels}\n${deep ? "" : "}\n"}`);
    if (deep) parts.push("}\n".repeat(n));
    let out = text.slice(0, end) + parts.join("") + text.slice(end);
    if (channels !== "CHANNELS 0") {
        // Each motion line needs 3 more values per inserted joint (or it is a clean error, which is fine too).
        // (Not past MAX_MUTANT_BYTES: a mutant that is large because it holds many values is slow to read, not a hang.)
        const lineCount = (out.match(/\n/g) ?? []).length;
        if (rng.chance(0.7) && lineCount * n * 6 < MAX_MUTANT_BYTES)
            out = out.replace(
                /(MOTION[\s\S]*?Frame Time:[^\n]*\n)([\s\S]*)/,
                (_, head: string, body: string) => head + body.replace(/^(.+)$/gm, (l: string) => l + " 0 0 0".repeat(n)),
            );
    }
    return out;
}

/** A name made long (a joint, node or clip name). */
function longName(rng: Rng, text: string): string {
    const len = rng.pick([1025, 70_000, (1 << 20) + 1]);
    const name = "N".repeat(len);
    if (/\bJOINT\s+\S+/.test(text)) return text.replace(/\bJOINT\s+\S+/, `JOINT ${name}`);
    return text.replace(/"name"\s*:\s*"[^"]*"/, `"name": "${name}"`);
}

/** Every [parent, key] path to a value in a JSON tree (at most a few thousand, breadth first). */
function jsonPaths(root: unknown, limit = 5000): Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> {
    const out: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = [];
    const queue: unknown[] = [root];
    while (queue.length && out.length < limit) {
        const v = queue.shift();
        if (Array.isArray(v)) {
            // Long arrays (curve values, index lists): a few entries.
            const n = v.length;
            const keys = n > 8 ? [0, 1, n - 1, Math.floor(n / 2)] : v.map((_, i) => i);
            for (const k of keys) {
                out.push({ parent: v, key: k });
                queue.push(v[k]);
            }
        } else if (v && typeof v === "object") {
            for (const k of Object.keys(v)) {
                out.push({ parent: v as Record<string, unknown>, key: k });
                queue.push((v as Record<string, unknown>)[k]);
            }
        }
    }
    return out;
}

/** Replaces 1 to 4 values of a JSON document by special numbers or wrong types, or deletes them. */
function jsonValues(rng: Rng, doc: unknown, kinds: MutationKind[]): void {
    const paths = jsonPaths(doc);
    if (!paths.length) return;
    for (let k = 0, n = 1 + rng.int(4); k < n; k++) {
        const { parent, key } = rng.pick(paths);
        const p = parent as Record<string | number, unknown>;
        const r = rng.int(10);
        if (r < 5) {
            p[key] = rng.pick(SPECIAL_VALUES);
            kinds.push("json-value");
        } else if (r < 9) {
            p[key] = structuredClone(rng.pick(WRONG_TYPES));
            kinds.push("json-type");
        } else if (!Array.isArray(parent)) {
            delete p[key];
            kinds.push("json-type");
        }
    }
}

interface IGltfJson {
    nodes?: Array<{ children?: number[]; name?: string }>;
    buffers?: Array<{ byteLength?: number }>;
    accessors?: Array<{ count?: number }>;
    scenes?: Array<{ nodes?: number[] }>;
    [k: string]: unknown;
}

/** glTF structure: cycles, many or deep nodes, lying lengths and counts, `__proto__` keys. */
function gltfStructure(rng: Rng, doc: IGltfJson, kinds: MutationKind[]): void {
    const nodes = doc.nodes ?? [];
    const op = rng.int(6);
    if (op === 0 && nodes.length > 1) {
        // A child that is an ancestor (or the node itself).
        const i = 1 + rng.int(nodes.length - 1);
        let a = i;
        const parentOf = new Map<number, number>();
        nodes.forEach((n, p) => (n.children ?? []).forEach((c) => parentOf.set(c, p)));
        for (let s = rng.int(8); s > 0 && parentOf.has(a); s--) a = parentOf.get(a)!;
        (nodes[i].children ??= []).push(a);
        kinds.push("gltf-cycle");
    } else if (op === 1) {
        const n = rng.pick([1000, 10_000, 100_000]);
        const first = nodes.length;
        for (let k = 0; k < n; k++) nodes.push({ name: `fuzz${k}` });
        const host = nodes.length > n ? rng.int(first) : 0;
        (nodes[host].children ??= []).push(...Array.from({ length: n }, (_, k) => first + k));
        kinds.push("gltf-wide");
    } else if (op === 2) {
        const n = rng.pick([500, 1001, 5000]);
        const first = nodes.length;
        for (let k = 0; k < n; k++) nodes.push({ name: `fuzz${k}`, ...(k < n - 1 ? { children: [first + k + 1] } : {}) });
        if (first > 0) (nodes[rng.int(first)].children ??= []).push(first);
        kinds.push("gltf-deep");
    } else if (op === 3) {
        if (doc.buffers?.length) doc.buffers[0].byteLength = rng.pick([2 ** 40, 2 ** 31, 1e308, doc.buffers[0].byteLength! + 1]);
        kinds.push("gltf-length");
    } else if (op === 4) {
        const acc = doc.accessors ?? [];
        if (acc.length) acc[rng.int(acc.length)].count = rng.pick([1e308, 2 ** 32, 2 ** 31, 1e9, 0, -1]);
        kinds.push("gltf-length");
    } else {
        // Written as "__proto__" (see PROTO_MARKER): JSON.parse makes it an own key, a careless reader's merge a prototype.
        doc[PROTO_MARKER] = { polluted: 1 };
        kinds.push("proto");
    }
    doc.nodes = nodes;
}

/** Special float32s written over 1 to 16 aligned places of a binary buffer. */
function specialFloats(rng: Rng, bin: Uint8Array): Uint8Array {
    const out = bin.slice();
    const dv = new DataView(out.buffer);
    const n = 1 + rng.int(16);
    for (let k = 0; k < n && out.length >= 4; k++) dv.setFloat32(rng.int(out.length >> 2) << 2, rng.pick(SPECIAL_VALUES), true);
    return out;
}

/**
 * A mutant of a seed: one to three mutations of the kinds that fit the format.
 * @param rng the case's generator
 * @param seed the file to mutate
 */
export function Mutate(rng: Rng, seed: ISeed): IMutant {
    const kinds: MutationKind[] = [];
    let bytes = seed.bytes;
    const rounds = 1 + (rng.chance(0.3) ? rng.int(3) : 0);
    for (let r = 0; r < rounds; r++) {
        const byteLevel = rng.chance(0.35);
        if (byteLevel) {
            const k = rng.pick(["truncate", "bitflip", "bitflip", "overwrite", "splice"] as const);
            kinds.push(k);
            bytes =
                k === "truncate"
                    ? truncate(rng, bytes)
                    : k === "bitflip"
                      ? bitflip(rng, bytes)
                      : k === "overwrite"
                        ? overwrite(rng, bytes)
                        : splice(rng, bytes);
            continue;
        }
        if (seed.ext === ".bvh") {
            let text = dec.decode(bytes);
            const k = rng.pick(["number", "number", "number", "lines", "bvh-frames", "bvh-deep", "bvh-wide", "long-name"] as const);
            kinds.push(k);
            if (k === "number") text = numbers(rng, text);
            else if (k === "lines") text = lines(rng, text);
            else if (k === "bvh-frames") text = bvhFrames(rng, text);
            else if (k === "bvh-deep" || k === "bvh-wide") text = bvhNest(rng, text, k === "bvh-deep");
            else text = longName(rng, text);
            bytes = enc.encode(text);
        } else if (seed.ext === ".json" || seed.ext === ".gltf") {
            const text = dec.decode(bytes);
            let doc: unknown;
            try {
                doc = JSON.parse(text);
            } catch {
                kinds.push("number");
                bytes = enc.encode(numbers(rng, text));
                continue;
            }
            const k = rng.int(4);
            if (k === 0 && seed.ext === ".gltf" && doc && typeof doc === "object") gltfStructure(rng, doc as IGltfJson, kinds);
            else if (k === 1) {
                kinds.push("long-name");
                bytes = enc.encode(longName(rng, text));
                continue;
            } else jsonValues(rng, doc, kinds);
            bytes = enc.encode(JSON.stringify(doc).replace(`"${PROTO_MARKER}"`, '"__proto__"'));
        } else if (seed.ext === ".bin") {
            kinds.push("gltf-floats");
            bytes = specialFloats(rng, bytes);
        } else {
            // GLB, VRM, VRMA: the JSON chunk or the BIN chunk.
            let parts: ReturnType<typeof SplitGlb>;
            try {
                parts = SplitGlb(bytes);
            } catch {
                kinds.push("bitflip");
                bytes = bitflip(rng, bytes);
                continue;
            }
            const k = rng.int(4);
            if (k === 0 && parts.bin) {
                kinds.push("gltf-floats");
                bytes = MakeGlb(parts.json, specialFloats(rng, parts.bin));
            } else {
                if (k === 1) gltfStructure(rng, parts.json as IGltfJson, kinds);
                else jsonValues(rng, parts.json, kinds);
                bytes = MakeGlb(parts.json, parts.bin);
            }
        }
    }
    return { bytes, kinds };
}
