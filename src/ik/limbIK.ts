import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { HumanIKGoal } from "../muscle/humanPose.js";
import { MuscleSetup } from "../muscle/setup.js";
import {
    QuaternionConjugateToRef,
    QuaternionFromUnitVectorsToRef,
    QuaternionMultiplyToRef,
    QuaternionSlerpToRef,
    Vector3CopyToRef,
    Vector3LerpToRef,
    Vector3DirectionToRef,
    Vector3NormalizeInPlace,
} from "../math/hotMath.js";
import { SolveTwoBonePositionsInPlace } from "./twoBone.js";

/**
 * Scratch shared by every instance (the per-frame path is single-threaded and no call runs inside
 * another's): held per instance, it was more of each animator to bring into the cache every frame.
 */
const scratch = {
    /** The weights `solve` hands to `solveWeighted`. */
    weights: new Float64Array(3),
    /** Numbers handed to `SolveTwoBonePositionsInPlace` and the slerp. */
    io: new Float64Array(5),
};

const B = HumanBone;

/** Upper bone, lower bone and end of each limb, in {@link HumanIKGoal} order. */
export const LIMB_BONES: ReadonlyArray<readonly [HumanBone, HumanBone, HumanBone]> = [
    [B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot],
    [B.RightUpperLeg, B.RightLowerLeg, B.RightFoot],
    [B.LeftUpperArm, B.LeftLowerArm, B.LeftHand],
    [B.RightUpperArm, B.RightLowerArm, B.RightHand],
];

/** One limb's joints and rest measures. */
interface ILimb {
    readonly upper: number;
    readonly lower: number;
    readonly end: number;
    /** Joints whose local position scales with the stretch: between upper and end, end included. */
    readonly chain: Int32Array;
    readonly upperLength: number;
    readonly lowerLength: number;
    /** The bend direction of a straight limb, in the upper bone's own frame. */
    readonly poleLocal: Vector3;
}

/** A goal counts as reached when the end is within this share of its limb's length of it (0.01%); `ILimbIKStatus.unreachable` past it. */
export const LIMB_REACHED_SHARE = 1e-4;

/** What the last solve of one limb did. */
export interface ILimbIKStatus {
    /** Length factor applied to the limb's bones (1 = rest length; at most 1 + stretch; a little below 1 when a near-straight limb's goal is nearer than its pose reaches). */
    stretch: number;
    /** Distance left between the end and its goal (metres, rig space); 0 when reached. */
    error: number;
    /** The end stopped off its goal by more than 0.01% of the limb's length: the goal beyond what the limb may reach, or, for a few frames, a knee or elbow past straight going through straight (`SolveTwoBonePositionsToRef`). */
    unreachable: boolean;
}

const a = new Vector3();
const b = new Vector3();
const c = new Vector3();
const nb = new Vector3();
const nc = new Vector3();
const t = new Vector3();
const pole = new Vector3();
const u = new Vector3();
const v = new Vector3();
const d1 = new Quaternion();
const d2 = new Quaternion();
const dd = new Quaternion();
const q = new Quaternion();
const q2 = new Quaternion();
const endWorld = new Quaternion();

/**
 * Two-bone IK for the four limbs of an avatar (legs: upper leg, lower leg, foot; arms: upper arm,
 * forearm, hand), on rig poses: it reads world transforms from forward kinematics and writes the
 * local rotations (and, when the limb stretches, local positions) of the limb's joints. Joints
 * between the mapped bones (twist bones) turn with them. Allocation-free after construction.
 */
export class HumanoidLimbIK {
    /** The avatar. */
    public readonly avatar: HumanoidAvatar;
    /** Joints forward kinematics must cover for the solve: the limbs and their ancestors, parents first. */
    public readonly fkJoints: Int32Array;
    /**
     * Rest length of each limb ({@link limbLength}), in an array: read on the per-frame path, where
     * a number returned from a call that is not inlined would be boxed (allocated).
     * @internal
     */
    public readonly limbLengths: Float64Array;
    private readonly _limbs: ILimb[];
    private readonly _refPos: readonly Vector3[];
    private readonly _parent: Int32Array;

    /** @param avatar the avatar whose limbs are solved */
    constructor(avatar: HumanoidAvatar) {
        this.avatar = avatar;
        const setup = MuscleSetup.For(avatar);
        const ref = avatar.referenceWorld;
        const rig = avatar.rig;
        this._refPos = avatar.referencePose.positions;
        this._parent = setup.rigParent;
        this._limbs = LIMB_BONES.map(([ub, lb, eb], limb) => {
            const upper = setup.joint[ub];
            const lower = setup.joint[lb];
            const end = setup.joint[eb];
            const chain = [...setup.intermediates[lb], lower, ...setup.intermediates[eb], end];
            // Straight limbs bend knees forward and elbows back (canonical Z), as the body faces.
            const canonical = new Vector3(0, 0, limb < 2 ? 1 : -1);
            const poleWorld = canonical.applyRotationQuaternion(setup.c0);
            const poleLocal = poleWorld.applyRotationQuaternion(Quaternion.Inverse(ref.rotations[upper]));
            return {
                upper,
                lower,
                end,
                chain: Int32Array.from(chain),
                upperLength: Vector3.Distance(ref.positions[upper], ref.positions[lower]),
                lowerLength: Vector3.Distance(ref.positions[lower], ref.positions[end]),
                poleLocal,
            };
        });
        this.limbLengths = Float64Array.from(this._limbs, (l) => l.upperLength + l.lowerLength);
        const need = new Array<boolean>(rig.joints.length).fill(false);
        for (const l of this._limbs) for (let j = l.end; j >= 0 && !need[j]; j = rig.joints[j].parent) need[j] = true;
        this.fkJoints = Int32Array.from(need.map((x, i) => (x ? i : -1)).filter((i) => i >= 0));
    }

    /** Rest length of a limb (upper plus lower bone, metres, rig space). */
    public limbLength(goal: HumanIKGoal): number {
        return this.limbLengths[goal];
    }

    /** The joint of a limb's upper bone (rig index). */
    public upperJoint(goal: HumanIKGoal): number {
        return this._limbs[goal].upper;
    }

    /** The joint of a limb's lower bone, knee or elbow (rig index). */
    public middleJoint(goal: HumanIKGoal): number {
        return this._limbs[goal].lower;
    }

    /** The joint of a limb's end, foot or hand (rig index). */
    public endJoint(goal: HumanIKGoal): number {
        return this._limbs[goal].end;
    }

    /** The joints of a limb: upper bone, lower bone, end (rig joint indices). Allocates: not for the per-frame path. */
    public limbJoints(goal: HumanIKGoal): readonly [number, number, number] {
        const l = this._limbs[goal];
        return [l.upper, l.lower, l.end];
    }

    /**
     * Puts the local positions of a limb's stretchable joints back to the reference pose (call
     * before forward kinematics, since a solve may have lengthened them).
     */
    public resetLengths(goal: HumanIKGoal, localPositions: readonly Vector3[]): void {
        const chain = this._limbs[goal].chain;
        for (let i = 0; i < chain.length; i++) Vector3CopyToRef(this._refPos[chain[i]], localPositions[chain[i]]);
    }

    /**
     * Solves one limb: its end moves toward `targetPosition` by `positionWeight` and turns toward
     * `targetRotation` by `rotationWeight`. `world` and `positions` must hold the forward kinematics
     * of the pose (at least {@link fkJoints}) with the limb at rest length; `localRotations` and
     * `localPositions` (the pose) receive the result. The limb keeps the bend plane it has (knee or
     * elbow direction from the animation).
     * @param goal which limb
     * @param stretch the most the limb may lengthen, share of its length (0 disables; near straight it may also shorten a little, see `SolveTwoBonePositionsToRef`)
     * @param status receives the stretch, the distance left and whether the goal was out of reach
     */
    public solve(
        goal: HumanIKGoal,
        world: readonly Quaternion[],
        positions: readonly Vector3[],
        localRotations: readonly Quaternion[],
        localPositions: readonly Vector3[],
        targetPosition: Vector3,
        targetRotation: Quaternion,
        positionWeight: number,
        rotationWeight: number,
        stretch: number,
        status: ILimbIKStatus,
    ): void {
        const w = scratch.weights;
        w[0] = positionWeight;
        w[1] = rotationWeight;
        w[2] = stretch;
        this.solveWeighted(goal, world, positions, localRotations, localPositions, targetPosition, targetRotation, w, status);
    }

    /**
     * {@link solve} for the per-frame path, its numbers in an array rather than passed (V8 boxes a
     * number passed to a call it does not inline, which allocates): `weights[0]` the position
     * weight, `weights[1]` the rotation weight, `weights[2]` the stretch. Same results. Allocation-free.
     * @internal
     */
    public solveWeighted(
        goal: HumanIKGoal,
        world: readonly Quaternion[],
        positions: readonly Vector3[],
        localRotations: readonly Quaternion[],
        localPositions: readonly Vector3[],
        targetPosition: Vector3,
        targetRotation: Quaternion,
        weights: Float64Array,
        status: ILimbIKStatus,
    ): void {
        // Babylon's arithmetic through `hotMath` and written out: no number crosses a call.
        const l = this._limbs[goal];
        const parent = this._parent;
        const io = scratch.io;
        Vector3CopyToRef(positions[l.upper], a);
        Vector3CopyToRef(positions[l.lower], b);
        Vector3CopyToRef(positions[l.end], c);
        Vector3LerpToRef(c, targetPosition, weights, 0, t);
        l.poleLocal.applyRotationQuaternionToRef(world[l.upper], pole);
        // The soft stretch starts no nearer than the animation's own reach: what the pose already
        // reaches is solved exactly (IK corrects only what the proportions broke).
        const acx = a.x - c.x;
        const acy = a.y - c.y;
        const acz = a.z - c.z;
        io[0] = l.upperLength;
        io[1] = l.lowerLength;
        io[2] = weights[2];
        io[3] = Math.sqrt(acx * acx + acy * acy + acz * acz);
        SolveTwoBonePositionsInPlace(a, b, c, t, pole, io, nb, nc);
        const k = io[4];
        // Upper bone: swing its middle joint into place.
        Vector3DirectionToRef(a, b, u);
        Vector3DirectionToRef(a, nb, v);
        QuaternionFromUnitVectorsToRef(u, v, d1);
        // Lower bone: swing the end (moved by the first swing and the stretch) into place.
        u.x = (c.x - b.x) * k;
        u.y = (c.y - b.y) * k;
        u.z = (c.z - b.z) * k;
        Vector3NormalizeInPlace(u.applyRotationQuaternionInPlace(d1));
        Vector3DirectionToRef(nb, nc, v);
        QuaternionFromUnitVectorsToRef(u, v, d2);
        QuaternionMultiplyToRef(d2, d1, dd);
        // Locals: upper = P^-1 d1 W; lower = (d1 P)^-1 dd W; end = (dd P)^-1 R.
        QuaternionConjugateToRef(world[parent[l.upper]], q);
        QuaternionMultiplyToRef(QuaternionMultiplyToRef(q, d1, q), world[l.upper], localRotations[l.upper]);
        const pl = parent[l.lower];
        QuaternionMultiplyToRef(d1, world[pl], q).conjugateInPlace();
        QuaternionMultiplyToRef(QuaternionMultiplyToRef(q, dd, q), world[l.lower], localRotations[l.lower]);
        QuaternionMultiplyToRef(dd, world[l.end], endWorld);
        const rotationWeight = weights[1];
        if (rotationWeight > 0) {
            io[0] = rotationWeight >= 1 ? 1 : rotationWeight;
            QuaternionSlerpToRef(endWorld, targetRotation, io, 0, endWorld);
        }
        QuaternionMultiplyToRef(dd, world[parent[l.end]], q2).conjugateInPlace();
        QuaternionMultiplyToRef(q2, endWorld, localRotations[l.end]);
        const chain = l.chain;
        for (let i = 0; i < chain.length; i++) {
            const rest = this._refPos[chain[i]];
            const out = localPositions[chain[i]];
            out.x = rest.x * k;
            out.y = rest.y * k;
            out.z = rest.z * k;
        }
        const ex = nc.x - t.x;
        const ey = nc.y - t.y;
        const ez = nc.z - t.z;
        const error = Math.sqrt(ex * ex + ey * ey + ez * ez);
        status.stretch = k;
        status.error = error;
        status.unreachable = error > LIMB_REACHED_SHARE * (l.upperLength + l.lowerLength);
    }
}
