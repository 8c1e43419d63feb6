import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Vector3CopyToRef } from "../math/hotMath.js";
import { ALL_MUSCLE_COUNT, MuscleMirrors, MUSCLE_COUNT } from "./muscles.js";
import { TRANSLATION_DOF_COUNT, TranslationDofMirrors } from "./translationDof.js";

/** The four IK goals of a {@link HumanPose}, in Unity's AvatarIKGoal order. */
export enum HumanIKGoal {
    /** The left foot's goal (the ankle). */
    LeftFoot = 0,
    /** The right foot's goal (the ankle). */
    RightFoot = 1,
    /** The left hand's goal (the wrist). */
    LeftHand = 2,
    /** The right hand's goal (the wrist). */
    RightHand = 3,
}

/** Number of IK goals (4). */
export const HUMAN_IK_GOAL_COUNT = 4;

/** The goal each goal mirrors to. */
const MIRROR_GOAL: readonly HumanIKGoal[] = [HumanIKGoal.RightFoot, HumanIKGoal.LeftFoot, HumanIKGoal.RightHand, HumanIKGoal.LeftHand];

/**
 * A pose that belongs to no skeleton: 95 normalized muscle values plus the body.
 *
 * Spaces: the **canonical body frame** of the character (X its right, Y up, Z forward, as it stands
 * in its T-pose), lengths divided by the avatar's scale (its T-pose centre-of-mass height above the
 * ground), so every humanoid has `bodyPosition.y = 1` in its T-pose.
 *
 * Mutable and reusable: encode, decode and blending write into an existing pose without allocating.
 */
export class HumanPose {
    /** All 123 muscle values in one array: Unity's 95, then the 28 extra ones. */
    public readonly values = new Float32Array(ALL_MUSCLE_COUNT);
    /** The 95 muscle values (see `Muscles`): 0 is the T-pose, +-1 the ends of each muscle's range. A view into {@link values}. */
    public readonly muscles = this.values.subarray(0, MUSCLE_COUNT);
    /** The 28 extra muscles (side swings of finger digits, toes, nearly straight elbows and knees, and the foot's roll; see `EXTRA_MUSCLE_COUNT`). A view into {@link values}. */
    public readonly extraMuscles = this.values.subarray(MUSCLE_COUNT);
    /** Centre of mass relative to the T-pose ground origin, canonical frame, in avatar scales. */
    public readonly bodyPosition = new Vector3(0, 1, 0);
    /** Body orientation (from hips and shoulders) relative to the T-pose, canonical frame. */
    public readonly bodyRotation = Quaternion.Identity();
    /** Ankles and wrists relative to the body (`bodyRotation^-1 * (p - bodyPosition)`), in avatar scales. */
    public readonly goalPositions: Vector3[] = [new Vector3(), new Vector3(), new Vector3(), new Vector3()];
    /** Feet and hands rotation relative to their T-pose and to the body (`bodyRotation^-1 * delta`). */
    public readonly goalRotations: Quaternion[] = [Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity(), Quaternion.Identity()];
    /**
     * The hips, where the legs hang from (the middle of the two upper-leg joints), relative to the
     * body as the goals are (`bodyRotation^-1 * (p - bodyPosition)`), in avatar scales: with the
     * feet, what places the body on the legs of a character of other proportions
     * (`proportions: "legs"`, docs/runtime.md). Not part of Unity's HumanPose.
     */
    public readonly hipsPosition = new Vector3(0, -0.05, 0);
    /**
     * The hips' (pelvis') rotation from its T-pose relative to the body's (`bodyRotation^-1 * Dc`,
     * canonical frame): what orients the legs' root on a character whose spine differs
     * (`proportions: "legs"`). Not part of Unity's HumanPose.
     */
    public readonly hipsRotation = Quaternion.Identity();
    /**
     * Translation degrees of freedom, one per bone of `TranslationDofBones` (spine, chest, upper
     * chest, neck, head, shoulders, upper arms, upper legs): each joint's offset from where its
     * parent puts it in the T-pose, in its parent bone's frame (canonical axes), in a length of
     * the body at that place (`MuscleSetup.translationUnit`: the hip width for the upper legs, the
     * shoulder width for shoulders and upper arms, the bone's own offset for spine, neck and head);
     * 0 (the default) for clips that only turn their bones. Unity's "Translation DoF".
     */
    public readonly translations: Vector3[] = Array.from({ length: TRANSLATION_DOF_COUNT }, () => new Vector3());

    /** Copies another pose into this one. Returns this. Allocation-free. */
    public copyFrom(other: HumanPose): HumanPose {
        this.values.set(other.values);
        Vector3CopyToRef(other.bodyPosition, this.bodyPosition);
        this.bodyRotation.copyFrom(other.bodyRotation);
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            Vector3CopyToRef(other.goalPositions[g], this.goalPositions[g]);
            this.goalRotations[g].copyFrom(other.goalRotations[g]);
        }
        Vector3CopyToRef(other.hipsPosition, this.hipsPosition);
        this.hipsRotation.copyFrom(other.hipsRotation);
        for (let s = 0; s < TRANSLATION_DOF_COUNT; s++) Vector3CopyToRef(other.translations[s], this.translations[s]);
        return this;
    }

    /** A new pose equal to this one. */
    public clone(): HumanPose {
        return new HumanPose().copyFrom(this);
    }

    /**
     * Blends two poses: muscles and positions linearly, rotations by shortest-path slerp.
     * `result` may be `a` or `b`. Returns `result`.
     * @param amount 0 gives `a`, 1 gives `b`
     */
    public static LerpToRef(a: HumanPose, b: HumanPose, amount: number, result: HumanPose): HumanPose {
        for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
            result.values[i] = a.values[i] + (b.values[i] - a.values[i]) * amount;
        }
        Vector3.LerpToRef(a.bodyPosition, b.bodyPosition, amount, result.bodyPosition);
        Quaternion.SlerpToRef(a.bodyRotation, b.bodyRotation, amount, result.bodyRotation);
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            Vector3.LerpToRef(a.goalPositions[g], b.goalPositions[g], amount, result.goalPositions[g]);
            Quaternion.SlerpToRef(a.goalRotations[g], b.goalRotations[g], amount, result.goalRotations[g]);
        }
        Vector3.LerpToRef(a.hipsPosition, b.hipsPosition, amount, result.hipsPosition);
        Quaternion.SlerpToRef(a.hipsRotation, b.hipsRotation, amount, result.hipsRotation);
        for (let s = 0; s < TRANSLATION_DOF_COUNT; s++) Vector3.LerpToRef(a.translations[s], b.translations[s], amount, result.translations[s]);
        return result;
    }

    /**
     * The mirror image of a pose across the body's middle plane: left and right muscles swap,
     * centre left-right and twist muscles change sign, X positions change sign, rotations mirror.
     * `result` must not be `pose`. Returns `result`.
     */
    public static MirrorToRef(pose: HumanPose, result: HumanPose): HumanPose {
        for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
            const m = MuscleMirrors[i];
            result.values[m.muscle] = m.sign * pose.values[i];
        }
        // Mirror across the plane x = 0: vectors (x, y, z) -> (-x, y, z); rotations (x, y, z, w) -> (x, -y, -z, w).
        result.bodyPosition.set(-pose.bodyPosition.x, pose.bodyPosition.y, pose.bodyPosition.z);
        const r = pose.bodyRotation;
        result.bodyRotation.set(r.x, -r.y, -r.z, r.w);
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            const p = pose.goalPositions[g];
            const q = pose.goalRotations[g];
            result.goalPositions[MIRROR_GOAL[g]].set(-p.x, p.y, p.z);
            result.goalRotations[MIRROR_GOAL[g]].set(q.x, -q.y, -q.z, q.w);
        }
        result.hipsPosition.set(-pose.hipsPosition.x, pose.hipsPosition.y, pose.hipsPosition.z);
        const h = pose.hipsRotation;
        result.hipsRotation.set(h.x, -h.y, -h.z, h.w);
        for (let s = 0; s < TRANSLATION_DOF_COUNT; s++) {
            const t = pose.translations[s];
            result.translations[TranslationDofMirrors[s]].set(-t.x, t.y, t.z);
        }
        return result;
    }
}
