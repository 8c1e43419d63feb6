import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { Skeleton } from "@babylonjs/core/Bones/skeleton.js";
import { Bone } from "@babylonjs/core/Bones/bone.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { BindSkinnedMesh, ComputeWorldSkinMatricesToRef } from "../../src/io/skinnedMesh.js";
import { SkinVerticesToRef } from "../../src/skin/linearBlendSkinning.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** Babylon's own CPU skinning (`getPositionData(applySkeleton)`), taken to world space. */
function babylonSkinnedWorld(mesh: AbstractMesh): { positions: Float64Array; normals: Float64Array | null } {
    mesh.skeleton!.prepare(true);
    const world = mesh.computeWorldMatrix(true);
    const p = mesh.getPositionData(true, false)!;
    const n = mesh.getNormalsData(true, false);
    const positions = new Float64Array(p.length);
    const normals = n ? new Float64Array(n.length) : null;
    const v = new Vector3();
    for (let i = 0; i < p.length; i += 3) {
        Vector3.TransformCoordinatesFromFloatsToRef(p[i], p[i + 1], p[i + 2], world, v);
        positions.set([v.x, v.y, v.z], i);
        if (n && normals) {
            Vector3.TransformNormalFromFloatsToRef(n[i], n[i + 1], n[i + 2], world, v);
            v.normalize();
            normals.set([v.x, v.y, v.z], i);
        }
    }
    return { positions, normals };
}

function diagonal(positions: ArrayLike<number>): number {
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3], positions[i]);
        hi[i % 3] = Math.max(hi[i % 3], positions[i]);
    }
    return Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

function maxDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
    let m = 0;
    for (let i = 0; i < a.length; i += 3) m = Math.max(m, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
    return m;
}

/** Ours against Babylon's on every skinned mesh, in the pose the nodes are in now. Returns the worst position error / diagonal. */
function compareAll(meshes: AbstractMesh[]): { positionError: number; normalError: number; diag: number; vertices: number } {
    let positionError = 0;
    let normalError = 0;
    let diag = 0;
    let vertices = 0;
    for (const mesh of meshes) {
        const binding = BindSkinnedMesh(mesh);
        const matrices = new Float64Array(binding.geometry.boneCount * 16);
        ComputeWorldSkinMatricesToRef(binding, matrices);
        const n = binding.geometry.vertexCount;
        const positions = new Float64Array(3 * n);
        const normals = new Float64Array(3 * n);
        SkinVerticesToRef(binding.geometry, matrices, positions, normals);
        const ref = babylonSkinnedWorld(mesh);
        const d = diagonal(ref.positions);
        diag = Math.max(diag, d);
        positionError = Math.max(positionError, maxDistance(positions, ref.positions) / d);
        if (ref.normals) normalError = Math.max(normalError, maxDistance(normals, ref.normals));
        vertices += n;
        // Skinning again from the same geometry gives the same answer (no output is ever read back).
        const again = new Float64Array(3 * n);
        SkinVerticesToRef(binding.geometry, matrices, again, null);
        expect(maxDistance(again, positions)).toBe(0);
    }
    return { positionError, normalError, diag, vertices };
}

describe("CPU linear-blend skinning", () => {
    it("matches Babylon's on a hand-made mesh with 8 influences per vertex, posed", () => {
        const scene = new Scene(new NullEngine());
        const skeleton = new Skeleton("s", "s", scene);
        const bones: Bone[] = [];
        for (let i = 0; i < 9; i++) {
            const local = Matrix.Compose(
                new Vector3(1, 1, 1),
                Quaternion.RotationAxis(new Vector3(0.2 * i, 1, 0.1).normalize(), 0.1 * i),
                new Vector3(0, i === 0 ? 0 : 0.3, 0.05 * i),
            );
            bones.push(new Bone(`b${i}`, skeleton, i === 0 ? null : bones[i - 1], local, local, local));
        }
        const mesh = new Mesh("m", scene);
        const n = 40;
        const positions: number[] = [];
        const indices: number[] = [];
        const idx: number[] = [];
        const wts: number[] = [];
        const idxX: number[] = [];
        const wtsX: number[] = [];
        for (let v = 0; v < n; v++) {
            positions.push(Math.sin(v), v * 0.07, Math.cos(v * 1.3));
            const w = Array.from({ length: 8 }, (_, k) => 1 + ((v * 7 + k * 3) % 5));
            const sum = w.reduce((s, x) => s + x, 0);
            for (let k = 0; k < 4; k++) {
                idx.push((v + k) % 9);
                wts.push(w[k] / sum);
                idxX.push((v + k + 4) % 9);
                wtsX.push(w[k + 4] / sum);
            }
        }
        for (let v = 0; v + 2 < n; v += 3) indices.push(v, v + 1, v + 2);
        const data = new VertexData();
        data.positions = positions;
        data.indices = indices;
        const normals: number[] = [];
        VertexData.ComputeNormals(positions, indices, normals);
        data.normals = normals;
        data.matricesIndices = idx;
        data.matricesWeights = wts;
        data.matricesIndicesExtra = idxX;
        data.matricesWeightsExtra = wtsX;
        data.applyToMesh(mesh);
        mesh.skeleton = skeleton;
        mesh.numBoneInfluencers = 8;
        mesh.position.set(0.5, -1, 2);
        mesh.rotationQuaternion = Quaternion.RotationAxis(Vector3.Up(), 0.7);
        // Pose it away from the bind pose.
        bones.forEach((b, i) => b.setRotationQuaternion(Quaternion.RotationAxis(new Vector3(1, 0.3 * i, 0).normalize(), 0.2 + 0.05 * i)));
        const binding = BindSkinnedMesh(mesh);
        expect(binding.geometry.influences).toBe(8);
        expect(mesh.getVerticesData(VertexBuffer.MatricesIndicesExtraKind)).not.toBeNull();
        const r = compareAll([mesh]);
        expect(r.positionError).toBeLessThan(1e-5);
        expect(r.normalError).toBeLessThan(1e-5);
        // Dropping the extra influences would be caught: the posed surface moves by much more.
        const four = {
            ...binding.geometry,
            influences: 4 as const,
            boneIndices: binding.geometry.boneIndices.filter((_, i) => i % 8 < 4),
            boneWeights: binding.geometry.boneWeights.filter((_, i) => i % 8 < 4),
        };
        const m = new Float64Array(binding.geometry.boneCount * 16);
        ComputeWorldSkinMatricesToRef(binding, m);
        const out8 = new Float64Array(3 * n);
        const out4 = new Float64Array(3 * n);
        SkinVerticesToRef(binding.geometry, m, out8);
        SkinVerticesToRef(four, m, out4);
        expect(maxDistance(out8, out4)).toBeGreaterThan(1e-2);
        scene.getEngine().dispose();
    });
});

describeWithData("CPU skinning of real characters against Babylon's", () => {
    it.each([
        ["glb/mixamo_xbot.glb", "walk"],
        ["glb/khronos_RiggedFigure.glb", ""],
    ])("%s: every skinned mesh, in a posed frame of its clip, within 1e-5 of the model size", async (file, clip) => {
        const loaded = await LoadRigFromFileAsync(dataFile(file));
        try {
            const container = loaded.container!;
            const meshes = container.meshes.filter((m) => m.skeleton && m.getTotalVertices() > 0);
            expect(meshes.length).toBeGreaterThan(0);
            const group = container.animationGroups.find((g) => g.name === clip) ?? container.animationGroups[0];
            group.start(false);
            group.pause();
            // A frame well inside the clip, where the body is away from its bind pose.
            group.goToFrame(group.from + 0.4 * (group.to - group.from));
            const posed = compareAll(meshes);
            if (process.env.SKIN_FIGURES) console.log(file, JSON.stringify(posed));
            expect(posed.positionError).toBeLessThan(1e-5);
            expect(posed.normalError).toBeLessThan(1e-4);
            // The frame is posed: the skin moved away from the bind pose by far more than the tolerance.
            const bind = meshes[0].getPositionData(false)!;
            const now = meshes[0].getPositionData(true)!;
            expect(maxDistance(bind, now) / posed.diag).toBeGreaterThan(0.01);
            group.stop();
        } finally {
            loaded.dispose();
        }
    });
});
