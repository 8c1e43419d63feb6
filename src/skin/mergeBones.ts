import type { ISurfaceFitRig } from "./fitRig.js";

/**
 * A coarser rig made from a real one without new data: chosen bones merged into their parents,
 * their skin weights summed into the bone they merge into. The merged bones stay in the bone list
 * (same indices, same hierarchy) but carry no vertex, so a surface fit moves them rigidly with their
 * parent: the skin behaves exactly as that of a skeleton without them.
 */

/**
 * Merges every bone for which `merge(index, name)` is true into its nearest ancestor that is not
 * merged (weights summed; a vertex influenced by both keeps one influence). A top bone cannot be
 * merged (it has nowhere to go) and is kept. Never writes `rig`. Cold path; allocates.
 * @returns the new rig and, for every bone, the bone its weights went to (itself when kept)
 */
export function MergeSurfaceFitBones(
    rig: ISurfaceFitRig,
    merge: (bone: number, name: string) => boolean,
): {
    /** The merged rig: the same bones, the merged ones with no vertex weight. */
    rig: ISurfaceFitRig;
    /** For every bone, the bone its weights went to (itself when kept). */
    target: Int32Array;
} {
    const b = rig.boneCount;
    const target = new Int32Array(b);
    const merged = new Uint8Array(b);
    for (let j = 0; j < b; j++) merged[j] = rig.boneParents[j] >= 0 && merge(j, rig.boneNames[j]) ? 1 : 0;
    for (let j = 0; j < b; j++) {
        let t = j;
        while (merged[t] && rig.boneParents[t] >= 0) t = rig.boneParents[t];
        target[j] = t;
    }
    const inf = rig.influences;
    const boneIndices = new Int32Array(rig.vertexCount * inf);
    const boneWeights = new Float64Array(rig.vertexCount * inf);
    for (let v = 0; v < rig.vertexCount; v++) {
        let used = 0;
        for (let k = 0; k < inf; k++) {
            const w = rig.boneWeights[v * inf + k];
            if (!(w > 0)) continue;
            const t = target[rig.boneIndices[v * inf + k]];
            let slot = -1;
            for (let u = 0; u < used; u++) if (boneIndices[v * inf + u] === t) slot = u;
            if (slot < 0) {
                slot = used++;
                boneIndices[v * inf + slot] = t;
            }
            boneWeights[v * inf + slot] += w;
        }
    }
    return { rig: { ...rig, boneIndices, boneWeights }, target };
}
