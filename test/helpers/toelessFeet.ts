import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { IGltfNodeLike } from "../../src/io/detachedFeetGltf.js";
import { EditGlb } from "./glbJson.js";

type GltfNode = IGltfNodeLike & { mesh?: number; skin?: number };
type Gltf = {
    nodes: GltfNode[];
    skins: { joints: number[] }[];
    meshes: { primitives: { attributes: Record<string, number> }[] }[];
    accessors: { bufferView?: number; byteOffset?: number; componentType: number; count: number; type: string }[];
    bufferViews: { byteOffset?: number; byteStride?: number }[];
};

/** A node's local transform (Babylon's row-vector order). */
function local(n: IGltfNodeLike): Matrix {
    if (n.matrix) return Matrix.FromArray(n.matrix);
    return Matrix.Compose(
        Vector3.FromArray(n.scale ?? [1, 1, 1]),
        Quaternion.FromArray(n.rotation ?? [0, 0, 0, 1]),
        Vector3.FromArray(n.translation ?? [0, 0, 0]),
    );
}

/**
 * Writes `output` (and returns it): the X Bot (its file, `xbot`) with feet that end at their ankles, as many game characters' do (the
 * Saxon warrior of colesam/uploads): every vertex its toes' joints carried is bound to its foot
 * instead (the skins' joint numbers rewritten in the binary chunk), and each toe chain moved from
 * its foot to the armature's root where it was in the world ({@link MoveXBotToesOffFeet}), so that
 * no joint below the ankle is left and the foot's surface reaches to the toes' tips.
 */
export function WriteXBotWithToesOnFeet(xbot: string, output: string): string {
    EditGlb<Gltf>(
        xbot,
        (json, bin) => {
            const nodes = json.nodes;
            const parentOf = (i: number): number => nodes.findIndex((n) => n.children?.includes(i));
            for (const side of ["Left", "Right"]) {
                const toe = nodes.findIndex((n) => n.name === `mixamorig:${side}ToeBase`);
                const foot = parentOf(toe);
                const chain = new Set<number>();
                for (const stack = [toe]; stack.length;) {
                    const j = stack.pop()!;
                    chain.add(j);
                    stack.push(...(nodes[j].children ?? []));
                }
                // Every skinned primitive's vertices on the chain's joints go to the foot's.
                for (const node of nodes) {
                    if (node.mesh === undefined || node.skin === undefined) continue;
                    const joints = json.skins[node.skin].joints;
                    const footSlot = joints.indexOf(foot);
                    const moved = new Set(joints.flatMap((j, slot) => (chain.has(j) ? [slot] : [])));
                    for (const primitive of json.meshes[node.mesh].primitives) {
                        const a = json.accessors[primitive.attributes.JOINTS_0];
                        if (!a || a.bufferView === undefined) continue;
                        const view = json.bufferViews[a.bufferView];
                        const size = a.componentType === 5121 ? 1 : 2;
                        const stride = view.byteStride ?? 4 * size;
                        const base = (view.byteOffset ?? 0) + (a.byteOffset ?? 0);
                        for (let v = 0; v < a.count; v++) {
                            for (let k = 0; k < 4; k++) {
                                const at = base + v * stride + k * size;
                                const slot = size === 1 ? bin.readUInt8(at) : bin.readUInt16LE(at);
                                if (!moved.has(slot)) continue;
                                if (size === 1) bin.writeUInt8(footSlot, at);
                                else bin.writeUInt16LE(footSlot, at);
                            }
                        }
                    }
                }
            }
            MoveXBotToesOffFeet(json);
        },
        output,
    );
    return output;
}

/**
 * The X Bot's glTF JSON with each toe chain moved from its foot to the armature's root, where it
 * was in the world: its feet end at their ankles (the toes' vertices stay bound to the toes).
 */
export function MoveXBotToesOffFeet(json: { nodes: IGltfNodeLike[] }): void {
    const nodes = json.nodes;
    const parentOf = (i: number): number => nodes.findIndex((n) => n.children?.includes(i));
    const world = (i: number): Matrix => {
        let m = local(nodes[i]);
        for (let p = parentOf(i); p >= 0; p = parentOf(p)) m = m.multiply(local(nodes[p]));
        return m;
    };
    const armature = nodes.findIndex((n) => n.name === "Armature");
    for (const side of ["Left", "Right"]) {
        const toe = nodes.findIndex((n) => n.name === `mixamorig:${side}ToeBase`);
        const foot = parentOf(toe);
        const w = world(toe);
        nodes[foot].children = nodes[foot].children!.filter((c) => c !== toe);
        nodes[armature].children!.push(toe);
        const s = new Vector3();
        const r = new Quaternion();
        const t = new Vector3();
        w.multiply(Matrix.Invert(world(armature))).decompose(s, r, t);
        Object.assign(nodes[toe], { translation: t.asArray(), rotation: [r.x, r.y, r.z, r.w], scale: s.asArray() });
        delete nodes[toe].matrix;
    }
}
