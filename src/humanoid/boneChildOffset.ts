import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { RigJointKind, type IRig } from "./rig.js";

/**
 * A joint's farthest child that is a joint of the skeleton (not a plain node), as its offset from
 * the joint (world, at `positions`), or null when it has none further than a micrometre.
 * @param rig the rig
 * @param children each joint's children (`GetRigChildren`)
 * @param positions world positions of every joint (the T-pose's)
 * @param joint the joint
 */
export function FarthestBoneChildOffset(rig: IRig, children: readonly (readonly number[])[], positions: readonly Vector3[], joint: number): Vector3 | null {
    let best: Vector3 | null = null;
    let bestLen = 1e-6;
    for (const c of children[joint]) {
        if (rig.joints[c].kind === RigJointKind.Node) continue;
        const d = positions[c].subtract(positions[joint]);
        const l = d.length();
        if (l > bestLen) {
            bestLen = l;
            best = d;
        }
    }
    return best;
}
