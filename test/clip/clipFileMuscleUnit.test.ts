import {
    MuscleClip,
    MuscleClipSampler,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
    ALL_MUSCLE_COUNT,
    AngleUnitToMuscleValue,
} from "../../src/index.js";
import { clip, expectBothWritersToRefuse, muscleValued, dropContactEnds } from "../helpers/clipFileFixtures.js";

// The muscle curves' unit in muscle clip files (version 8).

describe("the muscle curves' unit in files (version 8)", () => {
    it("both formats keep it: angles as the converter makes them (key muscleUnit, binary flag bit 8), muscle values as older files hold", () => {
        expect(clip.muscleUnit).toBe("angle");
        for (const c of [clip, muscleValued(clip)]) {
            const bin = SerializeMuscleClipToBinary(c);
            const json = SerializeMuscleClipToJson(c);
            expect(new DataView(bin.buffer, bin.byteOffset, bin.byteLength).getUint16(6, true) & 256).toBe(c.muscleUnit === "angle" ? 256 : 0);
            expect(JSON.parse(json).muscleUnit).toBe(c.muscleUnit);
            for (const back of [ParseMuscleClipBinary(bin, "a.bin"), ParseMuscleClipJson(json, "a.json")]) {
                expect(back.muscleUnit).toBe(c.muscleUnit);
                const a = new MuscleClipSampler(c);
                const b = new MuscleClipSampler(back);
                for (let f = 0; f < c.frameCount; f += 0.75) for (let m = 0; m < ALL_MUSCLE_COUNT; m++) expect(b.evaluate(m, f)).toBe(a.evaluate(m, f));
            }
        }
    });

    it("a version 8 JSON file without the key holds muscle values; a clip of another unit is not written", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(clip));
        o.version = 8;
        dropContactEnds(o);
        delete o.proportions.shoulderOffsets;
        delete o.muscleUnit;
        expect(ParseMuscleClipJson(JSON.stringify(o), "a.json").muscleUnit).toBe("muscle");
        const odd = new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], muscleUnit: "degrees" as never });
        expectBothWritersToRefuse(odd, /muscleUnit must be "muscle" or "angle", found "degrees"$/);
    });

    it("the same curves read as muscle values or as angles differ only in the lopsided muscles, by their ends' ratio", () => {
        const asMuscle = new MuscleClipSampler(muscleValued(clip));
        const asAngle = new MuscleClipSampler(clip);
        for (let f = 0; f < clip.frameCount; f += 3) {
            for (let m = 0; m < ALL_MUSCLE_COUNT; m++) {
                const u = asMuscle.evaluate(m, f);
                expect(asAngle.evaluate(m, f)).toBeCloseTo(AngleUnitToMuscleValue(m, u), 12);
            }
        }
    });
});
