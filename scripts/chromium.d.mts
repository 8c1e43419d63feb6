/** Where to look for Chromium, in order: CHROMIUM_PATH, then Debian's paths. */
export declare const CHROMIUM_CANDIDATES: readonly string[];
/** The first candidate that exists, or null. */
export declare function FindChromium(): string | null;
/** The launch arguments (with `headless: true`). */
export declare const CHROMIUM_ARGS: readonly string[];
