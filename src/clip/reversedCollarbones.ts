// Conversion's look for collarbones that point back across the chest: a take whose shoulder bones
// are turned half a turn from their T-pose on most of its frames.
//
// Why. A shoulder's two muscles span about 30 degrees each way; a collarbone turned further is held
// by decode's limits and what they take off goes on to the arm. Turned past a quarter turn (one of
// the AnimatedDrawings project's takes of a child skipping turns both collarbones half a turn on
// every frame, so that each arm leaves the chest from the other side) the shoulder's turn is near
// half a turn, where its swing's axis, and the twist it leaves the arm, swing round between two
// frames: the limits then held the arm in a different place from one frame to the next (its hand
// 80 to 190 times the source's jerk on four characters, the forearm bent 171 degrees where the
// source's was bent 100). Such a collarbone carries nothing a character's own can show, so the take
// is converted as if its skeleton had no shoulder there: the turn goes to the upper arm, which
// keeps its direction from the chest, and the character's collarbone stays in its T-pose.
//
// How. The frames looked at (at most `LOOKS`, spread over the take): for each mapped shoulder, the
// line from its joint to the upper arm's, in the frame of the bone the shoulder hangs from, against
// the same line in the T-pose. A shoulder whose line is turned more than a quarter turn on more than
// half of those frames is left out, for the whole take (a choice per take, so no frame jumps).
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HumanBoneNames } from "../humanoid/humanBones.js";
import { ComputeRigWorldPose, GetRigRestPose, type IRigPose } from "../humanoid/rig.js";
import { MuscleSetup } from "../muscle/setup.js";

/** At most this many frames are looked at, evenly spread (the first and last among them). */
const LOOKS = 121;

/** What {@link FindReversedCollarbones} reads of a pose source (`IRigPoseSource`'s sampler). */
export interface ICollarbonePoseSampler {
    /** Writes the pose at a time (seconds from the start) into `result`. */
    samplePoseToRef(timeSeconds: number, result: IRigPose): void;
}

/** A shoulder whose collarbone is turned past a quarter turn on most frames of a take. */
export interface IReversedCollarbone {
    /** The shoulder bone (`LeftShoulder` or `RightShoulder`). */
    readonly bone: HumanBone;
    /** How many of the frames looked at had it turned past a quarter turn. */
    readonly frames: number;
    /** How many frames were looked at. */
    readonly looked: number;
}

/**
 * The mapped shoulders whose collarbone (the line from the shoulder joint to the upper arm's, in the
 * frame of the bone it hangs from) is turned more than 90 degrees from its T-pose on more than half
 * of the frames looked at (at most 121, evenly spread over the take). Conversion leaves them out of
 * the avatar it encodes with (`HumanoidAvatarWithoutBones`) and says so (see the file's note).
 * @param avatar the source's avatar
 * @param source the take's poses
 * @param frameCount the take's frames at `frameRate`
 * @param frameRate frames per second
 * @param durationSeconds the take's length (frame times are clamped to it)
 * @returns the shoulders to leave out, left before right; empty for most takes
 */
export function FindReversedCollarbones(
    avatar: HumanoidAvatar,
    source: ICollarbonePoseSampler,
    frameCount: number,
    frameRate: number,
    durationSeconds: number,
): IReversedCollarbone[] {
    const sides: Array<{ bone: HumanBone; shoulder: number; arm: number; parent: number; rest: Vector3; count: number }> = [];
    const world = avatar.referenceWorld;
    const setup = MuscleSetup.For(avatar);
    for (const [bone, upper] of [
        [HumanBone.LeftShoulder, HumanBone.LeftUpperArm],
        [HumanBone.RightShoulder, HumanBone.RightUpperArm],
    ] as const) {
        const shoulder = avatar.getJoint(bone);
        const arm = avatar.getJoint(upper);
        if (shoulder < 0 || arm < 0) continue;
        // The bone the shoulder hangs from: its nearest mapped human parent.
        const parent = setup.joint[setup.parentBone[bone]];
        const rest = world.positions[arm].subtract(world.positions[shoulder]).applyRotationQuaternionInPlace(world.rotations[parent].conjugate());
        if (!(rest.lengthSquared() > 0)) continue;
        sides.push({ bone, shoulder, arm, parent, rest, count: 0 });
    }
    if (sides.length === 0 || !(frameCount > 0)) return [];
    const looked = Math.min(LOOKS, frameCount);
    const pose = GetRigRestPose(avatar.rig);
    const line = new Vector3();
    for (let k = 0; k < looked; k++) {
        const f = looked > 1 ? Math.round((k * (frameCount - 1)) / (looked - 1)) : 0;
        source.samplePoseToRef(Math.min(f / frameRate, durationSeconds), pose);
        const now = ComputeRigWorldPose(avatar.rig, pose);
        for (const s of sides) {
            now.positions[s.arm].subtractToRef(now.positions[s.shoulder], line).applyRotationQuaternionInPlace(now.rotations[s.parent].conjugate());
            if (Vector3.Dot(line, s.rest) < 0) s.count++;
        }
    }
    return sides.filter((s) => 2 * s.count > looked).map((s) => ({ bone: s.bone, frames: s.count, looked }));
}

/** The warning conversion gives for a shoulder {@link FindReversedCollarbones} found. */
export function ReversedCollarboneWarning(found: IReversedCollarbone): string {
    const side = found.bone === HumanBone.LeftShoulder ? "left" : "right";
    return (
        `the ${side} collarbone (${HumanBoneNames[found.bone]}) is turned more than 90 degrees from its T-pose in ${found.frames} of the ${found.looked} frames looked at, ` +
        `where no shoulder's muscles can follow: the take is converted as if its skeleton had no ${side} shoulder bone (its turn goes to the ${side} upper arm, ` +
        `which keeps its direction from the chest, so where the take's ${side} arm hangs from the other side of the chest the character's crosses in front of it; ` +
        `a character's ${side} collarbone stays in its T-pose)`
    );
}
