import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CLIP_PROPORTION_COUNT, ClipLayoutViews, ClipProportionsToArray, type IClipLayoutViews, type IClipProportions } from "../clip/clipProportions.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { MuscleClipSampler } from "../clip/clipSampler.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HumanBoneParents, HumanBoneRequired, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { ComputeRigWorldPose, RigJointKind, type IRig, type IRigJoint, type IRigPose } from "../humanoid/rig.js";
import { MAX_CLIP_FRAMES, MAX_FRAME_RATE } from "../limits.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../muscle/decode.js";
import { HasLegProportions, TurnHipsAsSourceInPlace } from "../muscle/hipsTurn.js";
import { MuscleSetup } from "../muscle/setup.js";
import { HumanPose } from "../muscle/humanPose.js";
import { BuildSampleRig, SampleCharacters } from "../samples/sampleCharacters.js";
import { VrmHumanBoneName } from "./vrm.js";

/**
 * The skeleton a VRM Animation is written on: one joint per human bone of a model (every mapped
 * bone but the jaw), named by its VRM 1.0 name, in the VRM 1.0 T-pose: the model's reference
 * T-pose turned to face +Z, the hips above the origin at their height over the lowest joint, every
 * rest rotation the identity. Rig space,
 * as every rig here (left-handed, Y-up, metres: the character's left at -X);
 * {@link VrmAnimationFromMuscleClip} converts to glTF's axes.
 */
export interface IVrmAnimationSkeleton {
    /** The skeleton: joint i is the human bone `bones[i]`, parents first, every rest rotation the identity. */
    readonly rig: IRig;
    /** The human bone of every joint. */
    readonly bones: readonly HumanBone[];
    /** Its avatar (the declared map, rest pose as the T-pose). */
    readonly avatar: HumanoidAvatar;
}

/** Options of {@link CreateVrmAnimationSkeleton}. */
export interface IVrmAnimationSkeletonOptions {
    /** Which of the model's mapped bones to keep (the hips and every required bone are always kept). Default: all but the jaw. */
    bones?: (bone: HumanBone) => boolean;
}

/**
 * Makes the skeleton a VRM Animation is written on from a model's avatar (see
 * {@link IVrmAnimationSkeleton}): the bones a VRM of that model has, at its proportions. A reader
 * (three-vrm, UniVRM) drops the tracks of bones the VRM it plays on lacks, with their rotation; a
 * skeleton of the target's own bones puts that motion on the bones it has (a missing upper
 * chest's on the chest, as the decoder does). Throws what {@link BuildHumanoidAvatar} throws.
 * @param model the avatar whose bones and T-pose are taken
 * @param options which bones
 */
export function CreateVrmAnimationSkeleton(model: HumanoidAvatar, options: IVrmAnimationSkeletonOptions = {}): IVrmAnimationSkeleton {
    const keep = options.bones ?? (() => true);
    const world = model.referenceWorld;
    // Canonical axes (right, up, forward) of the model's body frame: the T-pose turned to face +Z.
    const right = model.frame.left.scale(-1);
    const { up, forward } = model.frame;
    const hipsAt = world.positions[model.getJoint(HumanBone.Hips)];
    // The hips stand above the lowest human joint (the toes, mostly), wherever the model's origin is:
    // players scale the hips' travel by the ratio of hip heights, so the height must be the body's.
    let lowest = Infinity;
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) if (model.isMapped(b)) lowest = Math.min(lowest, Vector3.Dot(world.positions[model.getJoint(b)], up));
    const hipsHeight = Vector3.Dot(hipsAt, up) - lowest;
    const canonical = (b: HumanBone): Vector3 => {
        const d = world.positions[model.getJoint(b)].subtract(hipsAt);
        return new Vector3(Vector3.Dot(d, right), Vector3.Dot(d, up) + hipsHeight, Vector3.Dot(d, forward));
    };
    const bones: HumanBone[] = [];
    const jointOf = new Int32Array(HUMAN_BONE_COUNT).fill(-1);
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (model.isMapped(b) && b !== HumanBone.Jaw && (b === HumanBone.Hips || HumanBoneRequired[b] || keep(b))) {
            jointOf[b] = bones.length;
            bones.push(b);
        }
    }
    const joints: IRigJoint[] = bones.map((b, i) => {
        let p = HumanBoneParents[b];
        while (p >= 0 && jointOf[p] < 0) p = HumanBoneParents[p];
        const parent = p >= 0 ? jointOf[p] : -1;
        const at = canonical(b);
        return {
            name: VrmHumanBoneName(b),
            parent,
            kind: RigJointKind.Bone,
            restPosition: parent >= 0 ? at.subtract(canonical(p as HumanBone)) : at,
            restRotation: Quaternion.Identity(),
            restScale: Vector3.One(),
            sourceIndex: i,
        };
    });
    const rig: IRig = { source: `VRM Animation skeleton of ${model.rig.source}`, joints };
    const declared = new Map<HumanBone, number>(bones.map((b, i) => [b, i]));
    return { rig, bones, avatar: BuildHumanoidAvatar(rig, { declaredBoneMap: declared, tPose: "rest" }) };
}

let defaultSkeleton: IVrmAnimationSkeleton | undefined;

/**
 * The skeleton VRM Animations are written on by default (built once, then shared): the built-in
 * adult sample (1.75 m tall, hips 0.92 m above its lowest joint) in its T-pose with every human bone but the upper
 * chest and the jaw. Both are optional in VRM 1.0 and many VRMs lack the upper chest; its motion
 * goes to the chest, so that every VRM plays the torso whole.
 */
export function GetVrmAnimationSkeleton(): IVrmAnimationSkeleton {
    defaultSkeleton ??= CreateVrmAnimationSkeleton(BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]), { tPose: "strict" }), {
        bones: (b) => b !== HumanBone.UpperChest,
    });
    return defaultSkeleton;
}

/**
 * A clip as the keys of a VRM Animation, in glTF's axes (right-handed, Y-up, metres; the character
 * faces +Z, its left at +X), on the skeleton of {@link GetVrmAnimationSkeleton}.
 */
export interface IVrmAnimationData {
    /** The animation's name (the clip's). */
    readonly name: string;
    /** The human bone of every node, parents first. */
    readonly bones: readonly HumanBone[];
    /** Parent of every node (index into `bones`, -1 for the hips). */
    readonly parents: readonly number[];
    /** Rest translation of every node relative to its parent, x y z per node (metres; rest rotations are the identity). */
    readonly restTranslations: Float32Array;
    /** Key times, seconds from 0, one per frame. */
    readonly times: Float32Array;
    /** Local rotation of every node at every key, relative to its (identity) rest: `[node][frame * 4 + (x, y, z, w)]`. */
    readonly rotations: readonly Float32Array[];
    /** Translation of the hips at every key, relative to the scene (metres): frame * 3 + (x, y, z). */
    readonly hipsTranslations: Float32Array;
}

/** Options of {@link VrmAnimationFromMuscleClip}. */
export interface IVrmAnimationOptions {
    /** Keys per second (above 0, at most 10000). Default: the clip's own frame rate. */
    frameRate?: number;
    /** The skeleton to write on ({@link CreateVrmAnimationSkeleton}). Default: {@link GetVrmAnimationSkeleton}. */
    skeleton?: IVrmAnimationSkeleton;
}

/**
 * Samples a muscle clip onto the VRM Animation skeleton ({@link GetVrmAnimationSkeleton}): every
 * frame is decoded there as the animator's rig solver decodes it with its default `"legs"`
 * proportions (muscles, body position and orientation; the clip's trunk and shoulder layouts, so
 * that the trunk's segments and the line between the arms' roots turn as the source's did; the
 * hips turned as the source's were; no IK, whose goals a VRM Animation cannot carry, and no joint
 * limits; each key decoded on its own, so nothing is carried from key to key: the sockets' shake,
 * which the animator matches to a character's own collarbones (`CollarboneShake`), stays as the
 * source's, the character that will play the file not being known here; the hips where the
 * centre of mass puts them, as `"com"` does) and each bone's local
 * rotation and the hips' translation are kept, in
 * glTF's axes (rig space mirrored in X: a position `(x, y, z) -> (-x, y, z)`, a rotation
 * `(x, y, z, w) -> (x, -y, -z, w)`). The clip's travel stays in the hips. Consecutive keys of a
 * bone are kept in the same quaternion hemisphere. Throws a {@link HumanoidError} `BAD_OPTION`
 * for a bad rate, `CONVERT` for an empty clip.
 * @param clip the clip
 * @param options key rate
 */
export function VrmAnimationFromMuscleClip(clip: MuscleClip, options: IVrmAnimationOptions = {}): IVrmAnimationData {
    const rate = options.frameRate ?? clip.frameRate;
    if (!(Number.isFinite(rate) && rate > 0 && rate <= MAX_FRAME_RATE)) {
        throw new HumanoidError("BAD_OPTION", `${clip.name}: the VRM Animation's frame rate must be above 0 and at most ${MAX_FRAME_RATE} (got ${rate})`);
    }
    if (clip.frameCount < 1) throw new HumanoidError("CONVERT", `${clip.name}: the clip has no frames`);
    const { rig, bones, avatar } = options.skeleton ?? GetVrmAnimationSkeleton();
    const lastFrame = clip.frameCount - 1;
    const duration = lastFrame / clip.frameRate;
    const frames = Math.max(1, Math.floor(duration * rate + 1e-6) + 1);
    if (frames > MAX_CLIP_FRAMES) {
        throw new HumanoidError("CONVERT", `${clip.name}: ${frames} keys at ${rate}/s is more than the ${MAX_CLIP_FRAMES} a clip may have`);
    }
    const n = bones.length;
    const layouts = sourceLayouts(clip.proportionValues);
    const sampler = new MuscleClipSampler(clip);
    const pose = new HumanPose();
    const rigPose = CreateReferenceRigPose(avatar);
    const times = new Float32Array(frames);
    const rotations = bones.map(() => new Float32Array(frames * 4));
    const hipsTranslations = new Float32Array(frames * 3);
    for (let f = 0; f < frames; f++) {
        const t = Math.min(f / rate, duration);
        times[f] = t;
        sampler.sampleFrameToRef(t * clip.frameRate, pose);
        decodeAsAnimator(avatar, pose, rigPose, layouts);
        for (let i = 0; i < n; i++) {
            const q = rigPose.rotations[i];
            const r = rotations[i];
            const o = 4 * f;
            // Mirror in X (rig space -> glTF): the rotation axis (x, y, z) becomes (x, -y, -z).
            let x = q.x;
            let y = -q.y;
            let z = -q.z;
            let w = q.w;
            const len = Math.hypot(x, y, z, w) || 1;
            const s = f > 0 && x * r[o - 4] + y * r[o - 3] + z * r[o - 2] + w * r[o - 1] < 0 ? -1 / len : 1 / len;
            x *= s;
            y *= s;
            z *= s;
            w *= s;
            r[o] = x;
            r[o + 1] = y;
            r[o + 2] = z;
            r[o + 3] = w;
        }
        const hp = rigPose.positions[0];
        hipsTranslations[3 * f] = -hp.x;
        hipsTranslations[3 * f + 1] = hp.y;
        hipsTranslations[3 * f + 2] = hp.z;
    }
    const restTranslations = new Float32Array(n * 3);
    rig.joints.forEach((j, i) => {
        restTranslations[3 * i] = -j.restPosition.x;
        restTranslations[3 * i + 1] = j.restPosition.y;
        restTranslations[3 * i + 2] = j.restPosition.z;
    });
    return { name: clip.name, bones, parents: rig.joints.map((j) => j.parent), restTranslations, times, rotations, hipsTranslations };
}

/** One pose of the VRM Animation skeleton, in glTF's axes: what a reader of the file should show. */
export interface IVrmAnimationWorldPose {
    /** Every bone's world rotation, which is its rotation from the T-pose (three-vrm's normalized bones have the same). */
    readonly rotations: ReadonlyMap<HumanBone, Quaternion>;
    /** The hips' world position (metres, on the skeleton's proportions). */
    readonly hipsPosition: Vector3;
}

/**
 * Decodes a pose onto the VRM Animation skeleton and returns its world rotations and the hips'
 * position, in glTF's axes: the reference a VRM Animation reader should reproduce, given the
 * proportions of the clip the pose is from (without them, the muscles' own trunk and shoulders,
 * which {@link VrmAnimationFromMuscleClip} does not write for a clip that has them). Cold path;
 * allocates.
 * @param pose the pose to decode
 * @param skeleton the skeleton to decode it on (default {@link GetVrmAnimationSkeleton})
 * @param proportions the source proportions of the clip the pose is from (`MuscleClip.proportions`),
 * whose trunk and shoulder layouts {@link VrmAnimationFromMuscleClip} decodes with; default none
 * (the muscles' own trunk and shoulders)
 */
export function VrmAnimationWorldPose(
    pose: HumanPose,
    skeleton: IVrmAnimationSkeleton = GetVrmAnimationSkeleton(),
    proportions: IClipProportions | null = null,
): IVrmAnimationWorldPose {
    const { rig, bones, avatar } = skeleton;
    const layouts = sourceLayouts(ClipProportionsToArray(proportions, new Float64Array(CLIP_PROPORTION_COUNT)));
    const world = ComputeRigWorldPose(rig, decodeAsAnimator(avatar, pose, CreateReferenceRigPose(avatar), layouts));
    const rotations = new Map(
        bones.map((b, i) => [b, new Quaternion(world.rotations[i].x, -world.rotations[i].y, -world.rotations[i].z, world.rotations[i].w)]),
    );
    const h = world.positions[0];
    return { rotations, hipsPosition: new Vector3(-h.x, h.y, h.z) };
}

/** A clip's proportions as the export decodes with them: its trunk and shoulder layouts (NaN where it has none, which decode skips) and whether it has leg proportions. */
interface ISourceLayouts extends IClipLayoutViews {
    readonly legs: boolean;
}

/** See {@link ISourceLayouts}; `all` the proportions' array form (`ClipProportionsToArray`, a clip's `proportionValues`). */
function sourceLayouts(all: Float64Array): ISourceLayouts {
    return { ...ClipLayoutViews(all), legs: HasLegProportions(all) };
}

/**
 * Decodes `pose` into `result` as the rig solver's `decode` does with `"legs"` proportions (its
 * rotations; no joint limits), but for the pelvis's roll, kept as the source's: the solver scales
 * it by the hip widths of the clip's source and the character it plays on, and the character that
 * will play this VRM Animation is not known here.
 */
function decodeAsAnimator(avatar: HumanoidAvatar, pose: HumanPose, result: IRigPose, layouts: ISourceLayouts): IRigPose {
    DecodeHumanPose(avatar, pose, result, null, layouts.trunk, layouts.shoulders);
    if (layouts.legs) TurnHipsAsSourceInPlace(MuscleSetup.For(avatar), pose, result);
    return result;
}
