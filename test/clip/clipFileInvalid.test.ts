import {
    CURVE_BODY_POSITION,
    CURVE_HIPS,
    CURVE_TRANSLATIONS,
    HumanoidError,
    MuscleCurveNames,
    MUSCLE_CLIP_CURVE_COUNT,
    MUSCLE_CLIP_VERSION,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
    ALL_MUSCLE_COUNT,
} from "../../src/index.js";
import { clip, SHOULDER_OFFSETS, trunked, unstepped, dropContactEnds, dropTranslations, dropTrunk } from "../helpers/clipFileFixtures.js";
import { errorOf } from "../helpers/errors.js";

// Invalid muscle clip files, binary and JSON: one clear error naming the file.

type Patch = (b: Uint8Array) => Uint8Array;

/** Binary patches: [what, change to a copy of the bytes, expected message]. */
function binaryCases(): Array<[string, Patch, RegExp]> {
    // Flags 2 | 4 | 8 | 32 | 64 | 128 | 256 | 512: a ground height, the proportions, the thigh share, the trunk, the leg directions, the trunk layout, muscle curves in angle units and the shoulder layout.
    const bin = SerializeMuscleClipToBinary(trunked);
    const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
    const copy = (): Uint8Array => bin.slice();
    // Offsets: magic 0, version 4, flags 6, rate 8, frames 16, tolerance 20, [ground height 28 when
    // flag 2], [six proportions, 48 bytes, when flag 4, the thigh share, 8 more, when flag 8, the
    // trunk, 16 more, when flag 32, the thigh and shin directions, 48 more, when flag 64, the
    // trunk offsets, 120 more, when flag 128, and the shoulder offsets, 96 more, when flag 512],
    // then the name.
    expect(new DataView(bin.buffer).getUint16(6, true)).toBe(2 | 4 | 8 | 32 | 64 | 128 | 256 | 512);
    const trunkAt = 28 + 8 + 48 + 8;
    const legAt = trunkAt + 16;
    const offsetsAt = legAt + 48;
    const shouldersAt = offsetsAt + 120;
    // The shoulder offsets as written, where this layout puts them.
    for (let i = 0; i < 12; i++) expect(Object.is(new DataView(bin.buffer).getFloat64(shouldersAt + 8 * i, true), SHOULDER_OFFSETS[i])).toBe(true);
    const firstCurve = (() => {
        let p =
            28 +
            (bin[6] & 2 ? 8 : 0) +
            (bin[6] & 4 ? 48 : 0) +
            (bin[6] & 8 ? 8 : 0) +
            (bin[6] & 32 ? 16 : 0) +
            (bin[6] & 64 ? 48 : 0) +
            (bin[6] & 128 ? 120 : 0) +
            (bin[7] & 2 ? 96 : 0); // flag 512: bit 1 of the flags' high byte
        const varint = (): number => {
            let v = 0;
            let s = 1;
            for (;;) {
                const b = bin[p++];
                v += (b & 127) * s;
                if (!(b & 128)) return v;
                s *= 128;
            }
        };
        const skipString = (): void => {
            const n = varint(); // read first: p moves past the length
            p += n;
        };
        skipString(); // name
        skipString(); // source
        const w = varint();
        for (let i = 0; i < w; i++) skipString();
        return p + 2; // after the curve count
    })();
    const cases: Array<[string, Patch, RegExp]> = [
        ["an empty file", () => new Uint8Array(0), /not a binary muscle clip/],
        ["another magic", (b) => (b.set([0x42, 0x48, 0x4d, 0x58], 0), b), /not a binary muscle clip/],
        [
            `version ${MUSCLE_CLIP_VERSION + 1}`,
            (b) => (dv(b).setUint16(4, MUSCLE_CLIP_VERSION + 1, true), b),
            new RegExp(`unknown muscle clip version ${MUSCLE_CLIP_VERSION + 1} \\(this library reads versions 1 to ${MUSCLE_CLIP_VERSION}\\)`),
        ],
        ["version 0", (b) => (dv(b).setUint16(4, 0, true), b), /unknown muscle clip version 0/],
        ["unknown flags", (b) => (dv(b).setUint16(6, 4096 | 1006, true), b), new RegExp(`unknown flags 0x13ee for version ${MUSCLE_CLIP_VERSION}$`)],
        ["a shoulder layout in a version 8 file", (b) => (dv(b).setUint16(4, 8, true), b), /unknown flags 0x3ee for version 8$/],
        ["angle units in a version 7 file", (b) => (dv(b).setUint16(4, 7, true), dv(b).setUint16(6, 494, true), b), /unknown flags 0x1ee for version 7$/],
        ["a trunk layout in a version 6 file", (b) => (dv(b).setUint16(4, 6, true), dv(b).setUint16(6, 238, true), b), /unknown flags 0xee for version 6/],
        ["leg directions in a version 5 file", (b) => (dv(b).setUint16(4, 5, true), dv(b).setUint16(6, 110, true), b), /unknown flags 0x6e for version 5/],
        ["a trunk in a version 4 file", (b) => (dv(b).setUint16(4, 4, true), dv(b).setUint16(6, 46, true), b), /unknown flags 0x2e for version 4/],
        [
            "leg directions without the proportions",
            (b) => (dv(b).setUint16(6, 64, true), b),
            /flags: leg directions \(bit 6\) without the proportions \(bit 2\)/,
        ],
        [
            "a thigh direction that is not a unit vector",
            (b) => (dv(b).setFloat64(legAt, 2, true), b),
            /proportions.thighDirection must be a unit vector \[x, y, z\], found \[2, /,
        ],
        [
            "a NaN shin direction",
            (b) => (dv(b).setFloat64(legAt + 40, NaN, true), b),
            /proportions.shinDirection must be a unit vector \[x, y, z\], found \[.*NaN\]$/,
        ],
        [
            "a trunk layout without the proportions",
            (b) => (dv(b).setUint16(6, 128, true), b),
            /flags: a trunk layout \(bit 7\) without the proportions \(bit 2\)/,
        ],
        [
            "a trunk offset out of range",
            (b) => (dv(b).setFloat64(offsetsAt + 8 * 4, 2.5, true), b),
            /proportions.trunkOffsets\[4\] must be a number from -2 to 2 \(source scales\), found 2.5$/,
        ],
        [
            "a NaN trunk offset",
            (b) => (dv(b).setFloat64(offsetsAt + 8 * 14, NaN, true), b),
            /proportions.trunkOffsets\[14\] must be a number from -2 to 2 \(source scales\), found NaN$/,
        ],
        [
            "an infinite trunk offset",
            (b) => (dv(b).setFloat64(offsetsAt, -Infinity, true), b),
            /proportions.trunkOffsets\[0\] must be a number from -2 to 2 \(source scales\), found -Infinity$/,
        ],
        [
            "a shoulder layout without the proportions",
            (b) => (dv(b).setUint16(6, 512, true), b),
            /flags: a shoulder layout \(bit 9\) without the proportions \(bit 2\)$/,
        ],
        [
            "a shoulder offset out of range",
            (b) => (dv(b).setFloat64(shouldersAt + 8 * 9, 2.5, true), b),
            /proportions.shoulderOffsets\[9\] must be a number from -2 to 2 \(source scales\), found 2.5$/,
        ],
        [
            "a NaN shoulder offset",
            (b) => (dv(b).setFloat64(shouldersAt + 8 * 11, NaN, true), b),
            /proportions.shoulderOffsets\[11\] must be a number from -2 to 2 \(source scales\), found NaN$/,
        ],
        [
            "an infinite shoulder offset",
            (b) => (dv(b).setFloat64(shouldersAt, -Infinity, true), b),
            /proportions.shoulderOffsets\[0\] must be a number from -2 to 2 \(source scales\), found -Infinity$/,
        ],
        ["a trunk without the proportions", (b) => (dv(b).setUint16(6, 32, true), b), /flags: a trunk \(bit 5\) without the proportions \(bit 2\)/],
        [
            "a trunk length of 0",
            (b) => (dv(b).setFloat64(trunkAt, 0, true), b),
            /proportions.trunkLength must be a number from 0.05 to 5 \(source scales\), found 0$/,
        ],
        [
            "a NaN trunk steady point",
            (b) => (dv(b).setFloat64(trunkAt + 8, NaN, true), b),
            /proportions.trunkSteadyPoint must be a number from 0 to 1, found NaN$/,
        ],
        ["a thigh share in a version 2 file", (b) => (dv(b).setUint16(4, 2, true), dv(b).setUint16(6, 14, true), b), /unknown flags 0xe for version 2/],
        ["a thigh share without the proportions", (b) => (dv(b).setUint16(6, 8, true), b), /a thigh share \(bit 3\) without the proportions/],
        ["proportions in a version 1 file", (b) => (dv(b).setUint16(4, 1, true), dv(b).setUint16(6, 14, true), b), /unknown flags 0xe for version 1/],
        ["a NaN frame rate", (b) => (dv(b).setFloat64(8, NaN, true), b), /frameRate must be in/],
        ["no frames", (b) => (dv(b).setUint32(16, 0, true), b), /frameCount must be from 1/],
        ["a huge key count", (b) => (b.set([0xff, 0xff, 0xff, 0x7f], firstCurve), b), /key count is \d+, more than/],
        // One-byte key count n and n one-byte frame steps, then the value encoding (1: on a grid), the step and the values.
        ["an unknown value encoding", (b) => ((b[firstCurve + 1 + b[firstCurve]] = 7), b), /curve 'Spine Front-Back': unknown value encoding 7/],
        ["a NaN value step", (b) => (dv(b).setFloat32(firstCurve + 2 + b[firstCurve], NaN, true), b), /value step must be a positive number, found NaN/],
        ["a negative value step", (b) => (dv(b).setFloat32(firstCurve + 2 + b[firstCurve], -0.5, true), b), /value step must be a positive number, found -0.5/],
        [
            "a NaN value (float32 values)",
            () => {
                const raw = SerializeMuscleClipToBinary(unstepped(trunked));
                expect(raw[firstCurve + 1 + raw[firstCurve]]).toBe(0);
                dv(raw).setFloat32(firstCurve + 2 + raw[firstCurve], NaN, true);
                return raw;
            },
            /is not a finite number/,
        ],
        ["keys that do not start on frame 0", (b) => ((b[firstCurve + 1] = 3), b), /first key must be on frame 0/],
        ["a trailing byte", (b) => Uint8Array.from([...b, 0]), /1 unexpected bytes after the clip/],
        [
            "a wrong curve count",
            (b) => (dv(b).setUint16(firstCurve - 2, 150, true), b),
            new RegExp(`expected ${MUSCLE_CLIP_CURVE_COUNT} curves in a version ${MUSCLE_CLIP_VERSION} file, found 150`),
        ],
        ["a truncated file", (b) => b.subarray(0, b.length - 3), /truncated/],
    ];
    return cases.map(([what, f, re]) => [what, () => f(copy()), re]);
}

describe("reading invalid muscle clip files", () => {
    it.each(binaryCases())("binary: %s gives one clear error naming the file", (_what, patch, re) => {
        const e = errorOf(() => ParseMuscleClipBinary(patch(new Uint8Array()), "bad.muscle.bin"));
        expect(e).toBeInstanceOf(HumanoidError);
        expect(e.code).toBe("CLIP_PARSE");
        expect(e.message).toMatch(/^bad\.muscle\.bin: /);
        expect(e.message).toMatch(re);
    });

    it("binary: every truncation gives a clear error, never a crash or a half clip", () => {
        const bin = SerializeMuscleClipToBinary(clip);
        for (let n = 0; n < bin.length; n += n < 200 ? 1 : 97) {
            const e = errorOf(() => ParseMuscleClipBinary(bin.subarray(0, n), "cut.bin"));
            expect(e.code).toBe("CLIP_PARSE");
        }
    });

    const json = JSON.parse(SerializeMuscleClipToJson(trunked)) as Record<string, unknown>;
    // The file as loosely typed JSON, to break in every way.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    type Loose = Record<string, any>;
    const edit = (f: (o: Loose) => void): string => {
        const o = structuredClone(json) as Loose;
        f(o);
        return JSON.stringify(o);
    };
    const firstMuscle = MuscleCurveNames[0];
    const cases: Array<[string, string, RegExp]> = [
        ["not JSON", "{ nope", /does not parse/],
        ["a list", "[]", /top level is not an object/],
        ["another format", edit((o) => (o.format = "other")), /format is "other"/],
        ["version 99", edit((o) => (o.version = 99)), /unknown muscle clip version 99/],
        ["an unknown key", edit((o) => (o.extra = 1)), /unknown key 'extra'/],
        ["a missing key", edit((o) => delete o.frameRate), /missing key 'frameRate'/],
        ["a string frame count", edit((o) => (o.frameCount = "67")), /frameCount must be a number/],
        ["a huge frame count", edit((o) => (o.frameCount = 1e12)), /frameCount must be a whole number from 1/],
        ["a missing curve", edit((o) => delete o.curves[firstMuscle]), new RegExp(`missing curve '${firstMuscle}'`)],
        ["an unknown curve", edit((o) => (o.curves["Tail Wag"] = { frames: [0], values: [0] })), /unknown curve 'Tail Wag'/],
        ["an extra key in a curve", edit((o) => (o.curves[firstMuscle].tangents = [])), /exactly the keys frames and values/],
        ["frames and values of different lengths", edit((o) => o.curves[firstMuscle].values.push(0)), /frames and .* values/],
        ["a NaN value", edit((o) => (o.curves[firstMuscle].values[0] = "NaN")), /values must be numbers/],
        ["an infinite value", SerializeMuscleClipToJson(clip).replace(/("values": \[)[^,\]]+/, "$11e999"), /not a finite number/],
        ["a frame off the grid", edit((o) => (o.curves[firstMuscle].frames[0] = 0.5)), /whole frame numbers/],
        ["a frame past the end", edit((o) => (o.curves[firstMuscle].frames[0] = 67)), /within 0..66/],
        ["frames out of order", edit((o) => o.curves["bodyPosition.z"].frames.reverse()), /first key must be on frame 0|must increase/],
        ["a contact past the end", edit((o) => o.contacts.leftFoot.push([60, 70])), /not a \[start, end\] range of frames within 0..66/],
        [
            "contact ranges that overlap",
            edit(
                (o) =>
                    (o.contacts.rightFoot = [
                        [0, 40],
                        [10, 20],
                    ]),
            ),
            /\[10,20\] starts before the previous range ends/,
        ],
        ["an unknown foot", edit((o) => (o.contacts.leftHand = [])), /contacts: unknown key 'leftHand'/],
        ["warnings that are not strings", edit((o) => (o.warnings = [1])), /warnings must be a list of strings/],
        [
            "proportions in a version 1 file",
            edit((o) => ((o.version = 1), dropContactEnds(o), delete o.interpolation, delete o.muscleUnit)),
            /proportions is a version 2 key/,
        ],
        [
            "a hips curve in a version 1 file",
            edit((o) => ((o.version = 1), dropContactEnds(o), delete o.proportions, delete o.interpolation, delete o.muscleUnit)),
            /unknown curve 'hips.position.x' in a version 1 file/,
        ],
        ["a missing hips curve", edit((o) => delete o.curves["hips.turn.y"]), /missing curve 'hips.turn.y'/],
        ["proportions that are not an object", edit((o) => (o.proportions = 1)), /proportions must be an object/],
        ["an unknown proportion", edit((o) => (o.proportions.tailLength = 1)), /proportions: unknown key 'tailLength'/],
        ["a leg length of 0", edit((o) => (o.proportions.legLength = 0)), /proportions.legLength must be a number from 0.05 to 5/],
        ["a foot direction that is not a unit vector", edit((o) => (o.proportions.footDirection = [0, 0, 2])), /footDirection must be a unit vector/],
        ["a foot direction of two numbers", edit((o) => (o.proportions.footDirection = [0, 1])), /footDirection must be \[x, y, z\]/],
        [
            "a thigh share in a version 2 file",
            edit((o) => ((o.version = 2), dropContactEnds(o), delete o.interpolation, delete o.muscleUnit, dropTranslations(o))),
            /proportions.thighShare is a version 3 key, the file says version 2/,
        ],
        [
            "an interpolation in a version 2 file",
            edit((o) => ((o.version = 2), dropContactEnds(o), delete o.proportions.thighShare, delete o.muscleUnit, dropTrunk(o), dropTranslations(o))),
            /interpolation is a version 3 key, the file says version 2/,
        ],
        ["an unknown interpolation", edit((o) => (o.interpolation = "bezier")), /interpolation must be "spline" or "catmull-rom", found "bezier"/],
        ["a thigh share that is not a number", edit((o) => (o.proportions.thighShare = "half")), /proportions.thighShare must be a number$/],
        ["a thigh share of 1", edit((o) => (o.proportions.thighShare = 1)), /proportions.thighShare must be a number from 0.05 to 0.95, found 1/],
        [
            "a trunk in a version 4 file",
            edit((o) => ((o.version = 4), dropContactEnds(o), delete o.muscleUnit)),
            /proportions.trunkLength is a version 5 key, the file says version 4/,
        ],
        [
            "a trunk steady point in a version 4 file",
            edit((o) => ((o.version = 4), dropContactEnds(o), delete o.proportions.trunkLength, delete o.muscleUnit)),
            /proportions.trunkSteadyPoint is a version 5 key, the file says version 4/,
        ],
        [
            "a trunk length without a steady point",
            edit((o) => delete o.proportions.trunkSteadyPoint),
            /proportions.trunkLength is given without proportions.trunkSteadyPoint/,
        ],
        [
            "a trunk steady point without a length",
            edit((o) => delete o.proportions.trunkLength),
            /proportions.trunkSteadyPoint is given without proportions.trunkLength/,
        ],
        ["a trunk length that is not a number", edit((o) => (o.proportions.trunkLength = "long")), /proportions.trunkLength must be a number$/],
        ["a trunk steady point that is not a number", edit((o) => (o.proportions.trunkSteadyPoint = null)), /proportions.trunkSteadyPoint must be a number$/],
        [
            "a trunk length of 0.01",
            edit((o) => (o.proportions.trunkLength = 0.01)),
            /proportions.trunkLength must be a number from 0.05 to 5 \(source scales\), found 0.01$/,
        ],
        [
            "a trunk length of 6",
            edit((o) => (o.proportions.trunkLength = 6)),
            /proportions.trunkLength must be a number from 0.05 to 5 \(source scales\), found 6$/,
        ],
        [
            "a trunk steady point of -0.1",
            edit((o) => (o.proportions.trunkSteadyPoint = -0.1)),
            /proportions.trunkSteadyPoint must be a number from 0 to 1, found -0.1$/,
        ],
        [
            "leg directions in a version 5 file",
            edit((o) => ((o.version = 5), dropContactEnds(o), delete o.muscleUnit)),
            /proportions.thighDirection is a version 6 key, the file says version 5/,
        ],
        [
            "a thigh direction without a shin direction",
            edit((o) => delete o.proportions.shinDirection),
            /proportions.thighDirection is given without proportions.shinDirection \(the source's leg has both or neither\)/,
        ],
        ["a shin direction of two numbers", edit((o) => (o.proportions.shinDirection = [0, -1])), /proportions.shinDirection must be \[x, y, z\]$/],
        [
            "a thigh direction that is not a unit vector",
            edit((o) => (o.proportions.thighDirection = [0, -0.5, 0])),
            /proportions.thighDirection must be a unit vector \[x, y, z\], found \[0, -0.5, 0\]/,
        ],
        [
            "a thigh direction that points up",
            edit((o) => (o.proportions.thighDirection = [0, 1, 0])),
            /proportions.thighDirection must point down \(y at most -0.5: a T-pose leg\), found \[0, 1, 0\]/,
        ],
        [
            "a shin direction level with the ground",
            edit((o) => (o.proportions.shinDirection = [1, 0, 0])),
            /proportions.shinDirection must point down \(y at most -0.5: a T-pose leg\), found \[1, 0, 0\]/,
        ],
        [
            "a trunk steady point of 1.5",
            edit((o) => (o.proportions.trunkSteadyPoint = 1.5)),
            /proportions.trunkSteadyPoint must be a number from 0 to 1, found 1.5$/,
        ],
        [
            "a trunk layout in a version 6 file",
            edit((o) => ((o.version = 6), dropContactEnds(o), delete o.muscleUnit)),
            /proportions.trunkOffsets is a version 7 key, the file says version 6$/,
        ],
        ["a muscle unit in a version 7 file", edit((o) => ((o.version = 7), dropContactEnds(o))), /muscleUnit is a version 8 key, the file says version 7$/],
        ["an unknown muscle unit", edit((o) => (o.muscleUnit = "degrees")), /muscleUnit must be "muscle" or "angle", found "degrees"$/],
        [
            "a trunk layout of 14 numbers",
            edit((o) => o.proportions.trunkOffsets.pop()),
            /proportions.trunkOffsets must be a list of 15 numbers \(x y z of the spine, chest, upper chest, neck and head\), found a list of 14$/,
        ],
        [
            "a trunk layout of 16 numbers",
            edit((o) => o.proportions.trunkOffsets.push(0)),
            /proportions.trunkOffsets must be a list of 15 numbers \(x y z of the spine, chest, upper chest, neck and head\), found a list of 16$/,
        ],
        [
            "a trunk layout that is not a list",
            edit((o) => (o.proportions.trunkOffsets = { spine: [0, 0.1, 0] })),
            /proportions.trunkOffsets must be a list of 15 numbers, found \{"spine":\[0,0.1,0\]\}$/,
        ],
        ["a trunk offset that is a string", edit((o) => (o.proportions.trunkOffsets[3] = "0")), /proportions.trunkOffsets\[3\] must be a number, found "0"$/],
        ["a null trunk offset", edit((o) => (o.proportions.trunkOffsets[7] = null)), /proportions.trunkOffsets\[7\] must be a number, found null$/],
        [
            "a trunk offset out of range",
            edit((o) => (o.proportions.trunkOffsets[13] = -2.01)),
            /proportions.trunkOffsets\[13\] must be a number from -2 to 2 \(source scales\), found -2.01$/,
        ],
        [
            "an infinite trunk offset",
            edit((o) => (o.proportions.trunkOffsets[1] = 12345.5)).replace("12345.5", "1e999"),
            /proportions.trunkOffsets\[1\] must be a number from -2 to 2 \(source scales\), found Infinity$/,
        ],
        [
            "a shoulder layout in a version 8 file",
            edit((o) => ((o.version = 8), dropContactEnds(o))),
            /proportions.shoulderOffsets is a version 9 key, the file says version 8$/,
        ],
        [
            "a shoulder layout of 11 numbers",
            edit((o) => o.proportions.shoulderOffsets.pop()),
            /proportions.shoulderOffsets must be a list of 12 numbers \(x y z of the left shoulder, left upper arm, right shoulder and right upper arm\), found a list of 11$/,
        ],
        [
            "a shoulder layout of 13 numbers",
            edit((o) => o.proportions.shoulderOffsets.push(0)),
            /proportions.shoulderOffsets must be a list of 12 numbers \(x y z of the left shoulder, left upper arm, right shoulder and right upper arm\), found a list of 13$/,
        ],
        [
            "an empty shoulder layout",
            edit((o) => (o.proportions.shoulderOffsets = [])),
            /proportions.shoulderOffsets must be a list of 12 numbers \(.*\), found a list of 0$/,
        ],
        [
            "a shoulder layout that is not a list",
            edit((o) => (o.proportions.shoulderOffsets = { left: [0, 0.1, 0] })),
            /proportions.shoulderOffsets must be a list of 12 numbers, found \{"left":\[0,0.1,0\]\}$/,
        ],
        [
            "a shoulder layout that is a number",
            edit((o) => (o.proportions.shoulderOffsets = 0.1)),
            /proportions.shoulderOffsets must be a list of 12 numbers, found 0.1$/,
        ],
        [
            "a shoulder offset that is a string",
            edit((o) => (o.proportions.shoulderOffsets[3] = "0")),
            /proportions.shoulderOffsets\[3\] must be a number, found "0"$/,
        ],
        ["a null shoulder offset", edit((o) => (o.proportions.shoulderOffsets[8] = null)), /proportions.shoulderOffsets\[8\] must be a number, found null$/],
        [
            "a shoulder offset past 2",
            edit((o) => (o.proportions.shoulderOffsets[10] = 2.01)),
            /proportions.shoulderOffsets\[10\] must be a number from -2 to 2 \(source scales\), found 2.01$/,
        ],
        [
            "a shoulder offset past -2",
            edit((o) => (o.proportions.shoulderOffsets[6] = -2.5)),
            /proportions.shoulderOffsets\[6\] must be a number from -2 to 2 \(source scales\), found -2.5$/,
        ],
        [
            "an infinite shoulder offset",
            edit((o) => (o.proportions.shoulderOffsets[1] = 12345.5)).replace("12345.5", "1e999"),
            /proportions.shoulderOffsets\[1\] must be a number from -2 to 2 \(source scales\), found Infinity$/,
        ],
    ];
    it.each(cases)("JSON: %s gives one clear error naming the file", (_what, text, re) => {
        const e = errorOf(() => ParseMuscleClipJson(text, "bad.muscle.json"));
        expect(e.code).toBe("CLIP_PARSE");
        expect(e.message).toMatch(/^bad\.muscle\.json: /);
        expect(e.message).toMatch(re);
    });

    it("the body position and hips curves are where the layout says", () => {
        expect(MuscleCurveNames[CURVE_BODY_POSITION]).toBe("bodyPosition.x");
        expect(MuscleCurveNames[CURVE_HIPS]).toBe("hips.position.x");
        expect(MuscleCurveNames[CURVE_HIPS + 3]).toBe("hips.turn.x");
        expect(MuscleCurveNames[CURVE_TRANSLATIONS]).toBe("translation.spine.x");
        expect(MUSCLE_CLIP_CURVE_COUNT).toBe(ALL_MUSCLE_COUNT + 7 + 28 + 3 + 6 + 33);
    });
});
