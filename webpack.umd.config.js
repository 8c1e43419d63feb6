import path from "node:path";
import { fileURLToPath } from "node:url";
import { EsbuildPlugin } from "esbuild-loader";

const dirname = path.dirname(fileURLToPath(import.meta.url));

/** The UMD package each `@babylonjs/<name>` module is part of (CommonJS/AMD name; in a page all of them fill the global `BABYLON`). */
const UMD_PACKAGES = { core: "babylonjs", loaders: "babylonjs-loaders", serializers: "babylonjs-serializers" };

/**
 * Every `@babylonjs/...` import is Babylon's own UMD build: in a page, the global `BABYLON` that
 * babylon.js (and babylonjs.loaders.js...) define, so `import { Vector3 } from
 * "@babylonjs/core/Maths/math.vector.js"` reads `BABYLON.Vector3`. Nothing of Babylon is bundled.
 */
function babylonExternals({ request }, callback) {
    const m = /^@babylonjs\/([^/]+)\//.exec(request ?? "");
    if (!m) return callback();
    const umd = UMD_PACKAGES[m[1]];
    if (!umd) return callback(new Error(`${request}: no Babylon UMD package is known for @babylonjs/${m[1]}`));
    return callback(null, { root: "BABYLON", commonjs: umd, commonjs2: umd, amd: umd });
}

/** One UMD file: the browser entry (src/index.ts) under the global `BabylonHumanoid`. */
const umd = (filename, minimize) => ({
    mode: "production",
    entry: "./src/index.ts",
    target: ["web", "es2022"],
    output: {
        path: path.resolve(dirname, "dist/umd"),
        filename,
        library: { name: "BabylonHumanoid", type: "umd" },
        globalObject: "globalThis",
    },
    externals: babylonExternals,
    // TS sources import "./x.js"; resolve that to the .ts file.
    resolve: { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } },
    module: { rules: [{ test: /\.ts$/, exclude: /node_modules/, use: { loader: "esbuild-loader", options: { target: "es2022" } } }] },
    devtool: "source-map",
    // format undefined: esbuild minifies the file as it is; its default for web targets (iife) would
    // wrap the UMD preamble as a CommonJS module, where `exports` exists and `require` does not.
    optimization: { minimize, minimizer: [new EsbuildPlugin({ target: "es2022", format: undefined })] },
    performance: { hints: false },
});

/** `npm run build` makes both: dist/umd/babylon-humanoid.js (readable) and babylon-humanoid.min.js. */
export default [umd("babylon-humanoid.js", false), umd("babylon-humanoid.min.js", true)];
