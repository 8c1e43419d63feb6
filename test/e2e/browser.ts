import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS, FindChromium } from "../../scripts/chromium.mjs";

/** Where Chromium is: CHROMIUM_PATH, else Debian's (scripts/ensure-chromium.mjs installs it). */
export function ChromiumPath(): string {
    const path = FindChromium();
    if (!path) throw new Error("Chromium is missing: run `node scripts/ensure-chromium.mjs` (npm run test:e2e does)");
    return path;
}

/** Headless Chromium as measured to work here: no sandbox, no background networking, SwiftShader WebGL; Playwright gives each launch a fresh profile directory. */
export async function LaunchChromiumAsync(): Promise<Browser> {
    return chromium.launch({
        executablePath: ChromiumPath(),
        headless: true,
        args: [...CHROMIUM_ARGS],
    });
}

/** Where the browser tests keep their screenshots (test artifacts). */
export const ARTIFACTS = join(process.cwd(), "test-artifacts");
