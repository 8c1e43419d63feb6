// Debian's Chromium as playwright-core drives it here (playwright-core brings no browser): where it
// is and the launch arguments measured to work on these machines (headless, no sandbox, no
// background networking, SwiftShader WebGL). One place for scripts/ensure-chromium.mjs,
// scripts/filmstrip-png.mjs and the browser tests (test/e2e/browser.ts).
import { existsSync } from "node:fs";

/** Where to look for Chromium, in order: CHROMIUM_PATH, then Debian's paths. */
export const CHROMIUM_CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);

/** The first candidate that exists, or null. */
export function FindChromium() {
    return CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** The launch arguments (with `headless: true`). */
export const CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--enable-unsafe-swiftshader",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];
