import { readFileSync } from "node:fs";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { BuildHumanoidAvatar, ConvertBvhToMuscleClip, CreateRigFromBvh, HumanoidAnimator, ParseBvh } from "../../src/index.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { MAX_CARTOON_LEG_SEGMENT_DEG, MAX_CONTACT_HEIGHT, MAX_LIMB_STRETCH } from "../../src/quality/grade.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const LEG_SEGMENTS = ["left thigh", "left shin", "right thigh", "right shin"];

describeWithData("proportions 'legs' (default) and 'com' (Mecanim's rule) on a short-legged character", () => {
    // The CMU walk onto the KayKit mannequin (legs 0.53 of its centre-of-mass height against the
    // CMU skeleton's 0.85). With "com" the stride and the feet scale by the centre-of-mass height,
    // which the short legs cannot reach: the body is lowered (at most 30% of the leg) and the legs
    // stretch to their cap, knees nearly straight (measured: leg segments 21-26 degrees off the
    // source's, limbs at 1.05 in 70% of the frames). With "legs" they scale by the legs, and the
    // knees bend as the source's (1.7-5 degrees off).
    it("both hold the feet on the floor within the limbs' stretch; only 'legs' keeps the legs' directions", async () => {
        const run = (proportions: "legs" | "com") =>
            MeasureQualityPairAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"), dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"), {
                skipAnimatorAvatar: true,
                animator: { proportions },
            });
        const legs = (await run("legs")).ours;
        const com = (await run("com")).ours;
        for (const q of [legs, com]) {
            expect(q.maxStretch).toBeLessThanOrEqual(MAX_LIMB_STRETCH + 1e-6);
            expect(q.contactHeightError).toBeLessThan(MAX_CONTACT_HEIGHT);
            expect(Number.isFinite(q.poseErrorDeg) && Number.isFinite(q.jerkRatio)).toBe(true);
        }
        for (const s of LEG_SEGMENTS) {
            expect(legs.segmentErrorDeg[s]).toBeLessThan(MAX_CARTOON_LEG_SEGMENT_DEG);
            expect(com.segmentErrorDeg[s]).toBeGreaterThan(2 * legs.segmentErrorDeg[s]);
        }
        expect(com.stretchShare).toBeGreaterThan(legs.stretchShare);
    }, 120_000);
});

describeWithData("proportions 'com': the body drop", () => {
    it("lowers the body for the feet by at most 30% of the leg, and holds still while the clip is paused", async () => {
        const file = "bvh/cmu_cgspeed/cmu_walk.bvh";
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file));
        const clip = ConvertBvhToMuscleClip(bvh, BuildHumanoidAvatar(bvh.rig));
        const { avatar, loaded } = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        const nodes = loaded.binding!.nodes;
        const leg = MuscleSetup.For(avatar).legLength;
        const animator = new HumanoidAnimator(avatar, nodes, { proportions: "com" });
        animator.play(clip, { loop: true });
        let most = 0;
        let moved = 0;
        let last = 0;
        let held = 0;
        for (let f = 0; f < 240; f++) {
            animator.update(1 / clip.frameRate);
            const drop = animator.solver.bodyDrop;
            most = Math.max(most, drop);
            if (f > 0 && Math.abs(drop - last) > 1e-4 * leg) moved++;
            last = drop;
            // A paused frame (no time passes): the drop stays where it is, though it lags its need
            // (it set itself to the need at once before, a pop on every pause).
            if (f % 10 === 5) {
                animator.update(0);
                if (animator.solver.bodyDrop === drop) held++;
            }
        }
        animator.dispose();
        loaded.dispose?.();
        expect(most).toBeGreaterThan(0.05 * leg);
        expect(most).toBeLessThanOrEqual(0.3 * leg + 1e-9);
        expect(moved).toBeGreaterThan(100);
        expect(held).toBe(24);
    }, 120_000);
});
