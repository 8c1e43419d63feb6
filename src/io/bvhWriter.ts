import { HumanoidError } from "../errors.js";
import { ComputeRigWorldPose, RigJointKind, type IRig } from "../humanoid/rig.js";
import { BvhLengthUnits } from "./bvhRig.js";

/** Options of {@link WriteBvhRestPose}. */
export interface IBvhWriteOptions {
    /** Up axis of the file. Default `"y"`. */
    upAxis?: "y" | "z";
    /** Length unit of the file (a name of {@link BvhLengthUnits}). Default `"cm"`. */
    units?: keyof typeof BvhLengthUnits;
    /** Number of frames (all in the rest pose). Default 1. */
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
    const unit = BvhLengthUnits[options.units ?? "cm"];
    const zUp = options.upAxis === "z";
    const world = ComputeRigWorldPose(rig).positions;
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
    const offset = (i: number): string => {
        const p = parentOf(i);
        const d = p >= 0 ? world[i].subtract(world[p]) : world[i];
        // rig (x, y, z) -> file: Y-up (-x, y, z); Z-up (-x, -z, y)
        const f = zUp ? [-d.x, -d.z, d.y] : [-d.x, d.y, d.z];
        return f.map((v) => fmt(v / unit)).join(" ");
    };
    const lines: string[] = ["HIERARCHY"];
    let channels = 0;
    const emit = (i: number, depth: number, isRoot: boolean): void => {
        const pad = "\t".repeat(depth);
        const j = rig.joints[i];
        if (j.kind === RigJointKind.EndSite) {
            lines.push(`${pad}End Site`, `${pad}{`, `${pad}\tOFFSET ${offset(i)}`, `${pad}}`);
            return;
        }
        lines.push(`${pad}${isRoot ? "ROOT" : "JOINT"} ${j.name || `joint${i}`}`, `${pad}{`, `${pad}\tOFFSET ${offset(i)}`);
        lines.push(`${pad}\tCHANNELS ${isRoot ? "6 Xposition Yposition Zposition " : "3 "}Zrotation Xrotation Yrotation`);
        channels += isRoot ? 6 : 3;
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
    const frames = options.frames ?? 1;
    lines.push("MOTION", `Frames: ${frames}`, `Frame Time: ${fmt(options.frameTimeSeconds ?? 1 / 30)}`);
    const rootOffset = offset(roots[0]);
    const zeros = new Array(channels - 3).fill("0").join(" ");
    for (let f = 0; f < frames; f++) lines.push(`${rootOffset} ${zeros}`);
    return lines.join("\n") + "\n";
}
