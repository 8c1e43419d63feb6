import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import { ComputeRigWorldPose, RigJointKind, type IRig, type IRigJoint, type IRigPose } from "../humanoid/rig.js";
import { FindHumanoidStructure } from "../humanoid/structure.js";
import type { IBvhFile } from "./bvh.js";

/** Length units a BVH file may use, with their size in metres. */
export const BvhLengthUnits: Readonly<Record<string, number>> = {
    m: 1,
    cm: 0.01,
    mm: 0.001,
    inches: 0.0254,
    /** CMU mocap units: 1/0.45 inch (the ASF `length` scale of the CMU database). */
    cmu: 0.0254 / 0.45,
};

/** Height a humanoid of unknown units is assumed to be near, for guessing units (metres). */
export const TYPICAL_HUMAN_HEIGHT = 1.6;

/** How to read a BVH file into a rig. */
export interface IBvhRigOptions {
    /** Up axis of the file: `"y"`, `"z"`, or `"auto"` (from the hips-to-chest direction). Default `"auto"`. */
    upAxis?: "auto" | "y" | "z";
    /**
     * Metres per file unit, one of the names of {@link BvhLengthUnits}, or `"auto"` (the unit that
     * makes the standing height nearest {@link TYPICAL_HUMAN_HEIGHT}). Default `"auto"`.
     */
    units?: number | keyof typeof BvhLengthUnits | "auto";
    /** How many frames, spread over the clip, to keep as sample poses for the mapper and the T-pose. Default 16. */
    samplePoseCount?: number;
}

/**
 * How a BVH file's numbers become rig numbers: axes, handedness and units. BVH is right-handed;
 * the rig is left-handed Y-up (a Babylon scene), so X is mirrored (Y-up files) or Z-up is turned to
 * Y-up and mirrored, in this one place.
 */
export interface IBvhConversion {
    /** The file's up axis. */
    readonly upAxis: "y" | "z";
    /** Metres per file unit. */
    readonly unitsToMeters: number;
    /** Name of the unit (`"cm"`, `"inches"`, `"cmu"`, `"m"`...) or `"custom"`. */
    readonly unitsName: string;
    /** For each file axis X, Y, Z: the rig axis (0, 1, 2) it becomes. */
    readonly axis: readonly [number, number, number];
    /** For each file axis: the sign it takes on the rig axis. */
    readonly sign: readonly [number, number, number];
}

/** A BVH file read as a rig, with the conversion used. */
export interface IBvhRig {
    /** The rig (joints in file order, End Sites as `EndSite` joints). */
    readonly rig: IRig;
    /** The parsed file. */
    readonly bvh: IBvhFile;
    /** Axes and units used. */
    readonly conversion: IBvhConversion;
    /**
     * Joints whose position channels hold world positions rather than translations from their
     * parents ({@link FindWorldPositionJoints}): read at their OFFSETs, those channels left out.
     * Absent: none.
     */
    readonly worldPositionJoints?: readonly number[];
}

/**
 * A non-root joint's position channels are taken as world positions when, over the frames
 * sampled, the median distance from where its OFFSET puts it in the world is under this share of
 * the median distance from its OFFSET (see {@link FindWorldPositionJoints}).
 */
export const WORLD_POSITION_CHANNEL_SHARE = 0.25;

/** Frames {@link FindWorldPositionJoints} samples, spread over the clip. */
const WORLD_POSITION_SAMPLES = 16;

/**
 * The joints of a BVH file, other than the root, whose position channels hold where the joint is
 * in the world rather than its translation from its parent, as some exporters write them (the
 * CMU takes of the AnimatedDrawings project write their thorax's and head's so; that project's
 * own reader, as many others, reads no position channel but the root's). Read as the format says,
 * as translations, such a joint lands as far from its parent as the figure is from the file's
 * origin: the CMU dance's thorax 57 units from its pelvis where its OFFSET puts it 4 away, its
 * trunk drawn leaning 45 degrees forward and every character it played on bent over with it.
 *
 * A joint counts when, over 16 frames spread over the clip, its channels are nearer where its OFFSET
 * puts it in the world (its parents posed, those already found read at their OFFSETs) than to its
 * OFFSET itself, by {@link WORLD_POSITION_CHANNEL_SHARE} of the median distances, and that
 * distance from its OFFSET is more than half the OFFSET's length: translations near the OFFSET
 * (an exporter writing six channels on every joint) and a figure that stays at the origin never
 * count. Parents first.
 * @param bvh the parsed file
 * @returns joint indices, in file order
 */
export function FindWorldPositionJoints(bvh: IBvhFile): number[] {
    const n = bvh.joints.length;
    const candidate = bvh.joints.map((j) => j.parent >= 0 && j.channels.some((c) => c.endsWith("position")));
    if (!candidate.some((c) => c) || bvh.frameCount < 1) return [];
    const probe = buildRig(bvh, makeConversion("y", 1, "file"), WORLD_POSITION_SAMPLES, []);
    const poses = probe.rig.samplePoses ?? [];
    // World rotations and positions per sampled frame, joint by joint (parents first), with the
    // joints found so far at their OFFSETs: one pass, whatever the number of joints.
    const rot = poses.map(() => Array.from({ length: n }, () => new Quaternion()));
    const pos = poses.map(() => Array.from({ length: n }, () => new Vector3()));
    const at = new Vector3();
    const median = (v: number[]): number => v.sort((x, y) => x - y)[Math.floor(v.length / 2)];
    const found: number[] = [];
    for (let j = 0; j < n; j++) {
        const parent = bvh.joints[j].parent;
        const rest = probe.rig.joints[j].restPosition;
        let world = false;
        if (candidate[j]) {
            const fromOffset: number[] = [];
            const fromWorld: number[] = [];
            poses.forEach((pose, f) => {
                // Where its OFFSET puts it in the world, against where its channels say.
                rest.rotateByQuaternionToRef(rot[f][parent], at).addInPlace(pos[f][parent]);
                fromOffset.push(Vector3.Distance(pose.positions[j], rest));
                fromWorld.push(Vector3.Distance(pose.positions[j], at));
            });
            const a = median(fromOffset);
            world = a > 0.5 * rest.length() && median(fromWorld) < WORLD_POSITION_CHANNEL_SHARE * a;
            if (world) found.push(j);
        }
        poses.forEach((pose, f) => {
            const local = world ? rest : pose.positions[j];
            if (parent < 0) {
                rot[f][j].copyFrom(pose.rotations[j]);
                pos[f][j].copyFrom(local);
            } else {
                rot[f][parent].multiplyToRef(pose.rotations[j], rot[f][j]);
                local.rotateByQuaternionToRef(rot[f][parent], pos[f][j]).addInPlace(pos[f][parent]);
            }
        });
    }
    return found;
}

function makeConversion(upAxis: "y" | "z", unitsToMeters: number, unitsName: string): IBvhConversion {
    // Y-up: (x, y, z) -> (-x, y, z). Z-up: (x, y, z) -> (-x, z, -y). Both are mirrors (det -1).
    return upAxis === "y"
        ? { upAxis, unitsToMeters, unitsName, axis: [0, 1, 2], sign: [-1, 1, 1] }
        : { upAxis, unitsToMeters, unitsName, axis: [0, 2, 1], sign: [-1, -1, 1] };
}

/** Converts a file vector (file units) to rig space (metres). */
export function BvhVectorToRig(conv: IBvhConversion, x: number, y: number, z: number, result: Vector3): Vector3 {
    const v = [x, y, z];
    const out = [0, 0, 0];
    for (let a = 0; a < 3; a++) {
        out[conv.axis[a]] = conv.sign[a] * v[a] * conv.unitsToMeters;
    }
    return result.set(out[0], out[1], out[2]);
}

const AXES = [Vector3.Right(), Vector3.Up(), Vector3.Forward()];

/**
 * Local rotation of a joint from its rotation channels (degrees, file order) in rig space.
 * BVH means `R = R(c1) * R(c2) * R(c3)` (the last channel applies first); a rotation about file
 * axis a by θ becomes, after the mirror M with M·a = s·e_k, a rotation about e_k by -s·θ.
 */
export function BvhRotationToRig(conv: IBvhConversion, channelAxes: readonly number[], degrees: readonly number[], result: Quaternion): Quaternion {
    result.set(0, 0, 0, 1);
    const tmp = new Quaternion();
    for (let i = 0; i < channelAxes.length; i++) {
        const a = channelAxes[i];
        const k = conv.axis[a];
        const angle = (-conv.sign[a] * degrees[i] * Math.PI) / 180;
        Quaternion.RotationAxisToRef(AXES[k], angle, tmp);
        result.multiplyInPlace(tmp);
    }
    return result;
}

/** Rotation-channel axes (0 X, 1 Y, 2 Z) and their value offsets within the joint's channels. */
function channelLayout(bvh: IBvhFile, j: number): { rotAxes: number[]; rotIdx: number[]; posIdx: [number, number, number] | null } {
    const joint = bvh.joints[j];
    const rotAxes: number[] = [];
    const rotIdx: number[] = [];
    const posIdx: [number, number, number] = [-1, -1, -1];
    joint.channels.forEach((c, i) => {
        const axis = c.charCodeAt(0) - 88; // 'X' = 88
        if (c.endsWith("rotation")) {
            rotAxes.push(axis);
            rotIdx.push(joint.channelStart + i);
        } else {
            posIdx[axis] = joint.channelStart + i;
        }
    });
    return { rotAxes, rotIdx, posIdx: posIdx.some((p) => p >= 0) ? posIdx : null };
}

/** A pose of the rig from one frame of the file (local rotations and positions, rig space). */
export function GetBvhFramePose(bvhRig: IBvhRig, frame: number): IRigPose {
    const { bvh, conversion, rig } = bvhRig;
    const world = new Set(bvhRig.worldPositionJoints ?? []);
    if (!(Number.isInteger(frame) && frame >= 0 && frame < bvh.frameCount)) {
        throw new HumanoidError("BAD_OPTION", `${bvh.source}: frame ${frame} is out of range (0..${bvh.frameCount - 1})`);
    }
    const base = frame * bvh.channelCount;
    const rotations: Quaternion[] = [];
    const positions: Vector3[] = [];
    const deg: number[] = [];
    for (let j = 0; j < bvh.joints.length; j++) {
        const layout = channelLayout(bvh, j);
        deg.length = 0;
        for (const idx of layout.rotIdx) {
            deg.push(bvh.motion[base + idx]);
        }
        rotations.push(BvhRotationToRig(conversion, layout.rotAxes, deg, new Quaternion()));
        if (layout.posIdx && !world.has(j)) {
            // Position channels replace the OFFSET (a missing axis keeps its OFFSET value).
            const o = bvh.joints[j].offset;
            const p = layout.posIdx.map((idx, a) => (idx >= 0 ? bvh.motion[base + idx] : o[a]));
            positions.push(BvhVectorToRig(conversion, p[0], p[1], p[2], new Vector3()));
        } else {
            positions.push(rig.joints[j].restPosition.clone());
        }
    }
    return { label: `frame ${frame}`, rotations, positions };
}

function buildRig(bvh: IBvhFile, conv: IBvhConversion, samplePoseCount: number, worldPositionJoints: readonly number[]): IBvhRig {
    const joints: IRigJoint[] = bvh.joints.map((j, i) => ({
        name: j.name,
        parent: j.parent,
        kind: j.isEndSite ? RigJointKind.EndSite : RigJointKind.Bone,
        restPosition: BvhVectorToRig(conv, j.offset[0], j.offset[1], j.offset[2], new Vector3()),
        restRotation: Quaternion.Identity(),
        restScale: Vector3.One(),
        sourceIndex: i,
    }));
    const bare: IBvhRig = { bvh, conversion: conv, rig: { source: bvh.source, joints }, worldPositionJoints };
    const count = Math.min(samplePoseCount, bvh.frameCount);
    const samplePoses: IRigPose[] = [];
    for (let k = 0; k < count; k++) {
        samplePoses.push(GetBvhFramePose(bare, Math.floor((k * bvh.frameCount) / count)));
    }
    return { bvh, conversion: conv, rig: { source: bvh.source, joints, samplePoses }, worldPositionJoints };
}

/** Vertical extent (along rig Y) of a pose. */
function verticalExtent(rig: IRig, pose?: IRigPose): number {
    const w = ComputeRigWorldPose(rig, pose);
    let lo = Infinity;
    let hi = -Infinity;
    for (const p of w.positions) {
        lo = Math.min(lo, p.y);
        hi = Math.max(hi, p.y);
    }
    return hi - lo;
}

/**
 * Reads a parsed BVH file as a rig in rig space (left-handed, Y-up, metres), converting axes,
 * handedness and units once, here. With `upAxis: "auto"` the up axis is the one the hips-to-chest
 * direction follows over the zero pose and the sample frames; with `units: "auto"` the unit is
 * the one that makes the standing height nearest {@link TYPICAL_HUMAN_HEIGHT}.
 */
export function CreateRigFromBvh(bvh: IBvhFile, options: IBvhRigOptions = {}): IBvhRig {
    const samplePoseCount = options.samplePoseCount ?? 16;
    if (options.upAxis !== undefined && !["auto", "y", "z"].includes(options.upAxis)) {
        throw new HumanoidError("BAD_OPTION", `${bvh.source}: upAxis must be "auto", "y" or "z", got ${JSON.stringify(options.upAxis)}`);
    }
    if (!(Number.isInteger(samplePoseCount) && samplePoseCount >= 0)) {
        throw new HumanoidError("BAD_OPTION", `${bvh.source}: samplePoseCount must be a whole number, got ${samplePoseCount}`);
    }
    const worldPositionJoints = FindWorldPositionJoints(bvh);
    let upAxis: "y" | "z" = options.upAxis === "z" ? "z" : "y";
    if ((options.upAxis ?? "auto") === "auto") {
        const probe = buildRig(bvh, makeConversion("y", 1, "file"), samplePoseCount, worldPositionJoints);
        try {
            const s = FindHumanoidStructure(probe.rig);
            const sum = new Vector3();
            const poses = [undefined, ...(probe.rig.samplePoses ?? [])];
            for (const pose of poses) {
                const w = ComputeRigWorldPose(probe.rig, pose);
                const d = w.positions[s.chest].subtract(w.positions[s.hips]);
                if (d.lengthSquared() > 0) {
                    sum.addInPlace(d.normalize());
                }
            }
            upAxis = Math.abs(sum.z) > Math.abs(sum.y) ? "z" : "y";
        } catch {
            upAxis = "y"; // not a humanoid: the mapper will say so
        }
    }
    let unitsToMeters: number;
    let unitsName: string;
    const u = options.units ?? "auto";
    if (typeof u === "number") {
        if (!(u > 0) || !Number.isFinite(u)) {
            throw new HumanoidError("BAD_OPTION", `${bvh.source}: units must be a positive number of metres per file unit, got ${u}`);
        }
        unitsToMeters = u;
        unitsName = "custom";
    } else if (u !== "auto") {
        if (!Object.hasOwn(BvhLengthUnits, u)) {
            throw new HumanoidError("BAD_OPTION", `${bvh.source}: unknown units '${u}' (use ${Object.keys(BvhLengthUnits).join(", ")} or a number)`);
        }
        unitsToMeters = BvhLengthUnits[u];
        unitsName = u;
    } else {
        const probe = buildRig(bvh, makeConversion(upAxis, 1, "file"), samplePoseCount, worldPositionJoints);
        let height = verticalExtent(probe.rig);
        for (const pose of probe.rig.samplePoses ?? []) {
            height = Math.max(height, verticalExtent(probe.rig, pose));
        }
        unitsName = "m";
        unitsToMeters = 1;
        let bestErr = Infinity;
        for (const [name, size] of Object.entries(BvhLengthUnits)) {
            const err = Math.abs(Math.log((height * size) / TYPICAL_HUMAN_HEIGHT));
            if (err < bestErr) {
                bestErr = err;
                unitsName = name;
                unitsToMeters = size;
            }
        }
    }
    return buildRig(bvh, makeConversion(upAxis, unitsToMeters, unitsName), samplePoseCount, worldPositionJoints);
}
