// Conversion's first step: a source's joint positions denoised before its poses are encoded.
//
// Why. Mocap comes from markers: a solver finds the skeleton's rotations that put its joints
// nearest the markers, frame by frame. Its noise is in the joints the markers do not pin (a
// joint's centre inside the body: the hips, a shoulder socket) and in the rotations, which
// cancel it where the markers are: a take's hips jitter and its trunk turns against them, so that
// its chest stays; its shoulder socket jitters and its upper arm turns against it, so that its
// elbow stays. Played on another body those rotations no longer cancel (the levers differ): a
// circle walk at 120 frames a second (mocap from outside the project's data) onto the VRM sample
// had its hand 2.8 times as jerky as the source's, its arm's directions within 0.3 degree of the
// source's. Each muscle curve
// smoothed on its own (`SmoothWithinBand`) cannot take the cancelling jitter out: it is the same
// size in the hips' curve and in the trunk's, and each is as the source has it.
//
// What. Before any pose is encoded, the world position of every joint of the body (the human
// bones but fingers, eyes and jaw) is smoothed on its own within a band
// (`SmoothWithinBandAtRate`: above 60 frames a second, the same reach in seconds), and every bone is
// turned, the least it can, to point at its children's smoothed positions: one child, the
// shortest turn from where the child was to where it is now; two or more (the hips, the chest),
// the turn that fits their directions best (Horn's, each child weighted by its length's inverse
// square, so each direction counts alike). A joint that is not a tracked bone turns with the
// nearest tracked bone above it (its own rotation relative to that bone kept: a hand, the head,
// the fingers, a twist helper); the hips also take their smoothed position. What the markers
// pinned moves little (it was smooth), what the solver made up loses its jitter, and the
// rotations no longer carry it.
//
// How much. A joint's smoothed position moves at most `tolerance * length` from its own (its
// band), `length` its shortest segment to a tracked bone next to it (parent or child) in the
// T-pose, `tolerance` the conversion's (radians): each coordinate smoothed within the band, then a
// move past it (a corner of that box) drawn back to it. Aimed at those points, a bone's direction
// moves by at most twice the tolerance, where its two ends move the band's whole way apart, and
// far less where they move together; every turn is capped at that too (a figure shown smaller
// than its T-pose, a clip's spawn growing in, has shorter segments than the bands were made for).
// The joints themselves follow from the turns down each chain, so one may end a little farther
// than its band from where it was (a foot 1.8 bands on the child's jump, measured). A band binds
// only on the motion's own sharpest turns (a keyframed clip's corners, an impact); the noise is
// smaller (hundredths of a millimetre on the takes measured; the bands a few hundredths to a
// few tenths of a millimetre at the default 0.1 degree).
//
// The denoiser keeps the tracked joints' world positions, three numbers a joint a frame, for the
// whole clip (the smoothing needs all of a curve); the poses are sampled again when they are
// encoded (`applyToRef`).
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HUMAN_BONE_COUNT, IsFingerBone } from "../humanoid/humanBones.js";
import type { IRigPose, IRigWorldPose } from "../humanoid/rig.js";
import { QuaternionConjugateToRef, QuaternionFromUnitVectorsToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import { WeightedRigidFit } from "../math/hornFit.js";
import { ForwardKinematicsToRef } from "../muscle/kinematics.js";
import { MuscleSetup } from "../muscle/setup.js";
import { SmoothWithinBandAtRate } from "./smoothing.js";

const B = HumanBone;

/** A child whose offset from its bone is shorter than this share of the avatar's scale gives no direction (a figure scaled to a point). */
const SHORTEST_OFFSET = 1e-6;

/** Whether a human bone's joint is denoised and re-aimed: the body's, not fingers, eyes or jaw. */
export function IsDenoisedBone(bone: HumanBone): boolean {
    return !IsFingerBone(bone) && bone !== B.LeftEye && bone !== B.RightEye && bone !== B.Jaw;
}

/**
 * Denoises a clip's poses on one avatar (see the file's note): {@link record} every frame's pose
 * in order, {@link smooth} once, then {@link applyToRef} each frame's pose (sampled again) to
 * turn it into the denoised one. Not re-entrant; one instance per conversion.
 */
export class RigPoseDenoiser {
    /** Whether the denoiser changes anything (a band above 0 somewhere, five frames or more); when not, nothing is kept and nothing may be recorded. */
    public readonly isActive: boolean;
    private readonly _avatar: HumanoidAvatar;
    private readonly _frameCount: number;
    private readonly _frameRate: number;
    /** Rig joint of each tracked bone, in bone order (parents first). */
    private readonly _joints: Int32Array;
    /** Per tracked bone, the indices (into `_joints`) of the tracked children it is aimed at (through a child at its own joint, that child's). */
    private readonly _children: number[][];
    /** Per tracked bone, its band (metres). */
    private readonly _bands: Float64Array;
    /** Per rig joint, the index of the tracked bone it turns with (itself, or the nearest above it), or -1. */
    private readonly _follows: Int32Array;
    /** Tracked joints' world positions: x y z per tracked bone per frame (frame-major). */
    private readonly _positions: Float64Array;
    private readonly _hipsIndex: number;
    /** {@link SHORTEST_OFFSET} of the avatar's scale (metres). */
    private readonly _floor: number;
    /** Cosine and sine of half the largest turn a bone takes (twice the tolerance). */
    private readonly _cosHalfMost: number;
    private readonly _sinHalfMost: number;
    private readonly _fit = new WeightedRigidFit();
    private readonly _turns: Quaternion[];
    private readonly _u = new Vector3();
    private readonly _v = new Vector3();
    private readonly _t = new Vector3();
    private readonly _q = new Quaternion();
    private readonly _q2 = new Quaternion();
    private readonly _zero = Vector3.Zero();
    private readonly _identity = Quaternion.Identity();
    private readonly _setup: MuscleSetup;
    /** The frame's world pose (`ForwardKinematicsToRef`: `ComputeRigWorldPose` without allocating; scales are the rest's, which poses do not animate). */
    private readonly _world: IRigWorldPose;
    private readonly _worldRotations: Quaternion[];
    private readonly _worldPositions: Vector3[];
    /** The joints whose world transforms are needed (the tracked ones and every joint above them), parents first. */
    private readonly _needed: Int32Array;

    /**
     * @param avatar the avatar of the rig whose poses are denoised
     * @param frameCount frames of the clip (> 0)
     * @param frameRate its frames per second (> 0)
     * @param toleranceRad how far a joint's smoothed position may move, as an angle seen along its shortest segment; each bone turns by at most twice it (radians, >= 0; 0 denoises nothing)
     */
    public constructor(avatar: HumanoidAvatar, frameCount: number, frameRate: number, toleranceRad: number) {
        this._avatar = avatar;
        this._frameCount = frameCount;
        this._frameRate = frameRate;
        const setup = (this._setup = MuscleSetup.For(avatar));
        const bones: number[] = [];
        const indexOf = new Int32Array(HUMAN_BONE_COUNT).fill(-1);
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            if (setup.joint[b] < 0 || !IsDenoisedBone(b as HumanBone)) continue;
            indexOf[b] = bones.length;
            bones.push(b);
        }
        this._joints = Int32Array.from(bones, (b) => setup.joint[b]);
        this._hipsIndex = indexOf[B.Hips];
        const direct: number[][] = bones.map(() => []);
        const parentIndex = bones.map((b) => {
            let p = setup.parentBone[b];
            while (p >= 0 && indexOf[p] < 0) p = setup.parentBone[p];
            return p >= 0 ? indexOf[p] : -1;
        });
        parentIndex.forEach((p, k) => {
            if (p >= 0) direct[p].push(k);
        });
        const rest = avatar.referenceWorld.positions;
        const length = (a: number, b: number): number => Vector3.Distance(rest[this._joints[a]], rest[this._joints[b]]);
        const floor = (this._floor = SHORTEST_OFFSET * setup.scale);
        // A child at the bone's own joint (a BVH's hips and pelvis at one point) gives no
        // direction: its own children stand in for it.
        const reach = (k: number, c: number, out: number[]): void => {
            if (length(k, c) > floor) out.push(c);
            else for (const g of direct[c]) reach(k, g, out);
        };
        this._children = direct.map((children, k) => {
            const out: number[] = [];
            for (const c of children) reach(k, c, out);
            return out;
        });
        this._bands = Float64Array.from(bones, (_, k) => {
            let shortest = Infinity;
            const p = parentIndex[k];
            if (p >= 0 && length(k, p) > floor) shortest = length(k, p);
            for (const c of this._children[k]) shortest = Math.min(shortest, length(k, c));
            return Number.isFinite(shortest) && toleranceRad > 0 ? toleranceRad * shortest : 0;
        });
        const rig = avatar.rig;
        this._follows = new Int32Array(rig.joints.length).fill(-1);
        const jointToIndex = new Map<number, number>();
        this._joints.forEach((j, k) => jointToIndex.set(j, k));
        rig.joints.forEach((joint, j) => {
            const own = jointToIndex.get(j);
            this._follows[j] = own ?? (joint.parent >= 0 ? this._follows[joint.parent] : -1);
        });
        const most = Math.min(Math.PI, 2 * (toleranceRad > 0 ? toleranceRad : 0));
        this._cosHalfMost = Math.cos(most / 2);
        this._sinHalfMost = Math.sin(most / 2);
        this.isActive = frameCount >= 5 && this._bands.some((b) => b > 0);
        this._positions = new Float64Array(this.isActive ? frameCount * 3 * bones.length : 0);
        this._turns = bones.map(() => new Quaternion());
        this._worldRotations = rig.joints.map(() => new Quaternion());
        this._worldPositions = rig.joints.map(() => new Vector3());
        const needed = new Uint8Array(rig.joints.length);
        for (const j of this._joints) for (let a = j; a >= 0 && !needed[a]; a = rig.joints[a].parent) needed[a] = 1;
        this._needed = Int32Array.from(needed.reduce<number[]>((out, x, j) => (x ? (out.push(j), out) : out), []));
        this._world = { positions: this._worldPositions, rotations: this._worldRotations, scales: setup.worldScale };
    }

    /** Records frame `f`'s pose (local rotations and positions of every rig joint). */
    public record(f: number, pose: IRigPose): void {
        const w = this._worldPoseOf(pose);
        const n = this._joints.length;
        const base = f * 3 * n;
        for (let k = 0; k < n; k++) {
            const p = w.positions[this._joints[k]];
            this._positions[base + 3 * k] = p.x;
            this._positions[base + 3 * k + 1] = p.y;
            this._positions[base + 3 * k + 2] = p.z;
        }
    }

    /**
     * Smooths every recorded curve within its band (after every frame is recorded): each
     * coordinate within the band, then a joint that moved farther than the band (a corner of that
     * box) drawn back to it along its move, so that no joint moves by more than its band.
     */
    public smooth(): void {
        const n = this._joints.length;
        const frames = this._frameCount;
        const curve = new Float64Array(frames);
        const moved = new Float64Array(3 * frames);
        for (let k = 0; k < n; k++) {
            const band = this._bands[k];
            if (!(band > 0)) continue;
            for (let c = 0; c < 3; c++) {
                for (let f = 0; f < frames; f++) curve[f] = this._positions[f * 3 * n + 3 * k + c];
                const out = SmoothWithinBandAtRate(curve, band, this._frameRate);
                for (let f = 0; f < frames; f++) moved[3 * f + c] = out[f] - curve[f];
            }
            for (let f = 0; f < frames; f++) {
                const at = f * 3 * n + 3 * k;
                const mx = moved[3 * f];
                const my = moved[3 * f + 1];
                const mz = moved[3 * f + 2];
                const d = Math.sqrt(mx * mx + my * my + mz * mz);
                const keep = d > band ? band / d : 1;
                for (let c = 0; c < 3; c++) this._positions[at + c] += moved[3 * f + c] * keep;
            }
        }
    }

    /** The world pose of a pose, as `ComputeRigWorldPose` makes it: of the tracked joints and the joints above them only (the rest of the arrays unused). */
    private _worldPoseOf(pose: IRigPose): IRigWorldPose {
        ForwardKinematicsToRef(this._setup, pose.rotations, pose.positions, this._worldRotations, this._worldPositions, this._needed);
        return this._world;
    }

    /**
     * Turns frame `f`'s pose (the same pose {@link record} took, sampled again) into the denoised
     * one, in place: every tracked bone re-aimed at its children's smoothed positions, every other
     * joint turned with the tracked bone it hangs from, the hips at their smoothed position.
     */
    public applyToRef(f: number, pose: IRigPose): void {
        const rig = this._avatar.rig;
        const w = this._worldPoseOf(pose);
        const n = this._joints.length;
        const base = f * 3 * n;
        const sp = this._positions;
        const floor = this._floor;
        const u = this._u;
        const v = this._v;
        // Each tracked bone's turn (world, applied on the left), parents first.
        for (let k = 0; k < n; k++) {
            const j = this._joints[k];
            const from = w.positions[j];
            const turn = this._turns[k];
            const children = this._children[k];
            const parentJoint = rig.joints[j].parent;
            const inherited = parentJoint >= 0 && this._follows[parentJoint] >= 0 ? this._turns[this._follows[parentJoint]] : this._identity;
            let count = 0;
            let only = -1;
            this._fit.reset();
            for (const c of children) {
                w.positions[this._joints[c]].subtractToRef(from, u);
                v.set(sp[base + 3 * c] - sp[base + 3 * k], sp[base + 3 * c + 1] - sp[base + 3 * k + 1], sp[base + 3 * c + 2] - sp[base + 3 * k + 2]);
                const lu = u.length();
                const lv = v.length();
                if (!(lu > floor) || !(lv > floor)) continue;
                count++;
                only = c;
                const weight = 1 / (lu * lu);
                this._fit.add(u.x, u.y, u.z, v.x * (lu / lv), v.y * (lu / lv), v.z * (lu / lv), weight);
            }
            if (count === 0) {
                turn.copyFrom(inherited);
            } else if (count === 1) {
                // The shortest turn: the one child's direction before and after.
                w.positions[this._joints[only]].subtractToRef(from, u).normalize();
                v.set(
                    sp[base + 3 * only] - sp[base + 3 * k],
                    sp[base + 3 * only + 1] - sp[base + 3 * k + 1],
                    sp[base + 3 * only + 2] - sp[base + 3 * k + 2],
                ).normalize();
                QuaternionFromUnitVectorsToRef(u, v, turn);
            } else {
                this._fit.solveToRef(turn, this._t, inherited, this._zero, this._zero);
            }
            // At most twice the tolerance: a figure shown smaller than its T-pose (a clip's spawn
            // growing in) has segments shorter than the bands were made for.
            const w2 = turn.w < 0 ? -turn.w : turn.w;
            if (w2 < this._cosHalfMost) {
                const sign = turn.w < 0 ? -1 : 1;
                const k = (sign * this._sinHalfMost) / Math.sqrt(1 - w2 * w2);
                turn.set(turn.x * k, turn.y * k, turn.z * k, this._cosHalfMost);
            }
        }
        // New locals. A joint that turns with its parent (the same tracked bone, or none) keeps
        // its local rotation: (T R_p)^-1 (T R_j) = R_p^-1 R_j. Only a tracked bone turns on its own:
        // local' = (T_p R_p)^-1 (T_k R_k), T_p the turn its rig parent goes with (or none).
        const q = this._q;
        const q2 = this._q2;
        for (let k = 0; k < n; k++) {
            const j = this._joints[k];
            const parent = rig.joints[j].parent;
            QuaternionMultiplyToRef(this._turns[k], w.rotations[j], q);
            if (parent >= 0) {
                const pf = this._follows[parent];
                if (pf >= 0) QuaternionMultiplyToRef(this._turns[pf], w.rotations[parent], q2);
                else q2.copyFrom(w.rotations[parent]);
                QuaternionConjugateToRef(q2, q2);
                QuaternionMultiplyToRef(q2, q, pose.rotations[j]);
            } else {
                pose.rotations[j].copyFrom(q);
            }
        }
        // The hips at their smoothed position (their parent, above every tracked bone, stays).
        const h = this._hipsIndex;
        if (h >= 0 && this._bands[h] > 0) {
            const j = this._joints[h];
            const parent = rig.joints[j].parent;
            v.set(sp[base + 3 * h], sp[base + 3 * h + 1], sp[base + 3 * h + 2]);
            if (parent >= 0) {
                v.subtractInPlace(w.positions[parent]);
                QuaternionConjugateToRef(w.rotations[parent], q2);
                v.applyRotationQuaternionInPlace(q2);
                const s = w.scales[parent];
                v.set(v.x / s.x, v.y / s.y, v.z / s.z);
            }
            if (Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z)) pose.positions[j].copyFrom(v);
        }
    }
}
