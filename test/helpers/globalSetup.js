import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** Says once, visibly, when the real test data is absent (those tests then skip). */
export default function globalSetup() {
    const dir = resolve(process.cwd(), "../shared/data");
    if (!existsSync(dir)) {
        process.stdout.write(`\nNOTE: ${dir} not found: tests on real files are skipped; everything else runs.\n\n`);
    }
}
