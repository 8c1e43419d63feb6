import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import {
    BuildHumanoidAvatar,
    CombineFootSkates,
    ComputeLegLength,
    ConvertBvhToMuscleClip,
    CreateRigFromBvh,
    FootContact,
    HumanBone,
    HumanoidAnimator,
    MeasureFootSkate,
    ParseBvh,
    type HumanoidAvatar,
    type IFootSkate,
    type MuscleClip,
} from "../../src/index.js";
import { LoadHumanoidAvatarFromFileAsync, RetargetWithAnimatorAvatarAsync, type ILoadedAvatar } from "../../src/node/index.js";
import { dataFile, describeWithData, listDataFiles } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** The public characters of ../shared/data. */
const TARGETS = ["glb/mixamo_xbot.glb", "glb/kaykit_mannequin/manny_med_mod.gltf", "glb/khronos_RiggedFigure.glb", "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"];

const clips = new Map<string, MuscleClip>();
/** A BVH file converted on its own skeleton (cached). */
function bvhClip(file: string): MuscleClip {
    let clip = clips.get(file);
    if (!clip) {
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file));
        clip = ConvertBvhToMuscleClip(bvh, BuildHumanoidAvatar(bvh.rig));
        clips.set(file, clip);
    }
    return clip;
}

/** Top-down world matrices of the nodes. */
function refresh(nodes: readonly TransformNode[]): void {
    for (const n of nodes) n.computeWorldMatrix(true);
}

const LIMBS: ReadonlyArray<readonly [HumanBone, HumanBone, HumanBone]> = [
    [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, HumanBone.LeftFoot],
    [HumanBone.RightUpperLeg, HumanBone.RightLowerLeg, HumanBone.RightFoot],
    [HumanBone.LeftUpperArm, HumanBone.LeftLowerArm, HumanBone.LeftHand],
    [HumanBone.RightUpperArm, HumanBone.RightLowerArm, HumanBone.RightHand],
];

/** Rest length of a limb (upper + lower bone) from the avatar's T-pose. */
function restLength(avatar: HumanoidAvatar, limb: readonly [HumanBone, HumanBone, HumanBone]): number {
    const p = avatar.referenceWorld.positions;
    const [a, b, c] = limb.map((bone) => p[avatar.getJoint(bone)]);
    return a.subtract(b).length() + b.subtract(c).length();
}

describeWithData("runtime on the real characters", () => {
    const bvhs = listDataFiles(/\.bvh$/i);
    const loaded = new Map<string, ILoadedAvatar>();
    beforeAll(async () => {
        for (const t of TARGETS) loaded.set(t, await LoadHumanoidAvatarFromFileAsync(dataFile(t)));
    });
    afterAll(() => {
        for (const l of loaded.values()) l.loaded.dispose();
    });

    test.each(TARGETS)("every BVH clip onto %s: no NaN, feet on reachable goals within 1%% of the leg, no limb over 105%%", (target) => {
        const { avatar, loaded: file } = loaded.get(target)!;
        const nodes = file.binding!.nodes;
        const rest = LIMBS.map((l) => restLength(avatar, l));
        const leg = ComputeLegLength(avatar);
        const joints = LIMBS.map((l) => l.map((b) => nodes[avatar.getJoint(b)]));
        const report: string[] = [];
        for (const source of bvhs) {
            const clip = bvhClip(source);
            const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip", handIK: true });
            animator.play(clip, { loop: false });
            let worstGoal = 0;
            let worstLimb = 0;
            let unreachable = 0;
            for (let f = 0; f < clip.frameCount; f++) {
                animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                for (const n of nodes) {
                    const q = n.rotationQuaternion;
                    if (!Number.isFinite((q ? q.x + q.y + q.z + q.w : 0) + n.position.x + n.position.y + n.position.z))
                        throw new Error(`${source} -> ${target}: NaN at frame ${f} on ${n.name}`);
                }
                if (f % 4 !== 0) continue;
                refresh(nodes);
                for (let g = 0; g < 4; g++) {
                    const [a, b, c] = joints[g].map((n) => n.getAbsolutePosition());
                    worstLimb = Math.max(worstLimb, (a.subtract(b).length() + b.subtract(c).length()) / rest[g]);
                    if (g >= 2) continue;
                    if (animator.solver.status[g].unreachable) {
                        unreachable++;
                        continue;
                    }
                    worstGoal = Math.max(worstGoal, c.subtract(animator.solver.targets[g]).length() / leg);
                }
            }
            animator.dispose();
            report.push(`${basename(source)}: goal ${(100 * worstGoal).toFixed(3)}%, limb ${(100 * worstLimb).toFixed(2)}%, unreachable ${unreachable}`);
            expect(worstGoal).toBeLessThan(0.01);
            expect(worstLimb).toBeLessThanOrEqual(1.05 + 1e-5);
        }
        console.log(`${target}\n  ${report.join("\n  ")}`);
    });

    /** Our foot skating (ankle or toes, whichever stands) on the source's contact frames, in leg lengths per contact second. */
    function ourSkate(clip: MuscleClip, target: string): IFootSkate {
        const { avatar, loaded: file } = loaded.get(target)!;
        const nodes = file.binding!.nodes;
        const feet = [
            [HumanBone.LeftFoot, HumanBone.LeftToes],
            [HumanBone.RightFoot, HumanBone.RightToes],
        ].map((bones) => bones.filter((b) => avatar.getJoint(b) >= 0).map((b) => nodes[avatar.getJoint(b)]));
        const tracks = feet.map((points) => points.map(() => new Float32Array(3 * clip.frameCount)));
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
        animator.play(clip, { loop: false });
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            refresh(nodes);
            feet.forEach((points, s) => points.forEach((n, p) => n.getAbsolutePosition().toArray(tracks[s][p], 3 * f)));
        }
        animator.dispose();
        const leg = ComputeLegLength(avatar);
        return CombineFootSkates(
            [FootContact.Left, FootContact.Right].map((bit, s) =>
                MeasureFootSkate(
                    tracks[s],
                    Array.from(clip.contacts, (c) => c & bit),
                    clip.frameRate,
                    leg,
                    avatar.frame.up,
                ),
            ),
        );
    }

    const WALKS = ["bvh/cmu_cgspeed/cmu_walk.bvh", "bvh/bandai/dataset-1_walk_normal_001.bvh", "bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh"];
    test("foot skating is at most a fifth of AnimatorAvatar's on the walking pairs", async () => {
        const rows: string[] = [];
        let better = 0;
        let pairs = 0;
        for (const source of WALKS) {
            const clip = bvhClip(source);
            for (const target of TARGETS) {
                const ours = ourSkate(clip, target);
                // From where the clip starts in its source (a T-pose frame 0 left out), as the report does.
                const base = await RetargetWithAnimatorAvatarAsync(dataFile(source), dataFile(target), { startSeconds: clip.sourceStartSeconds });
                let theirs: IFootSkate;
                try {
                    expect(base.frameCount).toBe(clip.frameCount);
                    const avatar = base.targetAvatar;
                    const leg = ComputeLegLength(avatar);
                    theirs = CombineFootSkates(
                        (
                            [
                                [HumanBone.LeftFoot, HumanBone.LeftToes, FootContact.Left],
                                [HumanBone.RightFoot, HumanBone.RightToes, FootContact.Right],
                            ] as const
                        ).map(([foot, toes, bit]) => {
                            const points = [foot, toes]
                                .map((b) => avatar.getJoint(b))
                                .filter((j) => j >= 0)
                                .map((j) => {
                                    const t = new Float32Array(3 * base.frameCount);
                                    base.jointWorldPositions.forEach((frame, f) => t.set(frame.subarray(3 * j, 3 * j + 3), 3 * f));
                                    return t;
                                });
                            return MeasureFootSkate(
                                points,
                                Array.from(clip.contacts, (c) => c & bit),
                                clip.frameRate,
                                leg,
                                avatar.frame.up,
                            );
                        }),
                    );
                } finally {
                    base.dispose();
                }
                pairs++;
                if (ours.drift <= theirs.drift / 5) better++;
                rows.push(
                    `${basename(source)} -> ${basename(target)}: ours ${ours.drift.toFixed(4)}, AnimatorAvatar ${theirs.drift.toFixed(4)} (leg lengths per contact second)`,
                );
            }
        }
        console.log(rows.join("\n"));
        expect(pairs).toBe(12);
        expect(better).toBeGreaterThanOrEqual(6);
    }, 120_000);
});
