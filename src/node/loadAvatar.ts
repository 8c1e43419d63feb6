import { readFile } from "node:fs/promises";
import { HumanoidError } from "../errors.js";
import { ParseHumanBoneMap } from "../humanoid/boneMap.js";
import { BuildHumanoidAvatar, type HumanoidAvatar, type IHumanoidAvatarOptions } from "../humanoid/avatar.js";
import { LoadRigFromFileAsync, type ILoadedRig, type ILoadRigOptions } from "./loadFile.js";

/** Options of {@link LoadHumanoidAvatarFromFileAsync}. */
export interface ILoadAvatarOptions extends ILoadRigOptions, Omit<IHumanoidAvatarOptions, "declaredBoneMap" | "boneMap" | "boneMapSource"> {
    /** A partial bone map that overrides the automatic one, or the path of a saved bone map file (`.json`). */
    boneMap?:
        | IHumanoidAvatarOptions["boneMap"]
        | {
              /** Path of the bone map JSON file (a saved map, or `{"leftUpperArm": "LeftArm", ...}`). */
              file: string;
          };
}

/** An avatar built from a file, with the loaded file. */
export interface ILoadedAvatar {
    /** The avatar. */
    readonly avatar: HumanoidAvatar;
    /** What was read from the file (rig, VRM map, BVH data, glTF scene). Call `dispose()` when done. */
    readonly loaded: ILoadedRig;
}

/**
 * Reads a GLB/glTF/VRM/VRMA/BVH file and builds its {@link HumanoidAvatar} (a VRM file's own
 * humanoid map is trusted). A glTF rig that keeps its feet beside its legs for IK has them moved
 * under its lower legs first (`attachDetachedFeet`, default true here; the loaded rig's
 * `attachedFeet` lists them). Throws one {@link HumanoidError} naming the file; on error nothing
 * stays loaded.
 */
export async function LoadHumanoidAvatarFromFileAsync(file: string, options: ILoadAvatarOptions = {}): Promise<ILoadedAvatar> {
    let boneMap: IHumanoidAvatarOptions["boneMap"];
    let boneMapSource: string | undefined;
    if (options.boneMap && typeof options.boneMap === "object" && "file" in options.boneMap) {
        const mapFile = options.boneMap.file as string;
        let text: string;
        try {
            text = await readFile(mapFile, "utf8");
        } catch (e) {
            throw new HumanoidError("FILE_READ", `${mapFile}: cannot read the bone map (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
        }
        boneMap = ParseHumanBoneMap(text, mapFile);
        boneMapSource = mapFile;
    } else {
        boneMap = options.boneMap as IHumanoidAvatarOptions["boneMap"];
    }
    // A character to drive: feet kept beside its legs for IK go under them (see the option).
    const loaded = await LoadRigFromFileAsync(file, { ...options, attachDetachedFeet: options.attachDetachedFeet ?? true });
    try {
        // Every message from the builder names the file (the rig's source) or the bone map.
        const avatar = BuildHumanoidAvatar(loaded.rig, {
            boneMap,
            boneMapSource,
            declaredBoneMap: loaded.declaredBoneMap,
            tPose: options.tPose,
            muscleRanges: options.muscleRanges,
            twist: options.twist,
            jointLimits: options.jointLimits,
        });
        return { avatar, loaded };
    } catch (e) {
        loaded.dispose();
        throw e;
    }
}
