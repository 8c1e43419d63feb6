/**
 * babylon-humanoid: Mecanim-style humanoid retargeting for Babylon.js.
 *
 * This entry point has no side effects on import and runs in the browser, in a worker or in Node.
 * Node-only helpers (reading files from disk) live in `babylon-humanoid/node`.
 * @module babylon-humanoid
 */
export { HumanoidError, type HumanoidErrorCode } from "./errors.js";
export { InputLimits, QuoteForMessage } from "./limits.js";
export {
    HumanBone,
    HUMAN_BONE_COUNT,
    BodySide,
    HumanBoneNames,
    HumanBoneParents,
    HumanBoneChainChild,
    LimbBones,
    RequiredHumanBones,
    HumanBoneRequired,
    HumanBoneSides,
    HumanBoneMirrors,
    FingerNames,
    DigitNames,
    GetFingerBone,
    IsFingerBone,
    HumanBoneFromName,
    GetMappedHumanParent,
} from "./humanoid/humanBones.js";
export {
    RigJointKind,
    type IRig,
    type IRigJoint,
    type IRigPose,
    type IRigWorldPose,
    GetRigJointLabel,
    GetRigRestPose,
    ComputeRigWorldPose,
    ValidateRig,
    GetRigChildren,
    CreateRigFromWorldMatrices,
} from "./humanoid/rig.js";
export { ParseJointName, TokenizeJointName, IsNubName, type INameInfo, type NameHint } from "./humanoid/boneNames.js";
export { FindHumanoidStructure, type IHumanoidStructure, LONG_BRANCH_FRACTION, PASS_THROUGH_FRACTION, ARM_BALANCE_MIN } from "./humanoid/structure.js";
export { AutoMapHumanoid, type IAutoMapResult, LEGS_BELOW_SPINE_MIN_DEG, FACING_MIN_CONFIDENCE } from "./humanoid/autoMap.js";
export { ARM_RATIO, LEG_RATIO, TWIST_OFF_AXIS_MAX } from "./humanoid/limbChains.js";
export { ComputeBodyFrame, AngleBetweenDeg, type IBodyFrame, UPRIGHT_SNAP_DEG } from "./humanoid/bodyFrame.js";
export {
    MakeReferenceTPose,
    EstimateFlatFootElevationDeg,
    TPOSE_TOLERANCES_DEG,
    FLAT_FOOT_EPSILON,
    LEVEL_REST_FOOT_DEG,
    type TPoseMode,
    type ITPoseCorrection,
    type ITPoseResult,
} from "./humanoid/tpose.js";
export {
    type HumanBoneMapJson,
    type IHumanBoneMapFile,
    BONE_MAP_FORMAT,
    BONE_MAP_VERSION,
    SerializeHumanBoneMap,
    ParseHumanBoneMap,
    ResolveJointLabel,
    ApplyHumanBoneMapOverrides,
} from "./humanoid/boneMap.js";
export { HumanoidAvatar, BuildHumanoidAvatar, HumanoidAvatarWithoutBones, type IHumanoidAvatarOptions, type BoneMapSource } from "./humanoid/avatar.js";
export { ParseBvh, BVH_MAX_FRAMES, type BvhChannel, type IBvhFile, type IBvhJoint } from "./io/bvh.js";
export {
    CreateRigFromBvh,
    FindWorldPositionJoints,
    WORLD_POSITION_CHANNEL_SHARE,
    GetBvhFramePose,
    BvhVectorToRig,
    BvhRotationToRig,
    BvhLengthUnits,
    TYPICAL_HUMAN_HEIGHT,
    type IBvhRig,
    type IBvhRigOptions,
    type IBvhConversion,
} from "./io/bvhRig.js";
export { CreateRigFromSkeleton, CreateRigFromTransformNode, GetGltfNodeIndex, type IBabylonRigOptions } from "./io/babylonRig.js";
export { ReadGltfJson, IsGlb, GetGltfAnimationByteLength, type IGltfDocument } from "./io/gltfJson.js";
export { EmbedGltfResources, ListGltfResources, type IEmbeddedGltf, type IGltfResourceList } from "./io/gltfResources.js";
export { GetGltfExportNodeNames, SetGltfExportNodeNames } from "./io/gltfExportNames.js";
export { ReadVrmHumanoid, VrmHumanBoneName, type IVrmHumanoid } from "./io/vrm.js";
export {
    CreateVrmAnimationSkeleton,
    GetVrmAnimationSkeleton,
    VrmAnimationFromMuscleClip,
    VrmAnimationWorldPose,
    type IVrmAnimationSkeleton,
    type IVrmAnimationSkeletonOptions,
    type IVrmAnimationData,
    type IVrmAnimationOptions,
    type IVrmAnimationWorldPose,
} from "./io/vrmAnimationRig.js";
export { SerializeVrmAnimationToGlb, SerializeMuscleClipToVrmAnimation, VRM_ANIMATION_SPEC_VERSION } from "./io/vrmAnimationFile.js";
export {
    Muscles,
    MuscleNames,
    BoneMuscles,
    MuscleMirrors,
    MuscleIndexFromName,
    MUSCLE_COUNT,
    EXTRA_MUSCLE_COUNT,
    ALL_MUSCLE_COUNT,
    type IMuscleInfo,
    type IMuscleMotion,
    type MuscleAxis,
} from "./muscle/muscles.js";
export { HumanPose, HumanIKGoal, HUMAN_IK_GOAL_COUNT } from "./muscle/humanPose.js";
export { TranslationDofBones, TRANSLATION_DOF_COUNT, TranslationDofNames, TranslationDofUnits } from "./muscle/translationDof.js";
export { EncodeHumanPose, GOAL_BONES } from "./muscle/encode.js";
export { MirrorHumanPoseInPlace, MirrorRootInPlace, MirrorContacts } from "./muscle/mirror.js";
export { MirrorMuscleClip } from "./clip/mirrorClip.js";
export { DecodeHumanPose, CreateReferenceRigPose } from "./muscle/decode.js";
export { type ICanonicalRotationLimiter } from "./muscle/decodeLimits.js";
export { MissingShoulderFold, SHOULDER_FAST_SECONDS, ShoulderLowPass } from "./muscle/shoulderFold.js";
export { CollarboneShake } from "./muscle/collarboneShake.js";
export { TrunkPlaceLowPass, TRUNK_PLACE_SECONDS } from "./muscle/trunkMatch.js";
export { MuscleSetup } from "./muscle/setup.js";
export { CheckMuscleSettings, type IMuscleSettings } from "./muscle/muscleSettings.js";
export { HINGE_BLEND_BEND_DEG } from "./muscle/encodeLimb.js";
export { HIERARCHY_MASS } from "./muscle/massModel.js";
export {
    SwingTwistDecompose,
    SwingTwistDecomposeToRef,
    TwistAngleNear,
    QuaternionToRotationVectorToRef,
    RotationVectorToQuaternionToRef,
} from "./math/swingTwist.js";
export { BindRigToTransformNode, ReadRigPoseFromNodes, type IRigNodeBinding } from "./io/babylonRig.js";
export { RigPoseFromWorldMatrices } from "./humanoid/rig.js";
export { BuildSampleRig, SampleCharacters, type ISampleCharacterSpec, type SampleNaming } from "./samples/sampleCharacters.js";
export {
    MuscleClip,
    FootContact,
    FOOT_CONTACT_BITS,
    MuscleCurveKind,
    MuscleCurveNames,
    MuscleCurveKinds,
    GoalNames,
    MUSCLE_CLIP_CURVE_COUNT,
    CURVE_BODY_POSITION,
    CURVE_BODY_ROTATION,
    CURVE_GOALS,
    CURVES_PER_GOAL,
    CURVE_ROOT,
    CURVE_HIPS,
    CURVE_TRANSLATIONS,
    MUSCLE_CLIP_CURVE_COUNT_V1,
    MUSCLE_CLIP_CURVE_COUNT_V3,
    type IMuscleClipInit,
} from "./clip/muscleClip.js";
export { EvaluateCurveSegment, type IMuscleCurve, type CurveInterpolation } from "./clip/curve.js";
export { type IClipProportions } from "./clip/clipProportions.js";
export { MuscleClipSampler } from "./clip/clipSampler.js";
export { AngleUnitToMuscleValue, AngleUnitsToMuscleValuesInPlace, MuscleValueToAngleUnit, type MuscleCurveUnit } from "./clip/muscleCurveUnit.js";
export { GetCurveValueStep, ReduceCurve, ReduceCurveGroup, SHARED_GRID_REFINEMENT, SnapToStep, VALUE_STEPS_PER_TOLERANCE } from "./clip/reduce.js";
export { SplineSlopesToRef } from "./clip/spline.js";
export {
    SmoothWithinBand,
    SmoothWithinBandAtRate,
    SmoothingStrideAtRate,
    SmoothCurveGroupWithinBands,
    SMOOTHING_ROUNDS,
    SMOOTHING_REFERENCE_RATE,
    GROUP_SHARE_REACH,
} from "./clip/smoothing.js";
export { RigPoseDenoiser, IsDenoisedBone } from "./clip/poseDenoise.js";
export { ConvertRigPosesToMuscleClip } from "./clip/convert.js";
export {
    DEFAULT_TOLERANCE_DEG,
    SMOOTHING_SHARE,
    MAX_CLIP_FRAMES,
    LOOP_MATCH_DEG,
    type IRigPoseSource,
    type IMuscleClipConvertOptions,
} from "./clip/convertOptions.js";
export { CONTACT_HEIGHT, CONTACT_SPEED, CONTACT_MIN_SECONDS, CONTACT_DRAG_SHARE, GROUND_WINDOW_SECONDS, GROUND_PERCENTILE } from "./clip/footContacts.js";
export { CONTACT_END_MARGIN, CONTACT_END_HALF_WINDOW } from "./clip/contactEnds.js";
export { GetCurveTolerance, TRUNK_CLIP_CURVES, PLACEMENT_CLIP_CURVES } from "./clip/curveTolerance.js";
export { FindEndPoseFrames, type IEndPoseFrames, type IEndPoseRun, type IEndPoseSampler } from "./clip/endPoseFrames.js";
export { ParseMuscleClip } from "./clip/clipFile.js";
export { SerializeMuscleClipToJson, ParseMuscleClipJson } from "./clip/clipFileJson.js";
export { SerializeMuscleClipToBinary, ParseMuscleClipBinary } from "./clip/clipFileBinary.js";
export { MUSCLE_CLIP_FORMAT, MUSCLE_CLIP_VERSION, MUSCLE_CLIP_OLDEST_VERSION, MUSCLE_CLIP_MAGIC } from "./clip/clipFileRules.js";
export { BvhPoseSource, ConvertBvhToMuscleClip } from "./io/bvhClip.js";
export { AnimationGroupPoseSource, ConvertAnimationGroupToMuscleClip, DEFAULT_CLIP_RATE, MIN_KEY_RATE } from "./io/animationGroupClip.js";
export { SolveTwoBonePositionsToRef } from "./ik/twoBone.js";
export { HumanoidLimbIK, type ILimbIKStatus } from "./ik/limbIK.js";
export { ELBOW_OVERSHOOT_DEG, JointLimits, KNEE_OVERSHOOT_DEG, SOFT_LIMIT_KNEE } from "./ik/jointLimits.js";
export { JointLimitShapes, SerializeJointLimits, type IBoneLimitShape } from "./ik/jointLimitShapes.js";
export {
    DEFAULT_JOINT_LIMIT_MARGIN_DEG,
    HINGE_BONES,
    JointLimitBoneMask,
    CheckJointLimitSettings,
    type JointLimitBoneSet,
    type IJointLimitSettings,
    type IBoneLimitSettings,
} from "./humanoid/jointLimitSettings.js";
export { SphericalPolygon, SPHERICAL_POLYGON_INSIDE_EPSILON } from "./math/sphericalPolygon.js";
export { HumanoidRigSolver } from "./runtime/rigSolver.js";
export { DEFAULT_LIMB_STRETCH, type ProportionMode } from "./runtime/rigSolverSettings.js";
export { HumanoidClipPlayer } from "./runtime/clipPlayer.js";
export { MAX_LOOPS_PER_STEP } from "./runtime/clipClock.js";
export { type IClipPlayOptions } from "./runtime/clipPlayOptions.js";
export { ROOT_MOTION_MODES, type RootMotionMode } from "./runtime/clipRoot.js";
export { HumanBodyPart, HUMAN_BODY_PART_COUNT, GetHumanBodyPart } from "./runtime/bodyParts.js";
export { HumanoidClipState, HumanoidLayer, MAX_CLIPS_PER_LAYER } from "./runtime/clipLayer.js";
export { HumanoidFootPlanting } from "./runtime/footPlanting.js";
export { DEFAULT_CONTACT_BLEND_SECONDS, DEFAULT_TOUCHDOWN_SECONDS } from "./runtime/plantingEases.js";
export { HumanoidRigWriter, type HumanoidJointTarget, type HumanoidTargets } from "./plugin/rigTargets.js";
export { HumanoidAnimator, type IHumanoidRootMotion } from "./plugin/humanoidAnimator.js";
export { HumanoidScenePlugin, RegisterHumanoidPlugin } from "./plugin/humanoidScenePlugin.js";
export type { IHumanoidAnimatorOptions } from "./plugin/animatorOptions.js";
export {
    CreateTransformNodesFromRig,
    CreateAnimationGroupFromRigPoses,
    RigPoseFrameCount,
    ANIMATED_POSITION_EPSILON,
    type ICreateRigNodesOptions,
    type IRigTransformNodes,
    type IRigPoseSampler,
    type IRigPoseAnimationOptions,
} from "./io/rigNodes.js";
export { MeasureFootSkate, CombineFootSkates, ComputeLegLength, SLIDING_SPEED, REFERENCE_LEG_LENGTH, type IFootSkate } from "./quality/footSkate.js";
export { BakeMuscleClipToAnimationGroup, CreateBakeStats, type BakeRootMotionMode, type IBakeStats, type IBakeMuscleClipOptions } from "./plugin/bake.js";
export { LoadHumanoidCharacterAsync, GltfJointFilter, type IHumanoidCharacter } from "./plugin/loadCharacter.js";
export { AttachDetachedFeetInGltf, AttachedFeetNotes, type IAttachedFoot, type IGltfNodeLike } from "./io/detachedFeetGltf.js";
export { SlerpShortToRef, SlerpLongToRef, SlerpPathAngle, SLERP_PARALLEL_EPSILON, LONG_PATH_DEFAULT_AXIS } from "./math/slerp.js";
export {
    type ITrs,
    CreateTrs,
    CopyTrsToRef,
    ComposeTrsToRef,
    RelativeTrsToRef,
    TransformPointByTrsToRef,
    InverseTransformPointByTrsToRef,
    TrsToMatrixToRef,
} from "./math/trs.js";
export { SkinVerticesToRef, InterleaveInfluences, type ISkinGeometry } from "./skin/linearBlendSkinning.js";
export {
    BindSkinnedMesh,
    ComputeWorldSkinMatricesToRef,
    UpdateSkinnedMeshWorldMatrices,
    GetJointWorldMatrixToRef,
    MultiplyMatricesToArray,
    type ISkinnedMeshBinding,
} from "./io/skinnedMesh.js";
export { JacobiEigenSymmetric, JACOBI_MAX_SWEEPS } from "./math/jacobiEigen.js";
export { WeightedRigidFit, HORN_PRIOR_WEIGHT } from "./math/hornFit.js";
export { SelectFitVertices, BoundingDiagonal, type ISurfaceFitRig } from "./skin/fitRig.js";
export { SurfaceFitSolver } from "./skin/surfaceFit.js";
export { SURFACE_FIT_TOLERANCE, SURFACE_FIT_MAX_SWEEPS, type ISurfaceFitOptions, type ISurfaceFitFrameResult } from "./skin/surfaceFitOptions.js";
export {
    FitSurfaceToRig,
    SurfaceFitRun,
    SURFACE_FIT_DEFAULT_VERTICES,
    type ISurfaceFitSource,
    type ISurfaceFitRunOptions,
    type ISurfaceFitResult,
} from "./skin/surfaceFitRun.js";
export { MergeSurfaceFitBones } from "./skin/mergeBones.js";
export { MergeHumanBonesOfSurfaceFitRig, SURFACE_FIT_COARSE_HUMAN_BONES } from "./skin/coarseRig.js";
export { AlignRestPoses, MatchNearestVertices, type IRestAlignment } from "./skin/vertexMatch.js";
export { CreateSurfaceFitMeshes, CreateSurfaceFitSource, FindSkinnedMeshes, type ISurfaceFitMeshes } from "./io/surfaceFitMeshes.js";
export {
    ChainIKSolver,
    CHAIN_IK_MAX_ITERATIONS,
    CHAIN_IK_TOLERANCE,
    CHAIN_IK_DAMPING,
    CHAIN_IK_MAX_STEP,
    CHAIN_IK_MAX_ESCAPES,
    type IChainIKStatus,
} from "./ik/chainIK.js";
export type { IJointClamp } from "./ik/jointClamp.js";
export { HumanoidPoseKinematics } from "./runtime/poseKinematics.js";
export { HumanoidWorldGoals, BODY_ADJUST_REACH, MAX_HIP_SHIFT } from "./runtime/worldGoals.js";
export { HumanoidLookAt, LOOK_AT_BODY_SHARE, LOOK_AT_SMOOTH_TIME } from "./runtime/lookAt.js";
