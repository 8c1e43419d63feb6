import { Logger } from "@babylonjs/core/Misc/logger.js";
import { CONTACT_DRAG_SHARE, FootContact } from "../../src/index.js";
import { DetectFootContacts, type IFootTracks } from "../../src/clip/footContacts.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { ConvertFileToMuscleClipsAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const RATE = 30;
const LEG = 0.8;

/**
 * Two feet (ankle and toes each) standing on the floor for 2 s, both lifted 0.3 scales for 0.5 s
 * before and after; over the middle second each point slides forward along a smoothstep by
 * `slide[foot][point]` avatar scales (slower than `CONTACT_SPEED` throughout: at most 1.5 x its
 * slide a second, so each frame alone counts as still).
 */
function tracks(slide: number[][], legLength?: number, bodySlide?: number): IFootTracks {
    const frames = 3 * RATE;
    const points = [0, 1].map((s) =>
        [0, 1].map((p) => {
            const a = new Float32Array(frames * 3);
            for (let f = 0; f < frames; f++) {
                const t = f / RATE;
                const lifted = t < 0.5 || t >= 2.5;
                const u = Math.min(1, Math.max(0, t - 1));
                a[f * 3] = slide[s][p] * u * u * (3 - 2 * u) + (s === 0 ? -0.1 : 0.1);
                a[f * 3 + 1] = (p === 0 ? 0.08 : 0.02) + (lifted ? 0.3 : 0);
                a[f * 3 + 2] = p === 0 ? 0 : 0.15;
            }
            return a;
        }),
    );
    // The middle of the hip joints 0.9 scales up, sliding by `bodySlide` along as the feet do.
    let body: Float32Array | undefined;
    if (bodySlide !== undefined) {
        body = new Float32Array(frames * 3);
        for (let f = 0; f < frames; f++) {
            const u = Math.min(1, Math.max(0, f / RATE - 1));
            body[f * 3] = bodySlide * u * u * (3 - 2 * u);
            body[f * 3 + 1] = 0.9;
        }
    }
    return {
        points,
        restHeight: [
            [0.08, 0.02],
            [0.08, 0.02],
        ],
        legLength,
        body,
    };
}

const down = (contacts: Uint8Array, bit: number): number => contacts.reduce((n, c) => n + (c & bit ? 1 : 0), 0);
const contactsOf = (slide: number[][], legLength?: number, bodySlide?: number): Uint8Array =>
    DetectFootContacts(tracks(slide, legLength, bodySlide), 3 * RATE, RATE).contacts;
const STANDING = 1.9 * RATE;

describe("a foot dragged over the floor is not planted", () => {
    it("drops a contact whose foot slides further than CONTACT_DRAG_SHARE of a leg, and keeps one that slides less", () => {
        expect(CONTACT_DRAG_SHARE).toBe(0.1);
        const far = contactsOf(
            [
                [0.12 * LEG, 0.12 * LEG],
                [0, 0],
            ],
            LEG,
        );
        expect(down(far, FootContact.Left)).toBe(0);
        expect(down(far, FootContact.Right)).toBeGreaterThan(STANDING);
        const near = contactsOf(
            [
                [0.08 * LEG, 0.08 * LEG],
                [0, 0],
            ],
            LEG,
        );
        expect(down(near, FootContact.Left)).toBeGreaterThan(STANDING);
        expect(down(near, FootContact.Right)).toBeGreaterThan(STANDING);
    });

    it("keeps a foot that turns about its toes (the ankle sliding, the toes still), and feet that slide together", () => {
        const pivot = contactsOf(
            [
                [0.12 * LEG, 0],
                [0, 0],
            ],
            LEG,
        );
        expect(down(pivot, FootContact.Left)).toBeGreaterThan(STANDING);
        // The whole figure slides on both feet: planting moves its body (the common hold).
        const together = contactsOf(
            [
                [0.3 * LEG, 0.3 * LEG],
                [0.3 * LEG, 0.3 * LEG],
            ],
            LEG,
        );
        expect(down(together, FootContact.Left)).toBeGreaterThan(STANDING);
        expect(down(together, FootContact.Right)).toBeGreaterThan(STANDING);
        // One foot sliding beyond the other's slide is dragged.
        const apart = contactsOf(
            [
                [0.3 * LEG, 0.3 * LEG],
                [0.15 * LEG, 0.15 * LEG],
            ],
            LEG,
        );
        expect(down(apart, FootContact.Left)).toBe(0);
        expect(down(apart, FootContact.Right)).toBeGreaterThan(STANDING);
    });

    it("keeps feet sliding together only as far as the body goes along: under a body that stays, they are dragged", () => {
        const both = [
            [0.3 * LEG, 0.3 * LEG],
            [0.3 * LEG, 0.3 * LEG],
        ];
        // The body slides with them: the whole figure drifts over the floor (kept, the common hold).
        const drifting = contactsOf(both, LEG, 0.3 * LEG);
        expect(down(drifting, FootContact.Left)).toBeGreaterThan(STANDING);
        expect(down(drifting, FootContact.Right)).toBeGreaterThan(STANDING);
        // The body stays: both feet are dragged under it.
        const under = contactsOf(both, LEG, 0);
        expect(down(under, FootContact.Left)).toBe(0);
        expect(down(under, FootContact.Right)).toBe(0);
        // The body goes along part of the way: what the feet slide beyond it counts (0.3 - 0.25 kept, 0.3 - 0.15 dropped).
        expect(down(contactsOf(both, LEG, 0.25 * LEG), FootContact.Left)).toBeGreaterThan(STANDING);
        expect(down(contactsOf(both, LEG, 0.15 * LEG), FootContact.Left)).toBe(0);
        // The body going the other way shares nothing with them.
        expect(down(contactsOf(both, LEG, -0.3 * LEG), FootContact.Right)).toBe(0);
    });

    it("drops none without the leg's length", () => {
        const unknown = contactsOf([
            [0.12 * LEG, 0.12 * LEG],
            [0, 0],
        ]);
        expect(down(unknown, FootContact.Left)).toBeGreaterThan(STANDING);
    });
});

describeWithData("a foot dragged over the floor is not planted: real clips", () => {
    it("KayKit's throw, which drags its feet 0.26 and 0.39 leg: onto its own mannequin within 0.5 degree of the exact copy, where holding them bent the thigh 9.4 degrees", async () => {
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_General.glb"));
        const throwClip = clips.find((c) => c.clip.name === "Rig_Medium|Throw")!.clip;
        // Its left foot slides from the first frame to the 18th, its right from the 25th to the 42nd.
        for (let f = 0; f <= 18; f++) expect([f, throwClip.contacts[f] & FootContact.Left]).toEqual([f, 0]);
        for (let f = 25; f <= 42; f++) expect([f, throwClip.contacts[f] & FootContact.Right]).toEqual([f, 0]);
        const p = await MeasureQualityPairAsync(dataFile("glb/kaykit_anims/Med_General.glb"), dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"), {
            clip: "Rig_Medium|Throw",
        });
        expect(p.animatorAvatar).not.toBeNull();
        expect(p.ours.poseErrorDeg).toBeLessThanOrEqual(p.animatorAvatar!.poseErrorDeg + 0.5);
        expect(p.ours.segmentErrorDeg["left thigh"]).toBeLessThan(8);
    }, 120_000);

    it("KayKit's Hit_A, whose feet slide back 0.26 leg under hips that stay: dragged, so its body stays where the source's is", async () => {
        const file = dataFile("glb/kaykit_anims/Med_General.glb");
        const clips = await ConvertFileToMuscleClipsAsync(file);
        const hit = clips.find((c) => c.clip.name === "Rig_Medium|Hit_A")!.clip;
        // Held and followed by the body, the feet moved the figure 0.3 leg forward of the source's.
        const p = await MeasureQualityPairAsync(file, dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"), { clip: "Rig_Medium|Hit_A" });
        expect(hit.contacts.some((c) => c !== 0)).toBe(true);
        expect(p.ours.poseErrorDeg).toBeLessThan(0.1);
        expect(p.ours.jerkRatio).toBeLessThan(p.animatorAvatar!.jerkRatio);
    }, 120_000);

    it("keeps every stance of a walk: the CMU walk, whose planted feet slide up to 0.066 leg", async () => {
        const [walk] = await ConvertFileToMuscleClipsAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"));
        const contacts = walk.clip.contacts;
        const runs = (bit: number): number => contacts.reduce((n, c, f) => n + ((c & bit) !== 0 && (f === 0 || (contacts[f - 1] & bit) === 0) ? 1 : 0), 0);
        // Its 344 frames at 120 fps: three stances of each foot (as before the rule).
        expect([runs(FootContact.Left), runs(FootContact.Right)]).toEqual([3, 3]);
    }, 120_000);
});
