import { HUMAN_IK_GOAL_COUNT } from "../muscle/humanPose.js";
import { MirrorContacts } from "../muscle/mirror.js";
import { ALL_MUSCLE_COUNT, MuscleMirrors } from "../muscle/muscles.js";
import {
    CURVE_BODY_POSITION,
    CURVE_BODY_ROTATION,
    CURVE_GOALS,
    CURVE_HIPS,
    CURVE_ROOT,
    CURVE_TRANSLATIONS,
    CURVES_PER_GOAL,
    MuscleClip,
} from "./muscleClip.js";
import { type IMuscleCurve } from "./curve.js";
import { MirrorShoulderOffsets, type IClipProportions } from "./clipProportions.js";
import { TRANSLATION_DOF_COUNT, TranslationDofMirrors } from "../muscle/translationDof.js";

/** The goal each goal mirrors to (HumanIKGoal order: left foot, right foot, left hand, right hand). */
const MIRROR_GOAL = [1, 0, 3, 2];

/** A curve with every value times -1 (its keys and step shared otherwise). */
function negated(c: IMuscleCurve): IMuscleCurve {
    return { frames: c.frames, values: c.values.map((v) => -v), ...(c.step !== undefined ? { step: c.step } : {}) };
}

/**
 * The mirror image of a clip across the body's middle plane, in muscle space (exactly, curve by
 * curve, no resampling): left and right muscles swap and the centre bones' sideways and twist
 * muscles change sign (as `HumanPose.MirrorToRef`), the body's position and rotation, the hips,
 * the goals (left and right swapped) and the root's travel and turn (`x -> -x`, `yaw -> -yaw`)
 * are mirrored, and the foot contacts swap (in either `muscleUnit`: the muscles that change sign
 * have ranges symmetric about 0, and mirror pairs the same ranges); of the source's proportions,
 * the trunk's layout is turned over (x negated) and the shoulders' swap sides as well. Mirroring
 * twice gives the clip's curves and proportions back. A new clip; the input is not changed. Its
 * `source` says it is mirrored.
 */
export function MirrorMuscleClip(clip: MuscleClip): MuscleClip {
    const c = clip.curves;
    const curves: IMuscleCurve[] = [...c];
    for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
        const m = MuscleMirrors[i];
        curves[m.muscle] = m.sign < 0 ? negated(c[i]) : c[i];
    }
    // Positions (x, y, z): x changes sign; rotations (x, y, z, w): y and z do.
    curves[CURVE_BODY_POSITION] = negated(c[CURVE_BODY_POSITION]);
    curves[CURVE_BODY_ROTATION + 1] = negated(c[CURVE_BODY_ROTATION + 1]);
    curves[CURVE_BODY_ROTATION + 2] = negated(c[CURVE_BODY_ROTATION + 2]);
    for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
        const from = CURVE_GOALS + g * CURVES_PER_GOAL;
        const to = CURVE_GOALS + MIRROR_GOAL[g] * CURVES_PER_GOAL;
        curves[to] = negated(c[from]);
        curves[to + 1] = c[from + 1];
        curves[to + 2] = c[from + 2];
        curves[to + 3] = c[from + 3];
        curves[to + 4] = negated(c[from + 4]);
        curves[to + 5] = negated(c[from + 5]);
        curves[to + 6] = c[from + 6];
    }
    // Root: x and yaw change sign.
    curves[CURVE_ROOT] = negated(c[CURVE_ROOT]);
    curves[CURVE_ROOT + 2] = negated(c[CURVE_ROOT + 2]);
    // Hips: position x; the turn (a rotation vector) mirrors as a rotation: y and z.
    if (c.length > CURVE_HIPS) {
        curves[CURVE_HIPS] = negated(c[CURVE_HIPS]);
        curves[CURVE_HIPS + 4] = negated(c[CURVE_HIPS + 4]);
        curves[CURVE_HIPS + 5] = negated(c[CURVE_HIPS + 5]);
    }
    // Translations: x changes sign, left and right bones swap.
    if (c.length > CURVE_TRANSLATIONS) {
        for (let t = 0; t < TRANSLATION_DOF_COUNT; t++) {
            const from = CURVE_TRANSLATIONS + 3 * t;
            const to = CURVE_TRANSLATIONS + 3 * TranslationDofMirrors[t];
            curves[to] = negated(c[from]);
            curves[to + 1] = c[from + 1];
            curves[to + 2] = c[from + 2];
        }
    }
    return new MuscleClip({
        name: clip.name,
        source: clip.source.endsWith(" (mirrored)") ? clip.source.slice(0, -" (mirrored)".length) : `${clip.source} (mirrored)`,
        frameRate: clip.frameRate,
        frameCount: clip.frameCount,
        loop: clip.loop,
        curves,
        contacts: clip.contacts.map(MirrorContacts),
        toleranceDeg: clip.toleranceDeg,
        warnings: [...clip.warnings],
        groundHeight: clip.groundHeight,
        sourceStartSeconds: clip.sourceStartSeconds,
        // The trunk's and the shoulders' layouts as their mirror images (x turned over, the sides
        // swapped); the rest describes the left side, which the mirror's right is the image of.
        proportions: clip.proportions ? mirrorProportions(clip.proportions) : clip.proportions,
        interpolation: clip.interpolation,
        muscleUnit: clip.muscleUnit,
    });
}

/** A clip's source proportions as its mirror image's: the trunk's layout with x turned over, the shoulders' with x turned over and the sides swapped. */
function mirrorProportions(p: IClipProportions): IClipProportions {
    const { trunkOffsets, shoulderOffsets } = p;
    return {
        ...p,
        ...(trunkOffsets ? { trunkOffsets: trunkOffsets.map((x, i) => (i % 3 === 0 ? -x : x)) } : {}),
        ...(shoulderOffsets ? { shoulderOffsets: MirrorShoulderOffsets(shoulderOffsets) } : {}),
    };
}
