/**
 * Surface-fit benchmark: the X Bot's walk fitted onto the merged-bone X Bot (Spine2 and the
 * fingers merged into their parents) on one thread, best of 3, beside the cost of only playing
 * the source surface (the clip through CPU skinning, every frame the fit reads), measured in the
 * same run.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { CreateSurfaceFitMeshes, CreateSurfaceFitSource, FindSkinnedMeshes, FitSurfaceToRig, MergeSurfaceFitBones } from "../src/index.js";
import { LoadRigFromFileAsync } from "../src/node/index.js";
import { XBOT_MERGED_BONES } from "../test/helpers/mergedXBot.js";

export interface ISurfaceFitBenchResult {
    /** Seconds of one fit of the walk onto the merged rig (matching, solving, measuring; best of 3). Target: at most 2. */
    surfaceFitSeconds: number;
    /** The same fit with rotations only (best of 3). */
    surfaceFitRotationOnlySeconds: number;
    /** Seconds of only producing the source surface for every frame (best of 3): the floor under any fit. */
    surfaceFitPlaybackSeconds: number;
    /** Fit time over playback time. */
    surfaceFitTimeRatioVsPlayback: number;
    /** Frames and fitted vertices. */
    surfaceFitFrames: number;
    surfaceFitVertices: number;
    /** Transfer quality of the timed fit (0-1) and its mean error (fraction of the diagonal). */
    surfaceFitTransferQuality: number;
    surfaceFitMeanError: number;
}

export async function RunSurfaceFitBenchAsync(): Promise<ISurfaceFitBenchResult | null> {
    const file = resolve("../shared/data/glb/mixamo_xbot.glb");
    if (!existsSync(file)) return null;
    const loaded = await LoadRigFromFileAsync(file);
    try {
        const fit = CreateSurfaceFitMeshes(FindSkinnedMeshes(loaded.container!.meshes), file);
        const source = CreateSurfaceFitSource(
            fit,
            loaded.container!.animationGroups.find((g) => /walk/.test(g.name))!,
            30,
        );
        const merged = MergeSurfaceFitBones(fit.rig, (_, name) => XBOT_MERGED_BONES.test(name)).rig;
        const out = new Float64Array(3 * source.vertexCount);
        let playback = Infinity;
        let best = Infinity;
        let bestRot = Infinity;
        let last = FitSurfaceToRig(source, merged);
        for (let k = 0; k < 3; k++) {
            const t0 = performance.now();
            for (let f = 0; f < source.frameCount; f++) source.frameToRef(f, out);
            playback = Math.min(playback, (performance.now() - t0) / 1000);
            last = FitSurfaceToRig(source, merged);
            best = Math.min(best, last.seconds);
            bestRot = Math.min(bestRot, FitSurfaceToRig(source, merged, { rotationOnly: true }).seconds);
        }
        return {
            surfaceFitSeconds: best,
            surfaceFitRotationOnlySeconds: bestRot,
            surfaceFitPlaybackSeconds: playback,
            surfaceFitTimeRatioVsPlayback: best / playback,
            surfaceFitFrames: last.frames,
            surfaceFitVertices: last.fittedVertices,
            surfaceFitTransferQuality: last.transferQuality,
            surfaceFitMeanError: last.meanError,
        };
    } finally {
        loaded.dispose();
    }
}
