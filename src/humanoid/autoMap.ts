import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import { AngleBetweenDeg, UPRIGHT_SNAP_DEG } from "./bodyFrame.js";
import { ParseJointName, type NameHint } from "./boneNames.js";
import { BodySide, HumanBone, HumanBoneNames, HUMAN_BONE_COUNT } from "./humanBones.js";
import { ComputeRigWorldPose, GetRigJointLabel, GetRigRestPose, type IRig, type IRigPose } from "./rig.js";
import { FindHumanoidStructure, type IHumanoidStructure } from "./structure.js";

import { FlattenToUnit, HasNameHint, IsUsableJoint, type IChainContext } from "./mapContext.js";
import { AssignArm, AssignLeg, PickBranches, type IArmChoice, type ILegChoice } from "./limbChains.js";
import { FindEyePair, MapFingers } from "./handAndHead.js";
import { DetachedFeetNote } from "./detachedFeet.js";
/** Legs count as below the spine when the hips-to-foot and hips-to-chest directions are this far apart (degrees). */
export const LEGS_BELOW_SPINE_MIN_DEG = 120;

/** Forward cues summing to less than this (in units of one clear cue) leave the facing to the names. */
export const FACING_MIN_CONFIDENCE = 0.25;

/**
 * A nameless leaf above the head more than this fraction of the skeleton's diameter from the joint
 * before it is a head-top tip (a head is 0.07-0.09 of the diameter tall; a neck joint 0.02-0.05).
 */
export const HEAD_TIP_MIN = 0.06;

/**
 * Eyes, a jaw, a head-top tip branch off the head shorter than this fraction of the diameter
 * (Mixamo's eyes with their tips: 0.09); capes and hair hanging from a neck are longer.
 */
export const HEAD_FEATURE_MAX = 0.15;

/** How deep below the head eyes and a jaw are looked for by name (1: its children only). */
const FACE_DEPTH = 3;

/** Result of automatic mapping: which rig joint carries each human bone, and what was seen on the way. */
export interface IAutoMapResult {
    /** Rig joint index of every human bone (indexed by {@link HumanBone}), -1 when not mapped. */
    readonly boneToJoint: Int32Array;
    /** The pose the geometry was read from (the rest pose, or a sample pose when the rest pose is not anatomical). */
    readonly geometryPose: IRigPose;
    /** Body frame in rig space, in {@link geometryPose}: unit vectors. */
    readonly up: Vector3;
    /** The direction the character faces (unit, perpendicular to {@link up}). */
    readonly forward: Vector3;
    /** The character's left (unit). */
    readonly left: Vector3;
    /** Readable notes: guesses, names that disagree with the geometry. */
    readonly warnings: string[];
    /** Human bones whose joint was a guess (name and geometry disagree, or nothing decided clearly), with why. */
    readonly doubtful: Map<HumanBone, string>;
    /** The tree analysis the map was built on. */
    readonly structure: IHumanoidStructure;
}

/** Offset of the middle joint from the line through the outer two (a bent knee or elbow), relative to the limb length. */
function bendOffset(a: Vector3, b: Vector3, c: Vector3): Vector3 {
    const ac = c.subtract(a);
    const len = ac.length();
    if (len < 1e-9) {
        return Vector3.Zero();
    }
    const t = Vector3.Dot(b.subtract(a), ac) / (len * len);
    const onLine = a.add(ac.scale(t));
    return b.subtract(onLine).scaleInPlace(1 / len);
}

/**
 * Arms whose upper joints are closer together than this share of the upper legs' distance do not
 * show by their places which leg's side each is on; their names pair them instead.
 */
const ARM_PAIRING_MIN_SHARE = 0.05;

/** A chain's joints on the limb's side, as stated by names: -1, +1, or 0 when unclear. */
function namedSide(ctx: IChainContext, joints: readonly number[]): number {
    let sum = 0;
    for (const j of joints) {
        sum += ctx.names[j].side;
    }
    return Math.sign(sum);
}

/**
 * Maps a rig onto the humanoid automatically, from its tree (which joints branch, bone lengths),
 * its geometry (side from the body's left and right, up from hips to head, facing from toes,
 * knees, elbows, eyes and thumbs) and its names (as hints that break ties). See
 * docs/mapping.md for the full method.
 *
 * Throws a {@link HumanoidError} `NOT_HUMANOID` when the skeleton is not a humanoid (no hips with
 * two legs and a spine, no arms, or legs that do not hang below the spine in any pose).
 */
export function AutoMapHumanoid(rig: IRig): IAutoMapResult {
    const s = FindHumanoidStructure(rig);
    const names = rig.joints.map((j) => ParseJointName(j.name));
    const warnings: string[] = [];
    const doubtful = new Map<HumanBone, string>();
    const label = (j: number): string => GetRigJointLabel(rig, j);

    // 1. A pose that looks like a standing body: the rest pose, else the first sample pose that does.
    // In each, the legs, arms and head are picked among the branches by where they point.
    const poses = [GetRigRestPose(rig), ...(rig.samplePoses ?? [])];
    const legEnd = (leg: readonly number[]): number => leg[Math.min(leg.length - 1, 2)];
    let geometryPose = poses[0];
    let pos = ComputeRigWorldPose(rig, geometryPose).positions;
    let picked = PickBranches(s, pos, names);
    let plausible = false;
    let worstAngle = 0;
    for (const pose of poses) {
        const p = ComputeRigWorldPose(rig, pose).positions;
        const pick = PickBranches(s, p, names);
        const spine = p[s.chest].subtract(p[s.hips]).normalize();
        const angles = pick.legs.map((leg) => {
            const d = p[legEnd(leg)].subtract(p[s.hips]).normalize();
            return (Math.acos(Math.max(-1, Math.min(1, Vector3.Dot(spine, d)))) * 180) / Math.PI;
        });
        const minAngle = Math.min(...angles);
        const second = (c: readonly number[]): number => c[Math.min(1, c.length - 1)];
        const spread = p[second(pick.arms[0])].subtract(p[second(pick.arms[1])]).length() + p[second(pick.legs[0])].subtract(p[second(pick.legs[1])]).length();
        if (minAngle >= LEGS_BELOW_SPINE_MIN_DEG && spread > 0.01 * s.diameter) {
            geometryPose = pose;
            pos = p;
            picked = pick;
            plausible = true;
            break;
        }
        worstAngle = Math.max(worstAngle, minAngle);
    }
    if (!plausible) {
        throw new HumanoidError(
            "NOT_HUMANOID",
            `${rig.source}: not a humanoid: the legs under '${label(s.hips)}' do not hang below the spine in the rest pose` +
                (poses.length > 1 ? ` or in any of ${poses.length - 1} sample frames` : "") +
                ` (the widest angle between legs and spine is ${worstAngle.toFixed(0)} deg, a standing body has over ${LEGS_BELOW_SPINE_MIN_DEG}); is it a quadruped?`,
        );
    }
    if (geometryPose !== poses[0]) {
        warnings.push(`the rest pose is not anatomical (legs not below the spine); the skeleton's geometry was read from ${geometryPose.label}`);
    }
    const tilt = AngleBetweenDeg(pos[s.chest].subtract(pos[s.hips]), Vector3.Up());
    if (tilt > UPRIGHT_SNAP_DEG) {
        warnings.push(
            `the body is ${tilt.toFixed(0)} deg from upright in the ${geometryPose.label}; its reference pose keeps that tilt (is the file Z-up, or lying down?)`,
        );
    }
    const { legs: legPaths, arms: armPaths, headPath } = picked;
    const up0 = pos[s.chest].subtract(pos[s.hips]).normalize();
    const ctx: IChainContext = { rig, names, s, pos, up: up0 };

    // 2. Chains: legs and arms (sides decided below).
    const legChoices = legPaths.map((leg) => AssignLeg(ctx, leg, plausible));
    const armChoices = armPaths.map((arm) => AssignArm(ctx, arm));
    if (!legChoices[0] || !legChoices[1]) {
        throw new HumanoidError("NOT_HUMANOID", `${rig.source}: a leg chain has fewer than three joints (upper leg, lower leg, foot).` + DetachedFeetNote(rig));
    }
    if (!armChoices[0] || !armChoices[1]) {
        throw new HumanoidError("NOT_HUMANOID", `${rig.source}: an arm chain has fewer than three joints (upper arm, lower arm, hand)`);
    }
    const legs = legChoices as [ILegChoice, ILegChoice];
    const arms = armChoices as [IArmChoice, IArmChoice];
    const legJ = (i: number, k: keyof ILegChoice): number => (legs[i][k] >= 0 ? legPaths[i][legs[i][k]] : -1);
    const armJ = (i: number, k: keyof IArmChoice): number => (arms[i][k] >= 0 ? armPaths[i][arms[i][k]] : -1);

    // 3. Sides. Pair each arm with the leg on its side, then decide which side is left from the facing.
    const legLat = pos[legJ(0, "upper")].subtract(pos[legJ(1, "upper")]);
    let armOrder: [number, number] = [0, 1];
    let armLat = pos[armJ(0, "upper")].subtract(pos[armJ(1, "upper")]);
    if (armLat.length() < ARM_PAIRING_MIN_SHARE * legLat.length()) {
        // The arms' roots sit (nearly) in one place (a rest pose that leaves every joint's place to
        // its position channels: a TCD talk's BVH offsets both shoulders alike), so their sides
        // cannot be seen: paired with the legs by their names, which break the tie. Paired by a
        // zero-length offset, the arms went the other way round on every character.
        const l0 = namedSide(ctx, legPaths[0]) - namedSide(ctx, legPaths[1]);
        const a0 = namedSide(ctx, armPaths[0]) - namedSide(ctx, armPaths[1]);
        if (l0 !== 0 && a0 !== 0 && l0 > 0 !== a0 > 0) armOrder = [1, 0];
    } else if (Vector3.Dot(legLat, armLat) < 0) {
        armOrder = [1, 0];
        armLat = armLat.scale(-1);
    }
    const sideAxis = FlattenToUnit(legLat.normalizeToNew().add(armLat.normalizeToNew()), Vector3.Zero());
    const midArms = pos[armJ(0, "upper")].add(pos[armJ(1, "upper")]).scale(0.5);
    const midLegs = pos[legJ(0, "upper")].add(pos[legJ(1, "upper")]).scale(0.5);
    let up = FlattenToUnit(midArms.subtract(midLegs), sideAxis);
    // A body standing near upright in the rig's world is taken as exactly upright (rig space is Y-up).
    if (Vector3.Dot(up, Vector3.Up()) > Math.cos((UPRIGHT_SNAP_DEG * Math.PI) / 180)) {
        up = Vector3.Up();
        const flatSide = FlattenToUnit(sideAxis, up);
        if (flatSide.lengthSquared() > 0) {
            sideAxis.copyFrom(flatSide);
        }
    }
    const normal = Vector3.Cross(sideAxis, up).normalize(); // perpendicular to both; sign unknown yet

    let cue = 0;
    let cueCount = 0;
    for (let i = 0; i < 2; i++) {
        const foot = pos[legJ(i, "foot")];
        const toesJ = legJ(i, "toes");
        const tip = toesJ >= 0 ? pos[toesJ] : pos[legPaths[i][legPaths[i].length - 1]];
        const toeDir = FlattenToUnit(tip.subtract(foot), up);
        if (toeDir.lengthSquared() > 0) {
            cue += Vector3.Dot(toeDir, normal);
            cueCount++;
        }
        const knee = bendOffset(pos[legJ(i, "upper")], pos[legJ(i, "lower")], pos[legJ(i, "foot")]);
        cue += Math.min(1, knee.length() * 10) * Vector3.Dot(FlattenToUnit(knee, up), normal);
        const a = armOrder[i];
        const elbow = bendOffset(pos[armJ(a, "upper")], pos[armJ(a, "lower")], pos[armJ(a, "hand")]);
        cue -= 0.5 * Math.min(1, elbow.length() * 10) * Vector3.Dot(FlattenToUnit(elbow, up), normal);
    }
    // Eyes sit in front of the head: a named eye, or a mirrored pair of short joints on the head
    // chain, leans towards the face.
    for (const j of headPath) {
        const kids = s.children[j].filter((c) => s.segment[c] + s.reach[c] < HEAD_FEATURE_MAX * s.diameter);
        for (const c of kids) {
            if (HasNameHint(ctx, c, "eye")) {
                cue += 0.5 * Vector3.Dot(FlattenToUnit(pos[c].subtract(pos[j]), up), normal);
                cueCount++;
            }
        }
        for (let a = 0; a < kids.length; a++) {
            for (let b = a + 1; b < kids.length; b++) {
                const da = pos[kids[a]].subtract(pos[j]);
                const db = pos[kids[b]].subtract(pos[j]);
                const la = Vector3.Dot(da, sideAxis);
                const lb = Vector3.Dot(db, sideAxis);
                if (la * lb < 0 && Math.abs(la + lb) < 0.2 * Math.abs(la - lb)) {
                    cue += 0.5 * Vector3.Dot(FlattenToUnit(da.add(db), up), normal);
                    cueCount++;
                }
            }
        }
    }
    const confidence = cueCount ? Math.abs(cue) / cueCount : 0;
    // Names: +1 when chain 0 (leg 0 and its arm) is named left, -1 right.
    const nameSide0 = -(
        namedSide(ctx, legPaths[0]) -
        namedSide(ctx, legPaths[1]) +
        namedSide(ctx, armPaths[armOrder[0]]) -
        namedSide(ctx, armPaths[armOrder[1]])
    );
    let forward: Vector3;
    let side0IsLeft: boolean;
    if (confidence >= FACING_MIN_CONFIDENCE) {
        forward = normal.scale(Math.sign(cue));
        const leftDir = Vector3.Cross(forward, up);
        side0IsLeft = Vector3.Dot(sideAxis, leftDir) > 0;
        if (nameSide0 !== 0 && nameSide0 > 0 !== side0IsLeft) {
            warnings.push(
                `joint names put the left limbs on the character's right (the feet and knees show which way it faces); ` +
                    `sides follow the geometry. The skeleton may be mirrored (a right-handed file read as left-handed?)`,
            );
        }
    } else if (nameSide0 !== 0) {
        side0IsLeft = nameSide0 > 0;
        // left = forward x up, and chain 0 is on sideAxis: pick forward so that holds.
        forward = Vector3.Cross(up, sideAxis)
            .scale(side0IsLeft ? 1 : -1)
            .normalize();
        warnings.push("the geometry does not show which way the character faces; sides were taken from the joint names");
    } else {
        side0IsLeft = true;
        forward = Vector3.Cross(up, sideAxis).normalize();
        warnings.push("neither the geometry nor the names show which way the character faces; left and right are a guess");
        for (const b of [HumanBone.LeftUpperLeg, HumanBone.RightUpperLeg, HumanBone.LeftUpperArm, HumanBone.RightUpperArm]) {
            doubtful.set(b, "left and right could not be told apart");
        }
    }
    const left = Vector3.Cross(forward, up).normalize();

    // 4. Fill the map.
    const map = new Int32Array(HUMAN_BONE_COUNT).fill(-1);
    const set = (b: HumanBone, j: number): void => {
        if (j >= 0) {
            map[b] = j;
        }
    };
    set(HumanBone.Hips, s.hips);
    const legSide = side0IsLeft ? [0, 1] : [1, 0]; // legSide[0] = leg index of the left leg
    const B = HumanBone;
    const legBones = [
        [B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot, B.LeftToes],
        [B.RightUpperLeg, B.RightLowerLeg, B.RightFoot, B.RightToes],
    ];
    const armBones = [
        [B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm, B.LeftHand],
        [B.RightShoulder, B.RightUpperArm, B.RightLowerArm, B.RightHand],
    ];
    for (let side = 0; side < 2; side++) {
        const li = legSide[side];
        const ai = armOrder[li];
        set(legBones[side][0], legJ(li, "upper"));
        set(legBones[side][1], legJ(li, "lower"));
        set(legBones[side][2], legJ(li, "foot"));
        set(legBones[side][3], legJ(li, "toes"));
        set(armBones[side][0], armJ(ai, "shoulder"));
        set(armBones[side][1], armJ(ai, "upper"));
        set(armBones[side][2], armJ(ai, "lower"));
        set(armBones[side][3], armJ(ai, "hand"));
    }

    // Spine slots and neck/head.
    const spine = s.spinePath.filter((j) => IsUsableJoint(ctx, j));
    const headChain = headPath.filter((j) => IsUsableJoint(ctx, j));
    let chestIsNeck = false;
    if (spine.length >= 2 && HasNameHint(ctx, s.chest, "neck") && !headChain.some((j) => HasNameHint(ctx, j, "neck"))) {
        chestIsNeck = true; // 3ds Max Biped: the clavicles hang from the neck
        spine.pop();
    }
    if (!spine.length) {
        throw new HumanoidError("NOT_HUMANOID", `${rig.source}: no spine joint between the hips '${label(s.hips)}' and the arms`);
    }
    set(B.Spine, spine[0]);
    if (spine.length === 2) {
        set(B.Chest, spine[1]);
    } else if (spine.length >= 3) {
        set(B.Chest, spine[spine.length - 2]);
        set(B.UpperChest, spine[spine.length - 1]);
    }
    let headIndex = headChain.findIndex((j) => HasNameHint(ctx, j, "head"));
    if (headIndex < 0) {
        // Without a name: the joint where eyes or a jaw branch off, else the top joint (minus a
        // nameless tip when the chain is long enough to have one).
        headIndex = headChain.findIndex((j) => s.children[j].filter((c) => s.segment[c] + s.reach[c] < HEAD_FEATURE_MAX * s.diameter).length >= 2);
        if (headIndex < 0) {
            // A leaf far above the joint before it is the top of the head, not the head joint.
            headIndex = headChain.length - 1;
            while (headIndex > 0 && s.children[headChain[headIndex]].length === 0 && s.segment[headChain[headIndex]] > HEAD_TIP_MIN * s.diameter) {
                headIndex--;
            }
        }
    }
    if (headIndex < 0) {
        throw new HumanoidError("NOT_HUMANOID", `${rig.source}: no head: nothing above '${label(s.chest)}' between the arms`);
    }
    set(B.Head, headChain[headIndex]);
    if (chestIsNeck) {
        set(B.Neck, s.chest);
    } else if (headIndex > 0) {
        set(B.Neck, headChain[0]);
    }
    // Eyes and jaw: below the head, by name (its children first, then theirs, down to
    // `FACE_DEPTH`: Character Creator hangs them from a `FacialBone`); eye sides by position.
    const headJoint = map[B.Head];
    let ring = [headJoint];
    for (let depth = 1; depth <= FACE_DEPTH && ring.length; depth++) {
        const next: number[] = [];
        for (const j of ring) {
            for (const c of s.children[j]) {
                next.push(c);
                if (!IsUsableJoint(ctx, c)) {
                    continue;
                }
                if (HasNameHint(ctx, c, "eye")) {
                    // The nearest to the head of each side (its children come first).
                    const eye = Vector3.Dot(pos[c].subtract(pos[headJoint]), left) > 0 ? B.LeftEye : B.RightEye;
                    if (map[eye] < 0) set(eye, c);
                } else if (HasNameHint(ctx, c, "jaw") && map[B.Jaw] < 0) {
                    set(B.Jaw, c);
                }
            }
        }
        ring = next;
    }
    if (map[B.LeftEye] >= 0 !== map[B.RightEye] >= 0 || (map[B.LeftEye] >= 0 && map[B.LeftEye] === map[B.RightEye])) {
        map[B.LeftEye] = -1;
        map[B.RightEye] = -1;
    }
    if (map[B.LeftEye] < 0) {
        const pair = FindEyePair(ctx, headJoint, left, forward);
        if (pair) {
            set(B.LeftEye, pair[0]);
            set(B.RightEye, pair[1]);
        }
    }

    // 5. Fingers.
    for (const side of [BodySide.Left, BodySide.Right] as const) {
        const hand = map[side === BodySide.Left ? B.LeftHand : B.RightHand];
        MapFingers(ctx, hand, side, map);
    }

    // 6. Doubts: a name that clearly says another part than the geometry chose.
    const expect: Partial<Record<HumanBone, NameHint>> = {
        [B.LeftUpperArm]: "upperArm",
        [B.RightUpperArm]: "upperArm",
        [B.LeftLowerArm]: "lowerArm",
        [B.RightLowerArm]: "lowerArm",
        [B.LeftHand]: "hand",
        [B.RightHand]: "hand",
        [B.LeftUpperLeg]: "upperLeg",
        [B.RightUpperLeg]: "upperLeg",
        [B.LeftLowerLeg]: "lowerLeg",
        [B.RightLowerLeg]: "lowerLeg",
        [B.LeftFoot]: "foot",
        [B.RightFoot]: "foot",
        [B.LeftShoulder]: "shoulder",
        [B.RightShoulder]: "shoulder",
    };
    const limbHints: NameHint[] = ["shoulder", "upperArm", "lowerArm", "hand", "upperLeg", "lowerLeg", "foot", "toes"];
    for (const [boneKey, want] of Object.entries(expect)) {
        const b = Number(boneKey) as HumanBone;
        const j = map[b];
        if (j < 0) {
            continue;
        }
        const h = names[j].hints;
        const other = limbHints.filter((x) => x !== want && h.has(x));
        if (!h.has(want) && other.length) {
            doubtful.set(b, `its name '${label(j)}' suggests ${other.join("/")}; chosen from bone lengths and positions`);
        }
    }
    return { boneToJoint: map, geometryPose, up, forward, left, warnings, doubtful, structure: s };
}

/** Human bone names of a map, for messages. */
export function DescribeBoneMap(rig: IRig, boneToJoint: Int32Array): string {
    const rows: string[] = [];
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (boneToJoint[b] >= 0) rows.push(`${HumanBoneNames[b]}=${GetRigJointLabel(rig, boneToJoint[b])}`);
    }
    return rows.join(", ");
}
