import { readFileSync, writeFileSync } from "node:fs";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { AutoMapHumanoid } from "../../src/humanoid/autoMap.js";
import { HumanBone } from "../../src/humanoid/humanBones.js";
import { ComputeRigWorldPose, type IRig, type IRigJoint } from "../../src/humanoid/rig.js";
import { ParseBvh } from "../../src/io/bvh.js";
import { CreateRigFromBvh, GetBvhFramePose } from "../../src/io/bvhRig.js";
import { WriteBvh } from "../../src/io/bvhWriter.js";

/**
 * A BVH file read for rewriting its rest pose: the file, its rig, every frame's pose, the humanoid
 * map, the rest pose in the world and a copy of the joints to change. Only the root may have
 * position channels (the writer keeps no other joint's translation).
 */
function readForRewrite(input: string) {
    const bvh = ParseBvh(readFileSync(input, "utf8"), input);
    const moved = bvh.joints.find((j) => j.parent >= 0 && j.channels.some((c) => c.endsWith("position")));
    if (moved) throw new Error(`${input}: joint ${moved.name} has position channels; only the root's are written`);
    const bvhRig = CreateRigFromBvh(bvh);
    const rig = bvhRig.rig;
    const poses = Array.from({ length: bvh.frameCount }, (_, f) => GetBvhFramePose(bvhRig, f));
    const map = AutoMapHumanoid(rig).boneToJoint;
    const rest = ComputeRigWorldPose(rig);
    const joints: IRigJoint[] = rig.joints.map((j) => ({ ...j }));
    return { bvh, rig, poses, map, rest, joints };
}

/**
 * Writes `output`: the BVH file `input` with its rest pose bound otherwise and the same motion in
 * the world, as mocap from another tool would come: the upper arms turned `armsDownDeg` down and
 * the thighs `legsOutDeg` apart in the rest pose (an A-pose; the feet flat, as they were), every frame's rotations rewritten so
 * that each joint is where it was (the rig's rest rotations change, its poses' local rotations do
 * not; `WriteBvh` writes the rest as OFFSETs and each frame as turns from it, ZXY, centimetres).
 * Only the root may have position channels (the writer keeps no other joint's translation), and the
 * rest pose must be a T-pose (arms out, legs down).
 * Returns `output`.
 */
export function WriteBvhWithRestTurned(input: string, output: string, armsDownDeg: number, legsOutDeg: number): string {
    const { bvh, rig, poses, map, rest, joints } = readForRewrite(input);
    // The bone turned in the world by `degrees` about the axis that takes it towards `toward`.
    const turn = (upper: number, lower: number, degrees: number, toward: Vector3): void => {
        const along = rest.positions[lower].subtract(rest.positions[upper]).normalize();
        const axis = Vector3.Cross(along, toward);
        // A bone already along `toward` (a rest pose with its arms down) has no such turn.
        if (!(axis.length() > 0.5))
            throw new Error(`${input}: joint ${rig.joints[upper].name} is not across the direction it is to turn to; its rest pose is no T-pose`);
        const q = Quaternion.RotationAxis(axis.normalize(), (degrees * Math.PI) / 180);
        const parent = rig.joints[upper].parent;
        const p = parent >= 0 ? rest.rotations[parent] : Quaternion.Identity();
        // local' = P^-1 * turn * P * local, P the parent's world rotation.
        joints[upper] = { ...joints[upper], restRotation: Quaternion.Inverse(p).multiply(q).multiply(p).multiply(rig.joints[upper].restRotation).normalize() };
    };
    const down = new Vector3(0, -1, 0);
    turn(map[HumanBone.LeftUpperArm], map[HumanBone.LeftLowerArm], armsDownDeg, down);
    turn(map[HumanBone.RightUpperArm], map[HumanBone.RightLowerArm], armsDownDeg, down);
    const out = rest.positions[map[HumanBone.LeftUpperLeg]].subtract(rest.positions[map[HumanBone.RightUpperLeg]]);
    out.y = 0;
    out.normalize();
    turn(map[HumanBone.LeftUpperLeg], map[HumanBone.LeftLowerLeg], legsOutDeg, out);
    turn(map[HumanBone.RightUpperLeg], map[HumanBone.RightLowerLeg], legsOutDeg, out.negate());
    // The feet stay flat, as an A-pose rig's are: each keeps its world rest rotation.
    const turnedRest = ComputeRigWorldPose({ source: rig.source, joints });
    for (const foot of [map[HumanBone.LeftFoot], map[HumanBone.RightFoot]]) {
        const parent = turnedRest.rotations[rig.joints[foot].parent];
        joints[foot] = { ...joints[foot], restRotation: Quaternion.Inverse(parent).multiply(rest.rotations[foot]).normalize() };
    }
    const turned: IRig = { source: rig.source, joints };
    writeFileSync(output, WriteBvh(turned, poses, { frameTimeSeconds: bvh.frameTimeSeconds }));
    return output;
}

/**
 * Writes `output`: the BVH file `input` with the feet of its rest pose laid along the ground (each
 * foot turned in its rest by the least turn that puts its toes joint level with its ankle, as the
 * CMU mocap's ASF-made files bind them) and the same motion in the world (see
 * {@link WriteBvhWithRestTurned}: the rest changes, the poses' local rotations do not). The feet
 * must have toes. Returns `output`.
 */
export function WriteBvhWithRestFeetLevel(input: string, output: string): string {
    const { bvh, rig, poses, map, rest, joints } = readForRewrite(input);
    for (const [foot, toes] of [
        [map[HumanBone.LeftFoot], map[HumanBone.LeftToes]],
        [map[HumanBone.RightFoot], map[HumanBone.RightToes]],
    ]) {
        if (foot < 0 || toes < 0) throw new Error(`${input}: a foot without toes mapped`);
        const along = rest.positions[toes].subtract(rest.positions[foot]);
        const level = new Vector3(along.x, 0, along.z);
        const q = new Quaternion();
        Quaternion.FromUnitVectorsToRef(along.normalize(), level.normalize(), q);
        const parent = rest.rotations[rig.joints[foot].parent];
        joints[foot] = { ...joints[foot], restRotation: Quaternion.Inverse(parent).multiply(q).multiply(rest.rotations[foot]).normalize() };
    }
    writeFileSync(output, WriteBvh({ source: rig.source, joints }, poses, { frameTimeSeconds: bvh.frameTimeSeconds }));
    return output;
}
