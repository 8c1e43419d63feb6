/**
 * babylon-humanoid/node: helpers that read files from disk (Node only).
 * @module babylon-humanoid/node
 */
export { LoadRigFromFileAsync, GetRigFileFormat, type ILoadedRig, type ILoadRigOptions, type RigFileFormat } from "./loadFile.js";
export { LoadHumanoidAvatarFromFileAsync, type ILoadedAvatar, type ILoadAvatarOptions } from "./loadAvatar.js";
export {
    ConvertFileToMuscleClipsAsync,
    MuscleClipOutputPath,
    ClipFileExtension,
    PickClipByName,
    MuscleClipOutputPaths,
    SerializeMuscleClip,
    WriteFilesAtomicallyAsync,
    CleanStaleTemporaryFilesAsync,
    type IConvertFileOptions,
    type IConvertedClip,
    type MuscleClipFormat,
    type ClipFileFormat,
    type INamedClip,
} from "./convertFile.js";
export { RetargetWithAnimatorAvatarAsync } from "./animatorAvatarBaseline.js";
export {
    DEFAULT_ANIMATOR_AVATAR_ROOT_FIX,
    DEFAULT_ANIMATOR_AVATAR_REST_POSE,
    type AnimatorAvatarRootFix,
    type AnimatorAvatarRestPose,
    type IAnimatorAvatarBaselineOptions,
    type IBaselineRetarget,
} from "./animatorAvatarBaselineOptions.js";
export { SOURCE_NODE_PREFIX } from "./animatorAvatarBaselineScene.js";
export {
    RetargetFileToGlbAsync,
    ReadSourceClipsAsync,
    type IRetargetFileOptions,
    type IRetargetFileResult,
    type IRetargetedAnimation,
    type RetargetRootMotion,
} from "./retargetFile.js";
export { RetargetFileToVrmaAsync, type IRetargetVrmaResult } from "./retargetVrma.js";
export { FitFileToGlbAsync, CreateFittedAnimationGroup, type IFitFileOptions, type IFitFileResult } from "./fitFile.js";
