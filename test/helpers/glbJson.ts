import { readFileSync, writeFileSync } from "node:fs";

/**
 * Writes `output`: the GLB `file` with its JSON chunk edited by `edit` (the binary chunk kept as it
 * is, the JSON padded with spaces to 4 bytes).
 */
export function EditGlbJson<T = Record<string, unknown>>(file: string, edit: (json: T) => void, output: string): void {
    EditGlb<T>(file, (json) => edit(json), output);
}

/**
 * Writes `output`: the GLB `file` with its JSON chunk and its binary chunk edited by `edit` (the
 * binary chunk in place, its length kept; the JSON padded with spaces to 4 bytes).
 */
export function EditGlb<T = Record<string, unknown>>(file: string, edit: (json: T, bin: Buffer) => void, output: string): void {
    const glb = readFileSync(file);
    const jsonLength = glb.readUInt32LE(12);
    const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString("utf8")) as T;
    const rest = Buffer.from(glb.subarray(20 + jsonLength));
    // The binary chunk, when there is one: its 8-byte header, then its bytes.
    const bin = rest.length >= 8 && rest.readUInt32LE(4) === 0x004e4942 ? rest.subarray(8, 8 + rest.readUInt32LE(0)) : Buffer.alloc(0);
    edit(json, bin);
    const text = Buffer.from(JSON.stringify(json), "utf8");
    // Padded by bytes (a name or title may be more than one byte a character).
    const chunk = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
    const header = Buffer.alloc(20);
    header.writeUInt32LE(0x46546c67, 0);
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(20 + chunk.length + rest.length, 8);
    header.writeUInt32LE(chunk.length, 12);
    header.writeUInt32LE(0x4e4f534a, 16);
    writeFileSync(output, Buffer.concat([header, chunk, rest]));
}
