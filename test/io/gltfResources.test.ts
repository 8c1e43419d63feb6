import { readFileSync } from "node:fs";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { EmbedGltfResources, HumanBoneNames, LoadHumanoidCharacterAsync, ListGltfResources } from "../../src/index.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { errorOfAsync } from "../helpers/errors.js";

// A .gltf given with its .bin and textures as bytes (what a browser has after a drop or a file
// picker) made self-contained, and loaded from bytes.

const GLTF = "glb/kaykit_mannequin/manny_med_mod.gltf";

/** A tiny glTF text naming other files. */
const textGltf = (buffers: object[], images: object[] = []): Uint8Array =>
    new TextEncoder().encode(JSON.stringify({ asset: { version: "2.0" }, nodes: [{ name: "a" }], buffers, images }));

describe("EmbedGltfResources", () => {
    it("puts each buffer and image given into the file, found by its path or its file name, decoded, case aside", () => {
        const bytes = textGltf([{ uri: "data/My%20Mesh.bin", byteLength: 3 }], [{ uri: "tex/Skin.PNG" }, { uri: "data:image/png;base64,AAAA" }]);
        const out = EmbedGltfResources(
            bytes,
            "x.gltf",
            new Map([
                ["My Mesh.bin", new Uint8Array([1, 2, 3])],
                ["skin.png", new Uint8Array([9])],
            ]),
        );
        const json = JSON.parse(new TextDecoder().decode(out.bytes)) as { buffers: Array<{ uri: string }>; images: Array<{ uri: string }> };
        expect(json.buffers[0].uri).toBe("data:application/octet-stream;base64,AQID");
        expect(json.images.map((i) => i.uri)).toEqual(["data:image/png;base64,CQ==", "data:image/png;base64,AAAA"]);
        expect(out.used).toEqual(["data/My Mesh.bin", "tex/Skin.PNG"]);
        expect(out.missingImages).toEqual([]);
        expect(ListGltfResources(bytes, "x.gltf")).toEqual({ buffers: ["data/My Mesh.bin"], images: ["tex/Skin.PNG"] });
    });

    it("names every missing buffer at once; a missing image becomes a blank one", () => {
        const bytes = textGltf([{ uri: "a.bin" }, { uri: "b.bin" }], [{ uri: "t.png" }]);
        expect(() => EmbedGltfResources(bytes, "x.gltf", new Map())).toThrow(
            expect.objectContaining({
                code: "FILE_READ",
                message: "x.gltf: its data is in a.bin, b.bin, not among the files given: give them together with the .gltf (or use a .glb)",
            }),
        );
        const out = EmbedGltfResources(
            bytes,
            "x.gltf",
            new Map([
                ["a.bin", new Uint8Array(1)],
                ["b.bin", new Uint8Array(1)],
            ]),
        );
        expect(out.missingImages).toEqual(["t.png"]);
        const image = (JSON.parse(new TextDecoder().decode(out.bytes)) as { images: Array<{ uri: string }> }).images[0].uri;
        expect(image).toMatch(/^data:image\/png;base64,/);
        // Left as it was when images are not asked for.
        expect(
            EmbedGltfResources(
                bytes,
                "x.gltf",
                new Map([
                    ["a.bin", new Uint8Array(1)],
                    ["b.bin", new Uint8Array(1)],
                ]),
                { images: false },
            ).missingImages,
        ).toEqual([]);
    });

    it("refuses a buffer shorter than the file declares, and a file that is not glTF JSON", () => {
        expect(() => EmbedGltfResources(textGltf([{ uri: "a.bin", byteLength: 8 }]), "x.gltf", new Map([["a.bin", new Uint8Array(4)]]))).toThrow(
            expect.objectContaining({ code: "GLTF_PARSE", message: "x.gltf: buffers[0].byteLength is 8, but 'a.bin' holds 4 bytes" }),
        );
        expect(() => EmbedGltfResources(new TextEncoder().encode("[1, 2"), "y.gltf", new Map())).toThrow(expect.objectContaining({ code: "GLTF_PARSE" }));
        expect(() => EmbedGltfResources(new TextEncoder().encode("[]"), "y.gltf", new Map())).toThrow(/y\.gltf: not glTF JSON/);
    });
});

describeWithData("a .gltf with its .bin and texture, from bytes (KayKit's mannequin)", () => {
    let scene: Scene;
    beforeAll(() => {
        registerBuiltInLoaders();
        scene = new Scene(new NullEngine());
    });
    afterAll(() => scene.getEngine().dispose());

    it("loads made self-contained, mapped as from the file on disk", async () => {
        const dir = dataFile("glb/kaykit_mannequin");
        const bytes = new Uint8Array(readFileSync(dataFile(GLTF)));
        const listed = ListGltfResources(bytes, "manny_med_mod.gltf");
        expect(listed.buffers).toEqual(["manny_med_mod.bin"]);
        expect(listed.images.length).toBeGreaterThan(0);
        const given = new Map([...listed.buffers, ...listed.images].map((p) => [p, new Uint8Array(readFileSync(`${dir}/${p}`))]));
        const embedded = EmbedGltfResources(bytes, "manny_med_mod.gltf", given);
        expect(embedded.missingImages).toEqual([]);
        const character = await LoadHumanoidCharacterAsync(embedded.bytes, "manny_med_mod.gltf", scene);
        const fromDisk = await LoadHumanoidAvatarFromFileAsync(dataFile(GLTF));
        const names = (getName: (b: number) => string | null): (string | null)[] => HumanBoneNames.map((_, b) => getName(b));
        expect(names((b) => character.avatar.rig.joints[character.avatar.getJoint(b as never)]?.name ?? null)).toEqual(
            names((b) => fromDisk.avatar.rig.joints[fromDisk.avatar.getJoint(b as never)]?.name ?? null),
        );
        expect(character.avatar.getJoint(0 as never)).toBeGreaterThanOrEqual(0);
        character.container.dispose();
        fromDisk.loaded.dispose();
    });

    it("refuses the .gltf alone with one error naming its .bin", async () => {
        const bytes = new Uint8Array(readFileSync(dataFile(GLTF)));
        const e = await errorOfAsync(LoadHumanoidCharacterAsync(bytes, "manny_med_mod.gltf", scene));
        expect(e.code).toBe("FILE_READ");
        expect(e.message).toBe(
            "manny_med_mod.gltf: its data is in manny_med_mod.bin, outside the bytes given: put it in the file with EmbedGltfResources (or use a .glb)",
        );
        expect(scene.meshes.length).toBe(0);
    });

    it("loads with its texture left outside, shown blank, fetching nothing", async () => {
        const bytes = new Uint8Array(readFileSync(dataFile(GLTF)));
        const bin = new Uint8Array(readFileSync(dataFile("glb/kaykit_mannequin/manny_med_mod.bin")));
        const embedded = EmbedGltfResources(bytes, "manny_med_mod.gltf", new Map([["manny_med_mod.bin", bin]]), { images: false });
        expect(ListGltfResources(embedded.bytes, "manny_med_mod.gltf")).toEqual({ buffers: [], images: ["mannequin_texture.png"] });
        const character = await LoadHumanoidCharacterAsync(embedded.bytes, "manny_med_mod.gltf", scene);
        expect(character.avatar.getJoint(0 as never)).toBeGreaterThanOrEqual(0);
        character.container.dispose();
    });
});
