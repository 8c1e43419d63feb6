import { ParseJointName, type INameInfo } from "./boneNames.js";
import { GetRigJointLabel, RigJointKind, type IRig } from "./rig.js";

/**
 * Why a skeleton's legs may hold too few joints, for the mapper's error: feet kept beside the legs
 * rather than under them, as rigs built for IK often are (three.js's RobotExpressive keeps
 * `Foot.L` under its armature's root, a Blender rig with IK controls under a `FootControl.L`; each
 * lower leg is then a leaf). A humanoid's foot is the child of its lower leg (Mecanim's rule too),
 * so such a skeleton does not map as it is (a character to retarget onto has its feet moved under
 * its lower legs as it loads, `AttachDetachedFeetInGltf`; a source of clips keeps its hierarchy, its
 * keys being relative to it); saying where the feet are tells the user what to change.
 *
 * Finds the joints whose names say foot (and not a helper or a tip) that have no joint named as a
 * lower leg above them, while some joint named as a lower leg has no foot below it. Returns a
 * sentence naming them and their parents, to append to the error, or `""` when there are none.
 * @param rig the skeleton that did not map
 */
export function DetachedFeetNote(rig: IRig): string {
    const joints = rig.joints;
    // Joints that can carry a bone only (a mesh node named as the part it draws is none).
    const layout = FindDetachedFeet(
        joints.map((j) => j.name),
        joints.map((j) => j.parent),
        (i) => joints[i].kind === RigJointKind.Bone,
    );
    const { feet, footlessLowerLegs } = layout;
    if (!feet.length || !footlessLowerLegs.length) return "";
    // A name several joints share is told by its index too.
    const label = (i: number): string => {
        const l = GetRigJointLabel(rig, i);
        return joints[i].name && l !== joints[i].name ? `'${joints[i].name}' (${l})` : `'${l}'`;
    };
    const parentOf = (i: number): string => (joints[i].parent >= 0 ? label(joints[i].parent) : "the top");
    const list = feet.map((f) => `${label(f)} (under ${parentOf(f)})`).join(", ");
    const legs = footlessLowerLegs.map(label).join(", ");
    return (
        ` The feet ${list} hang outside the legs, and the lower legs ${legs} end without a foot, as rigs built for IK keep ` +
        `them. A character loaded to retarget onto has such feet moved under its lower legs where it can tell one foot and ` +
        `one lower leg a side apart (AttachDetachedFeetInGltf); a source of clips keeps its hierarchy. Make each foot a ` +
        `child of its lower leg (in Blender, the foot bone's parent, keeping its offset) and export again.`
    );
}

/** What {@link FindDetachedFeet} finds in a joint tree. */
export interface IDetachedFeetLayout {
    /** Each joint's name as read ({@link ParseJointName}), by index. */
    readonly info: readonly INameInfo[];
    /** Joints named as a foot (not a helper or a tip) with no joint named as a lower leg above them. */
    readonly feet: readonly number[];
    /** Joints named as a lower leg (not a helper or a tip) with no joint named as a foot below them. */
    readonly footlessLowerLegs: readonly number[];
    /** Whether some joint above `i` (its parent, its parent's...) passes `test`. */
    hasAbove(i: number, test: (p: number) => boolean): boolean;
}

/**
 * Feet a joint tree keeps beside its legs, by the joints' names: the mapper's error
 * ({@link DetachedFeetNote}) and the glTF loader's fix (`AttachDetachedFeetInGltf`) read the same
 * layout. Only joints that `isJoint` accepts count; a parent chain that loops (a malformed file
 * read before any check) is followed no further than the joints' count.
 * @param names each joint's name
 * @param parent each joint's parent index, -1 for a top joint
 * @param isJoint whether a joint can carry a bone
 */
export function FindDetachedFeet(names: readonly string[], parent: ArrayLike<number>, isJoint: (i: number) => boolean): IDetachedFeetLayout {
    const n = names.length;
    const info = names.map((name) => ParseJointName(name));
    const is = (i: number, hint: "foot" | "lowerLeg"): boolean =>
        isJoint(i) && info[i].hints.has(hint) && !info[i].hints.has("helper") && !info[i].hints.has("nub");
    const hasAbove = (i: number, test: (p: number) => boolean): boolean => {
        for (let p = parent[i], guard = 0; p >= 0 && guard <= n; p = parent[p], guard++) if (test(p)) return true;
        return false;
    };
    // Every joint with a foot somewhere below it: each foot marks its ancestors.
    const footBelow = new Uint8Array(n);
    for (let j = 0; j < n; j++) {
        if (!is(j, "foot")) continue;
        for (let p = parent[j], guard = 0; p >= 0 && guard <= n; p = parent[p], guard++) footBelow[p] = 1;
    }
    const all = names.map((_, i) => i);
    return {
        info,
        feet: all.filter((i) => is(i, "foot") && !hasAbove(i, (p) => is(p, "lowerLeg"))),
        footlessLowerLegs: all.filter((i) => is(i, "lowerLeg") && !footBelow[i]),
        hasAbove,
    };
}
