// Decode's shoulder step: the line between a character's upper-arm joints turns about its trunk's
// axis as the source's did (docs/runtime.md, the shoulders). Written out for the per-frame path: its
// angles kept as unit complex numbers (cosine, sine), no Babylon call given a computed number (V8
// boxes it), nothing allocated; the readable form, with atan2 and Babylon's allocating math, is
// the test's oracle (test/helpers/shoulderLineReference.ts, test/muscle/shoulderLine.test.ts).
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
const chain = new Quaternion();
const toOwn = new Quaternion();
const turned = new Vector3();
const UP = new Vector3(0, 1, 0);
const angle = new Float64Array(1);
const turn = new Quaternion();
const unturn = new Quaternion();
const before = new Quaternion();
/** [0], [1]: the level (x, z) parts of a layout's line, from `lineToRef`. */
const line = new Float64Array(2);

/**
 * The line from the right upper-arm joint to the left of a shoulder layout, relative to the bone
 * the shoulders hang from (canonical), its level parts (x, z) into `line`: at rest (`left` null),
 * or with each collarbone turned by its shoulder's rotation (canonical, relative to that bone).
 */
function lineToRef(layout: Float64Array, left: Quaternion | null, right: Quaternion | null): void {
    offset.x = layout[3];
    offset.y = layout[4];
    offset.z = layout[5];
    if (left) offset.applyRotationQuaternionToRef(left, turned);
    else turned.copyFrom(offset);
    line[0] = layout[0] + turned.x - layout[6];
    line[1] = layout[2] + turned.z - layout[8];
    offset.x = layout[9];
    offset.y = layout[10];
    offset.z = layout[11];
    if (right) offset.applyRotationQuaternionToRef(right, turned);
    else turned.copyFrom(offset);
    line[0] -= turned.x;
    line[1] -= turned.z;
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
 * @param source the source's shoulder layout (12 numbers, source scales), and optionally a 13th: the
 *   share of the pose from clips that have one (0 to 1, default 1; the step's turn is scaled by it)
 * @param sourceLeft the left shoulder's rotation as the muscles give it (canonical, relative to the
 *   bone it hangs from), before the trunk's step turned it to keep its world rotation
 * @param sourceRight the right shoulder's, likewise
 * @param sourceTrunk the source's trunk's turn below its shoulders, relative to the hips, as the
 *   muscles give it (canonical: the spine's, chest's and upper chest's rotations in turn, before
 *   the trunk's step): the source's line is compared with this character's as each hangs in the
 *   body, not only against its own chest, which the trunk's step may turn otherwise
 */
export function MatchShoulderLine(
    setup: MuscleSetup,
    q: Quaternion[],
    source: Float64Array,
    sourceLeft: Quaternion,
    sourceRight: Quaternion,
    sourceTrunk: Quaternion,
): void {
    if (!(source[0] === source[0])) return;
    // How much of the pose comes from clips with a layout (a cross-fade from one without eases the step in).
    const share = source.length > SHOULDER_NUMBERS ? source[SHOULDER_NUMBERS] : 1;
    if (!(share > 0)) return;
    const joint = setup.joint;
    const own = setup.clipShoulderOffsets;
    const top = own ? setup.parentBone[B.LeftShoulder] : setup.parentBone[B.LeftUpperArm];
    if (!own && (joint[B.LeftShoulder] >= 0 || joint[B.RightShoulder] >= 0 || top < 0 || top !== setup.parentBone[B.RightUpperArm])) return;
    // This character's bone the shoulders (or arms) hang from, relative to its hips: Dc = Q_1 ... Q_top.
    chain.x = 0;
    chain.y = 0;
    chain.z = 0;
    chain.w = 1;
    for (let b = top; b > 0; b = setup.parentBone[b]) QuaternionMultiplyToRef(q[b], chain, chain);
    // The source's trunk's turn against this one's (this one's undone, then the source's).
    QuaternionConjugateToRef(chain, toOwn);
    QuaternionMultiplyToRef(toOwn, sourceTrunk, toOwn);
    // Angles below are unit complex numbers (cosine, sine) of the level plane, as atan2(z, x)
    // goes: the readable form with atan2, cos and sin is the test's oracle
    // (test/helpers/shoulderLineReference.ts).
    lineToRef(source, null, null);
    let n = line[0] * line[0] + line[1] * line[1];
    if (!(n > 1e-18)) return;
    n = 1 / Math.sqrt(n);
    const restC = line[0] * n;
    const restS = line[1] * n;
    lineToRef(source, sourceLeft, sourceRight);
    n = line[0] * line[0] + line[1] * line[1];
    if (!(n > 1e-18)) return;
    n = 1 / Math.sqrt(n);
    const posedC = line[0] * n;
    const posedS = line[1] * n;
    // The source's line turned by this much (about canonical up, as atan2(z, x) goes): against
    // its chest, plus how much further its trunk is turned about up than this one's (the twist
    // about up of the one trunk's turn against the other's, by -2 atan2(y, w); a tilt between
    // them left out): posed * conj(rest) * twist.
    const yy = toOwn.y;
    const ww = toOwn.w;
    const tn = yy * yy + ww * ww;
    // (A trunk turned half a turn about up against the other has no twist to give: left as decoded.)
    if (!(tn > 1e-30)) return;
    const twistC = (ww * ww - yy * yy) / tn;
    const twistS = (-2 * ww * yy) / tn;
    const relC = posedC * restC + posedS * restS;
    const relS = posedS * restC - posedC * restS;
    const turnC = relC * twistC - relS * twistS;
    const turnS = relC * twistS + relS * twistC;
    if (own) {
        // The wanted direction: this character's rest line turned as the source's.
        lineToRef(own, null, null);
        n = 1 / Math.sqrt(line[0] * line[0] + line[1] * line[1]);
        let ux = (line[0] * turnC - line[1] * turnS) * n;
        let uz = (line[0] * turnS + line[1] * turnC) * n;
        const dx = own[0] - own[6];
        const dz = own[2] - own[8];
        lineToRef(own, q[B.LeftShoulder], q[B.RightShoulder]);
        const cx = line[0] - dx;
        const cz = line[1] - dz;
        const d2 = dx * dx + dz * dz;
        const c2 = cx * cx + cz * cz;
        if (d2 > c2) {
            // Roots further apart than the collarbones reach: the line's directions lie within
            // asin(|c| / |D|) of the roots' own; a wanted one past that goes to the nearest edge.
            const dn = 1 / Math.sqrt(d2);
            const offC = (ux * dx + uz * dz) * dn;
            const offS = (uz * dx - ux * dz) * dn;
            const reachS = Math.sqrt(c2 / d2);
            const reachC = Math.sqrt(1 - c2 / d2);
            if (offC < reachC) {
                const side = offS < 0 ? -reachS : reachS;
                ux = (reachC * dx - side * dz) * dn;
                uz = (side * dx + reachC * dz) * dn;
            }
        }
        const ud = ux * dx + uz * dz;
        const lambda = ud + Math.sqrt(Math.max(ud * ud - d2 + c2, 0));
        // A turn about +y takes atan2(z, x) down by its angle (Babylon's left-handed frame): from
        // the collarbones' part c to the wanted w = lambda u - D, by the angle of c * conj(w).
        const wx = lambda * ux - dx;
        const wz = lambda * uz - dz;
        angle[0] = share * Math.atan2(cz * wx - cx * wz, cx * wx + cz * wz);
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
    angle[0] = -share * Math.atan2(turnS, turnC);
    if (!(Math.abs(angle[0]) > SMALLEST_TURN)) return;
    QuaternionRotationAxisToRef(UP, angle, 0, turn);
    QuaternionMultiplyToRef(q[top], turn, q[top]);
    QuaternionConjugateToRef(turn, unturn);
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (joint[b] >= 0 && setup.parentBone[b] === top) QuaternionMultiplyToRef(unturn, q[b], q[b]);
    }
}
