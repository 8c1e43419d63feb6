/** The part of d3-octree (MIT, no types of its own) this library uses. */
declare module "d3-octree" {
    /** A point octree over data items. */
    export interface Octree<T> {
        /** The item nearest (x, y, z) within `radius` (default: any distance), or undefined when the tree is empty or none is that close. */
        find(x: number, y: number, z: number, radius?: number): T | undefined;
    }
    /** Builds an octree of `nodes`, placed by the three accessors. */
    export function octree<T>(nodes: T[], x: (d: T) => number, y: (d: T) => number, z: (d: T) => number): Octree<T>;
}
