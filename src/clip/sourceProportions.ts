import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { MuscleSetup } from "../muscle/setup.js";
import {
    CLIP_FOOT_LENGTH_RANGE,
    CLIP_LEG_DIRECTION_MAX_Y,
    CLIP_THIGH_SHARE_RANGE,
    CLIP_TRUNK_LENGTH_RANGE,
    CLIP_TRUNK_OFFSET_MAX,
    type IClipProportions,
} from "./clipProportions.js";

const B = HumanBone;

/**
 * What a clip keeps of its source's proportions (`IClipProportions`, docs/runtime.md): its leg
 * length, ankle height and hip width over its scale, its left foot's T-pose direction, and where a
 * file may hold them (a leg with next to no thigh, a head far off the hips, are no humanoid's) its
 * thigh's share of the leg, its trunk's length and steadiest point, its T-pose leg directions and
 * its trunk's layout. Without any of the optional ones the clip plays as before they existed.
 * @param setup the source's muscle setup
 * @param trunkSteadyPoint the steadiest point of its trunk over the clip ({@link SteadiestSegmentPoint})
 */
export function SourceProportions(setup: MuscleSetup, trunkSteadyPoint: number): IClipProportions {
    const trunkLength = setup.trunkLength / setup.scale;
    const trunkKept = trunkLength >= CLIP_TRUNK_LENGTH_RANGE[0] && trunkLength <= CLIP_TRUNK_LENGTH_RANGE[1];
    return {
        legLength: setup.legLength / setup.scale,
        ankleHeight: setup.ankleHeight / setup.scale,
        hipWidth: setup.hipWidth / setup.scale,
        footDirection: [setup.twistAxis[B.LeftFoot].x, setup.twistAxis[B.LeftFoot].y, setup.twistAxis[B.LeftFoot].z],
        // The share and the trunk only where a file may hold them (a leg with next to no thigh,
        // a head far off the hips, are no humanoid's): without them the clip plays as before.
        ...(setup.thighShare >= CLIP_THIGH_SHARE_RANGE[0] && setup.thighShare <= CLIP_THIGH_SHARE_RANGE[1] ? { thighShare: setup.thighShare } : {}),
        ...(trunkKept ? { trunkLength, trunkSteadyPoint } : {}),
        ...legDirections(setup),
        ...trunkOffsets(setup),
        ...shoulderOffsets(setup),
        ...footLength(setup),
    };
}

/**
 * The source's foot length for a clip's proportions (`IClipProportions.footLength`): ankle joint to
 * its front (`MuscleSetup.footFront`: toes, the foot's tip, or the ball of a foot that ends at its
 * ankle) in the T-pose over its scale, the mean of both feet; none where a foot
 * has no front or the length is past what a file may hold.
 */
function footLength(setup: MuscleSetup): { footLength?: number } {
    const [left, right] = setup.footLength;
    if (!(left > 0 && right > 0)) return {};
    const length = (left + right) / 2 / setup.scale;
    return length >= CLIP_FOOT_LENGTH_RANGE[0] && length <= CLIP_FOOT_LENGTH_RANGE[1] ? { footLength: length } : {};
}

/**
 * How far from `a` toward `b` (0 to 1) the point of the segment between two tracks moves most
 * smoothly: the one whose third differences have the least sum of squares. They are linear in
 * the share t, d(t) = d_a + t (d_b - d_a), so t = -sum(d_a . e) / sum(e . e) with e = d_b - d_a,
 * clamped to [0, 1]; 0 when the two ends move alike (e = 0) or there are fewer than four frames.
 * The converter gives a clip's `IClipProportions.trunkSteadyPoint` by it.
 * @param a one end's positions, x, y, z per frame (any units, the same as `b`'s)
 * @param b the other end's
 * @param frameCount frames in both
 */
export function SteadiestSegmentPoint(a: Float32Array, b: Float32Array, frameCount: number): number {
    let ae = 0;
    let ee = 0;
    for (let f = 3; f < frameCount; f++) {
        for (let c = 0; c < 3; c++) {
            const i = f * 3 + c;
            const da = a[i] - 3 * a[i - 3] + 3 * a[i - 6] - a[i - 9];
            const db = b[i] - 3 * b[i - 3] + 3 * b[i - 6] - b[i - 9];
            ae += da * (db - da);
            ee += (db - da) * (db - da);
        }
    }
    const t = ee > 0 ? -ae / ee : 0;
    return t > 0 ? (t < 1 ? t : 1) : 0;
}

/**
 * The source's trunk layout for a clip's proportions (`IClipProportions.trunkOffsets`): the
 * setup's (`MuscleSetup.clipTrunkOffsets`); none where a number is past what a file may hold (no humanoid's).
 */
function trunkOffsets(setup: MuscleSetup): { trunkOffsets?: number[] } {
    const offsets = Array.from(setup.clipTrunkOffsets);
    return offsets.every((x) => Math.abs(x) <= CLIP_TRUNK_OFFSET_MAX) ? { trunkOffsets: offsets } : {};
}

/** The source's shoulder layout for a clip's proportions (`IClipProportions.shoulderOffsets`); none without both shoulders or where a number is past what a file may hold. */
function shoulderOffsets(setup: MuscleSetup): { shoulderOffsets?: number[] } {
    const offsets = setup.clipShoulderOffsets;
    return offsets && offsets.every((x) => Math.abs(x) <= CLIP_TRUNK_OFFSET_MAX) ? { shoulderOffsets: Array.from(offsets) } : {};
}

/**
 * A leg bone's T-pose direction for a clip's proportions (canonical, unit): the mean of the left
 * one and the right one's mirror image (x negated).
 */
function legDirection(setup: MuscleSetup, left: HumanBone, right: HumanBone): [number, number, number] {
    const l = setup.twistAxis[left];
    const r = setup.twistAxis[right];
    const v = new Vector3(l.x - r.x, l.y + r.y, l.z + r.z).normalize();
    return [v.x, v.y, v.z];
}

/** The source's T-pose leg directions for a clip's proportions, or none when a leg points further from down than a humanoid's T-pose leg does (`CLIP_LEG_DIRECTION_MAX_Y`). */
function legDirections(setup: MuscleSetup): { thighDirection?: [number, number, number]; shinDirection?: [number, number, number] } {
    const thighDirection = legDirection(setup, B.LeftUpperLeg, B.RightUpperLeg);
    const shinDirection = legDirection(setup, B.LeftLowerLeg, B.RightLowerLeg);
    return thighDirection[1] <= CLIP_LEG_DIRECTION_MAX_Y && shinDirection[1] <= CLIP_LEG_DIRECTION_MAX_Y ? { thighDirection, shinDirection } : {};
}
