import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import webpack, { type Configuration, type Stats } from "webpack";
import { EsbuildPlugin } from "esbuild-loader";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
import { dataFile, HAS_SHARED_DATA } from "../helpers/data.js";

/**
 * A consumer of the published package: `npm pack`, a fresh project with the tarball, its
 * dependencies and the peer dependencies only, offline (see beforeAll), then README's Node quick
 * start run there and its browser quick start bundled with webpack for the browser.
 */

const ROOT = resolve(".");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
};
/** Most bytes of the minified animator-alone bundle (194 KiB when first measured, 306,326 bytes on 2026-12-08): a change that pulls in a large part of Babylon fails. */
const ANIMATOR_BUNDLE_MAX = 300 * 1024;
/** Node built-ins that must never reach a browser bundle. */
const NODE_ONLY = ["fs", "path", "worker_threads", "child_process", "os", "crypto", "url", "module"];

/** The first ```ts block of README.md that contains `marker`. */
function readmeBlock(marker: string): string {
    const blocks = [...README.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    const block = blocks.find((b) => b.includes(marker));
    if (!block) throw new Error(`README.md has no ts block with ${marker}`);
    return block;
}

function run(cmd: string, args: string[], cwd: string): string {
    return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });
}

/** Bundles `entry` of the consumer project for the browser (production, minified), into `out`. */
function bundle(project: string, entry: string, out: string): Promise<Stats> {
    const config: Configuration = {
        mode: "production",
        context: project,
        target: "web",
        entry: join(project, entry),
        output: { path: join(project, out), filename: "main.js" },
        resolve: { modules: [join(project, "node_modules"), "node_modules"] },
        optimization: { minimizer: [new EsbuildPlugin({ target: "es2022" })] },
        performance: { hints: false },
    };
    return new Promise((ok, fail) =>
        webpack(config, (err, stats) => {
            if (err) return fail(err);
            if (!stats || stats.hasErrors()) return fail(new Error(stats?.toString({ all: false, errors: true }) ?? "no stats"));
            ok(stats);
        }),
    );
}

/** Every module path in a bundle's stats, and the bytes of its JavaScript files. */
function measure(project: string, out: string, stats: Stats): { modules: string[]; bytes: number; gzip: number; babylonShare: number } {
    const json = stats.toJson({ all: false, modules: true, nestedModules: true, modulesSpace: Infinity, nestedModulesSpace: Infinity });
    const modules: string[] = [];
    let babylon = 0;
    let total = 0;
    const walk = (ms: typeof json.modules): void =>
        ms?.forEach((m) => {
            if (m.orphan) return; // modules in no chunk: shaken out of the bundle
            if (m.modules) return walk(m.modules);
            modules.push(m.name ?? "");
            total += m.size ?? 0;
            if ((m.name ?? "").includes("node_modules/@babylonjs/")) babylon += m.size ?? 0;
        });
    walk(json.modules);
    const dir = join(project, out);
    const js = readdirSync(dir).filter((f) => f.endsWith(".js"));
    const bytes = js.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    const gzip = js.reduce((n, f) => n + gzipSync(readFileSync(join(dir, f))).length, 0);
    return { modules, bytes, gzip, babylonShare: total > 0 ? babylon / total : 0 };
}

describe("a consumer of the npm package", () => {
    let work: string;
    let project: string;
    beforeAll(() => {
        work = mkdtempSync(join(tmpdir(), "bh-consumer-"));
        project = join(work, "app");
        // dist/ is built by `npm run test:e2e` (npm run build) before the tests; prepack would build it again.
        const packed = JSON.parse(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT)) as Array<{
            filename: string;
            files: Array<{ path: string }>;
        }>;
        const tarball = join(work, packed[0].filename);
        // Installed as npm installs a tarball (its files unpacked under node_modules/<name>), with no
        // registry: its dependencies and peers linked from this repository's node_modules (where
        // `npm ci` put them), and nothing else, so an import the package does not declare fails.
        const installed = join(project, "node_modules", PKG.name);
        mkdirSync(installed, { recursive: true });
        run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"], work);
        writeFileSync(
            join(project, "package.json"),
            JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { [PKG.name]: `file:${tarball}` } }, null, 2),
        );
        for (const dep of [...Object.keys(PKG.dependencies), ...Object.keys(PKG.peerDependencies)]) {
            mkdirSync(dirname(join(project, "node_modules", dep)), { recursive: true });
            symlinkSync(join(ROOT, "node_modules", dep), join(project, "node_modules", dep), "dir");
        }
    }, 120_000);
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it("has every file its export map and bin name", () => {
        const installed = join(project, "node_modules", PKG.name);
        const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
            main: string;
            types: string;
            bin: Record<string, string>;
            exports: Record<string, string | Record<string, string>>;
        };
        const targets = [pkg.main, pkg.types, ...Object.values(pkg.bin)];
        for (const entry of Object.values(pkg.exports)) targets.push(...(typeof entry === "string" ? [entry] : Object.values(entry)));
        const missing = targets.filter((t) => !statSync(join(installed, t), { throwIfNoEntry: false })?.isFile());
        expect(missing).toEqual([]);
        // The bin runs from the installed package.
        expect(run(process.execPath, [join(installed, pkg.bin["babylon-humanoid"]), "--version"], project).trim()).toBe(PKG.version);
    });

    it("runs README's Node quick start", () => {
        const block = readmeBlock('from "babylon-humanoid/node"');
        // The README's avatar.vrm: the public VRM 1.0 sample when it is there, else a BVH the package reads as well.
        let file = join(project, "walk.bvh");
        if (HAS_SHARED_DATA) file = dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm");
        else writeFileSync(file, SampleWalkBvh());
        expect(block).toContain('"avatar.vrm"');
        const script = `${block.replace('"avatar.vrm"', JSON.stringify(file)).replace("loaded.dispose();", "")}
console.log(JSON.stringify({ bones: Object.keys(avatar.toBoneMapJson()).length, hips: avatar.getJointLabel(0) }));
loaded.dispose();
`;
        writeFileSync(join(project, "node-quick-start.mjs"), script);
        const out = JSON.parse(run(process.execPath, ["node-quick-start.mjs"], project).trim().split("\n").pop()!) as { bones: number; hips: string };
        expect(out.bones).toBeGreaterThanOrEqual(15);
        expect(out.hips.length).toBeGreaterThan(0);
    });

    it("bundles README's browser quick start for the browser, with no Node-only module, and the animator alone small", async () => {
        const block = readmeBlock('from "babylon-humanoid"');
        writeFileSync(
            join(project, "browser-quick-start.js"),
            `/* the README's quick start; scene comes from the app */\nconst scene = globalThis.scene;\n${block}\nglobalThis.out = { avatar, saved };\n`,
        );
        // The animator alone: build an avatar from a character's nodes and play a muscle clip on it.
        writeFileSync(
            join(project, "animator.js"),
            `import { BindRigToTransformNode, BuildHumanoidAvatar, HumanoidAnimator, ParseMuscleClip, RegisterHumanoidPlugin } from "babylon-humanoid";
// Kept by the app (an unused export would be shaken out with everything it imports).
globalThis.playHumanoidClip = function play(scene, root, clipBytes) {
    const character = BindRigToTransformNode(root);
    RegisterHumanoidPlugin(scene);
    const animator = new HumanoidAnimator(BuildHumanoidAvatar(character.rig), character.nodes, { scene });
    animator.play(ParseMuscleClip(clipBytes, "clip.muscle.bin"), { loop: true });
    return animator;
};
`,
        );
        const sizes: Record<string, { bytes: number; gzip: number; babylonShare: number }> = {};
        for (const [entry, out] of [
            ["browser-quick-start.js", "dist-quick-start"],
            ["animator.js", "dist-animator"],
        ]) {
            const m = measure(project, out, await bundle(project, entry, out));
            const nodeOnly = m.modules.filter((name) => NODE_ONLY.some((n) => new RegExp(`(^|[ /])(node:)?${n}(\\.js)?$`).test(name)));
            expect({ entry, nodeOnly }).toEqual({ entry, nodeOnly: [] });
            expect(m.modules.some((name) => name.includes(`node_modules/${PKG.name}/dist/lib/`))).toBe(true);
            // Nothing from the Node half of the package.
            expect(m.modules.filter((name) => /\/dist\/lib\/(node|cli)\//.test(name))).toEqual([]);
            sizes[entry] = { bytes: m.bytes, gzip: m.gzip, babylonShare: m.babylonShare };
        }
        process.stdout.write(
            `consumer bundles (minified): quick start ${(sizes["browser-quick-start.js"].bytes / 1024).toFixed(0)} KiB (${(sizes["browser-quick-start.js"].gzip / 1024).toFixed(0)} KiB gzip, Babylon ${(100 * sizes["browser-quick-start.js"].babylonShare).toFixed(0)}% of its source), animator alone ${(sizes["animator.js"].bytes / 1024).toFixed(0)} KiB (${(sizes["animator.js"].gzip / 1024).toFixed(0)} KiB gzip, Babylon ${(100 * sizes["animator.js"].babylonShare).toFixed(0)}% of its source)\n`,
        );
        expect(sizes["animator.js"].bytes).toBeLessThan(ANIMATOR_BUNDLE_MAX);
    }, 120_000);
});
