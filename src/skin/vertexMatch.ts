import { octree } from "d3-octree";

/**
 * Correspondence between two meshes in their rest poses: for every vertex of one, the nearest
 * vertex of the other, after aligning the two rest poses by their bounding boxes (centres
 * matched, uniform scale by the ratio of heights, the Y extents). Nearest neighbours come from an
 * octree (the `d3-octree` package), O(log n) per query.
 */

/** The similarity that carries the rest pose of one mesh onto another's: `x' = scale * (x - from) + to`. */
export interface IRestAlignment {
    /** Uniform scale. */
    readonly scale: number;
    /** Centre of the mesh being moved (metres). */
    readonly from: readonly [number, number, number];
    /** Centre of the mesh it is moved onto (metres). */
    readonly to: readonly [number, number, number];
}

function boxOf(p: ArrayLike<number>): { lo: number[]; hi: number[] } {
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i + 2 < p.length; i += 3) {
        for (let k = 0; k < 3; k++) {
            lo[k] = Math.min(lo[k], p[i + k]);
            hi[k] = Math.max(hi[k], p[i + k]);
        }
    }
    return { lo, hi };
}

/**
 * The alignment of `moving` (x y z per vertex) onto `fixed`: bounding-box centres matched and a
 * uniform scale equal to the ratio of their heights (Y extents; 1 when either is flat).
 */
export function AlignRestPoses(moving: ArrayLike<number>, fixed: ArrayLike<number>): IRestAlignment {
    const a = boxOf(moving);
    const b = boxOf(fixed);
    const ha = a.hi[1] - a.lo[1];
    const hb = b.hi[1] - b.lo[1];
    const scale = ha > 0 && hb > 0 ? hb / ha : 1;
    const centre = (x: { lo: number[]; hi: number[] }): [number, number, number] => [(x.lo[0] + x.hi[0]) / 2, (x.lo[1] + x.hi[1]) / 2, (x.lo[2] + x.hi[2]) / 2];
    return { scale, from: centre(a), to: centre(b) };
}

/**
 * For every vertex of `query` (x y z each), the index of the nearest vertex of `points`, with
 * `query` first carried by `alignment` (default: as it is). Ties go to any of the nearest.
 * Cold path; allocates the octree.
 */
export function MatchNearestVertices(query: ArrayLike<number>, points: ArrayLike<number>, alignment?: IRestAlignment): Int32Array {
    const n = Math.floor(points.length / 3);
    const indices = Int32Array.from({ length: n }, (_, i) => i);
    const tree = octree<number>(
        Array.from(indices),
        (i) => points[3 * i],
        (i) => points[3 * i + 1],
        (i) => points[3 * i + 2],
    );
    const m = Math.floor(query.length / 3);
    const out = new Int32Array(m);
    const s = alignment?.scale ?? 1;
    const f = alignment?.from ?? [0, 0, 0];
    const t = alignment?.to ?? [0, 0, 0];
    for (let v = 0; v < m; v++) {
        const x = s * (query[3 * v] - f[0]) + t[0];
        const y = s * (query[3 * v + 1] - f[1]) + t[1];
        const z = s * (query[3 * v + 2] - f[2]) + t[2];
        const hit = tree.find(x, y, z);
        out[v] = hit === undefined ? 0 : hit;
    }
    return out;
}
