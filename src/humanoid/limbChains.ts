import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { type INameInfo, type NameHint } from "./boneNames.js";
import { LongestPath, LONG_BRANCH_FRACTION, type IHumanoidStructure } from "./structure.js";

import { HasNameHint, IsUsableJoint, type IChainContext } from "./mapContext.js";
/** Forearm / upper-arm length ratio of a typical arm (segment lengths along the bones). */
export const ARM_RATIO = 0.9;

/** Shin / thigh length ratio of a typical leg. */
export const LEG_RATIO = 1.0;

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
    // A leaf at the joint itself: a corrective bone (Character Creator's `ElbowShareBone`, 2 cm
    // off the elbow), which made the forearm look like a hand with fingers.
    if (ctx.s.children[child].length === 0 && d.length() < TWIST_OFF_AXIS_MAX * Math.sqrt(len2)) return true;
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
    if (HasNameHint(ctx, chain[k], "twist")) return 0;
    const a = ctx.pos[chain[from]];
    const seg = ctx.pos[chain[to]].subtract(a);
    const len2 = seg.lengthSquared();
    if (len2 < 1e-12) return 1;
    const d = ctx.pos[chain[k]].subtract(a);
    const t = Vector3.Dot(d, seg) / len2;
    const off = d.subtract(seg.scale(t)).length() / Math.sqrt(len2);
    return t > 0 && t < 1 && off < TWIST_OFF_AXIS_MAX ? 0.3 : 1;
}

/** An arm's bones along its chain ({@link AssignArm}): indices into the chain (-1 for no shoulder), and how well they fit. */
export interface IArmChoice {
    /** The shoulder, -1 when the chain has none. */
    shoulder: number;
    /** The upper arm. */
    upper: number;
    /** The forearm. */
    lower: number;
    /** The hand. */
    hand: number;
    /** How well the choice fits an arm's proportions and names (higher is better). */
    score: number;
}

/**
 * Most joints of a limb chain (from where it leaves the body) the arm and leg choices look at: the
 * search is O(n^4) in the chain's length, and real limbs have under 15 joints with every twist and
 * helper bone (a 500-deep chain below a hand took minutes). Joints beyond it are never picked.
 */
const MAX_LIMB_CHAIN = 32;

/** Picks shoulder, upper arm, lower arm and hand along an arm chain (indices into the chain). */
export function AssignArm(ctx: IChainContext, chain: readonly number[]): IArmChoice | undefined {
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
        if (!IsUsableJoint(ctx, chain[u])) {
            continue;
        }
        for (let l = u + 1; l < chain.length; l++) {
            if (!IsUsableJoint(ctx, chain[l])) {
                continue;
            }
            for (let h = l + 1; h <= lastHand; h++) {
                if (!IsUsableJoint(ctx, chain[h])) {
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
                if (HasNameHint(ctx, chain[u], "upperArm")) score += 1;
                if (HasNameHint(ctx, chain[l], "lowerArm")) score += 1;
                if (HasNameHint(ctx, chain[h], "hand")) score += 1;
                if (HasNameHint(ctx, chain[u], "hand") || HasNameHint(ctx, chain[l], "hand")) score -= 1;
                if (HasNameHint(ctx, chain[h], "lowerArm") || HasNameHint(ctx, chain[l], "upperArm")) score -= 0.5;
                let shoulder = -1;
                if (u > 0 && IsUsableJoint(ctx, chain[u - 1]) && cum[u] - cum[u - 1] > 0.01 * ctx.s.diameter) {
                    shoulder = u - 1;
                    if (HasNameHint(ctx, chain[shoulder], "shoulder")) score += 0.5;
                }
                if (!best || score > best.score) {
                    best = { shoulder, upper: u, lower: l, hand: h, score };
                }
            }
        }
    }
    return best;
}

/** A leg's bones along its chain ({@link AssignLeg}): indices into the chain (-1 for no toes), and how well they fit. */
export interface ILegChoice {
    /** The upper leg. */
    upper: number;
    /** The lower leg. */
    lower: number;
    /** The foot. */
    foot: number;
    /** The toes, -1 when the chain has none. */
    toes: number;
    /** How well the choice fits a leg's proportions and names (higher is better). */
    score: number;
}

/** Picks upper leg, lower leg, foot and toes along a leg chain (indices into the chain). */
export function AssignLeg(ctx: IChainContext, chain: readonly number[], plausible: boolean): ILegChoice | undefined {
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
        if (!IsUsableJoint(ctx, chain[u])) {
            continue;
        }
        for (let k = u + 1; k < chain.length; k++) {
            if (!IsUsableJoint(ctx, chain[k])) {
                continue;
            }
            for (let f = k + 1; f < chain.length; f++) {
                if (!IsUsableJoint(ctx, chain[f])) {
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
                if (HasNameHint(ctx, chain[u], "upperLeg")) score += 1;
                if (HasNameHint(ctx, chain[k], "lowerLeg")) score += 1;
                if (HasNameHint(ctx, chain[f], "foot")) score += 1;
                if (HasNameHint(ctx, chain[f], "toes") || HasNameHint(ctx, chain[k], "foot")) score -= 1;
                // Toes: a joint named so within the next two, else the next usable one.
                let toes = -1;
                for (let t = f + 1; t < chain.length && t <= f + 2; t++) {
                    if (IsUsableJoint(ctx, chain[t]) && HasNameHint(ctx, chain[t], "toes")) {
                        toes = t;
                        break;
                    }
                }
                for (let t = f + 1; t < chain.length && toes < 0; t++) {
                    if (IsUsableJoint(ctx, chain[t]) && cum[t] - cum[f] > 0) {
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
    /** A path's third joint (or its last), where its direction away from a joint is read. */
    const third = (path: readonly number[]): Vector3 => pos[path[Math.min(path.length - 1, 2)]];
    const lateral = (path: readonly number[], from: Vector3): Vector3 => {
        const d = third(path).subtract(from);
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
    // Head: the chest's branch that goes up, and stays on the midline (a clavicle that rises
    // straight from the chest before the arm goes out, CMU's auto-labelled takes, went up as the
    // head did: which was the head turned on rounding).
    const roots = [...s.chestRoots];
    let headRoot = -1;
    let headScore = -Infinity;
    for (const r of roots) {
        const path = LongestPath(s, r);
        const out = lateral(path, pos[s.chest]).length() / (third(path).subtract(pos[s.chest]).length() + 1e-9);
        const score =
            Vector3.Dot(away(path, pos[s.chest]), up) -
            0.5 * out +
            (hint(path, "neck", "head") ? 1.5 : 0) -
            (hint(path, "shoulder", "upperArm", "hand") ? 1.5 : 0);
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
