import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { GLTF2Export } from "@babylonjs/serializers/glTF/2.0/index.js";
import { BuildHumanoidAvatar, BuildSampleRig, SampleCharacters, SerializeMuscleClipToJson } from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { ConvertFileToMuscleClipsAsync, RetargetFileToGlbAsync } from "../../src/node/index.js";
import { BakeMuscleClipToAnimationGroup } from "../../src/plugin/bake.js";
import { SampleWalkBvh } from "../../src/samples/sampleMotion.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { cli, closeRetargetScratch, expectSameMotionAsync, openRetargetScratch, sampleCharacterGlbAsync, sampleWalkClip } from "../helpers/retargetFixtures.js";

// What `babylon-humanoid retarget` writes: the character with the new animation only, playing as the live animator does.

let dir: string;
beforeAll(() => {
    dir = openRetargetScratch();
});
afterAll(() => closeRetargetScratch(dir));

describe("babylon-humanoid retarget on the built-in samples", () => {
    it("writes the character with only the new animation, playing as the live animator does", async () => {
        const character = join(dir, "unreal.glb");
        await sampleCharacterGlbAsync(1, character);
        const bvh = join(dir, "sample_walk.bvh");
        writeFileSync(bvh, SampleWalkBvh());
        const out = join(dir, "walk-on-unreal.glb");
        const r = cli("retarget", bvh, "--onto", character, "-o", out);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^sample_walk\.bvh -> .*walk-on-unreal\.glb on unreal\.glb: 1 animation, [\d.]+ kB\n/);
        expect(r.stdout).toMatch(/ {2}sample_walk: 67 frames at 30 fps, 2\.20 s; feet within 0\.0 mm of their goals; limbs stretched at most \d\.\d%\n/);
        const [{ clip }] = await ConvertFileToMuscleClipsAsync(bvh);
        await expectSameMotionAsync(clip, character, out);
    });

    it("reads muscle clip files, and a character file's own clips stay out of the output", async () => {
        const character = join(dir, "mixamo.glb");
        await sampleCharacterGlbAsync(0, character);
        // A character that has a clip of its own: write one into the file first.
        const withClip = join(dir, "mixamo-with-clip.glb");
        {
            const scene = new Scene(new NullEngine());
            const rig = BuildSampleRig(SampleCharacters[0]);
            const { nodes } = CreateTransformNodesFromRig(rig, scene);
            BakeMuscleClipToAnimationGroup(sampleWalkClip(0, 1.1), BuildHumanoidAvatar(rig), { targets: nodes, name: "own clip" });
            const data = await GLTF2Export.GLBAsync(scene, "c", { exportWithoutWaitingForScene: true });
            writeFileSync(withClip, new Uint8Array(await (Object.values(data.files)[0] as Blob).arrayBuffer()));
            scene.getEngine().dispose();
        }
        const clip = sampleWalkClip(2, 1.5);
        const source = join(dir, "chibi-walk.muscle.json");
        writeFileSync(source, SerializeMuscleClipToJson(clip));
        const out = join(dir, "chibi-on-mixamo.glb");
        const result = await RetargetFileToGlbAsync(source, withClip, out, { rootMotion: "in-place" });
        expect(result.animations.map((a) => a.name)).toEqual([clip.name]);
        expect(result.bytes).toBe(readFileSync(out).length);
        await expectSameMotionAsync(clip, withClip, out, { rootMotion: "in-place" });
        // --clip must name the muscle file's clip.
        await expect(RetargetFileToGlbAsync(source, character, join(dir, "x.glb"), { clip: "run" })).rejects.toThrow(
            `${source}: a muscle clip file holds one clip, named '${clip.name}', not 'run'`,
        );
        expect(existsSync(join(dir, "x.glb"))).toBe(false);
    });
});

describeWithData("babylon-humanoid retarget on real files", () => {
    it("puts the CMU walk on the X Bot: one animation, its length, the feet where the live animator puts them", async () => {
        const bvh = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const xbot = dataFile("glb/mixamo_xbot.glb");
        const out = join(dir, "cmu_walk-on-xbot.glb");
        const r = cli("retarget", bvh, "--onto", xbot, "-o", out);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/cmu_walk\.bvh -> .* on mixamo_xbot\.glb: 1 animation, [\d.]+ MB/);
        // The file's T-pose frame 0 is left out (docs/clips.md, step 1); --keep-end-poses keeps it.
        expect(r.stdout).toMatch(/cmu_walk: 343 frames at 120 fps, 2\.85 s; feet within [\d.]+ mm of their goals; limbs stretched at most [\d.]+%/);
        const whole = cli("retarget", bvh, "--onto", xbot, "-o", join(dir, "cmu_walk-whole.glb"), "--keep-end-poses");
        expect([whole.code, whole.stderr]).toEqual([0, ""]);
        expect(whole.stdout).toMatch(/cmu_walk: 344 frames at 120 fps, 2\.86 s;/);
        // The character went out with its materials.
        const bytes = readFileSync(out);
        const json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString("utf8"));
        expect(json.animations).toHaveLength(1);
        expect(json.materials).toHaveLength(2);
        expect(json.skins).toHaveLength(1);
        const [{ clip }] = await ConvertFileToMuscleClipsAsync(bvh);
        await expectSameMotionAsync(clip, xbot, out);
        expect(readdirSync(dir).filter((f) => f.startsWith("."))).toEqual([]);
        // Its capture floor tilts: leveled as convert levels it, with the warning.
        expect(r.stdout).toMatch(/cmu_walk: the floor under the take tilts 0\.9\d degrees/);
    });
});
