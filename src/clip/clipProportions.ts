/**
 * What a clip keeps of its source character's proportions, in the source's avatar scales (its
 * T-pose centre-of-mass height): what the runtime needs to scale stride, foot goals and root travel
 * by the legs of the character it plays on (`proportions: "legs"`, docs/runtime.md).
 */
export interface IClipProportions {
    /** The source's leg length (upper plus lower leg, T-pose, mean of both) over its scale. */
    readonly legLength: number;
    /** The source's T-pose ankle height above its ground over its scale. */
    readonly ankleHeight: number;
    /** The source's T-pose distance between its two upper-leg joints over its scale. */
    readonly hipWidth: number;
    /**
     * The direction the source's left foot points in its T-pose (heel or ankle to toes: its twist
     * axis), canonical frame, unit; the right foot's is its mirror image. Foot goal rotations are
     * carried from this foot onto the character's (a foot that rolls about its own axis on the
     * source rolls about the character's).
     */
    readonly footDirection: readonly [number, number, number];
    /**
     * The source's upper leg over its whole leg (upper plus lower, T-pose, mean of both), 0 to 1;
     * absent in files before version 3. With it the runtime places a foot where the character's
     * own leg, bent as the source's, puts it (the knee then keeps the source's bend however the
     * thigh and shin share the leg); without it the foot goes where the source's foot went.
     */
    readonly thighShare?: number;
    /**
     * The source's T-pose distance from the middle of its upper-leg joints to its head (its neck
     * without one) over its scale; with {@link trunkSteadyPoint}, absent in files before version 5.
     * With both the runtime keeps the trunk's steadiest point moving as the source's over mocap's
     * jitter where the character's trunk is longer or shorter than the source's (docs/runtime.md).
     */
    readonly trunkLength?: number;
    /**
     * How far up its trunk the source's steadiest point is, from the middle of its hip joints (0)
     * to its trunk's top (1): the point of that segment whose path has the least third
     * differences over the clip (mocap: about 0.5 to 0.9, its hips jitter; a keyframed clip whose
     * hips move smoothly: 0). Given with {@link trunkLength}.
     */
    readonly trunkSteadyPoint?: number;
    /**
     * The direction of the source's left upper leg in its T-pose (hip joint to knee), canonical
     * frame, unit, the mean of its left one and its right one's mirror image; with
     * {@link shinDirection}, absent in files before version 6. With both the runtime places a foot
     * where the character's own leg, turned from its T-pose as the source's, puts it, however the
     * two T-poses lean the leg (a leg that leans forward in its T-pose would otherwise be made
     * straight under a source whose legs hang straight, and be drawn a degree or more off).
     */
    readonly thighDirection?: readonly [number, number, number];
    /** The direction of the source's left lower leg in its T-pose (knee to ankle), as {@link thighDirection}; given with it. */
    readonly shinDirection?: readonly [number, number, number];
    /**
     * The source's trunk as its T-pose lays it out: 15 numbers, x y z of each of its spine, chest,
     * upper chest, neck and head joints from the one before (the spine's from the middle of its
     * upper-leg joints), canonical frame, over its scale; zeros for a chest or upper chest it does
     * not map, and without a neck the head's offset in the neck's place and zeros in the head's
     * (`MuscleSetup.clipTrunkOffsets`). Absent in files before version 7. With it the runtime turns
     * each segment of the character's trunk as the source's trunk turns over the same share of its
     * length, so that a trunk whose joints sit elsewhere along it bends as the source's does and
     * mocap's spine jitter cancels as it did on the source (docs/runtime.md); without it each
     * bone turns as the source's bone of the same name.
     */
    readonly trunkOffsets?: readonly number[];
    /**
     * The source's shoulders as its T-pose lays them out: 12 numbers, x y z of its left shoulder
     * joint from the joint of the bone it hangs from (its chest or upper chest), of its left
     * upper-arm joint from its left shoulder joint, then the same two of its right side; canonical
     * frame, over its scale (`MuscleSetup.clipShoulderOffsets`). Absent in files before version 9, and for a
     * source that does not map both shoulders. With it the line between the character's
     * upper-arm joints turns about its trunk as the source's did, by its shoulders or, without
     * them, the bone its arms hang from (docs/runtime.md, the shoulders).
     */
    readonly shoulderOffsets?: readonly number[];
    /**
     * The length of the source's foot in its T-pose, over its scale: from its ankle joint to its
     * toes joint (or, without toes, the foot's own tip joint; for a foot that ends at its ankle, the
     * ball of its foot read from its surface, `MuscleSetup.footFront`), the mean of both feet. Absent in
     * files before version 11 and for a source without a foot's front. With it the runtime sets
     * each foot on the ground by the lower of its ankle and its front, as the source's stood
     * (docs/runtime.md, the feet's soles): a character whose foot is shorter than the source's,
     * for its leg, goes down as the source stands on tiptoe, so that its front stands as near the
     * floor as the source's did.
     */
    readonly footLength?: number;
}

/** How many numbers {@link IClipProportions.trunkOffsets} holds: x y z of the spine, chest, upper chest, neck and head. */
export const CLIP_TRUNK_OFFSET_COUNT = 15;
/** The most any of {@link IClipProportions.trunkOffsets} may be in magnitude (source scales): no humanoid's trunk joint is further from the one before. */
export const CLIP_TRUNK_OFFSET_MAX = 2;

/** The thigh share a clip may give ({@link IClipProportions.thighShare}): no humanoid leg is outside it; the converter leaves the share out otherwise. */
export const CLIP_THIGH_SHARE_RANGE = [0.05, 0.95] as const;

/** The source's foot length over its scale a clip may give ({@link IClipProportions.footLength}): no humanoid's foot is outside it; the converter leaves the length out otherwise. */
export const CLIP_FOOT_LENGTH_RANGE = [0.005, 1] as const;

/** The source's trunk length over its scale a clip may give ({@link IClipProportions.trunkLength}): no humanoid is outside it; the converter leaves the trunk out otherwise. */
export const CLIP_TRUNK_LENGTH_RANGE = [0.05, 5] as const;

/**
 * The most a clip's T-pose leg direction ({@link IClipProportions.thighDirection}, `shinDirection`)
 * may point away from straight down, as its y component's bound (-0.5: 60 degrees): no humanoid's
 * T-pose leg is outside it; the converter leaves the directions out otherwise.
 */
export const CLIP_LEG_DIRECTION_MAX_Y = -0.5;

/**
 * The shoulder layout ({@link IClipProportions.shoulderOffsets}) of the source's mirror image: each
 * side's numbers are the other side's with x turned over.
 */
export function MirrorShoulderOffsets(offsets: readonly number[]): number[] {
    const half = CLIP_SHOULDER_OFFSET_COUNT / 2;
    return Array.from({ length: CLIP_SHOULDER_OFFSET_COUNT }, (_, i) => {
        const x = offsets[(i + half) % CLIP_SHOULDER_OFFSET_COUNT];
        return i % 3 === 0 ? -x : x;
    });
}

/** Length of the array form of {@link IClipProportions} ({@link ClipProportionsToArray}). */
export const CLIP_PROPORTION_COUNT = 45;
/** Where {@link IClipProportions.trunkOffsets} starts in the array form ({@link ClipProportionsToArray}). */
export const CLIP_PROPORTION_TRUNK_OFFSETS = 15;
/** Where {@link IClipProportions.shoulderOffsets} starts in the array form ({@link ClipProportionsToArray}). */
export const CLIP_PROPORTION_SHOULDER_OFFSETS = 30;
/** How many numbers {@link IClipProportions.shoulderOffsets} holds: x y z of each side's shoulder joint and upper-arm joint from the one before. */
export const CLIP_SHOULDER_OFFSET_COUNT = 12;
/**
 * Where the array form ({@link ClipProportionsToArray}) gives the share of the pose that comes
 * from clips with a shoulder layout: 1 for a clip with one, NaN without; a layer's blend of clips
 * gives their weights' share (`BlendLayerProportionsToRef`), which eases decode's shoulder step in
 * and out over a cross-fade.
 */
export const CLIP_PROPORTION_SHOULDER_SHARE = CLIP_PROPORTION_SHOULDER_OFFSETS + CLIP_SHOULDER_OFFSET_COUNT;
/** Where the array form ({@link ClipProportionsToArray}) gives {@link IClipProportions.footLength}. */
export const CLIP_PROPORTION_FOOT_LENGTH = CLIP_PROPORTION_SHOULDER_SHARE + 1;
/**
 * Where the array form ({@link ClipProportionsToArray}) gives the share of the pose that comes
 * from clips with a foot length: 1 for a clip with one, NaN without; a layer's blend of clips
 * gives their weights' share (`BlendLayerProportionsToRef`), which eases the feet's soles in and
 * out over a cross-fade with a file before version 11.
 */
export const CLIP_PROPORTION_FOOT_SHARE = CLIP_PROPORTION_FOOT_LENGTH + 1;

/**
 * A clip's proportions as numbers, for the per-frame path: [0] leg length, [1] ankle height,
 * [2] hip width, [3..5] foot direction, [6] thigh share, [7] trunk length, [8] trunk steady point,
 * [9..11] thigh direction, [12..14] shin direction, [15..29] trunk offsets, [30..41] shoulder offsets,
 * [42] 1 with shoulder offsets (a blend's share of them, see {@link CLIP_PROPORTION_SHOULDER_SHARE}), [43] foot length, [44] 1 with a foot length (a blend's share of them, see {@link CLIP_PROPORTION_FOOT_SHARE}) (NaN when absent; see
 * {@link IClipProportions}); all NaN when `proportions` is null. Allocation-free. Returns `out`.
 */
export function ClipProportionsToArray(proportions: IClipProportions | null, out: Float64Array): Float64Array {
    if (!proportions) {
        for (let i = 0; i < CLIP_PROPORTION_COUNT; i++) out[i] = NaN;
        return out;
    }
    out[0] = proportions.legLength;
    out[1] = proportions.ankleHeight;
    out[2] = proportions.hipWidth;
    out[3] = proportions.footDirection[0];
    out[4] = proportions.footDirection[1];
    out[5] = proportions.footDirection[2];
    out[6] = proportions.thighShare ?? NaN;
    out[7] = proportions.trunkLength ?? NaN;
    out[8] = proportions.trunkSteadyPoint ?? NaN;
    const thigh = proportions.thighDirection;
    const shin = proportions.shinDirection;
    for (let i = 0; i < 3; i++) {
        out[9 + i] = thigh && shin ? thigh[i] : NaN;
        out[12 + i] = thigh && shin ? shin[i] : NaN;
    }
    const trunk = proportions.trunkOffsets;
    for (let i = 0; i < CLIP_TRUNK_OFFSET_COUNT; i++)
        out[CLIP_PROPORTION_TRUNK_OFFSETS + i] = trunk && trunk.length === CLIP_TRUNK_OFFSET_COUNT ? trunk[i] : NaN;
    const shoulders = proportions.shoulderOffsets;
    const shouldered = !!shoulders && shoulders.length === CLIP_SHOULDER_OFFSET_COUNT;
    for (let i = 0; i < CLIP_SHOULDER_OFFSET_COUNT; i++) out[CLIP_PROPORTION_SHOULDER_OFFSETS + i] = shouldered ? shoulders[i] : NaN;
    out[CLIP_PROPORTION_SHOULDER_SHARE] = shouldered ? 1 : NaN;
    out[CLIP_PROPORTION_FOOT_LENGTH] = proportions.footLength ?? NaN;
    out[CLIP_PROPORTION_FOOT_SHARE] = proportions.footLength !== undefined ? 1 : NaN;
    return out;
}

/** The source's layouts within an array form of {@link IClipProportions}, as views (see {@link ClipLayoutViews}). */
export interface IClipLayoutViews {
    /** The trunk's layout ({@link CLIP_TRUNK_OFFSET_COUNT} numbers from {@link CLIP_PROPORTION_TRUNK_OFFSETS}): decode's `sourceTrunk`. */
    readonly trunk: Float64Array;
    /** The shoulders' layout and its share ({@link CLIP_PROPORTION_SHOULDER_OFFSETS} to {@link CLIP_PROPORTION_SHOULDER_SHARE}): decode's `sourceShoulders`. */
    readonly shoulders: Float64Array;
}

/**
 * Views of the trunk and shoulder layouts within `all`, an array form of {@link IClipProportions}
 * ({@link ClipProportionsToArray}, {@link CLIP_PROPORTION_COUNT} numbers): what `DecodeHumanPose`
 * takes as the source's trunk and shoulders, as the animator gives them. NaN layouts are skipped by
 * decode. The views share `all`'s memory (made once; they follow its changes).
 * @param all the array form
 */
export function ClipLayoutViews(all: Float64Array): IClipLayoutViews {
    return {
        trunk: all.subarray(CLIP_PROPORTION_TRUNK_OFFSETS, CLIP_PROPORTION_TRUNK_OFFSETS + CLIP_TRUNK_OFFSET_COUNT),
        shoulders: all.subarray(CLIP_PROPORTION_SHOULDER_OFFSETS, CLIP_PROPORTION_SHOULDER_SHARE + 1),
    };
}
