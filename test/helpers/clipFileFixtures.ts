import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    CURVE_TRANSLATIONS,
    MuscleClip,
    MuscleCurveNames,
    SampleCharacters,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
} from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { WithoutProportionKeys, WithProportions } from "./clips.js";
import { errorOf } from "./errors.js";

// What the muscle clip file tests (test/clip/clipFile*.test.ts) share: the sample walk's clip,
// the same with a trunk, trunk layout and shoulder layout of known values, and the edits that
// make older files of them.

export const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[1]));
export const source = new SampleWalkSource(avatar, 2.2, 30);
/**
 * The sample walk's clip without its foot length (version 11, whose own tests are in
 * footLengthFile.test.ts): the clip file tests edit files down to older versions and patch a
 * version 10 file's bytes.
 */
export const clip = WithoutProportionKeys(ConvertRigPosesToMuscleClip(avatar, source, { loop: false }), "footLength");
/**
 * Fifteen trunk offsets of known values (version 7): x y z of a spine, chest, upper chest, neck
 * and head, the neck unmapped (zeros), one -0 (which both formats keep).
 */
export const TRUNK_OFFSETS = [0.0012, 0.0523, 0.0125, -0, 0.1213, -0.0071, 0.0004, 0.1187, -0.0152, 0, 0, 0, 1e-3, 0.1642, 0.0231];
/**
 * Twelve shoulder offsets of known values (version 9): x y z of the left shoulder joint from the
 * chest's, of the left upper-arm joint from the left shoulder's, then the same two on the right;
 * lopsided (the right side is not the left's mirror image, so a mirror shows), one -0 (which both
 * formats keep).
 */
export const SHOULDER_OFFSETS = [-0.0362, 0.1087, -0.0036, -0.1449, -0, -0.0109, 0.0411, 0.1023, 0.0052, 0.1387, 0.0021, -0.0125];
/**
 * The clip with a trunk (version 5), a trunk layout (version 7) and a shoulder layout (version 9)
 * of known values in its proportions, whatever the converter gave it.
 */
export const trunked = withShoulderOffsets(withTrunkOffsets(withTrunk(clip, 0.6180339887498949, 0.7777777777777778), TRUNK_OFFSETS), SHOULDER_OFFSETS);

/** A copy of a clip whose proportions have no leg directions (nor the later trunk and shoulder layouts: as a file before version 6 reads). */
export function withoutLegDirections(c: MuscleClip): MuscleClip {
    return WithoutProportionKeys(c, "thighDirection", "shinDirection", "trunkOffsets", "shoulderOffsets");
}

/** A copy of a clip whose proportions have the given shoulder layout (or none: undefined). */
export function withShoulderOffsets(c: MuscleClip, shoulderOffsets: readonly number[] | undefined): MuscleClip {
    const { proportions } = WithoutProportionKeys(c, "shoulderOffsets");
    return WithProportions(c, { ...proportions!, ...(shoulderOffsets !== undefined ? { shoulderOffsets } : {}) });
}

/** A copy of a clip whose proportions have the given trunk layout (or none: undefined). */
export function withTrunkOffsets(c: MuscleClip, trunkOffsets: readonly number[] | undefined): MuscleClip {
    const { proportions } = WithoutProportionKeys(c, "trunkOffsets");
    return WithProportions(c, { ...proportions!, ...(trunkOffsets !== undefined ? { trunkOffsets } : {}) });
}

/** A copy of a clip whose proportions have the given trunk (or none: both undefined). */
export function withTrunk(c: MuscleClip, trunkLength: number | undefined, trunkSteadyPoint: number | undefined): MuscleClip {
    const { proportions } = WithoutProportionKeys(c, "trunkLength", "trunkSteadyPoint");
    return WithProportions(c, {
        ...proportions!,
        ...(trunkLength !== undefined ? { trunkLength } : {}),
        ...(trunkSteadyPoint !== undefined ? { trunkSteadyPoint } : {}),
    });
}

/** Both writers (JSON and binary) refuse the clip with one `FILE_WRITE` error whose message matches. */
export function expectBothWritersToRefuse(c: MuscleClip, message: RegExp): void {
    for (const write of [SerializeMuscleClipToJson, SerializeMuscleClipToBinary]) {
        const e = errorOf(() => write(c));
        expect(e.code).toBe("FILE_WRITE");
        expect(e.message).toMatch(message);
    }
}

/** The clip as a file before version 8 reads it: the same curves, taken as muscle values. */
export function muscleValued(c: MuscleClip): MuscleClip {
    return new MuscleClip({ ...c, curves: [...c.curves], warnings: [...c.warnings], muscleUnit: "muscle" });
}

/** The clip with every curve's step dropped: its values go into a binary file as float32s. */
export function unstepped(c: MuscleClip): MuscleClip {
    return new MuscleClip({ ...c, curves: c.curves.map((k) => ({ frames: k.frames, values: k.values })), warnings: [...c.warnings] });
}

/** A JSON clip object without the feet's still ends in its contacts (as a file before version 10); the sample walk's clip has none (each an empty list). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON object as parsed, edited as the tests edit it
export function dropContactEnds(o: Record<string, any>): void {
    for (const k of ["leftAnkleStill", "rightAnkleStill", "leftToesStill", "rightToesStill"]) {
        expect(o.contacts[k]).toEqual([]);
        delete o.contacts[k];
    }
}

/** A binary clip less the runs of its feet's still ends (as a file before version 10): the sample walk's clip has none, four empty lists of one byte each at the file's end. */
export function withoutContactEndBytes(bin: Uint8Array): Uint8Array {
    expect(Array.from(bin.subarray(bin.length - 4))).toEqual([0, 0, 0, 0]);
    return bin.slice(0, bin.length - 4);
}

/** A JSON clip object without its translation curves (as a file before version 4). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON object as parsed, edited as the tests edit it
export function dropTranslations(o: Record<string, any>): void {
    for (const c of MuscleCurveNames.slice(CURVE_TRANSLATIONS)) delete o.curves[c];
}

/** A JSON clip object without the source's trunk (version 5), leg directions (version 6), trunk layout (version 7) and shoulder layout (version 9) in its proportions (as a file before version 5). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON object as parsed, edited as the tests edit it
export function dropTrunk(o: Record<string, any>): void {
    delete o.proportions.trunkLength;
    delete o.proportions.trunkSteadyPoint;
    dropLegDirections(o);
}

/** A JSON clip object without the source's leg directions (version 6), trunk layout (version 7) and shoulder layout (version 9) in its proportions (as a file before version 6). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON object as parsed, edited as the tests edit it
export function dropLegDirections(o: Record<string, any>): void {
    delete o.proportions.thighDirection;
    delete o.proportions.shinDirection;
    delete o.proportions.trunkOffsets;
    delete o.proportions.shoulderOffsets;
}
