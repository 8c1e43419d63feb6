import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { FindDetachedFeet } from "../humanoid/detachedFeet.js";

/** How far a foot's new local transform may differ from its translation, rotation and scale put back together, a share of its largest entry (more: it has shear, and the foot is left). */
const SHEAR_TOLERANCE = 1e-4;

/** The parts of a glTF node {@link AttachDetachedFeetInGltf} reads and writes (the glTF JSON's own fields). */
export interface IGltfNodeLike {
    /** The node's name. */
    name?: string;
    /** Its children's indices. */
    children?: number[];
    /** Its translation (x, y, z). */
    translation?: number[];
    /** Its rotation (a unit quaternion, x, y, z, w). */
    rotation?: number[];
    /** Its scale (x, y, z). */
    scale?: number[];
    /** Its transform as a column-major 4x4 matrix, in place of the three above. */
    matrix?: number[];
}

/** A foot moved under its lower leg by {@link AttachDetachedFeetInGltf}: the two nodes' names. */
export interface IAttachedFoot {
    /** The foot's node name. */
    readonly foot: string;
    /** The lower leg's node name, its new parent. */
    readonly lowerLeg: string;
    /** The name of the node it hung under before, or `""` when it was a scene root. */
    readonly formerParent: string;
}

/**
 * Moves feet that a rig keeps beside its legs under their lower legs, in a glTF document's JSON
 * (in place), each keeping its place in the world: the layout rigs built for IK are often exported
 * with (three.js's RobotExpressive keeps `Foot.L` under its armature's root, Blender rigs with IK
 * controls under a `FootControl.L`; each lower leg is then a leaf), which no humanoid map can read
 * (a humanoid's foot is its lower leg's child, as in Mecanim). Run before the file is loaded (the
 * glTF loader's `onParsed`), the skeleton then loads as a plain humanoid's: the skin's inverse bind
 * matrices depend only on each joint's transform in the world at the bind, not on its parents,
 * and stay right.
 *
 * Per side (by the names' side words), a foot is moved only when exactly one joint is named as that
 * side's foot with no joint named as a lower leg above it and exactly one as that side's lower leg
 * that ends its leg (no twist joint; below it only tips and helpers, above it an upper leg) with no
 * foot below it, and when its transform under the lower leg holds no shear; anything else is left
 * as it is (the mapper's error then names what it found). The foot's own animation channels, if the file has any, stay as they are: they keep
 * their keys relative to the old parent, so the file's own clips no longer place that foot (load
 * such a file as a retarget target, not as a source).
 * @param json the parsed glTF JSON (its `nodes`, `skins` and `scenes` are read; `nodes` and, for a foot that was a scene's root, `scenes` written)
 * @returns the feet moved (none when the rig has no such layout)
 */
export function AttachDetachedFeetInGltf(json: { nodes?: IGltfNodeLike[]; skins?: { joints?: number[] }[]; scenes?: { nodes?: number[] }[] }): IAttachedFoot[] {
    const nodes = json.nodes ?? [];
    const parent = new Int32Array(nodes.length).fill(-1);
    nodes.forEach((n, i) => n.children?.forEach((c) => (c >= 0 && c < nodes.length ? (parent[c] = i) : undefined)));
    // Skin joints when the file has skins (a mesh node named `Foot.L` is not a foot), else every node.
    const skinJoints = new Set<number>((json.skins ?? []).flatMap((s) => s.joints ?? []));
    const isJoint = (i: number): boolean => (skinJoints.size ? skinJoints.has(i) : true);
    const moved: IAttachedFoot[] = [];
    const names = nodes.map((n) => n.name ?? "");
    for (const side of [-1, 1]) {
        // Read afresh for each side: the first side's move changes the tree.
        const { info, feet: allFeet, footlessLowerLegs, hasAbove } = FindDetachedFeet(names, parent, isJoint);
        const isAbove = (a: number, b: number): boolean => hasAbove(b, (p) => p === a);
        const feet = allFeet.filter((i) => info[i].side === side);
        // A lower leg that ends the leg: no twist joint (a calf's twist leaf is no lower leg), no
        // joint below it but tips and helpers, an upper leg above it (and no foot below it).
        const legs = footlessLowerLegs.filter(
            (i) =>
                info[i].side === side &&
                !info[i].hints.has("twist") &&
                (nodes[i].children ?? []).every((c) => !isJoint(c) || info[c]?.hints.has("nub") || info[c]?.hints.has("helper")) &&
                hasAbove(i, (p) => isJoint(p) && info[p].hints.has("upperLeg")),
        );
        if (feet.length !== 1 || legs.length !== 1) continue;
        const foot = feet[0];
        const leg = legs[0];
        // The foot must not hang above the leg (a cycle).
        if (isAbove(foot, leg)) continue;
        // Its new local transform: its world over the lower leg's (Babylon's row-vector order:
        // world = local * parent's world).
        const local = worldMatrix(nodes, parent, foot).multiply(Matrix.Invert(worldMatrix(nodes, parent, leg)));
        const s = new Vector3();
        const r = new Quaternion();
        const t = new Vector3();
        if (!local.decompose(s, r, t)) continue;
        // A transform with shear (a parent scaled unevenly, the foot turned under it) has no
        // translation, rotation and scale that hold it, and glTF nodes hold no more: left.
        const back = Matrix.Compose(s, r, t);
        let size = 0;
        let off = 0;
        for (let k = 0; k < 16; k++) {
            size = Math.max(size, Math.abs(local.m[k]));
            off = Math.max(off, Math.abs(back.m[k] - local.m[k]));
        }
        if (!(off <= SHEAR_TOLERANCE * size)) continue;
        const from = parent[foot];
        if (from >= 0) nodes[from].children = (nodes[from].children ?? []).filter((c) => c !== foot);
        else for (const scene of json.scenes ?? []) if (scene.nodes) scene.nodes = scene.nodes.filter((c) => c !== foot);
        (nodes[leg].children ??= []).push(foot);
        parent[foot] = leg;
        const n = nodes[foot];
        delete n.matrix;
        n.translation = [t.x, t.y, t.z];
        n.rotation = [r.x, r.y, r.z, r.w];
        n.scale = [s.x, s.y, s.z];
        moved.push({ foot: n.name ?? "", lowerLeg: nodes[leg].name ?? "", formerParent: from >= 0 ? (nodes[from].name ?? "") : "" });
    }
    return moved;
}

/** A node's local transform as a Babylon matrix (row-vector order; glTF's column-major array reads as it is). */
function localMatrix(n: IGltfNodeLike): Matrix {
    if (n.matrix && n.matrix.length === 16) return Matrix.FromArray(n.matrix);
    const t = n.translation ?? [0, 0, 0];
    const r = n.rotation ?? [0, 0, 0, 1];
    const s = n.scale ?? [1, 1, 1];
    return Matrix.Compose(new Vector3(s[0], s[1], s[2]), new Quaternion(r[0], r[1], r[2], r[3]), new Vector3(t[0], t[1], t[2]));
}

/** A node's world transform in the file's own space (its locals down from its scene root). */
function worldMatrix(nodes: readonly IGltfNodeLike[], parent: Int32Array, i: number): Matrix {
    let m = localMatrix(nodes[i]);
    for (let p = parent[i], guard = 0; p >= 0 && guard <= nodes.length; p = parent[p], guard++) m = m.multiply(localMatrix(nodes[p]));
    return m;
}

/**
 * One line per foot {@link AttachDetachedFeetInGltf} moved, for people: where it hung and where it
 * went (what `retarget`, `inspect` and the playground say about such a character).
 * @param feet the feet moved
 */
export function AttachedFeetNotes(feet: readonly IAttachedFoot[]): string[] {
    return feet.map(
        (f) =>
            `the foot '${f.foot}' hung ${f.formerParent ? `under '${f.formerParent}'` : "at the top"}, beside its leg (an IK rig's layout): moved under '${f.lowerLeg}'`,
    );
}
