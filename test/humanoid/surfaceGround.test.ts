import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../../src/humanoid/humanBones.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { LoadHumanoidAvatarFromFileAsync, LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { EditGlbJson } from "../helpers/glbJson.js";

// The ground of a character is the lowest point of its feet in the T-pose (`MuscleSetup.scale`
// is the centre of mass's height above it). A foot that ends at its ankle (no toes, no tip joint:
// many game rigs, the Saxon warrior of colesam/uploads) has no joint below the ankle, and the
// ground was the ankle itself: the character planted its ankles on the floor, its boots 7 cm in.
// Where the rig comes with its meshes, the ground is then its surface's lowest point
// (`IRig.surfaceBelow`, from the vertices bound to the foot).

type GltfNode = { name?: string; children?: number[]; translation?: number[]; rotation?: number[]; scale?: number[]; matrix?: number[] };

/** A node's local transform (Babylon's row-vector order). */
function local(n: GltfNode): Matrix {
    if (n.matrix) return Matrix.FromArray(n.matrix);
    return Matrix.Compose(
        Vector3.FromArray(n.scale ?? [1, 1, 1]),
        Quaternion.FromArray(n.rotation ?? [0, 0, 0, 1]),
        Vector3.FromArray(n.translation ?? [0, 0, 0]),
    );
}

/** The X Bot with each toe chain moved from its foot to the armature's root, where it was in the world: its feet end at their ankles. */
function feetEndingAtTheAnkles(json: { nodes: GltfNode[] }): void {
    const nodes = json.nodes;
    const parentOf = (i: number): number => nodes.findIndex((n) => n.children?.includes(i));
    const world = (i: number): Matrix => {
        let m = local(nodes[i]);
        for (let p = parentOf(i); p >= 0; p = parentOf(p)) m = m.multiply(local(nodes[p]));
        return m;
    };
    const armature = nodes.findIndex((n) => n.name === "Armature");
    for (const side of ["Left", "Right"]) {
        const toe = nodes.findIndex((n) => n.name === `mixamorig:${side}ToeBase`);
        const foot = parentOf(toe);
        const w = world(toe);
        nodes[foot].children = nodes[foot].children!.filter((c) => c !== toe);
        nodes[armature].children!.push(toe);
        const s = new Vector3();
        const r = new Quaternion();
        const t = new Vector3();
        w.multiply(Matrix.Invert(world(armature))).decompose(s, r, t);
        Object.assign(nodes[toe], { translation: t.asArray(), rotation: [r.x, r.y, r.z, r.w], scale: s.asArray() });
        delete nodes[toe].matrix;
    }
}

describeWithData("the ground of feet that end at their ankles", () => {
    it("is the surface's lowest point: the X Bot with its toes taken off its feet keeps its ankles as high above its ground", async () => {
        const dir = mkdtempSync(join(tmpdir(), "bh-ankles-"));
        try {
            const file = join(dir, "xbot_ankles.glb");
            EditGlbJson(dataFile("glb/mixamo_xbot.glb"), feetEndingAtTheAnkles as never, file);
            const original = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
            const ankles = await LoadHumanoidAvatarFromFileAsync(file);
            try {
                const a = MuscleSetup.For(original.avatar);
                const b = MuscleSetup.For(ankles.avatar);
                expect(ankles.avatar.getJoint(HumanBone.LeftToes)).toBe(-1);
                expect(b.footTip).toEqual([-1, -1]);
                // The X Bot's own ground is its toe ends' height, which its soles share within a few mm.
                // Before: 0 (the ankles the lowest joints), and the centre of mass 8 cm lower for the scale.
                expect(Math.abs(b.ankleHeight - a.ankleHeight)).toBeLessThan(0.005);
                expect(Math.abs(b.scale - a.scale) / a.scale).toBeLessThan(0.005);
                // The surface below the foot: its sole, as far below its ankle.
                const foot = original.avatar.getJoint(HumanBone.LeftFoot);
                expect(original.loaded.rig.surfaceBelow![foot]).toBeGreaterThan(0.08);
                expect(original.loaded.rig.surfaceBelow![foot]).toBeLessThan(0.1);
            } finally {
                original.loaded.dispose();
                ankles.loaded.dispose();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    }, 60_000);

    it("a rig without meshes knows no surface: a BVH's ground is its joints'", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"));
        try {
            expect(loaded.rig.surfaceBelow).toBeUndefined();
        } finally {
            loaded.dispose();
        }
    }, 60_000);
});
