import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import { MuscleClipSampler } from "../../src/clip/clipSampler.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { HumanPose } from "../../src/muscle/humanPose.js";
import { ConvertFileToMuscleClipsAsync } from "../../src/node/convertFile.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { HumanoidAnimator } from "../../src/plugin/humanoidAnimator.js";
import { dataFile, describeWithData } from "../helpers/data.js";

// A pose set directly (`applyPose`) decodes with the source proportions it is given (default none),
// not with those of whatever clip the animator played last: after the child's jump, the VRM
// sample's knee was 13 degrees from a fresh animator's for the same pose.
describeWithData("applyPose after a clip", () => {
    test("the same pose gives the same character on a fresh animator and on one that played a clip", async () => {
        const target = (await LoadHumanoidAvatarFromFileAsync(dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"))).avatar;
        const [{ clip }] = await ConvertFileToMuscleClipsAsync(dataFile("bvh/animated_drawings/fair1_jumping_8yo.bvh"));
        const pose = new MuscleClipSampler(clip).sampleFrameToRef(300, new HumanPose());
        const make = (): { animator: HumanoidAnimator; nodes: readonly TransformNode[] } => {
            const { nodes } = CreateTransformNodesFromRig(target.rig, new Scene(new NullEngine()));
            return { animator: new HumanoidAnimator(target, nodes, { rootMotion: "clip" }), nodes };
        };
        const worstDegrees = (a: readonly TransformNode[], b: readonly TransformNode[]): number => {
            let worst = 0;
            a.forEach((n, j) => {
                const p = n.rotationQuaternion!;
                const q = b[j].rotationQuaternion!;
                const d = Math.min(1, Math.abs(p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w));
                worst = Math.max(worst, (2 * Math.acos(d) * 180) / Math.PI);
            });
            return worst;
        };
        const fresh = make();
        const played = make();
        played.animator.play(clip, { loop: false });
        for (let f = 0; f < 120; f++) played.animator.update(f === 0 ? 0 : 1 / clip.frameRate);

        fresh.animator.applyPose(pose);
        played.animator.applyPose(pose);
        // Before: 12.9 degrees at the left knee (the played clip's proportions kept).
        expect(worstDegrees(fresh.nodes, played.nodes)).toBeLessThan(1e-3);

        // With the clip's own proportions, as it plays: the same on both (within a hundredth of a
        // degree), and not the pose without them.
        const without = fresh.nodes.map((n) => n.rotationQuaternion!.clone());
        fresh.animator.applyPose(pose, clip.proportions);
        played.animator.applyPose(pose, clip.proportions);
        expect(worstDegrees(fresh.nodes, played.nodes)).toBeLessThan(0.01);
        expect(
            Math.max(...fresh.nodes.map((n, j) => (2 * Math.acos(Math.min(1, Math.abs(n.rotationQuaternion!.dot(without[j])))) * 180) / Math.PI)),
        ).toBeGreaterThan(1);
    }, 60_000);
});
