import { ALL_MUSCLE_COUNT, MuscleIndexFromName, Muscles } from "../muscle/muscles.js";
import type { MuscleSetup } from "../muscle/setup.js";
import { TranslationDofSlot } from "../muscle/translationDof.js";
import { HumanBone } from "../humanoid/humanBones.js";
import {
    CURVES_PER_GOAL,
    CURVE_BODY_POSITION,
    CURVE_BODY_ROTATION,
    CURVE_GOALS,
    CURVE_HIPS,
    CURVE_ROOT,
    CURVE_TRANSLATIONS,
    MuscleCurveKind,
    MuscleCurveKinds,
} from "./muscleClip.js";

/*
 * How finely the converter keeps each curve: the tolerance of its keyframe reduction, from the
 * angle tolerance, and the curves reduced together (see `ConvertRigPosesToMuscleClip`).
 */

const B = HumanBone;

/**
 * The curves that place the trunk and the head: the spine's, chest's, upper chest's, neck's and
 * head's muscles and translations, the body's position and rotation, the hips' position and
 * turn, and the root (played in place, the body is the body less the root). Their keyframe reduction shares key frames (`ReduceCurveGroup`) when the source's trunk
 * has a steadier point than its hips: mocap's trunk jitters in all of them at once in a way that
 * cancels at the head, and curves reduced each on frames of their own keep different parts of it.
 * On the report's 126 pairs: jerk x0.9915, limb directions x0.972; the child's jump's head onto
 * the CMU skeleton 2.02 -> 1.35 times the source's, the zombie's onto RiggedFigure 2.38 -> 2.13;
 * mocap clips larger (the CMU jump 18% -> 25% of its BVH, the child's jump 33 -> 41 kB).
 * Exported for tests and tools: which curves `IMuscleClipConvertOptions.shareTrunkKeys` keys together.
 */
export const TRUNK_CLIP_CURVES: readonly number[] = Object.freeze([
    ...["Spine", "Chest", "UpperChest"].flatMap((b) => [`${b} Front-Back`, `${b} Left-Right`, `${b} Twist Left-Right`].map((n) => MuscleIndexFromName(n))),
    ...["Neck", "Head"].flatMap((b) => [`${b} Nod Down-Up`, `${b} Tilt Left-Right`, `${b} Turn Left-Right`].map((n) => MuscleIndexFromName(n))),
    ...[0, 1, 2].map((k) => CURVE_BODY_POSITION + k),
    ...[0, 1, 2, 3].map((k) => CURVE_BODY_ROTATION + k),
    ...[0, 1, 2, 3, 4, 5].map((k) => CURVE_HIPS + k),
    ...[B.Spine, B.Chest, B.UpperChest, B.Neck, B.Head].flatMap((b) => [0, 1, 2].map((k) => CURVE_TRANSLATIONS + 3 * TranslationDofSlot[b] + k)),
    // The root (the body on the ground and its turn): in place and applied, the body is played
    // less the root, so the root's keys are the body's too.
    ...[0, 1, 2].map((k) => CURVE_ROOT + k),
]);
/**
 * The curves that place the body: the body's position and turn, the hips' position and turn (from
 * the body) and the root, a part of {@link TRUNK_CLIP_CURVES}. Where the trunk's curves are not
 * keyed together (a source whose hips are its steadiest point: most keyframed clips), these still
 * are, smoothed together and on shared key frames, so that the hips' place in the world (the body
 * plus its turn applied to the hips' offset) stays the source's (unless `shareTrunkKeys` is
 * false, which keys every curve on its own): each smoothed and keyed on its
 * own, their errors did not cancel there. KayKit's Hit_A, whose hips stay still while its centre of
 * mass sways, had its hips moving by up to 1.8 mm at 1 m in the clip (0.2 now), and with foot IK,
 * where the body is seated on the clip's hips, its hit and its fall played on their own mannequin
 * 1.002x and 1.005x the jerk of the exact copy (0.991x and 0.994x now). Keyframed clips gain a few
 * keys (KayKit's files 9-14% more keys, 8-11% more bytes: a placement curve one value held takes
 * the group's keys); mocap, whose trunk's curves share their keys, is unchanged.
 * Exported for tests and tools.
 */
export const PLACEMENT_CLIP_CURVES: readonly number[] = Object.freeze([
    ...[0, 1, 2].map((k) => CURVE_BODY_POSITION + k),
    ...[0, 1, 2, 3].map((k) => CURVE_BODY_ROTATION + k),
    ...[0, 1, 2, 3, 4, 5].map((k) => CURVE_HIPS + k),
    ...[0, 1, 2].map((k) => CURVE_ROOT + k),
]);

/**
 * How much finer than the other positions the curves that place the legs are kept: the foot
 * goals (kept from the hips, so that one curve places a foot under its leg). Limb IK turns the
 * distance between hip and foot into a knee angle, and a nearly straight leg magnifies it (a millimetre of distance is a degree of knee): with these
 * curves at the common tolerance, their reduction error made a knee 8 times jerkier than the
 * source on a smooth walk; at a tenth, 1.5 times (at the price of a tenth more bytes).
 */
const LEG_PLACING_PRECISION = 10;
/** The curves {@link LEG_PLACING_PRECISION} applies to. */
const LEG_PLACING_CURVES: readonly boolean[] = MuscleCurveKinds.map(
    (_, c) => (c >= CURVE_GOALS && c < CURVE_GOALS + 3) || (c >= CURVE_GOALS + CURVES_PER_GOAL && c < CURVE_GOALS + CURVES_PER_GOAL + 3),
);
/**
 * The muscles that shape the legs (the upper and lower legs'), kept as finely as the curves that
 * place them ({@link LEG_PLACING_PRECISION}): with `"legs"` proportions the runtime reads the
 * legs' decoded shape back into where the feet are (`HumanoidLegShape`: what this leg's thigh and
 * shin do to the foot against the source's, and a foot moved up or down to the knee's reach), so
 * a leg muscle's reduction error moved a standing foot as much as a leg as long, turned by it (0.1
 * degree: 1.7 mm on a 1 m leg). Feet that stand still in the source went up and down by tenths of
 * a millimetre: Mixamo's kettlebell swing onto the X Bot, its standing foot 3.4 times the source's
 * jerk, 1.7 with these a tenth; a conversation's (SST) 2.3, 1.5.
 */
const LEG_SHAPING_MUSCLES: readonly boolean[] = MuscleCurveKinds.map(
    (_, c) => c < ALL_MUSCLE_COUNT && [B.LeftUpperLeg, B.RightUpperLeg, B.LeftLowerLeg, B.RightLowerLeg].includes(Muscles[c].bone),
);

/**
 * The reduction tolerance of a curve in its own unit, from the angle tolerance. A muscle curve is
 * in angle units (`MuscleCurveUnit`: the angle over the larger end of the muscle's reference
 * range), and a unit is that many of the source avatar's degrees on a side where its range is the
 * reference's, more or fewer where its own range is wider or narrower: the tolerance is the angle
 * over the most degrees a unit makes on either side, so no muscle angle of the source moves more
 * than the angle (a tenth of it for the muscles that shape the legs, `LEG_SHAPING_MUSCLES`).
 * Positions: the length that subtends the angle one
 * avatar scale away (a tenth of it for the curves that place the legs, `LEG_PLACING_PRECISION`);
 * quaternion components a quarter of the angle in radians (an error e per component turns a unit
 * quaternion by at most 4e); the root yaw the angle itself.
 * @param setup the source avatar's muscle setup (its muscle ranges)
 * @param curve curve index (`MuscleCurveNames` order)
 * @param toleranceDeg the reduction tolerance, degrees
 */
export function GetCurveTolerance(setup: MuscleSetup, curve: number, toleranceDeg: number): number {
    const rad = (toleranceDeg * Math.PI) / 180;
    switch (MuscleCurveKinds[curve]) {
        case MuscleCurveKind.Muscle: {
            // An angle unit is `larger` reference degrees; on the source, a side's degrees scale by its range over the reference's.
            const ref = Muscles[curve];
            const larger = Math.max(ref.maxDeg, -ref.minDeg);
            const widest = Math.max(setup.maxDeg[curve] / ref.maxDeg, setup.minDeg[curve] / ref.minDeg);
            return toleranceDeg / (larger * widest) / (LEG_SHAPING_MUSCLES[curve] ? LEG_PLACING_PRECISION : 1);
        }
        case MuscleCurveKind.Position:
            return LEG_PLACING_CURVES[curve] ? rad / LEG_PLACING_PRECISION : rad;
        case MuscleCurveKind.Rotation:
            return rad / 4;
        default:
            return rad;
    }
}
