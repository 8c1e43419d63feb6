import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    HumanBone,
    MuscleSetup,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SampleCharacters,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
} from "../../src/index.js";
import { CLIP_FOOT_LENGTH_RANGE, CLIP_PROPORTION_FOOT_LENGTH, ClipProportionsToArray, CLIP_PROPORTION_COUNT } from "../../src/clip/clipProportions.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { EditedClipJson, WithProportions, WithoutProportionKeys } from "../helpers/clips.js";
import { errorOf } from "../helpers/errors.js";

// The source's foot length (version 11): what the runtime sets the feet on their soles by
// (src/runtime/footSole.ts). Older files play without it.

const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[1]));
const clip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30), { loop: false });
const setup = MuscleSetup.For(avatar);

describe("the source's foot length in clips and files (version 11)", () => {
    test("the converter keeps the source's ankle-to-toes length over its scale, the mean of both feet", () => {
        const ref = avatar.referenceWorld.positions;
        const length = (foot: HumanBone, s: number): number => ref[avatar.getJoint(foot)].subtract(ref[setup.footTip[s]]).length();
        const expected = (length(HumanBone.LeftFoot, 0) + length(HumanBone.RightFoot, 1)) / 2 / setup.scale;
        expect(expected).toBeGreaterThan(0.05);
        expect(clip.proportions!.footLength).toBeCloseTo(expected, 12);
        expect(ClipProportionsToArray(clip.proportions, new Float64Array(CLIP_PROPORTION_COUNT))[CLIP_PROPORTION_FOOT_LENGTH]).toBe(
            clip.proportions!.footLength,
        );
        expect(
            ClipProportionsToArray(WithoutProportionKeys(clip, "footLength").proportions, new Float64Array(CLIP_PROPORTION_COUNT))[CLIP_PROPORTION_FOOT_LENGTH],
        ).toBeNaN();
    });

    test("both formats keep it exactly, and a clip without it stays without", () => {
        const odd = WithProportions(clip, { ...clip.proportions!, footLength: 0.1234567890123 });
        expect(ParseMuscleClipJson(SerializeMuscleClipToJson(odd), "x.json").proportions!.footLength).toBe(0.1234567890123);
        expect(ParseMuscleClipBinary(SerializeMuscleClipToBinary(odd), "x.muscle.bin").proportions!.footLength).toBe(0.1234567890123);
        const none = WithoutProportionKeys(clip, "footLength");
        expect("footLength" in ParseMuscleClipJson(SerializeMuscleClipToJson(none), "x.json").proportions!).toBe(false);
        expect("footLength" in ParseMuscleClipBinary(SerializeMuscleClipToBinary(none), "x.muscle.bin").proportions!).toBe(false);
        // Without it, the binary file is the version 10 layout less nothing: 8 bytes shorter.
        expect(SerializeMuscleClipToBinary(odd).length - SerializeMuscleClipToBinary(none).length).toBe(8);
    });

    test("a JSON file: the key in a version 10 file, a length out of range or not a number, each one clear error naming the key", () => {
        const edited = (f: (o: { version: number; proportions: Record<string, unknown> }) => void): string => EditedClipJson(clip, f);
        expect(
            errorOf(() =>
                ParseMuscleClipJson(
                    edited((o) => (o.version = 10)),
                    "old.muscle.json",
                ),
            ).message,
        ).toBe("old.muscle.json: proportions.footLength is a version 11 key, the file says version 10");
        expect(
            errorOf(() =>
                ParseMuscleClipJson(
                    edited((o) => (o.proportions.footLength = 1.5)),
                    "big.muscle.json",
                ),
            ).message,
        ).toBe(
            `big.muscle.json: proportions.footLength must be a number from ${CLIP_FOOT_LENGTH_RANGE[0]} to ${CLIP_FOOT_LENGTH_RANGE[1]} (source scales), found 1.5`,
        );
        expect(
            errorOf(() =>
                ParseMuscleClipJson(
                    edited((o) => (o.proportions.footLength = "0.2")),
                    "str.muscle.json",
                ),
            ).message,
        ).toBe("str.muscle.json: proportions.footLength must be a number");
        // A version 10 file without it reads, with no foot length.
        const old = edited((o) => {
            o.version = 10;
            delete o.proportions.footLength;
        });
        expect(ParseMuscleClipJson(old, "old.muscle.json").proportions!.footLength).toBeUndefined();
    });

    test("a binary file: the flag in a version 10 file, or without the proportions, each one clear error", () => {
        const bin = SerializeMuscleClipToBinary(clip);
        const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
        const flags = dv(bin).getUint16(6, true);
        expect(flags & 1024).toBe(1024);
        const old = bin.slice();
        dv(old).setUint16(4, 10, true);
        expect(errorOf(() => ParseMuscleClipBinary(old, "old.muscle.bin")).message).toBe(
            `old.muscle.bin: unknown flags 0x${flags.toString(16)} for version 10`,
        );
        const bare = bin.slice();
        dv(bare).setUint16(6, 1024, true);
        expect(errorOf(() => ParseMuscleClipBinary(bare, "bare.muscle.bin")).message).toBe(
            "bare.muscle.bin: flags: a foot length (bit 10) without the proportions (bit 2)",
        );
        // Writing a length out of range is refused before anything is written.
        const bad = WithProportions(clip, { ...clip.proportions!, footLength: -1 });
        expect(errorOf(() => SerializeMuscleClipToBinary(bad)).message).toMatch(
            /proportions.footLength must be a number from 0.005 to 1 \(source scales\), found -1$/,
        );
    });
});
