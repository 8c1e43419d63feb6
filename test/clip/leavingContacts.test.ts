import { Logger } from "@babylonjs/core/Misc/logger.js";
import { CONTACT_DRAG_SHARE, FootContact } from "../../src/index.js";
import { ContactRuns } from "../../src/clip/clipFileRules.js";
import { CONTACT_SPEED, DetectFootContacts, type IFootTracks } from "../../src/clip/footContacts.js";
import { MeasureQualityPairAsync, RecordHumanoidRetarget } from "../../src/node/qualityReport.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** A quarter of the contact speed: at the end of a contact a foot faster than this is leaving (avatar scales a second). */
const LEAVING = CONTACT_SPEED / 4;

/**
 * The left foot's ankle (0.08 up) and toes (0.02 up, 0.15 ahead), at their T-pose heights from
 * `landAt` seconds (default: standing from the first frame) and moving along x at `speed(t)`
 * (avatar scales a second, `t` seconds), lifted 0.3 before `landAt` and from `liftAt`; the right
 * foot 0.3 up throughout.
 */
function tracks(rate: number, seconds: number, speed: (t: number) => number, liftAt: number, landAt = 0): IFootTracks {
    const frames = Math.round(seconds * rate);
    const left = [new Float32Array(3 * frames), new Float32Array(3 * frames)];
    const right = [new Float32Array(3 * frames), new Float32Array(3 * frames)];
    let x = 0;
    for (let f = 0; f < frames; f++) {
        const t = f / rate;
        // The path by the trapezoid rule over the frame before.
        if (f > 0) x += (speed(t - 1 / rate) + speed(t)) / 2 / rate;
        const up = t < landAt || t >= liftAt ? 0.3 : 0;
        for (let p = 0; p < 2; p++) {
            left[p].set([x - 0.1, (p === 0 ? 0.08 : 0.02) + up, p === 0 ? 0 : 0.15], 3 * f);
            right[p].set([0.1, (p === 0 ? 0.08 : 0.02) + 0.3, p === 0 ? 0 : 0.15], 3 * f);
        }
    }
    return {
        points: [left, right],
        restHeight: [
            [0.08, 0.02],
            [0.08, 0.02],
        ],
    };
}

/** The left foot's contact runs, [first, last] frames each. */
const leftRuns = (contacts: Uint8Array): [number, number][] => ContactRuns(contacts, FootContact.Left);

describe("foot contacts are held from where the foot has landed to where it starts to leave", () => {
    it("a foot speeding up along the floor is let go once it is past a quarter of the contact speed, not when it reaches the contact speed", () => {
        for (const rate of [30, 120]) {
            // Still for 1 s, then speeding up at 2 scales a second squared: past a quarter of the
            // contact speed 62.5 ms later, past the contact speed itself (where the contact ended before) 0.25 s later.
            const a = 2;
            const speed = (t: number): number => (t > 1 ? a * (t - 1) : 0);
            const runs = leftRuns(DetectFootContacts(tracks(rate, 2, speed, 1.6), 2 * rate, rate).contacts);
            expect(runs.length).toBe(1);
            expect(runs[0][0]).toBe(0);
            // Its last frame is the last one slower than a quarter of the contact speed, within a
            // frame (speeds are central differences).
            const last = runs[0][1];
            expect(Math.abs(last - (1 + LEAVING / a) * rate)).toBeLessThanOrEqual(1);
            expect(speed((last + 2) / rate)).toBeGreaterThan(LEAVING);
            expect(speed((last + 2) / rate)).toBeLessThan(CONTACT_SPEED);
        }
    });

    it("a foot that lands gliding is held from its first frame under a quarter of the contact speed, past a frame where it sped up", () => {
        const rate = 60;
        // Lands at 1 s at 0.45 avatar scales a second, slowing at 1.5 a second squared, with a
        // bump 0.1 s in (its speed rising for a few frames: where landing's own trim stops);
        // under a quarter of the contact speed 0.217 s after landing.
        const land = 1;
        const speed = (t: number): number => {
            const u = t - land;
            return u < 0 ? 0.45 : Math.max(0, 0.45 - 1.5 * u) + 0.15 * Math.exp(-(((u - 0.1) / 0.03) ** 2));
        };
        expect(speed(land + 0.1)).toBeGreaterThan(speed(land + 0.07));
        const runs = leftRuns(DetectFootContacts(tracks(rate, 3, speed, 2.5, land), 3 * rate, rate).contacts);
        expect(runs.length).toBe(1);
        const first = runs[0][0];
        expect(Math.abs(first - (land + (0.45 - LEAVING) / 1.5) * rate)).toBeLessThanOrEqual(1);
        expect(speed((first - 1) / rate)).toBeGreaterThan(LEAVING);
        expect(runs[0][1]).toBe(2.5 * rate - 2);
    });

    it("a foot lifted from rest ends its contact where it rises, as before", () => {
        const rate = 60;
        const runs = leftRuns(
            DetectFootContacts(
                tracks(rate, 2, () => 0, 1.5),
                2 * rate,
                rate,
            ).contacts,
        );
        expect(runs).toEqual([[0, 1.5 * rate - 2]]);
    });

    it("a foot slow and speeding up over its whole contact keeps at least half of it", () => {
        const rate = 30;
        // Speeding up from rest at 0.4 scales a second squared from frame 0: past a quarter of the
        // contact speed after 0.31 s, at the contact speed after 1.25 s (about 37 frames down).
        const speed = (t: number): number => 0.4 * t;
        const contacts = DetectFootContacts(tracks(rate, 2, speed, 1.8), 2 * rate, rate).contacts;
        const runs = leftRuns(contacts);
        expect(runs.length).toBe(1);
        const still = Array.from({ length: 2 * rate }, (_, f) => f).filter((f) => speed(f / rate) < CONTACT_SPEED).length;
        const kept = runs[0][1] - runs[0][0] + 1;
        expect(kept).toBeGreaterThanOrEqual(Math.floor(still / 2) - 1);
        // ... and is let go before its speed reached the contact speed (half of it ended so).
        expect(kept).toBeLessThan(still - 5);
    });

    it("the frames a foot leaves over do not count in its slide: the drag check weighs the contact up to where the foot starts to leave", () => {
        const rate = 60;
        const leg = 0.8;
        expect(CONTACT_DRAG_SHARE * leg).toBeCloseTo(0.08, 9);
        // Sliding at 0.05 scales a second for 1 s, then speeding up under the contact speed as it
        // leaves: 0.05 of its slide before it starts to leave, past CONTACT_DRAG_SHARE of a leg
        // (0.08) with the frames it leaves over (until 2026-12-08 dropped so, its foot left free).
        const leaving = (t: number): number => (t < 1 ? 0.05 : 0.05 + 1.2 * (t - 1));
        const feet = { ...tracks(rate, 2, leaving, 1.7), legLength: leg };
        const kept = leftRuns(DetectFootContacts(feet, 2 * rate, rate).contacts);
        expect(kept.length).toBe(1);
        // ... held from its first frame to where it starts to leave, as without the leg's length.
        expect(kept[0][0]).toBe(0);
        expect(leaving(kept[0][1] / rate)).toBeLessThanOrEqual(LEAVING + 1.2 / rate);
        expect(leftRuns(DetectFootContacts({ ...feet, legLength: undefined }, 2 * rate, rate).contacts)).toEqual(kept);
        // Sliding twice as fast (0.1 before it starts to leave, still under a quarter of the
        // contact speed): dragged, and dropped.
        const dragged = (t: number): number => (t < 1 ? 0.1 : 0.1 + 1.2 * (t - 1));
        expect(dragged(0.5)).toBeLessThan(LEAVING);
        expect(leftRuns(DetectFootContacts({ ...tracks(rate, 2, dragged, 1.7), legLength: leg }, 2 * rate, rate).contacts)).toEqual([]);
    });
});

describe("a contact whose foot never lands is dropped", () => {
    it("a foot low and under the contact speed for half a second, never slower than a quarter of it: no contact; a frame slower, and it is held", () => {
        for (const rate of [30, 120]) {
            // Low from 0.5 s to 1 s, gliding at 0.2 avatar scales a second (a foot passing low,
            // as a floating take's legs at the bottom of their swing), lifted before and after.
            const glide = (t: number): number => (t > 0.5 && t < 1 ? 0.2 : 0.6);
            const passing = tracks(rate, 2, glide, 1, 0.5);
            expect(leftRuns(DetectFootContacts(passing, 2 * rate, rate).contacts)).toEqual([]);
            // The same with its speed dipping under a quarter of the contact speed for 50 ms
            // around 0.75 s: a contact, held over the slow frames and no further than the low ones.
            const dip = (t: number): number => (Math.abs(t - 0.75) < 0.025 ? 0.05 : glide(t));
            const runs = leftRuns(DetectFootContacts(tracks(rate, 2, dip, 1, 0.5), 2 * rate, rate).contacts);
            expect(runs.length).toBe(1);
            expect(runs[0][0]).toBeGreaterThanOrEqual(0.5 * rate);
            expect(runs[0][1]).toBeLessThan(rate);
            expect(runs[0][0]).toBeLessThanOrEqual(0.75 * rate);
            expect(runs[0][1]).toBeGreaterThanOrEqual(0.75 * rate);
        }
    });
});

describeWithData("a contact whose foot never lands, on real files", () => {
    it("KayKit's walk backwards, a cycle in place whose feet slide back through every step: no contact, so planting holds nothing (its motion onto the X Bot the same with planting off)", async () => {
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_MovementAdvanced.glb"));
        const clip = clips.find((c) => c.clip.name === "Rig_Medium|Walking_Backwards")!.clip;
        // It had one, of two frames (20-21) where the left foot's slide slowed to 0.35 avatar
        // scales a second; held still there, onto the X Bot 1.83 times the source's jerk (AnimatorAvatar's copy 1.72).
        expect(Array.from(clip.contacts).every((c) => (c & (FootContact.Left | FootContact.Right)) === 0)).toBe(true);
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        const nodes = target.loaded.binding!.nodes;
        const held = RecordHumanoidRetarget(clip, target.avatar, nodes, { footPlanting: true });
        const free = RecordHumanoidRetarget(clip, target.avatar, nodes, { footPlanting: false });
        let most = 0;
        held.positions.forEach((p, f) => p.forEach((x, i) => (most = Math.max(most, Math.abs(x - free.positions[f][i])))));
        expect(most).toBeLessThan(1e-6);
        target.loaded.dispose();
    }, 120_000);
});

describeWithData("a contact let go as its foot starts to leave, on real files", () => {
    it("Bandai's run onto the VRM sample: limbs closer to the source's and its knees and feet smoother (0.33 degree and 1.33 times the source's jerk when contacts held the leaving foot)", async () => {
        const p = await MeasureQualityPairAsync(dataFile("bvh/bandai/dataset-1_run_normal_001.bvh"), dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"));
        expect(p.ours.poseErrorDeg).toBeLessThan(0.25);
        expect(p.ours.boneJerkMax).toBeLessThan(1.2);
    }, 120_000);

    it("the child's jump onto the X Bot: its feet let go at each take-off without a step (1.28 and 1.22 times the source's jerk when contacts held the leaving foot)", async () => {
        const p = await MeasureQualityPairAsync(dataFile("bvh/animated_drawings/fair1_jumping_8yo.bvh"), dataFile("glb/mixamo_xbot.glb"));
        expect(p.ours.boneJerkRatio.leftFoot).toBeLessThan(1.2);
        expect(p.ours.boneJerkRatio.rightFoot).toBeLessThan(1.2);
    }, 120_000);
});
