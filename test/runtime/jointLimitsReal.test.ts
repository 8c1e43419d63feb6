import { basename } from "node:path";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import {
    ComputeRigWorldPose,
    ELBOW_OVERSHOOT_DEG,
    HumanBone,
    HumanoidAnimator,
    KNEE_OVERSHOOT_DEG,
    MuscleSetup,
    type HumanoidAvatar,
    type MuscleClip,
} from "../../src/index.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync, type ILoadedAvatar } from "../../src/node/index.js";
import { dataFile, describeWithData, listDataFiles } from "../helpers/data.js";
import { REPORT_TARGETS } from "../../scripts/report-targets.mjs";

Logger.LogLevels = Logger.ErrorLogLevel;

/** The public characters of ../shared/data, and the BVH skeletons the report plays onto too. */
const TARGETS = REPORT_TARGETS;
/** Frames played per pair without limits at most, evenly over the clip (that run only shows the measure sees a backward bend). */
const FRAMES_PER_PAIR_WITHOUT = 120;
/** A hinge counts as bent backwards past this angle (degrees) beyond its give (`KNEE_OVERSHOOT_DEG`, `ELBOW_OVERSHOOT_DEG`). */
const BACKWARDS_TOLERANCE_DEG = 0.5;

/** Upper bone, hinge, end, and the canonical direction a hinge bends backwards toward (a knee's shin forward, an elbow's forearm back). */
const HINGES: ReadonlyArray<readonly [HumanBone, HumanBone, HumanBone, Vector3]> = [
    [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg, HumanBone.LeftFoot, new Vector3(0, 0, 1)],
    [HumanBone.RightUpperLeg, HumanBone.RightLowerLeg, HumanBone.RightFoot, new Vector3(0, 0, 1)],
    [HumanBone.LeftUpperArm, HumanBone.LeftLowerArm, HumanBone.LeftHand, new Vector3(0, 0, -1)],
    [HumanBone.RightUpperArm, HumanBone.RightLowerArm, HumanBone.RightHand, new Vector3(0, 0, -1)],
];

/**
 * How far each hinge of a rig pose is bent backwards, degrees (0 or less: straight or bent the
 * right way): the angle of the lower bone past the upper bone's line, toward the side the upper
 * bone's T-pose "backwards" direction (carried by its turn from the T-pose) points to.
 */
function backwardsDeg(avatar: HumanoidAvatar, rotations: readonly Quaternion[], positions: readonly Vector3[]): number[] {
    const setup = MuscleSetup.For(avatar);
    const w = ComputeRigWorldPose(avatar.rig, { label: "", rotations: [...rotations], positions: [...positions] });
    const w0 = avatar.referenceWorld.rotations;
    return HINGES.map(([ub, lb, eb, back]) => {
        const [a, b, c] = [ub, lb, eb].map((x) => w.positions[avatar.getJoint(x)]);
        const u = b.subtract(a).normalize();
        const v = c.subtract(b).normalize();
        const j = avatar.getJoint(ub);
        // The upper bone's turn from its T-pose carries the backwards direction (rig space).
        const turn = w.rotations[j].multiply(Quaternion.Inverse(w0[j]));
        const h = back.applyRotationQuaternion(setup.c0).applyRotationQuaternion(turn);
        const across = h.subtract(u.scale(Vector3.Dot(h, u)));
        if (across.length() < 1e-9) return 0;
        across.normalize();
        return (Math.atan2(Vector3.Dot(v, across), Vector3.Dot(v, u)) * 180) / Math.PI;
    });
}

describeWithData("joint limits on the real clips and characters: knees and elbows bend backwards no further than their give", () => {
    const motions = listDataFiles(/\.(bvh|glb|vrma)$/i);
    const clips: MuscleClip[] = [];
    const targets = new Map<string, ILoadedAvatar>();
    beforeAll(async () => {
        for (const m of motions) {
            // glTF clip files are read against the mannequin they were made for; every clip at its own rate.
            const avatar = m.startsWith("glb/kaykit_anims/") ? dataFile("glb/kaykit_mannequin/manny_med_mod.gltf") : undefined;
            try {
                for (const c of await ConvertFileToMuscleClipsAsync(dataFile(m), { avatar })) clips.push(c.clip);
            } catch (e) {
                // A file with no clip (a character alone) is no motion.
                if (!/no (animation|clip)/i.test((e as Error).message)) throw e;
            }
        }
        for (const t of TARGETS) targets.set(t, await LoadHumanoidAvatarFromFileAsync(dataFile(t)));
    }, 600_000);
    afterAll(() => {
        for (const t of targets.values()) t.loaded.dispose();
    });

    test.each(TARGETS)(
        "every public clip onto %s: with the default limits no knee or elbow bends backwards past its give (without, some do)",
        (target) => {
            const { avatar, loaded } = targets.get(target)!;
            // A BVH skeleton has no scene of its own: nodes made from its rig, in a scene disposed after.
            const scene = loaded.binding ? null : new Scene(new NullEngine());
            const nodes = loaded.binding?.nodes ?? CreateTransformNodesFromRig(avatar.rig, scene!).nodes;
            let worstOn = -Infinity;
            let worstElbow = -Infinity;
            let worstOff = -Infinity;
            let worstClip = "";
            let frames = 0;
            for (const clip of clips) {
                for (const limits of [true, false]) {
                    // The default options (no hand IK: the elbows give; under hand IK they give
                    // nothing, test/ik/hingeGive.test.ts).
                    const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip", jointLimits: limits });
                    animator.play(clip, { loop: false });
                    // With limits every frame of the clip, at its own rate; without, a sample.
                    const n = limits ? clip.frameCount : Math.min(FRAMES_PER_PAIR_WITHOUT, clip.frameCount);
                    const step = clip.durationSeconds / Math.max(1, n - 1);
                    for (let f = 0; f < n; f++) {
                        animator.update(f === 0 ? 0 : step);
                        const bends = backwardsDeg(avatar, animator.solver.pose.rotations, animator.solver.pose.positions);
                        const back = Math.max(bends[0], bends[1]);
                        const elbow = Math.max(bends[2], bends[3]);
                        if (limits) {
                            frames++;
                            worstElbow = Math.max(worstElbow, elbow);
                            if (back > worstOn) {
                                worstOn = back;
                                worstClip = `${clip.source} frame ${f}`;
                            }
                        } else if (Math.max(back - KNEE_OVERSHOOT_DEG, elbow - ELBOW_OVERSHOOT_DEG) > worstOff)
                            worstOff = Math.max(back - KNEE_OVERSHOOT_DEG, elbow - ELBOW_OVERSHOOT_DEG);
                    }
                    animator.dispose();
                }
            }
            scene?.dispose();
            console.log(
                `${basename(target)}: ${clips.length} clips, ${frames} frames: knees most bent backwards ${worstOn.toFixed(3)} deg with limits (${worstClip}), elbows ${worstElbow.toFixed(3)}; ${worstOff.toFixed(2)} deg past either without`,
            );
            expect(clips.length).toBeGreaterThan(20);
            expect(worstOn).toBeLessThan(KNEE_OVERSHOOT_DEG + BACKWARDS_TOLERANCE_DEG);
            expect(worstElbow).toBeLessThan(ELBOW_OVERSHOOT_DEG + BACKWARDS_TOLERANCE_DEG);
            // The measure sees hinges bent backwards when nothing holds them.
            expect(worstOff).toBeGreaterThan(BACKWARDS_TOLERANCE_DEG);
        },
        600_000,
    );
});
