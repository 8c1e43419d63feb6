import { basename } from "node:path";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ConvertRigPosesToMuscleClip, type IRigPoseSource } from "../clip/convert.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import { ComputeRigWorldPose, GetRigRestPose } from "../humanoid/rig.js";
import { AnimationGroupPoseSource } from "../io/animationGroupClip.js";
import { BvhPoseSource } from "../io/bvhClip.js";
import { CreateTransformNodesFromRig, RigPoseFrameCount } from "../io/rigNodes.js";
import { HumanoidAnimator } from "../plugin/humanoidAnimator.js";
import { MeasureRetargetQuality, type IMotionRecording, type IRetargetQuality } from "../quality/metrics.js";
import { RetargetWithAnimatorAvatarAsync } from "./animatorAvatarBaseline.js";
import { LoadHumanoidAvatarFromFileAsync } from "./loadAvatar.js";
import { LoadRigFromFileAsync } from "./loadFile.js";

/** One source clip onto one target character, measured for our runtime and for Babylon's AnimatorAvatar. */
export interface IQualityPair {
    /** The source file, as given. */
    readonly source: string;
    /** The clip's name. */
    readonly clip: string;
    /** The target file, as given. */
    readonly target: string;
    /** Frames compared. */
    readonly frames: number;
    /** Our retarget (default animator settings, `rootMotion: "clip"`). */
    readonly ours: IRetargetQuality;
    /** Babylon's `AnimatorAvatar.retargetAnimationGroup`, or null when it could not run (see `warnings`). */
    readonly animatorAvatar: IRetargetQuality | null;
    /** What went wrong or was worked around. */
    readonly warnings: readonly string[];
}

/** Options of {@link MeasureQualityPairAsync}. */
export interface IQualityPairOptions {
    /** The clip of a glTF/VRM source, by name. Default: its first. */
    clip?: string;
    /** Skip Babylon's AnimatorAvatar (faster). Default false. */
    skipAnimatorAvatar?: boolean;
}

/** The source's poses and its avatar. */
async function loadSourceAsync(
    file: string,
    clipName: string | undefined,
): Promise<{ avatar: HumanoidAvatar; poses: IRigPoseSource; clip: string; dispose: () => void }> {
    const loaded = await LoadRigFromFileAsync(file);
    try {
        const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
        if (loaded.bvh) return { avatar, poses: new BvhPoseSource(loaded.bvh), clip: basename(file).replace(/\.bvh$/i, ""), dispose: loaded.dispose };
        const groups = loaded.container?.animationGroups ?? [];
        const group = clipName === undefined ? groups[0] : groups.find((g) => g.name === clipName);
        if (!group) {
            throw new HumanoidError(
                "BAD_OPTION",
                groups.length
                    ? `${file}: no clip named '${clipName}' (the file has ${groups.map((g) => `'${g.name}'`).join(", ")})`
                    : `${file}: the file has no animations`,
            );
        }
        return { avatar, poses: new AnimationGroupPoseSource(group, avatar, file), clip: group.name, dispose: loaded.dispose };
    } catch (e) {
        loaded.dispose();
        throw e;
    }
}

/** The source's own motion on the clip's grid: every joint's world position per frame. */
function recordSource(avatar: HumanoidAvatar, poses: IRigPoseSource, frameRate: number, frames: number): IMotionRecording {
    const pose = GetRigRestPose(avatar.rig);
    const positions: Float32Array[] = [];
    for (let f = 0; f < frames; f++) {
        poses.samplePoseToRef(Math.min(f / frameRate, poses.durationSeconds), pose);
        const w = ComputeRigWorldPose(avatar.rig, pose);
        const out = new Float32Array(3 * w.positions.length);
        w.positions.forEach((p, j) => p.toArray(out, 3 * j));
        positions.push(out);
    }
    return { avatar, frameRate, positions };
}

/** Our runtime's retarget of a clip onto a character's nodes, recorded on the clip's grid. */
export function RecordHumanoidRetarget(clip: MuscleClip, avatar: HumanoidAvatar, nodes: readonly TransformNode[]): IMotionRecording {
    const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
    animator.play(clip, { loop: false });
    const positions: Float32Array[] = [];
    for (let f = 0; f < clip.frameCount; f++) {
        animator.update(f === 0 ? 0 : 1 / clip.frameRate);
        const out = new Float32Array(3 * nodes.length);
        nodes.forEach((n, j) => {
            n.computeWorldMatrix(true);
            n.getAbsolutePosition().toArray(out, 3 * j);
        });
        positions.push(out);
    }
    animator.dispose();
    return { avatar, frameRate: clip.frameRate, positions };
}

/**
 * Retargets one source clip (BVH, or a glTF/GLB/VRM/VRMA animation) onto one character (any file
 * with a skeleton, a BVH included: a clip onto its own rig is the self round trip) with our runtime
 * and with Babylon's AnimatorAvatar, and measures both (see `MeasureRetargetQuality`).
 */
export async function MeasureQualityPairAsync(sourceFile: string, targetFile: string, options: IQualityPairOptions = {}): Promise<IQualityPair> {
    const warnings: string[] = [];
    const source = await loadSourceAsync(sourceFile, options.clip);
    try {
        const clip = ConvertRigPosesToMuscleClip(source.avatar, source.poses);
        const frames = RigPoseFrameCount(source.poses.durationSeconds, source.poses.frameRate);
        const sourceMotion = recordSource(source.avatar, source.poses, clip.frameRate, Math.min(frames, clip.frameCount));
        const target = await LoadHumanoidAvatarFromFileAsync(targetFile);
        let oursMotion: IMotionRecording;
        try {
            let nodes = target.loaded.binding?.nodes;
            let scene: Scene | null = null;
            if (!nodes) {
                scene = new Scene(new NullEngine());
                nodes = CreateTransformNodesFromRig(target.avatar.rig, scene).nodes;
            }
            oursMotion = RecordHumanoidRetarget(clip, target.avatar, nodes);
            if (scene) {
                scene.getEngine().dispose();
            }
        } finally {
            target.loaded.dispose();
        }
        const ours = MeasureRetargetQuality(sourceMotion, oursMotion, clip);
        let theirs: IRetargetQuality | null = null;
        if (!options.skipAnimatorAvatar) {
            try {
                const base = await RetargetWithAnimatorAvatarAsync(sourceFile, targetFile, { clip: options.clip, frameRate: clip.frameRate });
                try {
                    warnings.push(...base.warnings.map((w) => `AnimatorAvatar: ${w}`));
                    theirs = MeasureRetargetQuality(
                        sourceMotion,
                        { avatar: target.avatar, frameRate: base.frameRate, positions: base.jointWorldPositions },
                        clip,
                    );
                } finally {
                    base.dispose();
                }
            } catch (e) {
                warnings.push(`AnimatorAvatar could not retarget: ${(e as Error).message}`);
            }
        }
        return { source: sourceFile, clip: source.clip, target: targetFile, frames: ours.frames, ours, animatorAvatar: theirs, warnings };
    } finally {
        source.dispose();
    }
}
