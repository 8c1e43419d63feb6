import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { BuildHumanoidAvatar } from "../../src/index.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { errorOfAsync } from "../helpers/errors.js";
import { PlainHumanoid } from "../helpers/rigs.js";

let dir: string;
beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bh-load-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bad options", () => {
    it("rejects an unknown T-pose mode", () => {
        expect(() => BuildHumanoidAvatar(PlainHumanoid(), { tPose: "bogus" as never })).toThrow(/tPose must be "auto", "rest" or "strict"/);
    });
});

describeWithData("glTF files that Babylon's loader rejects", () => {
    /** The KayKit mannequin's JSON, edited, written beside a path to its real buffer. */
    function variant(name: string, edit: (json: Record<string, unknown>) => void): string {
        const src = dataFile("glb/kaykit_mannequin/manny_med_mod.gltf");
        const json = JSON.parse(readFileSync(src, "utf8"));
        json.buffers[0].uri = relative(dir, dataFile("glb/kaykit_mannequin/manny_med_mod.bin"));
        edit(json);
        const file = join(dir, name);
        writeFileSync(file, JSON.stringify(json));
        return file;
    }

    it("gives one short error naming the file for a node cycle, and the process lives on", async () => {
        const file = variant("cycle.gltf", (j) => ((j.nodes as Array<{ children?: number[] }>)[0].children = [0]));
        const e = await errorOfAsync(LoadRigFromFileAsync(file));
        expect(e.code).toBe("GLTF_PARSE");
        // Found by our own check of the hierarchy, before Babylon walks it.
        expect(e.message.startsWith(`${file}: nodes[0].children[0] is the node itself (a cycle)`)).toBe(true);
        expect(e.message.length).toBeLessThan(400);
        await new Promise((r) => setTimeout(r, 200)); // an unhandled rejection would end the test run here
    });

    it("names a missing external buffer", async () => {
        const file = variant("nobin.gltf", (j) => ((j.buffers as Array<{ uri: string }>)[0].uri = "missing.bin"));
        const e = await errorOfAsync(LoadRigFromFileAsync(file));
        expect(e.code).toBe("FILE_READ");
        expect(e.message).toBe(`${file}: its buffer 'missing.bin' cannot be read (no such file)`);
    });

    it("leaves Babylon's logger as it found it", async () => {
        const warn = Logger.Warn;
        const log = Logger.Log;
        const loaded = await LoadRigFromFileAsync(dataFile("glb/khronos_RiggedFigure.glb"));
        loaded.dispose();
        expect(Logger.Warn).toBe(warn);
        expect(Logger.Log).toBe(log);
    });
});
