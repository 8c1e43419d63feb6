// The point a planted foot stands on: its ankle, its front (toes, tip, or the ball of a foot that
// ends at its ankle), or a point between, by the foot's pitch and by which end the clip's contacts
// say the source turns about. `HumanoidFootPlanting` holds that point where it touched the ground
// and lifts the lower of the two ends onto the floor. Written for the per-frame path: numbers go
// through arrays (V8 boxes a number handed to a call it does not inline), nothing is allocated.
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { FootContact } from "../clip/muscleClip.js";
import { Vector3CopyToRef } from "../math/hotMath.js";
import { CanonicalPointToRef } from "../muscle/encode.js";
import { MuscleSetup } from "../muscle/setup.js";
import type { HumanoidClipPlayer } from "./clipPlayer.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/**
 * The point a foot stands on goes over from the ankle to the toes as the toes come lower than the
 * ankle (both from their T-pose heights): the ankle while the toes are no lower, the toes once they
 * are twice this much lower, avatar scales (4 mm at 1 m), a point between along a smoothstep. A
 * level foot stands on its ankle (above the heel, where a flat foot bears the body): held at its middle, it slid at both
 * ends whenever its clip turned it (KayKit's long jump onto its own mannequin, the feet turning out
 * as they widen for the jump: a quarter of the source's slide was left, 0.2 is allowed; 0.5% now).
 * A nearly level foot hardly turns, so the hold goes over without a step in the foot's velocity;
 * switching once the heel had lifted (the toes 1 cm lower) stepped it, and a wider zone turns the
 * foot about a point off the ground (it slides).
 */
const PIVOT_SPAN = 0.002;
/**
 * While a foot is held, the point it stands on goes back from its toes toward its ankle only as far
 * as the ankle is down: fully while the ankle is within `PIVOT_RETURN_LOW` of its T-pose height, not
 * at all from `PIVOT_RETURN_HIGH` up (a smoothstep between), avatar scales of the pose (5 mm and 2 cm
 * at 1 m); toward the toes it goes as before. A foot leaving the ground (its ankle and toes both
 * rising, the toes faster) took its held point back to its ankle within two frames while it still
 * rolled about its toes: the ankle stopped for a frame and went on at once (a circle walk's feet
 * onto RiggedFigure 4-5 times the source's jerk, 1.2-2.4 with the hold kept on the toes).
 */
const PIVOT_RETURN_LOW = 0.005;
const PIVOT_RETURN_HIGH = 0.02;
/**
 * Where the clip's contacts say which end of a planted foot the source turns about
 * (`FootContact.LeftToesStill`..., written at conversion), the point held across the ground is that
 * end rather than the one the foot's pitch stands on (`PIVOT_SPAN`), and it goes over to the other
 * end within this time, seconds (the contacts place a switch where the source's two ends move
 * alike, so a short going-over steps nothing). The floor lifts the foot by its lower end whichever
 * end is held. The CMU twirl onto a VRM spins on its heel where the character's toes stood lower:
 * held on its toes, the foot was 3.1 times the source's jerk (1.7 with the source's end). At once
 * instead of over 0.02 s: 6 fewer of the 34 unseen takes' 136 pairs met the thresholds (121 of
 * 127, measured before a contact's first end was written back too).
 */
const END_SWITCH_SECONDS = 0.02;

const FEET: readonly HumanBone[] = [HumanBone.LeftFoot, HumanBone.RightFoot];

/**
 * Per foot, the point it stands on (see `PIVOT_SPAN` and `END_SWITCH_SECONDS`): for
 * `HumanoidFootPlanting`, which holds it. Each {@link update} reads a foot goal as decode and the
 * stride's carry left it and writes where the point is ({@link pivot}), where the foot's front is
 * ({@link front}) and how far along the foot the point is ({@link result}). Keeps, per foot, how
 * far toward the front the pitch's point was and the source's still end as it goes over from one
 * end to the other. Allocation-free after construction.
 */
export class HumanoidFootPivot {
    /** The point stood on as of the last {@link update} (canonical, pose units, as the solver's `goalPositions`). */
    public readonly pivot = new Vector3();
    /** The foot's front as of the last {@link update} (canonical, pose units; left as it was for a foot without a front). */
    public readonly front = new Vector3();
    /**
     * The last {@link update}'s numbers: [0] how far the point stood on is from the ankle toward the
     * front up and down (0 to 1, by the pitch), [1] how far it is across the ground (0 to 1: the
     * source's end where the clip gives it), [2] how high the lower of ankle and front is above its
     * T-pose height (pose units): what the floor lifts.
     */
    public readonly result = new Float64Array(3);
    /** Per foot (left, right): where the source's still end is along the foot (0 ankle, 1 front; going over between), as of the last update. */
    public readonly end = [0, 0];
    /** Per foot: how much the source's end weighs in the held point against the pitch's (0 to 1), as of the last update. */
    public readonly endShare = [0, 0];
    /** Per foot: the front's offset from the ankle (canonical, T-pose, metres), null for a foot without a front. */
    private readonly _frontOffset: (Vector3 | null)[];
    /** Per foot: the ankle's and the front's T-pose heights (canonical, metres). */
    private readonly _restHeight: number[][];
    /** The avatar's scale (metres). */
    private readonly _scale: number;
    /** Per foot: how far the point stood on is from the ankle toward the front (0 to 1), as of the last update. */
    private readonly _toward = [0, 0];

    /** @param avatar the avatar whose feet stand */
    constructor(avatar: HumanoidAvatar) {
        const setup = MuscleSetup.For(avatar);
        const ref = avatar.referenceWorld.positions;
        const canon = (j: number): Vector3 => CanonicalPointToRef(setup, ref[j], new Vector3());
        // The front of each foot: its toes, or where it has none mapped its own tip, or the ball
        // of a foot that ends at its ankle read from its surface (`MuscleSetup.footFront`).
        const fronts = setup.footFront.map((p) => (p ? CanonicalPointToRef(setup, p, new Vector3()) : null));
        const ankles = FEET.map((foot) => canon(setup.joint[foot]));
        this._frontOffset = fronts.map((p, s) => p?.subtract(ankles[s]) ?? null);
        this._restHeight = fronts.map((p, s) => [ankles[s].y, p?.y ?? 0]);
        this._scale = setup.scale;
    }

    /**
     * The point foot `s` stands on this update, into {@link pivot}, {@link front} and {@link result}.
     * @param s the foot (0 left, 1 right)
     * @param player the clip player (its contacts: which end the source turns about)
     * @param solver the solver (the foot's goal position and rotation after decode, its `positionScale`)
     * @param stepSlot the update's time step, seconds, in `stepSlot[0]` (the point goes back toward the ankle and over between the ends only as time passes)
     * @param held whether planting holds the foot now
     * @param lastValid whether the last update's point is known (false after a jump: the source's end is taken at once)
     */
    public update(s: number, player: HumanoidClipPlayer, solver: HumanoidRigSolver, stepSlot: Float64Array, held: boolean, lastValid: boolean): void {
        const goal = solver.goalPositions[s];
        // The pivot: the ankle (a level foot too), the toes once they are clearly lower than
        // the ankle (both from their T-pose height), a point between them in between.
        const pivot = this.pivot;
        const toe = this.front;
        Vector3CopyToRef(goal, pivot);
        let toward = 0;
        // Across the ground: the same, or the end the source turns about (see `END_SWITCH_SECONDS`).
        let across = 0;
        const deltaSeconds = stepSlot[0];
        const dt = deltaSeconds > 0 && deltaSeconds < Infinity ? deltaSeconds : 0;
        const off = this._frontOffset[s];
        // Heights in the pose's units: the solver maps a foot's height as (y - ps[1]) * ps[0] + ps[2]
        // metres, so the ankle's T-pose height is ps[1] plus this foot's own difference from
        // the mean, and the avatar's toe offset shrinks by its scale over ps[0].
        const ps = solver.positionScale;
        const ankleRest = ps[1] + (this._restHeight[s][0] * this._scale - ps[2]) / ps[0];
        const ankleUp = goal.y - ankleRest;
        // How high the lower of ankle and toes is above its T-pose height (pose units): what the
        // floor lifts. It does not jump as the point stood on goes over from one end to the
        // other; the point's own height did, as fast as the foot pitched through
        // `PIVOT_SPAN` (3 mm in a frame as the child's jump rolled onto its toes, which made
        // the same take with its rest feet drawn level play 1.3% less jerky on the mannequin).
        let lowestUp = ankleUp;
        if (off) {
            const r = this._scale / ps[0];
            off.applyRotationQuaternionToRef(solver.goalRotations[s], toe);
            toe.x = toe.x * r + goal.x;
            toe.y = toe.y * r + goal.y;
            toe.z = toe.z * r + goal.z;
            const toeUp = toe.y - (ankleRest + off.y * r);
            if (toeUp < lowestUp) lowestUp = toeUp;
            const t = (ankleUp - toeUp) / (2 * PIVOT_SPAN);
            const c = t < 0 ? 0 : t > 1 ? 1 : t;
            toward = c * c * (3 - 2 * c);
            // Held, back toward the ankle only as far as it is down (see `PIVOT_RETURN_LOW`).
            // It goes back only as time passes: over a zero step (a paused clip) it stays.
            const before = this._toward[s];
            if (held && lastValid && toward < before) {
                const u = (ankleUp - PIVOT_RETURN_LOW) / (PIVOT_RETURN_HIGH - PIVOT_RETURN_LOW);
                const v = u < 0 ? 0 : u > 1 ? 1 : u;
                toward = deltaSeconds > 0 ? before + (toward - before) * (1 - v * v * (3 - 2 * v)) : before;
            }
            // The end the clip says the source turns about, where it says (the right foot's
            // bits shifted onto the left's), else the pitch's point: the source's end weighs in
            // as it is known, and goes from one end to the other as it switches, each at a
            // bounded rate (not at all over a zero step). Where no end is known, the pitch's
            // point alone, as it changes.
            const ends = player.contacts >> s;
            const endKnown = (ends & (FootContact.LeftToesStill | FootContact.LeftAnkleStill)) !== 0;
            const target = ends & FootContact.LeftToesStill ? 1 : 0;
            let end = this.end[s];
            let endWeight = this.endShare[s];
            if (!lastValid) {
                end = target;
                endWeight = endKnown ? 1 : 0;
            } else {
                const most = dt / END_SWITCH_SECONDS;
                // Not weighing in yet, the end is where the clip says at once.
                if (endKnown) end = endWeight === 0 ? target : end + (target - end > most ? most : target - end < -most ? -most : target - end);
                // Toward 1 while known, 0 while not.
                if (endKnown) endWeight = endWeight + most < 1 ? endWeight + most : 1;
                else endWeight = endWeight - most > 0 ? endWeight - most : 0;
            }
            this.end[s] = end;
            this.endShare[s] = endWeight;
            across = toward + (end - toward) * endWeight;
            pivot.x += (toe.x - goal.x) * across;
            pivot.y += (toe.y - goal.y) * toward;
            pivot.z += (toe.z - goal.z) * across;
        }
        this._toward[s] = toward;
        const result = this.result;
        result[0] = toward;
        result[1] = across;
        result[2] = lowestUp;
    }
}
