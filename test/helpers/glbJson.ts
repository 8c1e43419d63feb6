import { readFileSync, writeFileSync } from "node:fs";

/**
 * Writes `output`: the GLB `file` with its JSON chunk edited by `edit` (the binary chunk kept as it
 * is, the JSON padded with spaces to 4 bytes).
 */
export function EditGlbJson<T = Record<string, unknown>>(file: string, edit: (json: T) => void, output: string): void {
    const glb = readFileSync(file);
    const jsonLength = glb.readUInt32LE(12);
    const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString("utf8")) as T;
    edit(json);
    const text = Buffer.from(JSON.stringify(json), "utf8");
    // Padded by bytes (a name or title may be more than one byte a character).
    const chunk = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
    const rest = glb.subarray(20 + jsonLength);
    const header = Buffer.alloc(20);
    header.writeUInt32LE(0x46546c67, 0);
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(20 + chunk.length + rest.length, 8);
    header.writeUInt32LE(chunk.length, 12);
    header.writeUInt32LE(0x4e4f534a, 16);
    writeFileSync(output, Buffer.concat([header, chunk, rest]));
}
