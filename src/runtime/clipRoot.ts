import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { MuscleClipSampler } from "../clip/clipSampler.js";
import { HumanoidError } from "../errors.js";
import type { HumanPose } from "../muscle/humanPose.js";
import { MirrorRootInPlace } from "../muscle/mirror.js";
import { QuaternionMultiplyToRef, QuaternionRotationAxisToRef } from "../math/hotMath.js";
import type { HumanoidClipState } from "./clipLayer.js";

/**
 * What happens to the clip's travel (its root: the centre of mass on the ground and the body's
 * turn about up):
 * - `"in-place"`: the body's root (its centre of mass on the ground) stays over the character's
 *   origin (the clip's travel, and where on its floor it starts, removed; turning kept in the pose).
 * - `"apply"`: travel and turning are taken out of the pose (the root at the character's origin,
 *   facing as the clip starts) and moved onto a root node, so the character walks through the scene.
 * - `"delta"`: as `"apply"`, but the motion is handed to the caller each frame instead.
 * - `"clip"`: the body goes where the clip puts it, relative to the character's place; a looping
 *   clip jumps back at each loop.
 */
export type RootMotionMode = "in-place" | "apply" | "delta" | "clip";

/** Every {@link RootMotionMode}. */
export const ROOT_MOTION_MODES: readonly RootMotionMode[] = ["in-place", "apply", "delta", "clip"];

/** Throws (`BAD_OPTION`) for a root-motion mode that is not one of {@link ROOT_MOTION_MODES}. */
export function CheckRootMotion(mode: RootMotionMode): void {
    if (!ROOT_MOTION_MODES.includes(mode))
        throw new HumanoidError("BAD_OPTION", `rootMotion must be "in-place", "apply", "delta" or "clip" (got ${JSON.stringify(mode)})`);
}

const yawQ = new Quaternion();
const UP = new Vector3(0, 1, 0);

// The per-frame path hands numbers over in typed arrays, not as arguments or return values: V8
// boxes a number passed to or returned from a call it does not inline, which allocates.

/** Writes the root of a state's clip at a local time (`seconds[index]`, seconds) into `out`: x and z (canonical, avatar scales) and yaw (radians). */
export function RootAtInto(sampler: MuscleClipSampler, seconds: Float64Array, index: number, out: Float64Array): void {
    sampler.frameSlot[0] = seconds[index] * sampler.clip.frameRate;
    sampler.sampleRootSlotInto(out);
}

/** Adds the motion from root `from` to root `to` onto `acc` (x, z, yaw), which is kept in the frame of the first root it started from. */
function addSegment(from: Float64Array, to: Float64Array, acc: Float64Array): void {
    // Translation in the frame of `from`, then turned into the frame the accumulation started in.
    const dx = to[0] - from[0];
    const dz = to[1] - from[1];
    const c = Math.cos(from[2]);
    const s = Math.sin(from[2]);
    // Rotation about +Y by yaw maps (x, z) to (x cos + z sin, -x sin + z cos); its inverse:
    const lx = dx * c - dz * s;
    const lz = dx * s + dz * c;
    const ca = Math.cos(acc[2]);
    const sa = Math.sin(acc[2]);
    acc[0] += lx * ca + lz * sa;
    acc[1] += -lx * sa + lz * ca;
    acc[2] += to[2] - from[2];
}

/** Rotates (x, z) = (io[0], io[1]) about +Y by the yaw io[2] (Babylon's rotation about Y, left-handed), in place. */
export function TurnAboutUpInPlace(io: Float64Array): void {
    const x = io[0];
    const z = io[1];
    const c = Math.cos(io[2]);
    const s = Math.sin(io[2]);
    io[0] = x * c + z * s;
    io[1] = -x * s + z * c;
}

/**
 * One playing state's root motion over this step, after its clock has advanced (the loops it
 * crossed in `s.wraps`): its travel since the last step into `s.delta` (in the previous root's
 * frame; across a loop, to the clip's end and on from its start, once per loop), its root as of
 * now in `s.lastRoot`, where the pose shows the root in `s.shownRoot`, and the pose moved as `mode`
 * says (`"clip"`: as is; `"in-place"`: the root over the character's origin; `"apply"`, `"delta"`:
 * the root pinned at the origin, facing as the clip starts). Allocation-free.
 * @param s the state (its sampler at the clip): `delta`, `lastRoot` and `shownRoot` as the root (x, z in avatar scales, canonical; yaw in radians)
 * @param sampler the state's sampler
 * @param mode the player's root motion
 * @param seconds the state's local time in `seconds[2]`
 * @param pose the state's pose as sampled (moved in place)
 * @param now scratch (3 numbers): receives the root as of now (x, z in avatar scales, canonical; yaw in radians)
 * @param tmp scratch (3 numbers)
 */
export function TakeRootStep(
    s: HumanoidClipState,
    sampler: MuscleClipSampler,
    mode: RootMotionMode,
    seconds: Float64Array,
    pose: HumanPose,
    now: Float64Array,
    tmp: Float64Array,
): void {
    const wraps = s.wraps;
    RootAtInto(sampler, seconds, 2, now);
    if (s.mirror) MirrorRootInPlace(now);
    s.delta.fill(0);
    if (!s.fresh) {
        if (wraps === 0) {
            addSegment(s.lastRoot, now, s.delta);
        } else if (wraps > 0) {
            addSegment(s.lastRoot, s.endRoot, s.delta);
            for (let k = 1; k < wraps; k++) addSegment(s.startRoot, s.endRoot, s.delta);
            addSegment(s.startRoot, now, s.delta);
        } else {
            addSegment(s.lastRoot, s.startRoot, s.delta);
            for (let k = -1; k > wraps; k--) addSegment(s.endRoot, s.startRoot, s.delta);
            addSegment(s.endRoot, now, s.delta);
        }
    }
    s.lastRoot.set(now);
    // Where the pose shows the root, and the pose moved there.
    const p = pose;
    const sr = s.shownRoot;
    switch (mode) {
        case "clip":
            sr.set(now);
            break;
        case "in-place":
            // The root over the character's origin, turning as in the clip.
            sr[0] = 0;
            sr[1] = 0;
            sr[2] = now[2];
            p.bodyPosition.x -= now[0];
            p.bodyPosition.z -= now[1];
            break;
        default: {
            // "apply" and "delta": the root pinned at the character's origin, facing as the clip starts.
            sr[0] = 0;
            sr[1] = 0;
            sr[2] = s.startRoot[2];
            const t = tmp;
            t[0] = p.bodyPosition.x - now[0];
            t[1] = p.bodyPosition.z - now[1];
            t[2] = s.startRoot[2] - now[2];
            TurnAboutUpInPlace(t);
            p.bodyPosition.x = t[0];
            p.bodyPosition.z = t[1];
            QuaternionMultiplyToRef(QuaternionRotationAxisToRef(UP, t, 2, yawQ), p.bodyRotation, p.bodyRotation);
            break;
        }
    }
}
