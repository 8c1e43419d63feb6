import type { Animation } from "@babylonjs/core/Animations/animation.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { ConvertRigPosesToMuscleClip } from "../clip/convert.js";
import type { IMuscleClipConvertOptions, IRigPoseSource } from "../clip/convertOptions.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import { MAX_ABS_LENGTH, MAX_CLIP_SECONDS, MAX_FRAME_RATE, MAX_KEY_GAP_SECONDS, QuoteForMessage } from "../limits.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { GetRigJointLabel, type IRigPose } from "../humanoid/rig.js";
import { GetGltfNodeIndex } from "./babylonRig.js";

/** Frames per second of the conversion when the clip's keys give no rate, or keys sparser than {@link MIN_KEY_RATE}. */
export const DEFAULT_CLIP_RATE = 30;
/** Keys further apart than 1/this seconds are sampled at {@link DEFAULT_CLIP_RATE}: between sparse keys a muscle blend drifts from the source's rotation blend. */
export const MIN_KEY_RATE = 20;
/** A clip's local positions differ from the avatar's when they are further apart than this share of the bone's length. */
const POSITION_MISMATCH_SHARE = 0.01;
/** Longest list of names in one warning. */
const WARN_NAMES = 12;

/** The state Babylon's animation interpolation keeps between calls: the key it is at. */
interface IInterpolationState {
    key: number;
    repeatCount: number;
    loopMode: number;
}

/** Babylon's `Animation` with its interpolation that takes a cursor (what `evaluate` calls with a fresh one). */
type AnimationWithCursor = Animation & { _interpolate?: (frame: number, state: IInterpolationState) => unknown };

/**
 * The value of an animation at a frame, keeping a cursor so that sampling a track in order costs
 * constant time per sample (`Animation.evaluate` starts from the first key each time, quadratic
 * over a long clip). Same interpolation as Babylon's: steps, linear, slerp, tangents, easing.
 */
function evaluateAt(animation: Animation, state: IInterpolationState, frame: number): unknown {
    const a = animation as AnimationWithCursor;
    return typeof a._interpolate === "function" ? a._interpolate(frame, state) : animation.evaluate(frame);
}

/** A scale's smallest axis, unsigned. */
function minAxis(v: Vector3): number {
    return Math.min(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
}

/** How one avatar joint is read from the clip. */
interface IJointBinding {
    readonly joint: number;
    readonly node: TransformNode;
    rotation: Animation | null;
    readonly rotationState: IInterpolationState;
    rotationIsEuler: boolean;
    position: Animation | null;
    readonly positionState: IInterpolationState;
    /** The clip's own local position of the node where a track holds it still (its rest), else null. */
    stillPosition: Vector3 | null;
    /** The node's parent is mirrored (glTF's handedness flip): conjugate the local transform by the Z mirror. */
    readonly mirrored: boolean;
    /** For a top joint of the rig: the (static) world matrix of the node's parent. */
    readonly parentWorld: Matrix | null;
}

const MIRROR_Z = Matrix.Scaling(1, 1, -1);
/** Babylon's `Animation.ANIMATIONLOOPMODE_CONSTANT`: hold the ends. */
const CONSTANT_LOOP = 2;

/**
 * Refuses keys no real clip has, before anything samples them: a time that is not finite or
 * beyond {@link MAX_CLIP_SECONDS} or more than {@link MAX_KEY_GAP_SECONDS} after the key before (one corrupt time would plan millions of frames), a value that is
 * not finite or beyond {@link MAX_ABS_LENGTH} in magnitude (it would become NaN or Infinity in
 * the muscle curves). Throws one {@link HumanoidError} `CONVERT` naming the node, the property, the
 * key and the value.
 */
function CheckAnimationKeys(what: string, node: string, prop: string, keys: ReadonlyArray<{ frame: number; value: unknown }>, fps: number): void {
    if (!(fps > 0 && fps <= MAX_FRAME_RATE * 100)) {
        throw new HumanoidError("CONVERT", `${what}: the ${prop} animation of '${QuoteForMessage(node)}' runs at ${fps} frames per second`);
    }
    for (let k = 0; k < keys.length; k++) {
        const { frame, value } = keys[k];
        const t = frame / fps;
        if (!(Math.abs(t) <= MAX_CLIP_SECONDS)) {
            throw new HumanoidError(
                "CONVERT",
                `${what}: key ${k} of the ${prop} animation of '${QuoteForMessage(node)}' is at ${t} s, beyond the ${MAX_CLIP_SECONDS} s a clip may last`,
                { node, property: prop, key: k, time: t },
            );
        }
        if (k > 0 && (frame - keys[k - 1].frame) / fps > MAX_KEY_GAP_SECONDS) {
            throw new HumanoidError(
                "CONVERT",
                `${what}: keys ${k - 1} and ${k} of the ${prop} animation of '${QuoteForMessage(node)}' are ${(frame - keys[k - 1].frame) / fps} s apart, more than ${MAX_KEY_GAP_SECONDS} s (a corrupt key time?)`,
                { node, property: prop, key: k, time: t },
            );
        }
        const v = value as { x?: number; y?: number; z?: number; w?: number } | number;
        const parts = typeof v === "number" ? [v] : [v?.x, v?.y, v?.z, v?.w].filter((x) => x !== undefined);
        for (const x of parts) {
            if (!(typeof x === "number" && Math.abs(x) <= MAX_ABS_LENGTH)) {
                throw new HumanoidError(
                    "CONVERT",
                    `${what}: key ${k} of the ${prop} animation of '${QuoteForMessage(node)}' has the value ${x}, not a finite number within ${MAX_ABS_LENGTH} in magnitude`,
                    { node, property: prop, key: k, value: x },
                );
            }
        }
    }
}

/** The names a list of joints would be shown with, cut short. */
function listNames(names: string[]): string {
    return names.length > WARN_NAMES ? `${names.slice(0, WARN_NAMES).join(", ")} and ${names.length - WARN_NAMES} more` : names.join(", ");
}

/**
 * Reads a Babylon `AnimationGroup` as rig poses of an avatar, without touching the scene: each
 * targeted `rotationQuaternion` (or `rotation`) and `position` animation is evaluated at the
 * time asked and turned into the avatar's rig space (the glTF handedness mirror undone as when the
 * rig was read). The group's nodes are matched to the avatar's joints by name (or, for unnamed
 * glTF nodes, by glTF node index), so the clip may live in another file than the model, its
 * skeleton with extra joints. Joints the clip does not animate keep the avatar's rest pose.
 */
export class AnimationGroupPoseSource implements IRigPoseSource {
    /** The group's name. */
    public readonly name: string;
    /** Where it comes from (the file, when given). */
    public readonly source: string;
    /** The rate of the group's keys (the most common spacing, snapped to a whole number within 1%), or {@link DEFAULT_CLIP_RATE}. */
    public readonly frameRate: number;
    /** (to - from) / the animations' frames per second. */
    public readonly durationSeconds: number;
    /** What the clip has that muscle space drops, or that differs from the avatar. */
    public readonly warnings: readonly string[];
    private readonly _avatar: HumanoidAvatar;
    private readonly _bindings: IJointBinding[];
    /** The scaling tracks of the hips' node and the nodes above it (see {@link figureScaleAt}). */
    private readonly _figureScales: { animation: Animation; state: IInterpolationState; largest: number }[];
    private readonly _from: number;
    private readonly _fps: number;
    private readonly _m = new Matrix();
    private readonly _m2 = new Matrix();
    private readonly _s = new Vector3();
    private readonly _q = new Quaternion();
    private readonly _p = new Vector3();

    /**
     * @param group the clip
     * @param avatar the avatar whose joints the clip drives
     * @param source the file, for messages (default the group's name)
     */
    constructor(group: AnimationGroup, avatar: HumanoidAvatar, source?: string) {
        this._avatar = avatar;
        this.name = group.name;
        this.source = source ?? group.name;
        const what = `${this.source}${source ? ` (${group.name})` : ""}`;
        const rig = avatar.rig;
        // Joint lookup: by name where names are unique, else by glTF node index.
        const byName = new Map<string, number>();
        const duplicate = new Set<string>();
        const byIndex = new Map<number, number>();
        rig.joints.forEach((j, i) => {
            if (j.name) {
                if (byName.has(j.name)) duplicate.add(j.name);
                byName.set(j.name, i);
            }
            if (j.sourceIndex >= 0) byIndex.set(j.sourceIndex, i);
        });
        const jointOf = (node: TransformNode): number => {
            const index = GetGltfNodeIndex(node);
            const unnamed = !node.name || (index >= 0 && node.name === `node${index}`);
            // Named nodes by name (a name the avatar has twice, and unnamed nodes, by glTF index).
            if (!unnamed && !duplicate.has(node.name)) return byName.get(node.name) ?? -1;
            return index >= 0 ? (byIndex.get(index) ?? -1) : -1;
        };
        const bindings = new Map<number, IJointBinding>();
        const missing = new Set<string>();
        const scaled = new Set<string>();
        const scalings: { node: TransformNode; animation: Animation }[] = [];
        const hipsJoint = avatar.getJoint(HumanBone.Hips);
        let hipsNode: TransformNode | null = null;
        let fps = 0;
        const spacings = new Map<number, number>();
        for (const ta of group.targetedAnimations) {
            const node = ta.target as TransformNode;
            const prop = ta.animation.targetProperty;
            if (!node || typeof node.getWorldMatrix !== "function" || !["rotationQuaternion", "rotation", "position", "scaling"].includes(prop)) continue;
            fps = fps || ta.animation.framePerSecond;
            const keys = ta.animation.getKeys();
            CheckAnimationKeys(what, node.name, prop, keys, ta.animation.framePerSecond);
            // The key rate, from tracks that have keys between their ends.
            for (let k = 1; k < (keys.length > 2 ? keys.length : 0); k++) {
                const dt = Math.round(((keys[k].frame - keys[k - 1].frame) / ta.animation.framePerSecond) * 1e5) / 1e5;
                if (dt > 0) spacings.set(dt, (spacings.get(dt) ?? 0) + 1);
            }
            const j = jointOf(node);
            if (j >= 0 && j === hipsJoint) hipsNode = node;
            if (prop === "scaling") {
                if (keys.some((k) => !(k.value as Vector3).equalsWithEpsilon(keys[0].value as Vector3, 1e-4))) scaled.add(node.name);
                scalings.push({ node, animation: ta.animation });
                continue;
            }
            if (j < 0) {
                missing.add(node.name);
                continue;
            }
            let b = bindings.get(j);
            if (!b) {
                const parent = node.parent as TransformNode | null;
                const parentWorld = parent && typeof parent.computeWorldMatrix === "function" ? parent.computeWorldMatrix(true) : Matrix.Identity();
                b = {
                    joint: j,
                    node,
                    rotation: null,
                    rotationState: { key: 0, repeatCount: 0, loopMode: CONSTANT_LOOP },
                    rotationIsEuler: false,
                    position: null,
                    positionState: { key: 0, repeatCount: 0, loopMode: CONSTANT_LOOP },
                    stillPosition: null,
                    mirrored: parentWorld.determinant() < 0,
                    parentWorld: rig.joints[j].parent < 0 ? parentWorld.clone() : null,
                };
                bindings.set(j, b);
            }
            // A position track that never moves (exporters key every bone) is the clip's rest, not motion.
            if (prop === "position") {
                const moves = keys.some((k) => !(k.value as Vector3).equalsWithEpsilon(keys[0].value as Vector3, 1e-6));
                b.position = moves ? ta.animation : null;
                b.stillPosition = moves ? null : (keys[0].value as Vector3).clone();
            } else {
                b.rotation = ta.animation;
                b.rotationIsEuler = prop === "rotation";
            }
        }
        if (!bindings.size) {
            throw new HumanoidError(
                "CONVERT",
                `${what}: the clip animates none of the avatar's joints (${missing.size ? `it animates ${listNames([...missing])}` : "it animates no nodes"})`,
            );
        }
        this._bindings = [...bindings.values()].sort((a, b) => a.joint - b.joint);
        // The figure's scale: the scaling tracks of the hips' node and of the nodes above it (the
        // hips found among the nodes the group animates, however). Each as a share of its largest
        // key (the smallest axis of each key; all of its keys, those outside the group's range
        // too): a node whose scale converts units (a Mixamo export's `Armature` at 0.01) shows its
        // figure at its full size.
        this._figureScales = [];
        const hips = hipsNode as TransformNode | null;
        for (const t of hips ? scalings : []) {
            if (t.node !== hips && !hips!.isDescendantOf(t.node)) continue;
            let largest = 0;
            for (const k of t.animation.getKeys()) largest = Math.max(largest, minAxis(k.value as Vector3));
            if (largest > 0) this._figureScales.push({ animation: t.animation, state: { key: 0, repeatCount: 0, loopMode: CONSTANT_LOOP }, largest });
        }
        this._fps = fps || 60;
        this._from = group.from;
        this.durationSeconds = Math.max(0, (group.to - group.from) / this._fps);
        let best = 0;
        let bestCount = 0;
        for (const [dt, count] of spacings) {
            if (count > bestCount) {
                best = dt;
                bestCount = count;
            }
        }
        // A rate within 1% of a whole number is that number (keys at 1/30 s stored as 0.0333).
        let rate = best > 0 ? 1 / best : 0;
        if (Math.abs(rate - Math.round(rate)) < 0.01 * rate) rate = Math.round(rate);
        this.frameRate = rate >= MIN_KEY_RATE && rate <= 1000 ? rate : DEFAULT_CLIP_RATE;
        const warnings: string[] = [];
        if (missing.size) warnings.push(`the clip animates nodes the avatar does not have, ignored: ${listNames([...missing].sort())}`);
        if (scaled.size) warnings.push(`scale is animated and dropped (muscle space has no scale): ${listNames([...scaled].sort())}`);
        const differ = this._positionMismatches();
        if (differ.length)
            warnings.push(
                `the clip holds bones at local positions other than the avatar's (a skeleton of other proportions, or a pose that moves bones); the avatar's are used: ${listNames(differ)}`,
            );
        this.warnings = warnings;
    }

    /** Joints whose static local position in the clip's file differs from the avatar's rest. */
    private _positionMismatches(): string[] {
        const rig = this._avatar.rig;
        const out: string[] = [];
        for (const b of this._bindings) {
            // Only where the clip states the position: a track that holds it still (the node itself
            // may have been moved by another clip played before).
            if (b.position || !b.stillPosition) continue;
            this._localToRig(b, b.stillPosition, b.node.rotationQuaternion ?? Quaternion.FromEulerVector(b.node.rotation), this._q, this._p);
            const rest = rig.joints[b.joint].restPosition;
            if (Vector3.Distance(this._p, rest) > POSITION_MISMATCH_SHARE * rest.length() + 1e-6) out.push(GetRigJointLabel(rig, b.joint));
        }
        return out;
    }

    /** A node-local rotation and position in rig space (the joint's local transform there). */
    private _localToRig(b: IJointBinding, position: Vector3, rotation: Quaternion, outRot: Quaternion, outPos: Vector3): void {
        if (b.parentWorld) {
            // A top joint: its rig transform is its world matrix, made proper: S * (local * parentWorld).
            Matrix.ComposeToRef(b.node.scaling, rotation, position, this._m);
            this._m.multiplyToRef(b.parentWorld, this._m2);
            if (this._m2.determinant() < 0) MIRROR_Z.multiplyToRef(this._m2, this._m2);
            this._m2.decompose(this._s, outRot, outPos);
            outRot.normalize();
        } else if (b.mirrored) {
            // Below the mirror: local' = S * local * S, so rotations (x, y, z, w) -> (-x, -y, z, w).
            outRot.set(-rotation.x, -rotation.y, rotation.z, rotation.w);
            outPos.set(position.x, position.y, -position.z);
        } else {
            outRot.copyFrom(rotation);
            outPos.copyFrom(position);
        }
    }

    /**
     * How large the clip shows its figure at a time, as a share of its full size: for the hips'
     * node and each node above it that the clip scales, the smallest axis of its scale then over
     * the largest smallest axis among that track's keys, multiplied together (1 without such
     * tracks). See `IRigPoseSource.figureScaleAt`.
     * @param timeSeconds seconds from the group's start
     * @returns a share, 0 (not shown) to 1 (full size)
     */
    public figureScaleAt(timeSeconds: number): number {
        const frame = this._from + timeSeconds * this._fps;
        let share = 1;
        for (const t of this._figureScales) {
            share *= minAxis(evaluateAt(t.animation, t.state, frame) as Vector3) / t.largest;
        }
        return share;
    }

    /** The pose at a time (seconds from the group's start). */
    public samplePoseToRef(timeSeconds: number, result: IRigPose): void {
        const rig = this._avatar.rig;
        for (let j = 0; j < rig.joints.length; j++) {
            result.rotations[j].copyFrom(rig.joints[j].restRotation);
            result.positions[j].copyFrom(rig.joints[j].restPosition);
        }
        const frame = this._from + timeSeconds * this._fps;
        for (const b of this._bindings) {
            const node = b.node;
            let rotation: Quaternion;
            if (b.rotation) {
                const v = evaluateAt(b.rotation, b.rotationState, frame);
                rotation = b.rotationIsEuler ? Quaternion.FromEulerVector(v as Vector3) : (v as Quaternion);
            } else {
                rotation = node.rotationQuaternion ?? Quaternion.FromEulerVector(node.rotation);
            }
            const position = b.position ? (evaluateAt(b.position, b.positionState, frame) as Vector3) : node.position;
            this._localToRig(b, position, rotation, result.rotations[b.joint], this._p);
            // Positions: the clip's where it animates them, the avatar's own elsewhere.
            if (b.position) result.positions[b.joint].copyFrom(this._p);
            if (!b.rotation) result.rotations[b.joint].copyFrom(rig.joints[b.joint].restRotation);
        }
    }
}

/**
 * Converts a Babylon `AnimationGroup` (a glTF, GLB or VRM clip) to a {@link MuscleClip} on an
 * avatar: the avatar of the model the clip was made for, or of the clip file's own skeleton. The
 * scene is not touched. See `ConvertRigPosesToMuscleClip` for the options and what is measured.
 * @param group the clip
 * @param avatar the avatar whose joints the clip drives (matched by node name)
 * @param options rate (default: the rate of the clip's keys), tolerance, loop, name, progress, and `source` (the file, for messages)
 */
export function ConvertAnimationGroupToMuscleClip(
    group: AnimationGroup,
    avatar: HumanoidAvatar,
    options: IMuscleClipConvertOptions & { source?: string } = {},
): MuscleClip {
    return ConvertRigPosesToMuscleClip(avatar, new AnimationGroupPoseSource(group, avatar, options.source), options);
}
