import { MuscleClip } from "../../src/clip/muscleClip.js";
import { type IClipProportions } from "../../src/clip/clipProportions.js";

/** A copy of a clip with other source proportions (its curves, contacts and the rest as they are). */
export function WithProportions(clip: MuscleClip, proportions: IClipProportions | null): MuscleClip {
    return new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], proportions });
}

/** A copy of a clip whose proportions lack the given optional keys (as a file from before them reads). */
export function WithoutProportionKeys(clip: MuscleClip, ...keys: ReadonlyArray<keyof IClipProportions>): MuscleClip {
    const proportions: Record<string, unknown> = { ...clip.proportions! };
    for (const k of keys) delete proportions[k];
    return WithProportions(clip, proportions as unknown as IClipProportions);
}
