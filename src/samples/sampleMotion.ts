import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { IRigPoseSource } from "../clip/convertOptions.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import type { IRigPose } from "../humanoid/rig.js";
import { BuildHumanoidAvatar } from "../humanoid/avatar.js";
import { WriteBvh, type IBvhWriteOptions } from "../io/bvhWriter.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../muscle/decode.js";
import { BuildSampleRig, SampleCharacters, type ISampleCharacterSpec } from "./sampleCharacters.js";
import { HumanPose } from "../muscle/humanPose.js";
import { MuscleIndexFromName, Muscles } from "../muscle/muscles.js";

/** Seconds per step cycle (two steps) of the sample walk. */
export const SAMPLE_WALK_CYCLE_SECONDS = 1.1;
/** Forward speed of the sample walk, in avatar scales (T-pose centre-of-mass heights) per second. */
export const SAMPLE_WALK_SPEED = 1.25;
/**
 * How far the sample walk's thighs swing either way, degrees. At mid-stance a thigh turns at this
 * amplitude times the cycle's angular frequency (2 pi / {@link SAMPLE_WALK_CYCLE_SECONDS}); times a
 * leg of about 0.85 scales that is {@link SAMPLE_WALK_SPEED}, so the foot on the ground stands
 * still there and the clip has real contacts. (At 25 degrees the stance foot slid back at 0.9
 * scales per second, each foot was in contact three frames a cycle, and planting jerked the knees.)
 */
export const SAMPLE_WALK_THIGH_DEG = (SAMPLE_WALK_SPEED / (0.85 * ((2 * Math.PI) / SAMPLE_WALK_CYCLE_SECONDS)) / Math.PI) * 180;

/** Sets a muscle from an angle in degrees (its own range scales each side). */
function setDeg(pose: HumanPose, name: string, deg: number): void {
    const i = MuscleIndexFromName(name);
    const m = Muscles[i];
    pose.values[i] = deg >= 0 ? deg / m.maxDeg : deg / -m.minDeg;
}

/**
 * A walk made by hand in muscle space, for samples and the demo where no mocap is at hand: legs
 * swing {@link SAMPLE_WALK_THIGH_DEG} (about 15°) either way with the knee flexing in the swing,
 * arms hang and swing against the legs, the spine counter-turns, the body moves forward at
 * {@link SAMPLE_WALK_SPEED} and bobs twice a cycle. Writes the pose at a time into `result` and returns it.
 * @param timeSeconds time from the start
 * @param result the pose to write
 */
export function SampleWalkPoseToRef(timeSeconds: number, result: HumanPose): HumanPose {
    result.values.fill(0);
    const phase = (2 * Math.PI * timeSeconds) / SAMPLE_WALK_CYCLE_SECONDS;
    for (const [side, shift] of [
        ["Left", 0],
        ["Right", Math.PI],
    ] as const) {
        const p = phase + shift;
        // Thigh: forward (negative Front-Back) when sin p > 0.
        setDeg(result, `${side} Upper Leg Front-Back`, -SAMPLE_WALK_THIGH_DEG * Math.sin(p));
        // Knee: flexes most in the swing, a little at heel strike.
        setDeg(result, `${side} Lower Leg Stretch`, -(8 + 50 * Math.max(0, Math.sin(p + 0.9)) ** 2));
        setDeg(result, `${side} Foot Up-Down`, 10 * Math.sin(p - 0.6));
        // Arms down along the body, swinging against the leg of their side.
        setDeg(result, `${side} Arm Down-Up`, -75);
        setDeg(result, `${side} Arm Front-Back`, 18 * Math.sin(p));
        setDeg(result, `${side} Forearm Stretch`, -20 - 10 * Math.max(0, -Math.sin(p)));
        setDeg(result, `${side} Upper Leg In-Out`, -2);
    }
    setDeg(result, "Spine Twist Left-Right", 6 * Math.sin(phase));
    setDeg(result, "Chest Twist Left-Right", -8 * Math.sin(phase));
    setDeg(result, "Head Turn Left-Right", 2 * Math.sin(phase));
    result.bodyPosition.set(0, 0.97 + 0.012 * Math.cos(2 * phase), SAMPLE_WALK_SPEED * timeSeconds);
    Quaternion.RotationAxisToRef(Vector3.UpReadOnly, (3 * Math.PI * Math.sin(phase)) / 180, result.bodyRotation);
    return result;
}

/**
 * The sample walk on an avatar as a clip source (poses decoded from {@link SampleWalkPoseToRef}),
 * for converting, or for writing as a BVH file.
 */
export class SampleWalkSource implements IRigPoseSource {
    /** "sample-walk". */
    public readonly name = "sample-walk";
    /** The avatar's name. */
    public readonly source: string;
    /** Frames per second. */
    public readonly frameRate: number;
    /** Length in seconds. */
    public readonly durationSeconds: number;
    /** None: the walk is made in muscle space. */
    public readonly warnings: readonly string[] = [];
    private readonly _avatar: HumanoidAvatar;
    private readonly _pose = new HumanPose();

    /**
     * @param avatar the character
     * @param durationSeconds length (default two cycles)
     * @param frameRate frames per second (default 30)
     */
    constructor(avatar: HumanoidAvatar, durationSeconds = 2 * SAMPLE_WALK_CYCLE_SECONDS, frameRate = 30) {
        this._avatar = avatar;
        this.source = avatar.name;
        this.durationSeconds = durationSeconds;
        this.frameRate = frameRate;
    }

    /** The pose at a time. */
    public samplePoseToRef(timeSeconds: number, result: IRigPose): void {
        DecodeHumanPose(this._avatar, SampleWalkPoseToRef(timeSeconds, this._pose), result);
    }
}

/**
 * The sample walk as BVH text, on a built-in sample character (default the CMU-style one): a
 * motion file to convert when no mocap is at hand.
 * @param spec which sample character
 * @param options seconds, frames per second, up axis and units of the file
 */
export function SampleWalkBvh(
    spec: ISampleCharacterSpec = SampleCharacters[SampleCharacters.length - 1],
    options: { durationSeconds?: number; frameRate?: number } & Pick<IBvhWriteOptions, "upAxis" | "units"> = {},
): string {
    const rig = BuildSampleRig(spec);
    const avatar = BuildHumanoidAvatar(rig);
    const rate = options.frameRate ?? 30;
    const source = new SampleWalkSource(avatar, options.durationSeconds ?? 2 * SAMPLE_WALK_CYCLE_SECONDS, rate);
    const frames = Math.floor(source.durationSeconds * rate + 1e-6) + 1;
    const poses = Array.from({ length: frames }, (_, f) => {
        const pose = CreateReferenceRigPose(avatar);
        source.samplePoseToRef(f / rate, pose);
        return pose;
    });
    return WriteBvh(rig, poses, { upAxis: options.upAxis, units: options.units, frameTimeSeconds: 1 / rate });
}
