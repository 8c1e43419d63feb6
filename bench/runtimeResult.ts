/**
 * The runtime benchmark's figures (bench/runtime.ts): what `RunRuntimeBenchAsync` returns and
 * bench/run.ts prints, and the time split of one animator's update inside them. Types only.
 */

/** Time split of one {@link HumanoidAnimator.update}, microseconds per character-frame (one animator, outside the scene). */
export interface IRuntimeUpdateSplit {
    /** Clip sampling, blending and root motion bookkeeping (`player.update`). */
    sampleMicroseconds: number;
    /** Muscles to rig pose (`solver.decode`). */
    decodeMicroseconds: number;
    /** Foot planting (`planting.update`). */
    plantingMicroseconds: number;
    /** Forward kinematics of the limbs, body drop and limb IK (`solver.solveIK`). */
    ikMicroseconds: number;
    /** Rig pose onto the nodes (the animator's rig writer). */
    writeMicroseconds: number;
    /** Root motion delta and observers. */
    rootMotionMicroseconds: number;
    /** A whole `animator.update`, timed on its own over the same frames (the sum of the parts, less the timer's own cost). */
    updateMicroseconds: number;
    /** Heap allocated per call of each step, garbage included, bytes (each step called on its own; NaN without a GC). */
    allocatedBytes: { sample: number; decode: number; planting: number; ik: number; write: number; rootMotion: number };
}

/**
 * Figures of `RunRuntimeBenchAsync` (bench/runtime.ts). Times are microseconds per character per frame, each
 * the median over rounds; every ratio is the median over rounds of that round's own ratio (the
 * formulas below name the conditions' times within a round), not a ratio of the medians.
 */
export interface IRuntimeBenchResult {
    /** What was measured, for the table's heading. */
    subject: string;
    /** Characters in the scene. */
    characters: number;
    /** Frames timed per condition and round (after a warm-up). */
    frames: number;
    /** `scene.render()` with Babylon's retargeted AnimationGroups playing on every character (a). */
    animatorAvatarMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with Babylon playing our clip baked by `BakeMuscleClipToAnimationGroup` (live settings) on every character (e). */
    bakedMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with our animators playing (foot IK and planting on, default options) (b). */
    oursMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with our animators playing, foot IK off (d). */
    oursNoIKMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with our animators playing with everything of the runtime on: foot IK, the full joint-limit set, world goals for both hands and look-at (f). */
    oursAllMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with nothing playing: the scene's fixed cost (c). */
    idleMicrosecondsPerCharacterFrame: number;
    /** `scene.render()` with each character's animator writer writing two stored poses of the live motion in turn, nothing computed: the floor of a live animator (g). */
    floorMicrosecondsPerCharacterFrame: number;
    /**
     * What the floor costs over the idle scene, over what Babylon playing the baked clip costs:
     * (g - c) / (e - c), the median over rounds. The share of the baked clip's cost that writing the
     * nodes and what that makes dirty take whatever computes the pose: the live animator's update
     * itself may cost at most 0.5 less this of it for {@link runtimeCostRatioVsBakedPlayback} to be 0.5.
     */
    floorCostRatioVsBakedPlayback: number;
    /** The animation step alone inside `scene.render()`: Babylon's `animate()` (a). */
    animatorAvatarAnimateMicrosecondsPerCharacterFrame: number;
    /** The animation step alone inside `scene.render()`: Babylon's `animate()` playing the baked groups (e). */
    bakedAnimateMicrosecondsPerCharacterFrame: number;
    /** The animation step alone inside `scene.render()`: our plugin's updates (b). */
    oursAnimateMicrosecondsPerCharacterFrame: number;
    /** The animation step alone inside `scene.render()`: our plugin's updates, IK off (d). */
    oursNoIKAnimateMicrosecondsPerCharacterFrame: number;
    /** The animation step alone inside `scene.render()`: our plugin's updates, everything on (f). */
    oursAllAnimateMicrosecondsPerCharacterFrame: number;
    /** What playing costs over the idle scene with everything on (limits "all", hand world goals, look-at), over Babylon's: (f - c) / (a - c). Issue 12's target: at most 0.3. */
    runtimeCostRatioAllVsAnimatorAvatar: number;
    /** The update alone with everything on over the default update: what limits, world goals and look-at add, as a ratio of the default animate step. */
    animateTimeRatioAllVsDefault: number;
    /**
     * What playing costs over the idle scene, ours (IK on) over Babylon's: (b - c) / (a - c). It
     * counts the animation step and what it causes downstream in the frame (world matrices and
     * skeletons of the nodes it moved). Below 1: ours is cheaper.
     */
    runtimeCostRatioVsAnimatorAvatar: number;
    /** Same, foot IK off: (d - c) / (a - c). */
    runtimeCostRatioNoIKVsAnimatorAvatar: number;
    /**
     * What playing costs over the idle scene, ours (IK on, live) over Babylon playing the same motion
     * baked from our clip: (b - c) / (e - c). Below 1: live is cheaper than its own bake.
     */
    runtimeCostRatioVsBakedPlayback: number;
    /** Same, foot IK off (the bake keeps IK on): (d - c) / (e - c). */
    runtimeCostRatioNoIKVsBakedPlayback: number;
    /** Babylon playing the baked groups over Babylon playing the AnimatorAvatar groups, over the idle scene: (e - c) / (a - c). */
    bakedCostRatioVsAnimatorAvatar: number;
    /** Whole frames, ours (IK on) over the baked playback: b / e. */
    renderTimeRatioVsBakedPlayback: number;
    /** The animation steps alone, ours (IK on) over the baked playback. */
    animateTimeRatioVsBakedPlayback: number;
    /** Whole frames, ours (IK on) over Babylon's: b / a. */
    renderTimeRatioVsAnimatorAvatar: number;
    /** The animation steps alone, ours (IK on) over Babylon's. */
    animateTimeRatioVsAnimatorAvatar: number;
    /** Heap used after 100,000 `animator.update(1/60)` minus before (after a warm-up; both once full GCs no longer change it), bytes. */
    heapGrowthBytesPer100kFrames: number;
    /** Whether a GC could be forced for the heap figure (else it is only indicative). */
    heapMeasuredAfterGc: boolean;
    /**
     * What one more animator (defaults, playing, one update done) keeps on the heap: heap used after
     * making `ANIMATOR_HEAP_COUNT` (bench/runtimeSolo.ts) of them on character 0 minus before, both settled under full
     * GCs, over their number, bytes (its own state only: the avatar's tables and the clip are shared).
     */
    animatorHeapBytes: number;
    /** Heap allocated per `animator.update`, garbage included (heap used after 2,000 updates minus right after a full GC, the least of 8 probes no collection ran in), bytes; about 0 when the update allocates nothing; NaN without a GC. */
    allocatedBytesPerUpdate: number;
    /** Animations Babylon's retargeted group plays per character. */
    animatorAvatarTracksPerCharacter: number;
    /** Animations the baked group plays per character (rotations and positions). */
    bakedTracksPerCharacter: number;
    /** Keys per second of the baked group (the clip's own rate). */
    bakedFrameRate: number;
    /** Largest distance between a joint of character 7 under the live animator and under the baked group, after the same frames (world space, metres): the bake is the same motion when this is small. */
    bakedVsLiveMaxJointDistanceMetres: number;
    /** Nodes our animator writes per character. */
    oursNodesWrittenPerCharacter: number;
    /** One avatar shared by every animator (the characters' joints in the same order), else one per character. */
    sharedAvatar: boolean;
    /** Where an update's time goes, or null when the animator's internals could not be reached. */
    updateSplit: IRuntimeUpdateSplit | null;
    /**
     * One animator's update on its own (outside the scene, best of rounds), microseconds, by what is
     * on: the defaults (foot IK, knees and elbows limited), the full limit set, world goals for
     * both hands, look-at, and all three. What each part costs per character-frame.
     */
    featureUpdateMicroseconds: { defaults: number; limitsAll: number; worldGoals: number; lookAt: number; all: number };
    /** Anything odd seen on the way (empty when all is well). */
    notes: string[];
}
