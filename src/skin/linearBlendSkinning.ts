/**
 * CPU linear-blend skinning on plain typed arrays (no scene, no engine): every vertex is the
 * weighted sum of its bind-pose position carried by each of its bones' skinning matrices,
 * `v' = sum_i w_i * (v * M_i)` with Babylon's row-vector matrices, `M_i = inverseBind_i * jointWorld_i`.
 *
 * The bind-pose data is read afresh for every vertex and every call: outputs go to arrays the
 * caller owns and that must not be the inputs. (A classic bug of CPU skinning is to transform a
 * vertex from the previous call's output, so that the pose accumulates frame after frame.)
 */

/** The skin of one mesh as plain arrays: bind-pose vertices and up to 8 bone influences per vertex. */
export interface ISkinGeometry {
    /** Number of vertices. */
    readonly vertexCount: number;
    /** Bind-pose positions, x y z per vertex, in the mesh's own space (the glTF "bind shape"). */
    readonly positions: Float32Array;
    /** Bind-pose normals, x y z per vertex, or null when the mesh has none. */
    readonly normals: Float32Array | null;
    /** 4 or 8 influences per vertex. */
    readonly influences: 4 | 8;
    /**
     * Bone slot of every influence, `influences` per vertex (the first 4 of a vertex then, for 8,
     * the 4 extra ones). Slots index the skinning matrices. Float32Array as Babylon stores them.
     */
    readonly boneIndices: Float32Array | Uint8Array | Uint16Array | Uint32Array;
    /** Weight of every influence, in the same layout as {@link boneIndices}; normally they sum to 1 per vertex (see {@link SkinVerticesToRef} when they do not). */
    readonly boneWeights: Float32Array;
    /** Number of bone slots (skinning matrices) the indices refer to. */
    readonly boneCount: number;
}

/**
 * Interleaves Babylon's two 4-wide influence buffers (`matricesIndices`/`matricesWeights` and the
 * `...Extra` ones) into the 8-per-vertex layout of {@link ISkinGeometry}. With no extra buffers,
 * returns copies of the 4-wide ones. Cold path; allocates.
 */
export function InterleaveInfluences(
    vertexCount: number,
    indices: ArrayLike<number>,
    weights: ArrayLike<number>,
    indicesExtra: ArrayLike<number> | null,
    weightsExtra: ArrayLike<number> | null,
): {
    /** 8 when both extra buffers were given, else 4. */
    influences: 4 | 8;
    /** Bone slot of every influence, `influences` per vertex (the 4 main ones, then the 4 extra). */
    boneIndices: Float32Array;
    /** Weight of every influence, in the same layout as `boneIndices`. */
    boneWeights: Float32Array;
} {
    const influences: 4 | 8 = indicesExtra && weightsExtra ? 8 : 4;
    const boneIndices = new Float32Array(vertexCount * influences);
    const boneWeights = new Float32Array(vertexCount * influences);
    for (let v = 0; v < vertexCount; v++) {
        for (let k = 0; k < 4; k++) {
            boneIndices[v * influences + k] = indices[v * 4 + k];
            boneWeights[v * influences + k] = weights[v * 4 + k];
            if (influences === 8) {
                boneIndices[v * 8 + 4 + k] = indicesExtra![v * 4 + k];
                boneWeights[v * 8 + 4 + k] = weightsExtra![v * 4 + k];
            }
        }
    }
    return { influences, boneIndices, boneWeights };
}

/**
 * Skins every vertex: positions (and normals when both `geometry.normals` and `outNormals` are
 * given) into the output arrays, x y z per vertex.
 * - Positions: `sum_i w_i * (p * M_i)`, in the space the matrices map to (world space with
 *   `inverseBind * jointWorld`).
 * - Normals: the blended matrix's linear part applied to the bind normal, then renormalized (unit
 *   length; a zero result stays zero). Exact for rigid and uniformly scaled bones; under
 *   non-uniform scale a normal would need the inverse transpose, which this (like Babylon's
 *   `ApplySkeleton` and its shaders) does not apply.
 * Influences with a weight of 0 or less are skipped, like Babylon's. Weights that do not sum to 1
 * (Khronos' RiggedFigure has vertices whose four weights sum to 0.2) are normalized, which is what
 * Babylon renders: its blended matrix's homogeneous w is the weight sum and is divided out. A
 * vertex with no positive weight is copied from the bind pose unchanged. Allocation-free.
 * @param geometry the skin; never written
 * @param skinMatrices 16 numbers per bone slot, Babylon's row-vector layout (translation at 12..14)
 * @param outPositions 3 * vertexCount numbers, written; must not be `geometry.positions`
 * @param outNormals 3 * vertexCount numbers, written, or null; must not be `geometry.normals`
 */
export function SkinVerticesToRef(
    geometry: ISkinGeometry,
    skinMatrices: ArrayLike<number>,
    outPositions: Float32Array | Float64Array,
    outNormals: Float32Array | Float64Array | null = null,
): void {
    const n = geometry.vertexCount;
    const inf = geometry.influences;
    const pos = geometry.positions;
    const nor = outNormals ? geometry.normals : null;
    const idx = geometry.boneIndices;
    const wts = geometry.boneWeights;
    const m = skinMatrices;
    for (let v = 0; v < n; v++) {
        // Blended matrix (3x4 part; the last column of an affine matrix stays 0 0 0 1).
        let m0 = 0;
        let m1 = 0;
        let m2 = 0;
        let m4 = 0;
        let m5 = 0;
        let m6 = 0;
        let m8 = 0;
        let m9 = 0;
        let m10 = 0;
        let m12 = 0;
        let m13 = 0;
        let m14 = 0;
        let wsum = 0;
        const base = v * inf;
        for (let k = 0; k < inf; k++) {
            const w = wts[base + k];
            if (!(w > 0)) continue;
            wsum += w;
            const o = Math.floor(idx[base + k]) * 16;
            m0 += w * m[o];
            m1 += w * m[o + 1];
            m2 += w * m[o + 2];
            m4 += w * m[o + 4];
            m5 += w * m[o + 5];
            m6 += w * m[o + 6];
            m8 += w * m[o + 8];
            m9 += w * m[o + 9];
            m10 += w * m[o + 10];
            m12 += w * m[o + 12];
            m13 += w * m[o + 13];
            m14 += w * m[o + 14];
        }
        const i3 = v * 3;
        // Read from the bind pose, never from an output.
        const x = pos[i3];
        const y = pos[i3 + 1];
        const z = pos[i3 + 2];
        if (!(wsum > 0)) {
            // No influence: the bind position as it is, not a collapse to the origin or a NaN.
            outPositions[i3] = x;
            outPositions[i3 + 1] = y;
            outPositions[i3 + 2] = z;
            if (nor && outNormals) {
                outNormals[i3] = nor[i3];
                outNormals[i3 + 1] = nor[i3 + 1];
                outNormals[i3 + 2] = nor[i3 + 2];
            }
            continue;
        }
        // Weights that do not sum to 1 are normalized: the homogeneous w of the blended affine
        // matrix is their sum, and Babylon's CPU path and its shaders both divide by it.
        const iw = 1 / wsum;
        outPositions[i3] = (x * m0 + y * m4 + z * m8 + m12) * iw;
        outPositions[i3 + 1] = (x * m1 + y * m5 + z * m9 + m13) * iw;
        outPositions[i3 + 2] = (x * m2 + y * m6 + z * m10 + m14) * iw;
        if (nor && outNormals) {
            const nx = nor[i3];
            const ny = nor[i3 + 1];
            const nz = nor[i3 + 2];
            const rx = nx * m0 + ny * m4 + nz * m8;
            const ry = nx * m1 + ny * m5 + nz * m9;
            const rz = nx * m2 + ny * m6 + nz * m10;
            const len = Math.sqrt(rx * rx + ry * ry + rz * rz);
            const k = len > 0 ? 1 / len : 0;
            outNormals[i3] = rx * k;
            outNormals[i3 + 1] = ry * k;
            outNormals[i3 + 2] = rz * k;
        }
    }
}
