import { ParseJointName } from "./boneNames.js";
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
    const info = joints.map((j) => ParseJointName(j.name));
    // Joints that can carry a bone only (a mesh node named as the part it draws is none).
    const is = (i: number, hint: "foot" | "lowerLeg"): boolean =>
        joints[i].kind === RigJointKind.Bone && info[i].hints.has(hint) && !info[i].hints.has("helper") && !info[i].hints.has("nub");
    const hasAbove = (i: number, hint: "foot" | "lowerLeg"): boolean => {
        for (let p = joints[i].parent; p >= 0; p = joints[p].parent) if (is(p, hint)) return true;
        return false;
    };
    const feet = joints.map((_, i) => i).filter((i) => is(i, "foot") && !hasAbove(i, "lowerLeg"));
    if (!feet.length) return "";
    // A lower leg with no foot under it (children come after their parents).
    const footless = joints.map((_, i) => i).filter((i) => is(i, "lowerLeg") && !hasFootBelow(rig, i, is));
    if (!footless.length) return "";
    // A name several joints share is told by its index too.
    const label = (i: number): string => {
        const l = GetRigJointLabel(rig, i);
        return joints[i].name && l !== joints[i].name ? `'${joints[i].name}' (${l})` : `'${l}'`;
    };
    const parentOf = (i: number): string => (joints[i].parent >= 0 ? label(joints[i].parent) : "the top");
    const list = feet.map((f) => `${label(f)} (under ${parentOf(f)})`).join(", ");
    const legs = footless.map(label).join(", ");
    return (
        ` The feet ${list} hang outside the legs, and the lower legs ${legs} end without a foot, as rigs built for IK keep ` +
        `them. A character loaded to retarget onto has such feet moved under its lower legs where it can tell one foot and ` +
        `one lower leg a side apart (AttachDetachedFeetInGltf); a source of clips keeps its hierarchy. Make each foot a ` +
        `child of its lower leg (in Blender, the foot bone's parent, keeping its offset) and export again.`
    );
}

/** Whether `a` is an ancestor of `b`. */
function isAbove(rig: IRig, a: number, b: number): boolean {
    for (let p = rig.joints[b].parent; p >= 0; p = rig.joints[p].parent) if (p === a) return true;
    return false;
}

/** Whether some joint below `i` is named as a foot. */
function hasFootBelow(rig: IRig, i: number, is: (j: number, hint: "foot" | "lowerLeg") => boolean): boolean {
    for (let j = i + 1; j < rig.joints.length; j++) if (is(j, "foot") && isAbove(rig, i, j)) return true;
    return false;
}
