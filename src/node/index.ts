/**
 * babylon-humanoid/node: helpers that read files from disk (Node only).
 */
export { LoadRigFromFileAsync, GetRigFileFormat, type ILoadedRig, type ILoadRigOptions, type RigFileFormat } from "./loadFile.js";
export { LoadHumanoidAvatarFromFileAsync, type ILoadedAvatar, type ILoadAvatarOptions } from "./loadAvatar.js";
export {
    ConvertFileToMuscleClipsAsync,
    MuscleClipOutputPath,
    MuscleClipOutputPaths,
    SerializeMuscleClip,
    WriteFilesAtomicallyAsync,
    type IConvertFileOptions,
    type IConvertedClip,
    type MuscleClipFormat,
} from "./convertFile.js";
