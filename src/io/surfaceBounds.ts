import type { Node } from "@babylonjs/core/node.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import { InterleaveInfluences } from "../skin/linearBlendSkinning.js";

/**
 * Babylon's vertex data kinds (`VertexBuffer.PositionKind`...), written out: importing
 * `VertexBuffer` brings Babylon's buffer module into every bundle that reads a rig from nodes (the
 * animator alone 292 -> 457 KiB).
 */
const POSITION = "position";
const INDICES = "matricesIndices";
const WEIGHTS = "matricesWeights";
const INDICES_EXTRA = "matricesIndicesExtra";
const WEIGHTS_EXTRA = "matricesWeightsExtra";

/**
 * The box of the surface bound to each joint in the rest pose: per joint, the least and greatest
 * x, y and z of the vertices bound to it, from the joint's rest position (metres, the scene's
 * axes: six numbers a joint, `[least x, y, z, greatest x, y, z]`, all NaN where no vertex is). A
 * skinned mesh's vertex belongs to the joint that weighs most in it, placed as its bone's inverse
 * bind matrix and the joint's node put it (the bind pose, which a file's rest pose is); a mesh
 * without a skin belongs whole to the nearest joint above it.
 *
 * What it is for: a character whose feet end at their ankles (no toes, no tip joint below them)
 * stands on its surface's lowest point, not its ankles (`MuscleSetup.scale`: the Saxon warrior of
 * colesam/uploads, whose lowest joints are its ankles, planted them on the floor, its boots 7 cm
 * into it), and its feet's fronts are read from how far their surface reaches forward
 * (`MuscleSetup.footFront`). Cold path (a character's load); allocates.
 * @param nodes the rig's nodes, in its joints' order (`BindRigToTransformNode`)
 * @param index each node's joint index
 * @param isBone whether a joint can carry a bone (where a vertex may belong)
 * @returns six numbers per joint (metres), or null when no mesh of the hierarchy has vertices
 */
export function MeasureSurfaceBounds(
    nodes: readonly TransformNode[],
    index: ReadonlyMap<Node, number>,
    isBone: (joint: number) => boolean,
): Float64Array | null {
    const box = new Float64Array(6 * nodes.length);
    for (let j = 0; j < nodes.length; j++) box.fill(Infinity, 6 * j, 6 * j + 3).fill(-Infinity, 6 * j + 3, 6 * j + 6);
    let any = false;
    const add = (j: number, x: number, y: number, z: number): void => {
        const b = 6 * j;
        if (x < box[b]) box[b] = x;
        if (y < box[b + 1]) box[b + 1] = y;
        if (z < box[b + 2]) box[b + 2] = z;
        if (x > box[b + 3]) box[b + 3] = x;
        if (y > box[b + 4]) box[b + 4] = y;
        if (z > box[b + 5]) box[b + 5] = z;
        any = true;
    };
    for (const node of nodes) {
        const mesh = node as unknown as AbstractMesh;
        if (typeof mesh.getVerticesData !== "function") continue;
        const positions = mesh.getVerticesData(POSITION);
        if (!positions || positions.length < 3) continue;
        const skeleton = mesh.skeleton;
        const indices = skeleton ? mesh.getVerticesData(INDICES) : null;
        const weights = skeleton ? mesh.getVerticesData(WEIGHTS) : null;
        if (skeleton && indices && weights) {
            // Per skin slot (a vertex's bone numbers are the bones' `getIndex()`, not their places
            // in `skeleton.bones`, which also holds the skin's ancestors, at -1): its joint and
            // (inverse bind * the node's world), row-vector order.
            let slots = 0;
            for (const bone of skeleton.bones) slots = Math.max(slots, bone.getIndex() + 1);
            const joint = new Int32Array(slots).fill(-1);
            const matrix = new Float64Array(16 * slots);
            for (const bone of skeleton.bones) {
                const slot = bone.getIndex();
                const tn = bone.getTransformNode();
                const j = slot >= 0 && tn ? index.get(tn) : undefined;
                if (j === undefined || !isBone(j)) continue;
                joint[slot] = j;
                matrix.set(bone.getAbsoluteInverseBindMatrix().multiply(tn!.computeWorldMatrix(true)).m, 16 * slot);
            }
            const count = Math.min(positions.length / 3, indices.length / 4, weights.length / 4);
            const { influences, boneIndices, boneWeights } = InterleaveInfluences(
                count,
                indices,
                weights,
                mesh.getVerticesData(INDICES_EXTRA),
                mesh.getVerticesData(WEIGHTS_EXTRA),
            );
            for (let v = 0; v < count; v++) {
                let best = -1;
                let most = 0;
                for (let k = v * influences; k < (v + 1) * influences; k++) {
                    if (boneWeights[k] > most) {
                        most = boneWeights[k];
                        best = boneIndices[k];
                    }
                }
                const j = best >= 0 && best < joint.length ? joint[best] : -1;
                if (j < 0) continue;
                const m = 16 * best;
                const px = positions[3 * v];
                const py = positions[3 * v + 1];
                const pz = positions[3 * v + 2];
                add(
                    j,
                    px * matrix[m] + py * matrix[m + 4] + pz * matrix[m + 8] + matrix[m + 12],
                    px * matrix[m + 1] + py * matrix[m + 5] + pz * matrix[m + 9] + matrix[m + 13],
                    px * matrix[m + 2] + py * matrix[m + 6] + pz * matrix[m + 10] + matrix[m + 14],
                );
            }
        } else {
            // A rigid mesh: the nearest joint above it.
            let j = -1;
            for (let p: Node | null = mesh.parent; p && j < 0; p = p.parent) {
                const k = index.get(p);
                if (k !== undefined && isBone(k)) j = k;
            }
            if (j < 0) continue;
            const m = mesh.computeWorldMatrix(true).m;
            for (let v = 0; v < positions.length; v += 3) {
                const px = positions[v];
                const py = positions[v + 1];
                const pz = positions[v + 2];
                add(j, px * m[0] + py * m[4] + pz * m[8] + m[12], px * m[1] + py * m[5] + pz * m[9] + m[13], px * m[2] + py * m[6] + pz * m[10] + m[14]);
            }
        }
    }
    if (!any) return null;
    for (let j = 0; j < nodes.length; j++) {
        const b = 6 * j;
        const at = nodes[j].computeWorldMatrix(true).m;
        const ok = box[b] <= box[b + 3] && Number.isFinite(at[12] + at[13] + at[14]);
        for (let k = 0; k < 6; k++) box[b + k] = ok ? box[b + k] - at[12 + (k % 3)] : NaN;
    }
    return box;
}

/**
 * How far below each joint its surface reaches in the rest pose (metres along the scene's up, y;
 * NaN where no vertex is bound to it): minus the least y of {@link MeasureSurfaceBounds}.
 * @param bounds six numbers a joint ({@link MeasureSurfaceBounds})
 */
export function SurfaceBelowFromBounds(bounds: Float64Array): Float64Array {
    const below = new Float64Array(bounds.length / 6);
    for (let j = 0; j < below.length; j++) below[j] = -bounds[6 * j + 1];
    return below;
}
