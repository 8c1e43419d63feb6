import { Muscles } from "../muscle/muscles.js";

/*
 * Why a clip may keep its muscle curves as angles rather than muscle values.
 *
 * A muscle value turns into its angle linearly on each side of 0, by the end of the muscle's range
 * on that side (`MuscleSetup.muscleToRadians`). Where the two ends differ (12 of the 123 muscles:
 * the upper legs' front-back, -90 to 50 degrees; the arms' and shoulders' down-up; the eyes' and
 * two thumb joints') that map bends at 0. A smooth angle that crosses 0 is then a muscle curve with
 * a kink (its slope changes by the ratio of the ends), and each side of the chain rounds it off
 * differently: the reduction's spline through the muscle values misses the kink (0.1 degree off
 * one frame from it on the child's jump, where 0.005 is usual), and decoding the spline's smooth
 * muscle value bends it back at 0, a step in the joint's angular velocity. Every stride of a walk
 * crosses 0 at both hips; the child's jump swings its arms through it: on the CMU skeleton its
 * body jerked 1.33 times as much as the source's (its hands 1.28), 1.24 (1.11) with the curves in
 * angles.
 *
 * In the angle unit a curve holds the muscle's angle over the larger end of its reference range
 * (the humanoid table's, `Muscles`): -1 to 1 as a muscle value is, but as many degrees per unit on
 * both sides of 0, so a curve is as smooth as the motion it came from. The sampler turns it back
 * into muscle values (`HumanPose.muscles` keep their meaning), which decode turns into angles by
 * the same ends: on an avatar with the reference ranges the angle is the curve's, unbent.
 *
 * The unit is the reference table's, whatever the source's own ranges (`muscleRanges`), so that a
 * clip reads alike on every character: a source whose custom range has ends in another ratio than
 * the reference's makes a curve that bends at 0 as muscle values of a lopsided range did (the
 * tolerance still holds, `GetCurveTolerance`).
 */

/** What a clip's muscle curves hold (`MuscleClip.muscleUnit`). */
export type MuscleCurveUnit =
    /** Muscle values (`HumanPose.muscles`, -1 to 1 over each muscle's range): files before version 8, clips built by hand. */
    | "muscle"
    /** Each muscle's angle over the larger end of its reference range (`Muscles`): what the converter writes. */
    | "angle";

/** Per muscle, the angle unit's share of a muscle unit above 0: the range's upper end over its larger end (1 for a symmetric range). */
const ABOVE = Float64Array.from(Muscles, (m) => m.maxDeg / Math.max(m.maxDeg, -m.minDeg));
/** ... and below 0: the lower end's magnitude over the larger end. */
const BELOW = Float64Array.from(Muscles, (m) => -m.minDeg / Math.max(m.maxDeg, -m.minDeg));
/** Their inverses (a multiply per muscle on the per-frame path, not a division). */
const ABOVE_INVERSE = ABOVE.map((x) => 1 / x);
const BELOW_INVERSE = BELOW.map((x) => 1 / x);
/** The muscles whose range is lopsided (the only ones the unit changes: elsewhere both shares are 1). */
const LOPSIDED = Int32Array.from(Muscles.flatMap((m, i) => (m.minDeg !== -m.maxDeg ? [i] : [])));

/**
 * A muscle value in the angle unit (see {@link MuscleCurveUnit}): its angle over the larger end of
 * the muscle's reference range, the same sign, within -1 to 1 when the value is.
 * @param muscle muscle index (`MuscleNames` order)
 * @param value the muscle value
 */
export function MuscleValueToAngleUnit(muscle: number, value: number): number {
    return value * (value >= 0 ? ABOVE[muscle] : BELOW[muscle]);
}

/**
 * The muscle value of an angle-unit value (the inverse of {@link MuscleValueToAngleUnit}).
 * @param muscle muscle index (`MuscleNames` order)
 * @param value the muscle's angle over the larger end of its reference range
 */
export function AngleUnitToMuscleValue(muscle: number, value: number): number {
    return value * (value >= 0 ? ABOVE_INVERSE[muscle] : BELOW_INVERSE[muscle]);
}

/**
 * A muscle's samples in the angle unit (as {@link MuscleValueToAngleUnit} one by one): a new array
 * for a muscle whose range is lopsided, the samples themselves otherwise (where both units are the
 * same), so that the converter copies only the curves the unit changes.
 * @param muscle muscle index (`MuscleNames` order)
 * @param samples the muscle's values, one a frame
 */
export function MuscleSamplesToAngleUnits(muscle: number, samples: Float32Array): Float32Array {
    return ABOVE[muscle] === 1 && BELOW[muscle] === 1 ? samples : samples.map((v) => MuscleValueToAngleUnit(muscle, v));
}

/**
 * The first `ALL_MUSCLE_COUNT` values, angle units, turned into muscle values in place (as
 * {@link AngleUnitToMuscleValue} one by one, over the 12 muscles whose ranges are lopsided: the
 * others' values are the same in both units): the sampler's per-frame form, allocation-free.
 * @param values every muscle's value in angle units, in muscle order (at least `ALL_MUSCLE_COUNT`; the sampler passes `HumanPose.values`), overwritten with the muscle values
 */
export function AngleUnitsToMuscleValuesInPlace(values: Float32Array | Float64Array): void {
    for (let k = 0; k < LOPSIDED.length; k++) {
        const i = LOPSIDED[k];
        const v = values[i];
        values[i] = v * (v >= 0 ? ABOVE_INVERSE[i] : BELOW_INVERSE[i]);
    }
}
