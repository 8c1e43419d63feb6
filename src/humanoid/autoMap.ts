import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import { AngleBetweenDeg, UPRIGHT_SNAP_DEG } from "./bodyFrame.js";
import { IsNubName, ParseJointName, type INameInfo, type NameHint } from "./boneNames.js";
import { BodySide, GetFingerBone, HumanBone, HumanBoneNames, HUMAN_BONE_COUNT } from "./humanBones.js";
import { ComputeRigWorldPose, GetRigJointLabel, GetRigRestPose, RigJointKind, type IRig, type IRigPose } from "./rig.js";
import { FindHumanoidStructure, LongestPath, LONG_BRANCH_FRACTION, type IHumanoidStructure } from "./structure.js";

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

/** Forearm / upper-arm length ratio of a typical arm (segment lengths along the bones). */
export const ARM_RATIO = 0.9;

/** Shin / thigh length ratio of a typical leg. */
export const LEG_RATIO = 1.0;

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

interface IChainContext {
    readonly rig: IRig;
    readonly names: readonly INameInfo[];
    readonly s: IHumanoidStructure;
    readonly pos: readonly Vector3[];
    readonly up: Vector3;
}

const hint = (ctx: IChainContext, j: number, h: NameHint): boolean => ctx.names[j].hints.has(h);

/** Is this joint usable as a human bone (a bone, not a tip or helper by name)? */
function usable(ctx: IChainContext, j: number): boolean {
    return ctx.rig.joints[j].kind === RigJointKind.Bone && !IsNubName(ctx.names[j]);
}

/** Path length along the chain from its start to each index (segment of the first included). */
function cumulative(ctx: IChainContext, chain: readonly number[]): number[] {
    const out: number[] = [];
    let acc = 0;
    for (const j of chain) {
        acc += ctx.s.segment[j];
        out.push(acc);
    }
    return out;
}

/**
 * `true` for a child that is a twist or helper bone: named so, or lying on the segment from its
 * parent to the chain's next joint (a twist bone halfway down the forearm).
 */
function isSideHelper(ctx: IChainContext, parent: number, child: number, next: number): boolean {
    const h = ctx.names[child].hints;
    if (h.has("helper") || h.has("twist")) return true;
    if (next < 0 || child === next) return false;
    const a = ctx.pos[parent];
    const seg = ctx.pos[next].subtract(a);
    const len2 = seg.lengthSquared();
    if (len2 < 1e-12) return false;
    const d = ctx.pos[child].subtract(a);
    const t = Vector3.Dot(d, seg) / len2;
    const off = d.subtract(seg.scale(t)).length() / Math.sqrt(len2);
    return t > 0.05 && t < 0.95 && off < TWIST_OFF_AXIS_MAX;
}

/** A child within this fraction of the segment length from the segment's line is a twist bone. */
export const TWIST_OFF_AXIS_MAX = 0.1;

/** Number of children of a chain joint that are real branches (fingers), twist and helper bones excluded. */
function branchingChildren(ctx: IChainContext, chain: readonly number[], i: number): number {
    const j = chain[i];
    const next = i + 1 < chain.length ? chain[i + 1] : -1;
    return ctx.s.children[j].filter((c) => !isSideHelper(ctx, j, c, next)).length;
}

/**
 * What skipping chain joint `k` (between the chosen joints at `from` and `to`) costs: nothing for
 * a twist bone by name, a little for a joint on the straight line between them (a twist segment
 * such as Rigify's `upper_arm.L.001`, or a straight elbow), a full point otherwise.
 */
function skipCost(ctx: IChainContext, chain: readonly number[], k: number, from: number, to: number): number {
    if (hint(ctx, chain[k], "twist")) return 0;
    const a = ctx.pos[chain[from]];
    const seg = ctx.pos[chain[to]].subtract(a);
    const len2 = seg.lengthSquared();
    if (len2 < 1e-12) return 1;
    const d = ctx.pos[chain[k]].subtract(a);
    const t = Vector3.Dot(d, seg) / len2;
    const off = d.subtract(seg.scale(t)).length() / Math.sqrt(len2);
    return t > 0 && t < 1 && off < TWIST_OFF_AXIS_MAX ? 0.3 : 1;
}

interface IArmChoice {
    shoulder: number;
    upper: number;
    lower: number;
    hand: number;
    score: number;
}

/**
 * Most joints of a limb chain (from where it leaves the body) the arm and leg choices look at: the
 * search is O(n^4) in the chain's length, and real limbs have under 15 joints with every twist and
 * helper bone (a 500-deep chain below a hand took minutes). Joints beyond it are never picked.
 */
const MAX_LIMB_CHAIN = 32;

/** Picks shoulder, upper arm, lower arm and hand along an arm chain (indices into the chain). */
function assignArm(ctx: IChainContext, chain: readonly number[]): IArmChoice | undefined {
    if (chain.length > MAX_LIMB_CHAIN) chain = chain.slice(0, MAX_LIMB_CHAIN);
    const cum = cumulative(ctx, chain);
    // The hand is at or before the first joint where fingers branch.
    let lastHand = chain.length - 1;
    for (let i = 2; i < chain.length; i++) {
        if (branchingChildren(ctx, chain, i) >= 2) {
            lastHand = i;
            break;
        }
    }
    const fingersFound = lastHand < chain.length - 1 || branchingChildren(ctx, chain, lastHand) >= 2;
    const armLength = cum[lastHand];
    let best: IArmChoice | undefined;
    for (let u = 0; u < chain.length; u++) {
        if (!usable(ctx, chain[u])) {
            continue;
        }
        for (let l = u + 1; l < chain.length; l++) {
            if (!usable(ctx, chain[l])) {
                continue;
            }
            for (let h = l + 1; h <= lastHand; h++) {
                if (!usable(ctx, chain[h])) {
                    continue;
                }
                const a = cum[l] - cum[u];
                const b = cum[h] - cum[l];
                if (a <= 0 || b <= 0) {
                    continue;
                }
                let score = -2 * Math.abs(Math.log(b / a / ARM_RATIO));
                score += (4 * Math.min(a, b)) / armLength;
                for (let k = u + 1; k < h; k++) {
                    if (k !== l) {
                        score -= skipCost(ctx, chain, k, k < l ? u : l, k < l ? l : h);
                    }
                }
                // The hand sits where the fingers branch, not a forearm's length before it.
                if (fingersFound) {
                    score -= (4 * (cum[lastHand] - cum[h])) / armLength;
                }
                // Joints before the upper arm other than one shoulder cost a little.
                score -= 0.5 * Math.max(0, u - 1);
                if (hint(ctx, chain[u], "upperArm")) score += 1;
                if (hint(ctx, chain[l], "lowerArm")) score += 1;
                if (hint(ctx, chain[h], "hand")) score += 1;
                if (hint(ctx, chain[u], "hand") || hint(ctx, chain[l], "hand")) score -= 1;
                if (hint(ctx, chain[h], "lowerArm") || hint(ctx, chain[l], "upperArm")) score -= 0.5;
                let shoulder = -1;
                if (u > 0 && usable(ctx, chain[u - 1]) && cum[u] - cum[u - 1] > 0.01 * ctx.s.diameter) {
                    shoulder = u - 1;
                    if (hint(ctx, chain[shoulder], "shoulder")) score += 0.5;
                }
                if (!best || score > best.score) {
                    best = { shoulder, upper: u, lower: l, hand: h, score };
                }
            }
        }
    }
    return best;
}

interface ILegChoice {
    upper: number;
    lower: number;
    foot: number;
    toes: number;
    score: number;
}

/** Picks upper leg, lower leg, foot and toes along a leg chain (indices into the chain). */
function assignLeg(ctx: IChainContext, chain: readonly number[], plausible: boolean): ILegChoice | undefined {
    if (chain.length > MAX_LIMB_CHAIN) chain = chain.slice(0, MAX_LIMB_CHAIN);
    const cum = cumulative(ctx, chain);
    const down = ctx.up.scale(-1);
    const dirDown = (a: number, b: number): number => {
        const d = ctx.pos[chain[b]].subtract(ctx.pos[chain[a]]);
        const len = d.length();
        return len > 0 ? Vector3.Dot(d, down) / len : 0;
    };
    let best: ILegChoice | undefined;
    for (let u = 0; u < chain.length; u++) {
        if (!usable(ctx, chain[u])) {
            continue;
        }
        for (let k = u + 1; k < chain.length; k++) {
            if (!usable(ctx, chain[k])) {
                continue;
            }
            for (let f = k + 1; f < chain.length; f++) {
                if (!usable(ctx, chain[f])) {
                    continue;
                }
                const a = cum[k] - cum[u];
                const b = cum[f] - cum[k];
                if (a <= 0 || b <= 0) {
                    continue;
                }
                let score = -1.5 * Math.abs(Math.log(b / a / LEG_RATIO));
                score += (4 * Math.min(a, b)) / cum[cum.length - 1];
                if (plausible) {
                    score += 1.5 * (dirDown(u, k) + dirDown(k, f));
                }
                for (let m = u + 1; m < f; m++) {
                    if (m !== k) {
                        score -= skipCost(ctx, chain, m, m < k ? u : k, m < k ? k : f);
                    }
                }
                // After the foot only the foot itself is left (toes, tip), not a shin's length.
                score -= (2 * (cum[cum.length - 1] - cum[f])) / cum[cum.length - 1];
                // Joints before the upper leg must be short (a hip offset such as CMU's LHipJoint).
                for (let m = 0; m < u; m++) {
                    score -= (cum[m + 1] - cum[m]) / (a + b) > 0.25 ? 1 : 0.1;
                }
                if (hint(ctx, chain[u], "upperLeg")) score += 1;
                if (hint(ctx, chain[k], "lowerLeg")) score += 1;
                if (hint(ctx, chain[f], "foot")) score += 1;
                if (hint(ctx, chain[f], "toes") || hint(ctx, chain[k], "foot")) score -= 1;
                // Toes: a joint named so within the next two, else the next usable one.
                let toes = -1;
                for (let t = f + 1; t < chain.length && t <= f + 2; t++) {
                    if (usable(ctx, chain[t]) && hint(ctx, chain[t], "toes")) {
                        toes = t;
                        break;
                    }
                }
                for (let t = f + 1; t < chain.length && toes < 0; t++) {
                    if (usable(ctx, chain[t]) && cum[t] - cum[f] > 0) {
                        toes = t;
                    }
                }
                if (!best || score > best.score) {
                    best = { upper: u, lower: k, foot: f, toes, score };
                }
            }
        }
    }
    return best;
}

/** Legs, arms and head chains picked among a skeleton's branches. */
export interface IBranchPick {
    readonly legs: readonly [readonly number[], readonly number[]];
    readonly arms: readonly [readonly number[], readonly number[]];
    readonly headPath: readonly number[];
}

/**
 * Picks the legs, arms and head among the branches of the hips and the chest by where they point
 * in a pose, so that tails, capes, coat tails and hair do not take their places: the head is the
 * branch of the chest that goes up (names `head`/`neck` help), followed up through the neck; the
 * arms the most mirror-symmetric long pair of the others; the legs the most mirror-symmetric long
 * pair of the hips' branches that point down.
 */
export function PickBranches(s: IHumanoidStructure, pos: readonly Vector3[], names: readonly INameInfo[]): IBranchPick {
    const up = pos[s.chest].subtract(pos[s.hips]);
    if (up.lengthSquared() < 1e-12) up.set(0, 1, 0);
    up.normalize();
    const lengthOf = (root: number): number => s.segment[root] + s.reach[root];
    /** First joint of a path away from `from` (skips joints sitting on it). */
    const away = (path: readonly number[], from: Vector3): Vector3 => {
        for (const j of path) {
            const d = pos[j].subtract(from);
            if (d.length() > 0.02 * s.diameter) return d.normalize();
        }
        return Vector3.Zero();
    };
    const lateral = (path: readonly number[], from: Vector3): Vector3 => {
        const d = pos[path[Math.min(path.length - 1, 2)]].subtract(from);
        return d.subtractInPlace(up.scale(Vector3.Dot(d, up)));
    };
    /** Best symmetric pair among paths: mirror-image laterals, similar and long lengths, plus a per-path bonus. */
    const bestPair = (paths: number[][], roots: number[], from: Vector3, bonus: (k: number) => number): [number, number] => {
        const maxLen = Math.max(...roots.map(lengthOf));
        let best: [number, number] = [0, 1];
        let bestScore = -Infinity;
        for (let a = 0; a < paths.length; a++) {
            for (let b = a + 1; b < paths.length; b++) {
                const la = lateral(paths[a], from);
                const lb = lateral(paths[b], from);
                const sym = -la.add(lb).length() / (la.length() + lb.length() + 1e-9);
                const lenA = lengthOf(roots[a]);
                const lenB = lengthOf(roots[b]);
                const score = 2 * sym - Math.abs(Math.log(lenA / lenB)) + (lenA + lenB) / maxLen + bonus(a) + bonus(b);
                if (score > bestScore) {
                    bestScore = score;
                    best = [a, b];
                }
            }
        }
        return best;
    };
    const hint = (path: readonly number[], ...h: NameHint[]): boolean => path.slice(0, 4).some((j) => h.some((x) => names[j].hints.has(x)));
    // Legs: the hips' long branches other than the spine; they point down.
    const legRoots = [...s.legRoots];
    const legPaths = legRoots.map((r) => LongestPath(s, r));
    const [la, lb] = bestPair(
        legPaths,
        legRoots,
        pos[s.hips],
        (k) => 1.5 * Vector3.Dot(away(legPaths[k].slice(1), pos[s.hips]), up.scale(-1)) + (hint(legPaths[k], "upperLeg", "lowerLeg", "foot") ? 1 : 0),
    );
    // Head: the chest's branch that goes up.
    const roots = [...s.chestRoots];
    let headRoot = -1;
    let headScore = -Infinity;
    for (const r of roots) {
        const path = LongestPath(s, r);
        const score =
            Vector3.Dot(away(path, pos[s.chest]), up) + (hint(path, "neck", "head") ? 1.5 : 0) - (hint(path, "shoulder", "upperArm", "hand") ? 1.5 : 0);
        if (score > headScore) {
            headScore = score;
            headRoot = r;
        }
    }
    let headPath: number[] = [];
    if (headRoot >= 0 && headScore > 0) {
        // Up through the neck: at each joint the child that goes most upwards (names first).
        headPath = [headRoot];
        for (let j = headRoot; s.children[j].length;) {
            let next = -1;
            let nextScore = -Infinity;
            for (const c of s.children[j]) {
                const d = pos[c].subtract(pos[j]);
                const upness = d.length() > 1e-9 ? Vector3.Dot(d.normalize(), up) : 0;
                const score =
                    upness +
                    (names[c].hints.has("head") || names[c].hints.has("neck") ? 2 : 0) -
                    (names[c].hints.has("helper") ? 2 : 0) +
                    0.1 * (lengthOf(c) / s.diameter);
                if (score > nextScore) {
                    nextScore = score;
                    next = c;
                }
            }
            headPath.push(next);
            j = next;
        }
    }
    // Arms: the most symmetric long pair of the chest's other branches.
    const armRoots = roots.filter((r) => r !== headRoot && lengthOf(r) >= LONG_BRANCH_FRACTION * s.diameter);
    let arms: [number[], number[]];
    if (armRoots.length >= 2) {
        const armPaths = armRoots.map((r) => LongestPath(s, r));
        const [aa, ab] = bestPair(
            armPaths,
            armRoots,
            pos[s.chest],
            (k) => (hint(armPaths[k], "shoulder", "upperArm", "lowerArm", "hand") ? 1 : 0) - Math.max(0, Vector3.Dot(away(armPaths[k], pos[s.chest]), up)),
        );
        arms = [armPaths[aa], armPaths[ab]];
    } else {
        arms = [[...s.arms[0]], [...s.arms[1]]];
        headPath = [...s.headPath];
    }
    return { legs: [legPaths[la], legPaths[lb]], arms, headPath };
}

/** Unit vector of `v` with its component along `axis` removed, or zero. */
function flatten(v: Vector3, axis: Vector3): Vector3 {
    const out = v.subtract(axis.scale(Vector3.Dot(v, axis)));
    const l = out.length();
    return l > 1e-9 ? out.scaleInPlace(1 / l) : Vector3.Zero();
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
    const legChoices = legPaths.map((leg) => assignLeg(ctx, leg, plausible));
    const armChoices = armPaths.map((arm) => assignArm(ctx, arm));
    if (!legChoices[0] || !legChoices[1]) {
        throw new HumanoidError("NOT_HUMANOID", `${rig.source}: a leg chain has fewer than three joints (upper leg, lower leg, foot)`);
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
    if (Vector3.Dot(legLat, armLat) < 0) {
        armOrder = [1, 0];
        armLat = armLat.scale(-1);
    }
    const sideAxis = flatten(legLat.normalizeToNew().add(armLat.normalizeToNew()), Vector3.Zero());
    const midArms = pos[armJ(0, "upper")].add(pos[armJ(1, "upper")]).scale(0.5);
    const midLegs = pos[legJ(0, "upper")].add(pos[legJ(1, "upper")]).scale(0.5);
    let up = flatten(midArms.subtract(midLegs), sideAxis);
    // A body standing near upright in the rig's world is taken as exactly upright (rig space is Y-up).
    if (Vector3.Dot(up, Vector3.Up()) > Math.cos((UPRIGHT_SNAP_DEG * Math.PI) / 180)) {
        up = Vector3.Up();
        const flatSide = flatten(sideAxis, up);
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
        const toeDir = flatten(tip.subtract(foot), up);
        if (toeDir.lengthSquared() > 0) {
            cue += Vector3.Dot(toeDir, normal);
            cueCount++;
        }
        const knee = bendOffset(pos[legJ(i, "upper")], pos[legJ(i, "lower")], pos[legJ(i, "foot")]);
        cue += Math.min(1, knee.length() * 10) * Vector3.Dot(flatten(knee, up), normal);
        const a = armOrder[i];
        const elbow = bendOffset(pos[armJ(a, "upper")], pos[armJ(a, "lower")], pos[armJ(a, "hand")]);
        cue -= 0.5 * Math.min(1, elbow.length() * 10) * Vector3.Dot(flatten(elbow, up), normal);
    }
    // Eyes sit in front of the head: a named eye, or a mirrored pair of short joints on the head
    // chain, leans towards the face.
    for (const j of headPath) {
        const kids = s.children[j].filter((c) => s.segment[c] + s.reach[c] < HEAD_FEATURE_MAX * s.diameter);
        for (const c of kids) {
            if (hint(ctx, c, "eye")) {
                cue += 0.5 * Vector3.Dot(flatten(pos[c].subtract(pos[j]), up), normal);
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
                    cue += 0.5 * Vector3.Dot(flatten(da.add(db), up), normal);
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
    const spine = s.spinePath.filter((j) => usable(ctx, j));
    const headChain = headPath.filter((j) => usable(ctx, j));
    let chestIsNeck = false;
    if (spine.length >= 2 && hint(ctx, s.chest, "neck") && !headChain.some((j) => hint(ctx, j, "neck"))) {
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
    let headIndex = headChain.findIndex((j) => hint(ctx, j, "head"));
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
    // Eyes and jaw: children of the head, by name; eye sides by position.
    const headJoint = map[B.Head];
    for (const c of s.children[headJoint]) {
        if (!usable(ctx, c)) {
            continue;
        }
        if (hint(ctx, c, "eye")) {
            const isLeft = Vector3.Dot(pos[c].subtract(pos[headJoint]), left) > 0;
            set(isLeft ? B.LeftEye : B.RightEye, c);
        } else if (hint(ctx, c, "jaw")) {
            set(B.Jaw, c);
        }
    }
    if (map[B.LeftEye] >= 0 !== map[B.RightEye] >= 0 || (map[B.LeftEye] >= 0 && map[B.LeftEye] === map[B.RightEye])) {
        map[B.LeftEye] = -1;
        map[B.RightEye] = -1;
    }
    if (map[B.LeftEye] < 0) {
        const pair = findEyePair(ctx, headJoint, left, forward);
        if (pair) {
            set(B.LeftEye, pair[0]);
            set(B.RightEye, pair[1]);
        }
    }

    // 5. Fingers.
    for (const side of [BodySide.Left, BodySide.Right] as const) {
        const hand = map[side === BodySide.Left ? B.LeftHand : B.RightHand];
        mapFingers(ctx, hand, side, map);
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

/**
 * Two children of the head placed like eyes: mirror images across the midline, in front of the
 * head joint, neither named as something else. Returns [left, right] or undefined.
 */
function findEyePair(ctx: IChainContext, head: number, left: Vector3, forward: Vector3): [number, number] | undefined {
    const hp = ctx.pos[head];
    const cands = ctx.s.children[head].filter((c) => usable(ctx, c) && ctx.names[c].hints.size === 0);
    for (let a = 0; a < cands.length; a++) {
        for (let b = a + 1; b < cands.length; b++) {
            const da = ctx.pos[cands[a]].subtract(hp);
            const db = ctx.pos[cands[b]].subtract(hp);
            const la = Vector3.Dot(da, left);
            const lb = Vector3.Dot(db, left);
            const mirrored = da
                .subtract(left.scale(la))
                .subtract(db.subtract(left.scale(lb)))
                .length();
            const spread = Math.abs(la - lb);
            if (la * lb < 0 && Math.abs(la + lb) < 0.2 * spread && mirrored < 0.2 * spread && Vector3.Dot(da, forward) > 0.3 * spread) {
                return la > 0 ? [cands[a], cands[b]] : [cands[b], cands[a]];
            }
        }
    }
    return undefined;
}

const FINGER_HINTS: readonly NameHint[] = ["thumb", "index", "middle", "ring", "little"];

/** Path from `start` down the longest branch, keeping usable joints. */
function fingerChain(ctx: IChainContext, start: number): number[] {
    const { s } = ctx;
    const chain: number[] = [];
    for (let q = start; ;) {
        if (usable(ctx, q)) {
            chain.push(q);
        }
        if (!s.children[q].length) {
            return chain;
        }
        q = s.children[q].reduce((a, b) => (s.segment[b] + s.reach[b] > s.segment[a] + s.reach[a] ? b : a));
    }
}

/**
 * Maps the fingers under one hand. Chains start at the hand's children (a palm joint that fans out
 * into several fingers is looked through). A metacarpal (named so, or a joint much nearer the wrist
 * than the next one is to it) is skipped; the thumb keeps all its joints (its first joint is Unity's
 * thumb proximal). Which chain is which finger: the names when they tell every chain apart;
 * otherwise, with three chains or more, the thumb is the chain whose first joint is nearest the
 * wrist along the hand, and the others follow across the palm from it. Digits are the first three
 * joints.
 */
function mapFingers(ctx: IChainContext, hand: number, side: BodySide.Left | BodySide.Right, map: Int32Array): void {
    if (hand < 0) {
        return;
    }
    const { s, pos } = ctx;
    const chains: number[][] = [];
    for (const c of s.children[hand]) {
        if (ctx.names[c].hints.has("helper") || ctx.names[c].hints.has("twist")) {
            continue;
        }
        const kids = s.children[c];
        if (kids.length >= 2 && !ctx.names[c].hints.has("thumb")) {
            for (const k of kids) {
                const sub = fingerChain(ctx, k);
                if (sub.length) chains.push(sub);
            }
            continue;
        }
        const chain = fingerChain(ctx, c);
        if (chain.length) {
            chains.push(chain);
        }
    }
    if (!chains.length) {
        return;
    }
    // Metacarpals (named so, or a joint much nearer the wrist than the next one is to it) go before
    // telling the fingers apart, so that the knuckles are compared; never on a thumb named so.
    for (let i = 0; i < chains.length; i++) {
        const ch = chains[i];
        if (ch.length < 2 || ch.some((j) => ctx.names[j].hints.has("thumb"))) continue;
        const toFirst = pos[ch[0]].subtract(pos[hand]).length();
        const firstToSecond = pos[ch[1]].subtract(pos[ch[0]]).length();
        if (ctx.names[ch[0]].hints.has("metacarpal") || toFirst < 0.5 * firstToSecond) {
            chains[i] = ch.slice(1);
        }
    }
    const byName = chains.map((ch) => FINGER_HINTS.findIndex((h) => ch.some((j) => ctx.names[j].hints.has(h))));
    const namesComplete = byName.every((f) => f >= 0) && new Set(byName).size === byName.length;
    let fingerOf: number[];
    if (namesComplete || chains.length < 3) {
        // Too few chains to tell by position: map only what the names identify.
        fingerOf = byName.map((f, i) => (byName.indexOf(f) === i ? f : -1));
    } else {
        const hp = pos[hand];
        const mean = Vector3.Zero();
        for (const ch of chains) mean.addInPlace(pos[ch[0]]);
        mean.scaleInPlace(1 / chains.length);
        const axis = mean.subtract(hp).normalize();
        const along = chains.map((ch) => Vector3.Dot(pos[ch[0]].subtract(hp), axis));
        let thumb = 0;
        along.forEach((a, i) => {
            if (a < along[thumb]) thumb = i;
        });
        const tp = pos[chains[thumb][0]];
        const lateral = (i: number): number => flattenLength(pos[chains[i][0]].subtract(tp), axis);
        const others = chains
            .map((_, i) => i)
            .filter((i) => i !== thumb)
            .sort((a, b) => lateral(a) - lateral(b));
        fingerOf = new Array<number>(chains.length).fill(-1);
        fingerOf[thumb] = 0;
        others.slice(0, 4).forEach((ci, k) => {
            fingerOf[ci] = k + 1;
        });
    }
    chains.forEach((ch, i) => {
        const f = fingerOf[i];
        if (f < 0) return;
        for (let d = 0; d < 3 && d < ch.length; d++) {
            map[GetFingerBone(side, f, d)] = ch[d];
        }
    });
}

/** Length of `v` with its component along the unit `axis` removed. */
function flattenLength(v: Vector3, axis: Vector3): number {
    return v.subtract(axis.scale(Vector3.Dot(v, axis))).length();
}

/** Human bone names of a map, for messages. */
export function DescribeBoneMap(rig: IRig, boneToJoint: Int32Array): string {
    const rows: string[] = [];
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (boneToJoint[b] >= 0) rows.push(`${HumanBoneNames[b]}=${GetRigJointLabel(rig, boneToJoint[b])}`);
    }
    return rows.join(", ");
}
