import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { Vector3CopyToRef } from "../math/hotMath.js";
import { MuscleSetup } from "../muscle/setup.js";
import type { HumanoidClipPlayer } from "./clipPlayer.js";
import type { HumanoidRigSolver } from "./rigSolver.js";
import { HumanoidFootPivot } from "./footPivot.js";
import {
    ANKLE_STILL_EASE_SECONDS,
    DEFAULT_CONTACT_BLEND_SECONDS,
    DEFAULT_TOUCHDOWN_SECONDS,
    FLOOR_EASE_SECONDS,
    FLOOR_ROUNDING,
    MAX_LANDING_SPEED,
    ReleaseCurveToRef,
    STILL_LANDING_SPEED,
} from "./plantingEases.js";

/**
 * Scratch shared by every instance (the per-frame path is single-threaded and no call runs inside
 * another's): held per instance, it was more of each animator to bring into the cache every frame.
 */
const scratch = {
    /** A number handed to the player (the look-ahead horizon, then the seconds to the next contact). */
    soon: new Float64Array(1),
};

/** The correction turned from the ground to the frame shown. */
const turned = new Vector3();
const pg = new Vector3();
/** How the point stood on moved along the foot this update (ground frame). */
const shift = new Vector3();
/** Numbers of the update (a yaw, an amount), handed over in an array rather than passed: V8 boxes a number passed to a call it does not inline, which allocates. */
const num = new Float64Array(2);
/** The release cubic's numbers, handed over as `num`: [0] how far along (0 to 1), [1] its length, seconds. */
const along = new Float64Array(2);
const ZERO = Vector3.Zero();

/** Rotates (x, z) of `v` about +Y by the yaw `yaw[index]` into `out` (y copied). `out` may be `v`. */
function turnToRef(v: Vector3, yaw: Float64Array, index: number, out: Vector3): Vector3 {
    const c = Math.cos(yaw[index]);
    const s = Math.sin(yaw[index]);
    const x = v.x;
    const z = v.z;
    out.x = x * c + z * s;
    out.y = v.y;
    out.z = -x * s + z * c;
    return out;
}

/**
 * Keeps feet planted while the clip says they are in contact: the point the foot stands on (the
 * ankle, going over to the toes where the foot is level, see `PIVOT_SPAN`; across the ground, the
 * end the source turns about where the clip's contacts say, see `END_SWITCH_SECONDS`) is held where it touched the ground, horizontally, so
 * neither the source's own slide nor rounding moves it (the hold may ease in over
 * {@link touchdownSeconds}, so a foot that lands still moving slows down smoothly), and the lower
 * of its ankle and toes, when it is below the floor (its T-pose height), rises onto it over
 * `FLOOR_EASE_SECONDS` (0.1 s);
 * the foot's rotation stays the clip's. On release the foot eases back onto the clip's path over
 * {@link blendSeconds} along a cubic that starts where it was held with the correction's rate of
 * the hold's last update (the correction has no kink, so a foot the clip held still lifts off on the
 * clip's own path) and ends on the path with the path's velocity. Works in the
 * ground's frame, so it holds in every root-motion mode (in place the ground slides under the
 * character). Allocation-free after construction.
 */
export class HumanoidFootPlanting {
    /** Seconds a released foot takes to rejoin the clip's path. Default {@link DEFAULT_CONTACT_BLEND_SECONDS}. */
    public blendSeconds = DEFAULT_CONTACT_BLEND_SECONDS;
    /**
     * Seconds a foot that touches down takes to come to a stop: the hold eases in over this less one
     * frame of the clip as shown (its frame rate times its speed; nothing when that is not above 0;
     * 0 stops the foot at once at any rate), fixed at the touch-down, the held point's own motion
     * kept by a share falling from 1 to 0 over it; a foot landing faster than a
     * still one (half its avatar's scale a second) takes as much longer as it is faster, at most
     * twice as long (`STILL_LANDING_SPEED`), and at a steady speed slides half that speed times the time further (at
     * most this time less a frame, in avatar scales: 17 mm on a 1 m scale by default at 120 fps,
     * growing with the setting). Default {@link DEFAULT_TOUCHDOWN_SECONDS}.
     */
    public touchdownSeconds = DEFAULT_TOUCHDOWN_SECONDS;
    /** Per foot (left, right): planted now. */
    public readonly planted = [false, false];
    /** Per foot: the ground point held (canonical ground frame, avatar scales; while a touch-down eases in, where the foot rests if it goes on as it landed). */
    public readonly anchors = [new Vector3(), new Vector3()];
    /**
     * Per foot (left, right): where along the foot the point held across the ground is, as of the
     * last update: 0 its ankle, 1 its front (its toes, or without toes its own tip, or for a foot
     * that ends at its ankle the ball of its foot read from its surface: `MuscleSetup.footFront`),
     * between while the hold goes over from one to the other (see `END_SWITCH_SECONDS`): the end the
     * clip says the source turns about, else the end the foot's pitch stands on; always 0 for a
     * foot without a front. Read
     * it while {@link planted}, and do not write it (planting reads it back on the next update);
     * the playground marks that point.
     */
    public readonly heldAlong = [0, 0];
    /** The point each foot stands on (footPivot.ts). */
    private readonly _pivot: HumanoidFootPivot;
    /** The avatar's scale (metres). */
    private readonly _scale: number;
    private readonly _correction = [new Vector3(), new Vector3()];
    /** Per foot, easing out: the correction at release and its rate then (ground frame, per second). */
    private readonly _release = [new Vector3(), new Vector3()];
    private readonly _releaseRate = [new Vector3(), new Vector3()];
    private readonly _releaseLeft = [0, 0];
    /** Per foot: whether the running release lets go of a hold (not so for what a cut-short release left, eased out afresh: that foot was already let go). */
    private readonly _releaseFromHold = [false, false];
    /** Per foot: how long the running release takes, seconds (the blend, or less when the foot lands again sooner). */
    private readonly _releaseSeconds = [0, 0];
    /** Per foot: the correction the running release ends on (0, or what is left when the foot lands again before the blend is over). */
    private readonly _releaseEnd = [new Vector3(), new Vector3()];
    /** Per foot, easing in: the share of its held point's own motion kept as it touched down (1, less for a foot landing faster than `MAX_LANDING_SPEED`), and how far into the ease it is (0 to 1). */
    private readonly _landingKeep = new Float64Array(2);
    private readonly _in = [0, 0];
    /** Per foot: the ease-in's length of the running touch-down, seconds (set at touch-down). */
    private readonly _ease = new Float64Array(2);
    /** Per foot: how far the height's ease onto the floor has gone (0 to 1), and the height correction it started from. */
    private readonly _floorIn = [1, 1];
    private readonly _floorFrom = [0, 0];
    /** Per foot: the clearance worked out on the last update (pose units, before the solver's clamp at 0 and its scale to metres), and its value as the foot touched down, which the hold's clearance eases in from (see `_update`). */
    private readonly _clearanceShown = [0, 0];
    private readonly _clearanceFrom = [0, 0];
    /** Per foot: whether the ease-in has run a frame since touch-down. */
    private readonly _eased = [true, true];
    /** Per foot: the pivot on the ground and the correction of the last update (for speeds), and whether they are set. */
    private readonly _lastPivot = [new Vector3(), new Vector3()];
    private readonly _lastCorrection = [new Vector3(), new Vector3()];
    private readonly _lastValid = [false, false];
    /** Per foot, while planted: the correction's rate over the last update (ground frame, per second), which a release starts with. */
    private readonly _holdRate = [new Vector3(), new Vector3()];
    /** Per foot, its lower point's height over the floor on the hold's last update (pose units), Infinity when none: where the most its clearance is taken as while the release eases out starts. */
    private readonly _liftClearance = new Float64Array(2).fill(Infinity);
    /** Per foot, how fast that height rose over the hold's last update (pose units a second, 0 when falling): the most grows by it, slowing to a stop over the release. */
    private readonly _liftRate = new Float64Array(2);
    /**
     * Per foot: how firmly its goal holds it (`HumanoidRigSolver.footGoalHold`) as of the last
     * update ([0], [1]); what it was when the running hold began, which the touch-down's ease
     * starts from ([2], [3]: 0 from the air, more when the foot lands again while a release the
     * clip did not announce eases out); and what it was at lift-off, which the release eases out
     * from ([4], [5]: less than 1 when the foot lifts off before the touch-down's ease is over).
     */
    private readonly _goalHold = new Float64Array(6);
    /** Per foot: how surely the source's ankle stands still, eased (before the smoothstep; see `ANKLE_STILL_EASE_SECONDS`). */
    private readonly _ankleStill = new Float64Array(2);
    private readonly _step = new Float64Array(1);

    /** @param avatar the avatar whose feet are planted */
    constructor(avatar: HumanoidAvatar) {
        this._scale = MuscleSetup.For(avatar).scale;
        this._pivot = new HumanoidFootPivot(avatar);
    }

    /**
     * Starts a foot's release from `_release` (the correction) and `_releaseRate` (its rate): a
     * cubic over the blend from there to 0 with rate 0. When the clip has the foot land again
     * sooner, the cubic ends then instead, where the full one would be by that time but at rest,
     * so the foot lands moving as the clip's does (a quick step landing while its foot still
     * caught up with its path stepped the foot's velocity) and keeps what is left of the correction.
     */
    private _armRelease(s: number, player: HumanoidClipPlayer): void {
        const blend = this.blendSeconds > 0 ? this.blendSeconds : 0;
        const soon = scratch.soon;
        soon[0] = blend;
        player.nextContactToRef(s, soon, 0);
        const span = soon[0] < blend ? soon[0] : blend;
        this._releaseSeconds[s] = span;
        this._releaseLeft[s] = 1;
        const end = this._releaseEnd[s];
        if (span < blend) {
            // The full cubic (to 0 over the blend) at the touch-down.
            along[0] = span / blend;
            along[1] = blend;
            ReleaseCurveToRef(this._release[s], this._releaseRate[s], ZERO, along, end);
        } else end.setAll(0);
    }

    /** Whether a foot is held, or a release still eases it out or has some of it left for later. */
    public get holding(): boolean {
        for (let s = 0; s < 2; s++) {
            if (this.planted[s] || this._releaseLeft[s] > 0) return true;
            const e = this._releaseEnd[s];
            if (e.x !== 0 || e.y !== 0 || e.z !== 0) return true;
        }
        return false;
    }

    /** Lets both feet go at once (after a jump in time or place). */
    public reset(): void {
        for (let s = 0; s < 2; s++) {
            this.planted[s] = false;
            this._correction[s].setAll(0);
            this._in[s] = 1;
            this._floorIn[s] = 1;
            this._floorFrom[s] = 0;
            this._clearanceShown[s] = 0;
            this._clearanceFrom[s] = 0;
            this._releaseLeft[s] = 0;
            this._releaseFromHold[s] = false;
            this._releaseEnd[s].setAll(0);
            this._lastValid[s] = false;
            this._holdRate[s].setAll(0);
            this._releaseRate[s].setAll(0);
            this._liftClearance[s] = Infinity;
            this._liftRate[s] = 0;
            this._goalHold[s] = 0;
            this._goalHold[2 + s] = 0;
            this._goalHold[4 + s] = 0;
            this._ankleStill[s] = 0;
        }
    }

    /**
     * Moves the solver's foot goals (after `decode`, before `solveIK`) so that planted feet hold.
     * @param player the clip player (contacts and the ground frame)
     * @param solver the solver whose foot goals are adjusted
     * @param deltaSeconds time since the last update (default: the player's last step)
     */
    public update(player: HumanoidClipPlayer, solver: HumanoidRigSolver, deltaSeconds?: number): void {
        // Default: the player's own step, read from its array (no number boxed on the way).
        if (deltaSeconds === undefined) {
            this._update(player, solver, player.step);
        } else {
            this._step[0] = deltaSeconds;
            this._update(player, solver, this._step);
        }
    }

    private _update(player: HumanoidClipPlayer, solver: HumanoidRigSolver, stepSlot: Float64Array): void {
        const deltaSeconds = stepSlot[0];
        if (player.jumped) this.reset();
        const sr = player.shownRoot;
        const gr = player.groundRoot;
        // Shown -> ground: p_g = A * S^-1 * p (A the ground root, S the shown root).
        const yawToGround = gr[2] - sr[2];
        num[0] = yawToGround;
        for (let s = 0; s < 2; s++) {
            const goal = solver.goalPositions[s];
            const dt = deltaSeconds > 0 && deltaSeconds < Infinity ? deltaSeconds : 0;
            const ps = solver.positionScale;
            // The point the foot stands on (footPivot.ts): where it is, its front, and how far
            // along the foot it is held.
            const fp = this._pivot;
            fp.update(s, player, solver, stepSlot, this.planted[s], this._lastValid[s]);
            const pivot = fp.pivot;
            const toe = fp.front;
            const across = fp.result[1];
            const lowestUp = fp.result[2];
            // The pivot on the ground.
            pg.x = pivot.x - sr[0];
            pg.y = pivot.y;
            pg.z = pivot.z - sr[1];
            turnToRef(pg, num, 0, pg);
            pg.x += gr[0];
            pg.z += gr[1];
            const corr = this._correction[s];
            const contact = (player.contacts & (s === 0 ? 1 : 2)) !== 0;
            const last = this._lastPivot[s];
            // The pivot's move along the foot since the last update (ground frame): the toe offset
            // turned onto the ground, times the change of how far toward the toes it is held.
            const moved = this._lastValid[s] ? across - this.heldAlong[s] : 0;
            shift.setAll(0);
            if (moved !== 0) {
                shift.x = (toe.x - goal.x) * moved;
                shift.z = (toe.z - goal.z) * moved;
                turnToRef(shift, num, 0, shift);
            }
            this.heldAlong[s] = across;
            // The pivot's velocity on the ground as shown (clip path plus correction, less its move
            // along the foot), per second.
            const known = this._lastValid[s] && dt > 0;
            const lc = this._lastCorrection[s];
            const vx = known ? (pg.x + corr.x - last.x - lc.x - shift.x) / dt : 0;
            const vz = known ? (pg.z + corr.z - last.z - lc.z - shift.z) / dt : 0;
            // The height's ease onto the floor since touch-down (a smootherstep of `_floorIn` over
            // FLOOR_EASE_SECONDS; 1 when not planted): the floor lift, the clearance handed on and
            // the goal's hold all come in by it.
            let floorEase = 1;
            if (contact) {
                const anchor = this.anchors[s];
                let ease = this._ease[s];
                if (!this.planted[s]) {
                    // The stop's time less one frame of the clip as shown (see `touchdownSeconds`),
                    // kept for this touch-down (a cross-fade to a clip of another rate, or the
                    // option changed, must not move a foot already easing in).
                    const rate = player.contactFrameRate;
                    const td = this.touchdownSeconds;
                    const e0 = rate > 0 && td > 0 ? td - 1 / rate : 0;
                    ease = this._ease[s] = e0 > 0 ? e0 : 0;
                    // Touch down: the foot slows from the speed it moves with to rest at a steady
                    // rate over `ease` (position and velocity continuous), and is held there.
                    this.planted[s] = true;
                    // Its speed in the character's own avatar scales (the pose's are the
                    // source's: `ps[0]` metres each): faster than a still foot, the stop takes
                    // longer in proportion (see `STILL_LANDING_SPEED`), up to the fastest taken;
                    // past that, the share of its motion kept is cut at once.
                    const v = (Math.sqrt(vx * vx + vz * vz) * ps[0]) / this._scale;
                    const keep = v > MAX_LANDING_SPEED ? MAX_LANDING_SPEED / v : 1;
                    // A foot down from the first frame shown (no speed known) is held at once.
                    this._landingKeep[s] = known ? keep : 0;
                    if (v > STILL_LANDING_SPEED) ease = this._ease[s] = (ease * (v < MAX_LANDING_SPEED ? v : MAX_LANDING_SPEED)) / STILL_LANDING_SPEED;
                    // Where it will rest if it goes on as it lands (the stop's travel, half the
                    // speed kept times the ease); set where it does rest as the ease ends.
                    anchor.x = pg.x + corr.x + vx * keep * ease * 0.5;
                    anchor.y = pg.y;
                    anchor.z = pg.z + corr.z + vz * keep * ease * 0.5;
                    this._in[s] = ease > 0 ? 0 : 1;
                    this._eased[s] = false;
                    this._releaseLeft[s] = 0;
                    this._releaseEnd[s].setAll(0);
                    // A foot down from the first frame shown is on the floor at once (nothing to ease from).
                    this._floorIn[s] = this._lastValid[s] ? 0 : 1;
                    this._floorFrom[s] = corr.y;
                    this._clearanceFrom[s] = this._clearanceShown[s];
                    this._goalHold[2 + s] = this._goalHold[s];
                } else {
                    // The point stood on moved along the foot: the held point moves with it, so the
                    // foot rolls over from heel to toes without sliding.
                    anchor.x += shift.x;
                    anchor.z += shift.z;
                }
                // Time into the ease: 0 on the frame the foot lands (it is where it is shown).
                const landing = !this._eased[s];
                const from = this._in[s];
                const step = landing ? 0 : from + (ease > 0 ? dt / ease : 1);
                this._eased[s] = true;
                const x = (this._in[s] = step < 1 ? step : 1);
                if (landing) {
                    // Shown where it is: the correction as it was.
                } else if (from < 1) {
                    // The held point's own move over this update (the clip's, less its move along
                    // the foot), kept by a share falling from 1 to 0 over the ease, `keep` (1 - u)
                    // at a share u of it, averaged over the step; the rest taken away. A steady
                    // speed v stops at a steady rate and travels v ease / 2 (as a path fixed at
                    // touch-down would), but it is the point held now that slows: where the
                    // clip's end goes over from the pitch's point to the end the source turns
                    // about as the foot lands (`END_SWITCH_SECONDS`), a path fixed by the first
                    // point's speed carried on the second (a pushing foot landing on its toes as
                    // it turns about its ankle: the ankle reversed in two frames, the knee 30 to
                    // 60 times the source's jerk there).
                    const kept = ease > 0 && step > from ? (this._landingKeep[s] * (x - from) * (1 - (from + x) * 0.5)) / (step - from) : 0;
                    if (known) {
                        corr.x -= (pg.x - last.x - shift.x) * (1 - kept);
                        corr.z -= (pg.z - last.z - shift.z) * (1 - kept);
                    }
                    if (x >= 1) {
                        anchor.x = pg.x + corr.x;
                        anchor.z = pg.z + corr.z;
                    }
                } else {
                    corr.x = anchor.x - pg.x;
                    corr.z = anchor.z - pg.z;
                }
                // Height: a foot whose lower end is below the floor (its T-pose height: a foot longer
                // or steeper than the source's, pitched as the source's, digs its toes in) eases up
                // onto it over FLOOR_EASE_SECONDS from touch-down; one above it is left as the
                // clip has it. The lift is a smooth max(0, -height) (rounded over FLOOR_ROUNDING).
                const vStep = landing ? this._floorIn[s] : this._floorIn[s] + dt / FLOOR_EASE_SECONDS;
                const vx1 = (this._floorIn[s] = vStep < 1 ? vStep : 1);
                floorEase = vx1 * vx1 * vx1 * (vx1 * (6 * vx1 - 15) + 10);
                const lift = (Math.sqrt(lowestUp * lowestUp + FLOOR_ROUNDING * FLOOR_ROUNDING) - lowestUp - FLOOR_ROUNDING) * 0.5;
                corr.y = this._floorFrom[s] * (1 - floorEase) + lift * floorEase;
                // The correction's rate over this update, for a release to start with (kept as it
                // was over an update that takes no time; none yet at a touch-down).
                const hr = this._holdRate[s];
                if (landing) hr.setAll(0);
                else if (known) {
                    hr.x = (corr.x - lc.x) / dt;
                    hr.y = (corr.y - lc.y) / dt;
                    hr.z = (corr.z - lc.z) / dt;
                }
            } else {
                if (this.planted[s]) {
                    // Lift off: the correction eases out along a cubic that starts at the held point
                    // and ends on the clip's path.
                    this.planted[s] = false;
                    Vector3CopyToRef(corr, this._release[s]);
                    // The correction's rate then: the rate it had over the hold's last update, so
                    // the correction goes on without a kink and the foot lifts off as the clip's
                    // does (a foot the clip held still lifts off on the clip's own path).
                    Vector3CopyToRef(this._holdRate[s], this._releaseRate[s]);
                    this._releaseFromHold[s] = true;
                    this._goalHold[4 + s] = this._goalHold[s];
                    this._armRelease(s, player);
                } else if (dt > 0 && this._releaseLeft[s] <= 0 && this._releaseEnd[s].lengthSquared() > 0) {
                    // A release cut short by a touch-down that did not come (the clip changed): ease
                    // what is left out from rest. Only as time passes: over a zero step (a paused
                    // clip) the touch-down's time has not come yet, and easing out afresh then held
                    // the foot again for the pause (a knee moved by millimetres).
                    Vector3CopyToRef(this._releaseEnd[s], this._release[s]);
                    this._releaseRate[s].setAll(0);
                    // The foot is not held again: it was let go when the cut-short release ended.
                    this._releaseFromHold[s] = false;
                    this._armRelease(s, player);
                }
                const span = this._releaseSeconds[s] > 0 ? this._releaseSeconds[s] : 0;
                const left = this._releaseLeft[s] - (span > 0 ? dt / span : 1);
                this._releaseLeft[s] = left > 0 ? left : 0;
                // Hermite from (release, rate) at x = 0 to (end, 0) at x = 1 (the end itself there).
                along[0] = 1 - this._releaseLeft[s];
                along[1] = span;
                ReleaseCurveToRef(this._release[s], this._releaseRate[s], this._releaseEnd[s], along, corr);
            }
            // How far above the floor the foot's lower point ends up, metres; while the release
            // eases out, no more than it was on the hold's last update plus what it was rising by
            // then, that rise slowing to a stop over the release (its rate r at the start, 0 at
            // the end: r T (u - u^2 / 2) after a share u of the release's T seconds). The leg's
            // shape may move a held foot down by its clearance at most (`HumanoidLegShape.keepLegShape`),
            // and a foot that lifts off fast (a jump's take-off: 0 to 1.1 cm in two frames) gave
            // up that limit within those frames instead of over the release: its target stepped by
            // 5 mm (a leg shortened 0.8 times onto the child's jump: its foot 2.15 times the
            // source's jerk). Held at its last value instead, a heel rising as the hold ended
            // stopped the leg shape's push at once (a walk's knee onto the VRM sample 2.29 times
            // the source's jerk at lift-off, 1.97 with the rise let slow down).
            let clear = lowestUp + corr.y;
            if (this.planted[s]) {
                // Handed on eased in from what it was as the foot touched down, with the height's
                // ease (a smootherstep over FLOOR_EASE_SECONDS). After a release the clearance
                // stays capped at the release's last value (0 after most) while the foot is in the
                // air, and the leg shape's floor limit, on before a contact begins (the ground
                // share below), let go of it by the whole of the foot's clearance on the frame it
                // touched down (CMU's tantrum onto the VRM: 9-12 mm at frame 249, the knee popping
                // sideways by 2-4 mm). Taken as the foot's own in the air instead, the limit
                // followed every landing foot down (the ballet onto the VRM 1.21 -> 1.36 times the
                // source's jerk).
                const from = this._clearanceFrom[s];
                if (floorEase < 1) clear = from + (clear - from) * floorEase;
                // Its rise over this update (kept as it was over one that takes no time), as handed
                // on: a hold shorter than the ease lets go of it from there, with no step.
                if (known) {
                    const rise = this._liftClearance[s] < Infinity ? (clear - this._liftClearance[s]) / dt : 0;
                    this._liftRate[s] = rise > 0 ? rise : 0;
                } else if (!this._lastValid[s]) this._liftRate[s] = 0;
                this._liftClearance[s] = clear;
            } else {
                const u = 1 - this._releaseLeft[s];
                const most = this._liftClearance[s] + this._liftRate[s] * this._releaseSeconds[s] * (u - 0.5 * u * u);
                if (clear > most) clear = most;
            }
            this._clearanceShown[s] = clear;
            solver.footClearance[s] = (clear > 0 ? clear : 0) * ps[0];
            // How firmly the foot is held, for the solver: 1 while planted, easing out with the release.
            let held = 1;
            // How firmly its IK goal holds it against the leg's own shape (kept in the array: see
            // `_goalHold`): eased in from touch-down with the height's ease (a smootherstep over
            // FLOOR_EASE_SECONDS) from what it was then, eased out with the release from what it
            // was at lift-off.
            const gh = this._goalHold;
            if (this.planted[s]) {
                gh[s] = gh[2 + s] + (1 - gh[2 + s]) * floorEase;
            } else {
                const u = this._releaseLeft[s];
                held = this._releaseFromHold[s] ? u * u * u * (u * (6 * u - 15) + 10) : 0;
                gh[s] = held * gh[4 + s];
            }
            solver.footGrounded[s] = held;
            solver.footGoalHold[s] = gh[s];
            // How surely the source's ankle stands still (the clip's end, as weighed in above),
            // eased in and out over ANKLE_STILL_EASE_SECONDS (a smoothstep of a share moving at a
            // bounded rate; at once on the first frame shown): the solver keeps the height of such a
            // held foot as still (`PlantedFootHeight`). Switched within the end's 0.02 s, what the
            // low-pass had lagged came back within a frame (a CMU walk with claps: knees 3 times
            // the source's jerk).
            {
                const want = this._pivot.endShare[s] * (1 - this._pivot.end[s]);
                const most = deltaSeconds > 0 ? deltaSeconds / ANKLE_STILL_EASE_SECONDS : 0;
                const u = this._ankleStill[s];
                const next = !this._lastValid[s] ? want : want > u ? (u + most < want ? u + most : want) : u - most > want ? u - most : want;
                this._ankleStill[s] = next;
                solver.footAnkleStill[s] = next * next * (3 - 2 * next);
            }
            // How firmly the leg's shape keeps it out of the floor: held, or about to be by the
            // clip's contacts (the ground share, which comes in before a contact begins), so the
            // limit is on before the foot lands rather than stepping in as it does.
            const share = solver.footGroundShare[s];
            solver.footFloorHold[s] = 1 - (1 - held) * (1 - (share > 0 ? (share < 1 ? share : 1) : 0));
            Vector3CopyToRef(pg, last);
            Vector3CopyToRef(corr, lc);
            this._lastValid[s] = true;
            // Ground -> shown for the correction vector.
            num[1] = -yawToGround;
            turnToRef(corr, num, 1, turned);
            Vector3CopyToRef(turned, solver.footCorrections[s]);
            goal.x += turned.x;
            goal.y += turned.y;
            goal.z += turned.z;
        }
    }
}
