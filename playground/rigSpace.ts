/** The rig-space node of a loaded character: what its animator and the overlay take the rig's space to be. */
import { Matrix, Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";

/**
 * A loaded character's rig was read in the world as it was loaded, and moves with the character's
 * root afterwards: its space is `inverse(rootWorld at load) * rootWorld now`. This makes a node
 * under the root whose local transform is `inverse(rootWorld at load)` (a mirror included), so its
 * world matrix is that space however the root moves, as an animator's `rigSpace` option wants
 * (without it, an animator made after the root moved would take the moved world for rig space, and
 * world goals and look-at would be read off by the move).
 * @param root the character's root node, as loaded (not yet moved)
 * @param name the node's name
 */
export function CreateLoadedRigSpace(root: TransformNode, name: string): TransformNode {
    const rootBindInverse = Matrix.Invert(root.computeWorldMatrix(true));
    const space = new TransformNode(name, root.getScene());
    const rotation = new Quaternion();
    rootBindInverse.decompose(space.scaling, rotation, space.position);
    space.rotationQuaternion = rotation;
    space.parent = root;
    space.computeWorldMatrix(true);
    return space;
}
