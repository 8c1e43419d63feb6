import {
    FootContact,
    MuscleClip,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
} from "../../src/index.js";
import { clip, expectBothWritersToRefuse, withoutContactEndBytes } from "../helpers/clipFileFixtures.js";
import { WithContactEnds } from "../helpers/clips.js";
import { errorOf } from "../helpers/errors.js";

// The feet's still ends in muscle clip files (version 10).

describe("the feet's still ends in files (version 10)", () => {
    const ended = WithContactEnds(clip);
    /** A copy of the clip with these contacts. */
    const withContacts = (contacts: Uint8Array): MuscleClip => new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], contacts });

    it("both formats keep every frame's still ends exactly, JSON as runs by name", () => {
        expect(ended.contacts.some((c) => c & FootContact.LeftAnkleStill) && ended.contacts.some((c) => c & FootContact.RightToesStill)).toBe(true);
        expect(Array.from(ParseMuscleClipBinary(SerializeMuscleClipToBinary(ended), "e.bin").contacts)).toEqual(Array.from(ended.contacts));
        const text = SerializeMuscleClipToJson(ended);
        expect(Array.from(ParseMuscleClipJson(text, "e.json").contacts)).toEqual(Array.from(ended.contacts));
        const o = JSON.parse(text);
        expect(Object.keys(o.contacts)).toEqual(["leftFoot", "rightFoot", "leftAnkleStill", "rightAnkleStill", "leftToesStill", "rightToesStill"]);
        // The first left contact: the ankle over its first half, the toes over the rest.
        const [a, b] = o.contacts.leftFoot[0];
        expect(o.contacts.leftAnkleStill[0][0]).toBe(a);
        expect(o.contacts.leftToesStill[0][1]).toBe(b);
    });

    it("JSON: the ends are optional (none known where left out)", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(ended));
        delete o.contacts.leftToesStill;
        delete o.contacts.rightAnkleStill;
        const back = ParseMuscleClipJson(JSON.stringify(o), "e.json");
        expect(Array.from(back.contacts)).toEqual(Array.from(ended.contacts, (c) => c & ~(FootContact.LeftToesStill | FootContact.RightAnkleStill)));
    });

    it("an end outside its foot's contact, both ends of a foot at once or an unknown flag: one clear error naming the frame, in reading and in writing", () => {
        const left = clip.contacts.findIndex((c) => c === FootContact.Left);
        const air = clip.contacts.findIndex((c) => c === 0);
        const cases: Array<[number, number, RegExp]> = [
            [air, FootContact.LeftToesStill, new RegExp(`contacts.leftToesStill: frame ${air} is not in a contact of its foot \\(leftFoot\\)$`)],
            [left, FootContact.RightAnkleStill, new RegExp(`contacts.rightAnkleStill: frame ${left} is not in a contact of its foot \\(rightFoot\\)$`)],
            [
                left,
                FootContact.LeftAnkleStill | FootContact.LeftToesStill,
                new RegExp(`contacts: frame ${left} has both still ends of the left foot \\(leftAnkleStill and leftToesStill\\)$`),
            ],
            [left, 64, new RegExp(`contacts: frame ${left} has flags 0x41, beyond the known 0x3f$`)],
        ];
        for (const [frame, flags, message] of cases) {
            const contacts = clip.contacts.slice();
            contacts[frame] |= flags;
            expectBothWritersToRefuse(withContacts(contacts), message);
        }
        // Read from a file: the JSON names the runs' keys (the binary reader, below, the same).
        const o = JSON.parse(SerializeMuscleClipToJson(clip));
        o.contacts.leftToesStill = [[air, air]];
        const e = errorOf(() => ParseMuscleClipJson(JSON.stringify(o), "bad.muscle.json"));
        expect(e.code).toBe("CLIP_PARSE");
        expect(e.message).toBe(`bad.muscle.json: contacts.leftToesStill: frame ${air} is not in a contact of its foot (leftFoot)`);
        o.contacts.leftToesStill = [[left, left]];
        o.contacts.leftAnkleStill = [[left, left]];
        expect(errorOf(() => ParseMuscleClipJson(JSON.stringify(o), "bad.muscle.json")).message).toMatch(/has both still ends of the left foot/);
    });

    it("binary: an end outside its foot's contact in a file is refused naming the frame; a version 9 file reads with no ends", () => {
        // The sample walk's clip has no ends: its file ends with four empty lists (one byte each).
        const bin = SerializeMuscleClipToBinary(clip);
        expect(Array.from(bin.subarray(bin.length - 4))).toEqual([0, 0, 0, 0]);
        const air = clip.contacts.findIndex((c) => c === 0);
        expect(air).toBeGreaterThan(0);
        expect(air).toBeLessThan(128);
        // The left toes' list (the third): one run, its gap from frame 0 and its length 1 (LEB128, one byte each).
        const bad = Uint8Array.from([...bin.subarray(0, bin.length - 4), 0, 0, 1, air, 1, 0]);
        const e = errorOf(() => ParseMuscleClipBinary(bad, "bad.muscle.bin"));
        expect(e.code).toBe("CLIP_PARSE");
        expect(e.message).toBe(`bad.muscle.bin: contacts.leftToesStill: frame ${air} is not in a contact of its foot (leftFoot)`);
        // A version 9 file: the same bytes without the four lists.
        const v9 = withoutContactEndBytes(bin);
        new DataView(v9.buffer, v9.byteOffset, v9.byteLength).setUint16(4, 9, true);
        expect(Array.from(ParseMuscleClipBinary(v9, "old.muscle.bin").contacts)).toEqual(Array.from(clip.contacts));
        // ... and a version 10 file cut before them is truncated.
        expect(errorOf(() => ParseMuscleClipBinary(withoutContactEndBytes(bin), "cut.muscle.bin")).message).toMatch(/truncated/);
    });

    it("JSON: an end in a version 9 file gives one clear error naming the key; a version 9 file reads with no ends", () => {
        const o = JSON.parse(SerializeMuscleClipToJson(ended));
        o.version = 9;
        const e = errorOf(() => ParseMuscleClipJson(JSON.stringify(o), "old.muscle.json"));
        expect(e.message).toBe("old.muscle.json: contacts.leftAnkleStill is a version 10 key, the file says version 9");
        for (const k of ["leftAnkleStill", "rightAnkleStill", "leftToesStill", "rightToesStill"]) delete o.contacts[k];
        expect(Array.from(ParseMuscleClipJson(JSON.stringify(o), "old.muscle.json").contacts)).toEqual(Array.from(clip.contacts));
    });
});
