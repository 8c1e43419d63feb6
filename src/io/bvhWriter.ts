import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import { MAX_CLIP_FRAMES, MAX_JOINTS, MAX_NAME_LENGTH, QuoteForMessage } from "../limits.js";
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
 * Throws a {@link HumanoidError}: `BAD_HIERARCHY` for a rig {@link ValidateRig} refuses,
 * `FILE_WRITE` for more joints, frames or longer names than a BVH file may have, or a pose whose
 * rotation or root position is not finite (naming the frame and the joint); nothing is written then.
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
    const offset = (i: number): string => {
        const p = parentOf(i);
        const d = p >= 0 ? world[i].subtract(world[p]) : world[i];
        return toFile(d.x, d.y, d.z)
            .map((v) => fmt(v / unit))
            .join(" ");
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
    lines.push("MOTION", `Frames: ${poses.length}`, `Frame Time: ${fmt(options.frameTimeSeconds ?? 1 / 30)}`);
    // A pose given NaN or an infinity would write a file the reader refuses (or worse, one it reads).
    const notFinite = (frame: number, joint: number): HumanoidError =>
        new HumanoidError(
            "FILE_WRITE",
            `${rig.source}: frame ${frame}: joint '${QuoteForMessage(GetRigJointLabel(rig, joint))}' has a rotation or position that is not finite`,
        );
    const delta: Quaternion[] = rig.joints.map(() => Quaternion.Identity());
    const local = new Quaternion();
    poses.forEach((pose, frame) => {
        const w = pose ? ComputeRigWorldPose(rig, pose) : rest;
        // World-aligned joint frames: a joint's rotation is the change of its world rotation from
        // rest, relative to its parent's change: local = delta(parent)^-1 * delta, delta = W * W0^-1.
        for (const i of order) w.rotations[i].multiplyToRef(Quaternion.Inverse(rest.rotations[i]), delta[i]);
        const values: string[] = [];
        const r = w.positions[roots[0]];
        values.push(...toFile(r.x, r.y, r.z).map((v) => fmt(v / unit)));
        for (const i of order) {
            const p = parentOf(i);
            if (p >= 0) Quaternion.Inverse(delta[p]).multiplyToRef(delta[i], local);
            else local.copyFrom(delta[i]);
            const angles = zxyDegrees(local, zUp);
            if (!angles.every(Number.isFinite)) throw notFinite(frame, i);
            values.push(...angles.map(fmt));
        }
        if (!Number.isFinite(r.x + r.y + r.z)) throw notFinite(frame, roots[0]);
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
