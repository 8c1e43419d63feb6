import { Logger } from "@babylonjs/core/Misc/logger.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

describeWithData("planting: a level foot is held at its ankle (above the heel)", () => {
    it("KayKit's long jump onto its own mannequin, its flat feet turning out as they widen for the jump: held, they slide under a twentieth of the source's slide (a quarter when held at their middle)", async () => {
        const p = await MeasureQualityPairAsync(dataFile("glb/kaykit_anims/Med_MovementBasic.glb"), dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"), {
            clip: "Rig_Medium|Jump_Full_Long",
            skipAnimatorAvatar: true,
        });
        // The source slides its planted feet (what planting is for).
        expect(p.sourceFootSkate).toBeGreaterThan(0.05);
        // Measured: 0.005x (0.25x with the pivot at a level foot's middle).
        expect(p.ours.footSkate).toBeLessThan(0.05 * p.sourceFootSkate);
    }, 120_000);
});
