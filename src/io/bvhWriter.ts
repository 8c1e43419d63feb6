import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import { MAX_ABS_LENGTH, MAX_BVH_VALUES, MAX_CLIP_FRAMES, MAX_CLIP_SECONDS, MAX_FRAME_RATE, MAX_JOINTS, MAX_NAME_LENGTH, MIN_FRAME_RATE, QuoteForMessage } from "../limits.js";
import { ComputeRigWorldPose, GetRigJointLabel, RigJointKind, ValidateRig, type IRig, type IRigPose } from "../humanoid/rig.js";
import { BvhLengthUnits } from "./bvhRig.js";

/** Options of {@link WriteBvhRestPose} and {@link WriteBvh}. */
export interface IBvhWriteOptions {
    /** Up axis of the file. Default `"y"`. */
    upAxis?: "y" | "z";
    /** Length unit of the file (a name of {@link BvhLengthUnits}). Default `"cm"`. */
    units?: keyof typeof BvhLengthUnits;
    /** Number of frames (all in the rest pose), for {@link WriteBvhRestPose}. Default 1. */
    frames?: number;
    /** Seconds per frame. Default 1/30. */
    frameTimeSeconds?: number;
}

/**
 * Writes a rig's rest pose as BVH text: OFFSETs are the world offsets between joints (so the BVH
 * zero pose is the rig's rest pose, whatever its local axes), 6 channels on the root and 3 (ZXY)
 * elsewhere, all zero. The inverse of the reader's conversion: left-handed Y-up metres to the file's
 * right-handed axes and units. Joints of kind `Node` are skipped; End Sites close chains.
 */
export function WriteBvhRestPose(rig: IRig, options: IBvhWriteOptions = {}): string {
    return WriteBvh(
        rig,
        Array.from({ length: options.frames ?? 1 }, () => undefined),
        options,
    );
}

/**
 * Writes poses of a rig as a BVH file: the hierarchy of {@link WriteBvhRestPose} and one frame per
 * pose, the root's position and every joint's ZXY rotation (degrees) taking it from the rest pose
 * to the pose's world rotation. Translations of joints other than the root and scales are not
 * written (BVH joints have fixed offsets).
 * Writes only what `ParseBvh` reads back; else throws one {@link HumanoidError}:
 * `BAD_HIERARCHY` for a rig {@link ValidateRig} refuses, `BAD_OPTION` for units or a frame time the
 * reader does not take, `FILE_WRITE` for more joints (End Sites included), frames, seconds or values
 * than a BVH file may have, a name too long, a length past `MAX_ABS_LENGTH` file units, or a pose
 * whose arrays do not match the rig or whose rotation or root position is not finite or a rotation of
 * no length (naming the frame and the joint).
 * @param rig the skeleton
 * @param poses one rig pose per frame (`undefined` for the rest pose)
 */
export function WriteBvh(rig: IRig, poses: ReadonlyArray<IRigPose | undefined>, options: IBvhWriteOptions = {}): string {
    // Never write what the reader refuses.
    ValidateRig(rig);
    if (rig.joints.length > MAX_JOINTS)
        throw new HumanoidError("FILE_WRITE", `${rig.source}: ${rig.joints.length} joints is more than the ${MAX_JOINTS} a BVH file may have`);
    if (poses.length > MAX_CLIP_FRAMES)
        throw new HumanoidError("FILE_WRITE", `${rig.source}: ${poses.length} frames is more than the ${MAX_CLIP_FRAMES} a BVH file may have`);
    for (const j of rig.joints) {
        if (j.name.length > MAX_NAME_LENGTH)
            throw new HumanoidError(
                "FILE_WRITE",
                `${rig.source}: joint name '${QuoteForMessage(j.name)}' is longer than the ${MAX_NAME_LENGTH} characters a BVH file may have`,
            );
    }
    const unit = BvhLengthUnits[options.units ?? "cm"];
    if (!(unit > 0)) {
        throw new HumanoidError("BAD_OPTION", `${rig.source}: units must be one of ${Object.keys(BvhLengthUnits).join(", ")}, got ${JSON.stringify(options.units)}`);
    }
    const frameTime = options.frameTimeSeconds ?? 1 / 30;
    if (!(frameTime >= 1 / MAX_FRAME_RATE && frameTime <= 1 / MIN_FRAME_RATE)) {
        throw new HumanoidError("BAD_OPTION", `${rig.source}: the frame time must be from ${1 / MAX_FRAME_RATE} to ${1 / MIN_FRAME_RATE} seconds, got ${frameTime}`);
    }
    if (poses.length * frameTime > MAX_CLIP_SECONDS) {
        throw new HumanoidError("FILE_WRITE", `${rig.source}: ${poses.length} frames of ${frameTime} s is longer than the ${MAX_CLIP_SECONDS} s a BVH file may hold`);
    }
    // A pose given NaN or an infinity (or a rotation of no length) would write a file the reader
    // refuses, or one it reads wrong.
    const notFinite = (frame: number, joint: number): HumanoidError =>
        new HumanoidError(
            "FILE_WRITE",
            `${rig.source}: frame ${frame}: joint '${QuoteForMessage(GetRigJointLabel(rig, joint))}' has a rotation or position that is not finite`,
        );
    poses.forEach((pose, frame) => {
        if (!pose) return;
        if (!(pose.rotations?.length === rig.joints.length && pose.positions?.length === rig.joints.length)) {
            throw new HumanoidError("FILE_WRITE", `${rig.source}: frame ${frame}: the pose must have a rotation and a position for each of the ${rig.joints.length} joints`);
        }
        pose.rotations.forEach((q, i) => {
            if (!(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 1e-12)) throw notFinite(frame, i);
        });
    });
    const zUp = options.upAxis === "z";
    const rest = ComputeRigWorldPose(rig);
    const world = rest.positions;
    const kept = rig.joints.map((j) => j.kind !== RigJointKind.Node);
    const parentOf = (i: number): number => {
        let p = rig.joints[i].parent;
        while (p >= 0 && !kept[p]) p = rig.joints[p].parent;
        return p;
    };
    const children = rig.joints.map(() => [] as number[]);
    const roots: number[] = [];
    rig.joints.forEach((_, i) => {
        if (!kept[i]) return;
        const p = parentOf(i);
        if (p >= 0) children[p].push(i);
        else roots.push(i);
    });
    const fmt = (v: number): string => (Math.abs(v) < 1e-9 ? "0" : v.toFixed(6).replace(/0+$/, "").replace(/\.$/, ""));
    // rig (x, y, z) -> file: Y-up (-x, y, z); Z-up (-x, -z, y)
    const toFile = (x: number, y: number, z: number): number[] => (zUp ? [-x, -z, y] : [-x, y, z]);
    // A length past what the reader takes (in file units), or not finite: one error naming where.
    const inRange = (v: number): boolean => Math.abs(v) <= MAX_ABS_LENGTH;
    const offset = (i: number): string => {
        const p = parentOf(i);
        const d = p >= 0 ? world[i].subtract(world[p]) : world[i];
        const values = toFile(d.x, d.y, d.z).map((v) => v / unit);
        if (!values.every(inRange)) {
            throw new HumanoidError(
                "FILE_WRITE",
                `${rig.source}: joint '${QuoteForMessage(GetRigJointLabel(rig, i))}' is further than ${MAX_ABS_LENGTH} ${options.units ?? "cm"} from its parent`,
            );
        }
        return values.map(fmt).join(" ");
    };
    const lines: string[] = ["HIERARCHY"];
    const order: number[] = [];
    const emit = (i: number, depth: number, isRoot: boolean): void => {
        const pad = "\t".repeat(depth);
        const j = rig.joints[i];
        if (j.kind === RigJointKind.EndSite) {
            lines.push(`${pad}End Site`, `${pad}{`, `${pad}\tOFFSET ${offset(i)}`, `${pad}}`);
            return;
        }
        lines.push(`${pad}${isRoot ? "ROOT" : "JOINT"} ${j.name || `joint${i}`}`, `${pad}{`, `${pad}\tOFFSET ${offset(i)}`);
        lines.push(`${pad}\tCHANNELS ${isRoot ? "6 Xposition Yposition Zposition " : "3 "}Zrotation Xrotation Yrotation`);
        order.push(i);
        const kids = children[i];
        if (!kids.length) {
            lines.push(`${pad}\tEnd Site`, `${pad}\t{`, `${pad}\t\tOFFSET 0 0 0`, `${pad}\t}`);
        }
        for (const c of kids) emit(c, depth + 1, false);
        lines.push(`${pad}}`);
    };
    if (roots.length !== 1) {
        throw new HumanoidError("BAD_HIERARCHY", `${rig.source}: a BVH file has one root joint; this rig has ${roots.length}`);
    }
    emit(roots[0], 0, true);
    // The End Sites closing chains are joints of the file too; and the reader caps the values.
    const written = lines.filter((l) => /^\t*(ROOT|JOINT|End Site)/.test(l)).length;
    if (written > MAX_JOINTS)
        throw new HumanoidError("FILE_WRITE", `${rig.source}: ${written} joints and End Sites is more than the ${MAX_JOINTS} a BVH file may have`);
    if (poses.length * (3 + 3 * order.length) > MAX_BVH_VALUES)
        throw new HumanoidError("FILE_WRITE", `${rig.source}: ${poses.length} frames of ${3 + 3 * order.length} channels is more than the ${MAX_BVH_VALUES} values a BVH file may have`);
    lines.push("MOTION", `Frames: ${poses.length}`, `Frame Time: ${fmt(frameTime)}`);
    const delta: Quaternion[] = rig.joints.map(() => Quaternion.Identity());
    const local = new Quaternion();
    poses.forEach((pose, frame) => {
        const w = pose ? ComputeRigWorldPose(rig, pose) : rest;
        // World-aligned joint frames: a joint's rotation is the change of its world rotation from
        // rest, relative to its parent's change: local = delta(parent)^-1 * delta, delta = W * W0^-1.
        for (const i of order) w.rotations[i].multiplyToRef(Quaternion.Inverse(rest.rotations[i]), delta[i]);
        const values: string[] = [];
        const r = w.positions[roots[0]];
        if (!Number.isFinite(r.x + r.y + r.z)) throw notFinite(frame, roots[0]);
        const root = toFile(r.x, r.y, r.z).map((v) => v / unit);
        if (!root.every(inRange)) {
            throw new HumanoidError("FILE_WRITE", `${rig.source}: frame ${frame}: the root is further than ${MAX_ABS_LENGTH} ${options.units ?? "cm"} from the origin`);
        }
        values.push(...root.map(fmt));
        for (const i of order) {
            const p = parentOf(i);
            if (p >= 0) Quaternion.Inverse(delta[p]).multiplyToRef(delta[i], local);
            else local.copyFrom(delta[i]);
            const angles = zxyDegrees(local, zUp);
            if (!angles.every(Number.isFinite)) throw notFinite(frame, i);
            values.push(...angles.map(fmt));
        }
        lines.push(values.join(" "));
    });
    return lines.join("\n") + "\n";
}

/**
 * A rig-space rotation as BVH ZXY channel angles (degrees) in the file's axes: R = Rz * Rx * Ry.
 * The file is a mirror of rig space, so a rotation about rig axis a by t is one about the file's
 * M a by -t.
 */
function zxyDegrees(q: Quaternion, zUp: boolean): [number, number, number] {
    // Rotation axis (x, y, z) to file axes, angle negated: conjugate the vector part after mapping.
    const [fx, fy, fz] = zUp ? [-q.x, -q.z, q.y] : [-q.x, q.y, q.z];
    const x = -fx;
    const y = -fy;
    const z = -fz;
    const w = q.w;
    // Rotation matrix (column vectors) of (x, y, z, w) and its Z-X-Y angles.
    const m01 = 2 * (x * y - z * w);
    const m11 = 1 - 2 * (x * x + z * z);
    const m20 = 2 * (x * z - y * w);
    const m21 = 2 * (y * z + x * w);
    const m22 = 1 - 2 * (x * x + y * y);
    const b = Math.asin(Math.max(-1, Math.min(1, m21)));
    const a = Math.atan2(-m01, m11);
    const c = Math.atan2(-m20, m22);
    const deg = 180 / Math.PI;
    return [a * deg, b * deg, c * deg];
}
