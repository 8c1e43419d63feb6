import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SerializeMuscleClipToJson } from "../../src/index.js";
import { RetargetFileToGlbAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { EditGlbJson } from "../helpers/glbJson.js";
import {
    closeRetargetScratch,
    expectUniqueNodeNames,
    openRetargetScratch,
    readGlbJson,
    sampleCharacterGlbAsync,
    sampleWalkClip,
} from "../helpers/retargetFixtures.js";

// The node names in what `babylon-humanoid retarget` writes: every node named, none twice.

let dir: string;
beforeAll(() => {
    dir = openRetargetScratch();
});
afterAll(() => closeRetargetScratch(dir));

describe("babylon-humanoid retarget on the built-in samples", () => {
    it("names every node uniquely: unnamed nodes node<their input index>, unique names kept, repeated ones suffixed", async () => {
        const sample = join(dir, "names-mixamo.glb");
        await sampleCharacterGlbAsync(0, sample);
        const exported = readGlbJson(sample).nodes!;
        const at = (name: string): number => exported.findIndex((n) => n.name === `mixamorig:${name}`);
        const [unnamed, plain, squatter, tipA, tipB, tip2] = [
            "LeftHandThumb4",
            "LeftHandRing4",
            "RightHandThumb4",
            "LeftHandIndex4",
            "RightHandIndex4",
            "LeftHandMiddle4",
        ].map(at);
        expect([unnamed, plain, squatter, tipA, tipB, tip2].every((i) => i >= 0)).toBe(true);
        // The character: two nodes without names, a named node squatting on one's loader name, two nodes sharing a name, one named as its suffix would be.
        const character = join(dir, "names-edited.glb");
        EditGlbJson<{ nodes: Array<{ name?: string }> }>(
            sample,
            (json) => {
                delete json.nodes[unnamed].name;
                delete json.nodes[plain].name;
                json.nodes[squatter].name = `node${unnamed}`;
                json.nodes[tipA].name = "Tip";
                json.nodes[tipB].name = "Tip";
                json.nodes[tip2].name = "Tip_2";
            },
            character,
        );
        const input = readGlbJson(character);
        const source = join(dir, "names-walk.muscle.json");
        writeFileSync(source, SerializeMuscleClipToJson(sampleWalkClip(0)));
        const out = join(dir, "names-out.glb");
        await RetargetFileToGlbAsync(source, character, out);
        const written = readGlbJson(out);
        const names = expectUniqueNodeNames(written);
        // Pair the nodes by their place in the hierarchy (same tree, children in the same order).
        const pairs = new Map<number, number>();
        const walk = (a: readonly number[], b: readonly number[]): void => {
            expect(b).toHaveLength(a.length);
            a.forEach((i, k) => {
                pairs.set(i, b[k]);
                walk(input.nodes![i].children ?? [], written.nodes![b[k]].children ?? []);
            });
        };
        walk([0], [0]);
        expect(pairs.size).toBe(input.nodes!.length);
        const nameOf = (i: number): string => names[pairs.get(i)!];
        expect(nameOf(plain)).toBe(`node${plain}`);
        expect(nameOf(squatter)).toBe(`node${unnamed}`);
        expect(nameOf(unnamed)).toBe(`node${unnamed}_2`);
        expect([nameOf(tipA), nameOf(tipB), nameOf(tip2)]).toEqual(tipA < tipB ? ["Tip", "Tip_3", "Tip_2"] : ["Tip_3", "Tip", "Tip_2"]);
        const changed = new Set([unnamed, plain, squatter, tipA, tipB, tip2]);
        input.nodes!.forEach((n, i) => {
            if (!changed.has(i)) expect(nameOf(i)).toBe(n.name);
        });
    });
});

describeWithData("babylon-humanoid retarget on real files", () => {
    it("names every node of RiggedFigure (no names in the file) uniquely, each joint node<its index in the input>", async () => {
        const figure = dataFile("glb/khronos_RiggedFigure.glb");
        const input = readGlbJson(figure);
        expect(input.nodes!.filter((n) => n.name !== undefined)).toEqual([]);
        const source = join(dir, "walk-for-figure.muscle.json");
        writeFileSync(source, SerializeMuscleClipToJson(sampleWalkClip(0)));
        const out = join(dir, "walk-on-figure.glb");
        await RetargetFileToGlbAsync(source, figure, out);
        const written = readGlbJson(out);
        const names = expectUniqueNodeNames(written);
        // Joints pair up by their place in the skin: the exporter writes them in the loader's bone order, the input skin's order.
        const inputJoints = input.skins![0].joints;
        const writtenJoints = written.skins![0].joints;
        expect(writtenJoints.map((j) => names[j])).toEqual(inputJoints.map((j) => `node${j}`));
        // Every input node is there under its index; the skinned mesh keeps its node's name.
        expect(input.nodes!.map((_, i) => `node${i}`).filter((n) => !names.includes(n))).toEqual([]);
        const meshNode = input.nodes!.findIndex((n) => n.mesh !== undefined);
        expect(written.nodes!.filter((n) => n.mesh !== undefined).map((n) => n.name)).toEqual([`node${meshNode}`]);
    });
});
