import type { IRigPose, IRigPoseSource } from "../../src/index.js";

/**
 * A pose source that plays `base` and then changes each pose it gives (`change`, called with the
 * time and the pose `base` wrote): for takes broken on purpose (collarbones turned half a turn).
 * @param base the source whose poses are changed
 * @param name the new source's clip name
 * @param change changes the pose in place (seconds from the start, the pose)
 */
export function ChangedPoseSource(base: IRigPoseSource, name: string, change: (timeSeconds: number, pose: IRigPose) => void): IRigPoseSource {
    return {
        name,
        source: "test",
        warnings: [],
        frameRate: base.frameRate,
        durationSeconds: base.durationSeconds,
        samplePoseToRef(t: number, pose: IRigPose): void {
            base.samplePoseToRef(t, pose);
            change(t, pose);
        },
    };
}
