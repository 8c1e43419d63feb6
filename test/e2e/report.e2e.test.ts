import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import type { Browser } from "playwright-core";
import { SampleCharacters } from "../../src/index.js";
import { WriteSampleCharacterGlbAsync } from "../../src/cli/demo.js";
import { BuildQualityReportAsync, WriteQualityReportAsync } from "../../src/node/qualityReport.js";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
import { ARTIFACTS, LaunchChromiumAsync } from "./browser.js";

Logger.LogLevels = Logger.ErrorLogLevel;

describe("the quality report in a real browser", () => {
    let browser: Browser;
    const dir = mkdtempSync(join(tmpdir(), "bh-report-e2e-"));
    beforeAll(async () => {
        browser = await LaunchChromiumAsync();
    });
    afterAll(async () => {
        await browser?.close();
        rmSync(dir, { recursive: true, force: true });
    });

    test("opens offline with its summary table and every plot drawn, and no console errors", async () => {
        const walk = join(dir, "sample-walk.bvh");
        const chibi = join(dir, "chibi.glb");
        writeFileSync(walk, SampleWalkBvh(SampleCharacters[3], { upAxis: "z", units: "inches" }));
        await WriteSampleCharacterGlbAsync(SampleCharacters[2], chibi);
        const report = await BuildQualityReportAsync([walk], [chibi, walk]);
        expect(report.pairs).toHaveLength(2);
        const html = join(dir, "report.html");
        await WriteQualityReportAsync(report, html);

        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const errors: string[] = [];
        page.on("console", (m) => {
            if (m.type() === "error") errors.push(m.text());
        });
        page.on("pageerror", (e) => errors.push(String(e)));
        // No network: the page must carry everything it needs.
        await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
        await page.goto(pathToFileURL(html).href);
        await page.waitForSelector("body[data-plots-ready]", { timeout: 20000 });
        const plots = Number(await page.getAttribute("body", "data-plots-ready"));
        expect(plots).toBe(5 * report.pairs.length); // height, speed, stretch, goal error, per-segment bars
        // Every plot has a canvas with something drawn on it.
        const drawn = await page.$$eval(".uplot canvas", (canvases) =>
            canvases.map((c) => {
                const canvas = c as HTMLCanvasElement;
                const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
                let ink = 0;
                for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink++;
                return ink;
            }),
        );
        expect(drawn).toHaveLength(plots);
        for (const ink of drawn) expect(ink).toBeGreaterThan(500);
        // The summary: one row per pair, the better figures highlighted.
        expect(await page.$$eval("#summary tbody tr", (rows) => rows.length)).toBe(2);
        expect(await page.$$eval("#summary td.better", (cells) => cells.length)).toBeGreaterThan(0);
        expect(await page.textContent("#summary tbody")).toContain("self round trip");
        // Each pair's stick figures: an SVG laid out at its size, with its figures.
        for (let k = 0; k < report.pairs.length; k++) {
            const box = await page.locator(`#film-${k} svg`).boundingBox();
            expect(box?.width).toBeGreaterThan(500);
            expect(await page.locator(`#film-${k} svg g`).count()).toBe(3 * 8);
        }
        mkdirSync(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: join(ARTIFACTS, "report.png"), fullPage: false });
        expect(errors).toEqual([]);
        await page.close();
    });
});
