import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Bone } from "@babylonjs/core/Bones/bone.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { HumanoidError } from "../errors.js";
import { Vector3CopyToRef } from "../math/hotMath.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import type { IRigPose } from "../humanoid/rig.js";

/** What a rig joint is written to: a scene node (glTF joints are TransformNodes) or a skeleton bone. */
export type HumanoidJointTarget = TransformNode | Bone;

/** The scene objects of an avatar's rig joints, in `avatar.rig.joints` order (null where there is none). */
export type HumanoidTargets = ReadonlyArray<HumanoidJointTarget | null | undefined>;

const MIRROR_Z = Matrix.Scaling(1, 1, -1);

/**
 * Scratch shared by every writer (the per-frame path is single-threaded): held per writer, it was
 * more of each animator to bring into the cache every frame.
 */
const scratch = {
    /** A top joint's local matrix, then its product with its parent's inverse. */
    m: new Matrix(),
    m2: new Matrix(),
    /** What a decomposition gives: scale, rotation, position. */
    s: new Vector3(),
    q: new Quaternion(),
    p: new Vector3(),
};

/** How a joint is written ({@link HumanoidRigWriter}'s per-joint kinds). */
const enum WriteKind {
    /** A node whose parent is not mirrored: the rig-space local values as they are. */
    Plain = 0,
    /** A node below a mirrored parent (glTF's handedness flip): conjugated by the Z mirror. */
    Mirrored = 1,
    /** A top joint of the rig: through the inverse of its parent's world matrix as bound. */
    Top = 2,
}

/** The world matrix of a target's parent when bound: a node's parent, a bone's parent bone in its mesh, or the mesh. */
function parentWorldOf(target: HumanoidJointTarget): Matrix {
    const bone = target as Bone;
    if (typeof bone.getSkeleton === "function") {
        const skeleton = bone.getSkeleton();
        const mesh = skeleton.getScene().meshes.find((m) => m.skeleton === skeleton);
        const meshWorld = mesh ? mesh.computeWorldMatrix(true) : Matrix.Identity();
        const parent = bone.getParent();
        return parent ? parent.getAbsoluteMatrix().multiply(meshWorld) : meshWorld.clone();
    }
    const parent = (target as TransformNode).parent as TransformNode | null;
    return parent && typeof parent.computeWorldMatrix === "function" ? parent.computeWorldMatrix(true).clone() : Matrix.Identity();
}

/**
 * Writes rig poses of an avatar onto its scene objects: local rotations (and positions where
 * asked) turned from rig space into each node's own space (the glTF handedness mirror put back;
 * top joints through their parent's world matrix as bound). Only the joints given are written;
 * others are never touched. Allocation-free per write.
 */
export class HumanoidRigWriter {
    // Per written joint, side by side in flat arrays (the write reads a few bytes per joint, not an
    // object per joint that 50 characters' worth of scene data has pushed out of the cache).
    /** Rig joint of each write. */
    private readonly _joint: Int32Array;
    /** Each write's {@link WriteKind}. */
    private readonly _kind: Uint8Array;
    /** 1 where the target is a skeleton bone (else a node). */
    private readonly _isBone: Uint8Array;
    /** 1 where the local position is written too (asked for, or a top joint). */
    private readonly _writePosition: Uint8Array;
    /** For a top joint: its parent's world is mirrored. */
    private readonly _parentMirrored: Uint8Array;
    private readonly _targets: HumanoidJointTarget[];
    /** For a top joint: the inverse of its parent's world matrix when bound, else null. */
    private readonly _parentWorldInverse: (Matrix | null)[];

    /**
     * @param avatar the avatar whose rig the targets are
     * @param targets the scene object of every rig joint
     * @param joints the joints to write (rig indices)
     * @param positions the joints whose local position is written too
     * @param rigSpace the node whose local space is the rig's space (the root made by
     *   `CreateTransformNodesFromRig`); default: the world as it is now (a rig read from the scene,
     *   `BindRigToTransformNode`). Only the rig's top joints depend on it.
     */
    constructor(avatar: HumanoidAvatar, targets: HumanoidTargets, joints: Iterable<number>, positions: ReadonlySet<number>, rigSpace?: TransformNode | null) {
        const rig = avatar.rig;
        if (targets.length !== rig.joints.length) {
            throw new HumanoidError(
                "BAD_OPTION",
                `${rig.source}: ${targets.length} targets given for a rig of ${rig.joints.length} joints (one per joint, in avatar.rig.joints order, null where none)`,
            );
        }
        const rigSpaceInverse = rigSpace ? Matrix.Invert(rigSpace.computeWorldMatrix(true)) : null;
        const joint: number[] = [];
        const kind: number[] = [];
        const isBone: number[] = [];
        const writePosition: number[] = [];
        const parentMirrored: number[] = [];
        this._targets = [];
        this._parentWorldInverse = [];
        for (const j of joints) {
            const target = targets[j];
            if (!target) continue;
            const bone = typeof (target as Bone).getSkeleton === "function";
            if (!bone) {
                const node = target as TransformNode;
                if (!node.rotationQuaternion) node.rotationQuaternion = Quaternion.FromEulerVector(node.rotation);
            }
            // The parent's transform in rig space (its world, relative to the rig space's node).
            const parentWorld = rigSpaceInverse ? parentWorldOf(target).multiply(rigSpaceInverse) : parentWorldOf(target);
            const top = rig.joints[j].parent < 0;
            const mirrored = parentWorld.determinant() < 0;
            joint.push(j);
            kind.push(top ? WriteKind.Top : mirrored ? WriteKind.Mirrored : WriteKind.Plain);
            isBone.push(bone ? 1 : 0);
            writePosition.push(top || positions.has(j) ? 1 : 0);
            parentMirrored.push(mirrored ? 1 : 0);
            this._targets.push(target);
            this._parentWorldInverse.push(top ? Matrix.Invert(parentWorld) : null);
        }
        this._joint = Int32Array.from(joint);
        this._kind = Uint8Array.from(kind);
        this._isBone = Uint8Array.from(isBone);
        this._writePosition = Uint8Array.from(writePosition);
        this._parentMirrored = Uint8Array.from(parentMirrored);
    }

    /** Number of joints written. */
    public get jointCount(): number {
        return this._joint.length;
    }

    /** Writes a pose (rig space) onto the targets. */
    public write(pose: IRigPose, rig: HumanoidAvatar["rig"]): void {
        const rot = pose.rotations;
        const pos = pose.positions;
        const kinds = this._kind;
        const q = scratch.q;
        const p = scratch.p;
        // A joint's position is read only where it is written: most joints keep their rest offset,
        // and an object read for nothing is a few more cache lines a character (see the class).
        for (let i = 0; i < kinds.length; i++) {
            const j = this._joint[i];
            const kind = kinds[i];
            const withPosition = this._writePosition[i] === 1;
            if (kind === WriteKind.Top) {
                // Top joint: local = [mirror] * rigLocal * inverse(parentWorld).
                Matrix.ComposeToRef(rig.joints[j].restScale, rot[j], pos[j], scratch.m);
                if (this._parentMirrored[i]) MIRROR_Z.multiplyToRef(scratch.m, scratch.m);
                scratch.m.multiplyToRef(this._parentWorldInverse[i]!, scratch.m2);
                scratch.m2.decompose(scratch.s, q, p);
            } else if (kind === WriteKind.Mirrored) {
                // Coordinate by coordinate, not `set`: no number passed to a call (see `hotMath`).
                const r = rot[j];
                q.x = -r.x;
                q.y = -r.y;
                q.z = r.z;
                q.w = r.w;
                if (withPosition) {
                    const t = pos[j];
                    p.x = t.x;
                    p.y = t.y;
                    p.z = -t.z;
                }
            } else {
                q.copyFrom(rot[j]);
                if (withPosition) Vector3CopyToRef(pos[j], p);
            }
            if (this._isBone[i]) {
                const bone = this._targets[i] as Bone;
                bone.rotationQuaternion = q;
                if (withPosition) bone.position = p;
            } else {
                const node = this._targets[i] as TransformNode;
                node.rotationQuaternion!.copyFrom(q);
                if (withPosition) Vector3CopyToRef(p, node.position);
            }
        }
    }
}
