// Decode's shoulder step: a character without shoulder bones turns the bone its arms hang from so
// that the line between its upper-arm joints turns as the source's did (docs/runtime.md, the
// shoulders).
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { QuaternionConjugateToRef, QuaternionFromUnitVectorsToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { MuscleSetup } from "./setup.js";

const B = HumanBone;

/**
 * How many numbers a source's shoulder layout holds (`IClipProportions.shoulderOffsets`): x y z of
 * the left shoulder joint from the joint of the bone it hangs from, of the left upper-arm joint from
 * the left shoulder joint, then the same two for the right side; canonical frame, T-pose.
 */
export const SHOULDER_NUMBERS = 12;

/**
 * A turn of the line between the upper-arm joints smaller than this (radians) leaves the trunk as
 * decoded: below a hundredth of a degree nothing shows, and a character whose source's shoulders
 * do not move is then the same to the bit as without the step.
 */
const COS_SMALLEST_TURN = Math.cos(1e-4);

const restLine = new Vector3();
const posedLine = new Vector3();
const offset = new Vector3();
const turned = new Vector3();
const turn = new Quaternion();
const unturn = new Quaternion();

/**
 * The source's shoulder layout for a clip (see {@link SHOULDER_NUMBERS}), over its scale: null
 * when it does not map both shoulders (then its shoulders have no motion of their own to hand on)
 * or they do not hang from one bone.
 * @param setup the source's muscle setup
 */
export function SourceShoulderOffsets(setup: MuscleSetup): number[] | null {
    const j = setup.joint;
    if (j[B.LeftShoulder] < 0 || j[B.RightShoulder] < 0) return null;
    const parent = setup.parentBone[B.LeftShoulder];
    if (parent < 0 || parent !== setup.parentBone[B.RightShoulder]) return null;
    const p = setup.avatar.referenceWorld.positions;
    const out: number[] = [];
    const add = (from: number, to: number): void => {
        const v = p[to]
            .subtract(p[from])
            .applyRotationQuaternion(setup.c0Inverse)
            .scaleInPlace(1 / setup.scale);
        out.push(v.x, v.y, v.z);
    };
    add(j[parent], j[B.LeftShoulder]);
    add(j[B.LeftShoulder], j[B.LeftUpperArm]);
    add(j[parent], j[B.RightShoulder]);
    add(j[B.RightShoulder], j[B.RightUpperArm]);
    return out;
}

/**
 * On a character that maps neither shoulder, turns the bone both upper arms hang from (its chest or
 * upper chest) so that the line from its right upper-arm joint to its left turns from its T-pose as
 * the source's did, and turns that bone's other children back (its arms, neck or head keep the
 * world rotations decoded). The source's line is its shoulder layout (`source`, see
 * {@link SHOULDER_NUMBERS}) posed by the shoulders' decoded rotations (`q`, canonical, relative to
 * the bone they hang from), which such a character hands to its upper arms: their directions are
 * the source's, but not where they start. Why: a collarbone swings the arm's root forward and back
 * as the arm swings (mocap walks by 15-20 degrees, which turns the Bandai skeleton's shoulder line by
 * 3 degrees against its chest); a trunk without one kept its shoulders square, so the figure's
 * shoulders turned less than the source's and its hands swung from the wrong place. The turn is
 * about the trunk's axis (the bone's canonical up) by the angle between the two lines' level
 * parts. No-op when the character maps a shoulder, or `source` holds NaN. Allocation-free.
 * @param setup the character's muscle setup
 * @param q the decoded canonical rotations of every human bone, changed in place
 * @param source the source's shoulder layout (12 numbers, source scales)
 */
export function TurnTrunkForShoulders(setup: MuscleSetup, q: Quaternion[], source: Float64Array): void {
    const joint = setup.joint;
    if (joint[B.LeftShoulder] >= 0 || joint[B.RightShoulder] >= 0) return;
    if (!(source[0] === source[0])) return;
    const top = setup.parentBone[B.LeftUpperArm];
    if (top < 0 || top !== setup.parentBone[B.RightUpperArm]) return;
    // Rest: (left root + left collarbone) - (right root + right collarbone); posed: each collarbone
    // turned by its shoulder. Only the turn about the trunk's axis (canonical up): tilted, the bone
    // would swing the neck and head sideways with each shrug, which a collarbone does not. Written
    // out (no Babylon call given a computed number, which V8 boxes).
    const rx = source[0] + source[3] - source[6] - source[9];
    const rz = source[2] + source[5] - source[8] - source[11];
    offset.x = source[3];
    offset.y = source[4];
    offset.z = source[5];
    offset.applyRotationQuaternionToRef(q[B.LeftShoulder], turned);
    let px = source[0] + turned.x - source[6];
    let pz = source[2] + turned.z - source[8];
    offset.x = source[9];
    offset.y = source[10];
    offset.z = source[11];
    offset.applyRotationQuaternionToRef(q[B.RightShoulder], turned);
    px -= turned.x;
    pz -= turned.z;
    const rest = Math.sqrt(rx * rx + rz * rz);
    const posed = Math.sqrt(px * px + pz * pz);
    if (!(rest > 1e-9 && posed > 1e-9)) return;
    restLine.x = rx / rest;
    restLine.y = 0;
    restLine.z = rz / rest;
    posedLine.x = px / posed;
    posedLine.y = 0;
    posedLine.z = pz / posed;
    const dot = restLine.x * posedLine.x + restLine.z * posedLine.z;
    if (!(dot < COS_SMALLEST_TURN)) return;
    QuaternionFromUnitVectorsToRef(restLine, posedLine, turn);
    QuaternionMultiplyToRef(q[top], turn, q[top]);
    QuaternionConjugateToRef(turn, unturn);
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (joint[b] >= 0 && setup.parentBone[b] === top) QuaternionMultiplyToRef(unturn, q[b], q[b]);
    }
}
