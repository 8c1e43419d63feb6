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
 * How far below each joint its surface reaches in the rest pose: per joint, its rest position's
 * height less the lowest vertex bound to it (metres along world up, the scene's y), NaN where no
 * vertex is. A skinned mesh's vertex belongs to the joint that weighs most in it, placed as its
 * bone's inverse bind matrix and the joint's node put it (the bind pose, which a file's rest pose
 * is); a mesh without a skin belongs whole to the nearest joint above it.
 *
 * What it is for: the ground of a character whose feet end at their ankles (no toes, no tip
 * joint below them) is read from its surface, not its joints (`MuscleSetup.scale`): the Saxon
 * warrior of colesam/uploads, whose lowest joints are its ankles, planted them on the floor, its
 * boots 7 cm into it. Cold path (a character's load); allocates.
 * @param nodes the rig's nodes, in its joints' order (`BindRigToTransformNode`)
 * @param index each node's joint index
 * @param isBone whether a joint can carry a bone (where a vertex may belong)
 * @returns per joint, the depth below it (metres), or null when no mesh of the hierarchy has vertices
 */
export function MeasureSurfaceBelowJoints(
    nodes: readonly TransformNode[],
    index: ReadonlyMap<Node, number>,
    isBone: (joint: number) => boolean,
): Float64Array | null {
    const lowest = new Float64Array(nodes.length).fill(Infinity);
    let any = false;
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
            // in `skeleton.bones`, which also holds the skin's ancestors, at -1): its joint and the y
            // row of (inverse bind * the node's world), row-vector order.
            let slots = 0;
            for (const bone of skeleton.bones) slots = Math.max(slots, bone.getIndex() + 1);
            const joint = new Int32Array(slots).fill(-1);
            const row = new Float64Array(4 * slots);
            for (const bone of skeleton.bones) {
                const slot = bone.getIndex();
                const tn = bone.getTransformNode();
                const j = slot >= 0 && tn ? index.get(tn) : undefined;
                if (j === undefined || !isBone(j)) continue;
                joint[slot] = j;
                const m = bone.getAbsoluteInverseBindMatrix().multiply(tn!.computeWorldMatrix(true)).m;
                row[4 * slot] = m[1];
                row[4 * slot + 1] = m[5];
                row[4 * slot + 2] = m[9];
                row[4 * slot + 3] = m[13];
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
                const y =
                    positions[3 * v] * row[4 * best] + positions[3 * v + 1] * row[4 * best + 1] + positions[3 * v + 2] * row[4 * best + 2] + row[4 * best + 3];
                if (y < lowest[j]) {
                    lowest[j] = y;
                    any = true;
                }
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
                const y = positions[v] * m[1] + positions[v + 1] * m[5] + positions[v + 2] * m[9] + m[13];
                if (y < lowest[j]) {
                    lowest[j] = y;
                    any = true;
                }
            }
        }
    }
    if (!any) return null;
    const below = new Float64Array(nodes.length).fill(NaN);
    for (let j = 0; j < nodes.length; j++) {
        if (lowest[j] === Infinity) continue;
        const d = nodes[j].computeWorldMatrix(true).m[13] - lowest[j];
        if (Number.isFinite(d)) below[j] = d;
    }
    return below;
}
