// Decode's trunk step: each of the character's trunk segments turned as the source's trunk turns
// over the same share of its length (docs/runtime.md, the trunk's layout).
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { QuaternionConjugateToRef, QuaternionFromUnitVectorsToRef, QuaternionMultiplyToRef, QuaternionNormalizeInPlace } from "../math/hotMath.js";
import { TRUNK_BONES, type MuscleSetup } from "./setup.js";
import { FollowTurnInPlace, NoteLowPassStep } from "../math/lowPassStep.js";

const B = HumanBone;
const tmpQ = new Quaternion();
const tmpQ2 = new Quaternion();
const tmpV = new Vector3();

/** How many numbers a trunk layout holds (x y z per `TRUNK_BONES` bone). */
export const TRUNK_NUMBERS = 3 * TRUNK_BONES.length;
/** The source's trunk as a path of 6 points from the hip joints' middle (x y z each, canonical, source scales): at rest, and posed. */
const trunkRest = new Float64Array(18);
const trunkPosed = new Float64Array(18);
/** Distance along the source's trunk to each of its points (source scales). */
const trunkAlong = new Float64Array(6);
/** Distances handed to {@link trunkPointToRef}: [0] where a target segment starts, [1] where it ends (source scales). */
const trunkAt = new Float64Array(2);
/** Per trunk bone (`TRUNK_BONES` order): its decoded canonical rotation `Dc`, and the one it is turned to. */
const trunkDecoded: Quaternion[] = TRUNK_BONES.map(() => new Quaternion());
const trunkTurned: Quaternion[] = TRUNK_BONES.map(() => new Quaternion());
/** Per human bone: its index in `TRUNK_BONES`, or -1. */
const TRUNK_INDEX: Int8Array = (() => {
    const m = new Int8Array(HUMAN_BONE_COUNT).fill(-1);
    TRUNK_BONES.forEach((b, i) => (m[b] = i));
    return m;
})();
/** Trunk layouts this close in every number (source scales) are the same: decode leaves the trunk as it is. */
const SAME_LAYOUT = 1e-9;
const chordRest = new Vector3();
const chordPosed = new Vector3();
const segment = new Vector3();
const wanted = new Vector3();
const trunkTurn = new Quaternion();
/** Where the hips' piece (hip joints' middle to spine joint) would end turned as the source's chord over its shares (canonical, own units). */
const hipsEnd = new Vector3();
/** The first segment's direction by place (see `MatchTrunkToSource`), and the turn to it from its chord's. */
const aimed = new Vector3();
const placeTurn = new Quaternion();

/**
 * Time constant of the low-pass that splits the hips' piece's turn (see `MatchTrunkToSource`),
 * seconds: what that turn does faster than this, the first segment above it takes by place; what
 * it holds longer, by its chord's direction only. A tenth of a second: a bend held (a lean, a reach
 * down) keeps the trunk's shape, and a step's sway and mocap's jitter keep the source's places.
 */
export const TRUNK_PLACE_SECONDS = 0.1;

/**
 * What decode needs to hand the fast part of the hips' piece's turn on to the spine (see
 * `MatchTrunkToSource`): the slow part of the first segment's turn from its chord's direction
 * to its direction by place, carried from one decode to the next, and how far it follows this
 * decode's. Made per character; owned by the caller, as the solver does. Allocation-free.
 */
export class TrunkPlaceLowPass {
    /** How far the slow part follows the next decode's, 0 to 1 (in an array: no number is handed to a call on the per-frame path). Set by {@link noteStep}. */
    public readonly follow = Float64Array.of(1);
    /** Time constant, seconds (default {@link TRUNK_PLACE_SECONDS}; 0: the slow part follows all the way, the trunk turns by its chords only). */
    public fastSeconds = TRUNK_PLACE_SECONDS;
    /** The slow part of the turn (canonical, the hips' frame). */
    public readonly slow = new Quaternion();
    /** 1 once {@link slow} holds a turn (0: the next decode starts it at its own turn, so nothing goes by place). */
    public readonly known = new Uint8Array(1);

    /**
     * Sets how far the slow part follows the next decode's: from the time step, `1 - exp(-step /
     * fastSeconds)`, or with no step (a pose set on its own) all the way, so nothing goes by place.
     * @param step the time step since the last decode in `step[0]`, seconds (over a zero step the slow part stays), or null for none
     */
    public noteStep(step: Float64Array | null): void {
        NoteLowPassStep(this, step);
    }

    /** Forgets the slow part (after a jump in time or place): the next decode starts it afresh. */
    public reset(): void {
        this.known[0] = 0;
    }
}

/** The point of a trunk path (`trunkRest` or `trunkPosed`) at `trunkAt[at]` along it (clamped to its ends), into `out`. */
function trunkPointToRef(path: Float64Array, at: number, out: Vector3): void {
    const d = trunkAt[at];
    let k = 1;
    while (k < 5 && d > trunkAlong[k]) k++;
    const span = trunkAlong[k] - trunkAlong[k - 1];
    let t = span > 1e-12 ? (d - trunkAlong[k - 1]) / span : 1;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const a = 3 * (k - 1);
    const b = 3 * k;
    out.x = path[a] + (path[b] - path[a]) * t;
    out.y = path[a + 1] + (path[b + 1] - path[a + 1]) * t;
    out.z = path[a + 2] + (path[b + 2] - path[a + 2]) * t;
}

/**
 * Takes the slow part out of `turn` (the first segment's turn from its chord's direction to its
 * direction by place): the low-pass's slow part follows `turn` by `place.follow`
 * (`FollowTurnInPlace`), and `turn` becomes `turn * slow^-1`, its fast part.
 * On the first decode after a reset the slow part starts at `turn`, so nothing goes by place.
 */
function fastPartInPlace(place: TrunkPlaceLowPass, turn: Quaternion): void {
    const s = place.slow;
    if (!place.known[0]) {
        s.copyFrom(turn);
        place.known[0] = 1;
    } else FollowTurnInPlace(s, turn, place.follow);
    QuaternionConjugateToRef(s, tmpQ);
    QuaternionMultiplyToRef(turn, tmpQ, turn);
}

/**
 * The turn (shortest rotation) of the source's chord from `trunkAt[0]` to `trunkAt[1]` along its
 * path, from its T-pose (`trunkRest`) to its pose (`trunkPosed`), into `out`. False (and `out` as
 * it was) when either chord has no length.
 */
function chordTurnToRef(out: Quaternion): boolean {
    trunkPointToRef(trunkRest, 1, chordRest);
    trunkPointToRef(trunkRest, 0, tmpV);
    chordRest.subtractInPlace(tmpV);
    trunkPointToRef(trunkPosed, 1, chordPosed);
    trunkPointToRef(trunkPosed, 0, tmpV);
    chordPosed.subtractInPlace(tmpV);
    const lr = Math.sqrt(chordRest.x * chordRest.x + chordRest.y * chordRest.y + chordRest.z * chordRest.z);
    const lp = Math.sqrt(chordPosed.x * chordPosed.x + chordPosed.y * chordPosed.y + chordPosed.z * chordPosed.z);
    if (!(lr > 1e-12 && lp > 1e-12)) return false;
    chordRest.x /= lr;
    chordRest.y /= lr;
    chordRest.z /= lr;
    chordPosed.x /= lp;
    chordPosed.y /= lp;
    chordPosed.z /= lp;
    QuaternionFromUnitVectorsToRef(chordRest, chordPosed, out);
    return true;
}

/**
 * Turns the trunk's segments as the source's trunk turns over the same share of its length. The
 * source's trunk is the path through its trunk joints (`source`: their T-pose offsets, canonical,
 * source scales), posed by the muscles' own rotations of its trunk bones (`raw`, `TRUNK_BONES` order, before missing bones fold in); this
 * trunk's path through its own joints. A segment of this trunk from a share a to a share b of its
 * length takes the turn (shortest rotation) of the source's chord from a to b, from its T-pose to
 * its pose: its direction becomes that turn applied to its T-pose direction, by the least swing
 * of its bone's decoded rotation (the bone's twist is kept). The head keeps its decoded rotation,
 * and every other child of a turned bone (shoulders, arms) keeps its own: only the trunk's
 * segments change. On the source's own skeleton the chords are the segments: nothing changes.
 * Why: mocap turns its spine bones against each other so that its head keeps still, and the
 * turns cancel only along a trunk whose joints sit where the source's do; turned bone by bone,
 * RiggedFigure's trunk (its spine joint 0.32 centre-of-mass heights above its hips, the zombie
 * mocap's 0.09) carried the jitter to its head 3 times the source's.
 *
 * The first piece, from the hip joints' middle to the spine joint, moves with the hips and does
 * not turn. Where this spine joint sits at a higher share than the source's, the source's path
 * over that piece's shares turns with the source's spine bone, and that turn has nowhere to go: the
 * source's spine moves its chest point with it and its chest and upper chest turn back so that
 * the neck keeps still, while ours moved the chest point by less and the turns back carried on to
 * the neck and arms (a child's robot walk: its chest point 3.3 thousandths of the trunk in a frame,
 * ours 1.6; the X Bot's neck 1.3 and RiggedFigure's hands 2.5 times the source's jerk). By place,
 * the first segment above it is aimed, from its joint, at where the piece turned as its chord and
 * the segment as its own would end: its end, and every joint above, lands at the source's path
 * point of its share (scaled) as the hips' piece would have carried it. With `place` (a low-pass
 * carried from one decode to the next) the segment takes only the fast part of its turn from its
 * chord's direction to that one ({@link TRUNK_PLACE_SECONDS}): a bend held keeps the chords' shape,
 * which the whole turn bent into the first bone (KayKit's sneak onto the X Bot, its head from the
 * hips joint 3.7 -> 9.2 degrees off the source's; the child's jump onto RiggedFigure with every
 * limit pushed its spine into its range, head 1.42 -> 1.67 times the jerk without limits). Without
 * `place` (a pose decoded on its own) the segments turn by their chords only. With the source's
 * spine joint at the same share or higher the piece's chord does not turn, and nothing changes.
 * @param setup the character's muscle setup
 * @param q every human bone's decoded canonical rotation (changed in place: the trunk's bones, and the children off it)
 * @param raw the trunk bones' rotations as the muscles give them (`TRUNK_BONES` order)
 * @param source the source's trunk layout (`TRUNK_NUMBERS` numbers)
 * @param place optional: the low-pass that hands the hips' piece's fast turn on (default none)
 */
export function MatchTrunkToSource(
    setup: MuscleSetup,
    q: Quaternion[],
    raw: readonly Quaternion[],
    source: Float64Array,
    place?: TrunkPlaceLowPass | null,
): void {
    // A clip made on this skeleton (or one laid out alike): the chords are the segments, nothing to turn.
    const layout = setup.clipTrunkOffsets;
    let same = true;
    for (let i = 0; i < TRUNK_NUMBERS && same; i++) same = Math.abs(source[i] - layout[i]) <= SAME_LAYOUT;
    if (same) return;
    // The source's path, at rest and posed (Dc of its hips: identity).
    let length = 0;
    tmpQ.set(0, 0, 0, 1);
    for (let i = 0; i < 3; i++) trunkRest[i] = trunkPosed[i] = 0;
    trunkAlong[0] = 0;
    for (let i = 0; i < 5; i++) {
        tmpV.x = source[3 * i];
        tmpV.y = source[3 * i + 1];
        tmpV.z = source[3 * i + 2];
        length += Math.sqrt(tmpV.x * tmpV.x + tmpV.y * tmpV.y + tmpV.z * tmpV.z);
        trunkAlong[i + 1] = length;
        trunkRest[3 * i + 3] = trunkRest[3 * i] + tmpV.x;
        trunkRest[3 * i + 4] = trunkRest[3 * i + 1] + tmpV.y;
        trunkRest[3 * i + 5] = trunkRest[3 * i + 2] + tmpV.z;
        tmpV.applyRotationQuaternionInPlace(tmpQ);
        trunkPosed[3 * i + 3] = trunkPosed[3 * i] + tmpV.x;
        trunkPosed[3 * i + 4] = trunkPosed[3 * i + 1] + tmpV.y;
        trunkPosed[3 * i + 5] = trunkPosed[3 * i + 2] + tmpV.z;
        QuaternionMultiplyToRef(tmpQ, raw[i], tmpQ);
    }
    const own = setup.trunkOffsets;
    let ownLength = 0;
    for (let i = 0; i < 5; i++) ownLength += Math.sqrt(own[3 * i] * own[3 * i] + own[3 * i + 1] * own[3 * i + 1] + own[3 * i + 2] * own[3 * i + 2]);
    if (!(length > 1e-9 && length < Infinity && ownLength > 1e-9)) return;
    const joint = setup.joint;
    // Decoded Dc of this trunk's bones, bottom up (each mapped one's parent is the mapped one below).
    tmpQ.set(0, 0, 0, 1);
    for (let i = 0; i < 5; i++) {
        const b = TRUNK_BONES[i];
        if (joint[b] < 0) continue;
        QuaternionMultiplyToRef(tmpQ, q[b], trunkDecoded[i]);
        tmpQ.copyFrom(trunkDecoded[i]);
    }
    // The hips' piece, from the hip joints' middle to the spine joint, moves with the hips. Where
    // the source's path turns over its shares (its spine joint sits lower than this one's share),
    // `hipsEnd` is where that piece would end turned as its chord: with `place`, the first segment
    // above is aimed so that its own end lands where the two chords' turns put it (see the note above).
    let along = Math.sqrt(own[0] * own[0] + own[1] * own[1] + own[2] * own[2]);
    if (place) {
        hipsEnd.x = own[0];
        hipsEnd.y = own[1];
        hipsEnd.z = own[2];
        trunkAt[0] = 0;
        trunkAt[1] = (along / ownLength) * length;
        if (along > 1e-12 && chordTurnToRef(trunkTurn)) hipsEnd.applyRotationQuaternionInPlace(trunkTurn);
    }
    let first = true;
    // Each segment from bone i's joint to the next mapped bone's: turned as the source's chord over the same shares.
    tmpQ2.set(0, 0, 0, 1); // the turned Dc of the bone below
    for (let i = 0; i < 5; i++) {
        const b = TRUNK_BONES[i];
        if (joint[b] < 0) continue;
        let next = i + 1;
        while (next < 5 && joint[TRUNK_BONES[next]] < 0) next++;
        const turned = trunkTurned[i];
        turned.copyFrom(trunkDecoded[i]);
        if (next < 5) {
            segment.x = own[3 * next];
            segment.y = own[3 * next + 1];
            segment.z = own[3 * next + 2];
            const piece = Math.sqrt(segment.x * segment.x + segment.y * segment.y + segment.z * segment.z);
            trunkAt[0] = (along / ownLength) * length;
            trunkAt[1] = ((along + piece) / ownLength) * length;
            along += piece;
            if (piece > 1e-12 && chordTurnToRef(trunkTurn)) {
                // wanted = turn * T-pose direction; now = Dc * T-pose direction
                segment.x /= piece;
                segment.y /= piece;
                segment.z /= piece;
                segment.applyRotationQuaternionToRef(trunkTurn, wanted);
                if (first && place) {
                    // By place: from the spine joint (where the hips put it) at hipsEnd + wanted * piece.
                    const ax = hipsEnd.x + wanted.x * piece - own[0];
                    const ay = hipsEnd.y + wanted.y * piece - own[1];
                    const az = hipsEnd.z + wanted.z * piece - own[2];
                    const al = Math.sqrt(ax * ax + ay * ay + az * az);
                    if (al > 1e-9 * piece) {
                        aimed.x = ax / al;
                        aimed.y = ay / al;
                        aimed.z = az / al;
                        QuaternionFromUnitVectorsToRef(wanted, aimed, placeTurn);
                        fastPartInPlace(place, placeTurn);
                        wanted.applyRotationQuaternionInPlace(placeTurn);
                    }
                }
                segment.applyRotationQuaternionInPlace(trunkDecoded[i]);
                QuaternionFromUnitVectorsToRef(segment, wanted, trunkTurn);
                QuaternionNormalizeInPlace(QuaternionMultiplyToRef(trunkTurn, trunkDecoded[i], turned));
            }
            first = false;
        }
        // Q = (turned Dc below)^-1 * turned Dc
        QuaternionConjugateToRef(tmpQ2, tmpQ);
        QuaternionMultiplyToRef(tmpQ, turned, q[b]);
        tmpQ2.copyFrom(turned);
    }
    // Children off the trunk keep their decoded Dc: Q_c = turned(p)^-1 * decoded(p) * Q_c.
    for (let c = 1; c < HUMAN_BONE_COUNT; c++) {
        if (TRUNK_INDEX[c] >= 0 || joint[c] < 0) continue;
        const p = setup.parentBone[c];
        const i = p >= 0 ? TRUNK_INDEX[p] : -1;
        if (i < 0 || p === B.Head) continue;
        QuaternionConjugateToRef(trunkTurned[i], tmpQ);
        QuaternionMultiplyToRef(tmpQ, trunkDecoded[i], tmpQ);
        QuaternionMultiplyToRef(tmpQ, q[c], q[c]);
    }
}
