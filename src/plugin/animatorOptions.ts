import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { HumanoidError } from "../errors.js";
import type { HumanBone } from "../humanoid/humanBones.js";
import type { JointLimitBoneSet } from "../humanoid/jointLimitSettings.js";
import type { RootMotionMode } from "../runtime/clipRoot.js";
import { DEFAULT_LIMB_STRETCH, type ProportionMode } from "../runtime/rigSolverSettings.js";

/** Options of a `HumanoidAnimator` (src/plugin/humanoidAnimator.ts). */
export interface IHumanoidAnimatorOptions {
    /** The scene whose frames drive the animator (it registers the plugin there). Without it, call the animator's `update` yourself. */
    scene?: Scene;
    /** What happens to the clips' travel. Default `"in-place"`. */
    rootMotion?: RootMotionMode;
    /** The node `"apply"` moves. Default: the top ancestor of the hips' node (a glTF's `__root__`). */
    rootNode?: TransformNode;
    /**
     * The node whose local space is the rig's space: the root `CreateTransformNodesFromRig` made, so
     * that the character may be moved before the animator is made. Default: for the `nodes` of a
     * `BindRigToTransformNode` binding, the world as it was at the binding, carried along with the
     * node the rig was read under (the character may be moved or turned between the binding and
     * the animator); for any other targets, the world as it is when the animator is made.
     */
    rigSpace?: TransformNode;
    /** Foot IK weight (true = 1). Default true. */
    footIK?: boolean | number;
    /** Hand IK weight (true = 1). Default false. */
    handIK?: boolean | number;
    /** Squash-and-stretch: the most a limb may lengthen, share of its length (0 disables; a near-straight limb may also shorten by up to 2.4%, docs/runtime.md). Default 0.05; a number for all limbs or per limb pair. */
    stretch?:
        | number
        | {
              /** The most a leg may lengthen, share of its length (0 disables). */
              legs?: number;
              /** The most an arm may lengthen, share of its length (0 disables). */
              arms?: number;
          };
    /** Hold feet planted while the clip says they touch the ground. Default true (needs foot IK). */
    footPlanting?: boolean;
    /** Seconds a released foot takes to rejoin the clip's path. Default 0.2. */
    contactBlendSeconds?: number;
    /**
     * How the clip's positions scale to this character: `"legs"` (default) scales stride, foot
     * goals and root travel by the legs and seats the body on them; `"com"` is Mecanim's
     * centre-of-mass scaling (foot heights from the ankle). See docs/runtime.md.
     */
    proportions?: ProportionMode;
    /**
     * Play the clips' translation degrees of freedom (`HumanPose.translations`: spine, chest,
     * neck, head, shoulders, upper arms and upper legs moved by the clip, as Unity's Translation
     * DoF); false plays rotations only, as Mecanim does by default. Default true.
     */
    translationDoF?: boolean;
    /**
     * Joint limits (docs/runtime.md, joint limits), applied after decode and again after IK:
     * `true` (default) the avatar's own set (its `jointLimits.bones`; unless it says otherwise the
     * knees and elbows, which then bend backwards no further than their 5-degree give), `"all"`
     * every bone, `false` or `"none"` none, or a list of bones. The animator's solver's `jointLimits`.
     */
    jointLimits?: boolean | JointLimitBoneSet | readonly (string | HumanBone)[];
}

/**
 * A weight option (`footIK`, `handIK`) as a number in [0, 1]: `true` 1, `false` 0, a number as it is.
 * @param option the option as given
 * @param fallback its default, when not given
 * @param what the option's name, for the error
 * @throws HumanoidError (`BAD_OPTION`) for a number outside [0, 1] or not finite
 */
export function AnimatorWeightOption(option: boolean | number | undefined, fallback: number, what: string): number {
    if (option === undefined) return fallback;
    if (typeof option === "boolean") return option ? 1 : 0;
    if (!Number.isFinite(option) || option < 0 || option > 1)
        throw new HumanoidError("BAD_OPTION", `${what} must be a boolean or a number from 0 to 1 (got ${option})`);
    return option;
}

/**
 * Throws for an option of the wrong kind before anything is built (the options with a value
 * range are checked where they are read): one clear error naming the option, where a wrong kind
 * was taken silently (a string stretch as the default, a negative contact blend) or failed deep
 * inside with a TypeError.
 * @param options the options as given
 * @throws HumanoidError (`BAD_OPTION`) naming the option
 */
export function CheckAnimatorOptions(options: IHumanoidAnimatorOptions): void {
    const bad = (what: string, rule: string, value: unknown): never => {
        throw new HumanoidError("BAD_OPTION", `${what} must be ${rule} (got ${typeof value === "object" ? "an object" : String(value)})`);
    };
    for (const key of ["translationDoF", "footPlanting"] as const) {
        const v = options[key];
        if (v !== undefined && typeof v !== "boolean") bad(key, "true or false", v);
    }
    const blend = options.contactBlendSeconds;
    if (blend !== undefined && !(typeof blend === "number" && Number.isFinite(blend) && blend >= 0))
        bad("contactBlendSeconds", "a finite number of seconds, at least 0", blend);
    const st = options.stretch;
    if (st !== undefined && typeof st !== "number" && (typeof st !== "object" || st === null)) bad("stretch", "a number or { legs, arms }", st);
    for (const key of ["rootNode", "rigSpace"] as const) {
        const v = options[key] as unknown;
        if (v !== undefined && v !== null && typeof (v as TransformNode).computeWorldMatrix !== "function") bad(key, "a Babylon TransformNode", v);
    }
}

/**
 * A stretch option (`stretch`, `stretch.legs`, `stretch.arms`) as a share of the limb's length in
 * [0, 0.5]; `DEFAULT_LIMB_STRETCH` (0.05) when not given.
 * @param v the option as given
 * @param what the option's name, for the error
 * @throws HumanoidError (`BAD_OPTION`) for a number outside [0, 0.5] or not finite
 */
export function AnimatorStretchOption(v: number | undefined, what: string): number {
    if (v === undefined) return DEFAULT_LIMB_STRETCH;
    if (!Number.isFinite(v) || v < 0 || v > 0.5) throw new HumanoidError("BAD_OPTION", `${what} must be a share of the limb's length from 0 to 0.5 (got ${v})`);
    return v;
}
