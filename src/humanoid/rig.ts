import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import { ComposeTrsToRef, CreateTrs } from "../math/trs.js";

/**
 * What a joint of a {@link IRig} is.
 * - `Bone`: a joint that can carry a human bone (a skin joint, a BVH joint, a node of a bone-only hierarchy).
 * - `EndSite`: a BVH End Site or similar tip: it gives the direction of its parent, never a human bone.
 * - `Node`: another transform in the hierarchy (armature, mesh node); kept for the world transforms.
 */
export enum RigJointKind {
    /** A joint that can carry a human bone (a skin joint, a BVH joint, a node of a bone-only hierarchy). */
    Bone = 0,
    /** A BVH End Site or similar tip: it gives the direction of its parent, never a human bone. */
    EndSite = 1,
    /** Another transform in the hierarchy (armature, mesh node); kept for the world transforms. */
    Node = 2,
}

/**
 * One joint of a {@link IRig}: its name, parent and rest transform relative to its parent.
 * Space: the rig space (left-handed, Y-up, metres, as a Babylon scene), already converted at the
 * edge from the file's own axes and units.
 */
export interface IRigJoint {
    /** Name as in the source, `""` when it has none. */
    readonly name: string;
    /** Index of the parent joint in {@link IRig.joints}, -1 for a top joint. Always smaller than the joint's own index. */
    readonly parent: number;
    /** What this joint is. */
    readonly kind: RigJointKind;
    /** Rest position relative to the parent (metres, parent space). */
    readonly restPosition: Vector3;
    /** Rest rotation relative to the parent (a proper rotation, unit quaternion). */
    readonly restRotation: Quaternion;
    /** Rest scale relative to the parent. */
    readonly restScale: Vector3;
    /** Index of the joint in its source: the glTF `nodes` index or the BVH joint order; -1 when unknown. */
    readonly sourceIndex: number;
}

/**
 * A skeleton as plain data, independent of any scene: the input of the humanoid mapper.
 * Joints are ordered parents first.
 */
export interface IRig {
    /** Where the rig comes from (a file name, a skeleton name), used in messages. */
    readonly source: string;
    /** The joints, every parent before its children. */
    readonly joints: readonly IRigJoint[];
    /**
     * Optional extra poses of the same rig (local rotations per joint, and local positions) that show
     * the skeleton in a natural posture, for rigs whose rest pose is not anatomical (a BVH whose
     * zero pose has every bone along +X). The mapper uses the first one that looks like a standing
     * body when the rest pose does not.
     */
    readonly samplePoses?: readonly IRigPose[];
    /**
     * Per joint, how far below its rest position the character's surface bound to it reaches
     * (metres along up; NaN where no vertex is bound to it): read from the meshes under the root a
     * rig is bound from (`BindRigToTransformNode`, which the file loaders use). The ground of feet
     * that end at their ankles is their surface's lowest point (`MuscleSetup`); undefined for a rig
     * without meshes, and for one read from a `Skeleton` alone (`CreateRigFromSkeleton`), whose
     * toeless feet then stand on their ankles.
     */
    readonly surfaceBelow?: Float64Array;
    /**
     * Per joint, the box of the character's surface bound to it in the rest pose: six numbers, the
     * least and greatest x, y and z of its vertices less the joint's rest position (metres, rig
     * space; NaN where no vertex is bound to it). Read as {@link surfaceBelow} is, and undefined
     * where it is; the front of a foot that ends at its ankle is read from it (`MuscleSetup.footFront`).
     * A rig made by hand that gives it gives {@link surfaceBelow} too (minus its least y): the
     * ground is read from that.
     */
    readonly surfaceBounds?: Float64Array;
}

/** A pose of a {@link IRig}: local rotation and position of every joint (rig space). */
export interface IRigPose {
    /** Where the pose comes from, for messages (`"frame 0"`). */
    readonly label: string;
    /** Local rotation of every joint. */
    readonly rotations: readonly Quaternion[];
    /** Local position of every joint. */
    readonly positions: readonly Vector3[];
}

/** World transforms of every joint of a rig in one pose. */
export interface IRigWorldPose {
    /** World position of every joint (metres, rig space). */
    readonly positions: Vector3[];
    /** World rotation of every joint (scale and any shear ignored). */
    readonly rotations: Quaternion[];
    /** Product of the scales down to the joint (per axis, assumes no shear). */
    readonly scales: Vector3[];
}

/**
 * The label a joint is shown with and saved in bone maps: its name when no other joint has it, else
 * `#N` with N its index in the source (the glTF `nodes` array, the BVH joint order), or `joint N`
 * when nothing else is known. Labels resolve back with `ResolveJointLabel`.
 */
export function GetRigJointLabel(rig: IRig, index: number): string {
    const j = rig.joints[index];
    if (j.name && nameCounts(rig).get(j.name) === 1) {
        return j.name;
    }
    return j.sourceIndex >= 0 ? `#${j.sourceIndex}` : `joint ${index}`;
}

const nameCountCache = new WeakMap<IRig, Map<string, number>>();

/** How many joints carry each name (cached per rig). */
function nameCounts(rig: IRig): Map<string, number> {
    let m = nameCountCache.get(rig);
    if (!m) {
        m = new Map();
        for (const j of rig.joints) m.set(j.name, (m.get(j.name) ?? 0) + 1);
        nameCountCache.set(rig, m);
    }
    return m;
}

/** The rest pose of a rig as a {@link IRigPose}. */
export function GetRigRestPose(rig: IRig): IRigPose {
    return {
        label: "rest pose",
        rotations: rig.joints.map((j) => j.restRotation.clone()),
        positions: rig.joints.map((j) => j.restPosition.clone()),
    };
}

/**
 * Forward kinematics: world transforms of every joint for the given local rotations and positions
 * (defaults: the rest pose), composed as TRS with separate scale (`ComposeTrsToRef`, Unreal's
 * rule): under a non-uniform scale above a rotated joint, scale follows each joint's own axes and no
 * shear is made, where Babylon's matrices would shear. Cold path; allocates.
 */
export function ComputeRigWorldPose(rig: IRig, pose?: IRigPose): IRigWorldPose {
    const n = rig.joints.length;
    const positions = new Array<Vector3>(n);
    const rotations = new Array<Quaternion>(n);
    const scales = new Array<Vector3>(n);
    for (let i = 0; i < n; i++) {
        const j = rig.joints[i];
        const localRot = pose ? pose.rotations[i] : j.restRotation;
        const localPos = pose ? pose.positions[i] : j.restPosition;
        const world = CreateTrs(localPos, localRot, j.restScale);
        if (j.parent >= 0) {
            // Rotation and scale kept apart (no shear): see ComposeTrsToRef.
            ComposeTrsToRef(world, { translation: positions[j.parent], rotation: rotations[j.parent], scale: scales[j.parent] }, world);
        }
        positions[i] = world.translation;
        rotations[i] = world.rotation;
        scales[i] = world.scale;
    }
    return { positions, rotations, scales };
}

/**
 * Checks that a rig is well formed: at least one joint, parents before children, finite numbers.
 * Throws a {@link HumanoidError} `BAD_HIERARCHY` naming the first bad joint.
 */
export function ValidateRig(rig: IRig): void {
    if (!rig || !Array.isArray(rig.joints)) {
        throw new HumanoidError("BAD_HIERARCHY", `${rig?.source ?? "rig"}: 'joints' must be an array`);
    }
    if (!rig.joints.length) {
        throw new HumanoidError("BAD_HIERARCHY", `${rig.source}: the skeleton has no joints`);
    }
    rig.joints.forEach((j, i) => {
        if (!j || !j.restPosition || !j.restRotation || !j.restScale) {
            throw new HumanoidError("BAD_HIERARCHY", `${rig.source}: joint ${i} lacks restPosition, restRotation or restScale`);
        }
        const label = j.name || `joint ${i}`;
        if (!Number.isInteger(j.parent) || j.parent < -1 || j.parent >= i) {
            throw new HumanoidError(
                "BAD_HIERARCHY",
                `${rig.source}: joint '${label}' (index ${i}) has parent index ${j.parent}; parents must come before their children`,
            );
        }
        const nums = [
            j.restPosition.x,
            j.restPosition.y,
            j.restPosition.z,
            j.restRotation.x,
            j.restRotation.y,
            j.restRotation.z,
            j.restRotation.w,
            j.restScale.x,
            j.restScale.y,
            j.restScale.z,
        ];
        if (!nums.every(Number.isFinite)) {
            throw new HumanoidError("BAD_HIERARCHY", `${rig.source}: joint '${label}' has a rest transform that is not finite`);
        }
    });
    (rig.samplePoses ?? []).forEach((p, k) => {
        if (!p || p.rotations?.length !== rig.joints.length || p.positions?.length !== rig.joints.length) {
            throw new HumanoidError(
                "BAD_HIERARCHY",
                `${rig.source}: sample pose ${k} must have a rotation and a position for each of the ${rig.joints.length} joints`,
            );
        }
    });
}

/** Children lists of every joint of a rig. */
export function GetRigChildren(rig: IRig): number[][] {
    const children = rig.joints.map(() => [] as number[]);
    rig.joints.forEach((j, i) => {
        if (j.parent >= 0) {
            children[j.parent].push(i);
        }
    });
    return children;
}

/**
 * Builds a rig from world matrices (for example a Babylon node hierarchy): local transforms are
 * derived as `inverse(parentWorld) * world`. A world matrix with a negative determinant (the
 * handedness mirror Babylon's glTF loader puts on `__root__`) is made proper by mirroring its local Z
 * axis, which turns every local transform below it into the same motion in a left-handed frame.
 * @param source name for messages
 * @param joints name, parent, kind, source index and world matrix (Babylon row-vector convention) per joint
 */
export function CreateRigFromWorldMatrices(
    source: string,
    joints: ReadonlyArray<{ name: string; parent: number; kind: RigJointKind; sourceIndex: number; world: Matrix }>,
): IRig {
    const parents = joints.map((j) => j.parent);
    const pose = RigPoseFromWorldMatrices(
        parents,
        joints.map((j) => j.world),
    );
    const out: IRigJoint[] = joints.map((j, i) => ({
        name: j.name,
        parent: j.parent,
        kind: j.kind,
        sourceIndex: j.sourceIndex,
        restPosition: pose.positions[i],
        restRotation: pose.rotations[i],
        restScale: pose.scales[i],
    }));
    return { source, joints: out };
}

const MIRROR_Z = Matrix.Scaling(1, 1, -1);

/**
 * Local transforms (rig space) from world matrices: `local = properWorld * inverse(properParentWorld)`
 * (row vectors), where a world matrix with a negative determinant is first made proper by mirroring
 * its local Z (see {@link CreateRigFromWorldMatrices}). Cold path; allocates.
 * @param parents parent index of every joint, -1 for a top joint
 * @param worlds world matrix of every joint (Babylon row-vector convention)
 */
export function RigPoseFromWorldMatrices(
    parents: readonly number[],
    worlds: readonly Matrix[],
): IRigPose & {
    /** Local scale of every joint, from the same decomposition as its rotation and position. */
    scales: Vector3[];
} {
    const proper = worlds.map((w) => (w.determinant() < 0 ? MIRROR_Z.multiply(w) : w));
    const rotations: Quaternion[] = [];
    const positions: Vector3[] = [];
    const scales: Vector3[] = [];
    const inverse = new Matrix();
    const local = new Matrix();
    proper.forEach((w, i) => {
        const p = parents[i];
        if (p >= 0) {
            proper[p].invertToRef(inverse);
            w.multiplyToRef(inverse, local);
        } else {
            local.copyFrom(w);
        }
        const scale = new Vector3();
        const rotation = new Quaternion();
        const position = new Vector3();
        local.decompose(scale, rotation, position);
        rotations.push(rotation.normalize());
        positions.push(position);
        scales.push(scale);
    });
    return { label: "pose", rotations, positions, scales };
}
