import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { IsNubName, type INameInfo, type NameHint } from "./boneNames.js";
import { RigJointKind, type IRig } from "./rig.js";
import { type IHumanoidStructure } from "./structure.js";

/**
 * What automatic mapping reads of a rig, for the steps that pick its chains: joints, their names,
 * the tree analysis, positions in the geometry pose, and up.
 * @internal
 */
export interface IChainContext {
    /** The rig mapped. */
    readonly rig: IRig;
    /** Every joint's name as parsed (`ParseJointName`). */
    readonly names: readonly INameInfo[];
    /** The tree analysis (`FindHumanoidStructure`). */
    readonly s: IHumanoidStructure;
    /** Every joint's position in the geometry pose (rig space). */
    readonly pos: readonly Vector3[];
    /** Up in rig space (unit). */
    readonly up: Vector3;
}

/** Whether a joint's name gives a hint (see `NameHint`). */
export function HasNameHint(ctx: IChainContext, j: number, h: NameHint): boolean {
    return ctx.names[j].hints.has(h);
}

/** Is this joint usable as a human bone (a bone, not a tip or helper by name)? */
export function IsUsableJoint(ctx: IChainContext, j: number): boolean {
    return ctx.rig.joints[j].kind === RigJointKind.Bone && !IsNubName(ctx.names[j]);
}

/** Unit vector of `v` with its component along `axis` removed, or zero. */
export function FlattenToUnit(v: Vector3, axis: Vector3): Vector3 {
    const out = v.subtract(axis.scale(Vector3.Dot(v, axis)));
    const l = out.length();
    return l > 1e-9 ? out.scaleInPlace(1 / l) : Vector3.Zero();
}
