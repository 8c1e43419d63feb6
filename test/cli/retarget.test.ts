import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "@babylonjs/core/Animations/animatable.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import type { AssetContainer } from "@babylonjs/core/assetContainer.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { GLTFLoaderAnimationStartMode } from "@babylonjs/loaders/glTF/glTFFileLoader.pure.js";
import { GLTF2Export } from "@babylonjs/serializers/glTF/2.0/index.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBone,
    HumanoidAnimator,
    HumanoidError,
    ReadGltfJson,
    SampleCharacters,
    SerializeMuscleClipToJson,
    type IGltfDocument,
    type MuscleClip,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync, RetargetFileToGlbAsync } from "../../src/node/index.js";
import { BakeMuscleClipToAnimationGroup, CreateBakeStats } from "../../src/plugin/bake.js";
import { SampleWalkBvh, SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { EditGlbJson } from "../helpers/glbJson.js";

/** Runs the CLI from source (tsx), as `babylon-humanoid ...`. */
function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { encoding: "utf8", cwd: process.cwd() });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Babylon's loader turns glTF seconds into frames at this rate. */
const GLTF_LOADER_FPS = 60;
/** Feet of the written file and of the live animator agree within this (metres). */
const SAME_MOTION_METRES = 1e-3;

let dir: string;
const savedLogger = { log: Logger.Log, warn: Logger.Warn };
beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bh-retarget-"));
    registerBuiltInLoaders();
    Logger.Log = () => undefined;
    Logger.Warn = () => undefined;
});
afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    Logger.Log = savedLogger.log;
    Logger.Warn = savedLogger.warn;
});

/** World position of a node, its ancestors' world matrices refreshed top-down. */
function worldOf(node: TransformNode): Vector3 {
    const chain: TransformNode[] = [];
    for (let n: TransformNode | null = node; n; n = n.parent as TransformNode | null) chain.unshift(n);
    for (const n of chain) n.computeWorldMatrix(true);
    return node.getAbsolutePosition().clone();
}

/** A sample character (no mesh) written as a GLB: the nodes of its rig under a root, exported by Babylon. */
async function sampleCharacterGlbAsync(index: number, file: string): Promise<void> {
    const scene = new Scene(new NullEngine());
    try {
        CreateTransformNodesFromRig(BuildSampleRig(SampleCharacters[index]), scene);
        const data = await GLTF2Export.GLBAsync(scene, "character", { exportWithoutWaitingForScene: true });
        writeFileSync(file, new Uint8Array(await (Object.values(data.files)[0] as Blob).arrayBuffer()));
    } finally {
        scene.dispose();
        scene.getEngine().dispose();
    }
}

/** The JSON document of a GLB file. */
function readGlbJson(file: string): IGltfDocument {
    return ReadGltfJson(new Uint8Array(readFileSync(file)), file);
}

/** The names of every node of a written GLB: all there, none twice. */
function expectUniqueNodeNames(doc: IGltfDocument): string[] {
    const names = (doc.nodes ?? []).map((n) => n.name);
    expect(names.filter((n) => typeof n !== "string" || n === "")).toEqual([]);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    return names as string[];
}

/** The sample walk as a muscle clip, converted on a sample character. */
function sampleWalkClip(index = 0, seconds = 2.2, rate = 30): MuscleClip {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[index]));
    return ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, seconds, rate));
}

/** A written GLB loaded into `scene` as a viewer would (its animations not started), everything added. */
async function loadWrittenGlbAsync(file: string, scene: Scene): Promise<AssetContainer> {
    const container = await LoadAssetContainerAsync(new Uint8Array(readFileSync(file)), scene, {
        pluginExtension: ".glb",
        pluginOptions: { gltf: { animationStartMode: GLTFLoaderAnimationStartMode.NONE } },
    });
    container.addAllToScene();
    return container;
}

/**
 * Checks that a written GLB holds exactly one animation of the expected length, and that playing
 * it puts the feet where a live HumanoidAnimator puts them on the same character at the same times.
 */
async function expectSameMotionAsync(
    clip: MuscleClip,
    character: string,
    output: string,
    options: { rootMotion: "clip" | "in-place"; proportions?: "legs" | "com" } = { rootMotion: "clip" },
): Promise<number> {
    // Live: the character as the avatar loader reads it, the clip played frame by frame.
    const live = await LoadHumanoidAvatarFromFileAsync(character);
    // Written: the output, loaded as any viewer would.
    const scene = new Scene(new NullEngine());
    try {
        const { avatar } = live;
        const nodes = live.loaded.binding!.nodes;
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: options.rootMotion, proportions: options.proportions });
        const feet = [HumanBone.LeftFoot, HumanBone.RightFoot].map((b) => nodes[avatar.getJoint(b)]);
        const container = await loadWrittenGlbAsync(output, scene);
        expect(container.animationGroups).toHaveLength(1);
        const group: AnimationGroup = container.animationGroups[0];
        expect(group.name).toBe(clip.name);
        expect(group.to / GLTF_LOADER_FPS).toBeCloseTo(clip.durationSeconds, 4);
        const writtenFeet = feet.map((n) => scene.getTransformNodeByName(n.name)!);
        expect(writtenFeet.every(Boolean)).toBe(true);
        group.start(false);
        group.pause();
        const checks = new Set([0, 1, Math.floor(clip.frameCount / 3), Math.floor(clip.frameCount / 2), clip.frameCount - 1]);
        let worst = 0;
        const first: Vector3[] = [];
        let moved = 0;
        animator.play(clip, { loop: false });
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            if (!checks.has(f)) continue;
            group.goToFrame((f / clip.frameRate) * GLTF_LOADER_FPS);
            for (let s = 0; s < 2; s++) {
                const written = worldOf(writtenFeet[s]);
                worst = Math.max(worst, Vector3.Distance(worldOf(feet[s]), written));
                if (f === 0) first.push(written);
                else moved = Math.max(moved, Vector3.Distance(first[s], written));
            }
        }
        expect(worst).toBeLessThan(SAME_MOTION_METRES);
        // A walk: the written feet do move (by more than 10 cm), so the comparison above means something.
        expect(moved).toBeGreaterThan(0.1);
        return worst;
    } finally {
        scene.dispose();
        scene.getEngine().dispose();
        live.loaded.dispose();
    }
}

describe("BakeMuscleClipToAnimationGroup", () => {
    const clip = sampleWalkClip(0);

    function character(index: number): { scene: Scene; nodes: readonly TransformNode[]; root: TransformNode; avatar: ReturnType<typeof BuildHumanoidAvatar> } {
        const scene = new Scene(new NullEngine());
        const rig = BuildSampleRig(SampleCharacters[index]);
        const { root, nodes } = CreateTransformNodesFromRig(rig, scene);
        return { scene, nodes, root, avatar: BuildHumanoidAvatar(rig) };
    }

    it("keys every written node at whole frames, as the animator poses them, and puts the nodes back", () => {
        const { scene, nodes, avatar } = character(1);
        const before = nodes.map((n) => ({ q: n.rotationQuaternion!.clone(), p: n.position.clone(), qObject: n.rotationQuaternion }));
        const stats = CreateBakeStats();
        const group = BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, stats });
        expect(group.name).toBe(clip.name);
        expect(scene.animationGroups).toContain(group);
        expect(group.from).toBe(0);
        expect(group.to).toBe(clip.frameCount - 1);
        expect(stats.frames).toBe(clip.frameCount);
        expect(stats.frameRate).toBe(clip.frameRate);
        expect(stats.durationSeconds).toBeCloseTo(clip.durationSeconds, 9);
        expect(stats.maxStretch).toBeGreaterThanOrEqual(1);
        expect(stats.maxStretch).toBeLessThanOrEqual(1.05 + 1e-9);
        expect(stats.maxFootErrorMetres).toBeLessThan(0.01);
        expect(stats.animationCount).toBe(group.targetedAnimations.length);
        // Nodes are as before, same objects.
        nodes.forEach((n, i) => {
            expect(n.rotationQuaternion).toBe(before[i].qObject);
            expect(n.rotationQuaternion!.equalsWithEpsilon(before[i].q, 0)).toBe(true);
            expect(n.position.equalsWithEpsilon(before[i].p, 0)).toBe(true);
        });
        // Hips travel (clip mode): a position track on the hips node; every key at a whole frame, at the clip's rate.
        const hips = nodes[avatar.getJoint(HumanBone.Hips)];
        const hipsPosition = group.targetedAnimations.find((ta) => ta.target === hips && ta.animation.targetProperty === "position")!;
        expect(hipsPosition).toBeDefined();
        const hk = hipsPosition.animation.getKeys();
        expect(Vector3.Distance(hk[0].value, hk[hk.length - 1].value)).toBeGreaterThan(1);
        for (const ta of group.targetedAnimations) {
            expect(ta.animation.framePerSecond).toBe(clip.frameRate);
            const keys = ta.animation.getKeys();
            expect(keys).toHaveLength(clip.frameCount);
            keys.forEach((k, f) => expect(k.frame).toBe(f));
            // Quaternion keys stay in one hemisphere from key to key.
            if (ta.animation.targetProperty === "rotationQuaternion") {
                for (let f = 1; f < keys.length; f++) expect(Quaternion.Dot(keys[f - 1].value, keys[f].value)).toBeGreaterThanOrEqual(0);
            }
        }
        // Every key is what the animator writes at that frame.
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
        animator.play(clip, { loop: false });
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            for (const ta of group.targetedAnimations) {
                const node = ta.target as TransformNode;
                const v = ta.animation.getKeys()[f].value;
                if (ta.animation.targetProperty === "position") expect(Vector3.Distance(v, node.position)).toBeLessThan(1e-12);
                else expect(Math.abs(Quaternion.Dot(v, node.rotationQuaternion!))).toBeCloseTo(1, 12);
            }
        }
        scene.getEngine().dispose();
    });

    it("leaves the travel out in place, and moves (and keys) the root node in 'apply' mode", () => {
        const { scene, nodes, root, avatar } = character(0);
        const hips = nodes[avatar.getJoint(HumanBone.Hips)];
        const travel = (g: AnimationGroup, target: TransformNode): number => {
            const ta = g.targetedAnimations.find((t) => t.target === target && t.animation.targetProperty === "position");
            if (!ta) return 0;
            const k = ta.animation.getKeys();
            return Math.hypot(k[k.length - 1].value.x - k[0].value.x, k[k.length - 1].value.z - k[0].value.z);
        };
        const inPlace = BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, rootMotion: "in-place", name: "in place" });
        expect(travel(inPlace, hips)).toBeLessThan(0.1);
        expect(inPlace.targetedAnimations.some((t) => t.target === root)).toBe(false);
        const apply = BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, rootMotion: "apply", name: "apply" });
        expect(travel(apply, root)).toBeGreaterThan(1);
        expect(apply.targetedAnimations.filter((t) => t.target === root).map((t) => t.animation.targetProperty)).toEqual(["rotationQuaternion", "position"]);
        expect(root.position.length()).toBe(0);
        scene.getEngine().dispose();
    });

    it("keys at another rate, one more frame holding the end when the length is not whole", () => {
        const { scene, nodes, avatar } = character(2);
        const stats = CreateBakeStats();
        // 2.2 s at 24 fps = 52.8 frames: 0..53, the last holding the end.
        const group = BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, frameRate: 24, stats });
        expect(stats.frames).toBe(54);
        expect(group.to).toBe(53);
        expect(group.targetedAnimations[0].animation.framePerSecond).toBe(24);
        scene.getEngine().dispose();
    });

    it("rejects bad options by name and changes nothing", () => {
        const { scene, nodes, avatar } = character(0);
        const groups = scene.animationGroups.length;
        const err = (o: object): HumanoidError => {
            try {
                BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, ...o });
            } catch (e) {
                expect(e).toBeInstanceOf(HumanoidError);
                return e as HumanoidError;
            }
            throw new Error("expected a HumanoidError");
        };
        expect(err({ frameRate: 0 }).message).toMatch(/frameRate must be .* \(got 0\)/);
        expect(err({ rootMotion: "delta" }).message).toMatch(/rootMotion must be "clip", "in-place" or "apply" for a bake \(got "delta"\)/);
        expect(err({ stretch: 2 }).message).toMatch(/stretch\.legs must be .* \(got 2\)/);
        expect(err({ targets: nodes.slice(1) }).code).toBe("BAD_OPTION");
        expect(scene.animationGroups.length).toBe(groups);
        const rest = BuildSampleRig(SampleCharacters[0]).joints;
        nodes.forEach((n, i) => expect(n.rotationQuaternion!.equalsWithEpsilon(rest[i].restRotation, 1e-12)).toBe(true));
        scene.getEngine().dispose();
    });
});

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

    it("fails in one line naming the file or option, exit code 1, nothing written", async () => {
        const character = join(dir, "cmu.glb");
        await sampleCharacterGlbAsync(3, character);
        const bvh = join(dir, "walk2.bvh");
        writeFileSync(bvh, SampleWalkBvh());
        const sub = mkdtempSync(join(dir, "fail-"));
        const out = join(sub, "out.glb");
        // From the command line: a bad option value, a missing file, a source that is not a humanoid.
        let r = cli("retarget", bvh, "--onto", character, "-o", out, "--stretch", "abc");
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe(
            "error: option '--stretch <fraction>' argument 'abc' is invalid. --stretch must be a share of the limb's length from 0 to 0.5, for example 0.05\n",
        );
        const missing = join(dir, "nowhere.bvh");
        r = cli("retarget", missing, "--onto", character, "-o", out);
        expect([r.code, r.stdout, r.stderr]).toEqual([1, "", `babylon-humanoid: ${missing}: cannot read the file (no such file)\n`]);
        const notHumanoid = join(dir, "stick.bvh");
        writeFileSync(
            notHumanoid,
            "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0\n",
        );
        r = cli("retarget", notHumanoid, "--onto", character, "-o", out);
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr.startsWith(`babylon-humanoid: ${notHumanoid}:`)).toBe(true);
        // From the API, the same checks the command relies on.
        const fails = async (p: Promise<unknown>): Promise<string> => {
            try {
                await p;
            } catch (e) {
                expect(e).toBeInstanceOf(HumanoidError);
                return (e as HumanoidError).message;
            }
            throw new Error("expected a HumanoidError");
        };
        expect(await fails(RetargetFileToGlbAsync(bvh, character, out, { stretch: 0.9 }))).toBe(
            "--stretch must be a share of the limb's length from 0 to 0.5 (got 0.9)",
        );
        expect(await fails(RetargetFileToGlbAsync(bvh, character, out, { rootMotion: "delta" as never }))).toBe(
            '--root-motion must be in-place, clip or apply (got "delta")',
        );
        expect(await fails(RetargetFileToGlbAsync(bvh, join(dir, "nobody.glb"), out))).toBe(`${join(dir, "nobody.glb")}: cannot read the file (no such file)`);
        expect(await fails(RetargetFileToGlbAsync(bvh, bvh, out))).toBe(`${bvh}: the character (--onto) must be a .glb, .gltf or .vrm file, not '.bvh'`);
        expect(await fails(RetargetFileToGlbAsync(bvh, character, join(sub, "out.gltf")))).toBe(
            `-o ${join(sub, "out.gltf")}: the output is a binary glTF file; name it with .glb (or .vrma for a VRM Animation)`,
        );
        expect(await fails(RetargetFileToGlbAsync(join(dir, "notes.txt"), character, out))).toMatch(
            /notes\.txt: unsupported source type '\.txt' \(use \.muscle\.json, /,
        );
        expect(await fails(RetargetFileToGlbAsync(bvh, character, join(sub, "no-such-dir", "out.glb")))).toMatch(
            /no-such-dir\/out\.glb: cannot write the file \(ENOENT\)$/,
        );
        // Nothing was written, not even a temporary file.
        expect(readdirSync(sub)).toEqual([]);
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

    it("--keep-floor-tilt bakes the CMU walk with its floor as it is: the clip converted with levelFloor false", async () => {
        const bvh = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const xbot = dataFile("glb/mixamo_xbot.glb");
        const out = join(dir, "cmu_walk-kept-on-xbot.glb");
        const r = cli("retarget", bvh, "--onto", xbot, "-o", out, "--keep-floor-tilt");
        expect(r.code).toBe(0);
        expect(r.stdout).not.toMatch(/floor under the take/);
        const [{ clip }] = await ConvertFileToMuscleClipsAsync(bvh, { levelFloor: false });
        await expectSameMotionAsync(clip, xbot, out);
    });

    it("--proportions com bakes Mecanim's centre-of-mass rule: the CMU walk on the short-legged mannequin as the live animator plays it with 'com', unlike 'legs'", async () => {
        const bvh = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const manny = dataFile("glb/kaykit_mannequin/manny_med_mod.gltf");
        const [{ clip }] = await ConvertFileToMuscleClipsAsync(bvh);
        const feetAt = async (file: string): Promise<Vector3[]> => {
            const scene = new Scene(new NullEngine());
            try {
                const container = await loadWrittenGlbAsync(file, scene);
                const group = container.animationGroups[0];
                group.start(false);
                group.pause();
                group.goToFrame((clip.frameCount / 2 / clip.frameRate) * GLTF_LOADER_FPS);
                return ["foot.l", "foot.r"].map((n) => worldOf(scene.getTransformNodeByName(n)!).clone());
            } finally {
                scene.dispose();
                scene.getEngine().dispose();
            }
        };
        const written: Record<string, Vector3[]> = {};
        for (const mode of ["com", "legs"] as const) {
            const out = join(dir, `cmu_walk-on-manny-${mode}.glb`);
            const r = cli("retarget", bvh, "--onto", manny, "-o", out, "--proportions", mode);
            expect(r.stderr).toBe("");
            expect(r.code).toBe(0);
            await expectSameMotionAsync(clip, manny, out, { rootMotion: "clip", proportions: mode });
            written[mode] = await feetAt(out);
        }
        // The two rules put the feet apart: 'com' scales the stride by the centre of mass's height,
        // which on this chibi (legs 0.53 of it) is further than its legs reach.
        const apart = Math.max(...[0, 1].map((s) => Vector3.Distance(written.com[s], written.legs[s])));
        expect(apart).toBeGreaterThan(0.02);
    }, 120_000);

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
