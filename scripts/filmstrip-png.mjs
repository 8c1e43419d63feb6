#!/usr/bin/env node
// One pair's stick-figure filmstrip of a quality report as a PNG, to look at without a browser:
//   node scripts/filmstrip-png.mjs report/report.html <pairIndex> <out.png> [scale]
// pairIndex is the pair's number in the page (its section `#pair-N`, the order the pairs were
// measured in: sources outer, targets inner), not its place in the summary table. scale is the
// device pixel ratio (default 2, for a sharp picture). Uses playwright-core with Debian's Chromium
// (run `node scripts/ensure-chromium.mjs` first, or set CHROMIUM_PATH; scripts/chromium.mjs).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, FindChromium } from "./chromium.mjs";

const [html, index, out, scaleArg] = process.argv.slice(2);
if (!html || index === undefined || !out || !/^\d+$/.test(index)) {
    process.stderr.write("usage: node scripts/filmstrip-png.mjs <report.html> <pairIndex> <out.png> [scale]\n");
    process.exit(2);
}
if (!existsSync(html)) {
    process.stderr.write(`filmstrip-png: ${html}: no such file\n`);
    process.exit(1);
}
const executablePath = FindChromium();
if (!executablePath) {
    process.stderr.write("filmstrip-png: Chromium is missing: run `node scripts/ensure-chromium.mjs` or set CHROMIUM_PATH\n");
    process.exit(1);
}
const scale = Number(scaleArg ?? 2);

const browser = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: scale > 0 ? scale : 2 });
    // The page carries everything it needs: no network.
    await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
    await page.goto(pathToFileURL(resolve(html)).href);
    const selector = `#film-${index} svg`;
    const element = await page.$(selector);
    if (!element) {
        const count = await page.$$eval("section[id^=pair-]", (s) => s.length);
        process.stderr.write(`filmstrip-png: no filmstrip for pair ${index} (${selector}); the page has ${count} pair(s), numbered from 0\n`);
        process.exitCode = 1;
    } else {
        await element.screenshot({ path: out });
        const title = await page.$eval(`#pair-${index} h2`, (h) => h.textContent);
        process.stdout.write(`filmstrip-png: ${title} -> ${out}\n`);
    }
} finally {
    await browser.close();
}
