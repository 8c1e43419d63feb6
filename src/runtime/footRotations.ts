import type { Quaternion as QuaternionType } from "@babylonjs/core/Maths/math.vector.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { MuscleSetup } from "../muscle/setup.js";
import { SwingTwistDecomposeToRef } from "../math/swingTwist.js";
import { QuaternionConjugateToRef, QuaternionFromUnitVectorsToRef, QuaternionMultiplyToRef, QuaternionNormalizeInPlace } from "../math/hotMath.js";
import { RiseByRotationToRef } from "./footSole.js";

/**
 * The feet's rotations are taken relative to the body's heading (`HumanoidRigSolver.decode`, the
 * foot rotations), its turn about up; a body tilted further than this from upright, degrees, takes
 * them more and more relative to its whole rotation instead, all of it from
 * {@link FOOT_FRAME_TILT_TO_DEG} on. A body upside down has no heading: its turn about up swings
 * through half a turn as it passes through upside down, and the feet's twists, taken relative to
 * it, flipped with it (a back handspring onto RiggedFigure: its toes 10.7 times the source's jerk
 * in the air, the whole body 2.45; 1.35 with the change). A foot that planting holds
 * (`HumanoidRigSolver.footGoalHold`) keeps the heading by its hold, so a bridge's feet stay flat on
 * the floor. The turn about up moves fast near upside down, and a
 * narrower span let some of that through (145 to 170 degrees: a somersault's toes turned 5.6
 * times as fast as its body in a frame, 2.6 from 120; test/runtime/upsideDownFeet.test.ts).
 */
export const FOOT_FRAME_TILT_FROM_DEG = 120;
/** See {@link FOOT_FRAME_TILT_FROM_DEG}: from this tilt on, degrees, the feet's rotations are taken relative to the body's whole rotation. */
export const FOOT_FRAME_TILT_TO_DEG = 175;
const FOOT_FRAME_FROM_COS = Math.cos((FOOT_FRAME_TILT_FROM_DEG * Math.PI) / 360);
const FOOT_FRAME_TO_COS = Math.cos((FOOT_FRAME_TILT_TO_DEG * Math.PI) / 360);

const tmpQ = new Quaternion();
/** Scratch shared by every instance (the per-frame path is single-threaded): the feet's frame, the source's T-pose foot direction, the turn between the two feet, the source's foot direction (canonical), the swing and twist about it, the twist's angle. */
const scratch = {
    frame: new Quaternion(),
    from: new Vector3(),
    turn: new Quaternion(),
    axis: new Vector3(),
    swing: new Quaternion(),
    twist: new Quaternion(),
    angle: new Float64Array(1),
};

/**
 * The feet's rotations onto this avatar's feet, in `HumanoidRigSolver.decode`.
 *
 * Foot rotations: relative to a frame H, the body's heading (its turn about up) while the
 * body is upright or the foot held (see `FOOT_FRAME_TILT_FROM_DEG`), each goal rotation
 * is split into the swing S of the source's foot direction and the twist T about it
 * (H^-1 R = S T). The foot swings as the source's did, and its twist becomes a twist about
 * this avatar's own foot direction: R' = H S (A T A^-1), A the shortest rotation from the
 * source's T-pose foot direction onto this avatar's. A foot flat on the ground stays flat,
 * and a foot that rolls about its own axis on the source rolls about this one's. Before, the
 * whole rotation was turned by A (R' = H A (H^-1 R) A^-1), which tilts a large swing by the
 * angle between the two feet: KayKit's crawl (feet pointing back, its T-pose foot 46
 * degrees down) onto the CMU skeleton put the feet 21 degrees from the source's, 6 now.
 * A is the left foot's; the right foot's is its mirror image (the clip keeps one foot's
 * direction), so that a skeleton whose feet are not mirror images keeps each foot as it is.
 *
 * Per decode: {@link noteBody} with the body's rotation as the clip has it, then
 * {@link remapInPlace} on the foot goals' rotations once they are in the canonical frame.
 * Allocation-free after construction; numbers go through arrays (V8 boxes a number handed to a
 * call it does not inline).
 */
export class HumanoidFootRotations {
    /** The cosine of half the body's tilt from upright as of the last {@link noteBody} (the length of its rotation's twist about up), in `[0]`; the feet's soles read it. */
    public readonly halfTiltCos = new Float64Array(1);
    /** The body's heading of the last {@link noteBody}: its turn about up (canonical). */
    private readonly _heading = new Quaternion();
    /** How much of the heading the feet's frame keeps: by the body's tilt ([0]; see {@link FOOT_FRAME_TILT_FROM_DEG}), and for the foot at hand, held or not ([1]). */
    private readonly _share = new Float64Array(2);
    private readonly _setup: MuscleSetup;

    /** @param setup this avatar's muscle setup (its feet's T-pose directions) */
    constructor(setup: MuscleSetup) {
        this._setup = setup;
    }

    /**
     * Takes the body's heading (its turn about up, the twist of its rotation about up), which the
     * feet's rotations are taken relative to, and how much of it the feet's frame keeps by the
     * body's tilt; the twist's length is the cosine of half that tilt ({@link halfTiltCos}).
     * @param bodyRotation the pose's body rotation (canonical)
     */
    public noteBody(bodyRotation: QuaternionType): void {
        const br = bodyRotation;
        const yawLength = Math.sqrt(br.y * br.y + br.w * br.w);
        this.halfTiltCos[0] = yawLength;
        const hq = this._heading;
        hq.x = 0;
        hq.y = yawLength > 1e-9 ? br.y / yawLength : 0;
        hq.z = 0;
        hq.w = yawLength > 1e-9 ? br.w / yawLength : 1;
        // How much of the heading the feet's frame keeps (see `FOOT_FRAME_TILT_FROM_DEG`): all of
        // it up to that tilt, a smoothstep down to none at FOOT_FRAME_TILT_TO_DEG.
        const share = this._share;
        share[0] = (yawLength - FOOT_FRAME_TO_COS) / (FOOT_FRAME_FROM_COS - FOOT_FRAME_TO_COS);
        share[0] = share[0] > 0 ? (share[0] < 1 ? share[0] : 1) : 0;
        share[0] = share[0] * share[0] * (3 - 2 * share[0]);
    }

    /**
     * Turns the two foot goals' rotations onto this avatar's feet (see the class's comment), in
     * place; nothing without the source's T-pose foot direction. On the way, each foot's front's
     * rise from its ankle for the feet's soles (`RiseByRotationToRef`): the source's foot as the
     * clip turns it into `rise[0]`, `rise[1]`, this avatar's as turned now into `rise[2]`, `rise[3]`.
     * @param bodyRotation the pose's body rotation (canonical), as {@link noteBody} took it
     * @param sp the clip's source proportions (`HumanoidRigSolver.sourceProportions`: [3..5] the
     *   source's left foot's T-pose direction, canonical; NaN when not known)
     * @param goalHold per foot, how firmly planting holds its goal (0 to 1, `footGoalHold`): a held
     *   foot keeps the heading's frame whatever the body's tilt
     * @param rotations the foot goals' rotations ([0] left, [1] right; canonical, world), turned in place
     * @param rise receives the fronts' rises (`HumanoidFootSole.rise`)
     */
    public remapInPlace(
        bodyRotation: QuaternionType,
        sp: Float64Array,
        goalHold: Float64Array,
        rotations: readonly QuaternionType[],
        rise: Float64Array,
    ): void {
        if (sp[3] === sp[3]) {
            const br = bodyRotation;
            const h = scratch.frame;
            const from = scratch.from;
            from.x = sp[3];
            from.y = sp[4];
            from.z = sp[5];
            QuaternionFromUnitVectorsToRef(from, this._setup.twistAxis[HumanBone.LeftFoot], scratch.turn);
            for (let g = 0; g < 2; g++) {
                if (g === 1) {
                    // Mirrored across the body's middle plane (canonical x): (x, -y, -z, w).
                    scratch.turn.y = -scratch.turn.y;
                    scratch.turn.z = -scratch.turn.z;
                }
                // The foot's frame: the heading, going over to the body's whole rotation as the
                // body turns upside down, unless the foot is held (a bridge's feet stay flat): the
                // heading's share 1 - (1 - k)(1 - hold), the two quaternions blended and normalized
                // (they are at most as far apart as the body is tilted, and their dot, the
                // twist's length, is positive).
                // (Numbers in the scratch array, as the rest of the per-frame path keeps them.)
                const share = this._share;
                share[1] = goalHold[g] > 0 ? (goalHold[g] < 1 ? goalHold[g] : 1) : 0;
                share[1] = 1 - (1 - share[0]) * (1 - share[1]);
                h.x = br.x * (1 - share[1]);
                h.y = br.y * (1 - share[1]) + this._heading.y * share[1];
                h.z = br.z * (1 - share[1]);
                h.w = br.w * (1 - share[1]) + this._heading.w * share[1];
                // (hotMath's normalize: Babylon's hands a length to a call, which V8 boxes.)
                QuaternionNormalizeInPlace(h);
                const r = rotations[g];
                const fs = scratch.axis;
                fs.x = g === 1 ? -sp[3] : sp[3];
                fs.y = sp[4];
                fs.z = sp[5];
                // The source's foot's front's rise from its ankle's, as the clip turns it (footSole.ts).
                RiseByRotationToRef(r, fs, rise, g);
                QuaternionConjugateToRef(h, tmpQ);
                QuaternionMultiplyToRef(tmpQ, r, r);
                // H^-1 R = S T, the twist T about the source's foot direction; T' = A T A^-1.
                SwingTwistDecomposeToRef(r, fs, scratch.swing, scratch.twist, scratch.angle, 0);
                QuaternionMultiplyToRef(scratch.turn, scratch.twist, scratch.twist);
                QuaternionConjugateToRef(scratch.turn, tmpQ);
                QuaternionMultiplyToRef(scratch.twist, tmpQ, scratch.twist);
                QuaternionMultiplyToRef(scratch.swing, scratch.twist, r);
                QuaternionMultiplyToRef(h, r, r);
                // And this foot's, as turned now.
                const ft = this._setup.twistAxis[g === 0 ? HumanBone.LeftFoot : HumanBone.RightFoot];
                RiseByRotationToRef(r, ft, rise, 2 + g);
            }
        }
    }
}
