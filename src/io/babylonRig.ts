import { Matrix, Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import type { Skeleton } from "@babylonjs/core/Bones/skeleton.js";
import type { Bone } from "@babylonjs/core/Bones/bone.js";
import type { Node } from "@babylonjs/core/node.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { HumanoidError } from "../errors.js";
import { MeasureSurfaceBounds, SurfaceBelowFromBounds } from "./surfaceBounds.js";
import { ParseJointName } from "../humanoid/boneNames.js";
import { CreateRigFromWorldMatrices, RigJointKind, RigPoseFromWorldMatrices, type IRig, type IRigPose } from "../humanoid/rig.js";

/**
 * The glTF `nodes` index Babylon's glTF loader recorded on a node (`/nodes/N` pointer), or -1.
 * @param node a node made by the glTF loader
 */
export function GetGltfNodeIndex(node: Node): number {
    const meta = (node as unknown as { _internalMetadata?: { gltf?: { pointers?: string[] } } })._internalMetadata;
    for (const p of meta?.gltf?.pointers ?? []) {
        const m = /^\/nodes\/(\d+)$/.exec(p);
        if (m) {
            return Number(m[1]);
        }
    }
    return -1;
}

/**
 * The name a node had in its file: `""` for glTF nodes the loader named `node<N>` because they had
 * none (Babylon gives unnamed nodes that name).
 */
function sourceName(node: Node, gltfIndex: number, gltfNames?: ReadonlyArray<string | undefined>): string {
    if (gltfIndex >= 0 && gltfNames) {
        return gltfNames[gltfIndex] ?? "";
    }
    if (gltfIndex >= 0 && node.name === `node${gltfIndex}`) {
        return "";
    }
    return node.name;
}

/** `true` for a mesh node that carries geometry (not a joint). */
function hasGeometry(node: Node): boolean {
    const m = node as unknown as { getTotalVertices?: () => number };
    return typeof m.getTotalVertices === "function" && m.getTotalVertices() > 0;
}

/** Options of the Babylon rig adapters. */
export interface IBabylonRigOptions {
    /** Name for messages. Default: the skeleton's or root node's name. */
    source?: string;
    /** Names of the glTF nodes as in the file (by glTF index), to tell unnamed nodes from nodes named `nodeN`. */
    gltfNodeNames?: ReadonlyArray<string | undefined>;
    /**
     * Nodes that are joints. Default: for a skeleton, its bones' linked nodes; for a node hierarchy,
     * every node without geometry.
     */
    isJoint?: (node: TransformNode) => boolean;
}

/**
 * Reads a Babylon node hierarchy (for example the `__root__` of a loaded glTF, or a hierarchy built
 * by hand) as a rig. Every descendant of `root` becomes a joint; the transforms above `root` (and
 * `root` itself) only place it in the world, handedness mirror included. The nodes' current local
 * transforms are taken as the rest pose. Nothing is modified.
 * @param root the node whose descendants form the skeleton
 */
export function CreateRigFromTransformNode(root: Node, options: IBabylonRigOptions = {}): IRig {
    return BindRigToTransformNode(root, options).rig;
}

/** A rig read from a node hierarchy, with the node behind each joint (same order). */
export interface IRigNodeBinding {
    /** The rig. */
    readonly rig: IRig;
    /** The node of every joint. */
    readonly nodes: readonly TransformNode[];
}

/**
 * Per binding's `nodes` array: the node the rig was read under and its world matrix then. The rig
 * is in the world as it was at the binding, so its space is where that node stood then
 * ({@link BoundRigToWorldToRef}).
 */
const boundSpaces = new WeakMap<readonly TransformNode[], { node: TransformNode; world: Matrix }>();

/**
 * Rig space to the world as it is now (Babylon's row-vector order: `world = rig * out`) for nodes
 * bound by {@link BindRigToTransformNode}: the node the rig was read under, from where it stood
 * at the binding to where it stands now (identity when it has not moved). Returns false, `out`
 * untouched, for nodes that binding did not return (the caller's own array, or a copy of it).
 * Cold path; allocates.
 * @param nodes the `nodes` array of the binding
 * @param out receives the matrix
 */
export function BoundRigToWorldToRef(nodes: readonly unknown[], out: Matrix): boolean {
    const bound = boundSpaces.get(nodes as readonly TransformNode[]);
    if (!bound) return false;
    Matrix.Invert(bound.world).multiplyToRef(bound.node.computeWorldMatrix(true), out);
    return true;
}

/**
 * Like {@link CreateRigFromTransformNode}, and also returns the node of every joint, so that poses
 * of the hierarchy (for example while an AnimationGroup plays) can be read with
 * {@link ReadRigPoseFromNodes}.
 */
export function BindRigToTransformNode(root: Node, options: IBabylonRigOptions = {}): IRigNodeBinding {
    const nodes: TransformNode[] = [];
    const visit = (n: Node): void => {
        for (const c of n.getChildren(undefined, true)) {
            if ((c as TransformNode).getWorldMatrix && (c as TransformNode).position !== undefined) {
                nodes.push(c as TransformNode);
                visit(c);
            }
        }
    };
    visit(root);
    if (!nodes.length) {
        throw new HumanoidError("BAD_HIERARCHY", `${options.source ?? root.name}: the node '${root.name}' has no child transforms`);
    }
    const index = new Map<Node, number>(nodes.map((n, i) => [n, i]));
    const isJoint = options.isJoint ?? ((n: TransformNode) => !hasGeometry(n));
    const joint = nodes.map((n) => isJoint(n));
    const hasChild = new Uint8Array(nodes.length);
    for (const n of nodes) {
        const p = n.parent ? index.get(n.parent) : undefined;
        if (p !== undefined) hasChild[p] = 1;
    }
    /**
     * A joint's kind. A node that is not a joint but ends a chain of joints (a leaf without
     * geometry, named as a tip, whose parent is a joint: Blender's `Foot.L_end`, Mixamo's
     * `LeftToe_End` and `HeadTop_End` where the exporter left them out of the skin) is the tip of
     * its parent, as a BVH End Site: it gives the parent's direction and, under a foot, its front
     * and the sole's height (three.js's RobotExpressive has no toes and a foot whose only forward
     * child is such a tip: held at its ankle, its heel could not come up at a push-off).
     */
    const gltfIndices = nodes.map((n) => GetGltfNodeIndex(n));
    const names = nodes.map((n, i) => sourceName(n, gltfIndices[i], options.gltfNodeNames));
    const kindOf = (i: number): RigJointKind => {
        if (joint[i]) return RigJointKind.Bone;
        const n = nodes[i];
        const p = n.parent ? index.get(n.parent) : undefined;
        // Named as a tip (`_end`, `End`, `Nub`, `Tip`, `Top`): an empty socket for a prop under a
        // hand without fingers would otherwise turn the hand to point at it.
        const tip = !hasChild[i] && p !== undefined && joint[p] && !hasGeometry(n) && ParseJointName(names[i]).hints.has("nub");
        return tip ? RigJointKind.EndSite : RigJointKind.Node;
    };
    const rig = CreateRigFromWorldMatrices(
        options.source ?? root.name,
        nodes.map((n, i) => {
            return {
                name: names[i],
                parent: n.parent ? (index.get(n.parent) ?? -1) : -1,
                kind: kindOf(i),
                sourceIndex: gltfIndices[i],
                world: n.computeWorldMatrix(true).clone(),
            };
        }),
    );
    const rootNode = root as TransformNode;
    if (typeof rootNode.computeWorldMatrix === "function") boundSpaces.set(nodes, { node: rootNode, world: rootNode.computeWorldMatrix(true).clone() });
    // The surface bound to each joint, where the hierarchy holds meshes (the ground and the fronts of feet that end at their ankles).
    const surfaceBounds = MeasureSurfaceBounds(nodes, index, (j) => joint[j]);
    return { rig: surfaceBounds ? { ...rig, surfaceBounds, surfaceBelow: SurfaceBelowFromBounds(surfaceBounds) } : rig, nodes };
}

/**
 * The current pose of a bound node hierarchy as a rig pose (rig space: the handedness mirror
 * removed as when the rig was read). Cold path; allocates.
 */
export function ReadRigPoseFromNodes(binding: IRigNodeBinding): IRigPose {
    const parents = binding.rig.joints.map((j) => j.parent);
    // World matrices top-down so each is up to date.
    const worlds = binding.nodes.map((n) => n.computeWorldMatrix(true).clone());
    const pose = RigPoseFromWorldMatrices(parents, worlds);
    return { label: "nodes", rotations: pose.rotations, positions: pose.positions };
}
/**
 * Reads a Babylon skeleton as a rig, in its rest pose (`bone.getRestMatrix()`), whatever pose it is
 * in now. Bones linked to TransformNodes (every glTF skeleton) are placed through their nodes'
 * parents, so the armature's scale and the handedness mirror of `__root__` are honoured; unlinked
 * bones are placed by the first mesh that uses the skeleton. Nothing is modified.
 */
export function CreateRigFromSkeleton(skeleton: Skeleton, options: IBabylonRigOptions = {}): IRig {
    const source = options.source ?? skeleton.name;
    const bones = skeleton.bones;
    if (!bones.length) {
        throw new HumanoidError("BAD_HIERARCHY", `${source}: the skeleton has no bones`);
    }
    const linked = bones.every((b) => b.getTransformNode());
    if (linked) {
        // Bones, their linked nodes' ancestors, and nodes between bones, parents first.
        const boneOfNode = new Map<Node, Bone>(bones.map((b) => [b.getTransformNode()!, b]));
        const all = new Set<Node>();
        for (const b of bones) {
            for (let n: Node | null = b.getTransformNode(); n; n = n.parent) {
                all.add(n);
            }
        }
        const depth = (n: Node): number => {
            let d = 0;
            for (let p = n.parent; p; p = p.parent) {
                d++;
            }
            return d;
        };
        const nodes = [...all].sort((a, b) => depth(a) - depth(b));
        const index = new Map<Node, number>(nodes.map((n, i) => [n, i]));
        const worlds: Matrix[] = [];
        return CreateRigFromWorldMatrices(
            source,
            nodes.map((n, i) => {
                const bone = boneOfNode.get(n);
                const parent = n.parent ? (index.get(n.parent) ?? -1) : -1;
                let world: Matrix;
                if (bone) {
                    // world = restLocal * parentWorld (row vectors)
                    const parentWorld = parent >= 0 ? worlds[parent] : n.parent ? (n.parent as TransformNode).computeWorldMatrix(true) : Matrix.Identity();
                    world = bone.getRestMatrix().multiply(parentWorld);
                } else if (parent >= 0) {
                    // A plain node between bones: its own local transform under its parent's rest.
                    const t = n as TransformNode;
                    const rot = t.rotationQuaternion ?? Quaternion.FromEulerVector(t.rotation);
                    world = Matrix.Compose(t.scaling, rot, t.position).multiply(worlds[parent]);
                } else {
                    world = (n as TransformNode).computeWorldMatrix(true).clone();
                }
                worlds[i] = world;
                const gltfIndex = GetGltfNodeIndex(n);
                return {
                    name: sourceName(n, gltfIndex, options.gltfNodeNames),
                    parent,
                    kind: bone ? RigJointKind.Bone : RigJointKind.Node,
                    sourceIndex: gltfIndex,
                    world,
                };
            }),
        );
    }
    const mesh = skeleton.getScene().meshes.find((m) => m.skeleton === skeleton);
    const meshWorld = mesh ? mesh.computeWorldMatrix(true) : Matrix.Identity();
    const index = new Map<Bone, number>(bones.map((b, i) => [b, i]));
    const order = [...bones].sort((a, b) => {
        const d = (x: Bone): number => {
            let k = 0;
            for (let p = x.getParent(); p; p = p.getParent()) {
                k++;
            }
            return k;
        };
        return d(a) - d(b);
    });
    const pos = new Map<Bone, number>(order.map((b, i) => [b, i]));
    const worlds: Matrix[] = [];
    return CreateRigFromWorldMatrices(
        source,
        order.map((b, i) => {
            const p = b.getParent();
            const parentWorld = p ? worlds[pos.get(p)!] : meshWorld;
            worlds[i] = b.getRestMatrix().multiply(parentWorld);
            return { name: b.name, parent: p ? pos.get(p)! : -1, kind: RigJointKind.Bone, sourceIndex: index.get(b)!, world: worlds[i] };
        }),
    );
}
