import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertBvhToMuscleClip,
    CreateReferenceRigPose,
    CreateRigFromBvh,
    DecodeHumanPose,
    HumanPose,
    MuscleClipSampler,
    ParseBvh,
    SampleCharacters,
} from "../../src/index.js";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
import { ARTIFACTS, LaunchChromiumAsync } from "./browser.js";
import { ServeDirectoryAsync } from "./server.js";

const BABYLON_UMD = resolve("node_modules/babylonjs/babylon.js");
const CHARACTER = "sample-chibi-unnamed";
const SAMPLE_SECONDS = 0.5;

/**
 * A page with nothing but script tags, as a Babylon Playground user or a plain HTML page has:
 * Babylon's own UMD build (the global BABYLON), then ours (the global BabylonHumanoid). It builds a
 * character's joints as TransformNodes, converts a BVH walk in the page and plays it with a
 * HumanoidAnimator in the render loop.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><style>html,body,canvas{margin:0;width:100%;height:100%}</style></head>
<body><canvas id="canvas"></canvas>
<script src="babylon.js"></script>
<script src="babylon-humanoid.js"></script>
<script>
(async () => {
    const H = BabylonHumanoid;
    const engine = new BABYLON.Engine(document.getElementById("canvas"), true, { preserveDrawingBuffer: true });
    const scene = new BABYLON.Scene(engine);
    new BABYLON.ArcRotateCamera("camera", -Math.PI / 2, Math.PI / 2.3, 3, new BABYLON.Vector3(0, 0.6, 0), scene);
    new BABYLON.HemisphericLight("light", new BABYLON.Vector3(0, 1, 0), scene);
    const rig = H.BuildSampleRig(H.SampleCharacters.find((c) => c.name === ${JSON.stringify(CHARACTER)}));
    const rest = H.GetRigRestPose(rig);
    const nodes = rig.joints.map((j, i) => {
        const node = new BABYLON.TransformNode(j.name || "joint" + i, scene);
        node.position.copyFrom(rest.positions[i]);
        node.rotationQuaternion = rest.rotations[i].clone();
        const box = BABYLON.MeshBuilder.CreateBox("box" + i, { size: 0.05 }, scene);
        box.parent = node;
        return node;
    });
    rig.joints.forEach((j, i) => { if (j.parent >= 0) nodes[i].parent = nodes[j.parent]; });
    const avatar = H.BuildHumanoidAvatar(rig);
    const bvhText = await (await fetch("walk.bvh")).text();
    const clip = H.ConvertBvhToMuscleClip(H.CreateRigFromBvh(H.ParseBvh(bvhText, "walk.bvh")));
    const decoded = H.DecodeHumanPose(avatar, new H.MuscleClipSampler(clip).sampleToRef(${SAMPLE_SECONDS}, new H.HumanPose()), H.CreateReferenceRigPose(avatar));
    H.RegisterHumanoidPlugin(scene);
    const animator = new H.HumanoidAnimator(avatar, nodes, { scene, rootMotion: "in-place" });
    const state = animator.play(clip, { loop: true });
    const thigh = nodes[avatar.getJoint(H.HumanBone.LeftUpperLeg)];
    window.__umd = {
        version: BABYLON.Engine.Version,
        exports: Object.keys(H).length,
        frames: clip.frameCount,
        decoded: decoded.rotations.map((q) => [q.x, q.y, q.z, q.w]),
        thigh: () => { const q = thigh.rotationQuaternion; return [q.x, q.y, q.z, q.w]; },
        time: () => state.timeSeconds,
    };
    engine.runRenderLoop(() => scene.render());
    window.__ready = true;
})().catch((e) => { console.error(String(e && e.stack || e)); window.__failed = String(e); });
</script></body></html>`;

interface IUmdPage {
    version: string;
    exports: number;
    frames: number;
    decoded: number[][];
    thigh(): number[];
    time(): number;
}

/** The angle between two quaternions (degrees), up to sign. */
function angleDeg(a: readonly number[], b: readonly number[]): number {
    const dot = Math.min(1, Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]));
    return (2 * Math.acos(dot) * 180) / Math.PI;
}

describe.each(["babylon-humanoid.js", "babylon-humanoid.min.js"])("the UMD build %s from script tags, beside Babylon's own UMD build", (file) => {
    const UMD = resolve("dist/umd", file);
    let browser: Browser;
    let server: { url: string; close: () => Promise<void> };
    let page: Page;
    let dir: string;
    const errors: string[] = [];

    beforeAll(async () => {
        if (!existsSync(UMD)) throw new Error("build the UMD files first: npm run build:umd (npm run build and npm run test:e2e do)");
        dir = mkdtempSync(join(tmpdir(), "bh-umd-"));
        copyFileSync(BABYLON_UMD, join(dir, "babylon.js"));
        copyFileSync(UMD, join(dir, "babylon-humanoid.js"));
        writeFileSync(join(dir, "walk.bvh"), SampleWalkBvh());
        writeFileSync(join(dir, "index.html"), PAGE);
        server = await ServeDirectoryAsync(dir);
        browser = await LaunchChromiumAsync();
        page = await browser.newPage({ viewport: { width: 640, height: 480 } });
        page.on("console", (m) => {
            if (m.type() === "error") errors.push(m.text());
        });
        page.on("pageerror", (e) => errors.push(String(e)));
        await page.goto(server.url);
        await page.waitForFunction(
            () => (window as unknown as { __ready?: boolean; __failed?: string }).__ready || (window as unknown as { __failed?: string }).__failed,
            null,
            {
                timeout: 60000,
            },
        );
    });

    afterAll(async () => {
        await browser?.close();
        await server?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const umd = <T>(f: (u: IUmdPage) => T): Promise<T> => page.evaluate(`(${f.toString()})(window.__umd)`) as Promise<T>;

    it("loads under the global BabylonHumanoid, using the global BABYLON, and computes what the ES modules compute", async () => {
        expect(errors).toEqual([]);
        const info = await umd((u) => ({ version: u.version, exports: u.exports, frames: u.frames, decoded: u.decoded }));
        // The Babylon in the page is the UMD package's (the global BABYLON), the version installed.
        expect(info.version).toBe((JSON.parse(readFileSync(resolve("node_modules/babylonjs/package.json"), "utf8")) as { version: string }).version);
        expect(info.exports).toBeGreaterThan(100);
        // The same conversion, sampling and decoding here, from the sources.
        const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters.find((c) => c.name === CHARACTER)!));
        const clip = ConvertBvhToMuscleClip(CreateRigFromBvh(ParseBvh(SampleWalkBvh(), "walk.bvh")));
        expect(info.frames).toBe(clip.frameCount);
        const decoded = DecodeHumanPose(avatar, new MuscleClipSampler(clip).sampleToRef(SAMPLE_SECONDS, new HumanPose()), CreateReferenceRigPose(avatar));
        expect(info.decoded).toHaveLength(decoded.rotations.length);
        let worst = 0;
        decoded.rotations.forEach((q, i) => (worst = Math.max(worst, angleDeg(info.decoded[i], [q.x, q.y, q.z, q.w]))));
        expect(worst).toBeLessThan(1e-3);
    });

    it("plays the clip on the character in the render loop: time runs, the thigh swings, the picture changes", async () => {
        const samples: Array<{ time: number; thigh: number[] }> = [];
        for (let i = 0; i < 8; i++) {
            samples.push(await umd((u) => ({ time: u.time(), thigh: u.thigh() })));
            await page.waitForTimeout(150);
        }
        expect(samples[samples.length - 1].time).not.toBe(samples[0].time);
        let swing = 0;
        for (const s of samples) swing = Math.max(swing, angleDeg(s.thigh, samples[0].thigh));
        expect(swing).toBeGreaterThan(5);
        mkdirSync(ARTIFACTS, { recursive: true });
        const a = await page.screenshot({ path: join(ARTIFACTS, `umd-walk-${file.replace(/\.js$/, "")}.png`) });
        await page.waitForTimeout(300);
        const b = await page.screenshot();
        expect(a.equals(b)).toBe(false);
        expect(errors).toEqual([]);
    });
});
