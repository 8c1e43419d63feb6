import { Observable } from "@babylonjs/core/Misc/observable.js";
import { FootContact, type MuscleClip } from "../clip/muscleClip.js";
import { CLIP_PROPORTION_COUNT } from "../clip/clipProportions.js";
import { MuscleClipSampler } from "../clip/clipSampler.js";
import { HumanoidError } from "../errors.js";
import { HUMAN_IK_GOAL_COUNT, HumanPose } from "../muscle/humanPose.js";
import { TRANSLATION_DOF_COUNT } from "../muscle/translationDof.js";
import { MirrorContacts, MirrorHumanPoseInPlace, MirrorRootInPlace } from "../muscle/mirror.js";
import { ALL_MUSCLE_COUNT } from "../muscle/muscles.js";
import { GOAL_PART, HumanBodyPart, MUSCLE_PART, TRANSLATION_PART } from "./bodyParts.js";
import { HumanoidClipState, HumanoidLayer, LocalSecondsInto } from "./clipLayer.js";
import { CheckRootMotion, RootAtInto, TakeRootStep, TurnAboutUpInPlace, type RootMotionMode } from "./clipRoot.js";
import { GroundSharesToRef, NextContactToRef, PreviousContactToRef } from "./clipContacts.js";
import { BlendLayerProportionsToRef } from "./proportionBlend.js";
import { QuaternionSlerpToRef, Vector3LerpToRef } from "../math/hotMath.js";
import { CheckPlayOptions, type IClipPlayOptions } from "./clipPlayOptions.js";
import { HumanPoseLerpToRef } from "./poseBlend.js";
import { AdvanceClipClock } from "./clipClock.js";

const TWO_PI = 2 * Math.PI;

/**
 * Plays {@link MuscleClip}s on layers and blends them in muscle space, with root motion and foot
 * contacts: the clip side of the runtime, independent of any avatar or scene. Each
 * {@link update} advances time and leaves the blended pose in {@link pose} (canonical frame,
 * avatar scales; root motion handled as {@link rootMotion} says), this frame's root motion in
 * {@link rootDelta}, and the foot contacts in {@link contacts}. Allocation-free after construction.
 */
export class HumanoidClipPlayer {
    /** The layers, base first. Add more with {@link addLayer}. */
    public readonly layers: HumanoidLayer[] = [new HumanoidLayer()];
    private _rootMotion: RootMotionMode;
    private _hadRoot = false;

    /** What happens to the clips' travel. Default `"in-place"`. Changing it re-anchors the ground (as a jump). */
    public get rootMotion(): RootMotionMode {
        return this._rootMotion;
    }

    /**
     * Sets what happens to the clips' travel; a change re-anchors the ground (as a jump).
     * @throws HumanoidError (`BAD_OPTION`) for a mode that is not a {@link RootMotionMode}
     */
    public set rootMotion(mode: RootMotionMode) {
        CheckRootMotion(mode);
        if (mode !== this._rootMotion) this.jumped = this.restarted = true;
        this._rootMotion = mode;
    }
    /** The blended pose of the last update. */
    public readonly pose = new HumanPose();
    /** Root motion of the last update in the shown root's frame (canonical, avatar scales): x, z and yaw (radians about up). */
    public readonly rootDelta = new Float64Array(3);
    /** Where the root is shown in {@link pose} (canonical, avatar scales): x, z, yaw. */
    public readonly shownRoot = new Float64Array(3);
    /** The accumulated root (the character's place on the ground since the start): x, z, yaw, canonical, avatar scales. */
    public readonly groundRoot = new Float64Array(3);
    /**
     * `FootContact` flags of the last update (from the base layer): a foot is down where it is down
     * in clips of at least half the layer's weight, and its still end (ankle or toes) is the one
     * that weighs more among them, when clips of at least half the weight know one.
     */
    public contacts = 0;
    /**
     * Frames per second, as shown, of the clip the contacts of the last update came from most: its
     * frame rate times the speed it plays at (0 when nothing plays). How finely its touch-downs are
     * sampled in the time the character lives in.
     */
    public contactFrameRate = 0;
    /**
     * The source proportions of the last update (the base layer's clips', by weight), in the
     * array form of `ClipProportionsToArray`: leg length, ankle height and hip width over the
     * source's scale, and the left foot's T-pose direction; NaN when no playing clip says.
     */
    public readonly proportions = new Float64Array(CLIP_PROPORTION_COUNT).fill(NaN);
    /** The time step of the last update, seconds (NaN, infinite and negative steps count as 0), in an array so it passes unboxed. */
    public readonly step = new Float64Array(1);
    /** Set when the last update jumped (a play without fade, a seek, a loop in `"clip"` mode): ground-fixed things should be let go. */
    public jumped = false;
    /**
     * Set when the last update started the motion afresh: a play without fade, a seek, a change of
     * {@link rootMotion} (not a cross-fade's new clip, whose motion blends in). Cleared with {@link jumped}.
     */
    public restarted = false;
    /** Whether a clip of the root motion's layer (the base, or the first playing one) with weight went round its loop in the last update. */
    public looped = false;
    /** A clip looped (the state is passed). */
    public readonly onLoopObservable = new Observable<HumanoidClipState>();
    /** A clip that does not loop reached its end (the state is passed). */
    public readonly onEndObservable = new Observable<HumanoidClipState>();
    private readonly _tmp = new Float64Array(3);
    private readonly _tmp2 = new Float64Array(3);
    /** The clip state the contacts of the last update came from most (the strongest of their layer), or null. */
    private _contactState: HumanoidClipState | null = null;
    /** The layer the contacts of the last update came from (the base, or the first playing), or null. */
    private _contactLayer: HumanoidLayer | null = null;
    /** Numbers of the update: [1] a blend amount, [2] a state's local time (`TakeRootStep` reads it there); [0] unused (the time step is {@link step}, which the clocks read). */
    private readonly _num = new Float64Array(3);

    /** @param rootMotion what happens to the clips' travel (default `"in-place"`) */
    constructor(rootMotion: RootMotionMode = "in-place") {
        CheckRootMotion(rootMotion);
        this._rootMotion = rootMotion;
    }

    /**
     * How soon a foot is next in contact, from the last update's time, in the clip its contacts
     * came from most (the strongest of the layer): when the first later frame that has it is
     * reached (as for {@link contacts}, a foot is down between two frames only when it is on both), wrapping
     * round a looping clip, mirrored with the clip. Reads the horizon (seconds of the clip's time
     * to look ahead) from `io[index]` and writes the seconds there, or Infinity when no contact
     * comes within the horizon (or nothing plays). Numbers pass in the array so that none is
     * boxed. Allocation-free.
     * @param side 0 left foot, 1 right foot
     */
    public nextContactToRef(side: number, io: Float64Array, index: number): void {
        NextContactToRef(this._contactState, side, io, index);
    }

    /**
     * How long ago a foot was last in contact, from the last update's time, in the clip its
     * contacts came from most (as {@link nextContactToRef}, looking back): 0 while it is in contact
     * (on a frame that has it, or between two that both have it, whatever the horizon), else the
     * time since its last contact frame, wrapping round a looping clip, mirrored with the clip.
     * Reads the horizon (seconds of the clip's time to look back) from `io[index]` and writes the
     * seconds there, or Infinity when no contact was within the horizon (or nothing plays).
     * Allocation-free.
     * @param side 0 left foot, 1 right foot
     */
    public previousContactToRef(side: number, io: Float64Array, index: number): void {
        PreviousContactToRef(this._contactState, side, io, index);
    }

    /**
     * Per foot, how much it stands on the ground by the clips' contacts around the time shown,
     * into `out[0]` (left) and `out[1]` (right): per clip of the layer the contacts come from, 1
     * in a contact, easing to 0 along a smootherstep over `io[index]` seconds of the clip's own
     * time (at half speed the ease lasts twice as long) after one ends and from 0 over as long
     * before one begins (the two joined as 1 - (1 - a)(1 - b), so that a foot
     * between two near contacts stays down in part); then the clips' shares by their weights,
     * so that a cross-fade moves it smoothly. Continuous in the clips' time for a span above 0;
     * with a span of 0, the contact as held now (a clip of one frame: its frame's). 1 when
     * nothing plays. Allocation-free.
     */
    public groundSharesToRef(io: Float64Array, index: number, out: Float64Array): void {
        GroundSharesToRef(this._contactLayer, io, index, out);
    }

    /**
     * Adds a layer on top (e.g. an upper-body layer: `setMask([Body?, Head, LeftArm, ...])`). Returns its index.
     * @param weight over the layers below, clamped to 0..1 when used (default 1)
     * @throws HumanoidError (`BAD_OPTION`) when `weight` is not a finite number
     */
    public addLayer(weight = 1, parts?: readonly HumanBodyPart[]): number {
        if (!Number.isFinite(weight)) throw new HumanoidError("BAD_OPTION", `addLayer: weight must be a finite number (got ${weight}); it is clamped to 0..1`);
        const layer = new HumanoidLayer();
        layer.weight = weight;
        if (parts) layer.setMask(parts);
        this.layers.push(layer);
        return this.layers.length - 1;
    }

    /** Whether any clip plays on any layer. */
    public get isPlaying(): boolean {
        for (const l of this.layers) for (const s of l.states) if (s.clip) return true;
        return false;
    }

    /**
     * Plays a clip on a layer at once, replacing what the layer played.
     * @returns the clip's state
     * @throws HumanoidError (`BAD_OPTION`) when the speed or start is not a finite number or the
     *   weight not one of at least 0; the layer then plays on as it did
     */
    public play(clip: MuscleClip, options: IClipPlayOptions = {}, layer = 0): HumanoidClipState {
        // Before anything changes: a bad option leaves the layer playing what it played.
        CheckPlayOptions(clip, options);
        const l = this._layer(layer);
        for (const s of l.states) s.clip = null;
        const s = this._start(l, clip, options);
        s.fade = 1;
        this.jumped = this.restarted = true;
        return s;
    }

    /**
     * Fades a clip in over `seconds` while everything else on the layer fades out, each at its
     * own share's rate (all reach 0 as the new clip reaches 1). A fade of no time is a
     * {@link play}.
     * @returns the clip's state
     * @throws HumanoidError (`BAD_OPTION`) as {@link play}
     */
    public crossFade(clip: MuscleClip, seconds: number, options: IClipPlayOptions = {}, layer = 0): HumanoidClipState {
        CheckPlayOptions(clip, options);
        const l = this._layer(layer);
        const rate = 1 / seconds;
        // A fade too short to take a step (or none) is a play.
        if (!(seconds > 0) || !(rate < Infinity) || !l.dominant) return this.play(clip, options, layer);
        // Every clip of the layer fades out at its own share's rate, so that all reach 0 as the
        // new one reaches 1 and the layer's weights keep their sum (fading each at the full rate,
        // a second cross-fade during a fade left them summing to less than 1, and the layers
        // below showed through an upper layer for the rest of the fade). One not shown yet (a
        // fade in that has taken no time) goes at once.
        for (const s of l.states) {
            if (!s.clip) continue;
            if (s.fade > 0) s.fadeRate = -rate * s.fade;
            else s.clip = null;
        }
        const s = this._start(l, clip, options);
        s.fade = 0;
        s.fadeRate = rate;
        return s;
    }

    /** Stops every clip of a layer (all layers when not given). The pose stays as it was. */
    public stop(layer?: number): void {
        for (let i = 0; i < this.layers.length; i++) {
            if (layer !== undefined && i !== layer) continue;
            for (const s of this.layers[i].states) s.clip = null;
        }
    }

    /**
     * Moves every clip of every layer to a time (seconds from its start); ground-fixed things are let go.
     * @throws HumanoidError (`BAD_OPTION`) when `seconds` is not a finite number
     */
    public seek(seconds: number): void {
        if (!Number.isFinite(seconds)) throw new HumanoidError("BAD_OPTION", `seek: seconds must be a finite number (got ${seconds})`);
        for (const l of this.layers) {
            for (const s of l.states) {
                if (!s.clip) continue;
                s.timeSeconds = seconds;
                s.ended = false;
                s.fresh = true;
            }
        }
        this.jumped = this.restarted = true;
    }

    private _layer(index: number): HumanoidLayer {
        while (this.layers.length <= index) this.addLayer();
        return this.layers[index];
    }

    private _start(l: HumanoidLayer, clip: MuscleClip, options: IClipPlayOptions): HumanoidClipState {
        // A free slot, else the faintest.
        let slot: HumanoidClipState | null = null;
        for (const s of l.states) if (!s.clip) slot = slot ?? s;
        if (!slot) {
            slot = l.states[0];
            for (const s of l.states) if (s.weight * s.fade < slot.weight * slot.fade) slot = s;
        }
        if (!slot.sampler || slot.sampler.clip !== clip) slot.sampler = new MuscleClipSampler(clip);
        slot.clip = clip;
        slot.loop = options.loop ?? clip.loop;
        slot.speed = options.speed ?? 1;
        slot.weight = options.weight ?? 1;
        slot.timeSeconds = options.startSeconds ?? 0;
        slot.fadeRate = 0;
        slot.ended = false;
        slot.fresh = true;
        slot.mirror = options.mirror ?? false;
        const at = this._num;
        at[2] = 0;
        RootAtInto(slot.sampler, at, 2, slot.startRoot);
        at[2] = clip.durationSeconds;
        RootAtInto(slot.sampler, at, 2, slot.endRoot);
        if (slot.mirror) {
            MirrorRootInPlace(slot.startRoot);
            MirrorRootInPlace(slot.endRoot);
        }
        return slot;
    }

    /**
     * Advances every clip by `deltaSeconds` and blends. Returns false when nothing plays (the pose
     * is then left as it was).
     */
    public update(deltaSeconds: number): boolean {
        const num = this._num;
        this.step[0] = Number.isFinite(deltaSeconds) && deltaSeconds > 0 ? deltaSeconds : 0;
        let any = false;
        const base = this.layers[0];
        const hadRoot = this._hadRoot;
        // Clocks first (time, fades, events), then the poses: a lone clip of the base layer is
        // sampled straight into the player's pose, not through its own and the layer's (two
        // copies of a pose, and two more poses of each animator brought into the cache a frame).
        for (const l of this.layers) for (const s of l.states) if (s.clip) AdvanceClipClock(this, s);
        const direct = this._loneBaseState();
        for (let li = 0; li < this.layers.length; li++) {
            const l = this.layers[li];
            l.total = 0;
            for (const s of l.states) {
                if (!s.clip) continue;
                this._sample(s, s === direct ? this.pose : s.pose);
                const w = s.weight * s.fade;
                if (!(w > 0)) continue;
                l.total += w;
                if (s === direct) {
                    any = true;
                    continue;
                }
                if (l.total === w) {
                    l.pose.copyFrom(s.pose);
                } else {
                    num[1] = w / l.total;
                    HumanPoseLerpToRef(l.pose, s.pose, num, 1, l.pose);
                }
                any = true;
            }
        }
        if (!any) {
            this.rootDelta.fill(0);
            this._hadRoot = false;
            this.contactFrameRate = 0;
            return false;
        }
        // Layers over the base, on their parts.
        const out = this.pose;
        if (base.total > 0 && !direct) out.copyFrom(base.pose);
        for (let li = base.total > 0 ? 1 : 0; li < this.layers.length; li++) {
            const l = this.layers[li];
            if (!(l.total > 0)) continue;
            // A layer weighs by its own weight: its clips' weights are shares among them (a lone
            // clip of weight 0.5 on an upper layer gave the layer half its strength, where on the
            // base layer it plays in full; cross-fades keep the clips' fades summing to 1).
            let w = li === 0 || (base.total === 0 && li === this._firstActive()) ? 1 : l.weight;
            w = w > 1 ? 1 : w > 0 ? w : 0;
            num[1] = w;
            const m = l.mask;
            const a = out.values;
            const bv = l.pose.values;
            for (let i = 0; i < ALL_MUSCLE_COUNT; i++) if (m[MUSCLE_PART[i]]) a[i] += (bv[i] - a[i]) * w;
            if (m[HumanBodyPart.Body]) {
                Vector3LerpToRef(out.bodyPosition, l.pose.bodyPosition, num, 1, out.bodyPosition);
                QuaternionSlerpToRef(out.bodyRotation, l.pose.bodyRotation, num, 1, out.bodyRotation);
                Vector3LerpToRef(out.hipsPosition, l.pose.hipsPosition, num, 1, out.hipsPosition);
                QuaternionSlerpToRef(out.hipsRotation, l.pose.hipsRotation, num, 1, out.hipsRotation);
            }
            for (let t = 0; t < TRANSLATION_DOF_COUNT; t++) {
                if (m[TRANSLATION_PART[t]]) Vector3LerpToRef(out.translations[t], l.pose.translations[t], num, 1, out.translations[t]);
            }
            for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
                if (!m[GOAL_PART[g]]) continue;
                Vector3LerpToRef(out.goalPositions[g], l.pose.goalPositions[g], num, 1, out.goalPositions[g]);
                QuaternionSlerpToRef(out.goalRotations[g], l.pose.goalRotations[g], num, 1, out.goalRotations[g]);
            }
        }
        // Root motion and contacts from the base layer (or the first playing one).
        const rl = base.total > 0 ? base : this.layers[this._firstActive()];
        const d = this.rootDelta;
        const sr = this.shownRoot;
        d.fill(0);
        sr.fill(0);
        let left = 0;
        let right = 0;
        // The weight of the clips whose held foot's still end is its ankle, and its toes.
        let leftAnkle = 0;
        let leftToes = 0;
        let rightAnkle = 0;
        let rightToes = 0;
        let looped = false;

        // Yaws blend as offsets from the strongest clip's, each within half a turn of it (two
        // clips facing the same way may carry yaws a turn apart).
        const strongest = rl.dominant;
        this._contactState = strongest;
        this._contactLayer = rl;
        this.contactFrameRate = strongest && strongest.clip ? strongest.clip.frameRate * Math.abs(strongest.speed) : 0;
        const yaw0 = strongest ? strongest.shownRoot[2] : 0;
        // The step's travel from the clips that have one: a clip just started (fading in) has
        // none yet, and counted as standing still it held the travel back by its weight for a
        // frame (the ground lagged the shown root by that much: a held foot moved 4 mm).
        let moving = 0;
        for (const s of rl.states) {
            if (!s.clip) continue;
            const w = (s.weight * s.fade) / rl.total;
            if (!(w > 0)) continue;
            if (!s.fresh) {
                d[0] += s.delta[0] * w;
                d[1] += s.delta[1] * w;
                d[2] += s.delta[2] * w;
                moving += w;
            }
            sr[0] += s.shownRoot[0] * w;
            sr[1] += s.shownRoot[1] * w;
            let off = s.shownRoot[2] - yaw0;
            off -= TWO_PI * Math.round(off / TWO_PI);
            sr[2] += off * w;
            const sampler = s.sampler!;
            LocalSecondsInto(s, num, 2);
            sampler.frameSlot[0] = num[2] * s.clip.frameRate;
            const c = s.mirror ? MirrorContacts(sampler.contactsHeldAtSlot()) : sampler.contactsHeldAtSlot();
            if (c & FootContact.Left) left += w;
            if (c & FootContact.Right) right += w;
            if (c & FootContact.LeftAnkleStill) leftAnkle += w;
            if (c & FootContact.LeftToesStill) leftToes += w;
            if (c & FootContact.RightAnkleStill) rightAnkle += w;
            if (c & FootContact.RightToesStill) rightToes += w;
            if (s.wraps !== 0) looped = true;
        }
        if (moving > 0 && moving < 1) {
            d[0] /= moving;
            d[1] /= moving;
            d[2] /= moving;
        }
        this.looped = looped;
        BlendLayerProportionsToRef(rl, this.proportions);
        sr[2] += yaw0;
        let contacts = 0;
        if (left >= 0.5) {
            contacts |= FootContact.Left;
            if (leftAnkle + leftToes >= 0.5) contacts |= leftToes > leftAnkle ? FootContact.LeftToesStill : FootContact.LeftAnkleStill;
        }
        if (right >= 0.5) {
            contacts |= FootContact.Right;
            if (rightAnkle + rightToes >= 0.5) contacts |= rightToes > rightAnkle ? FootContact.RightToesStill : FootContact.RightAnkleStill;
        }
        this.contacts = contacts;
        // The ground root moves by the delta (in its own frame); a jump re-anchors it on the shown root.
        const gr = this.groundRoot;
        this._hadRoot = true;
        // A clip starting in a cross-fade is no jump (its weight starts at nothing): play and seek
        // set `jumped` themselves. (Taking it for one re-anchored the ground and reset planting
        // and the body's smoothing mid-stride in "clip" root motion: a held foot popped by 3 cm.)
        if (this.jumped || !hadRoot) {
            gr.set(sr);
            this.jumped = true;
        } else {
            const t = this._tmp;
            t[0] = d[0];
            t[1] = d[1];
            t[2] = gr[2];
            TurnAboutUpInPlace(t);
            gr[0] += t[0];
            gr[1] += t[1];
            gr[2] += d[2];
        }
        for (const l of this.layers) for (const s of l.states) s.fresh = false;
        return true;
    }

    /** Clears {@link jumped}; call once what depends on the ground has been updated. */
    public clearJump(): void {
        this.jumped = false;
        this.restarted = false;
    }

    private _firstActive(): number {
        for (let i = 0; i < this.layers.length; i++) if (this.layers[i].total > 0) return i;
        return 0;
    }

    /**
     * The base layer's one clip with weight when no other clip of any layer has weight (its pose is
     * then the player's, whatever its weight), else null.
     */
    private _loneBaseState(): HumanoidClipState | null {
        let lone: HumanoidClipState | null = null;
        for (let li = 0; li < this.layers.length; li++) {
            for (const s of this.layers[li].states) {
                if (!s.clip || !(s.weight * s.fade > 0)) continue;
                if (lone || li > 0) return null;
                lone = s;
            }
        }
        return lone;
    }

    /**
     * Samples one state at its time into `pose` (its own, or the player's for a lone clip) and
     * takes its root motion of this step (the loops its clock crossed in `wraps`): the pose moved
     * as {@link rootMotion} says, the step's travel in `delta`.
     */
    private _sample(s: HumanoidClipState, pose: HumanPose): void {
        const num = this._num;
        const clip = s.clip!;
        const sampler = s.sampler!;
        // By frame: the state's loop flag rules, not the clip's.
        LocalSecondsInto(s, num, 2);
        sampler.frameSlot[0] = num[2] * clip.frameRate;
        sampler.sampleSlotToRef(pose);
        if (s.mirror) MirrorHumanPoseInPlace(pose);
        // Every character stands on its own ground, whatever floor height the source had.
        pose.bodyPosition.y -= clip.groundHeight;
        // Root motion of this step, in the previous root's frame, and the pose moved as the mode says.
        TakeRootStep(s, sampler, this.rootMotion, num, pose, this._tmp2, this._tmp);
    }
}
