import { Logger } from "@babylonjs/core/Misc/logger.js";
import { FootContact } from "../../src/index.js";
import { CONTACT_SPEED } from "../../src/clip/footContacts.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { ConvertFileToMuscleClipsAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const SNEAK = "Rig_Medium|Sneaking";
const MANNEQUIN = "glb/kaykit_mannequin/manny_med_mod.gltf";

describeWithData("foot contacts start where the foot has landed", () => {
    it("KayKit's sneak, whose feet touch down gliding: each contact starts past the frames over which its foot still slows down", async () => {
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_MovementAdvanced.glb"), { avatar: dataFile(MANNEQUIN) });
        const sneak = clips.find((c) => c.clip.name === SNEAK)!.clip;
        // The clip as this test knows it (measured when it was written): the left foot is low and
        // under the contact speed from frame 28 on, still slowing down (0.53, 0.37, 0.24, 0.14
        // avatar scales a second over frames 28-31).
        const left = Array.from(sneak.contacts, (c) => (c & FootContact.Left) !== 0);
        const start = left.findIndex((down, f) => down && f > 20);
        expect(start).toBeGreaterThan(28);
        // Not past the point where it has landed: a quarter of the contact speed is 0.125.
        expect(start).toBeLessThanOrEqual(32);
        expect(CONTACT_SPEED / 4).toBeCloseTo(0.125, 9);
    });

    it("KayKit's sneak onto its own mannequin is no jerkier than AnimatorAvatar's exact copy, with its feet held (it was 1.018x against 0.997x)", async () => {
        const p = await MeasureQualityPairAsync(dataFile("glb/kaykit_anims/Med_MovementAdvanced.glb"), dataFile(MANNEQUIN), { clip: SNEAK });
        expect(p.animatorAvatar).not.toBeNull();
        expect(p.ours.jerkRatio).toBeLessThanOrEqual(p.animatorAvatar!.jerkRatio);
        // Still held: skating at most a fifth of the exact copy's (the source slides its feet).
        expect(p.ours.footSkate).toBeLessThanOrEqual(0.2 * p.animatorAvatar!.footSkate);
    }, 120_000);
});
