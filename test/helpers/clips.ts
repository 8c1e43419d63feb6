import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { MuscleClip } from "../../src/clip/muscleClip.js";
import { ClipProportionsToArray, type IClipProportions } from "../../src/clip/clipProportions.js";
import { MuscleClipSampler } from "../../src/clip/clipSampler.js";
import { ContactRuns } from "../../src/clip/clipFileRules.js";
import { SerializeMuscleClipToJson } from "../../src/clip/clipFileJson.js";
import { HumanPose } from "../../src/muscle/humanPose.js";
import type { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";

/** A clip's JSON file text after `edit` changed its parsed object (files no writer makes, for the readers' tests). */
export function EditedClipJson<T = Record<string, unknown>>(clip: MuscleClip, edit: (o: T) => void): string {
    const o = JSON.parse(SerializeMuscleClipToJson(clip)) as T;
    edit(o);
    return JSON.stringify(o);
}

/** A copy of a clip with other source proportions (its curves, contacts and the rest as they are). */
export function WithProportions(clip: MuscleClip, proportions: IClipProportions | null): MuscleClip {
    return new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], proportions });
}

/**
 * A copy of a clip whose every contact has still ends (`FootContact.LeftAnkleStill`...): the ankle
 * over its first half, the toes over the rest (the sample walk's clip, made by a keyframed walk,
 * has none), so that what carries the ends has some to carry.
 */
export function WithContactEnds(clip: MuscleClip): MuscleClip {
    const contacts = clip.contacts.slice();
    for (let s = 0; s < 2; s++) {
        for (const [f, e] of ContactRuns(clip.contacts, 1 << s)) {
            for (let g = f; g <= e; g++) contacts[g] |= g - f < (e - f + 1) / 2 ? 4 << s : 16 << s;
        }
    }
    return new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], contacts });
}

/** A copy of a clip whose proportions lack the given optional keys (as a file from before them reads). */
export function WithoutProportionKeys(clip: MuscleClip, ...keys: ReadonlyArray<keyof IClipProportions>): MuscleClip {
    const proportions: Record<string, unknown> = { ...clip.proportions! };
    for (const k of keys) delete proportions[k];
    return WithProportions(clip, proportions as unknown as IClipProportions);
}

/**
 * Decodes every frame of a clip with a solver as the player does (the clip's source proportions
 * given, its floor put on the ground) and hands over, per frame and foot, the foot goal less where
 * the decoded leg puts the foot (rig space, metres; `offset` is reused between calls).
 */
export function ForEachFootGoalOffset(clip: MuscleClip, solver: HumanoidRigSolver, visit: (offset: Vector3, foot: number, frame: number) => void): void {
    ClipProportionsToArray(clip.proportions, solver.sourceProportions);
    const sampler = new MuscleClipSampler(clip);
    const pose = new HumanPose();
    const goal = new Vector3();
    const rotation = new Quaternion();
    for (let f = 0; f < clip.frameCount; f++) {
        sampler.sampleFrameToRef(f, pose);
        pose.bodyPosition.y -= clip.groundHeight;
        solver.decode(pose);
        for (let g = 0; g < 2; g++) {
            solver.goalToRig(g, goal, rotation);
            visit(goal.subtractInPlace(solver.positions[solver.ik.endJoint(g)]), g, f);
        }
    }
}
