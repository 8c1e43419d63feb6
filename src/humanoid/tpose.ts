import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { AngleBetweenDeg, ComputeBodyFrame, safeNormalize, type IBodyFrame } from "./bodyFrame.js";
import { FootTipChild } from "./footTip.js";
import { BodySide, GetFingerBone, HumanBone } from "./humanBones.js";
import { ComputeRigWorldPose, GetRigChildren, RigJointKind, type IRig, type IRigPose } from "./rig.js";

/**
 * How the reference T-pose is made:
 * - `"auto"`: keep the start pose where it is already a T-pose within the tolerances, rotate the
 *   bones that are not (A-pose arms, legs apart, a zero pose with every bone along +X);
 * - `"rest"`: take the start pose as it is (trust the rig's rest pose);
 * - `"strict"`: align every bone exactly to its T-pose direction.
 */
export type TPoseMode = "auto" | "rest" | "strict";

/** One bone the T-pose enforcement rotated. */
export interface ITPoseCorrection {
    /** The bone. */
    readonly bone: HumanBone;
    /** How far it was turned (degrees). */
    readonly angleDeg: number;
}

/** The reference pose of an avatar and how it was obtained. */
export interface ITPoseResult {
    /** Local rotation and position of every rig joint in the T-pose. */
    readonly pose: IRigPose;
    /** Bones that were rotated, in the order they were fixed. */
    readonly corrections: readonly ITPoseCorrection[];
    /** The body frame of the T-pose. */
    readonly frame: IBodyFrame;
}

/**
 * Tolerances (degrees) before a bone is rotated, for a start pose that is the rig's own rest pose
 * (the character's natural build is kept: spine curve, shoulder slope, relaxed fingers; arms and
 * legs are aligned exactly, since limb directions carry from one character's T-pose to another's)
 * and for a pose taken from a motion frame (nothing in it is a reference, so bones are aligned
 * closely).
 */
export const TPOSE_TOLERANCES_DEG = {
    /** `tPose: "auto"` from the rig's own rest pose: its natural build is kept (spine curve, shoulder slope, relaxed fingers). */
    rest: {
        /** Degrees: body tilt from upright, turned at the hips. */
        hips: 15,
        /** Degrees: the line between the upper-leg joints from level (a pelvis rolled to one side), turned at the hips with the trunk kept. */
        pelvis: 2,
        /** Degrees: spine, chest, upper chest and neck from straight up. */
        spine: 30,
        /** Degrees: shoulders from straight out to their side. */
        shoulder: 20,
        /**
         * Degrees: upper arms and forearms from straight out to their side. None: a limb a little
         * off in one character's rest pose would hold every character it plays on that far off.
         */
        arm: 0,
        /** Degrees: hands from straight out to their side. */
        hand: 10,
        /** Degrees: finger segments (not thumbs) from straight out to their side. */
        finger: 15,
        /** Degrees: thumb segments from 45 degrees forward of straight out. */
        thumb: 45,
        /** Degrees: thighs and shins from straight down. None, as the arms. */
        leg: 0,
        /** Degrees: feet from forward (on the ground plane, or at the flat foot's measured slope). */
        foot: 20,
    },
    /** `tPose: "auto"` from a motion frame (a BVH zero pose that is no T-pose): nothing in it is a reference, so bones are aligned closely. */
    frame: {
        /** Degrees: body tilt from upright, turned at the hips. */
        hips: 5,
        /** Degrees: the line between the upper-leg joints from level (a pelvis rolled to one side), turned at the hips with the trunk kept. */
        pelvis: 0,
        /** Degrees: spine, chest, upper chest and neck from straight up. */
        spine: 5,
        /** Degrees: shoulders from straight out to their side. */
        shoulder: 10,
        /** Degrees: upper arms and forearms from straight out to their side. */
        arm: 0,
        /** Degrees: hands from straight out to their side. */
        hand: 5,
        /** Degrees: finger segments (not thumbs) from straight out to their side. */
        finger: 5,
        /** Degrees: thumb segments from 45 degrees forward of straight out. */
        thumb: 45,
        /** Degrees: thighs and shins from straight down. */
        leg: 0,
        /** Degrees: feet from forward (on the ground plane, or at the flat foot's measured slope). */
        foot: 0,
    },
    /** `tPose: "strict"`: every bone aligned. */
    strict: {
        /** Degrees: body tilt from upright, turned at the hips. */
        hips: 0,
        /** Degrees: the line between the upper-leg joints from level (a pelvis rolled to one side), turned at the hips with the trunk kept. */
        pelvis: 0,
        /** Degrees: spine, chest, upper chest and neck from straight up. */
        spine: 0,
        /** Degrees: shoulders from straight out to their side. */
        shoulder: 0,
        /** Degrees: upper arms and forearms from straight out to their side. */
        arm: 0,
        /** Degrees: hands from straight out to their side. */
        hand: 0,
        /** Degrees: finger segments (not thumbs) from straight out to their side. */
        finger: 0,
        /** Degrees: thumb segments from 45 degrees forward of straight out. */
        thumb: 0,
        /** Degrees: thighs and shins from straight down. */
        leg: 0,
        /** Degrees: feet from forward (on the ground plane, or at the flat foot's measured slope). */
        foot: 0,
    },
} as const;

/** Smaller turns are rounding noise, not corrections (degrees). */
const MIN_CORRECTION_DEG = 0.01;

/** Passes over the bones; the first does nearly all, the later ones absorb the frame's small shifts. */
const MAX_PASSES = 3;

type ToleranceKind = keyof (typeof TPOSE_TOLERANCES_DEG)["rest"];

interface ITarget {
    readonly bone: HumanBone;
    /** Direction in the body frame. */
    readonly dir: (f: IBodyFrame) => Vector3;
    readonly tol: ToleranceKind;
    /** Only the direction's projection on the ground plane counts (feet). */
    readonly horizontal?: boolean;
    /** Keep the world rotation of this bone when fixing (the foot when fixing a leg). */
    readonly keep?: HumanBone;
    /** Bones whose joint gives the direction, first mapped wins; none: the joint's longest child. */
    readonly toward: readonly HumanBone[];
    /** Degrees: this bone's tolerance, when not the mode's own for its {@link tol} (a rest foot laid level is always turned). */
    readonly tolDeg?: number;
}

const B = HumanBone;

/**
 * The T-pose's target directions, top-down.
 * @param flatFootDeg the slope of a flat foot (ankle to toes, degrees below level), or undefined: feet forward on the ground plane
 * @param exactFoot whether the feet are turned onto that slope whatever the mode's tolerance
 */
function targets(flatFootDeg: number | undefined, exactFoot: boolean): ITarget[] {
    const up = (f: IBodyFrame): Vector3 => f.up;
    const out: ITarget[] = [
        { bone: B.Spine, dir: up, tol: "spine", toward: [B.Chest, B.UpperChest, B.Neck, B.Head] },
        { bone: B.Chest, dir: up, tol: "spine", toward: [B.UpperChest, B.Neck, B.Head] },
        { bone: B.UpperChest, dir: up, tol: "spine", toward: [B.Neck, B.Head] },
        { bone: B.Neck, dir: up, tol: "spine", toward: [B.Head] },
    ];
    for (const side of [BodySide.Left, BodySide.Right] as const) {
        const L = side === BodySide.Left;
        const out_ = (f: IBodyFrame): Vector3 => (L ? f.left : f.left.scale(-1));
        const sh = L ? B.LeftShoulder : B.RightShoulder;
        const ua = L ? B.LeftUpperArm : B.RightUpperArm;
        const la = L ? B.LeftLowerArm : B.RightLowerArm;
        const hand = L ? B.LeftHand : B.RightHand;
        const ul = L ? B.LeftUpperLeg : B.RightUpperLeg;
        const ll = L ? B.LeftLowerLeg : B.RightLowerLeg;
        const foot = L ? B.LeftFoot : B.RightFoot;
        const toes = L ? B.LeftToes : B.RightToes;
        out.push(
            { bone: sh, dir: out_, tol: "shoulder", toward: [ua] },
            { bone: ua, dir: out_, tol: "arm", toward: [la] },
            { bone: la, dir: out_, tol: "arm", toward: [hand] },
            { bone: hand, dir: out_, tol: "hand", toward: [GetFingerBone(side, 2, 0), GetFingerBone(side, 3, 0), GetFingerBone(side, 1, 0)] },
        );
        // Thumbs point 45 degrees forward of the arm (VRM's T-pose); the other fingers straight out.
        const thumbDir = (f: IBodyFrame): Vector3 => safeNormalize(out_(f).add(f.forward));
        for (let finger = 0; finger < 5; finger++) {
            for (let d = 0; d < 3; d++) {
                const bone = GetFingerBone(side, finger, d);
                out.push({
                    bone,
                    dir: finger === 0 ? thumbDir : out_,
                    tol: finger === 0 ? "thumb" : "finger",
                    toward: d < 2 ? [GetFingerBone(side, finger, d + 1)] : [],
                });
            }
        }
        const down = (f: IBodyFrame): Vector3 => f.up.scale(-1);
        out.push(
            { bone: ul, dir: down, tol: "leg", toward: [ll], keep: foot },
            { bone: ll, dir: down, tol: "leg", toward: [foot], keep: foot },
            flatFootDeg === undefined
                ? { bone: foot, dir: (f) => f.forward, tol: "foot", horizontal: true, toward: [toes] }
                : { bone: foot, dir: (f) => footDirection(f, flatFootDeg), tol: "foot", toward: [toes], tolDeg: exactFoot ? 0 : undefined },
        );
    }
    return out;
}

/**
 * Whether both feet of a pose point along the ground: each foot's ankle-to-toes direction within
 * {@link LEVEL_REST_FOOT_DEG} of the frame's ground plane (false unless both feet have toes).
 */
function feetLevel(positions: readonly Vector3[], boneToJoint: ArrayLike<number>, frame: IBodyFrame): boolean {
    const sine = Math.sin((LEVEL_REST_FOOT_DEG * Math.PI) / 180);
    for (const [foot, toes] of [
        [B.LeftFoot, B.LeftToes],
        [B.RightFoot, B.RightToes],
    ] as const) {
        if (boneToJoint[foot] < 0 || boneToJoint[toes] < 0) return false;
        const along = positions[boneToJoint[toes]].subtract(positions[boneToJoint[foot]]);
        const length = along.length();
        if (!(length > 1e-9) || Math.abs(Vector3.Dot(along, frame.up)) > sine * length) return false;
    }
    return true;
}

/** Direction from ankle to toes of a flat foot: forward, tilted down by the foot's elevation angle. */
function footDirection(f: IBodyFrame, elevationDeg: number): Vector3 {
    const a = (elevationDeg * Math.PI) / 180;
    return f.forward.scale(Math.cos(a)).subtract(f.up.scale(Math.sin(a)));
}

/**
 * How far below horizontal the ankle-to-toes direction points when a foot stands flat, estimated
 * from a rig's sample poses (frames of its motion): the frames where both the ankle and the toes of
 * a foot are within {@link FLAT_FOOT_EPSILON} foot lengths of their lowest are taken as flat on the
 * ground. Rig space is Y-up, so the ground is horizontal. `undefined` when no frame qualifies.
 */
export function EstimateFlatFootElevationDeg(rig: IRig, boneToJoint: ArrayLike<number>): number | undefined {
    const poses = rig.samplePoses ?? [];
    const angles: number[] = [];
    for (const [footB, toesB] of [
        [B.LeftFoot, B.LeftToes],
        [B.RightFoot, B.RightToes],
    ] as const) {
        const foot = boneToJoint[footB];
        const toes = boneToJoint[toesB];
        if (foot < 0 || toes < 0 || !poses.length) continue;
        const samples = poses.map((pose) => {
            const w = ComputeRigWorldPose(rig, pose).positions;
            const d = w[toes].subtract(w[foot]);
            return { ankle: w[foot].y, toe: w[toes].y, length: d.length(), elev: Math.atan2(-d.y, Math.hypot(d.x, d.z)) };
        });
        const minAnkle = Math.min(...samples.map((x) => x.ankle));
        const minToe = Math.min(...samples.map((x) => x.toe));
        for (const x of samples) {
            const eps = FLAT_FOOT_EPSILON * x.length;
            if (x.ankle <= minAnkle + eps && x.toe <= minToe + eps) {
                angles.push((x.elev * 180) / Math.PI);
            }
        }
    }
    if (!angles.length) return undefined;
    angles.sort((a, b) => a - b);
    return angles[Math.floor(angles.length / 2)];
}

/** A foot counts as flat on the ground when ankle and toes are this many foot lengths from their lowest. */
export const FLAT_FOOT_EPSILON = 0.15;

/**
 * Degrees: a rest pose whose feet point within this of level (ankle to toes) does not stand on
 * them. A flat foot's ankle stands above the ball of the foot: 10 to 60 degrees above its toes
 * joint on every other skeleton met so far. Mocap drawn with its foot bones along the ground (the
 * CMU takes written from their ASF skeletons, some others) stands with them 20 to 25 degrees
 * down, and every frame's feet were encoded as turned that far from the T-pose: the characters
 * they played on stood toes down, lifted off the floor or with their knees bent to reach it (the
 * child's jump with its rest feet laid level, onto the X Bot: planted feet 0.043 of a leg above
 * the floor, 0.008 as bound; a CMU dance onto the KayKit mannequin: shins 8.8 degrees off the
 * source's, 3.7 with this). With `"auto"`
 * from such a rest pose, both feet are turned to the slope its motion's flat feet show
 * ({@link EstimateFlatFootElevationDeg}: one median over both feet's flat frames), whatever the
 * foot tolerance, when that slope is steeper
 * than this; a rig without motion keeps its feet.
 */
export const LEVEL_REST_FOOT_DEG = 5;

/**
 * Makes the reference T-pose of a mapped rig (reference §6): from a start pose, the body is set
 * upright, then each bone whose direction (to its child) is further than the tolerance from its
 * T-pose direction is turned by the shortest rotation onto it, top-down: spine chain and neck up,
 * shoulders, arms, hands and fingers out to the side (thumbs 45 degrees forward), legs straight
 * down (feet keep their world rotation), feet forward on the ground plane. Directions are in the
 * character's own frame (its left, up and forward), so a character need not face +Z.
 * @param rig the rig
 * @param boneToJoint joint of every human bone (-1 when not mapped)
 * @param start the pose to start from (rest pose, or a motion frame)
 * @param mode see {@link TPoseMode}
 * @param fromMotionFrame the start pose is a frame of motion, not the rig's rest pose (tighter tolerances)
 */
export function MakeReferenceTPose(
    rig: IRig,
    boneToJoint: ArrayLike<number>,
    start: IRigPose,
    mode: TPoseMode = "auto",
    fromMotionFrame = false,
): ITPoseResult {
    const rotations = start.rotations.map((q) => q.clone());
    const positions = start.positions.map((p) => p.clone());
    const pose: IRigPose = { label: "T-pose", rotations, positions };
    let world = ComputeRigWorldPose(rig, pose);
    let frame = ComputeBodyFrame(world.positions, boneToJoint);
    const corrections: ITPoseCorrection[] = [];
    if (mode === "rest") {
        return { pose, corrections, frame };
    }
    const tol = mode === "strict" ? TPOSE_TOLERANCES_DEG.strict : fromMotionFrame ? TPOSE_TOLERANCES_DEG.frame : TPOSE_TOLERANCES_DEG.rest;
    const children = GetRigChildren(rig);
    const j = (b: HumanBone): number => boneToJoint[b];

    /** Sets a joint's world rotation, keeping its parent. */
    const setWorldRotation = (joint: number, worldRot: Quaternion): void => {
        const parent = rig.joints[joint].parent;
        // local = inverse(parentWorld) * world
        rotations[joint] = parent >= 0 ? Quaternion.Inverse(world.rotations[parent]).multiply(worldRot).normalize() : worldRot.clone();
    };
    /** Applies a world-space rotation to a joint (its subtree follows). */
    const rotateWorld = (joint: number, delta: Quaternion, keep: number): void => {
        const kept = keep >= 0 ? world.rotations[keep].clone() : null;
        setWorldRotation(joint, delta.multiply(world.rotations[joint]));
        world = ComputeRigWorldPose(rig, pose);
        if (kept && keep >= 0) {
            setWorldRotation(keep, kept);
            world = ComputeRigWorldPose(rig, pose);
        }
    };
    const mappedJoints = new Set(Array.from(boneToJoint).filter((x) => x >= 0));
    // Thumbs do not give the direction of the hand.
    const thumbJoints = new Set<number>();
    for (const side of [BodySide.Left, BodySide.Right] as const) {
        for (let d = 0; d < 3; d++) thumbJoints.add(j(GetFingerBone(side, 0, d)));
    }
    /** Farthest structural child, for bones with no mapped child. */
    const longestChild = (joint: number): number => {
        let best = -1;
        let bestLen = 0;
        for (const c of children[joint]) {
            if (rig.joints[c].kind === RigJointKind.Node || thumbJoints.has(c)) continue;
            const len = world.positions[c].subtract(world.positions[joint]).length();
            if (len > bestLen) {
                bestLen = len;
                best = c;
            }
        }
        return best;
    };

    // Hips: make the body upright (keeping the facing).
    let hipsTurn = 0;
    const geometric = ComputeBodyFrame(world.positions, boneToJoint, false);
    const tilt = AngleBetweenDeg(geometric.up, frame.up);
    if (tilt > tol.hips) {
        const delta = new Quaternion();
        Quaternion.FromUnitVectorsToRef(geometric.up, frame.up, delta);
        rotateWorld(j(B.Hips), delta, -1);
        hipsTurn += tilt;
        frame = ComputeBodyFrame(world.positions, boneToJoint);
    }
    // Pelvis: the line between the hip joints level. A pose taken from a motion frame has its
    // pelvis rolled over the stance leg (Bandai's mocap: 1.5 to 3 degrees), and every frame's hips
    // are encoded as turned from this pose: left rolled, a character of other proportions would
    // carry the roll all clip long, one hip a few millimetres higher for every 10 cm of pelvis (on
    // a pelvis as wide as its legs are long, a knee bent 15 degrees more than the source's over
    // each stance). Turned at the hips with the trunk kept; the legs are straightened below.
    const hipLine = world.positions[j(B.RightUpperLeg)].subtract(world.positions[j(B.LeftUpperLeg)]);
    const level = hipLine.subtract(frame.up.scale(Vector3.Dot(hipLine, frame.up)));
    if (hipLine.length() > 1e-6 && level.length() > 1e-6) {
        const roll = AngleBetweenDeg(hipLine, level);
        if (roll > Math.max(tol.pelvis, MIN_CORRECTION_DEG)) {
            const delta = new Quaternion();
            Quaternion.FromUnitVectorsToRef(hipLine.normalize(), level.normalize(), delta);
            rotateWorld(j(B.Hips), delta, j(B.Spine));
            hipsTurn += roll;
            frame = ComputeBodyFrame(world.positions, boneToJoint);
        }
    }
    if (hipsTurn > 0) corrections.push({ bone: B.Hips, angleDeg: hipsTurn });

    let flatFoot = fromMotionFrame && mode !== "strict" ? EstimateFlatFootElevationDeg(rig, boneToJoint) : undefined;
    // A rest pose's feet laid along the ground (LEVEL_REST_FOOT_DEG): its motion's flat feet, exactly.
    let exactFoot = false;
    if (!fromMotionFrame && mode === "auto" && feetLevel(world.positions, boneToJoint, frame)) {
        const slope = EstimateFlatFootElevationDeg(rig, boneToJoint);
        if (slope !== undefined && slope > LEVEL_REST_FOOT_DEG) {
            flatFoot = slope;
            exactFoot = true;
        }
    }
    const list = targets(flatFoot, exactFoot);
    const total = new Map<HumanBone, number>();
    // Fixing the shoulders and limbs moves the body frame a little; a second pass settles it.
    for (let pass = 0; pass < MAX_PASSES; pass++) {
        let changed = false;
        for (const t of list) {
            const joint = j(t.bone);
            if (joint < 0) continue;
            let child = -1;
            for (const b of t.toward) {
                if (j(b) >= 0) {
                    child = j(b);
                    break;
                }
            }
            // A foot with no toes: its own tip, not any longest child (`FootTipChild`).
            if (child < 0)
                child =
                    t.bone === B.LeftFoot || t.bone === B.RightFoot
                        ? FootTipChild(rig, children, world.positions, joint, frame, (c) => mappedJoints.has(c))
                        : longestChild(joint);
            if (child < 0) continue;
            let cur = world.positions[child].subtract(world.positions[joint]);
            let goal = t.dir(frame);
            if (t.horizontal) {
                cur = cur.subtract(frame.up.scale(Vector3.Dot(cur, frame.up)));
                goal = goal.subtract(frame.up.scale(Vector3.Dot(goal, frame.up)));
            }
            if (cur.length() < 1e-6 || goal.length() < 1e-6) continue;
            const angle = AngleBetweenDeg(cur, goal);
            if (angle <= Math.max(t.tolDeg ?? tol[t.tol], MIN_CORRECTION_DEG)) continue;
            const delta = new Quaternion();
            Quaternion.FromUnitVectorsToRef(cur.normalize(), goal.normalize(), delta);
            rotateWorld(joint, delta, t.keep !== undefined ? j(t.keep) : -1);
            total.set(t.bone, (total.get(t.bone) ?? 0) + angle);
            changed = true;
        }
        frame = ComputeBodyFrame(world.positions, boneToJoint);
        if (!changed) break;
    }
    for (const [bone, angleDeg] of total) {
        corrections.push({ bone, angleDeg });
    }
    return { pose, corrections, frame };
}
