import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import { AutoMapHumanoid, LEGS_BELOW_SPINE_MIN_DEG } from "./autoMap.js";
import { AngleBetweenDeg, type IBodyFrame } from "./bodyFrame.js";
import { ApplyHumanBoneMapOverrides, ParseHumanBoneMap, SerializeHumanBoneMap, type HumanBoneMapJson } from "./boneMap.js";
import { HumanBone, HumanBoneNames, HumanBoneParents, HumanBoneRequired, HUMAN_BONE_COUNT, RequiredHumanBones } from "./humanBones.js";
import { ComputeRigWorldPose, GetRigJointLabel, GetRigRestPose, ValidateRig, type IRig, type IRigPose, type IRigWorldPose } from "./rig.js";
import { CheckMuscleSettings } from "../muscle/muscleSettings.js";
import { CheckJointLimitSettings, type IJointLimitSettings } from "./jointLimitSettings.js";
import { MakeReferenceTPose, type ITPoseCorrection, type TPoseMode } from "./tpose.js";

/** Where the joint of a human bone came from. */
export type BoneMapSource = "auto" | "file" | "user";

/** Options of {@link BuildHumanoidAvatar}. */
export interface IHumanoidAvatarOptions {
    /**
     * A partial map that overrides the automatic one: `{"leftUpperArm": "LeftArm", "jaw": null}`
     * (joint names, or `#N` for an unnamed glTF node), or the text of a saved bone map file.
     */
    boneMap?: HumanBoneMapJson | string;
    /** Name of the bone map's file, for messages. Default `"boneMap option"`. */
    boneMapSource?: string;
    /**
     * A map the file itself declares (VRM humanoid), human bone -> rig joint index. It is trusted:
     * no automatic mapping runs. `boneMap` still overrides it.
     */
    declaredBoneMap?: ReadonlyMap<HumanBone, number>;
    /** How the reference T-pose is made. Default `"auto"`. */
    tPose?: TPoseMode;
    /**
     * Muscle range overrides by muscle name, degrees: `{"Left Arm Down-Up": [-80, 90]}` (min < 0 <
     * max). Checked when muscle space first uses the avatar.
     */
    muscleRanges?: Readonly<Record<string, readonly [number, number]>>;
    /**
     * How much of the upper arm, forearm, upper leg and lower leg twist the next bone down takes
     * (0: all on the bone, 1: all on the next one). Default 0.5 each, as Mecanim.
     */
    twist?: Readonly<Partial<Record<"upperArm" | "lowerArm" | "upperLeg" | "lowerLeg", number>>>;
    /**
     * Joint limits (docs/runtime.md, joint limits): which bones are held (default the knees and
     * elbows), the margin around the defaults made from the muscle ranges, per-bone twist ranges
     * and swing polygons. Plain JSON; `SerializeJointLimits` writes an avatar's effective limits
     * in this form. Checked as data when the avatar is built.
     */
    jointLimits?: IJointLimitSettings;
}

/**
 * A skeleton mapped onto the normalized humanoid, with its reference T-pose. Immutable after
 * {@link BuildHumanoidAvatar}. Spaces: rig space (left-handed, Y-up, metres, as a Babylon scene).
 */
export class HumanoidAvatar {
    /** The skeleton this avatar maps. */
    public readonly rig: IRig;
    /** The reference T-pose: local rotation and position of every rig joint. */
    public readonly referencePose: IRigPose;
    /** World transforms of every rig joint in the reference T-pose. */
    public readonly referenceWorld: IRigWorldPose;
    /** The character's own frame in the T-pose (up, forward = facing, left), rig space. */
    public readonly frame: IBodyFrame;
    /** What the T-pose was made from: `"rest pose"` or a motion frame such as `"frame 0"`. */
    public readonly tPoseSource: string;
    /** Bones the T-pose enforcement rotated (empty when the start pose already was a T-pose). */
    public readonly tPoseCorrections: readonly ITPoseCorrection[];
    /** Readable notes about the mapping and the T-pose. */
    public readonly warnings: readonly string[];
    /** Mapped bones that are a guess, with why. */
    public readonly doubtful: ReadonlyMap<HumanBone, string>;
    /** Muscle range overrides, twist shares and joint limit settings given when the avatar was built. */
    public readonly muscleSettings: Readonly<Pick<IHumanoidAvatarOptions, "muscleRanges" | "twist" | "jointLimits">>;
    private readonly _boneToJoint: Int32Array;
    private readonly _jointToBone: Int32Array;
    private readonly _sources: ReadonlyArray<BoneMapSource | undefined>;

    /** @internal use {@link BuildHumanoidAvatar} */
    constructor(init: {
        rig: IRig;
        boneToJoint: Int32Array;
        sources: Array<BoneMapSource | undefined>;
        referencePose: IRigPose;
        frame: IBodyFrame;
        tPoseSource: string;
        tPoseCorrections: ITPoseCorrection[];
        warnings: string[];
        doubtful: Map<HumanBone, string>;
        muscleSettings?: Pick<IHumanoidAvatarOptions, "muscleRanges" | "twist" | "jointLimits">;
    }) {
        this.rig = init.rig;
        this._boneToJoint = init.boneToJoint;
        this._sources = init.sources;
        this.referencePose = init.referencePose;
        this.referenceWorld = ComputeRigWorldPose(init.rig, init.referencePose);
        this.frame = init.frame;
        this.tPoseSource = init.tPoseSource;
        this.tPoseCorrections = Object.freeze([...init.tPoseCorrections]);
        this.warnings = Object.freeze([...init.warnings]);
        this.doubtful = init.doubtful;
        this.muscleSettings = Object.freeze({ ...(init.muscleSettings ?? {}) });
        this._jointToBone = new Int32Array(init.rig.joints.length).fill(-1);
        init.boneToJoint.forEach((j, b) => {
            if (j >= 0) this._jointToBone[j] = b;
        });
    }

    /** Name of the source, for messages. */
    public get name(): string {
        return this.rig.source;
    }

    /** The rig joint index of a human bone, -1 when the bone is not mapped. */
    public getJoint(bone: HumanBone): number {
        return this._boneToJoint[bone];
    }

    /** The human bone a rig joint carries, or -1. */
    public getHumanBone(joint: number): HumanBone | -1 {
        return this._jointToBone[joint] as HumanBone | -1;
    }

    /** `true` when the human bone is mapped. */
    public isMapped(bone: HumanBone): boolean {
        return this._boneToJoint[bone] >= 0;
    }

    /** The label of the joint carrying a human bone (its name, or `#N`), or `undefined`. */
    public getJointLabel(bone: HumanBone): string | undefined {
        const j = this._boneToJoint[bone];
        return j >= 0 ? GetRigJointLabel(this.rig, j) : undefined;
    }

    /** Where a bone's joint came from: automatic mapping, the file (VRM), or the user's map. */
    public getBoneSource(bone: HumanBone): BoneMapSource | undefined {
        return this._sources[bone];
    }

    /** A copy of the whole map: joint index per human bone (-1 when not mapped). */
    public getBoneToJoint(): Int32Array {
        return this._boneToJoint.slice();
    }

    /** The map as plain data, human bone name to joint label, in humanoid order. */
    public toBoneMapJson(): Record<string, string> {
        const out: Record<string, string> = {};
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            const label = this.getJointLabel(b);
            if (label !== undefined) out[HumanBoneNames[b]] = label;
        }
        return out;
    }

    /** The map as the text of a bone map file, to save and load with `boneMap`. */
    public serializeBoneMap(): string {
        return SerializeHumanBoneMap(this.rig, this._boneToJoint, this.rig.source);
    }
}

/**
 * The same avatar with some optional bones left out of its map: the same rig, reference T-pose,
 * body frame and settings, the joints of the bones left out becoming joints between mapped bones
 * (they keep their T-pose when decoded; encoding hands their turn to the mapped bones below).
 * Conversion uses it for a take whose collarbones point where no muscle can follow
 * (`FindReversedCollarbones`).
 * @param avatar the avatar to start from (not modified)
 * @param bones optional bones to leave out (bones not mapped are ignored)
 * @returns a new avatar, or `avatar` itself when none of `bones` is mapped
 * @throws HumanoidError `BAD_OPTION` when one of `bones` is required
 */
export function HumanoidAvatarWithoutBones(avatar: HumanoidAvatar, bones: readonly HumanBone[]): HumanoidAvatar {
    const required = bones.filter((b) => HumanBoneRequired[b]);
    if (required.length) {
        throw new HumanoidError(
            "BAD_OPTION",
            `${avatar.name}: required bones cannot be left out of the map: ${required.map((b) => HumanBoneNames[b]).join(", ")}`,
        );
    }
    const map = avatar.getBoneToJoint();
    if (!bones.some((b) => map[b] >= 0)) return avatar;
    for (const b of bones) map[b] = -1;
    const sources = Array.from({ length: HUMAN_BONE_COUNT }, (_, b) => (map[b] >= 0 ? avatar.getBoneSource(b) : undefined));
    const doubtful = new Map([...avatar.doubtful].filter(([b]) => map[b] >= 0));
    return new HumanoidAvatar({
        rig: avatar.rig,
        boneToJoint: map,
        sources,
        referencePose: avatar.referencePose,
        frame: avatar.frame,
        tPoseSource: avatar.tPoseSource,
        tPoseCorrections: [...avatar.tPoseCorrections],
        warnings: [...avatar.warnings],
        doubtful,
        muscleSettings: { ...avatar.muscleSettings },
    });
}

/** Checks a final map: required bones, joints used once, human parents above their children. */
function validateMap(rig: IRig, map: Int32Array, context: string): void {
    const missing = RequiredHumanBones.filter((b) => map[b] < 0).map((b) => HumanBoneNames[b]);
    if (missing.length) {
        throw new HumanoidError(
            "MISSING_REQUIRED_BONES",
            `${rig.source}: missing required bone${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}${context}`,
            { missing },
        );
    }
    const problems: string[] = [];
    const owner = new Map<number, number>();
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const j = map[b];
        if (j < 0) continue;
        if (j >= rig.joints.length) {
            problems.push(`${HumanBoneNames[b]} points at joint ${j}, which does not exist`);
            continue;
        }
        if (owner.has(j)) {
            problems.push(`joint '${GetRigJointLabel(rig, j)}' is both ${HumanBoneNames[owner.get(j)!]} and ${HumanBoneNames[b]}`);
        }
        owner.set(j, b);
        let p = HumanBoneParents[b];
        while (p >= 0 && map[p] < 0) p = HumanBoneParents[p];
        if (p >= 0) {
            let a = rig.joints[j].parent;
            while (a >= 0 && a !== map[p]) a = rig.joints[a].parent;
            if (a < 0) {
                problems.push(`${HumanBoneNames[b]} '${GetRigJointLabel(rig, j)}' is not below ${HumanBoneNames[p]} '${GetRigJointLabel(rig, map[p])}'`);
            }
        }
    }
    if (problems.length) {
        throw new HumanoidError("BAD_BONE_MAP", `${rig.source}: the bone map is not valid${context}: ${problems.join("; ")}`, { problems });
    }
}

/** The first of the rest pose and the sample poses where the mapped legs hang below the spine. */
function chooseGeometryPose(rig: IRig, map: Int32Array): IRigPose {
    const poses = [GetRigRestPose(rig), ...(rig.samplePoses ?? [])];
    for (const pose of poses) {
        const p = ComputeRigWorldPose(rig, pose).positions;
        const spine = p[map[HumanBone.Head]].subtract(p[map[HumanBone.Hips]]);
        const ok = [HumanBone.LeftFoot, HumanBone.RightFoot].every(
            (f) => AngleBetweenDeg(spine, p[map[f]].subtract(p[map[HumanBone.Hips]])) >= LEGS_BELOW_SPINE_MIN_DEG,
        );
        if (ok) return pose;
    }
    return poses[0];
}

/**
 * Builds a {@link HumanoidAvatar} from a rig: maps the skeleton onto the humanoid (the file's own
 * VRM map when given, else automatically from structure, geometry and names), applies the user's
 * partial map, validates the result, and makes the reference T-pose. The rig is not modified.
 *
 * Throws one {@link HumanoidError}: `MISSING_REQUIRED_BONES` listing every missing required bone,
 * `BAD_BONE_MAP` for an invalid map, `NOT_HUMANOID` when the skeleton is not a humanoid,
 * `BAD_HIERARCHY` for a broken rig.
 */
export function BuildHumanoidAvatar(rig: IRig, options: IHumanoidAvatarOptions = {}): HumanoidAvatar {
    ValidateRig(rig);
    if (options.tPose !== undefined && !["auto", "rest", "strict"].includes(options.tPose)) {
        throw new HumanoidError("BAD_OPTION", `${rig.source}: tPose must be "auto", "rest" or "strict", got ${JSON.stringify(options.tPose)}`);
    }
    const map = new Int32Array(HUMAN_BONE_COUNT).fill(-1);
    const sources = new Array<BoneMapSource | undefined>(HUMAN_BONE_COUNT);
    const warnings: string[] = [];
    let doubtful = new Map<HumanBone, string>();
    let geometryPose: IRigPose | undefined;
    let autoError: HumanoidError | undefined;
    if (options.declaredBoneMap) {
        for (const [b, j] of options.declaredBoneMap) {
            map[b] = j;
            sources[b] = "file";
        }
    } else {
        try {
            const auto = AutoMapHumanoid(rig);
            map.set(auto.boneToJoint);
            auto.boneToJoint.forEach((j, b) => {
                if (j >= 0) sources[b] = "auto";
            });
            warnings.push(...auto.warnings);
            doubtful = auto.doubtful;
            geometryPose = auto.geometryPose;
        } catch (e) {
            if (!(e instanceof HumanoidError) || !options.boneMap) throw e;
            autoError = e;
        }
    }
    if (options.boneMap) {
        const mapSource = options.boneMapSource ?? "boneMap option";
        const overrides = ParseHumanBoneMap(options.boneMap, mapSource);
        for (const b of ApplyHumanBoneMapOverrides(rig, map, overrides, mapSource)) {
            sources[b] = map[b] >= 0 ? "user" : undefined;
            doubtful.delete(b);
        }
    }
    validateMap(rig, map, autoError ? ` (automatic mapping failed: ${autoError.message})` : "");
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (map[b] < 0) {
            sources[b] = undefined;
            doubtful.delete(b);
        }
    }
    geometryPose ??= chooseGeometryPose(rig, map);
    const fromFrame = geometryPose.label !== "rest pose";
    const t = MakeReferenceTPose(rig, map, geometryPose, options.tPose ?? "auto", fromFrame);
    // The map's left side should be on the body's left; say so when the names (or a VRM map) put it elsewhere.
    const world = ComputeRigWorldPose(rig, t.pose);
    const toes = [HumanBone.LeftToes, HumanBone.RightToes].filter((b) => map[b] >= 0);
    if (toes.length === 2) {
        let facing = 0;
        for (const tb of toes) {
            const foot = tb === HumanBone.LeftToes ? HumanBone.LeftFoot : HumanBone.RightFoot;
            facing += Vector3.Dot(world.positions[map[tb]].subtract(world.positions[map[foot]]), t.frame.forward);
        }
        if (facing < 0) {
            warnings.push("the toes point backwards in the reference pose: the map's left and right may be swapped, or the skeleton mirrored");
        }
    }
    CheckMuscleSettings(rig.source, options);
    CheckJointLimitSettings(rig.source, options.jointLimits);
    return new HumanoidAvatar({
        rig,
        boneToJoint: map,
        sources,
        referencePose: t.pose,
        frame: t.frame,
        tPoseSource: geometryPose.label,
        tPoseCorrections: [...t.corrections],
        warnings,
        doubtful,
        muscleSettings: { muscleRanges: options.muscleRanges, twist: options.twist, jointLimits: options.jointLimits },
    });
}
