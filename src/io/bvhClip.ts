import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { ConvertRigPosesToMuscleClip } from "../clip/convert.js";
import type { IMuscleClipConvertOptions, IRigPoseSource } from "../clip/convertOptions.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import type { IRigPose } from "../humanoid/rig.js";
import type { IBvhRig } from "./bvhRig.js";

const AXES = [Vector3.Right(), Vector3.Up(), Vector3.Forward()];

/** Per joint: rotation channels (value index, rig axis, angle factor) and position channels. */
interface IJointLayout {
    readonly rotIdx: Int32Array;
    readonly rotAxis: Int32Array;
    readonly rotFactor: Float64Array;
    /** Value index of the X, Y, Z position channel in file axes, -1 for none; null when the joint has none. */
    readonly posIdx: Int32Array | null;
}

/** Joints a warning about world-position channels names at most (then "and N more"). */
const WORLD_JOINTS_NAMED = 8;

/**
 * Reads a BVH file's motion as rig poses at any time, allocation-free: the frame's channels are
 * turned into rig-space rotations and positions exactly as `GetBvhFramePose` does, and a time
 * between two frames blends them (rotations by slerp, positions linearly). Made once per file.
 */
export class BvhPoseSource implements IRigPoseSource {
    /** Clip name: the file's base name. */
    public readonly name: string;
    /** The file. */
    public readonly source: string;
    /** 1 / Frame Time. */
    public readonly frameRate: number;
    /** (frames - 1) * Frame Time. */
    public readonly durationSeconds: number;
    /** None of its own: what muscle space drops is found by the converter, which knows the avatar. */
    public readonly warnings: readonly string[];
    private readonly _bvh: IBvhRig;
    private readonly _layout: IJointLayout[];
    private readonly _a: IRigPose;
    private readonly _b: IRigPose;
    private readonly _q = new Quaternion();

    /** @param bvhRig the parsed file and its axis and unit conversion */
    constructor(bvhRig: IBvhRig) {
        const { bvh, conversion } = bvhRig;
        if (bvh.frameCount < 1) throw new HumanoidError("CONVERT", `${bvh.source}: the file has no frames`);
        this._bvh = bvhRig;
        this.source = bvh.source;
        this.name = bvh.source.replace(/^.*[\\/]/, "").replace(/\.bvh$/i, "");
        this.frameRate = 1 / bvh.frameTimeSeconds;
        this.durationSeconds = (bvh.frameCount - 1) * bvh.frameTimeSeconds;
        const worldJoints = new Set(bvhRig.worldPositionJoints ?? []);
        this._layout = bvh.joints.map((joint, j) => {
            const rotIdx: number[] = [];
            const rotAxis: number[] = [];
            const rotFactor: number[] = [];
            const posIdx = [-1, -1, -1];
            joint.channels.forEach((c, i) => {
                const a = c.charCodeAt(0) - 88; // 'X' = 88
                if (c.endsWith("rotation")) {
                    // A rotation about file axis a by θ is, after the mirror, one about rig axis k by -s·θ.
                    rotIdx.push(joint.channelStart + i);
                    rotAxis.push(conversion.axis[a]);
                    rotFactor.push((-conversion.sign[a] * Math.PI) / 180);
                } else {
                    posIdx[a] = joint.channelStart + i;
                }
            });
            return {
                rotIdx: Int32Array.from(rotIdx),
                rotAxis: Int32Array.from(rotAxis),
                rotFactor: Float64Array.from(rotFactor),
                posIdx: posIdx.some((p) => p >= 0) && !worldJoints.has(j) ? Int32Array.from(posIdx) : null,
            };
        });
        const blank = (): IRigPose => ({
            label: "bvh",
            rotations: bvhRig.rig.joints.map(() => Quaternion.Identity()),
            positions: bvhRig.rig.joints.map((j) => j.restPosition.clone()),
        });
        this._a = blank();
        this._b = blank();
        // Translation on bones other than the hips is found by the converter (it knows the avatar).
        const world = [...worldJoints].map((j) => bvh.joints[j].name);
        const named =
            world.length > WORLD_JOINTS_NAMED
                ? `${world.slice(0, WORLD_JOINTS_NAMED).join(", ")} and ${world.length - WORLD_JOINTS_NAMED} more`
                : world.join(", ");
        this.warnings = world.length
            ? [
                  `${bvh.source}: the position channels of ${named} hold world positions, not translations from their parents (as some exporters write them): read at their OFFSETs`,
              ]
            : [];
    }

    /** Writes frame `frame`'s pose into `result`. */
    public framePoseToRef(frame: number, result: IRigPose): void {
        const { bvh, conversion, rig } = this._bvh;
        const base = frame * bvh.channelCount;
        const m = bvh.motion;
        const q = this._q;
        for (let j = 0; j < this._layout.length; j++) {
            const l = this._layout[j];
            const r = result.rotations[j];
            r.set(0, 0, 0, 1);
            for (let c = 0; c < l.rotIdx.length; c++) {
                Quaternion.RotationAxisToRef(AXES[l.rotAxis[c]], m[base + l.rotIdx[c]] * l.rotFactor[c], q);
                r.multiplyInPlace(q);
            }
            const p = result.positions[j];
            if (l.posIdx) {
                // Position channels replace the OFFSET (a missing axis keeps its OFFSET value).
                const o = bvh.joints[j].offset;
                const s = conversion.unitsToMeters;
                for (let a = 0; a < 3; a++) {
                    const v = l.posIdx[a] >= 0 ? m[base + l.posIdx[a]] : o[a];
                    const k = conversion.axis[a];
                    const out = conversion.sign[a] * v * s;
                    if (k === 0) p.x = out;
                    else if (k === 1) p.y = out;
                    else p.z = out;
                }
            } else {
                p.copyFrom(rig.joints[j].restPosition);
            }
        }
    }

    /** The pose at a time, blending the two frames around it. */
    public samplePoseToRef(timeSeconds: number, result: IRigPose): void {
        const last = this._bvh.bvh.frameCount - 1;
        const f = Math.max(0, Math.min(last, timeSeconds * this.frameRate));
        const f0 = Math.floor(f);
        const t = f - f0;
        if (t < 1e-9 || f0 >= last) {
            this.framePoseToRef(Math.min(f0, last), result);
            return;
        }
        if (1 - t < 1e-9) {
            this.framePoseToRef(f0 + 1, result);
            return;
        }
        this.framePoseToRef(f0, this._a);
        this.framePoseToRef(f0 + 1, this._b);
        for (let j = 0; j < result.rotations.length; j++) {
            Quaternion.SlerpToRef(this._a.rotations[j], this._b.rotations[j], t, result.rotations[j]);
            Vector3.LerpToRef(this._a.positions[j], this._b.positions[j], t, result.positions[j]);
        }
    }
}

/**
 * Converts a BVH file's motion to a {@link MuscleClip}. The avatar defaults to one built from the
 * file's own skeleton; pass one to reuse a bone map or options. See `ConvertRigPosesToMuscleClip`
 * for the options and what is measured.
 * @param bvhRig the parsed file (`CreateRigFromBvh(ParseBvh(text, name))`)
 * @param avatar the avatar of that skeleton (built from `bvhRig.rig` when omitted)
 * @param options rate, tolerance, loop, name, progress
 */
export function ConvertBvhToMuscleClip(bvhRig: IBvhRig, avatar?: HumanoidAvatar, options: IMuscleClipConvertOptions = {}): MuscleClip {
    const a = avatar ?? BuildHumanoidAvatar(bvhRig.rig);
    if (a.rig !== bvhRig.rig && a.rig.joints.length !== bvhRig.rig.joints.length) {
        throw new HumanoidError(
            "BAD_OPTION",
            `${bvhRig.bvh.source}: the avatar was built from another skeleton (${a.rig.joints.length} joints, the file has ${bvhRig.rig.joints.length})`,
        );
    }
    return ConvertRigPosesToMuscleClip(a, new BvhPoseSource(bvhRig), options);
}
