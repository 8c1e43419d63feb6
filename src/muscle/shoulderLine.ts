// Decode's shoulder step: the line between a character's upper-arm joints turns about its trunk's
// axis as the source's did (docs/runtime.md, the shoulders). Written out: no Babylon call is given
// a computed number (V8 boxes it), and nothing is allocated per call; the test's oracle is the
// decoded rig's joint positions (test/muscle/shoulderLine.test.ts).
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { QuaternionConjugateToRef, QuaternionMultiplyToRef, QuaternionRotationAxisToRef } from "../math/hotMath.js";
import type { MuscleSetup } from "./setup.js";

const B = HumanBone;

/**
 * How many numbers a shoulder layout holds (`IClipProportions.shoulderOffsets`,
 * `MuscleSetup.clipShoulderOffsets`): x y z of the left shoulder joint from the joint of the bone
 * both shoulders hang from, of the left upper-arm joint from the left shoulder joint, then the
 * same two for the right side; canonical frame, T-pose, over the avatar's scale.
 */
export const SHOULDER_NUMBERS = 12;

/** A turn smaller than this (radians) is left out: the same layout on both sides (a clip on its own skeleton) decodes to the bit as without the step. */
const SMALLEST_TURN = 1e-9;

const offset = new Vector3();
const turned = new Vector3();
const UP = new Vector3(0, 1, 0);
const angle = new Float64Array(1);
const turn = new Quaternion();
const unturn = new Quaternion();
const before = new Quaternion();
/** [0], [1]: the level (x, z) parts of a layout's line, from {@link levelLineToRef}. */
const line = new Float64Array(2);

/**
 * The level part (canonical x and z) of the line from the right upper-arm joint to the left of a
 * shoulder layout, relative to the bone the shoulders hang from, into `line`: at rest, or with
 * each collarbone turned by its shoulder's rotation in `q` (canonical, relative to that bone).
 */
function levelLineToRef(layout: Float64Array, q: Quaternion[] | null): void {
    offset.x = layout[3];
    offset.y = layout[4];
    offset.z = layout[5];
    if (q) offset.applyRotationQuaternionToRef(q[B.LeftShoulder], turned);
    else turned.copyFrom(offset);
    let x = layout[0] + turned.x - layout[6];
    let z = layout[2] + turned.z - layout[8];
    offset.x = layout[9];
    offset.y = layout[10];
    offset.z = layout[11];
    if (q) offset.applyRotationQuaternionToRef(q[B.RightShoulder], turned);
    else turned.copyFrom(offset);
    x -= turned.x;
    z -= turned.z;
    line[0] = x;
    line[1] = z;
}

/** `a` less `b`, radians, within (-pi, pi]. */
function angleBetween(a: number, b: number): number {
    let d = a - b;
    if (d > Math.PI) d -= 2 * Math.PI;
    else if (d <= -Math.PI) d += 2 * Math.PI;
    return d;
}

/**
 * Turns this character's shoulder line (from its right upper-arm joint to its left) about its
 * trunk's axis (canonical up) by as much as the source's turned from its T-pose: the source's
 * layout (`source`, see {@link SHOULDER_NUMBERS}) posed by the shoulders' decoded rotations (`q`,
 * canonical, relative to the bone they hang from). Why: a collarbone swings the arm's root
 * forward and back as the arm swings (mocap walks turn theirs by 15-20 degrees), and the same
 * turn moves an arm's root by as much as the collarbone is long: the Bandai skeleton's are 5 cm
 * long, 13 cm out from its chest's middle, the X Bot's 12 cm from its middle, so its shoulder
 * line turned 2.5 times the source's; a character without collarbones kept its shoulders
 * square. Either way the figure's shoulders and the roots its hands swing from went elsewhere
 * than the source's.
 *
 * - **Both shoulders mapped** (the avatar's own layout, `MuscleSetup.clipShoulderOffsets`): both
 *   collarbones turn about up by the one angle that gives the line the wanted direction (the line
 *   is `D + Y(a) (l - r)`, `D` the roots' difference and `l`, `r` the posed collarbones, level
 *   parts: `|lambda u - D| = |l - r|` for the wanted direction `u` gives `lambda`, then the turn
 *   `a` from `l - r` to `lambda u - D`; where collarbones too short cannot reach it, the nearest
 *   direction they can), and the upper arms turn back, so the arms keep their world rotations.
 * - **Neither mapped**: the bone both upper arms hang from (the chest or upper chest) turns about
 *   up by the source's line's turn, and its other children (arms, neck or head) turn back.
 *
 * Only about the trunk's axis: tilted too, the chest swung the head sideways with each shrug.
 * No-op when `source` holds NaN, for a character with one shoulder mapped, or one whose arms do not
 * hang from one bone. Allocation-free.
 * @param setup the character's muscle setup
 * @param q the decoded canonical rotations of every human bone, changed in place
 * @param source the source's shoulder layout (12 numbers, source scales)
 */
export function MatchShoulderLine(setup: MuscleSetup, q: Quaternion[], source: Float64Array): void {
    if (!(source[0] === source[0])) return;
    const joint = setup.joint;
    levelLineToRef(source, null);
    const rest = Math.atan2(line[1], line[0]);
    if (!(line[0] * line[0] + line[1] * line[1] > 1e-18)) return;
    levelLineToRef(source, q);
    if (!(line[0] * line[0] + line[1] * line[1] > 1e-18)) return;
    // The source's line turned by this much (radians, about canonical up, as atan2(z, x) goes).
    const sourceTurn = angleBetween(Math.atan2(line[1], line[0]), rest);
    const own = setup.clipShoulderOffsets;
    if (own) {
        levelLineToRef(own, null);
        const want = Math.atan2(line[1], line[0]) + sourceTurn;
        const ux = Math.cos(want);
        const uz = Math.sin(want);
        const dx = own[0] - own[6];
        const dz = own[2] - own[8];
        levelLineToRef(own, q);
        const cx = line[0] - dx;
        const cz = line[1] - dz;
        const ud = ux * dx + uz * dz;
        const disc = ud * ud - (dx * dx + dz * dz) + (cx * cx + cz * cz);
        const lambda = ud + Math.sqrt(Math.max(disc, 0));
        // A turn about +y takes atan2(z, x) down by its angle (Babylon's left-handed frame).
        angle[0] = angleBetween(Math.atan2(cz, cx), Math.atan2(lambda * uz - dz, lambda * ux - dx));
        if (!(Math.abs(angle[0]) > SMALLEST_TURN)) return;
        QuaternionRotationAxisToRef(UP, angle, 0, turn);
        // Q_S' = Y Q_S; the upper arm's Q_A' = Q_S'^-1 Q_S Q_A keeps its world rotation.
        for (let side = 0; side < 2; side++) {
            const shoulder = side === 0 ? B.LeftShoulder : B.RightShoulder;
            const arm = side === 0 ? B.LeftUpperArm : B.RightUpperArm;
            before.copyFrom(q[shoulder]);
            QuaternionMultiplyToRef(turn, q[shoulder], q[shoulder]);
            QuaternionConjugateToRef(q[shoulder], unturn);
            QuaternionMultiplyToRef(unturn, before, unturn);
            QuaternionMultiplyToRef(unturn, q[arm], q[arm]);
        }
        return;
    }
    if (joint[B.LeftShoulder] >= 0 || joint[B.RightShoulder] >= 0) return;
    const top = setup.parentBone[B.LeftUpperArm];
    if (top < 0 || top !== setup.parentBone[B.RightUpperArm]) return;
    angle[0] = -sourceTurn;
    if (!(Math.abs(angle[0]) > SMALLEST_TURN)) return;
    QuaternionRotationAxisToRef(UP, angle, 0, turn);
    QuaternionMultiplyToRef(q[top], turn, q[top]);
    QuaternionConjugateToRef(turn, unturn);
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (joint[b] >= 0 && setup.parentBone[b] === top) QuaternionMultiplyToRef(unturn, q[b], q[b]);
    }
}
