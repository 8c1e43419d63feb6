import { HumanoidError } from "../errors.js";
import { ParseJointName, IsNubName } from "./boneNames.js";
import { ComputeRigWorldPose, GetRigJointLabel, RigJointKind, type IRig } from "./rig.js";
import { DetachedFeetNote } from "./detachedFeet.js";
import { RequiredHumanBones } from "./humanBones.js";

/**
 * A long branch must be at least this fraction of the skeleton's diameter (the longest path between
 * two joints, measured along the bones). Legs and arms are 0.3-0.45 of it, fingers, toes, eyes and
 * twist bones under 0.12.
 */
export const LONG_BRANCH_FRACTION = 0.2;

/** A joint this close to its parent (fraction of the diameter) is a pass-through, e.g. Daz `pelvis` under `hip`. */
export const PASS_THROUGH_FRACTION = 0.05;

/** The two arm branches at the chest must be this similar in length (shorter / longer). */
export const ARM_BALANCE_MIN = 0.6;

/**
 * The humanoid shape of a skeleton, found from the tree and the bone lengths only (no names, no
 * pose): where the legs and the spine branch (hips), where the arms branch (the top of the spine),
 * and the chains of joints along the legs, arms and neck.
 */
export interface IHumanoidStructure {
    /** Joint where the legs and the spine branch. */
    readonly hips: number;
    /** Joint where the arms branch: the top of the spine (or the neck in Biped rigs). */
    readonly chest: number;
    /** Joints after the hips up to and including {@link chest}. */
    readonly spinePath: readonly number[];
    /** The two leg chains, from the joint after the hips to the tip (sides not decided yet). */
    readonly legs: readonly [readonly number[], readonly number[]];
    /** The two arm chains, from the joint after the chest to the tip of the longest finger. */
    readonly arms: readonly [readonly number[], readonly number[]];
    /** Chain from the joint after the chest to the top of the head (empty when there is none). */
    readonly headPath: readonly number[];
    /**
     * Every long branch of the hips other than the spine (the legs, and any tail or skirt chain long
     * enough), longest first; the mapper picks the legs among them by geometry.
     */
    readonly legRoots: readonly number[];
    /** Every child of the chest that leads somewhere (arms, neck, capes, hair), longest first. */
    readonly chestRoots: readonly number[];
    /** Skeleton diameter along the bones (metres). */
    readonly diameter: number;
    /** Distance from every joint to its structural parent (metres); 0 for roots. */
    readonly segment: readonly number[];
    /** Structural parent of every joint (nearest ancestor that is a bone), -1 for none. */
    readonly parent: readonly number[];
    /** Structural children of every joint. */
    readonly children: readonly (readonly number[])[];
    /** Longest path from every joint down to a tip of its subtree (metres). */
    readonly reach: readonly number[];
}

/** `true` for joints that take part in the structure (bones and end sites, not mesh or armature nodes). */
function isStructural(kind: RigJointKind): boolean {
    return kind !== RigJointKind.Node;
}

/**
 * Finds the humanoid shape of a rig from its tree and bone lengths. Throws a {@link HumanoidError}
 * `NOT_HUMANOID` that says what is missing when the tree has no hips (two legs and a spine) or no
 * chest (two arms).
 */
export function FindHumanoidStructure(rig: IRig): IHumanoidStructure {
    try {
        return findStructure(rig, null);
    } catch (e) {
        // Helper chains hanging from a top root (IK targets without telling names, props) can make
        // the skeleton look bigger than the body: try each branch of the top root on its own,
        // largest first.
        const roots = rig.joints.map((_, i) => i).filter((i) => rig.joints[i].parent < 0 || rig.joints[rig.joints[i].parent].kind === RigJointKind.Node);
        const candidates: number[][] = [];
        for (const r of roots) {
            const kids = rig.joints.map((j, i) => (j.parent === r ? i : -1)).filter((i) => i >= 0);
            if (kids.length >= 2) {
                for (const k of kids) candidates.push(subtreeOf(rig, k));
            }
        }
        candidates.sort((a, b) => b.length - a.length);
        for (const c of candidates) {
            try {
                return findStructure(rig, new Set(c));
            } catch {
                // not this branch
            }
        }
        throw e;
    }
}

/** Joint indices of the subtree rooted at `root` (the rig lists parents first). */
function subtreeOf(rig: IRig, root: number): number[] {
    const inside = new Set([root]);
    for (let i = root + 1; i < rig.joints.length; i++) {
        if (inside.has(rig.joints[i].parent)) inside.add(i);
    }
    return [...inside];
}

function findStructure(rig: IRig, only: ReadonlySet<number> | null): IHumanoidStructure {
    const n = rig.joints.length;
    const world = ComputeRigWorldPose(rig);
    const parent = new Array<number>(n).fill(-1);
    const segment = new Array<number>(n).fill(0);
    const children: number[][] = rig.joints.map(() => []);
    // Helper joints (IK targets, prop slots, secondary hair/skirt chains...) and everything below
    // them stay out of the structure; plain nodes, and joints outside `only`, are looked through.
    const helper = new Array<boolean>(n).fill(false);
    const excluded = new Array<boolean>(n).fill(false);
    for (let i = 0; i < n; i++) {
        const j = rig.joints[i];
        helper[i] = ParseJointName(j.name).hints.has("helper") || (j.parent >= 0 && helper[j.parent]);
        excluded[i] = helper[i] || !isStructural(j.kind) || (only !== null && !only.has(i));
    }
    // Too few joints for the bones every humanoid has (a mesh with no skeleton, a prop's rig): said
    // as such, naming them, rather than as a skeleton whose shape is wrong.
    const counted = rig.joints.flatMap((j, i) => (excluded[i] ? [] : [GetRigJointLabel(rig, i)]));
    if (counted.length < RequiredHumanBones.length) {
        const list = (labels: string[]): string => (labels.length > 6 ? `${labels.slice(0, 6).join(", ")}...` : labels.join(", "));
        const all = rig.joints.map((_, i) => GetRigJointLabel(rig, i));
        const found = counted.length
            ? `only ${counted.length} joint${counted.length > 1 ? "s" : ""} (${list(counted)})`
            : `no joint${all.length ? ` among its ${all.length} node${all.length > 1 ? "s" : ""} (${list(all)})` : "s"}`;
        throw new HumanoidError(
            "NOT_HUMANOID",
            `${rig.source}: no humanoid skeleton: ${found}, fewer than the ${RequiredHumanBones.length} bones every humanoid has (hips, spine, head, two arms and two legs of three)`,
        );
    }
    for (let i = 0; i < n; i++) {
        if (excluded[i]) {
            continue;
        }
        let p = rig.joints[i].parent;
        while (p >= 0 && excluded[p]) {
            p = rig.joints[p].parent;
        }
        parent[i] = p;
        if (p >= 0) {
            segment[i] = world.positions[i].subtract(world.positions[p]).length();
            children[p].push(i);
        }
    }
    // reach = longest path to a tip below; processed children-first (parents come first in the array).
    const reach = new Array<number>(n).fill(0);
    for (let i = n - 1; i >= 0; i--) {
        for (const c of children[i]) {
            reach[i] = Math.max(reach[i], segment[c] + reach[c]);
        }
    }
    // Diameter: longest path between two tips through any joint = its two longest child branches.
    // Paths that end at a root going up are left out: a root's offset (a clip's start position, an
    // armature's height) is a translation, not a bone.
    let diameter = 0;
    for (let i = 0; i < n; i++) {
        let a = 0;
        let b = 0;
        for (const c of children[i]) {
            const l = segment[c] + reach[c];
            if (l > a) {
                b = a;
                a = l;
            } else if (l > b) {
                b = l;
            }
        }
        if (b > 0) {
            diameter = Math.max(diameter, a + b);
        }
    }
    if (diameter === 0) {
        diameter = Math.max(0, ...reach); // no joint branches: the longest chain
    }
    const source = rig.source;
    if (!(diameter > 0)) {
        throw new HumanoidError("NOT_HUMANOID", `${source}: the skeleton has no length (every joint at the same place)`);
    }
    const longMin = LONG_BRANCH_FRACTION * diameter;
    const passMax = PASS_THROUGH_FRACTION * diameter;
    const branchLength = (c: number): number => segment[c] + reach[c];
    const isBone = (i: number): boolean => rig.joints[i].kind === RigJointKind.Bone;

    /** Long branches leaving `j`, looking through short pass-through joints that split again. */
    const longBranches = (j: number): number[] => {
        const out: number[] = [];
        for (const c of children[j]) {
            if (branchLength(c) < longMin) {
                continue;
            }
            const sub = segment[c] <= passMax ? children[c].filter((g) => branchLength(g) >= longMin) : [];
            if (sub.length >= 2) {
                out.push(...longBranches(c));
            } else {
                out.push(c);
            }
        }
        return out;
    };
    /** Does the subtree of `c` hold a joint where two balanced long branches (arms) split? */
    const findArmSplit = (c: number): number => {
        const stack = [c];
        while (stack.length) {
            const j = stack.shift()!;
            const lb = children[j]
                .filter((g) => branchLength(g) >= longMin)
                .map(branchLength)
                .sort((x, y) => y - x);
            if (lb.length >= 2 && lb[1] / lb[0] >= ARM_BALANCE_MIN) {
                return j;
            }
            stack.push(...children[j]);
        }
        return -1;
    };

    // Hips: the top-most joint with three long branches, one of which splits into two arms.
    let hips = -1;
    let hipBranches: number[] = [];
    const order: number[] = [];
    for (let i = 0; i < n; i++) {
        if (!excluded[i] && parent[i] < 0) {
            order.push(i);
        }
    }
    for (let k = 0; k < order.length && hips < 0; k++) {
        const j = order[k];
        if (isBone(j)) {
            const lb = longBranches(j);
            if (lb.length >= 3 && lb.some((b) => findArmSplit(b) >= 0)) {
                hips = j;
                hipBranches = lb;
            } else {
                // Without looking through: a spine of one short joint where the arms split (CMU's
                // auto-labelled `thorax`, 0.05 of the diameter above the pelvis) is a pass-through
                // joint that splits again, and looked through, no branch left split into arms.
                const direct = children[j].filter((c) => branchLength(c) >= longMin);
                if (direct.length >= 3 && direct.some((b) => findArmSplit(b) >= 0)) {
                    hips = j;
                    hipBranches = direct;
                }
            }
        }
        order.push(...children[j]);
    }
    if (hips < 0) {
        throw new HumanoidError(
            "NOT_HUMANOID",
            `${source}: not a humanoid skeleton: no joint was found where two legs and a spine branch (hips), ` +
                `with two arms branching higher up. A humanoid needs hips, spine, head, two arms and two legs.` +
                DetachedFeetNote(rig),
        );
    }
    // Move the hips up through parents right above them that lead nowhere else (3ds Max Biped: the
    // thighs hang from `Bip01 Spine`, its parent `Bip01 Pelvis` is the hips), never to the top root.
    for (let p = parent[hips]; p >= 0 && parent[p] >= 0 && isBone(p) && children[p].length === 1 && segment[hips] <= passMax; p = parent[hips]) {
        hips = p;
    }
    // Spine branch: the one that splits into arms; with several, the one with the most bones in it.
    const subtreeSize = (c: number): number => {
        let s = 0;
        const st = [c];
        while (st.length) {
            const j = st.pop()!;
            s++;
            st.push(...children[j]);
        }
        return s;
    };
    const spineCandidates = hipBranches.filter((b) => findArmSplit(b) >= 0).sort((a, b) => subtreeSize(b) - subtreeSize(a));
    const spineBranch = spineCandidates[0];
    const legBranches = hipBranches.filter((b) => b !== spineBranch).sort((a, b) => branchLength(b) - branchLength(a));
    if (legBranches.length < 2) {
        throw new HumanoidError("NOT_HUMANOID", `${source}: not a humanoid skeleton: the hips '${GetRigJointLabel(rig, hips)}' have fewer than two legs`);
    }
    const chest = findArmSplit(spineBranch);
    const chestBranches = children[chest].filter((g) => branchLength(g) >= longMin).sort((a, b) => branchLength(b) - branchLength(a));
    // The arm pair: the most similar long pair with the longest shorter member.
    let armPair: [number, number] = [chestBranches[0], chestBranches[1]];
    let best = -1;
    for (let a = 0; a < chestBranches.length; a++) {
        for (let b = a + 1; b < chestBranches.length; b++) {
            const la = branchLength(chestBranches[a]);
            const lbv = branchLength(chestBranches[b]);
            if (lbv / la >= ARM_BALANCE_MIN && lbv > best) {
                best = lbv;
                armPair = [chestBranches[a], chestBranches[b]];
            }
        }
    }
    const longestPath = (start: number): number[] => LongestPath({ children, segment, reach }, start);
    const spinePath: number[] = [];
    for (let j = chest; j !== hips && j >= 0; j = parent[j]) {
        spinePath.unshift(j);
    }
    // Head: the longest other branch of the chest that is not a helper; else none.
    const headCandidates = children[chest]
        .filter((c) => c !== armPair[0] && c !== armPair[1] && !IsNubName(ParseJointName(rig.joints[c].name)) && (isBone(c) || reach[c] > 0))
        .sort((a, b) => branchLength(b) - branchLength(a));
    const headPath = headCandidates.length ? longestPath(headCandidates[0]) : [];
    return {
        hips,
        chest,
        spinePath,
        legs: [longestPath(legBranches[0]), longestPath(legBranches[1])],
        arms: [longestPath(armPair[0]), longestPath(armPair[1])],
        headPath,
        legRoots: legBranches,
        chestRoots: children[chest]
            .filter((c) => !IsNubName(ParseJointName(rig.joints[c].name)) && (isBone(c) || reach[c] > 0))
            .sort((a, b) => branchLength(b) - branchLength(a)),
        diameter,
        segment,
        parent,
        children,
        reach,
    };
}

/** Path from `start` following the longest branch down to a tip (bones and end sites). */
export function LongestPath(s: Pick<IHumanoidStructure, "children" | "segment" | "reach">, start: number): number[] {
    const path = [start];
    for (let j = start; s.children[j].length;) {
        let best = s.children[j][0];
        for (const c of s.children[j]) {
            if (s.segment[c] + s.reach[c] > s.segment[best] + s.reach[best]) best = c;
        }
        path.push(best);
        j = best;
    }
    return path;
}
