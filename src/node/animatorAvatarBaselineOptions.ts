/**
 * The AnimatorAvatar baseline's options and result: which root fix and rest poses Babylon's
 * retargeting is asked for (and their defaults), the options of `RetargetWithAnimatorAvatarAsync`
 * and the recording it returns.
 */
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import type { HumanBone } from "../humanoid/humanBones.js";

/**
 * Which of `retargetAnimationGroup`'s root fixes the baseline asks for.
 * - `"none"`: `fixRootPosition: false`. The target's hips take the source's hips motion as a world
 *   transform applied to the target's rest, unscaled: strides keep the source's length, and a source
 *   whose rest has the hips at the origin (a CMU BVH) lifts the target by its hips height and swings
 *   it about that point.
 * - `"rootPosition"`: `fixRootPosition: true`, with the source's hips as `rootNodeName` and its
 *   left foot as `groundReferenceNodeName`: the target's hips go to their rest position plus the
 *   source's hips motion scaled by the ratio of the hips heights above the left foot at rest
 *   (target over source).
 * - `"rootPositionAndGround"`: also `fixGroundReference: true`: every frame, the hips are moved
 *   vertically so that the target's left foot is as high as the source's.
 *
 * The vertical axis is given as Y (rig space is Y-up); left to guess, Babylon takes the largest
 * component of hips minus foot at rest, which is X for a BVH whose zero pose has the legs along +X.
 */
export type AnimatorAvatarRootFix = "none" | "rootPosition" | "rootPositionAndGround";

/**
 * The root fix used by default, `"rootPositionAndGround"`: the fairest to Babylon. Measured on
 * the CMU, Bandai and Mixamo walks onto the X Bot, KayKit mannequin, RiggedFigure and VRM
 * skeleton: scaling the root motion makes feet slide 2 to 13 times less on the characters whose
 * proportions differ most (mannequin, RiggedFigure), the same on the X Bot, up to 1.8 times more on
 * the VRM (its hips joint sits below its thighs, so the hips-height ratio undershoots the leg ratio). The
 * ground fix only moves the body vertically, so it changes no horizontal drift, and it is what
 * puts the feet on the ground at all when the source's rest has its hips at the origin (CMU).
 */
export const DEFAULT_ANIMATOR_AVATAR_ROOT_FIX: AnimatorAvatarRootFix = "rootPositionAndGround";

/**
 * The rest poses Babylon transfers between (it moves each target bone by its source bone's world
 * rotation away from the source's rest, applied to the target's rest).
 * - `"file"`: the rests the files have (a glTF's node transforms, a BVH's zero pose with the hips
 *   at their OFFSET): Babylon as its users get it. A rest-pose difference (A-pose against T-pose,
 *   a BVH zero pose with every bone along +X) stays in every frame.
 * - `"tPose"`: source and target are both put in their avatars' reference T-poses first (this
 *   library's T-pose; the target's skeleton takes it as its rest), so Babylon transfers T-pose to
 *   T-pose: its method measured without the rest-pose handling it lacks.
 */
export type AnimatorAvatarRestPose = "file" | "tPose";

/**
 * The rest poses used by default, `"tPose"`: the fairest to Babylon, whose method assumes matching
 * rests. With the files' rests, a BVH zero pose that is no T-pose ruins every frame (the Bandai
 * files', every bone along +X: feet slide 20 leg lengths a second) and the CMU zero pose (legs
 * apart) makes feet slide 2.5 times more on the X Bot. Use `"file"` for what Babylon's users get.
 */
export const DEFAULT_ANIMATOR_AVATAR_REST_POSE: AnimatorAvatarRestPose = "tPose";

/** Options of {@link RetargetWithAnimatorAvatarAsync}. */
export interface IAnimatorAvatarBaselineOptions {
    /** For glTF sources: the name of the AnimationGroup to retarget. Default: the first. */
    clip?: string;
    /** Frames per second of the recorded grid. Default: the source's own rate (a BVH's 1 / Frame Time, a glTF clip's key rate). */
    frameRate?: number;
    /**
     * Where the grid starts in the clip, seconds from its start (a muscle clip's
     * `sourceStartSeconds`, so that both record the same frames). Default 0.
     */
    startSeconds?: number;
    /** The most frames to record (a muscle clip's `frameCount`, where its conversion left a held pose out at the end). Default: to the clip's end. */
    frameCount?: number;
    /** Root fix to ask `retargetAnimationGroup` for. Default {@link DEFAULT_ANIMATOR_AVATAR_ROOT_FIX}. */
    rootFix?: AnimatorAvatarRootFix;
    /** Rest poses to transfer between. Default {@link DEFAULT_ANIMATOR_AVATAR_REST_POSE}. */
    restPose?: AnimatorAvatarRestPose;
    /**
     * The fronts of the target's feet that end at their ankles, in the feet's own frames, to record
     * (`footFronts`; `FootFrontOffsets` of the avatar the recording is measured on, whose T-pose may
     * be another than the default this baseline builds). Default: the baseline's own avatar's.
     */
    footFrontOffsets?: readonly (Vector3 | null)[];
}

/** Babylon's retargeting of one clip onto one character, recorded on a fixed grid. */
export interface IBaselineRetarget {
    /** The source file, as given. */
    readonly sourceFile: string;
    /** The target file, as given. */
    readonly targetFile: string;
    /** The clip's name (the BVH file's base name, or the AnimationGroup's name). */
    readonly clipName: string;
    /** Frames per second of the recording. */
    readonly frameRate: number;
    /**
     * Frames recorded: frame `f` is the clip at `min(start + f / frameRate, durationSeconds)`
     * seconds, `start` the option's `startSeconds` (the muscle conversion's grid for the same rate).
     */
    readonly frameCount: number;
    /** The source clip's length, seconds. */
    readonly durationSeconds: number;
    /** The source skeleton's avatar (its bone map chose the node names Babylon was given). */
    readonly sourceAvatar: HumanoidAvatar;
    /** The target character's avatar: its rig's joints are the ones recorded (feet, leg lengths...). */
    readonly targetAvatar: HumanoidAvatar;
    /**
     * Per frame, the world position of every joint of `targetAvatar.rig` (3 floats per joint, in the
     * rig's joint order), metres, rig space (= Babylon world positions: the glTF loader's handedness
     * mirror changes orientations, not where points are).
     */
    readonly jointWorldPositions: Float32Array[];
    /**
     * Per frame, where the fronts of the target's feet that end at their ankles are (6 floats, the
     * left's then the right's, as {@link jointWorldPositions}; NaN for a foot without one; see
     * `FootFrontOffsets`, {@link IAnimatorAvatarBaselineOptions.footFrontOffsets}); undefined when
     * no foot of the target has such a front. Followed by child nodes under the target's feet,
     * which {@link dispose} takes away with the rest.
     */
    readonly footFronts?: Float32Array[];
    /** The `mapNodeNames` given to Babylon: source node name -> target node name. */
    readonly mapNodeNames: ReadonlyMap<string, string>;
    /** Human bones mapped on both avatars, whose source node is in `mapNodeNames`. */
    readonly mappedBones: readonly HumanBone[];
    /** Tracks (targeted animations) of the source group and of Babylon's retargeted group. */
    readonly trackCounts: {
        /** Targeted animations of the source group. */
        readonly source: number;
        /** Targeted animations of the group Babylon's retarget made (tracks it could not match are dropped). */
        readonly retargeted: number;
    };
    /** The root fix used. */
    readonly rootFix: AnimatorAvatarRootFix;
    /** The rest poses used. */
    readonly restPose: AnimatorAvatarRestPose;
    /** What went wrong or was worked around: Babylon's own warnings (summarized), skeletons made for it, bones it cannot drive. */
    readonly warnings: readonly string[];
    /** The scene that holds both characters and both groups (NullEngine); alive until `dispose`. */
    readonly scene: Scene;
    /** Babylon's retargeted group, on the target's nodes. */
    readonly group: AnimationGroup;
    /** Frees the engines and scenes. */
    dispose(): void;
}
