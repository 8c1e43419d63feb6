// Decode's collarbone shake on a character with shoulders: the sockets' fast moves made the source's.
//
// Why. Mocap's collarbone is the solver's guess (no marker pins the socket): it shakes the socket
// by millimetres at 10 to 30 Hz and the source's upper arm turns against it, so that its elbow,
// which a marker pins, stays (see shoulderFold.ts, which folds a missing shoulder's shake). A
// character with shoulders turns its own collarbones and upper arms as the source's do, but its
// collarbones are not the source's at its scale: the same turn moves its socket by more or less
// than the source's, and its upper arm, turned as much as the source's, no longer puts the elbow
// back. What is left reaches the elbow and the hand: a child's silly walk at 120 frames a second
// onto the VRM sample, whose collarbones move its sockets half as far, had its hand 2.00 times
// the source's jerk (the socket's own shake in the source 37 units of third difference, its hand
// 3.5; ours 18 and 27), with its arms within 0.4 degree of the source's directions.
//
// What. Each side's socket, as the source's collarbone (its layout, `IClipProportions.shoulderOffsets`,
// at this character's scale) turned by the shoulder's decoded turn puts it, and as this character's
// own collarbone, turned as finally decoded (the shoulder line's and the trunk's steps done), puts
// it, both in the frame of the bone the shoulders hang from, is split by time: its slow part a
// first-order low-pass of the position (`SHOULDER_FAST_SECONDS`, as the missing shoulder's), the
// rest its fast part. The elbow moves by the source's fast part less this character's, as far as
// turning the upper arm can move it (across the arm; what runs along it stays): the upper arm
// turns by the least it can and the lower arm keeps its turn in the world, so the hand goes with
// the elbow. The source's socket is taken in the frame this character's chest has after the
// trunk's step (the shoulder's turn as that step left it), so that both are in one frame. Slow
// motion (a shrug, a reach) is left as the rotations give it; on the source's own skeleton the two
// sockets are one and nothing changes, to the bit.
//
// The low-pass carries each side's two sockets from one decode to the next (`CollarboneShake`,
// owned by the caller: the solver keeps one and forgets it after a jump in time or place). Written
// for the per-frame path (no number handed to a call, nothing allocated); the readable form, with
// Babylon's allocating math, is the test's oracle (test/muscle/collarboneShake.test.ts).
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { MuscleSetup } from "./setup.js";
import { MoveElbowInPlace, ShoulderLowPass } from "./shoulderFold.js";
import { SHOULDER_NUMBERS } from "./shoulderLine.js";

const B = HumanBone;

/** A move of the elbow smaller than this share of the upper arm is left out (squared: 1e-10 of the arm), so a clip on its own skeleton decodes to the bit. */
const SMALLEST_MOVE_SQUARED = 1e-20;

const source = new Vector3();
const own = new Vector3();
const move = new Vector3();

/**
 * What decode needs to make a character's sockets shake as the source's (see the file's note):
 * per side, the slow part of the source's socket and of this character's, carried from one decode
 * to the next, and how far they follow this decode's ({@link ShoulderLowPass}). Made per character
 * (its collarbones' layout, `MuscleSetup.clipShoulderOffsets`, read at each call); owned by the
 * caller, as the solver does. Allocation-free after construction.
 */
export class CollarboneShake extends ShoulderLowPass {
    /** Per side (left, right): the slow part of the source's socket (canonical, in the frame of the bone the shoulders hang from, from the shoulder joint, metres on this character). */
    public readonly slowSource: readonly Vector3[] = [new Vector3(), new Vector3()];
    /** Per side: the slow part of this character's own socket (likewise). */
    public readonly slowOwn: readonly Vector3[] = [new Vector3(), new Vector3()];
    /** Per side: 1 once the slow parts hold a position (0: the next decode starts them at its own, so nothing moves). */
    public readonly known = new Uint8Array(2);

    /** @param setup the character's muscle setup (the sides acted on: those with a shoulder, given the character's layout of them) */
    public constructor(setup: MuscleSetup) {
        super(setup, true);
    }

    /** Forgets the slow parts (after a jump in time or place): the next decode starts them afresh. */
    public reset(): void {
        this.known.fill(0);
    }
}

/** `out` = the collarbone `layout[o..o+2]` times `k`, turned by `q` (canonical). */
function collarboneToRef(layout: Float64Array, o: number, k: Float64Array, q: Quaternion, out: Vector3): void {
    out.x = layout[o] * k[0];
    out.y = layout[o + 1] * k[0];
    out.z = layout[o + 2] * k[0];
    out.applyRotationQuaternionInPlace(q);
}

/** `slow` follows `now` by `follow[0]` of the way. */
function followToRef(now: Vector3, follow: Float64Array, slow: Vector3): void {
    const f = follow[0];
    slow.x += (now.x - slow.x) * f;
    slow.y += (now.y - slow.y) * f;
    slow.z += (now.z - slow.z) * f;
}

/** This character's scale, in an array (a number handed to a call is boxed). */
const scaleOf = new Float64Array(1);

/**
 * Moves each elbow by the source's socket's fast move less this character's (see the file's note):
 * called by decode after the shoulder line's step, so that this character's sockets are where the
 * pose puts them. Updates the slow parts by `fold.follow`; turns each upper arm by the least it can
 * to move its elbow so (at most `SOCKET_MOST_MOVE` of the upper arm, scaled by the share of the
 * pose with a layout) and the lower arm back, so that it keeps its turn in the world. Nothing
 * happens on a side without its shoulder (see `FoldMissingShouldersFastInPlace`), nor when the
 * source's layout is this character's (its slow parts are then forgotten). Allocation-free.
 * @param setup the character's muscle setup
 * @param q the decoded canonical rotations of every human bone (each relative to its mapped human parent), changed in place
 * @param layout the source's shoulder layout (`SHOULDER_NUMBERS` numbers over its scale, canonical), and optionally the share of the pose from clips that have one (0 to 1, default 1)
 * @param sourceLeft the left shoulder's turn as the muscles give it, relative to the bone it hangs from as the trunk's step left that bone (canonical: the shoulder's turn after `MatchTrunkToSource`, before the shoulder line's step)
 * @param sourceRight the right shoulder's, likewise
 * @param fold the character's state (see {@link CollarboneShake})
 */
export function MatchCollarboneShakeInPlace(
    setup: MuscleSetup,
    q: Quaternion[],
    layout: Float64Array,
    sourceLeft: Quaternion,
    sourceRight: Quaternion,
    fold: CollarboneShake,
): void {
    const ownLayout = setup.clipShoulderOffsets;
    if (!ownLayout) return;
    const follow = fold.follow;
    const share = layout.length > SHOULDER_NUMBERS ? layout[SHOULDER_NUMBERS] : 1;
    // The source's shoulders laid out as this character's (a clip on its own skeleton): the two
    // sockets are one and nothing would move; nothing is worked out or carried either.
    let same = share >= 1;
    for (let i = 0; same && i < SHOULDER_NUMBERS; i++) same = layout[i] === ownLayout[i];
    if (same) {
        fold.known[0] = 0;
        fold.known[1] = 0;
        return;
    }
    scaleOf[0] = setup.scale;
    // The elbow's move is scaled by the share of the pose with a layout.
    const k = share >= 1 ? 1 : share > 0 ? share : 0;
    for (let s = 0; s < 2; s++) {
        if (!fold.sides[s]) continue;
        const o = s === 0 ? 3 : 9;
        const shoulder = s === 0 ? B.LeftShoulder : B.RightShoulder;
        const ua = s === 0 ? B.LeftUpperArm : B.RightUpperArm;
        const la = s === 0 ? B.LeftLowerArm : B.RightLowerArm;
        // The sockets from the shoulder joint (the roots' own offsets are still: no fast part).
        collarboneToRef(layout, o, scaleOf, s === 0 ? sourceLeft : sourceRight, source);
        collarboneToRef(ownLayout, o, scaleOf, q[shoulder], own);
        const slowSource = fold.slowSource[s];
        const slowOwn = fold.slowOwn[s];
        if (!fold.known[s] || !(follow[0] < 1) || !(slowSource.x === slowSource.x && slowOwn.x === slowOwn.x)) {
            // Starting afresh or following all the way (no step, `fastSeconds` 0): nothing moves.
            slowSource.copyFrom(source);
            slowOwn.copyFrom(own);
            fold.known[s] = 1;
            continue;
        }
        followToRef(source, follow, slowSource);
        followToRef(own, follow, slowOwn);
        // The elbow's move: the source's fast part less this character's.
        move.x = (source.x - slowSource.x - own.x + slowOwn.x) * k;
        move.y = (source.y - slowSource.y - own.y + slowOwn.y) * k;
        move.z = (source.z - slowSource.z - own.z + slowOwn.z) * k;
        // The upper arm's turn: in the frame of the bone the shoulders hang from (its shoulder's turn
        // taken in), a move smaller than a share of it left out (the source's own skeleton).
        const rest = fold.upperArms[s];
        if (!(move.x * move.x + move.y * move.y + move.z * move.z > SMALLEST_MOVE_SQUARED * (rest.x * rest.x + rest.y * rest.y + rest.z * rest.z))) continue;
        MoveElbowInPlace(q, ua, la, rest, q[shoulder], move);
    }
}
