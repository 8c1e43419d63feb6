import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { GetRigJointLabel, type IRigPose } from "../humanoid/rig.js";
import type { MuscleSetup } from "../muscle/setup.js";
import { TranslationDofSlot } from "../muscle/translationDof.js";

/** An intermediate bone is animated when it turns more than this from its rest, degrees. */
const INTERMEDIATE_ANIMATED_DEG = 1;
/** A bone's translation is animated when it moves more than this from its rest, avatar scales (about 1 mm). */
const TRANSLATION_ANIMATED = 1e-3;

const B = HumanBone;

/** Watches the poses for what muscle space drops: intermediate bones that turn, bones other than the hips that move. */
export function AnimatedJointWatch(avatar: HumanoidAvatar, setup: MuscleSetup): { check(pose: IRigPose): void; warnings(): string[] } {
    const rig = avatar.rig;
    const hips = setup.joint[B.Hips];
    const cosHalf = Math.cos((INTERMEDIATE_ANIMATED_DEG * Math.PI) / 360);
    const moveLimit = TRANSLATION_ANIMATED * setup.scale;
    const intermediates = new Set<number>();
    for (const list of setup.intermediates) if (list) for (const j of list) intermediates.add(j);
    const turning = new Set<number>();
    const moving = new Set<number>();
    // Those between two trunk bones, which the encoder keeps the next trunk joint in place for (`MuscleSetup.trunkChord`).
    const trunkIntermediates = new Set<number>();
    for (const chord of setup.trunkChord) if (chord) for (const j of setup.intermediates[chord.child]) trunkIntermediates.add(j);
    const below: number[] = [];
    for (let j = 0; j < rig.joints.length; j++) if (setup.belowHips[j] && j !== hips) below.push(j);
    const ref = avatar.referencePose;
    let checks = 0;
    return {
        check(pose: IRigPose): void {
            // Every frame for the first hundred, then every fourth: enough to find what moves.
            if (checks++ > 100 && checks % 4) return;
            for (const j of intermediates) {
                if (!turning.has(j) && Math.abs(Quaternion.Dot(pose.rotations[j], ref.rotations[j])) < cosHalf) turning.add(j);
            }
            for (const j of below) {
                // Bones with a translation DoF keep theirs (`TranslationDofBones`).
                if (setup.boneOfJoint[j] >= 0 && TranslationDofSlot[setup.boneOfJoint[j]] >= 0) continue;
                if (!moving.has(j) && Vector3.Distance(pose.positions[j], ref.positions[j]) > moveLimit) moving.add(j);
            }
        },
        warnings(): string[] {
            const out: string[] = [];
            const names = (s: Set<number>): string =>
                [...s]
                    .sort((a, b) => a - b)
                    .map((j) => GetRigJointLabel(rig, j))
                    .join(", ");
            const inTrunk = new Set<number>();
            const elsewhere = new Set<number>();
            for (const j of turning) (trunkIntermediates.has(j) ? inTrunk : elsewhere).add(j);
            if (inTrunk.size) {
                out.push(
                    `intermediate trunk bones are animated and held at their T-pose (the trunk bone above which they hang turns so that the next trunk joint stays where they put it): ${names(inTrunk)}`,
                );
            }
            if (elsewhere.size) {
                out.push(`intermediate bones are animated and held at their T-pose (their turn is folded into the next human bone): ${names(elsewhere)}`);
            }
            if (moving.size) out.push(`translation is animated on bones other than the hips and those with a translation DoF and is dropped: ${names(moving)}`);
            return out;
        },
    };
}
