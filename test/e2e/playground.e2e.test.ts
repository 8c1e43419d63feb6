import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { SampleCharacters } from "../../src/index.js";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
import { WriteSampleCharacterGlbAsync } from "../../src/cli/demo.js";
import { dataFile, HAS_SHARED_DATA } from "../helpers/data.js";
import { ARTIFACTS, LaunchChromiumAsync } from "./browser.js";
import { ServeDirectoryAsync } from "./server.js";

/** What the studio exposes to tests (playground/main.ts). */
interface IStudio {
    time(): number;
    playing(): boolean;
    source(): string | null;
    frameCount(): number;
    targets(): Array<{ name: string; error: string; boneMap: { bones: Record<string, string | null> } }>;
    boneRotation(target: number, bone: string): number[];
    hipsPosition(target: number): number[];
    surfaceFit(): {
        state: string;
        done: number;
        total: number;
        progressUpdates: number;
        message: string;
        frame: number;
        figures: Record<"controlMeanError" | "controlMaxError" | "meanError" | "maxError" | "transferQuality" | "frames" | "seconds", number> | null;
    };
}

const DIST = resolve("dist/playground");

/** A small downsample of the canvas: how many distinct colours, and the pixels (to compare frames). */
async function canvasPixels(page: Page): Promise<{ colours: number; pixels: number[] }> {
    return page.$eval("#canvas", (c) => {
        const canvas = c as HTMLCanvasElement;
        const small = document.createElement("canvas");
        small.width = 96;
        small.height = 64;
        const ctx = small.getContext("2d")!;
        ctx.drawImage(canvas, 0, 0, 96, 64);
        const data = Array.from(ctx.getImageData(0, 0, 96, 64).data);
        const set = new Set<number>();
        for (let i = 0; i < data.length; i += 4) set.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return { colours: set.size, pixels: data };
    });
}

/** Runs `f` on the studio's test hooks in the page. */
const studio = <T>(page: Page, f: (s: IStudio) => T): Promise<T> => page.evaluate(`(${f.toString()})(window.__studio)`) as Promise<T>;

describe("the playground in a real browser", () => {
    let browser: Browser;
    let server: { url: string; close: () => Promise<void> };
    let page: Page;
    const errors: string[] = [];

    beforeAll(async () => {
        if (!existsSync(join(DIST, "index.html"))) throw new Error("build the playground first: npm run build:playground (npm run test:e2e does)");
        server = await ServeDirectoryAsync(DIST);
        browser = await LaunchChromiumAsync();
        page = await browser.newPage({ viewport: { width: 1366, height: 800 }, acceptDownloads: true });
        page.on("console", (m) => {
            if (m.type() === "error") errors.push(m.text());
        });
        page.on("pageerror", (e) => errors.push(String(e)));
        await page.goto(server.url);
        await page.waitForFunction(() => window.__ready === true, null, { timeout: 60000 });
        mkdirSync(ARTIFACTS, { recursive: true });
    });
    afterAll(async () => {
        await browser?.close();
        await server?.close();
    });

    test("loads with a sample retarget playing: the canvas is drawn and changes between frames", async () => {
        expect(await studio(page, (s) => s.source())).toMatch(/sample walk/);
        expect(await studio(page, (s) => s.targets().length)).toBe(2);
        const a = await canvasPixels(page);
        const t0 = await studio(page, (s) => s.time());
        await page.waitForTimeout(700);
        const b = await canvasPixels(page);
        expect(await studio(page, (s) => s.time())).not.toBe(t0);
        expect(a.colours).toBeGreaterThan(8);
        let changed = 0;
        for (let i = 0; i < a.pixels.length; i++) if (a.pixels[i] !== b.pixels[i]) changed++;
        expect(changed).toBeGreaterThan(50);
        // Short labels say what is on screen.
        expect(await page.textContent("#labels")).toContain("source:");
        await page.screenshot({ path: join(ARTIFACTS, "playground.png") });
    });

    test("space pauses; moving a muscle slider poses the character (the bone turns)", async () => {
        await page.click("#canvas");
        await page.keyboard.press("Space");
        expect(await studio(page, (s) => s.playing())).toBe(false);
        await page.click("details:has(#muscles) > summary");
        const before = await studio(page, (s) => s.boneRotation(0, "leftUpperArm"));
        await page.$eval('input[data-muscle="Left Arm Down-Up"]', (el) => {
            const input = el as HTMLInputElement;
            input.value = "0.8";
            input.dispatchEvent(new Event("input", { bubbles: true }));
        });
        const after = await studio(page, (s) => s.boneRotation(0, "leftUpperArm"));
        const dot = Math.abs(before.reduce((sum, v, i) => sum + v * after[i], 0));
        expect(dot).toBeLessThan(0.995); // turned by more than about 11 degrees
        await page.screenshot({ path: join(ARTIFACTS, "playground-muscles.png") });
        await page.click("#play");
        expect(await studio(page, (s) => s.playing())).toBe(true);
    });

    test("a BVH dropped on the page is converted and plays on the characters", async () => {
        const file = HAS_SHARED_DATA ? dataFile("bvh/cmu_cgspeed/cmu_walk.bvh") : null;
        const name = file ? "cmu_walk.bvh" : "sample-walk.bvh";
        const text = file ? readFileSync(file, "utf8") : SampleWalkBvh(SampleCharacters[3], { upAxis: "z", units: "inches" });
        await page.evaluate(
            ({ text, name }) => {
                const dt = new DataTransfer();
                dt.items.add(new File([text], name, { type: "text/plain" }));
                document.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
                document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
            },
            { text, name },
        );
        await page.waitForFunction((n) => (window.__studio as IStudio).source() === n, name, { timeout: 30000 });
        expect(await studio(page, (s) => s.frameCount())).toBeGreaterThan(30);
        const h0 = await studio(page, (s) => s.boneRotation(0, "leftUpperLeg"));
        await page.waitForTimeout(500);
        const h1 = await studio(page, (s) => s.boneRotation(0, "leftUpperLeg"));
        expect(h1).not.toEqual(h0); // the thigh swings: it plays
        expect(await page.textContent("#status")).toContain(name);
        await page.screenshot({ path: join(ARTIFACTS, "playground-bvh.png") });
    });

    test("a character file dropped on the page is added and plays the source", async () => {
        const file = HAS_SHARED_DATA ? dataFile("glb/mixamo_xbot.glb") : null;
        let bytes: Buffer;
        let name: string;
        if (file) {
            bytes = readFileSync(file);
            name = "mixamo_xbot.glb";
        } else {
            const out = join(ARTIFACTS, "sample-character.glb");
            await WriteSampleCharacterGlbAsync(SampleCharacters[1], out);
            bytes = readFileSync(out);
            name = "sample-character.glb";
        }
        const count = await studio(page, (s) => s.targets().length);
        await page.evaluate(
            ({ data, name }) => {
                const dt = new DataTransfer();
                dt.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name));
                document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
            },
            { data: bytes.toString("base64"), name },
        );
        await page.waitForFunction((n) => (window.__studio as IStudio).targets().length === n, count + 1, { timeout: 60000 });
        const added = (await studio(page, (s) => s.targets())).at(-1)!;
        expect(added.name).toBe(name);
        expect(added.error).toBe("");
        const index = count;
        // The clip may have ended (the CMU walk does not loop): loop it from the start.
        if (!(await page.isChecked("#loop"))) await page.check("#loop");
        await page.click("#canvas");
        await page.keyboard.press("Home");
        if (!(await studio(page, (s) => s.playing()))) await page.click("#play");
        const r0 = await page.evaluate(`window.__studio.boneRotation(${index}, "leftUpperLeg")`);
        await page.waitForTimeout(400);
        const r1 = await page.evaluate(`window.__studio.boneRotation(${index}, "leftUpperLeg")`);
        expect(r1).not.toEqual(r0);
        await page.screenshot({ path: join(ARTIFACTS, "playground-character.png") });
        // The README's picture (UPDATE_DOCS_SCREENSHOT=1 npm run test:e2e, with ../shared/data beside the project).
        if (process.env.UPDATE_DOCS_SCREENSHOT && file) copyFileSync(join(ARTIFACTS, "playground-character.png"), resolve("docs/playground.png"));
    });

    test("a bone-map override changes the map", async () => {
        await page.click("details:has(#map) > summary");
        const map = async (): Promise<Record<string, string | null>> => (await studio(page, (s) => s.targets()[0].boneMap)).bones;
        const before = await map();
        expect(before.leftShoulder).toBeTruthy();
        await page.selectOption('select[data-bone="leftShoulder"]', "");
        const after = await map();
        expect(after.leftShoulder ?? null).toBeNull();
        expect(after.leftUpperArm).toBe(before.leftUpperArm);
        expect(await studio(page, (s) => s.targets()[0].error)).toBe("");
    });

    test("exports the muscle clip and the retargeted GLB", async () => {
        const [clipDownload] = await Promise.all([page.waitForEvent("download"), page.click("#export-clip")]);
        expect(clipDownload.suggestedFilename()).toMatch(/\.muscle\.json$/);
        const clipText = readFileSync((await clipDownload.path())!, "utf8");
        expect(JSON.parse(clipText).format).toBe("babylon-humanoid/muscle-clip");
        const [glbDownload] = await Promise.all([page.waitForEvent("download", { timeout: 60000 }), page.click("#export-glb")]);
        expect(glbDownload.suggestedFilename()).toMatch(/\.glb$/);
        const glb = readFileSync((await glbDownload.path())!);
        expect(glb.subarray(0, 4).toString("latin1")).toBe("glTF");
        // One animation in it: the retargeted clip.
        const jsonLength = glb.readUInt32LE(12);
        const gltf = JSON.parse(glb.subarray(20, 20 + jsonLength).toString("utf8")) as { animations?: unknown[] };
        expect(gltf.animations).toHaveLength(1);
    });

    // The X Bot (loaded above from ../shared/data) is the skinned character to fit; the sample character is a bare skeleton.
    (HAS_SHARED_DATA ? test : test.skip)(
        "the surface fit of the X Bot's walk onto its coarse rig: progress, finite figures, the error-coloured skin drawn",
        async () => {
            await page.click("details#surface-fit > summary");
            await page.selectOption("#fit-character", { label: "mixamo_xbot.glb" });
            expect(await page.$eval("#fit-clip", (s) => (s as HTMLSelectElement).value)).toMatch(/walk/);
            const started = Date.now();
            await page.click("#fit-run");
            await page.waitForFunction(() => ["done", "error"].includes((window.__studio as IStudio).surfaceFit().state), null, { timeout: 150000 });
            const fit = await studio(page, (s) => s.surfaceFit());
            console.log(`surface fit in the browser: ${((Date.now() - started) / 1000).toFixed(1)} s`, JSON.stringify(fit.figures));
            expect(fit.message).not.toMatch(/error|fail/i);
            expect(fit.state).toBe("done");
            // The progress bar moved while fitting, up to every frame of both runs.
            expect(fit.progressUpdates).toBeGreaterThan(1);
            expect(fit.done).toBe(fit.total);
            expect(await page.$eval("#fit-progress", (p) => (p as HTMLProgressElement).value)).toBe(1);
            const f = fit.figures!;
            for (const v of Object.values(f)) expect(Number.isFinite(v)).toBe(true);
            expect(f.frames).toBeGreaterThan(10);
            // The control run reaches about zero (the unit tests hold it to 0.01%); the coarse rig cannot be exact.
            expect(f.controlMeanError).toBeLessThan(1e-3);
            expect(f.maxError).toBeGreaterThan(f.controlMaxError);
            expect(f.transferQuality).toBeGreaterThan(0.9);
            expect(f.transferQuality).toBeLessThanOrEqual(1);
            const text = await page.textContent("#fit-figures");
            expect(text).toMatch(/control run.*\d\.\d+%/);
            expect(text).toMatch(/transfer quality.*\d\.\d+%/);
            expect(await page.textContent("#fit-legend")).toContain("3%");
            expect(await page.textContent("#labels")).toContain("surface fit:");
            // The fitted skin is on screen: hiding it (paused, nothing else moves) changes many pixels.
            await page.click("#canvas");
            if (await studio(page, (s) => s.playing())) await page.keyboard.press("Space");
            await page.waitForTimeout(300);
            await page.$eval("#fit-legend", (el) => el.scrollIntoView({ block: "end" }));
            await page.screenshot({ path: join(ARTIFACTS, "playground-surface-fit.png") });
            const shown = await canvasPixels(page);
            await page.uncheck("#fit-show-fitted");
            await page.waitForTimeout(300);
            const hidden = await canvasPixels(page);
            await page.check("#fit-show-fitted");
            let changed = 0;
            for (let i = 0; i < shown.pixels.length; i += 4)
                if (shown.pixels[i] !== hidden.pixels[i] || shown.pixels[i + 2] !== hidden.pixels[i + 2]) changed++;
            expect(changed).toBeGreaterThan(100);
        },
    );

    test("no errors in the console", () => {
        expect(errors).toEqual([]);
    });
});
