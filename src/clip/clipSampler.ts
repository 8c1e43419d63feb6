import type { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HUMAN_IK_GOAL_COUNT, type HumanPose } from "../muscle/humanPose.js";
import { ALL_MUSCLE_COUNT } from "../muscle/muscles.js";
import { TRANSLATION_DOF_COUNT } from "../muscle/translationDof.js";
import { AngleUnitToMuscleValue, AngleUnitsToMuscleValuesInPlace } from "./muscleCurveUnit.js";
import {
    CONTACT_FRAME_SNAP,
    CURVE_BODY_POSITION,
    CURVE_BODY_ROTATION,
    CURVE_GOALS,
    CURVE_HIPS,
    CURVE_ROOT,
    CURVE_TRANSLATIONS,
    CURVES_PER_GOAL,
    type MuscleClip,
} from "./muscleClip.js";

/** Largest number of keys a cursor steps over before it searches instead. */
const CURSOR_WALK = 4;

/**
 * Reads a {@link MuscleClip} at any time. Keeps one cursor per curve, so playing forward costs a
 * constant time per curve and frame; a jump costs a binary search. Allocates nothing after
 * construction; one sampler per playing instance.
 */
export class MuscleClipSampler {
    /** The clip read. */
    public readonly clip: MuscleClip;
    /**
     * The frame position the `...Slot` methods read (fractional; they clamp it): the per-frame
     * path hands it over here rather than as an argument.
     * @internal
     */
    public readonly frameSlot = new Float64Array(1);
    private readonly _cursor: Uint32Array;
    private readonly _keyStart: Uint32Array;
    private readonly _keyFrames: Float64Array;
    private readonly _coefficients: Float64Array;
    private readonly _tmp = new Float64Array(4);
    /** Sampled values of the curves other than the muscles', by curve index (`_evalSpan` writes them, `_vec`, `_quat` and `_turn` read them). */
    private readonly _values: Float64Array;
    /** The frame position `_evalSpan` reads. */
    private readonly _at = new Float64Array(1);
    /** Whether the clip moves any translation (else they are written as 0 without sampling). */
    private readonly _translations: boolean;
    /** Whether the muscle curves are in angle units (turned into muscle values once sampled). */
    private readonly _angleUnit: boolean;

    /** @param clip the clip to read */
    constructor(clip: MuscleClip) {
        this.clip = clip;
        this._translations = clip.hasTranslations;
        this._angleUnit = clip.muscleUnit === "angle";
        this._cursor = new Uint32Array(clip.curves.length);
        this._values = new Float64Array(Math.max(clip.curves.length, CURVE_TRANSLATIONS + 3 * TRANSLATION_DOF_COUNT));
        const table = clip.segments;
        this._keyStart = table.keyStart;
        this._keyFrames = table.keyFrames;
        this._coefficients = table.coefficients;
    }

    /**
     * Frame position (fractional) of a time: wrapped into the clip when it loops, clamped otherwise.
     * @param timeSeconds time from the clip's start
     */
    public frameAt(timeSeconds: number): number {
        const clip = this.clip;
        const last = clip.frameCount - 1;
        if (last <= 0 || !Number.isFinite(timeSeconds)) return timeSeconds === Infinity && !clip.loop ? last : 0;
        let f = timeSeconds * clip.frameRate;
        if (clip.loop) {
            f %= last;
            if (f < 0) f += last;
        } else if (f < 0) {
            f = 0;
        } else if (f > last) {
            f = last;
        }
        return f;
    }

    /**
     * One curve's value at a fractional frame (no wrapping); a muscle curve's as a muscle value,
     * whatever the clip's {@link MuscleClip.muscleUnit}.
     * @param curve curve index ({@link MuscleCurveNames} order)
     * @param frame frame position, 0 to `frameCount - 1`
     */
    public evaluate(curve: number, frame: number): number {
        this._at[0] = frame;
        this._evalSpan(curve, 1, this._tmp, 0);
        return this._angleUnit && curve < ALL_MUSCLE_COUNT ? AngleUnitToMuscleValue(curve, this._tmp[0]) : this._tmp[0];
    }

    /**
     * The pose at a time: muscles, body and goals (rotations normalized). Returns `result`.
     * @param timeSeconds time from the clip's start (wrapped or clamped, see {@link frameAt})
     * @param result the pose to write
     */
    public sampleToRef(timeSeconds: number, result: HumanPose): HumanPose {
        return this.sampleFrameToRef(this.frameAt(timeSeconds), result);
    }

    /**
     * The pose at a frame position (fractional, 0 to `frameCount - 1`, clamped, never wrapped: the
     * last frame of a looping clip is its own). Returns `result`.
     */
    public sampleFrameToRef(frame: number, result: HumanPose): HumanPose {
        this.frameSlot[0] = frame;
        return this.sampleSlotToRef(result);
    }

    /**
     * {@link sampleFrameToRef} at the frame position in {@link frameSlot}: the per-frame form, no
     * number passed (V8 boxes a number passed to a call it does not inline, which allocates).
     * @internal
     */
    public sampleSlotToRef(result: HumanPose): HumanPose {
        this._clampSlot();
        // Every curve the pose needs in a few spans, one loop each (not a call per curve), then
        // the vectors and rotations made of them.
        this._evalSpan(0, ALL_MUSCLE_COUNT, result.values, 0);
        if (this._angleUnit) AngleUnitsToMuscleValuesInPlace(result.values);
        const c = this._values;
        this._evalSpan(CURVE_BODY_POSITION, CURVE_ROOT - CURVE_BODY_POSITION, c, CURVE_BODY_POSITION);
        this._evalSpan(CURVE_HIPS, 6, c, CURVE_HIPS);
        this._vec(CURVE_BODY_POSITION, result.bodyPosition);
        this._quat(CURVE_BODY_ROTATION, result.bodyRotation);
        this._vec(CURVE_HIPS, result.hipsPosition);
        this._turn(CURVE_HIPS + 3, result.hipsRotation);
        const t = result.translations;
        if (this._translations) {
            this._evalSpan(CURVE_TRANSLATIONS, 3 * TRANSLATION_DOF_COUNT, c, CURVE_TRANSLATIONS);
            for (let i = 0; i < TRANSLATION_DOF_COUNT; i++) this._vec(CURVE_TRANSLATIONS + 3 * i, t[i]);
        } else {
            for (let i = 0; i < TRANSLATION_DOF_COUNT; i++) t[i].setAll(0);
        }
        for (let g = 0; g < HUMAN_IK_GOAL_COUNT; g++) {
            const k = CURVE_GOALS + g * CURVES_PER_GOAL;
            this._vec(k, result.goalPositions[g]);
            this._quat(k + 3, result.goalRotations[g]);
        }
        // The feet are kept from the hips (see MuscleCurveNames).
        result.goalPositions[0].addInPlace(result.hipsPosition);
        result.goalPositions[1].addInPlace(result.hipsPosition);
        return result;
    }

    /**
     * The root at a time: its position on the ground plane written to `result` (x, 0, z; canonical
     * frame, avatar scales). Returns the root's yaw in radians (unwrapped over the clip).
     */
    public sampleRootToRef(timeSeconds: number, result: Vector3): number {
        return this.sampleRootFrameToRef(this.frameAt(timeSeconds), result);
    }

    /**
     * The root at a frame position (fractional, clamped to the clip, never wrapped): see
     * {@link sampleRootToRef}. Returns the yaw in radians.
     */
    public sampleRootFrameToRef(frame: number, result: Vector3): number {
        this.frameSlot[0] = frame;
        const t = this._tmp;
        this.sampleRootSlotInto(t);
        result.set(t[0], 0, t[1]);
        return t[2];
    }

    /**
     * {@link sampleRootFrameToRef} at the frame position in {@link frameSlot}, into `out`: x, z and
     * yaw (no number passed or returned, see {@link sampleSlotToRef}).
     * @internal
     */
    public sampleRootSlotInto(out: Float64Array): void {
        this._clampSlot();
        this._evalSpan(CURVE_ROOT, 3, out, 0);
    }

    /** {@link FootContact} flags of the frame nearest a time. */
    public contactsAt(timeSeconds: number): number {
        return this.clip.contacts[Math.round(this.frameAt(timeSeconds))];
    }

    /** {@link FootContact} flags of the frame nearest a frame position (clamped, never wrapped). */
    public contactsAtFrame(frame: number): number {
        this.frameSlot[0] = frame;
        return this.contactsAtSlot();
    }

    /**
     * {@link contactsAtFrame} at the frame position in {@link frameSlot} (see {@link sampleSlotToRef}).
     * @internal
     */
    public contactsAtSlot(): number {
        this._clampSlot();
        return this.clip.contacts[Math.round(this._at[0])];
    }

    /**
     * {@link FootContact} flags held over the frame position in {@link frameSlot}: a foot counts as
     * down between two frames only when it is down on both (on a frame itself, that frame's own
     * flags; a position within `CONTACT_FRAME_SNAP` of one counts as on it). A contact thus
     * spans exactly from its first frame to its last, whatever the rate the clip is shown at: the
     * clip's foot, interpolated between a contact frame and the next one off the ground, is
     * already arriving or leaving. A held foot's still end (`FootContact.LeftAnkleStill`...) is
     * the nearer frame's, so a switch between the ends falls where the frames meet. Clamped, never
     * wrapped (the player wraps a loop's time).
     * @internal
     */
    public contactsHeldAtSlot(): number {
        this._clampSlot();
        const frame = this._at[0];
        const near = Math.round(frame);
        const flags = this.clip.contacts;
        if (Math.abs(frame - near) < CONTACT_FRAME_SNAP) return flags[near];
        const below = Math.floor(frame);
        const feet = flags[below] & flags[below + 1] & 3;
        // Each held foot's two end bits: bit 0 -> 4 and 16, bit 1 -> 8 and 32 (times 20).
        return feet | (flags[near] & (feet * 20));
    }

    /** The frame position of {@link frameSlot}, clamped to the clip, into `_at`. */
    private _clampSlot(): void {
        const last = this.clip.frameCount - 1;
        const frame = this.frameSlot[0];
        this._at[0] = frame > 0 ? (frame < last ? frame : last) : 0;
    }

    /**
     * Writes the values of the curves `first` to `first + count - 1` at the frame position `_at[0]`
     * into `out[at]` onwards (curve `first + i` into `out[at + i]`), in one loop: each curve's
     * polynomial segment from the clip's {@link ICurveSegmentTable} (its {@link CurveInterpolation},
     * tested against slow references). The frame comes from an array and the values go straight
     * into one: no number is passed to or returned from a call, so nothing is boxed (no
     * allocation per sample).
     */
    private _evalSpan(first: number, count: number, out: Float32Array | Float64Array, at: number): void {
        const keyFrames = this._keyFrames;
        const keyStart = this._keyStart;
        const cursor = this._cursor;
        const c = this._coefficients;
        const frame = this._at[0];
        const shift = at - first;
        for (let curve = first; curve < first + count; curve++) {
            const s = keyStart[curve];
            const n = keyStart[curve + 1] - s;
            let k = cursor[curve];
            if (k >= n || keyFrames[s + k] > frame || (k + CURSOR_WALK < n && keyFrames[s + k + CURSOR_WALK] <= frame)) {
                // Binary search: the last key at or before the frame.
                let lo = 0;
                let hi = n;
                while (hi - lo > 1) {
                    const mid = (lo + hi) >> 1;
                    if (keyFrames[s + mid] <= frame) lo = mid;
                    else hi = mid;
                }
                k = lo;
            } else {
                while (k + 1 < n && keyFrames[s + k + 1] <= frame) k++;
            }
            cursor[curve] = k;
            const o = (s + k) * 4;
            const u = frame - keyFrames[s + k];
            out[curve + shift] = c[o] + u * (c[o + 1] + u * (c[o + 2] + u * c[o + 3]));
        }
    }

    /** A vector of three sampled curves from `c` (`_values`). */
    private _vec(c: number, out: Vector3): void {
        const t = this._values;
        out.x = t[c];
        out.y = t[c + 1];
        out.z = t[c + 2];
    }

    /** A rotation vector (three sampled curves from `c`, `_values`) as a quaternion: the exp map, written out (see `RotationVectorToQuaternionToRef`). */
    private _turn(c: number, out: Quaternion): void {
        const t = this._values;
        const x = t[c];
        const y = t[c + 1];
        const z = t[c + 2];
        const angle = Math.sqrt(x * x + y * y + z * z);
        if (angle < 1e-12) {
            out.x = x * 0.5;
            out.y = y * 0.5;
            out.z = z * 0.5;
            out.w = 1;
            return;
        }
        const k = Math.sin(angle * 0.5) / angle;
        out.x = x * k;
        out.y = y * k;
        out.z = z * k;
        out.w = Math.cos(angle * 0.5);
    }

    /** A quaternion of four sampled curves from `c` (`_values`), normalized. */
    private _quat(c: number, out: Quaternion): void {
        const t = this._values;
        const x = t[c];
        const y = t[c + 1];
        const z = t[c + 2];
        const w = t[c + 3];
        const len = Math.sqrt(x * x + y * y + z * z + w * w);
        if (len > 1e-12) {
            out.x = x / len;
            out.y = y / len;
            out.z = z / len;
            out.w = w / len;
        } else {
            out.x = 0;
            out.y = 0;
            out.z = 0;
            out.w = 1;
        }
    }
}
