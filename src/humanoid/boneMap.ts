import { HumanoidError } from "../errors.js";
import { MAX_NAME_LENGTH, QuoteForMessage } from "../limits.js";
import { HumanBoneFromName, HumanBoneNames, HUMAN_BONE_COUNT, type HumanBone } from "./humanBones.js";
import { GetRigJointLabel, type IRig } from "./rig.js";

/**
 * A bone map as plain data: human bone name (`"leftUpperArm"`) to joint label (the joint's name,
 * or `#N` for an unnamed glTF node with index N). In an override, `null` unmaps a bone.
 */
export type HumanBoneMapJson = Partial<Record<string, string | null>>;

/** Identifies a saved bone map file. */
export const BONE_MAP_FORMAT = "babylon-humanoid/bone-map";

/** Version of the saved bone map file written by {@link SerializeHumanBoneMap}. */
export const BONE_MAP_VERSION = 1;

/** A saved bone map file. */
export interface IHumanBoneMapFile {
    /** Always {@link BONE_MAP_FORMAT}. */
    readonly format: typeof BONE_MAP_FORMAT;
    /** Always {@link BONE_MAP_VERSION}. */
    readonly version: number;
    /** What the map was made for (a file name), informative. */
    readonly source?: string;
    /** The map. */
    readonly bones: HumanBoneMapJson;
}

/**
 * Writes a bone map as a JSON file text (`{"format", "version", "source", "bones"}`), bones in
 * humanoid order.
 */
export function SerializeHumanBoneMap(rig: IRig, boneToJoint: ArrayLike<number>, source?: string): string {
    const bones: Record<string, string> = {};
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (boneToJoint[b] >= 0) {
            bones[HumanBoneNames[b]] = GetRigJointLabel(rig, boneToJoint[b]);
        }
    }
    const file: IHumanBoneMapFile = { format: BONE_MAP_FORMAT, version: BONE_MAP_VERSION, source, bones };
    return JSON.stringify(file, null, 2);
}

/** Most problems a bone map error lists (a map of a million wrong keys gets a short message too). */
const MAX_LISTED_PROBLEMS = 20;

/** Problems joined for a message, the first {@link MAX_LISTED_PROBLEMS} of them. */
function ListProblems(problems: readonly string[]): string {
    const shown = problems.slice(0, MAX_LISTED_PROBLEMS).join("; ");
    return problems.length > MAX_LISTED_PROBLEMS ? `${shown}; and ${problems.length - MAX_LISTED_PROBLEMS} more problems` : shown;
}

/**
 * Reads a bone map: either a saved file (see {@link SerializeHumanBoneMap}) or a plain object
 * `{"leftUpperArm": "LeftArm", "leftShoulder": null}`. Checks every key and value and throws one
 * {@link HumanoidError} `BAD_BONE_MAP` listing every problem.
 * @param input JSON text or an already parsed object
 * @param source name for messages (a file name)
 */
export function ParseHumanBoneMap(input: string | object, source = "bone map"): HumanBoneMapJson {
    let value: unknown = input;
    if (typeof input === "string") {
        try {
            value = JSON.parse(input);
        } catch (e) {
            throw new HumanoidError("BAD_BONE_MAP", `${source}: not JSON (${(e as Error).message})`);
        }
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
        throw new HumanoidError("BAD_BONE_MAP", `${source}: a bone map must be a JSON object`);
    }
    let bones = value as Record<string, unknown>;
    if ("format" in bones) {
        const file = bones as Record<string, unknown>;
        const problems: string[] = [];
        if (file.format !== BONE_MAP_FORMAT) problems.push(`'format' must be "${BONE_MAP_FORMAT}"`);
        if (file.version !== BONE_MAP_VERSION)
            problems.push(`'version' ${JSON.stringify(file.version)} is not supported (this library reads version ${BONE_MAP_VERSION})`);
        if (file.source !== undefined && typeof file.source !== "string") problems.push("'source' must be a string");
        for (const k of Object.keys(file)) {
            if (!["format", "version", "source", "bones"].includes(k)) problems.push(`unknown key '${k}'`);
        }
        if (!file.bones || typeof file.bones !== "object" || Array.isArray(file.bones)) problems.push("'bones' must be an object");
        if (problems.length) {
            throw new HumanoidError("BAD_BONE_MAP", `${source}: ${problems.join("; ")}`);
        }
        bones = file.bones as Record<string, unknown>;
    }
    const problems: string[] = [];
    const out: HumanBoneMapJson = {};
    for (const [k, v] of Object.entries(bones)) {
        if (HumanBoneFromName(k) === undefined) {
            problems.push(`unknown human bone '${QuoteForMessage(k)}'`);
        } else if (v !== null && (typeof v !== "string" || !v)) {
            problems.push(`'${k}' must be a joint name or null, not ${QuoteForMessage(JSON.stringify(v) ?? String(v))}`);
        } else if (typeof v === "string" && v.length > MAX_NAME_LENGTH) {
            problems.push(`'${k}' names a joint of ${v.length} characters, longer than the ${MAX_NAME_LENGTH} a joint name may have`);
        } else {
            out[k] = v;
        }
    }
    if (problems.length) {
        throw new HumanoidError("BAD_BONE_MAP", `${source}: ${ListProblems(problems)}`, { problems: problems.slice(0, MAX_LISTED_PROBLEMS) });
    }
    return out;
}

/**
 * Finds the joint a label names: `#N` is the joint whose glTF node index is N; anything else is a
 * joint name, which must be unique in the rig. Returns the joint index or an explanation.
 */
export function ResolveJointLabel(rig: IRig, label: string): number | string {
    const m = /^#(\d+)$/.exec(label);
    if (m) {
        const idx = rig.joints.findIndex((j) => j.sourceIndex === Number(m[1]) && !j.name);
        if (idx >= 0) return idx;
        const any = rig.joints.findIndex((j) => j.sourceIndex === Number(m[1]));
        return any >= 0 ? any : `no joint is glTF node ${m[1]}`;
    }
    const hits: number[] = [];
    rig.joints.forEach((j, i) => {
        if (j.name === label) hits.push(i);
    });
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) return `${hits.length} joints are named '${label}'; use '#N' (the glTF node index) to pick one`;
    return `no joint is named '${label}'`;
}

/**
 * Applies a partial map to a full one: each named bone gets the labelled joint (or none for
 * `null`). Throws one {@link HumanoidError} `BAD_BONE_MAP` listing every label that names no joint.
 */
export function ApplyHumanBoneMapOverrides(rig: IRig, boneToJoint: Int32Array, overrides: HumanBoneMapJson, source = "bone map"): Set<HumanBone> {
    const problems: string[] = [];
    const changed = new Set<HumanBone>();
    for (const [k, v] of Object.entries(overrides)) {
        const bone = HumanBoneFromName(k);
        if (bone === undefined) {
            problems.push(`unknown human bone '${k}'`);
            continue;
        }
        if (v === null || v === undefined) {
            boneToJoint[bone] = -1;
            changed.add(bone);
            continue;
        }
        const r = ResolveJointLabel(rig, v);
        if (typeof r === "string") {
            problems.push(`${k}: ${QuoteForMessage(r, 200)}`);
        } else {
            boneToJoint[bone] = r;
            changed.add(bone);
        }
    }
    if (problems.length) {
        throw new HumanoidError("BAD_BONE_MAP", `${source}: does not fit ${rig.source}: ${ListProblems(problems)}`, {
            problems: problems.slice(0, MAX_LISTED_PROBLEMS),
        });
    }
    return changed;
}
