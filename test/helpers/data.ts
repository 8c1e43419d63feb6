import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** The real test material (see ../shared/data/README.md); never copied into the project. */
export const SHARED_DATA = resolve(process.cwd(), "../shared/data");

/** `true` when ../shared/data is there. */
export const HAS_SHARED_DATA = existsSync(SHARED_DATA);

/** `describe` when the real data is there, `describe.skip` otherwise. */
export const describeWithData: typeof describe = HAS_SHARED_DATA ? describe : (describe.skip as typeof describe);

/** Absolute path of a file under ../shared/data. */
export function dataFile(relativePath: string): string {
    return join(SHARED_DATA, relativePath);
}

/** Every skeleton file under ../shared/data (relative paths), sorted. */
export function listDataFiles(pattern = /\.(bvh|glb|gltf|vrm|vrma)$/i): string[] {
    if (!HAS_SHARED_DATA) return [];
    const out: string[] = [];
    const walk = (dir: string, rel: string): void => {
        for (const f of readdirSync(dir)) {
            const p = join(dir, f);
            const r = rel ? `${rel}/${f}` : f;
            if (statSync(p).isDirectory()) walk(p, r);
            else if (pattern.test(f)) out.push(r);
        }
    };
    walk(SHARED_DATA, "");
    return out.sort();
}
