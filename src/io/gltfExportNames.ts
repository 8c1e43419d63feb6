import type { Node } from "@babylonjs/core/node.js";
import { GetGltfNodeIndex } from "./babylonRig.js";
import type { IGltfDocument } from "./gltfJson.js";

/** Base name of a node that has no name and no glTF index. */
const UNNAMED = "unnamed";

/**
 * Who claims a name first when two nodes want the same one (lower first): named nodes of the input
 * file keep their names, then unnamed ones get `node<N>`, then what the loader added.
 */
enum NameClass {
    /** A node of the input file with a name. */
    Named = 0,
    /** A node of the input file without one: `node<its index>`. */
    Unnamed = 1,
    /**
     * The empty node Babylon's loader keeps for a skinned mesh's own transform (and children) while
     * the mesh itself goes beside the skeleton: the same name as the mesh, which keeps it.
     */
    SkinHolder = 2,
    /** Anything else (the loader's primitive meshes, nodes made in code): its own name. */
    Other = 3,
}

interface ICandidate {
    readonly node: Node;
    readonly base: string;
    readonly cls: NameClass;
    /** glTF node index in the input file, or Infinity. */
    readonly order: number;
}

/** `true` for a mesh node (a node the exporter gives a mesh). */
function isMesh(node: Node): boolean {
    return typeof (node as unknown as { getTotalVertices?: unknown }).getTotalVertices === "function";
}

/**
 * Names for the nodes of a glTF export: every node gets one, no two the same, each traceable to the
 * input file (`GLTF2Export` writes a Babylon node's `name` as it is, and Babylon's glTF loader names
 * a skinned mesh and the empty node holding its transform alike, so a file loaded and written again
 * would hold repeated names).
 *
 * - A node of the input file (known by the glTF pointer the loader records) is named as in the file,
 *   or `node<N>` (N its index in the file's `nodes`) when it had no name there, whatever it is called
 *   now. A skinned mesh, which the loader makes without a pointer, is known by the name the loader
 *   gave it.
 * - Names are made unique with `_2`, `_3`... (the smallest free one). A name given once stays as it
 *   is; of a name given several times the first keeps it. Who comes first: named input nodes, then
 *   unnamed ones, then a skinned mesh's transform holder, then other nodes (their own names, or
 *   `unnamed`); within each, the input file's node order, then the order of `nodes`.
 *
 * Nothing is modified (see {@link SetGltfExportNodeNames} to apply the names).
 * @param nodes the nodes to be exported
 * @param gltf the JSON of the file they were loaded from, if any (without it, nodes keep their names, made unique)
 * @returns the name of every node of `nodes`
 */
export function GetGltfExportNodeNames(nodes: Iterable<Node>, gltf?: IGltfDocument): Map<Node, string> {
    const docNodes = gltf?.nodes ?? [];
    const loaderName = (i: number): string => docNodes[i].name || `node${i}`;
    // A skinned mesh's node as the loader names it: the mesh (or its primitives' parent) goes without a glTF pointer.
    const skinnedByName = new Map<string, number>();
    docNodes.forEach((n, i) => {
        if (n.mesh !== undefined && n.skin !== undefined && !skinnedByName.has(loaderName(i))) skinnedByName.set(loaderName(i), i);
    });
    const candidates: ICandidate[] = [];
    for (const node of new Set(nodes)) {
        let index = GetGltfNodeIndex(node);
        if (index >= docNodes.length) index = -1;
        let cls: NameClass;
        if (index >= 0) {
            const d = docNodes[index];
            cls = d.mesh !== undefined && d.skin !== undefined && !isMesh(node) ? NameClass.SkinHolder : d.name ? NameClass.Named : NameClass.Unnamed;
        } else {
            index = skinnedByName.get(node.name) ?? -1;
            cls = index < 0 ? NameClass.Other : docNodes[index].name ? NameClass.Named : NameClass.Unnamed;
        }
        const base = index >= 0 ? loaderName(index) : node.name || UNNAMED;
        candidates.push({ node, base, cls, order: index >= 0 ? index : Infinity });
    }
    // Stable: equal keys keep the order of `nodes`.
    candidates.sort((a, b) => a.cls - b.cls || a.order - b.order);
    const taken = new Set<string>();
    const names = new Map<Node, string>();
    for (let start = 0; start < candidates.length;) {
        let end = start;
        while (end < candidates.length && candidates[end].cls === candidates[start].cls) end++;
        const group = candidates.slice(start, end);
        const count = new Map<string, number>();
        for (const c of group) count.set(c.base, (count.get(c.base) ?? 0) + 1);
        // Names given once (and still free) first, so that a suffix never takes one.
        for (const c of group) {
            if (count.get(c.base) === 1 && !taken.has(c.base)) {
                taken.add(c.base);
                names.set(c.node, c.base);
            }
        }
        for (const c of group) {
            if (names.has(c.node)) continue;
            let name = c.base;
            for (let k = 2; taken.has(name); k++) name = `${c.base}_${k}`;
            taken.add(name);
            names.set(c.node, name);
        }
        start = end;
    }
    return names;
}

/**
 * Renames nodes for a glTF export with {@link GetGltfExportNodeNames}, and returns a function that
 * puts their names back (call it once the export is done).
 * @param nodes the nodes to be exported
 * @param gltf the JSON of the file they were loaded from, if any
 */
export function SetGltfExportNodeNames(nodes: Iterable<Node>, gltf?: IGltfDocument): () => void {
    const names = GetGltfExportNodeNames(nodes, gltf);
    const saved = [...names.keys()].map((node) => [node, node.name] as const);
    for (const [node, name] of names) node.name = name;
    return () => {
        for (const [node, name] of saved) node.name = name;
    };
}
