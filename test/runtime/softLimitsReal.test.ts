import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanBone, HumanoidAnimator, type HumanoidAvatar, type MuscleClip } from "../../src/index.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { JointPathJerk } from "../helpers/jointJerk.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/**
 * Plays a clip frame by frame and records every joint's world position (as the report does),
 * with the given joint limits; `hard` takes the soft limit away from the animator's limiter (its
 * trunk then stops on its limits in one frame, as before the soft limit).
 */
function record(clip: MuscleClip, avatar: HumanoidAvatar, nodes: readonly TransformNode[], jointLimits: "all" | "none", hard = false): Float32Array[] {
    const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip", jointLimits });
    if (hard) (animator.solver.jointLimits as unknown as { softLimitCanonicalToRef?: unknown }).softLimitCanonicalToRef = undefined;
    animator.play(clip, { loop: false });
    const path: Float32Array[] = [];
    for (let f = 0; f < clip.frameCount; f++) {
        animator.update(f === 0 ? 0 : 1 / clip.frameRate);
        const out = new Float32Array(3 * nodes.length);
        nodes.forEach((n, j) => {
            n.computeWorldMatrix(true);
            n.getAbsolutePosition().toArray(out, 3 * j);
        });
        path.push(out);
    }
    animator.dispose();
    return path;
}

describeWithData("joint limits on real mocap: the trunk eases into its limits", () => {
    it("the child's jump onto RiggedFigure with every limit: its spine bends past its range on landing, and the head jerks about as without limits (3.3 times as much when the spine stopped on its limit)", async () => {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile("bvh/animated_drawings/fair1_jumping_8yo.bvh")))[0].clip;
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/khronos_RiggedFigure.glb"));
        try {
            const nodes = target.loaded.binding!.nodes;
            const head = target.avatar.getJoint(HumanBone.Head);
            const free = JointPathJerk(record(clip, target.avatar, nodes, "none"), head);
            const soft = JointPathJerk(record(clip, target.avatar, nodes, "all"), head);
            const hard = JointPathJerk(record(clip, target.avatar, nodes, "all", true), head);
            // Measured: soft 1.38x free, hard 3.30x.
            expect(hard).toBeGreaterThan(2 * free);
            expect(soft).toBeLessThan(1.5 * free);
        } finally {
            target.loaded.dispose();
        }
    });
});
