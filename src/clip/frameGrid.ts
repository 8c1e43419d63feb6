/**
 * Frames on a fixed-rate grid over a clip, as the muscle-clip conversion counts them: one per
 * whole step from 0, plus the last step when it is nearly whole (within a hundredth of a frame or
 * 0.01% of the length: BVH frame times are written rounded, 0.0083333 for 1/120, which drifts by a
 * third of a frame over 2751 frames). The converter, the held end poses, the nodes' animation
 * groups and the quality report all count by it.
 * @param durationSeconds the clip's length
 * @param frameRate frames per second
 */
export function RigPoseFrameCount(durationSeconds: number, frameRate: number): number {
    const frames = durationSeconds * frameRate;
    return Math.floor(frames + Math.max(0.01, 1e-4 * frames)) + 1;
}
