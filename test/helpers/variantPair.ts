import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MeasureQualityPairAsync, type IQualityPair } from "../../src/node/qualityReport.js";
import { dataFile, SHARED_DATA } from "./data.js";
import { PROPORTION_BASES, WriteProportionVariant } from "./proportionVariants.js";

/**
 * The quality report's pair of a public source file (a path inside ../shared/data) onto a
 * character of other proportions (`npm run report:variants`'s), written to a temporary folder for
 * the measure and removed after; without AnimatorAvatar's side.
 * @param source the source file, inside ../shared/data
 * @param base a base character of {@link PROPORTION_BASES} ("xbot", "vrm")
 * @param variant a key of `PROPORTION_VARIANTS` ("legs080", "thigh120", ...)
 */
export async function MeasureOntoProportionVariantAsync(source: string, base: string, variant: string): Promise<IQualityPair> {
    const b = PROPORTION_BASES.find((x) => x.name === base);
    const dir = mkdtempSync(join(tmpdir(), `variant-${base}-${variant}-`));
    try {
        const target = WriteProportionVariant(SHARED_DATA, base, variant, join(dir, `${base}_${variant}${b?.ext ?? ""}`));
        return await MeasureQualityPairAsync(dataFile(source), target, { skipAnimatorAvatar: true });
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
