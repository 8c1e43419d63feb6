import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { ComputeBodyFrame } from "../humanoid/bodyFrame.js";
import { HumanBone, HumanBoneParents, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { BuildFootFronts } from "../humanoid/footTip.js";
import { GetRigChildren, RigJointKind } from "../humanoid/rig.js";
import { ALL_MUSCLE_COUNT } from "./muscles.js";
import { CheckMuscleSettings, type IMuscleSettings } from "./muscleSettings.js";
import { BuildBoneAxes } from "./boneAxes.js";
import { BuildMassModel } from "./massModel.js";
import { TranslationDofUnits } from "./translationDof.js";

/** The trunk's bones from the hips up, as `MuscleSetup.trunkOffsets` and a clip's `trunkOffsets` list them (the spine and head always mapped; the others may not be). */
export const TRUNK_BONES: readonly HumanBone[] = [HumanBone.Spine, HumanBone.Chest, HumanBone.UpperChest, HumanBone.Neck, HumanBone.Head];

const B = HumanBone;

/**
 * Everything muscle space needs about one avatar, computed once from its T-pose: the canonical
 * frame, each bone's twist and swing axes, ranges, twist shares, the mass model, the forward
 * kinematics order, and scratch objects so that encode and decode allocate nothing.
 *
 * Spaces: "canonical" is the character's own frame (X right, Y up, Z forward); `c0` turns canonical
 * vectors into rig space. Rotations `Dc` are a bone's world rotation relative to its T-pose, in
 * canonical axes.
 */
export class MuscleSetup {
    /** The avatar. */
    public readonly avatar: HumanoidAvatar;
    /** Canonical -> rig space rotation, and its inverse. */
    public readonly c0: Quaternion;
    /** Rig space -> canonical rotation: the inverse of {@link c0}. */
    public readonly c0Inverse: Quaternion;
    /** Rig joint of each human bone, -1 when unmapped. */
    public readonly joint: Int32Array;
    /** Nearest mapped human ancestor of each mapped bone (-1 for the hips). */
    public readonly parentBone: Int32Array;
    /** Twist axis (unit, canonical) of every human bone. */
    public readonly twistAxis: Vector3[];
    /** The length of each bone's {@link twistAxis} as stored (`sqrt(x^2 + y^2 + z^2)`, 1 up to rounding), which decoding divides by. */
    public readonly twistAxisLength: Float64Array;
    /**
     * T-pose direction (unit, canonical) of the left and right shoulder bones (the collarbones),
     * which their muscles are not read about (their twist axis is the body's side axis): see
     * `EncodeHumanPose`, the shoulder's turn that keeps the upper arm where it is.
     */
    public readonly collarbone: readonly [Vector3, Vector3];
    /**
     * Per foot (left, right): the joint at the front of the foot, which it stands on when its heel
     * is up: its toes when they are mapped, else the foot's longest child joint that no human bone
     * is mapped to and that points forward and not up in the T-pose (a toe node the map left out,
     * or a toe end; not a helper up the shin or behind the heel; `FootTipChild`), else -1.
     * Planting rolls a foot about it and the report measures sliding and heights at it: a foot with
     * no toes mapped, held at its ankle, slid its front over the floor as its heel came up.
     */
    public readonly footTip: readonly [number, number];
    /**
     * Per foot (left, right): its front in the T-pose (rig space, metres), which it stands on when
     * its heel is up: its {@link footTip}'s position; for a foot that ends at its ankle (no tip),
     * the point of its sole under the ball of the foot read from its surface where the rig knows it
     * (`IRig.surfaceBounds`, `SurfaceFootFront`: half way to how far the surface reaches
     * forward, as low as it reaches); null without either. Planting rolls a foot about it and the
     * report measures sliding and heights at it: the Saxon warrior's feet, which end at their
     * ankles, were held at the ankle while the source's heel came up, and its knee took the
     * difference.
     */
    public readonly footFront: readonly [Vector3 | null, Vector3 | null];
    /**
     * Per foot (left, right) whose front is read from its surface (no toes, no tip joint): that
     * front in the foot joint's own frame, its T-pose offset from the ankle turned back by the
     * foot's T-pose world rotation (rig space, metres), so that a pose's world rotation of the foot
     * carries it; null for a foot whose front is a joint, or that has none.
     */
    public readonly footFrontLocal: readonly [Vector3 | null, Vector3 | null];
    /** Each foot's length (left, right): from its ankle joint to its front ({@link footFront}) in the T-pose, metres; 0 for a foot without a front. */
    public readonly footLength: readonly [number, number];
    /** Y and Z swing axes (unit, canonical, perpendicular to the twist axis) of every human bone. */
    public readonly axisY: Vector3[];
    /** Z swing axis (unit, canonical, perpendicular to the twist axis and to {@link axisY}) of every human bone. */
    public readonly axisZ: Vector3[];
    /** +1 or -1: the sign of a positive twist muscle about {@link twistAxis}. */
    public readonly twistSign: Float32Array;
    /**
     * +1 or -1 per bone: how a bone's bend direction `psi = atan2(Y swing, -Z swing)` turns when
     * its parent turns about its own axis by tau (and the bone back): `psi - hingeSign * tau`.
     * Used for elbows and knees (the sign of `(axisY x axisZ) . twistAxis`).
     */
    public readonly hingeSign: Float32Array;
    /** Range of every muscle (degrees), defaults or the avatar's overrides: the low end (value -1). */
    public readonly minDeg: Float32Array;
    /** The high end of every muscle's range, degrees (value +1). */
    public readonly maxDeg: Float32Array;
    /** Twist shares (0 to 1): upper arm, forearm, upper leg, lower leg (docs/muscles.md). */
    public readonly twistShare: {
        /** Share of the upper arm's twist handed down to the forearm (the upper arm keeps 1 - share). */
        upperArm: number;
        /** Share of the forearm's twist handed down to the hand. */
        lowerArm: number;
        /** Share of the upper leg's twist handed down to the lower leg. */
        upperLeg: number;
        /** Share of the lower leg's twist handed down to the foot. */
        lowerLeg: number;
    };
    /** T-pose world rotation of each mapped bone's joint in canonical axes (`c0^-1 * W0`), and `W0^-1 * c0`. */
    public readonly tposeCanonical: Quaternion[];
    /** `W0^-1 * c0` of each mapped bone's joint: the inverse of its {@link tposeCanonical}. */
    public readonly tposeCanonicalInverseC0: Quaternion[];
    /** Joints in forward-kinematics order (parents first): the mapped bones, their ancestors and intermediates. */
    public readonly fkJoints: Int32Array;
    /** Rig parent of every joint (-1 for a top joint). */
    public readonly rigParent: Int32Array;
    /** World scale of every joint in the reference pose (scales are not animated). */
    public readonly worldScale: Vector3[];
    /** Human bone carried by each joint, -1 for none. */
    public readonly boneOfJoint: Int32Array;
    /** 1 for the hips joint and every joint below it (what decoding writes), 0 above. */
    public readonly belowHips: Uint8Array;
    /** For each mapped bone, the rig joints strictly between its mapped human parent's joint and its own, parent side first. */
    public readonly intermediates: Int32Array[];
    /**
     * 1 for the joints of {@link fkJoints} whose world position decoding reads (the centre of mass's
     * points, the body frame's upper legs and arms, the hips and its parent) and their ancestors;
     * decoding leaves the others' positions (the fingers') uncomputed.
     */
    public readonly decodePositionNeeded: Uint8Array;
    /**
     * Every joint's reference local position times its parent's world scale (its own position for a
     * top joint), metres: the offset decoding's forward kinematics turns by the parent's rotation,
     * the same product made once.
     */
    public readonly scaledReferencePositions: Vector3[];

    /** Mass model: per point, the joint, its mass, and its offset in the joint's rotated frame (metres). */
    public readonly massJoint: Int32Array;
    /** Mass of each point (kg of Unity's 82.5 kg default person, `HIERARCHY_MASS` in massModel.ts): its bone's own mass. */
    public readonly massWeight: Float32Array;
    /** Offset of each point from its joint, in the joint's rotated T-pose frame (metres): the middle of the bone's segment. */
    public readonly massOffset: Vector3[];
    /** T-pose centre-of-mass height above the ground (metres): the avatar's scale. */
    public readonly scale: number;
    /** A point of the T-pose ground plane (the rig origin dropped onto it), rig space. */
    public readonly groundOrigin: Vector3;
    /** Leg length in the T-pose: upper plus lower leg, mean of both legs (metres). */
    public readonly legLength: number;
    /** The upper leg's share of the leg in the T-pose: upper leg over upper plus lower leg, mean of both legs (0 to 1). */
    public readonly thighShare: number;
    /** T-pose height of the ankles (the foot joints) above the ground, mean of both (metres). */
    public readonly ankleHeight: number;
    /** T-pose distance between the two upper-leg joints (metres): where the legs hang from. */
    public readonly hipWidth: number;
    /**
     * Per human bone: for a trunk bone (spine, chest, upper chest, neck) whose next mapped trunk
     * bone hangs from it through joints the avatar does not map, and is its only mapped child, the
     * T-pose direction from its joint to that bone's (canonical, unit) and that bone; null
     * otherwise. The encoder turns such a bone so that this chord points as the pose's does (see
     * `EncodeHumanPose`).
     */
    public readonly trunkChord: ({
        /** The next trunk bone, hanging from this one through joints the avatar does not map. */
        readonly child: HumanBone;
        /** The T-pose direction from this bone's joint to the child's (canonical frame, unit). */
        readonly rest: Vector3;
    } | null)[];
    /** The joint the trunk's length is measured to: the head's, the neck's without a head. */
    public readonly trunkTop: number;
    /** T-pose distance from the middle of the two upper-leg joints to {@link trunkTop} (metres). */
    public readonly trunkLength: number;
    /**
     * The trunk as the T-pose lays it out, `TRUNK_BONES` order: x y z of each mapped bone's
     * joint from the mapped one before it (the spine's from the middle of the upper-leg joints),
     * canonical frame, metres; zeros for a bone the avatar does not map. A clip keeps its source's,
     * over its scale (`IClipProportions.trunkOffsets`); decode turns this trunk's segments as the
     * source's trunk turns over the same share of its length.
     */
    public readonly trunkOffsets: Float64Array;
    /**
     * {@link trunkOffsets} as a clip keeps them (`IClipProportions.trunkOffsets`): over the scale,
     * and without a neck the head's offset in the neck's place (the head's then zero), since a
     * missing neck's turn is the head's (decode folds it there), not the bone's below: so that the
     * bones' turns, taken in order, lay the trunk out as decode does.
     */
    public readonly clipTrunkOffsets: Float64Array;
    /**
     * The shoulders as the T-pose lays them out, over the scale, as a clip keeps its source's
     * (`IClipProportions.shoulderOffsets`): x y z of the left shoulder joint from the joint of the
     * bone both shoulders hang from, of the left upper-arm joint from the left shoulder joint, then
     * the same two of the right side, canonical frame; null unless both shoulders are mapped and
     * hang from one bone. Decode turns this avatar's shoulder line as a clip's source's turned
     * (`MatchShoulderLine`).
     */
    public readonly clipShoulderOffsets: Float64Array | null;
    /**
     * The length each translation DoF is measured in (metres, `TranslationDofBones` order; see
     * `TranslationDofUnits`): the hip width for the upper legs, the shoulder width for the shoulders
     * and upper arms, the T-pose distance from the parent bone's joint for the spine, neck and head.
     */
    public readonly translationUnit: Float64Array;
    /** T-pose geometric body frame (from hips and shoulders) as a rotation, rig space. */
    public readonly bodyFrameTPose: Quaternion;
    /**
     * Reusable scratch for encode and decode (they are not re-entrant), so neither allocates. Not
     * part of the API: its contents change with every call.
     * @internal
     */
    public readonly work: {
        readonly world: Quaternion[];
        readonly pos: Vector3[];
        readonly dc: Quaternion[];
        readonly q: Quaternion[];
        readonly qa: Quaternion;
        readonly qb: Quaternion;
        readonly qc: Quaternion;
        readonly va: Vector3;
        readonly vb: Vector3;
        readonly vc: Vector3;
        readonly vd: Vector3;
    };

    private constructor(avatar: HumanoidAvatar, settings: IMuscleSettings) {
        this.avatar = avatar;
        const rig = avatar.rig;
        const n = rig.joints.length;
        const ref = avatar.referenceWorld;
        const f = avatar.frame;
        this.c0 = Quaternion.RotationQuaternionFromAxis(f.left.scale(-1), f.up, f.forward).normalize();
        this.c0Inverse = Quaternion.Inverse(this.c0);

        this.joint = new Int32Array(HUMAN_BONE_COUNT);
        this.parentBone = new Int32Array(HUMAN_BONE_COUNT).fill(-1);
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            this.joint[b] = avatar.getJoint(b);
            if (this.joint[b] >= 0) {
                let p = HumanBoneParents[b];
                while (p >= 0 && avatar.getJoint(p) < 0) p = HumanBoneParents[p];
                this.parentBone[b] = p;
            }
        }
        this.boneOfJoint = new Int32Array(n).fill(-1);
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) if (this.joint[b] >= 0) this.boneOfJoint[this.joint[b]] = b;
        this.rigParent = Int32Array.from(rig.joints.map((j) => j.parent));
        this.worldScale = ref.scales.map((s) => s.clone());

        // Forward kinematics set: mapped joints and all their ancestors.
        const need = new Array<boolean>(n).fill(false);
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            for (let j = this.joint[b]; j >= 0 && !need[j]; j = rig.joints[j].parent) need[j] = true;
        }
        this.fkJoints = Int32Array.from(need.map((x, i) => (x ? i : -1)).filter((i) => i >= 0));
        this.intermediates = [];
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            const chain: number[] = [];
            const pj = this.parentBone[b] >= 0 ? this.joint[this.parentBone[b]] : -1;
            if (this.joint[b] >= 0 && pj >= 0) {
                for (let j = rig.joints[this.joint[b]].parent; j >= 0 && j !== pj; j = rig.joints[j].parent) chain.unshift(j);
            }
            this.intermediates.push(Int32Array.from(chain));
        }
        this.belowHips = new Uint8Array(n);
        this.belowHips[this.joint[B.Hips]] = 1;
        for (let i = this.joint[B.Hips] + 1; i < n; i++) {
            const p = rig.joints[i].parent;
            if (p >= 0 && this.belowHips[p]) this.belowHips[i] = 1;
        }

        const children = GetRigChildren(rig);
        // The front of each foot: its toes, its own tip joint, or a point of its sole (`BuildFootFronts`).
        const feet = BuildFootFronts(avatar, this.joint, this.boneOfJoint, children);
        this.footTip = feet.tip;
        this.footFront = feet.front;
        this.footFrontLocal = feet.frontLocal;
        this.footLength = feet.length;
        // Twist axes: the bone's T-pose direction (limbs, fingers, feet, toes), the canonical up
        // (trunk, neck, head) or forward (eyes, jaw), or the forearm's for the hand; swing axes from
        // the muscle table (boneAxes.ts).
        const axes = BuildBoneAxes(avatar, this.c0Inverse, this.joint, this.footTip, children);
        this.twistAxis = axes.twistAxis;
        this.collarbone = axes.collarbone;
        this.axisY = axes.axisY;
        this.axisZ = axes.axisZ;
        this.twistSign = axes.twistSign;
        this.hingeSign = axes.hingeSign;

        // Ranges and twist shares (checked when the avatar was built).
        const checked = CheckMuscleSettings(avatar.name, settings);
        this.minDeg = checked.minDeg;
        this.maxDeg = checked.maxDeg;
        const share = (k: "upperArm" | "lowerArm" | "upperLeg" | "lowerLeg"): number => settings.twist?.[k] ?? 0.5;
        this.twistShare = { upperArm: share("upperArm"), lowerArm: share("lowerArm"), upperLeg: share("upperLeg"), lowerLeg: share("lowerLeg") };

        this.tposeCanonical = [];
        this.tposeCanonicalInverseC0 = [];
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            const j = this.joint[b];
            const w0 = j >= 0 ? ref.rotations[j] : this.c0;
            const wc = this.c0Inverse.multiply(w0);
            this.tposeCanonical.push(wc);
            this.tposeCanonicalInverseC0.push(Quaternion.Inverse(w0).multiply(this.c0));
        }

        // Mass model: each mapped bone's own mass at the middle of its segment.
        const mass = BuildMassModel(avatar, this.joint, this.parentBone, children);
        const massJoint = mass.joint;
        this.massJoint = massJoint;
        this.massWeight = mass.weight;
        this.massOffset = mass.offset;

        // Scale: the T-pose centre-of-mass height above the lowest point of the feet.
        const com = mass.centre;
        let ground = Infinity;
        for (const foot of [B.LeftFoot, B.RightFoot, B.LeftToes, B.RightToes]) {
            const j = this.joint[foot];
            if (j < 0) continue;
            // A foot that ends at its ankle (no toes, no tip: its lowest joint is the ankle itself)
            // stands on its surface's lowest point where the rig knows its surface (`IRig.surfaceBelow`):
            // the Saxon warrior (colesam/uploads) planted its ankles on the floor, its boots 7 cm in.
            const surface = (foot === B.LeftFoot || foot === B.RightFoot) && this.footTip[foot === B.LeftFoot ? 0 : 1] < 0 ? rig.surfaceBelow : undefined;
            const stack = [j];
            while (stack.length) {
                const k = stack.pop()!;
                if (rig.joints[k].kind !== RigJointKind.Node) ground = Math.min(ground, Vector3.Dot(ref.positions[k], f.up));
                if (surface && surface[k] > 0) ground = Math.min(ground, Vector3.Dot(ref.positions[k], f.up) - surface[k]);
                stack.push(...children[k]);
            }
        }
        this.scale = Vector3.Dot(com, f.up) - ground;
        if (!(this.scale > 0)) {
            throw new HumanoidError("BAD_HIERARCHY", `${avatar.name}: the centre of mass is not above the feet in the T-pose`);
        }
        this.groundOrigin = f.up.scale(ground);
        const leg = (u: HumanBone, l: HumanBone, e: HumanBone): number =>
            Vector3.Distance(ref.positions[this.joint[u]], ref.positions[this.joint[l]]) +
            Vector3.Distance(ref.positions[this.joint[l]], ref.positions[this.joint[e]]);
        this.legLength = (leg(B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot) + leg(B.RightUpperLeg, B.RightLowerLeg, B.RightFoot)) / 2;
        const upperShare = (u: HumanBone, l: HumanBone, e: HumanBone): number =>
            Vector3.Distance(ref.positions[this.joint[u]], ref.positions[this.joint[l]]) / leg(u, l, e);
        this.thighShare = (upperShare(B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot) + upperShare(B.RightUpperLeg, B.RightLowerLeg, B.RightFoot)) / 2;
        this.ankleHeight = (Vector3.Dot(ref.positions[this.joint[B.LeftFoot]], f.up) + Vector3.Dot(ref.positions[this.joint[B.RightFoot]], f.up)) / 2 - ground;
        this.hipWidth = Vector3.Distance(ref.positions[this.joint[B.LeftUpperLeg]], ref.positions[this.joint[B.RightUpperLeg]]);
        this.trunkTop = this.joint[B.Head] >= 0 ? this.joint[B.Head] : this.joint[B.Neck] >= 0 ? this.joint[B.Neck] : this.joint[B.Spine];
        const hipMiddle = ref.positions[this.joint[B.LeftUpperLeg]].add(ref.positions[this.joint[B.RightUpperLeg]]).scale(0.5);
        this.trunkLength = Vector3.Distance(ref.positions[this.trunkTop], hipMiddle);
        this.trunkOffsets = new Float64Array(3 * TRUNK_BONES.length);
        {
            let prev = hipMiddle;
            TRUNK_BONES.forEach((b, i) => {
                const j = this.joint[b];
                if (j < 0) return;
                const o = ref.positions[j].subtract(prev).applyRotationQuaternion(this.c0Inverse);
                this.trunkOffsets.set([o.x, o.y, o.z], 3 * i);
                prev = ref.positions[j];
            });
        }
        this.clipTrunkOffsets = Float64Array.from(this.trunkOffsets, (x) => x / this.scale);
        {
            const j = this.joint;
            const parent = this.parentBone[B.LeftShoulder];
            const mapped = j[B.LeftShoulder] >= 0 && j[B.RightShoulder] >= 0 && parent >= 0 && parent === this.parentBone[B.RightShoulder];
            const layout: number[] = [];
            if (mapped) {
                for (const [from, to] of [
                    [j[parent], j[B.LeftShoulder]],
                    [j[B.LeftShoulder], j[B.LeftUpperArm]],
                    [j[parent], j[B.RightShoulder]],
                    [j[B.RightShoulder], j[B.RightUpperArm]],
                ]) {
                    const o = ref.positions[to]
                        .subtract(ref.positions[from])
                        .applyRotationQuaternion(this.c0Inverse)
                        .scaleInPlace(1 / this.scale);
                    layout.push(o.x, o.y, o.z);
                }
            }
            this.clipShoulderOffsets = mapped ? Float64Array.from(layout) : null;
        }
        this.trunkChord = Array.from({ length: HUMAN_BONE_COUNT }, () => null);
        for (let i = 0; i < TRUNK_BONES.length - 1; i++) {
            const b = TRUNK_BONES[i];
            if (this.joint[b] < 0) continue;
            let c = -1;
            for (let k = i + 1; k < TRUNK_BONES.length && c < 0; k++) if (this.joint[TRUNK_BONES[k]] >= 0) c = TRUNK_BONES[k];
            if (c < 0 || this.parentBone[c] !== b || this.intermediates[c].length === 0) continue;
            // Only a bone the next trunk bone is its one mapped child of: turning it carries them all
            // (a chest whose shoulders hang from it would swing them toward the head).
            let others = false;
            for (let o = 0; o < HUMAN_BONE_COUNT && !others; o++) others = o !== c && this.joint[o] >= 0 && this.parentBone[o] === b;
            if (others) continue;
            const d = ref.positions[this.joint[c]].subtract(ref.positions[this.joint[b]]).applyRotationQuaternion(this.c0Inverse);
            if (d.lengthSquared() > 1e-12) this.trunkChord[b] = { child: c, rest: d.normalize() };
        }
        if (this.joint[B.Neck] < 0) {
            const neck = 3 * TRUNK_BONES.indexOf(B.Neck);
            const head = 3 * TRUNK_BONES.indexOf(B.Head);
            for (let i = 0; i < 3; i++) {
                this.clipTrunkOffsets[neck + i] = this.clipTrunkOffsets[head + i];
                this.clipTrunkOffsets[head + i] = 0;
            }
        }
        this.translationUnit = TranslationDofUnits(this, ref.positions);
        const needed = new Uint8Array(n);
        const reads = [
            ...massJoint,
            this.joint[B.LeftUpperLeg],
            this.joint[B.RightUpperLeg],
            this.joint[B.LeftUpperArm],
            this.joint[B.RightUpperArm],
            this.joint[B.Hips],
        ];
        for (const r of reads) for (let j = r; j >= 0 && !needed[j]; j = rig.joints[j].parent) needed[j] = 1;
        this.decodePositionNeeded = needed;
        this.twistAxisLength = Float64Array.from(this.twistAxis, (t) => Math.sqrt(t.x * t.x + t.y * t.y + t.z * t.z));
        const local = avatar.referencePose.positions;
        this.scaledReferencePositions = local.map((v, j) => (this.rigParent[j] >= 0 ? v.multiply(this.worldScale[this.rigParent[j]]) : v.clone()));
        this.work = {
            world: rig.joints.map(() => Quaternion.Identity()),
            pos: rig.joints.map(() => Vector3.Zero()),
            dc: Array.from({ length: HUMAN_BONE_COUNT }, () => Quaternion.Identity()),
            q: Array.from({ length: HUMAN_BONE_COUNT }, () => Quaternion.Identity()),
            qa: Quaternion.Identity(),
            qb: Quaternion.Identity(),
            qc: Quaternion.Identity(),
            va: Vector3.Zero(),
            vb: Vector3.Zero(),
            vc: Vector3.Zero(),
            vd: Vector3.Zero(),
        };
        const g = ComputeBodyFrame(ref.positions, avatar.getBoneToJoint(), false);
        this.bodyFrameTPose = Quaternion.RotationQuaternionFromAxis(g.left.scale(-1), g.up, g.forward).normalize();
    }

    private static readonly _cache = new WeakMap<HumanoidAvatar, MuscleSetup>();

    /**
     * The muscle setup of an avatar, made on first use and cached. Throws a {@link HumanoidError}
     * `BAD_OPTION` for invalid muscle ranges or twist shares in the avatar's options.
     */
    public static For(avatar: HumanoidAvatar): MuscleSetup {
        let s = MuscleSetup._cache.get(avatar);
        if (!s) {
            s = new MuscleSetup(avatar, avatar.muscleSettings);
            MuscleSetup._cache.set(avatar, s);
        }
        return s;
    }

    /** Muscle value -> radians (asymmetric: negative values scale by |min|, positive by max). */
    public muscleToRadians(muscle: number, value: number): number {
        const deg = value >= 0 ? value * this.maxDeg[muscle] : value * -this.minDeg[muscle];
        return (deg * Math.PI) / 180;
    }

    /**
     * Every muscle value -> radians at once (as {@link muscleToRadians}, muscle by muscle), into
     * `result`: the per-frame form, with no call per muscle (a number passed to or returned from a
     * call that is not inlined is boxed, which allocates). Allocation-free. Returns `result`.
     * @param values all muscle values (`HumanPose.values`, {@link ALL_MUSCLE_COUNT} of them)
     * @param result receives the angles, radians (at least {@link ALL_MUSCLE_COUNT} long)
     */
    public musclesToRadiansToRef(values: Float32Array, result: Float64Array): Float64Array {
        const min = this.minDeg;
        const max = this.maxDeg;
        for (let i = 0; i < ALL_MUSCLE_COUNT; i++) {
            const value = values[i];
            const deg = value >= 0 ? value * max[i] : value * -min[i];
            result[i] = (deg * Math.PI) / 180;
        }
        return result;
    }

    /** Radians -> muscle value. */
    public radiansToMuscle(muscle: number, radians: number): number {
        const deg = (radians * 180) / Math.PI;
        return deg >= 0 ? deg / this.maxDeg[muscle] : deg / -this.minDeg[muscle];
    }
}
