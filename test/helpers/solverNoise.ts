import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { ComputeRigWorldPose, HumanBone, MuscleSetup, type HumanoidAvatar, type IRigPose, type IRigPoseSource } from "../../src/index.js";

/**
 * A pose source with a mocap solver's jitter added: the hips moved by white noise of `amplitude`
 * (metres, each axis, a new value every frame of `rate`), and each bone hanging from the hips (the
 * spine, both thighs) turned the least it can to keep its own child (the chest, the knees) where
 * it was, that child's world rotation kept. As a solver leaves it: the joint inside the body
 * jitters, the rotations cancel it where the markers are. Sampled on the rate's grid only.
 */
export function WithSolverNoise(source: IRigPoseSource, avatar: HumanoidAvatar, amplitude: number, seed = 1): IRigPoseSource {
    const setup = MuscleSetup.For(avatar);
    const rig = avatar.rig;
    const hips = setup.joint[HumanBone.Hips];
    const pairs = [
        [HumanBone.Spine, HumanBone.Chest],
        [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg],
        [HumanBone.RightUpperLeg, HumanBone.RightLowerLeg],
    ].map(([b, c]) => [setup.joint[b], setup.joint[c]]);
    let state = seed;
    const random = (): number => {
        state = (state * 16807) % 2147483647;
        return (2 * state) / 2147483647 - 1;
    };
    const noise: Vector3[] = [];
    const rate = source.frameRate;
    return {
        name: source.name,
        source: source.source,
        frameRate: rate,
        durationSeconds: source.durationSeconds,
        warnings: source.warnings,
        samplePoseToRef(t: number, result: IRigPose): void {
            source.samplePoseToRef(t, result);
            const f = Math.round(t * rate);
            while (noise.length <= f) noise.push(new Vector3(random(), random(), random()).scaleInPlace(amplitude));
            const n = noise[f];
            const w = ComputeRigWorldPose(rig, result);
            // The hips moved (their parent, if any, turned not at all: the move in its space).
            const parent = rig.joints[hips].parent;
            const local = n.clone();
            if (parent >= 0) {
                local.applyRotationQuaternionInPlace(Quaternion.Inverse(w.rotations[parent]));
                const s = w.scales[parent];
                local.set(local.x / s.x, local.y / s.y, local.z / s.z);
            }
            result.positions[hips].addInPlace(local);
            for (const [bone, child] of pairs) {
                // The bone's joint moved by n: turn it so that its child stays.
                const from = w.positions[child].subtract(w.positions[bone]).normalize();
                const to = w.positions[child].subtract(w.positions[bone].add(n)).normalize();
                const turn = new Quaternion();
                Quaternion.FromUnitVectorsToRef(from, to, turn);
                const world = turn.multiply(w.rotations[bone]);
                const boneParent = rig.joints[bone].parent;
                result.rotations[bone].copyFrom(Quaternion.Inverse(w.rotations[boneParent]).multiply(world));
                // Every joint between the bone and its child keeps its world rotation, so the child's does.
                const next = rig.joints.findIndex((j, i) => j.parent === bone && isAncestorOrSelf(rig.joints, i, child));
                if (next >= 0) result.rotations[next].copyFrom(Quaternion.Inverse(world).multiply(w.rotations[next]));
            }
        },
    };
}

function isAncestorOrSelf(joints: readonly { parent: number }[], a: number, b: number): boolean {
    for (let j = b; j >= 0; j = joints[j].parent) if (j === a) return true;
    return false;
}
