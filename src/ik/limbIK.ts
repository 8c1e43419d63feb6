import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { HumanIKGoal } from "../muscle/humanPose.js";
import { MuscleSetup } from "../muscle/setup.js";
import { SolveTwoBonePositionsToRef } from "./twoBone.js";

const B = HumanBone;

/** Upper bone, lower bone and end of each limb, in {@link HumanIKGoal} order. */
const LIMB_BONES: ReadonlyArray<readonly [HumanBone, HumanBone, HumanBone]> = [
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

/** What the last solve of one limb did. */
export interface ILimbIKStatus {
    /** Length factor applied to the limb's bones (1 = rest length; at most 1 + stretch). */
    stretch: number;
    /** Distance left between the end and its goal (metres, rig space); 0 when reached. */
    error: number;
    /** The goal was beyond what the limb may reach (error above 0.01% of the limb's length). */
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
        const need = new Array<boolean>(rig.joints.length).fill(false);
        for (const l of this._limbs) for (let j = l.end; j >= 0 && !need[j]; j = rig.joints[j].parent) need[j] = true;
        this.fkJoints = Int32Array.from(need.map((x, i) => (x ? i : -1)).filter((i) => i >= 0));
    }

    /** Rest length of a limb (upper plus lower bone, metres, rig space). */
    public limbLength(goal: HumanIKGoal): number {
        const l = this._limbs[goal];
        return l.upperLength + l.lowerLength;
    }

    /** The joint of a limb's upper bone (rig index). */
    public upperJoint(goal: HumanIKGoal): number {
        return this._limbs[goal].upper;
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
        for (let i = 0; i < chain.length; i++) localPositions[chain[i]].copyFrom(this._refPos[chain[i]]);
    }

    /**
     * Solves one limb: its end moves toward `targetPosition` by `positionWeight` and turns toward
     * `targetRotation` by `rotationWeight`. `world` and `positions` must hold the forward kinematics
     * of the pose (at least {@link fkJoints}) with the limb at rest length; `localRotations` and
     * `localPositions` (the pose) receive the result. The limb keeps the bend plane it has (knee or
     * elbow direction from the animation).
     * @param goal which limb
     * @param stretch the most the limb may lengthen, share of its length (0 disables)
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
        const l = this._limbs[goal];
        const parent = this._parent;
        a.copyFrom(positions[l.upper]);
        b.copyFrom(positions[l.lower]);
        c.copyFrom(positions[l.end]);
        Vector3.LerpToRef(c, targetPosition, positionWeight, t);
        l.poleLocal.applyRotationQuaternionToRef(world[l.upper], pole);
        // The soft stretch starts no nearer than the animation's own reach: what the pose already
        // reaches is solved exactly (IK corrects only what the proportions broke).
        const k = SolveTwoBonePositionsToRef(a, b, c, t, pole, l.upperLength, l.lowerLength, stretch, Vector3.Distance(a, c), nb, nc);
        // Upper bone: swing its middle joint into place.
        b.subtractToRef(a, u).normalize();
        nb.subtractToRef(a, v).normalize();
        Quaternion.FromUnitVectorsToRef(u, v, d1);
        // Lower bone: swing the end (moved by the first swing and the stretch) into place.
        c.subtractToRef(b, u).scaleInPlace(k).applyRotationQuaternionInPlace(d1).normalize();
        nc.subtractToRef(nb, v).normalize();
        Quaternion.FromUnitVectorsToRef(u, v, d2);
        d2.multiplyToRef(d1, dd);
        // Locals: upper = P^-1 d1 W; lower = (d1 P)^-1 dd W; end = (dd P)^-1 R.
        world[parent[l.upper]].conjugateToRef(q);
        q.multiplyInPlace(d1).multiplyToRef(world[l.upper], localRotations[l.upper]);
        const pl = parent[l.lower];
        d1.multiplyToRef(world[pl], q).conjugateInPlace();
        q.multiplyInPlace(dd).multiplyToRef(world[l.lower], localRotations[l.lower]);
        dd.multiplyToRef(world[l.end], endWorld);
        if (rotationWeight > 0) Quaternion.SlerpToRef(endWorld, targetRotation, rotationWeight >= 1 ? 1 : rotationWeight, endWorld);
        dd.multiplyToRef(world[parent[l.end]], q2).conjugateInPlace();
        q2.multiplyToRef(endWorld, localRotations[l.end]);
        const chain = l.chain;
        for (let i = 0; i < chain.length; i++) this._refPos[chain[i]].scaleToRef(k, localPositions[chain[i]]);
        status.stretch = k;
        status.error = Vector3.Distance(nc, t);
        status.unreachable = status.error > 1e-4 * (l.upperLength + l.lowerLength);
    }
}
