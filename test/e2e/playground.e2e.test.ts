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
    held(target: number): Array<{ planted: boolean; along: number; visible: boolean; mark: number[]; ankle: number[]; tip: number[] | null }>;
    camera(): number[];
    slots(): number[][];
    surfaceFit(): {
        state: string;
        done: number;
        total: number;
        progressUpdates: number;
        message: string;
        frame: number;
        figures: Record<"controlMeanError" | "controlMaxError" | "meanError" | "maxError" | "transferQuality" | "frames" | "seconds", number> | null;
    };
    ik: {
        moveTarget(name: string, p: number[]): void;
        target(name: string): number[];
        visible(name: string): boolean;
        hand(i: number, side: "left" | "right"): number[];
        goal(i: number, side: "left" | "right"): { position: number[]; weight: number; unreachable: boolean };
        limits(i: number): number;
        cone(): { points: number; finite: boolean; radiusMin: number; radiusMax: number; directionErrorDeg: number; inside: boolean } | null;
        screen(name: string): number[];
        pickAt(x: number, y: number): { layer: string | null; scene: string | null };
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

/** Lets the page draw `n` more frames. */
const frames = (page: Page, n: number): Promise<unknown> =>
    page.evaluate(`new Promise((done) => { let k = 0; const f = () => (++k >= ${n} ? done(null) : requestAnimationFrame(f)); requestAnimationFrame(f); })`);

const distance = (a: number[], b: number[]): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

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

    test("a planted foot's mark shows where it is held: on the foot between its ankle and toes, none on a foot in the air", async () => {
        let planted = 0;
        let free = 0;
        for (let i = 0; i < 40; i++) {
            for (const feet of await studio(page, (s) => [s.held(0), s.held(1)])) {
                for (const foot of feet) {
                    if (!foot.planted) {
                        free++;
                        expect(foot.visible).toBe(false);
                        continue;
                    }
                    planted++;
                    expect(foot.visible).toBe(true);
                    // Both sample characters have toes.
                    expect(foot.tip).not.toBeNull();
                    expect(foot.along).toBeGreaterThanOrEqual(0);
                    expect(foot.along).toBeLessThanOrEqual(1);
                    const on = foot.ankle.map((a, c) => a + (foot.tip![c] - a) * foot.along);
                    expect(distance(foot.mark, on)).toBeLessThan(1e-4);
                }
            }
            await frames(page, 2);
        }
        // The sample walk (30 fps) holds a foot for 4 to 10 of its 67 frames: some samples of each.
        expect(planted).toBeGreaterThan(5);
        expect(free).toBeGreaterThan(20);
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

    test("the arrow keys step the clip a frame at a time and leave the view where it is", async () => {
        await page.click("#canvas");
        if (await studio(page, (s) => s.playing())) await page.keyboard.press("Space");
        await page.keyboard.press("Home");
        await frames(page, 2);
        const t0 = await studio(page, (s) => s.time());
        const view0 = await studio(page, (s) => s.camera());
        for (let k = 0; k < 5; k++) {
            await page.keyboard.press("ArrowRight");
            await frames(page, 2);
        }
        const t1 = await studio(page, (s) => s.time());
        // Five frames of the clip on (a frame is 1/120 to 1/30 s), and the camera did not turn with them.
        expect(t1 - t0).toBeGreaterThan(5 / 121);
        expect(t1 - t0).toBeLessThan(5 / 29);
        expect(await studio(page, (s) => s.camera())).toEqual(view0);
        await page.keyboard.press("ArrowLeft");
        await frames(page, 2);
        expect(await studio(page, (s) => s.time())).toBeLessThan(t1);
        expect(await studio(page, (s) => s.camera())).toEqual(view0);
        await page.click("#play");
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
        // Each character in a slot of its own, none narrower than its height needs (three.js's
        // 4.5 m robot stood over its neighbours in slots of one width for all).
        const slots = await studio(page, (s) => s.slots());
        for (let i = 1; i < slots.length; i++) expect(slots[i - 1][0] - slots[i][0]).toBeCloseTo((slots[i - 1][1] + slots[i][1]) / 2, 9);
        for (const [, width, height] of slots) expect(width).toBeGreaterThanOrEqual((1.4 * height) / 1.8 - 1e-9);
        // Each height measured from the character's joints (0.3 m to 3 m here; 1.8 m is the fallback when none can be).
        for (const [, , height] of slots) {
            expect(height).toBeGreaterThan(0.3);
            expect(height).toBeLessThan(3);
            expect(height).not.toBe(1.8);
        }
        // The README's picture (UPDATE_DOCS_SCREENSHOT=1 npm run test:e2e, with ../shared/data beside the project).
        if (process.env.UPDATE_DOCS_SCREENSHOT && file) copyFileSync(join(ARTIFACTS, "playground-character.png"), resolve("docs/playground.png"));
    });

    (HAS_SHARED_DATA ? test : test.skip)("a .gltf dropped with its .bin and texture is one character (KayKit's mannequin)", async () => {
        const dir = dataFile("glb/kaykit_mannequin");
        const files = ["manny_med_mod.gltf", "manny_med_mod.bin", "mannequin_texture.png"];
        const count = await studio(page, (s) => s.targets().length);
        await page.evaluate(
            (list) => {
                const dt = new DataTransfer();
                for (const { name, data } of list) dt.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name));
                document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
            },
            files.map((name) => ({ name, data: readFileSync(join(dir, name)).toString("base64") })),
        );
        await page.waitForFunction((n) => (window.__studio as IStudio).targets().length === n, count + 1, { timeout: 60000 });
        await frames(page, 5);
        // One character, nothing else opened (the .bin is not a muscle clip, the texture not refused).
        expect((await studio(page, (s) => s.targets())).map((t) => [t.name, t.error]).slice(count)).toEqual([["manny_med_mod.gltf", ""]]);
        expect(await page.textContent("#status")).toBe("manny_med_mod.gltf: mapped");
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

    test("IK and look-at: the hand follows its dragged target, the limit cone is drawn, goals off give the clip's pose back", async () => {
        await page.click("details#ik-targets > summary");
        // The view was moved by the tests before (the surface fit): back onto the first character.
        await page.click("#ik-frame");
        if (await studio(page, (s) => s.playing())) await page.click("#play");
        await frames(page, 3);
        const clipHand = await studio(page, (s) => s.ik.hand(0, "right"));
        expect(await studio(page, (s) => s.ik.visible("rightHand"))).toBe(false);
        await page.check("#ik-goals");
        expect(await studio(page, (s) => s.ik.visible("rightHand"))).toBe(true);
        // Moved from its default spot (in front of the chest) by a hand's width up, out and forward.
        const spot = await studio(page, (s) => s.ik.target("rightHand"));
        const moved = [spot[0] - 0.06, spot[1] + 0.08, spot[2] + 0.05];
        await page.evaluate((p) => (window.__studio as IStudio).ik.moveTarget("rightHand", p), moved);
        // The test means something: the clip's hand is far from the target.
        expect(distance(clipHand, moved)).toBeGreaterThan(0.1);
        await frames(page, 6);
        expect(distance(await studio(page, (s) => s.ik.hand(0, "right")), moved)).toBeLessThan(0.03);
        // Every character reaches its own goal (the spot relative to its shoulder, scaled by its arms: reachable when the
        // first character's is), a loaded one too (the X Bot, with ../shared/data).
        const count = await studio(page, (s) => s.targets().length);
        const rows: { i: number; side: string; unreachable: boolean; missCm: number }[] = [];
        for (let i = 0; i < count; i++) {
            for (const side of ["left", "right"] as const) {
                const goal = await page.evaluate(([i, side]) => (window.__studio as IStudio).ik.goal(i as number, side as "left"), [i, side]);
                const hand = await page.evaluate(([i, side]) => (window.__studio as IStudio).ik.hand(i as number, side as "left"), [i, side]);
                expect(goal.weight).toBe(1);
                rows.push({ i, side, unreachable: goal.unreachable, missCm: Math.round(1000 * distance(hand, goal.position)) / 10 });
            }
        }
        console.log("hand goals:", JSON.stringify(rows));
        expect(rows.filter((r) => r.unreachable || r.missCm >= 3)).toEqual([]);
        // A real drag with the mouse moves the left-hand target (PointerDragBehavior), and the hand with it.
        const before = await studio(page, (s) => s.ik.target("leftHand"));
        const [x, y] = await studio(page, (s) => s.ik.screen("leftHand"));
        expect(await page.evaluate(([x, y]) => (window.__studio as IStudio).ik.pickAt(x, y).layer, [x, y])).toBe("ik-target-leftHand");
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x + 25, y - 20, { steps: 5 });
        // The behaviour eases the sphere toward the pointer before each frame (its dragDeltaRatio): let some frames run.
        await frames(page, 10);
        await page.mouse.up();
        const after = await studio(page, (s) => s.ik.target("leftHand"));
        expect(distance(before, after)).toBeGreaterThan(0.02);
        await frames(page, 6);
        const left = await studio(page, (s) => s.ik.goal(0, "left"));
        if (!left.unreachable) expect(distance(await studio(page, (s) => s.ik.hand(0, "left")), after)).toBeLessThan(0.03);

        // The limit cone of the right forearm: a closed loop of finite points at the bone's length, its line along the bone.
        expect(await studio(page, (s) => s.ik.cone())).toBeNull();
        await page.selectOption("#ik-cone-bone", "rightLowerArm");
        await frames(page, 3);
        const cone = (await studio(page, (s) => s.ik.cone()))!;
        expect(cone).not.toBeNull();
        expect(cone.finite).toBe(true);
        expect(cone.points).toBeGreaterThan(32);
        expect(cone.radiusMin).toBeGreaterThan(0.99);
        expect(cone.radiusMax).toBeLessThan(1.01);
        expect(cone.directionErrorDeg).toBeLessThan(1);
        expect(cone.inside).toBe(true);
        expect(await page.textContent("#ik-status")).toMatch(/rightLowerArm: inside its cone, held by the limits/);

        // Joint limits: every bone, then none, then the knees and elbows again.
        await page.selectOption("#ik-limits", "all");
        expect(await studio(page, (s) => s.ik.limits(0))).toBeGreaterThan(20);
        await page.selectOption("#ik-limits", "none");
        expect(await studio(page, (s) => s.ik.limits(0))).toBe(0);
        await page.selectOption("#ik-limits", "hinges");
        expect(await studio(page, (s) => s.ik.limits(0))).toBe(4);

        // Look-at: a point well to the side turns the head.
        const head = await studio(page, (s) => s.boneRotation(0, "head"));
        await page.check("#ik-look");
        const look = await studio(page, (s) => s.ik.target("lookAt"));
        await page.evaluate((p) => (window.__studio as IStudio).ik.moveTarget("lookAt", p), [look[0] + 1.2, look[1] + 0.3, look[2]]);
        await frames(page, 6);
        const turned = await studio(page, (s) => s.boneRotation(0, "head"));
        expect(Math.abs(head.reduce((sum, v, i) => sum + v * turned[i], 0))).toBeLessThan(0.99); // more than about 16 degrees
        await page.$eval("#ik-status", (el) => el.scrollIntoView({ block: "end" }));
        await page.screenshot({ path: join(ARTIFACTS, "playground-ik.png") });

        // Both off: the hand goes back to the clip's pose (paused at the same time).
        await page.uncheck("#ik-look");
        await page.uncheck("#ik-goals");
        await frames(page, 4);
        expect(distance(await studio(page, (s) => s.ik.hand(0, "right")), clipHand)).toBeLessThan(0.002);
        expect(await studio(page, (s) => s.ik.visible("rightHand"))).toBe(false);
        await page.selectOption("#ik-cone-bone", "");
        await page.click("#play");
    });

    test("no errors in the console", () => {
        expect(errors).toEqual([]);
    });
});
