import { join } from "node:path";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { EditGlbJson } from "./glbJson.js";

// Characters of other proportions made from the public ones (each joint's rest offset scaled in the
// file's own JSON; the meshes left as they are, since the runtime and the report read the joints):
// stand-ins for the characters the project has not seen. One variant changes the rest pose instead
// (`apose`: arms down and legs apart, as many rigs are bound), which the avatar's T-pose
// enforcement has to undo, and two the humanoid map (`notoes`: the toe joints left unmapped;
// `noshoulders`: the collarbones).
// Used by `npm run report:variants` (scripts/report-variants.ts) and the tests that hold a fix on
// such a character.

interface IGltfNode {
    name?: string;
    translation?: number[];
    rotation?: number[];
    children?: number[];
}
interface IGltf {
    nodes: IGltfNode[];
    extensions?: { VRMC_vrm?: { humanoid: { humanBones: Record<string, { node: number }> } } };
}

/** The joints a variant changes, by VRM 1.0 bone name; each base character says where they are. */
type Bone = "hips" | "UpperLeg" | "LowerLeg" | "Foot" | "Toes" | "chest" | "upperChest" | "neck" | "head" | "Shoulder" | "UpperArm" | "LowerArm" | "Hand";

/** A character to remake: its file and how to find a bone's node (left and right for the limbs). */
export interface IBase {
    readonly name: string;
    readonly file: string;
    readonly ext: string;
    nodesOf(json: IGltf, bone: Bone): number[];
}

const MIXAMO: Record<Bone, string[]> = {
    hips: ["Hips"],
    UpperLeg: ["LeftUpLeg", "RightUpLeg"],
    LowerLeg: ["LeftLeg", "RightLeg"],
    Foot: ["LeftFoot", "RightFoot"],
    Toes: ["LeftToeBase", "RightToeBase"],
    chest: ["Spine1"],
    upperChest: ["Spine2"],
    neck: ["Neck"],
    head: ["Head"],
    Shoulder: ["LeftShoulder", "RightShoulder"],
    UpperArm: ["LeftArm", "RightArm"],
    LowerArm: ["LeftForeArm", "RightForeArm"],
    Hand: ["LeftHand", "RightHand"],
};

export const PROPORTION_BASES: IBase[] = [
    {
        name: "xbot",
        file: "glb/mixamo_xbot.glb",
        ext: ".glb",
        nodesOf: (json, bone) => MIXAMO[bone].map((n) => json.nodes.findIndex((x) => x.name === `mixamorig:${n}`)),
    },
    {
        name: "vrm",
        file: "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm",
        ext: ".vrm",
        nodesOf: (json, bone) => {
            const bones = json.extensions!.VRMC_vrm!.humanoid.humanBones;
            const names = /^[A-Z]/.test(bone) ? [`left${bone}`, `right${bone}`] : [bone];
            return names.map((n) => bones[n]?.node ?? -1);
        },
    },
];

/** How a variant remakes a character: each listed bone's rest offset from its parent scaled. */
type Edit = (json: IGltf, at: (bone: Bone) => IGltfNode[]) => void;

const scale = (nodes: IGltfNode[], k: number): void => {
    for (const n of nodes) if (n.translation) n.translation = n.translation.map((v) => v * k);
};
const length = (n: IGltfNode): number => Math.hypot(...(n.translation ?? [0, 0, 0]));
/** The legs (thigh and shin) k times as long, the hips raised or lowered by what the legs gained. */
const legs =
    (k: number): Edit =>
    (_json, at) => {
        const gain = (k - 1) * (length(at("LowerLeg")[0]) + length(at("Foot")[0]));
        scale([...at("LowerLeg"), ...at("Foot")], k);
        for (const h of at("hips")) if (h.translation) h.translation[1] += gain;
    };

/** A node's rotation (glTF order x, y, z, w), identity when it has none. */
const rotationOf = (n: IGltfNode): Quaternion => Quaternion.FromArray(n.rotation ?? [0, 0, 0, 1]);

/**
 * Each node of `upper` (the left and right joints of one bone) turned, in the world, by `degrees`
 * from the direction to the matching node of `lower` (its child bone) towards `toward(side, at)`
 * (`at`: the world positions of `upper`'s nodes, so a side can tell which way is out): the
 * rest as a rig bound with its limbs elsewhere than a T-pose has it; each node of `keep` (below
 * them: the feet) keeps its world rotation. The rest of the file is left as it is (the report
 * reads the joints).
 */
const turnLimb = (json: IGltf, upper: IGltfNode[], lower: IGltfNode[], degrees: number, toward: (side: number, at: Vector3[]) => Vector3, keep: IGltfNode[] = []): void => {
    const parent = new Map<IGltfNode, IGltfNode>();
    for (const n of json.nodes) for (const c of n.children ?? []) parent.set(json.nodes[c], n);
    const chain = (n: IGltfNode): IGltfNode[] => {
        const out: IGltfNode[] = [];
        for (let k: IGltfNode | undefined = n; k; k = parent.get(k)) out.unshift(k);
        return out;
    };
    const worldRotation = (n: IGltfNode | undefined): Quaternion =>
        n ? chain(n).reduce((q, k) => q.multiply(rotationOf(k)), Quaternion.Identity()) : Quaternion.Identity();
    const worldPosition = (n: IGltfNode): Vector3 => {
        let p = Vector3.Zero();
        let q = Quaternion.Identity();
        for (const k of chain(n)) {
            p = p.add(Vector3.FromArray(k.translation ?? [0, 0, 0]).applyRotationQuaternion(q));
            q = q.multiply(rotationOf(k));
        }
        return p;
    };
    const at = upper.map(worldPosition);
    const kept = keep.map(worldRotation);
    upper.forEach((n, side) => {
        const along = worldPosition(lower[side]).subtract(at[side]).normalize();
        const turn = Quaternion.RotationAxis(Vector3.Cross(along, toward(side, at)).normalize(), (degrees * Math.PI) / 180);
        // local' = P^-1 * turn * P * local, P the parent's world rotation.
        const p = worldRotation(parent.get(n));
        const local = Quaternion.Inverse(p).multiply(turn).multiply(p).multiply(rotationOf(n)).normalize();
        n.rotation = local.asArray();
    });
    keep.forEach((n, k) => {
        n.rotation = Quaternion.Inverse(worldRotation(parent.get(n))).multiply(kept[k]).normalize().asArray();
    });
};

export const PROPORTION_VARIANTS: Record<string, Edit> = {
    legs080: legs(0.8),
    legs125: legs(1.25),
    // The hip joints k times as far apart: their offset's larger horizontal part (x or z, as the file's axes go).
    hips160: (_json, at) => {
        for (const n of at("UpperLeg")) {
            const t = n.translation!;
            const i = Math.abs(t[0]) >= Math.abs(t[2]) ? 0 : 2;
            t[i] *= 1.6;
        }
    },
    trunk130: (_json, at) => scale([...at("chest"), ...at("upperChest"), ...at("neck"), ...at("head")], 1.3),
    arms120: (_json, at) => scale([...at("LowerArm"), ...at("Hand")], 1.2),
    // Thigh 1.2 times, shin 0.8 times as long (the leg about as long, its knee lower).
    thigh120: (_json, at) => {
        scale(at("LowerLeg"), 1.2);
        scale(at("Foot"), 0.8);
    },
    // Feet twice as long (the toes' offset from the ankle doubled), the figure raised by what the
    // toes dropped: a cartoon's foot, its ankle twice as high.
    feet200: (json, at) => {
        const parent = new Map<IGltfNode, IGltfNode>();
        for (const n of json.nodes) for (const c of n.children ?? []) parent.set(json.nodes[c], n);
        const [hips] = at("hips");
        const toes = at("Toes");
        // The toes' offset turned into the hips' parent's frame: the turns from there to the foot.
        let q = Quaternion.Identity();
        for (let k = parent.get(toes[0]); k && k !== hips; k = parent.get(k)) q = rotationOf(k).multiply(q);
        q = rotationOf(hips).multiply(q);
        const drop = -Vector3.FromArray(toes[0].translation ?? [0, 0, 0]).applyRotationQuaternion(q).y;
        scale(toes, 2);
        if (hips.translation && drop > 0) hips.translation[1] += drop;
    },
    // No toes mapped (VRM 0.x avatars and many game rigs have none): the toe joints left in the
    // skeleton, out of the humanoid map (the VRM's) and renamed past the name matcher (the X Bot's).
    notoes: (json, at) => {
        for (const n of at("Toes")) n.name = `tip_${json.nodes.indexOf(n)}`;
        const bones = json.extensions?.VRMC_vrm?.humanoid.humanBones;
        if (bones) {
            delete bones.leftToes;
            delete bones.rightToes;
        }
    },
    // No shoulders mapped (the KayKit mannequin, RiggedFigure and many game rigs have none): the
    // collarbone joints left in the skeleton, out of the humanoid map and renamed past the matcher.
    // The VRM's stay between its chest and upper arms, unmapped; the X Bot's upper arms hang from
    // its chest itself (its collarbones left as leaves, which its name matcher would map again).
    noshoulders: (json, at) => {
        const bones = json.extensions?.VRMC_vrm?.humanoid.humanBones;
        const arms = at("UpperArm");
        at("Shoulder").forEach((n, side) => {
            n.name = `clavicle_joint_${json.nodes.indexOf(n)}`;
            if (bones) return;
            // The upper arm moved up to the collarbone's parent, where it was: t = t_s + R_s t_a, R = R_s R_a.
            const arm = arms[side];
            const armIndex = json.nodes.indexOf(arm);
            const parent = json.nodes.find((p) => p.children?.includes(json.nodes.indexOf(n)))!;
            const r = rotationOf(n);
            const t = Vector3.FromArray(n.translation ?? [0, 0, 0]).add(Vector3.FromArray(arm.translation ?? [0, 0, 0]).applyRotationQuaternion(r));
            arm.translation = t.asArray();
            arm.rotation = r.multiply(rotationOf(arm)).normalize().asArray();
            n.children = n.children!.filter((c) => c !== armIndex);
            parent.children!.push(armIndex);
        });
        if (bones) {
            delete bones.leftShoulder;
            delete bones.rightShoulder;
        }
    },
    // Bound in an A-pose: the upper arms 45 degrees down, the thighs 8 degrees apart, the feet flat
    // (each keeps its world rest rotation, as an A-pose rig's feet stand on the floor; the
    // proportions the base's own).
    apose: (json, at) => {
        turnLimb(json, at("UpperArm"), at("LowerArm"), 45, () => new Vector3(0, -1, 0));
        // Out: from the middle between the hip joints towards this one, level.
        turnLimb(
            json,
            at("UpperLeg"),
            at("LowerLeg"),
            8,
            (side, hips) => {
                const out = hips[side].subtract(hips[1 - side]);
                out.y = 0;
                return out.normalize();
            },
            at("Foot"),
        );
    },
};

/**
 * Writes `output`: the base character `base` (a name of {@link PROPORTION_BASES}) from `dataDir`
 * remade as `variant` (a key of {@link PROPORTION_VARIANTS}). Returns `output`.
 */
export function WriteProportionVariant(dataDir: string, base: string, variant: string, output: string): string {
    const edit = PROPORTION_VARIANTS[variant];
    if (!edit) throw new Error(`no proportion variant ${base}_${variant}`);
    return writeEdited(dataDir, base, edit, output);
}

/**
 * Writes `output`: the base character `base` from `dataDir` with its upper arms turned `degrees`
 * down in the rest pose (a rig bound a little off a T-pose). Returns `output`.
 */
export function WriteArmsTurnedDown(dataDir: string, base: string, degrees: number, output: string): string {
    return writeEdited(dataDir, base, (json, at) => turnLimb(json, at("UpperArm"), at("LowerArm"), degrees, () => new Vector3(0, -1, 0)), output);
}

function writeEdited(dataDir: string, base: string, edit: Edit, output: string): string {
    const b = PROPORTION_BASES.find((x) => x.name === base);
    if (!b) throw new Error(`no base character ${base}`);
    EditGlbJson<IGltf>(
        join(dataDir, b.file),
        (json) => {
            const at = (bone: Bone): IGltfNode[] => {
                // An upper chest is optional (the VRM sample has none); every other joint is needed.
                const nodes = b.nodesOf(json, bone).filter((n) => n >= 0 || bone !== "upperChest");
                if (nodes.some((n) => n < 0)) throw new Error(`${b.file}: no ${bone} joint`);
                return nodes.map((n) => json.nodes[n]);
            };
            edit(json, at);
        },
        output,
    );
    return output;
}
