/**
 * The rig side of a surface fit as plain arrays (its skin in the rest pose and its bone hierarchy),
 * with the helpers that measure it and choose the vertices a fit uses.
 */

/** A rig to fit: its skin in the rest pose and its bone hierarchy, in world space (metres). */
export interface ISurfaceFitRig {
    /** Number of vertices. */
    readonly vertexCount: number;
    /** Rest-pose vertex positions, x y z per vertex (world space, metres). */
    readonly restPositions: Float64Array;
    /** Influences per vertex in {@link boneIndices} / {@link boneWeights}. */
    readonly influences: number;
    /** Bone of every influence (`influences` per vertex). */
    readonly boneIndices: ArrayLike<number>;
    /** Weight of every influence; those of a vertex sum to 1 (they are normalized when read). */
    readonly boneWeights: ArrayLike<number>;
    /** Number of bones. */
    readonly boneCount: number;
    /** Parent bone of every bone, -1 for a top bone. */
    readonly boneParents: ArrayLike<number>;
    /** Rest-pose joint positions, x y z per bone (world space), the pivots of rotation-only fits. */
    readonly boneRestPositions: Float64Array;
    /** Bone names, for messages and output. */
    readonly boneNames: readonly string[];
}

/** The diagonal of the bounding box of points (x y z each), in their unit. */
export function BoundingDiagonal(positions: ArrayLike<number>): number {
    let x0 = Infinity;
    let y0 = Infinity;
    let z0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    let z1 = -Infinity;
    for (let i = 0; i + 2 < positions.length; i += 3) {
        x0 = Math.min(x0, positions[i]);
        y0 = Math.min(y0, positions[i + 1]);
        z0 = Math.min(z0, positions[i + 2]);
        x1 = Math.max(x1, positions[i]);
        y1 = Math.max(y1, positions[i + 1]);
        z1 = Math.max(z1, positions[i + 2]);
    }
    return x1 >= x0 ? Math.hypot(x1 - x0, y1 - y0, z1 - z0) : 0;
}

/**
 * Picks `count` vertices for the fit: first, for every bone, the `perBone` vertices it weighs most
 * (so no bone is left without points), then evenly spaced vertices until `count` are chosen.
 * Returns the sorted indices (all vertices when `count` >= the vertex count).
 */
export function SelectFitVertices(rig: ISurfaceFitRig, count: number, perBone = 4): Int32Array {
    const n = rig.vertexCount;
    if (count >= n) return Int32Array.from({ length: n }, (_, i) => i);
    const chosen = new Uint8Array(n);
    let taken = 0;
    const best: Array<Array<{ v: number; w: number }>> = Array.from({ length: rig.boneCount }, () => []);
    for (let v = 0; v < n; v++) {
        for (let k = 0; k < rig.influences; k++) {
            const w = rig.boneWeights[v * rig.influences + k];
            if (!(w > 0)) continue;
            const list = best[rig.boneIndices[v * rig.influences + k]];
            list.push({ v, w });
            if (list.length > 4 * perBone) {
                list.sort((a, b) => b.w - a.w);
                list.length = perBone;
            }
        }
    }
    for (const list of best) {
        list.sort((a, b) => b.w - a.w);
        for (const { v } of list.slice(0, perBone)) {
            if (!chosen[v] && taken < count) {
                chosen[v] = 1;
                taken++;
            }
        }
    }
    const rest = count - taken;
    if (rest > 0) {
        const step = n / rest;
        for (let k = 0, added = 0; added < rest && k < 4 * n; k++) {
            let v = Math.floor(k * step) % n;
            while (chosen[v]) v = (v + 1) % n;
            chosen[v] = 1;
            added++;
        }
    }
    const out: number[] = [];
    for (let v = 0; v < n; v++) if (chosen[v]) out.push(v);
    return Int32Array.from(out);
}
