import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { ConvertRigPosesToMuscleClip } from "../clip/convert.js";
import type { IRigPoseSource } from "../clip/convertOptions.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import { ComputeRigWorldPose, GetRigRestPose } from "../humanoid/rig.js";
import type { TPoseMode } from "../humanoid/tpose.js";
import { AnimationGroupPoseSource } from "../io/animationGroupClip.js";
import { BvhPoseSource } from "../io/bvhClip.js";
import { CreateTransformNodesFromRig, RigPoseFrameCount } from "../io/rigNodes.js";
import { HumanoidAnimator } from "../plugin/humanoidAnimator.js";
import type { IHumanoidAnimatorOptions } from "../plugin/animatorOptions.js";
import { RenderFilmstripSvg } from "../quality/filmstrip.js";
import { FootFrontOffsets, FootFrontsFromWorldPoseToRef } from "../quality/footFronts.js";
import { MeasureRetargetQuality, type IMotionRecording, type IRetargetQuality } from "../quality/metrics.js";
import { QualityReportJson, RenderQualityReportHtml, type IQualityReportPair } from "../quality/reportHtml.js";
import { GradeQualityPair } from "../quality/grade.js";
import { MuscleSetup } from "../muscle/setup.js";
import { RetargetWithAnimatorAvatarAsync } from "./animatorAvatarBaseline.js";
import { FootFrontNodes } from "./footFrontNodes.js";
import { PickClipByName, WriteFilesAtomicallyAsync } from "./convertFile.js";
import { LoadHumanoidAvatarFromFileAsync } from "./loadAvatar.js";
import { LoadRigFromFileAsync } from "./loadFile.js";

/** One source clip onto one target character, measured for our runtime and for Babylon's AnimatorAvatar (the report's pair). */
export type IQualityPair = IQualityReportPair;

/** Options of {@link MeasureQualityPairAsync}. */
export interface IQualityPairOptions {
    /** The clip of a glTF/VRM source, by name. Default: its first. */
    clip?: string;
    /** Skip Babylon's AnimatorAvatar (faster). Default false. */
    skipAnimatorAvatar?: boolean;
    /**
     * Runtime settings of our animator for the pair (foot IK, planting, stretch...): the animator's
     * defaults where not given. `rootMotion` is always `"clip"` (the travel stays in the pose, as the
     * source's does).
     */
    animator?: QualityAnimatorOptions;
    /** Reduction tolerance of the source's conversion to a muscle clip, degrees. Default the converter's (0.1). */
    toleranceDeg?: number;
    /** How far the source's joints may move when denoised before its conversion, degrees (`IMuscleClipConvertOptions.denoiseToleranceDeg`). Default the tolerance; 0 off. */
    denoiseToleranceDeg?: number;
    /**
     * Animator updates per frame of the clip, of equal steps, the motion recorded at the clip's
     * frames: a display faster than the clip (2 for a 30 fps clip shown at 60 Hz). A whole number
     * from 1 to {@link MAX_UPDATES_PER_FRAME}. Default 1 (one update a frame).
     */
    updatesPerFrame?: number;
    /**
     * How both characters' reference T-poses are made (the source's and the target's avatar; see
     * {@link TPoseMode}): `"rest"` to measure characters whose rest pose is to be trusted as it is.
     * Babylon's AnimatorAvatar works from the rest poses whatever this says. Default `"auto"`.
     */
    tPose?: TPoseMode;
}

/** The most animator updates per clip frame a quality run takes ({@link IQualityPairOptions.updatesPerFrame}). */
export const MAX_UPDATES_PER_FRAME = 16;

/** Checks {@link IQualityPairOptions.updatesPerFrame} and returns it (1 when not given); throws a `BAD_OPTION` error naming the option. */
export function CheckUpdatesPerFrame(value: number | undefined): number {
    if (value === undefined) return 1;
    if (!(Number.isInteger(value) && value >= 1 && value <= MAX_UPDATES_PER_FRAME)) {
        throw new HumanoidError("BAD_OPTION", `--updates-per-frame must be a whole number from 1 to ${MAX_UPDATES_PER_FRAME} (got ${value})`);
    }
    return value;
}

/** The animator settings a quality run may change (see {@link IHumanoidAnimatorOptions}). */
export type QualityAnimatorOptions = Pick<
    IHumanoidAnimatorOptions,
    "footIK" | "handIK" | "stretch" | "footPlanting" | "contactBlendSeconds" | "proportions" | "translationDoF" | "jointLimits"
>;

/** The source's poses and its avatar. */
async function loadSourceAsync(
    file: string,
    clipName: string | undefined,
    tPose: TPoseMode | undefined,
): Promise<{ avatar: HumanoidAvatar; poses: IRigPoseSource; clip: string; dispose: () => void }> {
    const loaded = await LoadRigFromFileAsync(file);
    try {
        const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap, tPose });
        if (loaded.bvh) return { avatar, poses: new BvhPoseSource(loaded.bvh), clip: basename(file).replace(/\.bvh$/i, ""), dispose: loaded.dispose };
        const groups = loaded.container?.animationGroups ?? [];
        if (!groups.length) throw new HumanoidError("BAD_OPTION", `${file}: the file has no animations`);
        const group = clipName === undefined ? groups[0] : PickClipByName(groups, clipName, file);
        return { avatar, poses: new AnimationGroupPoseSource(group, avatar, file), clip: group.name, dispose: loaded.dispose };
    } catch (e) {
        loaded.dispose();
        throw e;
    }
}

/**
 * The source's own motion on the clip's grid: every joint's world position per frame, frame f at
 * `start + f / frameRate` seconds of the source (the clip's first frame is there, see
 * `MuscleClip.sourceStartSeconds`).
 */
function recordSource(avatar: HumanoidAvatar, poses: IRigPoseSource, frameRate: number, frames: number, start: number): IMotionRecording {
    const pose = GetRigRestPose(avatar.rig);
    const positions: Float32Array[] = [];
    const figureScale = poses.figureScaleAt ? new Float32Array(frames) : undefined;
    // The fronts of feet that end at their ankles (a source whose feet have no toes), carried by its feet.
    const offsets = FootFrontOffsets(avatar);
    const footFronts: Float32Array[] | undefined = offsets[0] || offsets[1] ? [] : undefined;
    for (let f = 0; f < frames; f++) {
        const t = Math.min(start + f / frameRate, poses.durationSeconds);
        poses.samplePoseToRef(t, pose);
        const w = ComputeRigWorldPose(avatar.rig, pose);
        const out = new Float32Array(3 * w.positions.length);
        w.positions.forEach((p, j) => p.toArray(out, 3 * j));
        positions.push(out);
        footFronts?.push(FootFrontsFromWorldPoseToRef(avatar, offsets, w, new Float32Array(6)));
        if (figureScale) figureScale[f] = poses.figureScaleAt!(t);
    }
    return { avatar, frameRate, positions, figureScale, footFronts };
}

/**
 * Our runtime's retarget of a clip onto a character's nodes, recorded on the clip's grid: every
 * joint's world position, and where the character's feet end at their ankles the fronts read from
 * their surface (`footFronts`, followed by child nodes under the feet for the recording's length).
 * @param options animator settings (default the animator's own); the root motion is always `"clip"`
 * @param updatesPerFrame animator updates per clip frame, of equal steps (see {@link IQualityPairOptions.updatesPerFrame}); default 1
 */
export function RecordHumanoidRetarget(
    clip: MuscleClip,
    avatar: HumanoidAvatar,
    nodes: readonly TransformNode[],
    options: QualityAnimatorOptions = {},
    updatesPerFrame = 1,
): IMotionRecording {
    const updates = CheckUpdatesPerFrame(updatesPerFrame);
    // The fronts of feet that end at their ankles, followed from the pose the nodes are given in.
    const fronts = new FootFrontNodes(avatar, nodes);
    try {
        const animator = new HumanoidAnimator(avatar, nodes, { ...options, rootMotion: "clip" });
        animator.play(clip, { loop: false });
        const positions: Float32Array[] = [];
        const footFronts: Float32Array[] = [];
        for (let f = 0; f < clip.frameCount; f++) {
            if (f === 0) animator.update(0);
            else for (let k = 0; k < updates; k++) animator.update(1 / clip.frameRate / updates);
            const out = new Float32Array(3 * nodes.length);
            nodes.forEach((n, j) => {
                n.computeWorldMatrix(true);
                n.getAbsolutePosition().toArray(out, 3 * j);
            });
            positions.push(out);
            if (fronts.any) footFronts.push(fronts.readInto(new Float32Array(6)));
        }
        animator.dispose();
        return { avatar, frameRate: clip.frameRate, positions, ...(fronts.any ? { footFronts } : {}) };
    } finally {
        fronts.dispose();
    }
}

/**
 * Retargets one source clip (BVH, or a glTF/GLB/VRM/VRMA animation) onto one character (any file
 * with a skeleton, a BVH included: a clip onto its own rig is the self round trip) with our runtime
 * and with Babylon's AnimatorAvatar, and measures both (see `MeasureRetargetQuality`).
 */
export async function MeasureQualityPairAsync(sourceFile: string, targetFile: string, options: IQualityPairOptions = {}): Promise<IQualityPair> {
    const warnings: string[] = [];
    const updatesPerFrame = CheckUpdatesPerFrame(options.updatesPerFrame);
    const source = await loadSourceAsync(sourceFile, options.clip, options.tPose);
    try {
        const clip = ConvertRigPosesToMuscleClip(source.avatar, source.poses, {
            toleranceDeg: options.toleranceDeg,
            denoiseToleranceDeg: options.denoiseToleranceDeg,
        });
        // The source from where the clip starts in it (a held pose it jumps from left out, see
        // `IMuscleClipConvertOptions.keepEndPoses`): ours, AnimatorAvatar's and the source's frames the same.
        const start = clip.sourceStartSeconds;
        const frames = RigPoseFrameCount(source.poses.durationSeconds - start, source.poses.frameRate);
        const sourceMotion = recordSource(source.avatar, source.poses, clip.frameRate, Math.min(frames, clip.frameCount), start);
        const target = await LoadHumanoidAvatarFromFileAsync(targetFile, { tPose: options.tPose });
        let oursMotion: IMotionRecording;
        try {
            let nodes = target.loaded.binding?.nodes;
            let scene: Scene | null = null;
            if (!nodes) {
                const saved = Logger.Log;
                Logger.Log = () => undefined; // the engine's banner
                scene = new Scene(new NullEngine());
                Logger.Log = saved;
                nodes = CreateTransformNodesFromRig(target.avatar.rig, scene).nodes;
            }
            oursMotion = RecordHumanoidRetarget(clip, target.avatar, nodes, options.animator, updatesPerFrame);
            if (scene) {
                scene.getEngine().dispose();
            }
        } finally {
            target.loaded.dispose();
        }
        const measure = { proportions: options.animator?.proportions ?? "legs" } as const;
        const ours = MeasureRetargetQuality(sourceMotion, oursMotion, clip, measure);
        let theirs: IRetargetQuality | null = null;
        let theirsMotion: IMotionRecording | null = null;
        if (!options.skipAnimatorAvatar) {
            try {
                const base = await RetargetWithAnimatorAvatarAsync(sourceFile, targetFile, {
                    // The feet's fronts as ours are measured (this target's T-pose's).
                    footFrontOffsets: FootFrontOffsets(target.avatar),
                    clip: options.clip,
                    frameRate: clip.frameRate,
                    startSeconds: start,
                    frameCount: clip.frameCount,
                });
                try {
                    warnings.push(...base.warnings.map((w) => `AnimatorAvatar: ${w}`));
                    theirsMotion = { avatar: target.avatar, frameRate: base.frameRate, positions: base.jointWorldPositions, footFronts: base.footFronts };
                    theirs = MeasureRetargetQuality(sourceMotion, theirsMotion, clip, measure);
                } finally {
                    base.dispose();
                }
            } catch (e) {
                warnings.push(`AnimatorAvatar could not retarget: ${(e as Error).message}`);
            }
        }
        // The source's floor, where its clip's feet stand (the clip's groundHeight), metres above its T-pose ground.
        const sourceFloorOffset = clip.groundHeight * MuscleSetup.For(source.avatar).scale;
        // The stick figures: the source's drawn on that floor.
        let filmstrip: string | undefined;
        try {
            filmstrip = RenderFilmstripSvg(sourceMotion, oursMotion, theirsMotion, { sourceFloorOffset });
        } catch (e) {
            warnings.push(`the stick figures could not be drawn: ${(e as Error).message}`);
        }
        // The source's own sliding and planted heights (from its clip's floor), and the proportions: what the thresholds depend on.
        const sourceSelf = MeasureRetargetQuality(sourceMotion, sourceMotion, clip, { ...measure, floorHeight: sourceFloorOffset });
        const sourceFootSkate = sourceSelf.footSkate;
        const sourceContactHeight = sourceSelf.contactHeightError;
        const ratio = (a: HumanoidAvatar): number => MuscleSetup.For(a).legLength / MuscleSetup.For(a).scale;
        const settings = {
            proportions: measure.proportions,
            planting: options.animator?.footPlanting ?? true,
            footIK: options.animator?.footIK !== false,
            updatesPerFrame,
            tPose: options.tPose ?? "auto",
        };
        const graded = {
            selfRoundTrip: sourceFile === targetFile,
            sourceLegRatio: ratio(source.avatar),
            targetLegRatio: ratio(target.avatar),
            sourceFootSkate,
            sourceContactHeight,
            planting: settings.planting && settings.footIK,
            ours,
            animatorAvatar: theirs,
        };
        return {
            source: sourceFile,
            clip: source.clip,
            target: targetFile,
            frames: ours.frames,
            ours,
            animatorAvatar: theirs,
            warnings,
            sourceFootSkate,
            sourceContactHeight,
            sourceLegRatio: graded.sourceLegRatio,
            targetLegRatio: graded.targetLegRatio,
            settings,
            misses: GradeQualityPair(graded),
            filmstrip,
        };
    } finally {
        source.dispose();
    }
}

/** Options of {@link BuildQualityReportAsync}. */
export interface IQualityReportOptions extends IQualityPairOptions {
    /** Called after each pair with how many are done and how many there are. */
    onProgress?: (done: number, total: number, pair: IQualityPair | null, error: Error | null) => void;
}

/** What {@link BuildQualityReportAsync} measured: the pairs, and the pairs that failed with why. */
export interface IQualityReport {
    /** Measured pairs, sources outer, targets inner. */
    readonly pairs: IQualityPair[];
    /** Pairs that could not be measured: source, target and the error message. */
    readonly failures: Array<{ source: string; target: string; message: string }>;
}

/**
 * Measures every source onto every target (see {@link MeasureQualityPairAsync}). A pair that
 * fails (a file that does not load, a skeleton that is not humanoid) is reported in `failures`; the
 * others go on.
 */
export async function BuildQualityReportAsync(
    sources: readonly string[],
    targets: readonly string[],
    options: IQualityReportOptions = {},
): Promise<IQualityReport> {
    const pairs: IQualityPair[] = [];
    const failures: Array<{ source: string; target: string; message: string }> = [];
    const total = sources.length * targets.length;
    for (const source of sources) {
        for (const target of targets) {
            try {
                const pair = await MeasureQualityPairAsync(source, target, options);
                pairs.push(pair);
                options.onProgress?.(pairs.length + failures.length, total, pair, null);
            } catch (e) {
                failures.push({ source, target, message: (e as Error).message });
                options.onProgress?.(pairs.length + failures.length, total, null, e as Error);
            }
        }
    }
    return { pairs, failures };
}

/** The uPlot library's script and style, read from its package (inlined into the report). */
export async function ReadUplotAsync(): Promise<{ js: string; css: string }> {
    const require = createRequire(import.meta.url);
    const js = await readFile(require.resolve("uplot/dist/uPlot.iife.min.js"), "utf8");
    const css = await readFile(require.resolve("uplot/dist/uPlot.min.css"), "utf8");
    return { js, css };
}

/**
 * Writes a report: the HTML page (see `RenderQualityReportHtml`) and, when asked, the JSON of the
 * summary figures. Both are written whole or not at all.
 */
export async function WriteQualityReportAsync(report: IQualityReport, html: string, json?: string): Promise<void> {
    const page = RenderQualityReportHtml(report.pairs, await ReadUplotAsync());
    const files = [{ path: html, bytes: new TextEncoder().encode(page) }];
    if (json) files.push({ path: json, bytes: new TextEncoder().encode(JSON.stringify(QualityReportJson(report.pairs), null, 2) + "\n") });
    await WriteFilesAtomicallyAsync(files);
}
