// Decode's fold of a missing shoulder: its slow turns by rotation, its fast ones by place. Also
// what it shares with a mapped shoulder's shake (collarboneShake.ts): the low-pass's state per
// side (`ShoulderLowPass`) and the upper arm's turn that moves an elbow (`MoveElbowInPlace`).
//
// Why. A character without shoulder bones (the KayKit mannequin, RiggedFigure, VRM avatars that
// leave the optional shoulders out) hands each shoulder's turn to its upper arm (docs/muscles.md,
// missing bones): the arm points as the source's, but its root stays where it is on the chest. In
// mocap the collarbone is the solver's guess (no marker pins the socket): it shakes the socket by
// millimetres at 10 to 30 Hz, and the source's upper arm turns against it, so that its elbow, which
// a marker pins, stays. Folded as a turn, that shake reached the elbow and the hand through the
// whole upper arm: a child's silly walk at 120 frames a second onto RiggedFigure had its hand 2.98
// times the source's jerk (the socket's own jerk 8.3, the source's elbow 4.0, ours 10.8, in the
// same units), with its arms within 0.6 degree of the source's directions. Folded wholly by place
// instead (the upper arm aimed at where the source's collarbone would have put the elbow), the hand
// was 1.28 times the source's jerk but the upper arms 3 to 9 degrees off the source's: a shrug is
// real motion, and a character without collarbones cannot copy both its direction and its elbow.
//
// What. Each missing shoulder's turn is split by time: its slow part (a first-order low-pass,
// time constant `SHOULDER_FAST_SECONDS`) folds into the upper arm as a turn, as before; what it does
// faster moves the socket, as the source's collarbone (its layout, `IClipProportions.shoulderOffsets`,
// at this character's scale) would have moved it, and the upper arm turns by the least it can to
// put its elbow there (the lower arm keeps its turn in the world, so the hand goes with the elbow).
// Decode's shoulder-line step (`MatchShoulderLine`) then turns the line by the slow part only: the
// fast part, moved by place here, would count twice (a chest turned at 30 Hz with the sockets'
// fore-and-aft shake). With 20 ms (a cut-off near 8 Hz, above voluntary motion's, below the
// shake's) the silly walk's hand onto RiggedFigure went 2.98 -> 1.58 times the source's jerk, its
// upper arms 0.6 -> 1.3 degrees off the source's.
//
// The low-pass carries each side's slow turn from one decode to the next (`MissingShoulderFold`,
// owned by the caller: the solver keeps one and forgets it after a jump in time or place). Written
// for the per-frame path (no number handed to a call, nothing allocated); the readable form, with
// Babylon's allocating math, is the test's oracle (test/muscle/shoulderFold.test.ts).
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { QuaternionConjugateToRef, QuaternionFromUnitVectorsToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { MuscleSetup } from "./setup.js";
import { SHOULDER_NUMBERS } from "./shoulderLine.js";
import { FollowTurnInPlace, NoteLowPassStep } from "../math/lowPassStep.js";

const B = HumanBone;

/**
 * Time constant of the low-pass that splits a missing shoulder's turn, seconds: what the shoulder
 * turns faster than this moves the socket by place (see the file's note). 20 ms, a cut-off near
 * 8 Hz: a person's own movements stay below it, a mocap solver's shake of the collarbone (10 to
 * 30 Hz on the takes measured) above.
 */
export const SHOULDER_FAST_SECONDS = 0.02;

/** The shortest upper arm taken as one (metres; shorter: nothing done). */
const SHORTEST = 1e-9;
/**
 * The largest move of the socket by place, as a share of the upper arm (the arm turns by at most
 * about 14 degrees for it): a shake moves it by millimetres, and a larger move is the pose jumping
 * where time did not (a loop's seam played in place), which would swing the arm about. Also the
 * most a mapped shoulder's shake moves the elbow (`MatchCollarboneShakeInPlace`).
 */
export const SOCKET_MOST_MOVE = 0.25;

const collar = new Vector3();
const turned = new Vector3();
const arm = new Vector3();
const want = new Vector3();
const socketMove = new Vector3();
const rho = new Quaternion();
const before = new Quaternion();
const back = new Quaternion();

/**
 * The low-pass both of decode's shoulder steps keep per side of a character (a missing shoulder's
 * fold, {@link MissingShoulderFold}; a mapped shoulder's shake, `CollarboneShake`): how far its
 * slow parts follow this decode's, its time constant, the sides it acts on and their upper arms'
 * T-pose vectors. Allocation-free after construction.
 */
export abstract class ShoulderLowPass {
    /**
     * How far the slow parts follow the pose's on the next decode, 0 to 1 (in an array: no number
     * is handed to a call on the per-frame path). Set by {@link noteStep}.
     */
    public readonly follow = Float64Array.of(1);
    /** Time constant of the low-pass, seconds (default {@link SHOULDER_FAST_SECONDS}; 0: the slow parts follow all the way, nothing moves by place). */
    public fastSeconds = SHOULDER_FAST_SECONDS;
    /** Per side (left, right): 1 where the step acts (the upper and lower arm mapped, and the shoulder missing or, with its layout, mapped, as the step needs). */
    public readonly sides: Uint8Array;
    /** Per side: the upper arm's T-pose vector from its joint to the lower arm's (canonical, metres; zero on a side not acted on). */
    public readonly upperArms: readonly Vector3[];

    /**
     * @param setup the character's muscle setup
     * @param mapped whether the step acts on sides whose shoulder is mapped (and the character has its shoulders' layout, `MuscleSetup.clipShoulderOffsets`), else on sides without one
     */
    protected constructor(setup: MuscleSetup, mapped: boolean) {
        const j = setup.joint;
        const ref = setup.avatar.referenceWorld.positions;
        const layout = !!setup.clipShoulderOffsets;
        const sides = [
            [B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm],
            [B.RightShoulder, B.RightUpperArm, B.RightLowerArm],
        ];
        this.sides = Uint8Array.from(sides, ([sh, ua, la]) => ((mapped ? j[sh] >= 0 && layout : j[sh] < 0) && j[ua] >= 0 && j[la] >= 0 ? 1 : 0));
        this.upperArms = sides.map(([, ua, la], s) =>
            this.sides[s] ? ref[j[la]].subtract(ref[j[ua]]).applyRotationQuaternion(setup.c0Inverse) : Vector3.Zero(),
        );
    }

    /** Whether the step acts on either side (else it has nothing to do). */
    public get isActive(): boolean {
        return this.sides[0] === 1 || this.sides[1] === 1;
    }

    /**
     * Sets how far the slow parts follow the next decode's: from the time step, `1 - exp(-step /
     * fastSeconds)`, or with no step (a pose set on its own) all the way, so nothing moves by place.
     * @param step the time step since the last decode in `step[0]`, seconds (over a zero step, such as a paused clip, the slow parts stay), or null for none
     */
    public noteStep(step: Float64Array | null): void {
        NoteLowPassStep(this, step);
    }

    /** Forgets the slow parts (after a jump in time or place): the next decode starts them afresh. */
    public abstract reset(): void;
}

/**
 * What decode needs to fold a character's missing shoulders by time (see the file's note): each
 * side's slow turn, carried from one decode to the next, and how far it follows this decode's
 * ({@link ShoulderLowPass}). Made per character; owned by the caller, as the solver does.
 * Allocation-free after construction.
 */
export class MissingShoulderFold extends ShoulderLowPass {
    /**
     * Per side (left, right): the shoulder's slow turn (canonical, relative to the bone it hangs
     * from, as its muscles give it).
     */
    public readonly slow: readonly Quaternion[] = [new Quaternion(), new Quaternion()];
    /** Per side: 1 once {@link slow} holds a turn (0: the next decode starts it at the pose's own turn, so nothing is moved by place). */
    public readonly known = new Uint8Array(2);
    /**
     * Per side: 1 when the last decode folded that side by time, so that {@link slow} is the turn
     * it folded as a rotation (decode's shoulder-line step then turns the line by that, not by the
     * whole turn: the fast part, already moved by place, would count twice).
     */
    public readonly applied = new Uint8Array(2);

    /** @param setup the character's muscle setup (the sides acted on: those without a shoulder) */
    public constructor(setup: MuscleSetup) {
        super(setup, false);
    }

    /** Forgets the slow turns (after a jump in time or place): the next decode starts them afresh. */
    public reset(): void {
        this.known.fill(0);
        this.applied.fill(0);
    }
}

/**
 * Turns an upper arm by the least it can to move its elbow by `move`, and its lower arm back so
 * that it keeps its turn in the world (the hand goes with the elbow): what both shoulder steps do
 * once they know the move. The move is taken at most `SOCKET_MOST_MOVE` of the upper arm (in place:
 * a jump of the pose that is no jump in time, a loop's seam played in place, would swing the arm
 * about); only its part across the arm moves the elbow. Nothing happens for an arm or a wanted
 * direction shorter than `SHORTEST`. Allocation-free.
 * @param q the decoded canonical rotations of every human bone, changed in place
 * @param ua the upper arm's bone
 * @param la the lower arm's bone
 * @param upperArm the upper arm's T-pose vector (canonical, metres)
 * @param frame the turn from the frame `move` is in to the bone the upper arm hangs from (a mapped shoulder's, relative to the bone the shoulders hang from), or null when the move is in that bone's own frame
 * @param move the elbow's move (canonical, metres), clamped in place
 */
export function MoveElbowInPlace(q: Quaternion[], ua: number, la: number, upperArm: Vector3, frame: Quaternion | null, move: Vector3): void {
    upperArm.applyRotationQuaternionToRef(q[ua], arm);
    if (frame) arm.applyRotationQuaternionInPlace(frame);
    const la2 = arm.x * arm.x + arm.y * arm.y + arm.z * arm.z;
    const m2 = move.x * move.x + move.y * move.y + move.z * move.z;
    if (m2 > SOCKET_MOST_MOVE * SOCKET_MOST_MOVE * la2) {
        const km = (SOCKET_MOST_MOVE * Math.sqrt(la2)) / Math.sqrt(m2);
        move.x *= km;
        move.y *= km;
        move.z *= km;
    }
    want.x = arm.x + move.x;
    want.y = arm.y + move.y;
    want.z = arm.z + move.z;
    const lw2 = want.x * want.x + want.y * want.y + want.z * want.z;
    if (!(la2 > SHORTEST * SHORTEST && lw2 > SHORTEST * SHORTEST)) return;
    const ka = 1 / Math.sqrt(la2);
    const kw = 1 / Math.sqrt(lw2);
    arm.x *= ka;
    arm.y *= ka;
    arm.z *= ka;
    want.x *= kw;
    want.y *= kw;
    want.z *= kw;
    // The least turn onto it in the move's frame, taken into the upper arm's parent's:
    // Q_A' = F^-1 rho F Q_A; the lower arm keeps its world rotation: Q_L' = Q_A'^-1 Q_A Q_L.
    QuaternionFromUnitVectorsToRef(arm, want, rho);
    before.copyFrom(q[ua]);
    if (frame) {
        QuaternionConjugateToRef(frame, back);
        QuaternionMultiplyToRef(back, rho, back);
        QuaternionMultiplyToRef(back, frame, back);
        QuaternionMultiplyToRef(back, before, q[ua]);
    } else QuaternionMultiplyToRef(rho, before, q[ua]);
    QuaternionConjugateToRef(q[ua], back);
    QuaternionMultiplyToRef(back, before, back);
    QuaternionMultiplyToRef(back, q[la], q[la]);
}

/**
 * Folds the fast part of each missing shoulder's turn by place (see the file's note): called by
 * decode after the missing shoulders' turns went to the upper arms (as rotations) and the limbs'
 * twists were shared. Updates `fold.slow` by `fold.follow`; turns each upper arm so that its
 * elbow moves by as much as the source's collarbone, turned by the shoulder's fast part, moved
 * the socket (at most `SOCKET_MOST_MOVE` of the upper arm), and turns the lower arm back so that it keeps
 * its turn in the world; sets `fold.applied`. Nothing happens on a side whose shoulder is mapped,
 * or when `layout` holds NaN (that side's slow turn is then forgotten). Allocation-free.
 * @param setup the character's muscle setup
 * @param q the decoded canonical rotations of every human bone (each relative to its mapped human parent), changed in place
 * @param layout the source's shoulder layout (`SHOULDER_NUMBERS` numbers over its scale: each side's shoulder joint from the bone both hang from, then its upper-arm joint from its shoulder joint, canonical), and optionally the share of the pose from clips that have one (0 to 1, default 1: the socket's move is scaled by it)
 * @param fold the character's fold state (see {@link MissingShoulderFold})
 */
export function FoldMissingShouldersFastInPlace(setup: MuscleSetup, q: Quaternion[], layout: Float64Array, fold: MissingShoulderFold): void {
    const follow = fold.follow[0];
    // How much of the pose comes from clips with a layout (a cross-fade from one without), as the
    // shoulder line reads it: the socket's move is scaled by it.
    const share = layout.length > SHOULDER_NUMBERS ? layout[SHOULDER_NUMBERS] : 1;
    for (let s = 0; s < 2; s++) {
        fold.applied[s] = 0;
        if (!fold.sides[s]) continue;
        const o = s === 0 ? 3 : 9;
        const raw = q[s === 0 ? B.LeftShoulder : B.RightShoulder];
        const slow = fold.slow[s];
        if (!(layout[o] === layout[o] && layout[o + 1] === layout[o + 1] && layout[o + 2] === layout[o + 2] && share > 0)) {
            // No layout to move the socket by: folded as a rotation, the slow turn started afresh later.
            fold.known[s] = 0;
            continue;
        }
        fold.applied[s] = 1;
        // Following all the way (no step, `fastSeconds` 0) or starting afresh: folded as a rotation only.
        if (!fold.known[s] || !(slow.w === slow.w) || follow >= 1) {
            slow.copyFrom(raw);
            fold.known[s] = 1;
            continue;
        }
        // The slow turn follows the pose's.
        FollowTurnInPlace(slow, raw, fold.follow);
        // The socket's move by the fast part: the collarbone turned by the shoulder's whole turn,
        // less turned by its slow part (canonical, in the frame of the bone the arms hang from,
        // metres on this character).
        const k = setup.scale * (share < 1 ? share : 1);
        collar.x = layout[o] * k;
        collar.y = layout[o + 1] * k;
        collar.z = layout[o + 2] * k;
        collar.applyRotationQuaternionToRef(raw, turned);
        collar.applyRotationQuaternionToRef(slow, collar);
        // The socket's move, the elbow's: the upper arm as folded (in the same frame) turned to take it.
        socketMove.x = turned.x - collar.x;
        socketMove.y = turned.y - collar.y;
        socketMove.z = turned.z - collar.z;
        MoveElbowInPlace(q, s === 0 ? B.LeftUpperArm : B.RightUpperArm, s === 0 ? B.LeftLowerArm : B.RightLowerArm, fold.upperArms[s], null, socketMove);
    }
}
