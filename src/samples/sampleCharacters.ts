import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { RigJointKind, type IRig, type IRigJoint } from "../humanoid/rig.js";

/**
 * Built-in sample characters, made in code so the demo, the playground and the tests of a fresh
 * clone need no downloaded files. Each is a full skeleton with a real naming convention, its own
 * proportions and rest pose, and (optionally) odd local axes.
 */

/** Naming conventions the samples can use. */
export type SampleNaming = "mixamo" | "unreal" | "cmu-asf" | "none";

/** What a sample skeleton looks like. */
export interface ISampleCharacterSpec {
    /** Name for messages. */
    readonly name: string;
    /** Standing height (metres). */
    readonly height: number;
    /** Joint names. */
    readonly naming: SampleNaming;
    /** Arms rotated down from the T-pose by this angle (degrees): 0 T-pose, 45 A-pose, 85 arms down. */
    readonly armsDownDeg: number;
    /** Legs spread outward from straight down by this angle (degrees). */
    readonly legsApartDeg?: number;
    /** Body shape: an adult or a chibi (big head, short legs). */
    readonly build: "adult" | "chibi";
    /** With finger bones. */
    readonly fingers: boolean;
    /** Give every joint a scrambled local frame (same positions), as exporters with odd bone axes do. */
    readonly oddLocalAxes?: boolean;
}

interface IJointDef {
    /** Canonical id. */
    readonly id: string;
    readonly parent: string | null;
    /** T-pose position for a body 1 unit tall (left at -X, facing +Z, Y up). */
    readonly at: readonly [number, number, number];
    readonly kind?: RigJointKind;
}

const ADULT: IJointDef[] = [
    { id: "root", parent: null, at: [0, 0, 0] },
    { id: "hips", parent: "root", at: [0, 0.53, 0] },
    { id: "spine", parent: "hips", at: [0, 0.585, -0.004] },
    { id: "chest", parent: "spine", at: [0, 0.66, -0.008] },
    { id: "upperChest", parent: "chest", at: [0, 0.74, -0.01] },
    { id: "neck", parent: "upperChest", at: [0, 0.83, -0.016] },
    { id: "head", parent: "neck", at: [0, 0.875, -0.004] },
    { id: "headTop", parent: "head", at: [0, 1.0, 0.01], kind: RigJointKind.EndSite },
];

/** Side-specific joints, defined for the left side (x < 0); the right side mirrors x. */
const LEFT: IJointDef[] = [
    { id: "shoulder", parent: "upperChest", at: [-0.02, 0.8, -0.012] },
    { id: "upperArm", parent: "shoulder", at: [-0.1, 0.8, -0.018] },
    { id: "lowerArm", parent: "upperArm", at: [-0.27, 0.8, -0.02] },
    { id: "hand", parent: "lowerArm", at: [-0.42, 0.8, -0.018] },
    { id: "thumb1", parent: "hand", at: [-0.432, 0.794, 0.012] },
    { id: "thumb2", parent: "thumb1", at: [-0.45, 0.792, 0.034] },
    { id: "thumb3", parent: "thumb2", at: [-0.465, 0.792, 0.05] },
    { id: "thumb4", parent: "thumb3", at: [-0.478, 0.792, 0.062] },
    { id: "index1", parent: "hand", at: [-0.5, 0.8, 0.008] },
    { id: "index2", parent: "index1", at: [-0.524, 0.8, 0.008] },
    { id: "index3", parent: "index2", at: [-0.541, 0.8, 0.008] },
    { id: "index4", parent: "index3", at: [-0.556, 0.8, 0.008] },
    { id: "middle1", parent: "hand", at: [-0.503, 0.8, -0.012] },
    { id: "middle2", parent: "middle1", at: [-0.529, 0.8, -0.012] },
    { id: "middle3", parent: "middle2", at: [-0.547, 0.8, -0.012] },
    { id: "middle4", parent: "middle3", at: [-0.563, 0.8, -0.012] },
    { id: "ring1", parent: "hand", at: [-0.499, 0.8, -0.031] },
    { id: "ring2", parent: "ring1", at: [-0.523, 0.8, -0.031] },
    { id: "ring3", parent: "ring2", at: [-0.54, 0.8, -0.031] },
    { id: "ring4", parent: "ring3", at: [-0.555, 0.8, -0.031] },
    { id: "little1", parent: "hand", at: [-0.491, 0.798, -0.048] },
    { id: "little2", parent: "little1", at: [-0.51, 0.798, -0.048] },
    { id: "little3", parent: "little2", at: [-0.523, 0.798, -0.048] },
    { id: "little4", parent: "little3", at: [-0.535, 0.798, -0.048] },
    { id: "upperLeg", parent: "hips", at: [-0.055, 0.5, 0.004] },
    { id: "lowerLeg", parent: "upperLeg", at: [-0.055, 0.285, 0.008] },
    { id: "foot", parent: "lowerLeg", at: [-0.055, 0.045, -0.01] },
    { id: "toes", parent: "foot", at: [-0.055, 0.012, 0.095] },
    { id: "toesEnd", parent: "toes", at: [-0.055, 0.012, 0.14], kind: RigJointKind.EndSite },
    { id: "eye", parent: "head", at: [-0.02, 0.93, 0.055] },
];

/** Joint names per convention; `{s}` is the side word, a missing entry means the joint is absent. */
const NAMES: Record<SampleNaming, Record<string, string>> = {
    mixamo: {
        root: "",
        hips: "mixamorig:Hips",
        spine: "mixamorig:Spine",
        chest: "mixamorig:Spine1",
        upperChest: "mixamorig:Spine2",
        neck: "mixamorig:Neck",
        head: "mixamorig:Head",
        headTop: "mixamorig:HeadTop_End",
        eye: "mixamorig:{S}Eye",
        shoulder: "mixamorig:{S}Shoulder",
        upperArm: "mixamorig:{S}Arm",
        lowerArm: "mixamorig:{S}ForeArm",
        hand: "mixamorig:{S}Hand",
        thumb1: "mixamorig:{S}HandThumb1",
        thumb2: "mixamorig:{S}HandThumb2",
        thumb3: "mixamorig:{S}HandThumb3",
        thumb4: "mixamorig:{S}HandThumb4",
        index1: "mixamorig:{S}HandIndex1",
        index2: "mixamorig:{S}HandIndex2",
        index3: "mixamorig:{S}HandIndex3",
        index4: "mixamorig:{S}HandIndex4",
        middle1: "mixamorig:{S}HandMiddle1",
        middle2: "mixamorig:{S}HandMiddle2",
        middle3: "mixamorig:{S}HandMiddle3",
        middle4: "mixamorig:{S}HandMiddle4",
        ring1: "mixamorig:{S}HandRing1",
        ring2: "mixamorig:{S}HandRing2",
        ring3: "mixamorig:{S}HandRing3",
        ring4: "mixamorig:{S}HandRing4",
        little1: "mixamorig:{S}HandPinky1",
        little2: "mixamorig:{S}HandPinky2",
        little3: "mixamorig:{S}HandPinky3",
        little4: "mixamorig:{S}HandPinky4",
        upperLeg: "mixamorig:{S}UpLeg",
        lowerLeg: "mixamorig:{S}Leg",
        foot: "mixamorig:{S}Foot",
        toes: "mixamorig:{S}ToeBase",
        toesEnd: "mixamorig:{S}Toe_End",
    },
    unreal: {
        root: "root",
        hips: "pelvis",
        spine: "spine_01",
        chest: "spine_02",
        upperChest: "spine_03",
        neck: "neck_01",
        head: "head",
        shoulder: "clavicle_{s}",
        upperArm: "upperarm_{s}",
        lowerArm: "lowerarm_{s}",
        hand: "hand_{s}",
        thumb1: "thumb_01_{s}",
        thumb2: "thumb_02_{s}",
        thumb3: "thumb_03_{s}",
        index1: "index_01_{s}",
        index2: "index_02_{s}",
        index3: "index_03_{s}",
        middle1: "middle_01_{s}",
        middle2: "middle_02_{s}",
        middle3: "middle_03_{s}",
        ring1: "ring_01_{s}",
        ring2: "ring_02_{s}",
        ring3: "ring_03_{s}",
        little1: "pinky_01_{s}",
        little2: "pinky_02_{s}",
        little3: "pinky_03_{s}",
        upperLeg: "thigh_{s}",
        lowerLeg: "calf_{s}",
        foot: "foot_{s}",
        toes: "ball_{s}",
    },
    "cmu-asf": {
        hips: "Hips",
        spine: "lowerback",
        chest: "Chest",
        upperChest: "Chest2",
        neck: "Neck",
        head: "Head",
        headTop: "Head_end",
        shoulder: "{S}Collar",
        upperArm: "{S}Shoulder",
        lowerArm: "{S}Elbow",
        hand: "{S}Wrist",
        thumb1: "{s}thumb",
        index1: "{s}fingers",
        upperLeg: "{S}Hip",
        lowerLeg: "{S}Knee",
        foot: "{S}Ankle",
        toes: "{S}Toe",
        toesEnd: "{S}Toe_end",
    },
    none: {},
};

/** Extra Unreal bones: twist bones beside the limbs and IK helpers under the root. */
const UNREAL_EXTRA: IJointDef[] = [
    { id: "upperArmTwist", parent: "upperArm", at: [-0.185, 0.8, -0.019] },
    { id: "lowerArmTwist", parent: "lowerArm", at: [-0.345, 0.8, -0.019] },
    { id: "thighTwist", parent: "upperLeg", at: [-0.055, 0.39, 0.006] },
    { id: "calfTwist", parent: "lowerLeg", at: [-0.055, 0.165, 0] },
];

/** Makes the skeleton of a sample character as a rig (rig space: left-handed, Y-up, metres, facing +Z). */
export function BuildSampleRig(spec: ISampleCharacterSpec): IRig {
    const names = NAMES[spec.naming];
    const defs: Array<IJointDef & { side: "" | "l" | "r" }> = [];
    const sideDefs = [...LEFT, ...(spec.naming === "unreal" ? UNREAL_EXTRA : [])].filter(
        (d) => spec.fingers || !/^(thumb|index|middle|ring|little)/.test(d.id),
    );
    for (const d of ADULT) defs.push({ ...d, side: "" });
    for (const side of ["l", "r"] as const) {
        for (const d of sideDefs) {
            const x = side === "l" ? d.at[0] : -d.at[0];
            defs.push({ ...d, at: [x, d.at[1], d.at[2]], side });
        }
    }
    const fullId = (id: string, side: string): string => (side ? `${id}.${side}` : id);
    const nameOf = (id: string, side: string): string | undefined => {
        if (spec.naming === "none") return "";
        const base = id.replace(/Twist$/, "");
        let n = names[id];
        if (n === undefined && id.endsWith("Twist")) {
            const parentName = names[base === "thigh" ? "upperLeg" : base === "calf" ? "lowerLeg" : base];
            n = parentName?.replace("_{s}", "_twist_01_{s}");
        }
        if (n === undefined) return undefined;
        return n.replace("{S}", side === "l" ? "Left" : "Right").replace("{s}", side);
    };
    // Keep joints that have a name in this convention; reparent past the ones that do not.
    const kept = defs.filter((d) => nameOf(d.id, d.side) !== undefined);
    const keptIds = new Set(kept.map((d) => fullId(d.id, d.side)));
    const byId = new Map(defs.map((d) => [fullId(d.id, d.side), d]));
    const parentOf = (d: IJointDef & { side: string }): string | null => {
        let p = d.parent;
        while (p) {
            const pid = byId.has(fullId(p, d.side)) ? fullId(p, d.side) : p;
            if (keptIds.has(pid)) return pid;
            p = byId.get(pid)?.parent ?? null;
        }
        return null;
    };
    // Proportions: chibi heads are big and legs short.
    const shape = (d: IJointDef): Vector3 => {
        const v = new Vector3(d.at[0], d.at[1], d.at[2]);
        if (spec.build === "chibi") {
            if (d.at[1] <= 0.53 && !/eye|head/.test(d.id)) {
                v.y *= 0.62;
                v.x *= 1.6;
            } else {
                v.y = 0.53 * 0.62 + (v.y - 0.53) * (/head|eye/.test(d.id) ? 1.3 : 0.85);
                v.x *= /head|eye/.test(d.id) ? 1.8 : 1.1;
                v.z *= /head|eye/.test(d.id) ? 1.8 : 1;
            }
        }
        return v.scaleInPlace(spec.height);
    };
    const world = new Map<string, Vector3>();
    for (const d of kept) world.set(fullId(d.id, d.side), shape(d));
    // Arms down: rotate every arm joint about the forward axis through the upper arm.
    const armIds = new Set([
        "upperArm",
        "lowerArm",
        "hand",
        "upperArmTwist",
        "lowerArmTwist",
        ...LEFT.filter((d) => /^(thumb|index|middle|ring|little)/.test(d.id)).map((d) => d.id),
    ]);
    const legIds = new Set(["lowerLeg", "foot", "toes", "toesEnd", "thighTwist", "calfTwist"]);
    for (const side of ["l", "r"] as const) {
        const sign = side === "l" ? 1 : -1;
        const pivotArm = world.get(fullId("upperArm", side));
        if (pivotArm && spec.armsDownDeg) {
            // About +Z a positive angle turns -X (the left arm) down, so the left arm turns by +angle.
            const q = Quaternion.RotationAxis(Vector3.Forward(), (sign * spec.armsDownDeg * Math.PI) / 180);
            for (const d of kept) {
                if (d.side === side && armIds.has(d.id) && d.id !== "upperArm") {
                    const id = fullId(d.id, side);
                    world.set(id, world.get(id)!.subtract(pivotArm).applyRotationQuaternion(q).add(pivotArm));
                }
            }
        }
        const pivotLeg = world.get(fullId("upperLeg", side));
        if (pivotLeg && spec.legsApartDeg) {
            // A negative angle about +Z turns -Y (a leg) towards -X: the left leg outwards.
            const q = Quaternion.RotationAxis(Vector3.Forward(), (-sign * spec.legsApartDeg * Math.PI) / 180);
            for (const d of kept) {
                if (d.side === side && legIds.has(d.id)) {
                    const id = fullId(d.id, side);
                    world.set(id, world.get(id)!.subtract(pivotLeg).applyRotationQuaternion(q).add(pivotLeg));
                }
            }
        }
    }
    // Local frames: identity, or scrambled (a fixed pseudo-random rotation per joint).
    const ids = kept.map((d) => fullId(d.id, d.side));
    const index = new Map(ids.map((id, i) => [id, i]));
    const worldRot = ids.map((_, i) =>
        spec.oddLocalAxes ? Quaternion.RotationYawPitchRoll(1.3 * i + 0.4, 0.7 * i - 1.1, 2.1 * i + 0.3).normalize() : Quaternion.Identity(),
    );
    const joints: IRigJoint[] = kept.map((d, i) => {
        const id = ids[i];
        const pid = parentOf(d);
        const p = pid ? index.get(pid)! : -1;
        const w = world.get(id)!;
        // local position = inverse(parentRot) * (world - parentWorld); local rotation = inverse(parentRot) * rot
        const restPosition = p >= 0 ? w.subtract(world.get(pid!)!).applyRotationQuaternion(Quaternion.Inverse(worldRot[p])) : w.clone();
        const restRotation = p >= 0 ? Quaternion.Inverse(worldRot[p]).multiply(worldRot[i]) : worldRot[i].clone();
        return {
            name: nameOf(d.id, d.side) ?? "",
            parent: p,
            kind: d.kind ?? RigJointKind.Bone,
            restPosition,
            restRotation,
            restScale: Vector3.One(),
            sourceIndex: i,
        };
    });
    return { source: spec.name, joints };
}

/** The built-in sample characters. */
export const SampleCharacters: readonly ISampleCharacterSpec[] = [
    { name: "sample-mixamo-tpose", height: 1.75, naming: "mixamo", armsDownDeg: 0, build: "adult", fingers: true },
    { name: "sample-unreal-apose", height: 1.8, naming: "unreal", armsDownDeg: 45, build: "adult", fingers: true, oddLocalAxes: true },
    { name: "sample-chibi-unnamed", height: 1.1, naming: "none", armsDownDeg: 30, legsApartDeg: 8, build: "chibi", fingers: false, oddLocalAxes: true },
    { name: "sample-cmu-arms-down", height: 1.65, naming: "cmu-asf", armsDownDeg: 85, legsApartDeg: 20, build: "adult", fingers: true },
];
