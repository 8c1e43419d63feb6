import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { Vector3CopyToRef, Vector3LerpToRef } from "../math/hotMath.js";
import { MuscleSetup } from "../muscle/setup.js";
import type { HumanoidClipPlayer } from "./clipPlayer.js";
import type { HumanoidRigSolver } from "./rigSolver.js";

/** Default time a released foot takes to go back to the clip's own path, seconds. */
export const DEFAULT_CONTACT_BLEND_SECONDS = 0.2;
/**
 * Default time a foot that touches down takes to come to a stop, seconds: 0, it stops at once. A
 * longer ease-in (0.1 s) takes some jerk out of landings but lets the foot slide that long.
 */
export const DEFAULT_TOUCHDOWN_SECONDS = 0;
/** The foot pivots on its toes once they are this much lower (relative to the T-pose) than the ankle, avatar scales. */
const PIVOT_SWITCH = 0.01;

const FEET: ReadonlyArray<readonly [HumanBone, HumanBone]> = [
    [HumanBone.LeftFoot, HumanBone.LeftToes],
    [HumanBone.RightFoot, HumanBone.RightToes],
];

const toe = new Vector3();
const pg = new Vector3();
/** Numbers of the update (a yaw, an amount), handed over in an array rather than passed: V8 boxes a number passed to a call it does not inline, which allocates. */
const num = new Float64Array(2);

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
 * ankle, or the toes once the heel lifts) is held where it touched the ground, horizontally, so
 * neither the source's own slide nor rounding moves it (the hold may ease in over
 * {@link touchdownSeconds}, so a foot that lands still moving slows down smoothly); height and
 * rotation stay the clip's. On
 * release the foot eases back onto the clip's path over {@link blendSeconds}. Works in the
 * ground's frame, so it holds in every root-motion mode (in place the ground slides under the
 * character). Allocation-free after construction.
 */
export class HumanoidFootPlanting {
    /** Seconds a released foot takes to rejoin the clip's path. Default {@link DEFAULT_CONTACT_BLEND_SECONDS}. */
    public blendSeconds = DEFAULT_CONTACT_BLEND_SECONDS;
    /** Seconds over which a foot that touches down comes to a stop (the hold eases in). Default {@link DEFAULT_TOUCHDOWN_SECONDS}. */
    public touchdownSeconds = DEFAULT_TOUCHDOWN_SECONDS;
    /** Per foot (left, right): planted now. */
    public readonly planted = [false, false];
    /** Per foot: the ground point held (canonical ground frame, avatar scales). */
    public readonly anchors = [new Vector3(), new Vector3()];
    private readonly _toeOffset: (Vector3 | null)[];
    private readonly _restHeight: number[][];
    private readonly _onToes = [false, false];
    private readonly _correction = [new Vector3(), new Vector3()];
    private readonly _release = [new Vector3(), new Vector3()];
    private readonly _releaseLeft = [0, 0];
    private readonly _full = [new Vector3(), new Vector3()];
    private readonly _base = [new Vector3(), new Vector3()];
    private readonly _in = [0, 0];
    private readonly _step = new Float64Array(1);

    /** @param avatar the avatar whose feet are planted */
    constructor(avatar: HumanoidAvatar) {
        const setup = MuscleSetup.For(avatar);
        const ref = avatar.referenceWorld.positions;
        const canon = (j: number): Vector3 =>
            ref[j]
                .subtract(setup.groundOrigin)
                .applyRotationQuaternion(setup.c0Inverse)
                .scale(1 / setup.scale);
        this._toeOffset = FEET.map(([foot, toes]) => (setup.joint[toes] >= 0 ? canon(setup.joint[toes]).subtract(canon(setup.joint[foot])) : null));
        this._restHeight = FEET.map(([foot, toes]) => [canon(setup.joint[foot]).y, setup.joint[toes] >= 0 ? canon(setup.joint[toes]).y : 0]);
    }

    /** Lets both feet go at once (after a jump in time or place). */
    public reset(): void {
        for (let s = 0; s < 2; s++) {
            this.planted[s] = false;
            this._correction[s].setAll(0);
            this._full[s].setAll(0);
            this._base[s].setAll(0);
            this._in[s] = 1;
            this._releaseLeft[s] = 0;
            this._onToes[s] = false;
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
            // The pivot: ankle, or toes once they are clearly lower than the ankle (both from their T-pose height).
            let pivot = goal;
            const wasOnToes = this._onToes[s];
            const off = this._toeOffset[s];
            if (off) {
                off.applyRotationQuaternionToRef(solver.goalRotations[s], toe).addInPlace(goal);
                const ankleUp = goal.y - this._restHeight[s][0];
                const toeUp = toe.y - this._restHeight[s][1];
                if (!this._onToes[s] && toeUp < ankleUp - PIVOT_SWITCH) this._onToes[s] = true;
                else if (this._onToes[s] && ankleUp < toeUp - PIVOT_SWITCH) this._onToes[s] = false;
                if (this._onToes[s]) pivot = toe;
            }
            // The pivot on the ground.
            pg.x = pivot.x - sr[0];
            pg.y = pivot.y;
            pg.z = pivot.z - sr[1];
            turnToRef(pg, num, 0, pg);
            pg.x += gr[0];
            pg.z += gr[1];
            const corr = this._correction[s];
            const contact = (player.contacts & (s === 0 ? 1 : 2)) !== 0;
            if (contact) {
                const full = this._full[s];
                if (!this.planted[s]) {
                    // Touch down: hold where the foot is shown now (a release still easing out carries
                    // on), easing the hold in so a foot that lands moving slows down smoothly.
                    this.planted[s] = true;
                    Vector3CopyToRef(corr, this._base[s]);
                    Vector3CopyToRef(pg, this.anchors[s]).addInPlace(corr);
                    this._in[s] = this.touchdownSeconds > 0 ? 0 : 1;
                    this._releaseLeft[s] = 0;
                } else if (wasOnToes !== this._onToes[s]) {
                    // Pivot switch: the new point is held where it is shown, the correction goes on unchanged.
                    Vector3CopyToRef(pg, this.anchors[s]).addInPlace(full);
                }
                full.x = this.anchors[s].x - pg.x;
                full.y = 0;
                full.z = this.anchors[s].z - pg.z;
                const step =
                    this._in[s] + (this.touchdownSeconds > 0 ? (deltaSeconds > 0 && deltaSeconds < Infinity ? deltaSeconds : 0) / this.touchdownSeconds : 1);
                const w = (this._in[s] = step < 1 ? step : 1);
                num[1] = w * w * (3 - 2 * w);
                Vector3LerpToRef(this._base[s], full, num, 1, corr);
            } else {
                if (this.planted[s]) {
                    this.planted[s] = false;
                    Vector3CopyToRef(corr, this._release[s]);
                    this._releaseLeft[s] = 1;
                }
                const step = deltaSeconds > 0 && deltaSeconds < Infinity ? deltaSeconds : 0;
                const left = this._releaseLeft[s] - (this.blendSeconds > 0 ? step / this.blendSeconds : 1);
                this._releaseLeft[s] = left > 0 ? left : 0;
                const u = this._releaseLeft[s];
                const k = u * u * (3 - 2 * u);
                const r = this._release[s];
                corr.x = r.x * k;
                corr.y = r.y * k;
                corr.z = r.z * k;
            }
            // Ground -> shown for the correction vector.
            num[1] = -yawToGround;
            turnToRef(corr, num, 1, toe);
            goal.x += toe.x;
            goal.z += toe.z;
        }
    }
}
