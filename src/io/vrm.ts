import { HumanoidError } from "../errors.js";
import { HumanBoneFromName, HumanBoneNames, type HumanBone } from "../humanoid/humanBones.js";
import type { IGltfDocument } from "./gltfJson.js";

/** The humanoid map a VRM (0.x or 1.0) or VRM Animation file declares. */
export interface IVrmHumanoid {
    /** Which extension it came from. */
    readonly kind: "VRM 0.x" | "VRM 1.0" | "VRMA";
    /** glTF node index of every declared human bone. */
    readonly nodes: ReadonlyMap<HumanBone, number>;
}

/**
 * VRM 1.0 names the thumb bones Metacarpal / Proximal / Distal where Unity (and VRM 0.x, and this
 * library) say Proximal / Intermediate / Distal.
 */
function vrm1BoneName(name: string): string {
    const m = /^(left|right)Thumb(Metacarpal|Proximal|Distal)$/.exec(name);
    if (!m) {
        return name;
    }
    const digit = m[2] === "Metacarpal" ? "Proximal" : m[2] === "Proximal" ? "Intermediate" : "Distal";
    return `${m[1]}Thumb${digit}`;
}

/**
 * The VRM 1.0 name of a human bone: this library's (Unity's) names, except the thumb, which VRM 1.0
 * calls Metacarpal / Proximal / Distal where Unity says Proximal / Intermediate / Distal.
 * @param bone the human bone
 */
export function VrmHumanBoneName(bone: HumanBone): string {
    const name = HumanBoneNames[bone];
    const m = /^(left|right)Thumb(Proximal|Intermediate|Distal)$/.exec(name);
    if (!m) return name;
    return `${m[1]}Thumb${m[2] === "Proximal" ? "Metacarpal" : m[2] === "Intermediate" ? "Proximal" : "Distal"}`;
}

/**
 * Reads the humanoid map of a VRM 1.0 (`VRMC_vrm`), VRM 0.x (`VRM`) or VRM Animation
 * (`VRMC_vrm_animation`) file, or returns `undefined` when the file has none. Throws a
 * {@link HumanoidError} `BAD_BONE_MAP` for an unknown bone name, a bad node index, or a node used twice.
 */
export function ReadVrmHumanoid(doc: IGltfDocument, source: string): IVrmHumanoid | undefined {
    const ext = doc.extensions ?? {};
    const nodeCount = doc.nodes?.length ?? 0;
    const out = new Map<HumanBone, number>();
    const used = new Map<number, string>();
    const add = (boneName: string, node: unknown, where: string): void => {
        const bone = HumanBoneFromName(boneName);
        if (bone === undefined) {
            throw new HumanoidError("BAD_BONE_MAP", `${source}: ${where}: unknown humanoid bone '${boneName}'`);
        }
        if (typeof node !== "number" || !Number.isInteger(node) || node < 0 || node >= nodeCount) {
            throw new HumanoidError("BAD_BONE_MAP", `${source}: ${where}: bone '${boneName}' points at node ${JSON.stringify(node)}, which does not exist`);
        }
        if (used.has(node)) {
            throw new HumanoidError("BAD_BONE_MAP", `${source}: ${where}: node ${node} is used for both '${used.get(node)}' and '${boneName}'`);
        }
        if (out.has(bone)) {
            throw new HumanoidError("BAD_BONE_MAP", `${source}: ${where}: bone '${boneName}' is declared twice`);
        }
        used.set(node, boneName);
        out.set(bone, node);
    };
    const v1 = (ext["VRMC_vrm"] ?? ext["VRMC_vrm_animation"]) as { humanoid?: { humanBones?: Record<string, { node?: unknown }> } } | undefined;
    if (v1) {
        const kind = ext["VRMC_vrm"] ? "VRM 1.0" : "VRMA";
        const where = kind === "VRM 1.0" ? "VRMC_vrm.humanoid" : "VRMC_vrm_animation.humanoid";
        const bones = v1.humanoid?.humanBones;
        if (!bones || typeof bones !== "object") {
            throw new HumanoidError("BAD_BONE_MAP", `${source}: ${where} has no humanBones`);
        }
        for (const [name, entry] of Object.entries(bones)) {
            add(vrm1BoneName(name), entry?.node, where);
        }
        return { kind, nodes: out };
    }
    const v0 = ext["VRM"] as { humanoid?: { humanBones?: Array<{ bone?: unknown; node?: unknown }> } } | undefined;
    if (v0) {
        const bones = v0.humanoid?.humanBones;
        if (!Array.isArray(bones)) {
            throw new HumanoidError("BAD_BONE_MAP", `${source}: VRM.humanoid.humanBones is not an array`);
        }
        bones.forEach((entry, i) => {
            if (typeof entry?.bone !== "string") {
                throw new HumanoidError("BAD_BONE_MAP", `${source}: VRM.humanoid.humanBones[${i}] has no bone name`);
            }
            add(entry.bone, entry.node, `VRM.humanoid.humanBones[${i}]`);
        });
        return { kind: "VRM 0.x", nodes: out };
    }
    return undefined;
}
