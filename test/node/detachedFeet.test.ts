import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { HumanBone, LoadHumanoidCharacterAsync } from "../../src/index.js";
import { AttachDetachedFeetInGltf, type IGltfNodeLike } from "../../src/io/detachedFeetGltf.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync, LoadRigFromFileAsync } from "../../src/node/index.js";
import { RecordHumanoidRetarget } from "../../src/node/qualityReport.js";
import { BuildHumanoidAvatar } from "../../src/humanoid/avatar.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { errorOf } from "../helpers/errors.js";
import { EditGlbJson } from "../helpers/glbJson.js";

Logger.LogLevels = Logger.ErrorLogLevel;

// Rigs built for IK are often exported with their feet beside the legs (three.js's RobotExpressive:
// `Foot.L` under the armature's root; Blender rigs with IK controls: under a `FootControl.L`), each
// lower leg a leaf. A character to retarget onto has them moved under its lower legs at load
// (`AttachDetachedFeetInGltf`, `LoadHumanoidAvatarFromFileAsync`'s `attachDetachedFeet`).

/** A glTF node as the module reads it. */
type INode = IGltfNodeLike;

/** A node's local transform (Babylon's row-vector order; glTF's column-major matrix reads as it is). */
function local(n: INode): Matrix {
    if (n.matrix) return Matrix.FromArray(n.matrix);
    const t = n.translation ?? [0, 0, 0];
    const r = n.rotation ?? [0, 0, 0, 1];
    const s = n.scale ?? [1, 1, 1];
    return Matrix.Compose(new Vector3(s[0], s[1], s[2]), new Quaternion(r[0], r[1], r[2], r[3]), new Vector3(t[0], t[1], t[2]));
}

/** A node's world transform in the file's space. */
function world(nodes: INode[], i: number): Matrix {
    const parent = (j: number): number => nodes.findIndex((n) => n.children?.includes(j));
    let m = local(nodes[i]);
    for (let p = parent(i); p >= 0; p = parent(p)) m = m.multiply(local(nodes[p]));
    return m;
}

/**
 * The X Bot with its feet (and their toes) moved beside its legs, as an IK rig keeps them: each foot
 * under a new `LeftFootControl` / `RightFootControl` at the armature's root, at the same place in
 * the world.
 */
function detach(json: { nodes: INode[]; scenes?: unknown }): void {
    const nodes = json.nodes;
    const armature = nodes.findIndex((n) => n.name === "Armature");
    for (const side of ["Left", "Right"]) {
        const foot = nodes.findIndex((n) => n.name === `mixamorig:${side}Foot`);
        const w = world(nodes, foot);
        const control = nodes.length;
        nodes.push({ name: `${side}FootControl`, children: [foot] });
        for (const n of nodes) if (n.children && n !== nodes[control]) n.children = n.children.filter((c) => c !== foot);
        nodes[armature].children!.push(control);
        const l = w.multiply(Matrix.Invert(world(nodes, control)));
        const s = new Vector3();
        const r = new Quaternion();
        const t = new Vector3();
        l.decompose(s, r, t);
        Object.assign(nodes[foot], { translation: t.asArray(), rotation: [r.x, r.y, r.z, r.w], scale: s.asArray() });
    }
}

let dir: string;
beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bh-feet-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeWithData("feet kept beside the legs for IK", () => {
    it("are moved under the lower legs when a character is loaded: the X Bot so rewritten maps and plays its walk as the X Bot does", async () => {
        const file = join(dir, "xbot_ik_feet.glb");
        EditGlbJson(dataFile("glb/mixamo_xbot.glb"), detach as never, file);
        // As a rig (a source of clips), the file's hierarchy stays, and the map's error names the feet.
        const asRig = await LoadRigFromFileAsync(file);
        try {
            expect(errorOf(() => BuildHumanoidAvatar(asRig.rig)).message).toMatch(
                /The feet 'mixamorig:LeftFoot' \(under 'LeftFootControl'\), 'mixamorig:RightFoot' \(under 'RightFootControl'\) hang outside the legs/,
            );
        } finally {
            asRig.dispose();
        }
        const moved = await LoadHumanoidAvatarFromFileAsync(file);
        const original = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        try {
            expect(moved.loaded.attachedFeet).toEqual([
                { foot: "mixamorig:LeftFoot", lowerLeg: "mixamorig:LeftLeg", formerParent: "LeftFootControl" },
                { foot: "mixamorig:RightFoot", lowerLeg: "mixamorig:RightLeg", formerParent: "RightFootControl" },
            ]);
            expect(original.loaded.attachedFeet).toEqual([]);
            // The same joints in the same places (the controls are no joints of the map).
            for (const b of [HumanBone.LeftFoot, HumanBone.RightFoot, HumanBone.LeftToes, HumanBone.LeftLowerLeg]) {
                const p = moved.avatar.referenceWorld.positions[moved.avatar.getJoint(b)];
                const q = original.avatar.referenceWorld.positions[original.avatar.getJoint(b)];
                expect(Vector3.Distance(p, q)).toBeLessThan(1e-5);
            }
            // The walk plays on both alike: every mapped bone's joint within 0.1 mm over the clip.
            const walk = (await ConvertFileToMuscleClipsAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh")))[0].clip;
            const a = RecordHumanoidRetarget(walk, moved.avatar, moved.loaded.binding!.nodes).positions;
            const b = RecordHumanoidRetarget(walk, original.avatar, original.loaded.binding!.nodes).positions;
            let worst = 0;
            for (let bone = 0; bone < HumanBone.LeftThumbProximal; bone++) {
                const ja = moved.avatar.getJoint(bone as HumanBone);
                const jb = original.avatar.getJoint(bone as HumanBone);
                if (ja < 0 || jb < 0) continue;
                for (let f = 0; f < a.length; f++) {
                    worst = Math.max(worst, Math.hypot(a[f][3 * ja] - b[f][3 * jb], a[f][3 * ja + 1] - b[f][3 * jb + 1], a[f][3 * ja + 2] - b[f][3 * jb + 2]));
                }
            }
            expect(worst).toBeLessThan(1e-4);
        } finally {
            moved.loaded.dispose();
            original.loaded.dispose();
        }
    });
});

describeWithData("feet kept beside the legs for IK, loaded into a scene (the browser's path)", () => {
    it("LoadHumanoidCharacterAsync moves them too: the X Bot so rewritten maps, its feet where they were", async () => {
        const file = join(dir, "xbot_ik_feet_scene.glb");
        EditGlbJson(dataFile("glb/mixamo_xbot.glb"), detach as never, file);
        registerBuiltInLoaders();
        const scene = new Scene(new NullEngine());
        try {
            const character = await LoadHumanoidCharacterAsync(new Uint8Array(readFileSync(file)), "xbot_ik_feet.glb", scene);
            expect(character.attachedFeet.map((f) => f.foot)).toEqual(["mixamorig:LeftFoot", "mixamorig:RightFoot"]);
            const original = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
            try {
                for (const b of [HumanBone.LeftFoot, HumanBone.RightToes]) {
                    const p = character.avatar.referenceWorld.positions[character.avatar.getJoint(b)];
                    const q = original.avatar.referenceWorld.positions[original.avatar.getJoint(b)];
                    expect(Vector3.Distance(p, q)).toBeLessThan(1e-5);
                }
            } finally {
                original.loaded.dispose();
            }
        } finally {
            scene.getEngine().dispose();
        }
    });
});

describe("AttachDetachedFeetInGltf", () => {
    /** Two legs as leaves, and feet under controls at the root; `extra` adds nodes. */
    function doc(extra: INode[] = []): { nodes: INode[]; scenes: { nodes: number[] }[] } {
        const nodes: INode[] = [
            { name: "Root", children: [1, 4, 5] },
            { name: "Hips", translation: [0, 1, 0], children: [2] },
            { name: "UpperLeg.L", translation: [0.1, 0, 0], children: [3] },
            { name: "LowerLeg.L", translation: [0, -0.45, 0] },
            { name: "FootControl.L", translation: [0.1, 0, 0], children: [6] },
            { name: "Spine", translation: [0, 1.2, 0] },
            { name: "Foot.L", translation: [0, 0.1, 0], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] },
            ...extra,
        ];
        return { nodes, scenes: [{ nodes: [0] }] };
    }

    it("moves a foot under its lower leg at the same place in the world", () => {
        const d = doc();
        const before = world(d.nodes, 6);
        expect(AttachDetachedFeetInGltf(d)).toEqual([{ foot: "Foot.L", lowerLeg: "LowerLeg.L", formerParent: "FootControl.L" }]);
        expect(d.nodes[3].children).toEqual([6]);
        expect(d.nodes[4].children).toEqual([]);
        const after = world(d.nodes, 6);
        // (Babylon's matrices hold 32-bit floats.)
        for (let k = 0; k < 16; k++) expect(after.m[k]).toBeCloseTo(before.m[k], 6);
    });

    it("a foot given as a matrix, a foot that is a scene's root, a foot with toes: each moved, every joint where it was", () => {
        const d = doc([{ name: "Toes.L", translation: [0, 0, 0.1] }]);
        d.nodes[6].children = [7];
        // The foot as a column-major matrix (glTF's), a scene root of its own.
        const m = local(d.nodes[6]).multiply(world(d.nodes, 4));
        d.nodes[6] = { name: "Foot.L", children: [7], matrix: Array.from(m.m) };
        d.nodes[4].children = [];
        d.scenes[0].nodes.push(6);
        const before = [world(d.nodes, 6), world(d.nodes, 7)];
        expect(AttachDetachedFeetInGltf(d)).toEqual([{ foot: "Foot.L", lowerLeg: "LowerLeg.L", formerParent: "" }]);
        expect(d.scenes[0].nodes).toEqual([0]);
        expect(d.nodes[6].matrix).toBeUndefined();
        [6, 7].forEach((j, k) => {
            const after = world(d.nodes, j);
            for (let i = 0; i < 16; i++) expect(after.m[i]).toBeCloseTo(before[k].m[i], 6);
        });
    });

    it("leaves a foot whose place under the lower leg would need shear (a parent scaled unevenly, the foot turned under it)", () => {
        const d = doc();
        d.nodes[4].scale = [1, 3, 1];
        d.nodes[6].rotation = [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)];
        expect(AttachDetachedFeetInGltf(d)).toEqual([]);
        expect(d.nodes[4].children).toEqual([6]);
    });

    it("leaves a plain rig with a stray foot-named node alone: a calf's twist leaf is no lower leg (Unreal's mannequin, Character Creator)", () => {
        const d = {
            nodes: [
                { name: "root", children: [1, 6] },
                { name: "pelvis", children: [2] },
                { name: "thigh_l", children: [3] },
                { name: "calf_l", children: [4, 5] },
                { name: "foot_l" },
                { name: "calf_twist_01_l" },
                { name: "foot_l_locator" },
            ] as INode[],
            scenes: [{ nodes: [0] }],
        };
        expect(AttachDetachedFeetInGltf(d)).toEqual([]);
        expect(d.nodes[0].children).toEqual([1, 6]);
    });

    it("leaves the file as it is where the layout is not plain: two left feet, a foot already under its leg, no side", () => {
        const two = doc([{ name: "Foot.L.001" }]);
        two.nodes[0].children!.push(7);
        expect(AttachDetachedFeetInGltf(two)).toEqual([]);
        const plain = doc();
        plain.nodes[4].children = [];
        plain.nodes[3].children = [6];
        expect(AttachDetachedFeetInGltf(plain)).toEqual([]);
        const sideless = doc();
        sideless.nodes[6].name = "Foot";
        sideless.nodes[3].name = "LowerLeg";
        expect(AttachDetachedFeetInGltf(sideless)).toEqual([]);
    });
});
