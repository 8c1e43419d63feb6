import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { FootContact, HumanPose, MuscleClipSampler } from "../../src/index.js";
import type { IFootTracks } from "../../src/clip/footContacts.js";
import { FitFloorTilt, FloorTiltHeightAt, FLOOR_TILT_MIN_RUNS } from "../../src/clip/floorTilt.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { ConvertFileToMuscleClipsAsync } from "../../src/node/index.js";
import { MAX_CONTACT_HEIGHT } from "../../src/quality/grade.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const LEG = 0.5;
const RUN = 30;

/** A deterministic wobble in [-1, 1] (no random numbers: the same test on every run). */
const wobble = (i: number): number => Math.sin(12.9898 * i + 78.233 * Math.sin(i));

/**
 * A walk of `runs` steps along z (feet a stride of 0.35 apart, left at x -0.1, right at x 0.1):
 * each foot stands RUN frames at `floor(x, z)` plus its ankle's T-pose height, then swings a
 * step's frames 0.1 up. Ankles only (no toes), avatar scales.
 */
function walk(runs: number, floor: (x: number, z: number, i: number) => number): { feet: IFootTracks; contacts: Uint8Array } {
    const frames = runs * RUN;
    const points = [new Float32Array(3 * frames), new Float32Array(3 * frames)];
    const contacts = new Uint8Array(frames);
    for (let i = 0; i < runs; i++) {
        const s = i % 2;
        const x = s ? 0.1 : -0.1;
        const z = 0.35 * i;
        for (let f = i * RUN; f < (i + 1) * RUN; f++) {
            points[s].set([x, 0.05 + floor(x, z, i), z], 3 * f);
            // The other foot in the air between its standings.
            points[1 - s].set([-x, 0.15 + floor(-x, z, i), z], 3 * f);
            contacts[f] = s ? FootContact.Right : FootContact.Left;
        }
    }
    return {
        feet: {
            points: [
                [points[0], null],
                [points[1], null],
            ],
            restHeight: [
                [0.05, 0],
                [0.05, 0],
            ],
            legLength: LEG,
        },
        contacts,
    };
}

describe("a take's floor that tilts (FitFloorTilt)", () => {
    it("finds a floor that climbs under a walk, and counts it in full", () => {
        // Half a degree (CMU's walks climb 0.5-0.9), each standing a millimetre off the plane.
        const slope = Math.tan((0.5 * Math.PI) / 180);
        const { feet, contacts } = walk(10, (x, z, i) => slope * z + 0.001 * wobble(i));
        const tilt = FitFloorTilt(feet, contacts);
        expect(tilt.runs).toBe(10);
        expect(tilt.share).toBe(1);
        // The ridge keeps 98% of the slope along a spread of 1.0 (this walk's) for a leg of 0.5.
        expect(tilt.slopeZ).toBeGreaterThan(0.95 * slope);
        expect(tilt.slopeZ).toBeLessThan(1.01 * slope);
        expect(Math.abs(tilt.slopeX)).toBeLessThan(0.1 * slope);
        expect(tilt.degrees).toBeCloseTo(0.5, 1);
        // The height over the walk's middle: 0 there, the slope's along it.
        expect(FloorTiltHeightAt(tilt, tilt.originX, tilt.originZ)).toBe(0);
        expect(FloorTiltHeightAt(tilt, tilt.originX, tilt.originZ + 1)).toBeCloseTo(tilt.slopeZ, 12);
        expect(tilt.rise).toBeCloseTo(tilt.slopeZ * 0.35 * 9, 3);
    });

    it("leaves a level floor level, whatever its feet's scatter", () => {
        for (const scatter of [0, 0.002, 0.01]) {
            const { feet, contacts } = walk(12, (x, z, i) => scatter * wobble(i));
            const tilt = FitFloorTilt(feet, contacts);
            expect(tilt.runs).toBe(12);
            expect(tilt.share).toBe(0);
            expect(FloorTiltHeightAt(tilt, 3, 3)).toBe(0);
        }
    });

    it("does not take a slope out that the feet's scatter hides", () => {
        // A quarter of a degree under standings 2 cm apart at random (a dance's tiptoes): t about 1.
        const slope = Math.tan((0.25 * Math.PI) / 180);
        const { feet, contacts } = walk(10, (x, z, i) => slope * z + 0.02 * wobble(i));
        const tilt = FitFloorTilt(feet, contacts);
        expect(tilt.t).toBeLessThan(3);
        expect(tilt.share).toBe(0);
    });

    it("keeps a ramp and stairs: the take's motion, not its floor's error", () => {
        for (const deg of [8, 30]) {
            const slope = Math.tan((deg * Math.PI) / 180);
            const { feet, contacts } = walk(10, (x, z) => slope * z);
            const tilt = FitFloorTilt(feet, contacts);
            expect(tilt.degrees).toBeGreaterThan(deg - 1);
            expect(tilt.share).toBe(0);
        }
        // Between: counted in part, less the steeper.
        const shares = [2, 4, 5].map(
            (deg) => FitFloorTilt(...(Object.values(walk(10, (x, z) => Math.tan((deg * Math.PI) / 180) * z)) as [IFootTracks, Uint8Array])).share,
        );
        expect(shares[0]).toBe(1);
        expect(shares[1]).toBeLessThan(1);
        expect(shares[2]).toBeLessThan(shares[1]);
        expect(shares[2]).toBeGreaterThan(0);
    });

    it("needs enough standings, and the legs' length", () => {
        const slope = Math.tan((0.5 * Math.PI) / 180);
        const few = walk(FLOOR_TILT_MIN_RUNS - 1, (x, z) => slope * z);
        expect(FitFloorTilt(few.feet, few.contacts).share).toBe(0);
        const enough = walk(FLOOR_TILT_MIN_RUNS, (x, z, i) => slope * z + 0.0005 * wobble(i));
        expect(FitFloorTilt(enough.feet, enough.contacts).share).toBeGreaterThan(0);
        expect(FitFloorTilt({ ...enough.feet, legLength: undefined }, enough.contacts).share).toBe(0);
    });

    it("does not take the slope across a walk on a line, where its feet do not spread", () => {
        // The right foot stands 5 mm higher than the left all along (one leg's calibration, or a
        // cross slope of 1.4 degrees over feet 0.2 apart): 0.2 across is too little to tell.
        const { feet, contacts } = walk(10, (x) => (x > 0 ? 0.005 : 0));
        const tilt = FitFloorTilt(feet, contacts);
        expect(tilt.share).toBe(0);
        expect(FloorTiltHeightAt(tilt, 0.1, 1) - FloorTiltHeightAt(tilt, -0.1, 1)).toBe(0);
    });

    it("keeps a floor with one step in it: the take steps up onto a platform", () => {
        // Level, then 5 cm up halfway (a plane through it would slope both floors by a degree).
        for (const runs of [10, 20, 40]) {
            const { feet, contacts } = walk(runs, (x, z, i) => (i >= runs / 2 ? 0.05 : 0) + 0.001 * wobble(i));
            const tilt = FitFloorTilt(feet, contacts);
            expect([runs, tilt.share]).toEqual([runs, 0]);
        }
        // The same rise spread evenly over the walk is a tilt.
        const even = walk(20, (x, z, i) => (0.05 * i) / 19 + 0.001 * wobble(i));
        expect(FitFloorTilt(even.feet, even.contacts).share).toBe(1);
    });

    it("levels a gentle ramp as it would a tilted floor (a real incline under 3 degrees is taken out too)", () => {
        const { feet, contacts } = walk(10, (x, z, i) => Math.tan((2 * Math.PI) / 180) * z + 0.001 * wobble(i));
        const tilt = FitFloorTilt(feet, contacts);
        expect(tilt.share).toBe(1);
        expect(tilt.degrees).toBeGreaterThan(1.9);
    });

    it("skips frames whose foot points are not finite", () => {
        const slope = Math.tan((0.5 * Math.PI) / 180);
        const { feet, contacts } = walk(10, (x, z, i) => slope * z + 0.001 * wobble(i));
        (feet.points[0][0] as Float32Array).fill(NaN, 0, 3 * RUN);
        const tilt = FitFloorTilt(feet, contacts);
        expect(tilt.runs).toBe(9);
        expect(tilt.share).toBe(1);
    });
});

describeWithData("the CMU walk's climbing floor, leveled at conversion", () => {
    const file = "bvh/cmu_cgspeed/cmu_walk.bvh";

    it("says it leveled the floor, and keeps the tilt when asked to", async () => {
        const [leveled] = await ConvertFileToMuscleClipsAsync(dataFile(file));
        expect(leveled.clip.warnings).toContainEqual(
            expect.stringMatching(
                /^the floor under the take tilts 0\.\d\d degrees \(its planted feet climb 0\.0\d\d avatar scales.*convert --keep-floor-tilt, keeps the tilt\)$/,
            ),
        );
        const [kept] = await ConvertFileToMuscleClipsAsync(dataFile(file), { levelFloor: false });
        expect(kept.clip.warnings.filter((w) => w.includes("floor under the take"))).toEqual([]);
        // Bandai's walk stands on a level floor: nothing to level.
        const [level] = await ConvertFileToMuscleClipsAsync(dataFile("bvh/bandai/dataset-1_walk_normal_001.bvh"));
        expect(level.clip.warnings.filter((w) => w.includes("floor under the take"))).toEqual([]);
    }, 60_000);

    it("keeps the pose: only the body's height changes, down by the floor's climb from the take's start to its end", async () => {
        const [leveled] = await ConvertFileToMuscleClipsAsync(dataFile(file));
        const [kept] = await ConvertFileToMuscleClipsAsync(dataFile(file), { levelFloor: false });
        const rise = Number(/climb (\d\.\d+) avatar scales/.exec(leveled.clip.warnings.join("\n"))![1]);
        expect(rise).toBeGreaterThan(0.04);
        const [a, b] = [new MuscleClipSampler(leveled.clip), new MuscleClipSampler(kept.clip)];
        const [ha, hb] = [new HumanPose(), new HumanPose()];
        let other = 0;
        const dy: number[] = [];
        for (let f = 0; f < leveled.clip.frameCount; f++) {
            a.sampleFrameToRef(f, ha);
            b.sampleFrameToRef(f, hb);
            for (let k = 0; k < ha.values.length; k++) other = Math.max(other, Math.abs(ha.values[k] - hb.values[k]));
            for (let g = 0; g < 4; g++) other = Math.max(other, ha.goalPositions[g].subtract(hb.goalPositions[g]).length());
            other = Math.max(other, Math.abs(ha.bodyPosition.x - hb.bodyPosition.x), Math.abs(ha.bodyPosition.z - hb.bodyPosition.z));
            other = Math.max(other, ha.hipsPosition.subtract(hb.hipsPosition).length(), 1 - Math.abs(Quaternion.Dot(ha.bodyRotation, hb.bodyRotation)));
            for (let g = 0; g < 4; g++) other = Math.max(other, 1 - Math.abs(Quaternion.Dot(ha.goalRotations[g], hb.goalRotations[g])));
            dy.push(ha.bodyPosition.y - hb.bodyPosition.y);
        }
        expect(other).toBeLessThan(1e-12);
        // The body walks a little past its first and last standings.
        expect(dy[0] - dy[dy.length - 1]).toBeGreaterThan(rise);
        expect(dy[0] - dy[dy.length - 1]).toBeLessThan(1.2 * rise);
    }, 60_000);

    it("stands RiggedFigure's planted feet on its floor (0.031 leg up with the tilt kept)", async () => {
        const pair = await MeasureQualityPairAsync(dataFile(file), dataFile("glb/khronos_RiggedFigure.glb"), { skipAnimatorAvatar: true });
        expect(pair.ours.contactHeightError).toBeLessThan(MAX_CONTACT_HEIGHT / 2);
    }, 120_000);
});
