import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { Bone } from "@babylonjs/core/Bones/bone.js";
import type { Skeleton } from "@babylonjs/core/Bones/skeleton.js";
import type { Matrix } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Node } from "@babylonjs/core/node.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { HumanoidError } from "../errors.js";
import { InterleaveInfluences, type ISkinGeometry } from "../skin/linearBlendSkinning.js";

/**
 * A skinned Babylon mesh read once into plain arrays for CPU skinning: its bind-pose geometry
 * (copied, never shared with the engine), its inverse bind matrices and the joint behind every
 * bone slot.
 */
export interface ISkinnedMeshBinding {
    /** The mesh. */
    readonly mesh: AbstractMesh;
    /** Its skeleton. */
    readonly skeleton: Skeleton;
    /** The bind-pose geometry and influences (copies of the vertex buffers). */
    readonly geometry: ISkinGeometry;
    /**
     * Inverse bind matrix of every bone slot, 16 numbers each (Babylon's row-vector layout): from
     * the mesh's bind space to the joint's space at bind time. For a glTF file, the skin's
     * `inverseBindMatrices`. Identity for unused slots.
     */
    readonly inverseBind: Float64Array;
    /** The bone in every slot (null for unused slots). */
    readonly bones: ReadonlyArray<Bone | null>;
    /**
     * The mesh, every joint node and all their ancestors, parents before children: recomputing
     * their world matrices in this order gives each one from an up-to-date parent.
     */
    readonly nodesParentsFirst: readonly Node[];
}

/**
 * Reads a skinned mesh: positions, normals, 4 or 8 influences (`matricesIndices`/`Weights` and,
 * when the mesh has more than 4 influencers, the `...Extra` buffers), the bone slot of every bone
 * (`bone.getIndex()`, the index the vertex data uses) and its inverse bind matrix
 * (`bone.getAbsoluteInverseBindMatrix()`). Throws a {@link HumanoidError} `NOT_SKINNED` naming the
 * mesh when it has no skeleton or no influences. Cold path; allocates.
 */
export function BindSkinnedMesh(mesh: AbstractMesh): ISkinnedMeshBinding {
    const skeleton = mesh.skeleton;
    const positions = mesh.getVerticesData(VertexBuffer.PositionKind);
    const indices = mesh.getVerticesData(VertexBuffer.MatricesIndicesKind);
    const weights = mesh.getVerticesData(VertexBuffer.MatricesWeightsKind);
    if (!skeleton || !positions || !indices || !weights) {
        throw new HumanoidError("NOT_SKINNED", `mesh '${mesh.name}' is not skinned (it needs a skeleton, positions, matrices indices and weights)`);
    }
    const vertexCount = positions.length / 3;
    const extra = mesh.numBoneInfluencers > 4;
    const indicesExtra = extra ? mesh.getVerticesData(VertexBuffer.MatricesIndicesExtraKind) : null;
    const weightsExtra = extra ? mesh.getVerticesData(VertexBuffer.MatricesWeightsExtraKind) : null;
    const normals = mesh.getVerticesData(VertexBuffer.NormalKind);
    const inter = InterleaveInfluences(vertexCount, indices, weights, indicesExtra, weightsExtra);
    let boneCount = 0;
    for (const b of skeleton.bones) boneCount = Math.max(boneCount, b.getIndex() + 1);
    for (let i = 0; i < inter.boneIndices.length; i++) {
        if (inter.boneWeights[i] > 0 && inter.boneIndices[i] >= boneCount) {
            throw new HumanoidError(
                "NOT_SKINNED",
                `mesh '${mesh.name}': vertex ${Math.floor(i / inter.influences)} uses bone slot ${inter.boneIndices[i]}, but the skeleton has ${boneCount}`,
            );
        }
    }
    const bones: Array<Bone | null> = new Array<Bone | null>(boneCount).fill(null);
    const inverseBind = new Float64Array(boneCount * 16);
    for (let s = 0; s < boneCount; s++) inverseBind.set(IDENTITY, s * 16);
    for (const b of skeleton.bones) {
        const slot = b.getIndex();
        if (slot < 0) continue;
        bones[slot] = b;
        inverseBind.set(b.getAbsoluteInverseBindMatrix().m, slot * 16);
    }
    const geometry: ISkinGeometry = {
        vertexCount,
        positions: new Float32Array(positions),
        normals: normals ? new Float32Array(normals) : null,
        influences: inter.influences,
        boneIndices: inter.boneIndices,
        boneWeights: inter.boneWeights,
        boneCount,
    };
    const depth = new Map<Node, number>();
    const visit = (n: Node | null): number => {
        if (!n) return -1;
        const known = depth.get(n);
        if (known !== undefined) return known;
        const d = visit(n.parent) + 1;
        depth.set(n, d);
        return d;
    };
    visit(mesh);
    for (const b of bones) if (b) visit(b.getTransformNode());
    const nodesParentsFirst = [...depth.keys()].sort((a, b) => depth.get(a)! - depth.get(b)!);
    return { mesh, skeleton, geometry, inverseBind, bones, nodesParentsFirst };
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** `out[o..o+15] = a * b` for Babylon row-vector 4x4 matrices given as arrays (float64 arithmetic). */
export function MultiplyMatricesToArray(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Float64Array | number[], o: number): void {
    for (let i = 0; i < 4; i++) {
        const a0 = a[ao + 4 * i];
        const a1 = a[ao + 4 * i + 1];
        const a2 = a[ao + 4 * i + 2];
        const a3 = a[ao + 4 * i + 3];
        for (let j = 0; j < 4; j++) {
            out[o + 4 * i + j] = a0 * b[bo + j] + a1 * b[bo + 4 + j] + a2 * b[bo + 8 + j] + a3 * b[bo + 12 + j];
        }
    }
}

const scratchJoint: number[] = new Array<number>(16);
const scratchLocal: number[] = new Array<number>(16);
const scratchChain: number[] = new Array<number>(16);

/**
 * The world matrix of the joint behind a bone as it is now, into `out` (16 numbers): the linked
 * TransformNode's world matrix when the bone has one (glTF; its ancestors' world matrices must be
 * current, see {@link ISkinnedMeshBinding.nodesParentsFirst}), else the product of the bone's
 * local matrices up its bone chain times the mesh's world matrix (Babylon's own rule for a
 * skeleton without nodes), needing no `skeleton.prepare`.
 */
export function GetJointWorldMatrixToRef(bone: Bone, meshWorld: Matrix, out: Float64Array | number[], o: number): void {
    const node: TransformNode | null = bone.getTransformNode();
    if (node) {
        const m = node.getWorldMatrix().m;
        for (let k = 0; k < 16; k++) out[o + k] = m[k];
        return;
    }
    // world = local * parentLocal * ... * rootLocal * meshWorld (row vectors)
    const acc = scratchChain;
    const lm = bone.getLocalMatrix().m;
    for (let k = 0; k < 16; k++) acc[k] = lm[k];
    for (let p = bone.getParent(); p; p = p.getParent()) {
        MultiplyMatricesToArray(acc, 0, p.getLocalMatrix().m, 0, scratchLocal, 0);
        for (let k = 0; k < 16; k++) acc[k] = scratchLocal[k];
    }
    MultiplyMatricesToArray(acc, 0, meshWorld.m, 0, out, o);
}

/** Recomputes the world matrices of the mesh and of every joint node (parents first). */
export function UpdateSkinnedMeshWorldMatrices(binding: ISkinnedMeshBinding): void {
    for (const n of binding.nodesParentsFirst) n.computeWorldMatrix(true);
}

/**
 * The skinning matrices of the joints' current pose, in world space: `inverseBind * jointWorld`
 * per slot ({@link GetJointWorldMatrixToRef}, after {@link UpdateSkinnedMeshWorldMatrices}), 16
 * numbers each, into `out` (length 16 * boneCount).
 * Multiplied in float64 from Babylon's float32 matrices. For a glTF mesh (placed by Babylon's
 * loader beside its skeleton's root, without a transform of its own) this gives the world
 * positions Babylon renders. Unused slots get the mesh's world matrix. Returns `out`.
 */
export function ComputeWorldSkinMatricesToRef(binding: ISkinnedMeshBinding, out: Float64Array): Float64Array {
    UpdateSkinnedMeshWorldMatrices(binding);
    const meshWorld = binding.mesh.getWorldMatrix();
    for (let s = 0; s < binding.bones.length; s++) {
        const bone = binding.bones[s];
        if (!bone) {
            for (let k = 0; k < 16; k++) out[s * 16 + k] = meshWorld.m[k];
            continue;
        }
        GetJointWorldMatrixToRef(bone, meshWorld, scratchJoint, 0);
        MultiplyMatricesToArray(binding.inverseBind, s * 16, scratchJoint, 0, out, s * 16);
    }
    return out;
}
