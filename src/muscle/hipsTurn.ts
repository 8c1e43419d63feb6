import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone } from "../humanoid/humanBones.js";
import type { IRigPose } from "../humanoid/rig.js";
import { QuaternionConjugateToRef, QuaternionFromUnitVectorsToRef, QuaternionMultiplyToRef } from "../math/hotMath.js";
import type { HumanPose } from "./humanPose.js";
import type { MuscleSetup } from "./setup.js";

/** Scratch for {@link TurnHipsAsSourceInPlace} and {@link ScaleHipsRollToRef} (single-threaded, no call nests in another). */
const hipsWorld = new Quaternion();
const parentInverse = new Quaternion();
const sourceLocal = new Quaternion();
const chain = new Quaternion();
const turned = new Quaternion();
const lineNow = new Vector3();
const lineScaled = new Vector3();
const lineTurn = new Quaternion();

/**
 * The sine of a pelvis's roll (its hip joints' line out of the ground plane) over which
 * {@link ScaleHipsRollToRef} lets its scaling go: of a roll whose sine is r, the share
 * `exp(-(r / HIPS_ROLL_FADE)^2)` of the scaling is kept (about 17 degrees: nine tenths at 5
 * degrees, seven tenths at 10, a twentieth at 30). A pelvis rolls by a few degrees over a
 * standing or walking leg, which is where the scaling keeps the legs' shape; a cartwheel's or a
 * flying kick's rolls by up to a right angle with the legs off the ground, and scaled there, the
 * legs hanging from it left the source's (a flying kick onto the KayKit mannequin: limb
 * directions 2.2 -> 3.8 degrees; 2.16 with the fade). The fade is only for a body off the
 * ground: over feet that stand (`share[1]`), the roll stays scaled whatever its size.
 */
export const HIPS_ROLL_FADE = 0.3;

/**
 * With `"legs"` proportions, the hips turned as the source's were rather than as the body frame
 * (from hips and shoulders together) puts them: the legs hang from the hips, and a spine of other
 * proportions would otherwise swing them forward or back (and the foot IK bend them back) as it
 * turns the torso and arms. Sets the hips' local rotation in `pose` (a pose `DecodeHumanPose` has
 * just written, whose work state holds the hips' parent's world rotation) to
 * `P^-1 * c0 * (bodyRotation * hipsRotation) * (c0^-1 * W0)`: P the hips' parent's world rotation,
 * W0 the hips' T-pose world rotation; the bones below turn with it. The rig solver's `decode` and
 * VRM Animation export call it for a clip with leg proportions.
 *
 * Given `pelvis` (the source's `bodyRotation * hipsRotation` with its roll scaled, see
 * {@link ScaleHipsRollToRef}) and `kept` (from {@link HipsKeptChains}), the hips turn to `pelvis`
 * instead, and the spine and the upper legs keep the world rotations the source's turn gave them:
 * the trunk and the legs hang as the source's, only the hip joints move (and any joints between
 * the hips and those bones, as a CMU skeleton's `LHipJoint`, turn with the hips, carrying the hip
 * joints). Allocation-free.
 * @param setup the avatar's muscle setup
 * @param human the pose decoded (its body and hips rotations, canonical)
 * @param pose the rig pose decoded from it, changed in place
 * @param pelvis the pelvis's rotation to turn the hips to instead (canonical, world), with `kept`
 * @param kept the bones that keep their world rotations and the joints between the hips and each, with `pelvis`
 */
export function TurnHipsAsSourceInPlace(setup: MuscleSetup, human: HumanPose, pose: IRigPose, pelvis?: Quaternion, kept?: Int32Array): void {
    const hips = setup.joint[HumanBone.Hips];
    QuaternionMultiplyToRef(human.bodyRotation, human.hipsRotation, hipsWorld);
    setHipsToInPlace(setup, hipsWorld, pose);
    if (!pelvis || !kept) return;
    sourceLocal.copyFrom(pose.rotations[hips]);
    hipsWorld.copyFrom(pelvis);
    setHipsToInPlace(setup, hipsWorld, pose);
    // D = hips'^-1 * hips, the hips' local change undone; each kept bone b below a chain C of
    // joints (their locals unchanged): b' = C^-1 * D * C * b keeps its world rotation.
    QuaternionConjugateToRef(pose.rotations[hips], parentInverse);
    QuaternionMultiplyToRef(parentInverse, sourceLocal, parentInverse);
    for (let i = 0; i < kept.length;) {
        const bone = kept[i];
        const n = kept[i + 1];
        chain.set(0, 0, 0, 1);
        for (let k = 0; k < n; k++) QuaternionMultiplyToRef(chain, pose.rotations[kept[i + 2 + k]], chain);
        QuaternionMultiplyToRef(parentInverse, chain, turned);
        QuaternionConjugateToRef(chain, chain);
        QuaternionMultiplyToRef(chain, turned, turned);
        QuaternionMultiplyToRef(turned, pose.rotations[bone], pose.rotations[bone]);
        i += 2 + n;
    }
}

/**
 * For {@link TurnHipsAsSourceInPlace}: the spine's and the upper legs' joints (those mapped,
 * below the hips) with the joints between the hips and each, flat: `[bone, n, j1 .. jn, bone, n,
 * ...]`, each chain top-down from the hips' child to the bone's parent (n 0 for a bone whose
 * parent is the hips).
 * @param setup the avatar's muscle setup
 */
export function HipsKeptChains(setup: MuscleSetup): Int32Array {
    const hips = setup.joint[HumanBone.Hips];
    const out: number[] = [];
    for (const b of [HumanBone.Spine, HumanBone.LeftUpperLeg, HumanBone.RightUpperLeg]) {
        const j = setup.joint[b];
        if (j < 0 || hips < 0) continue;
        const between: number[] = [];
        let k = setup.rigParent[j];
        while (k >= 0 && k !== hips) {
            between.unshift(k);
            k = setup.rigParent[k];
        }
        if (k !== hips) continue;
        out.push(j, between.length, ...between);
    }
    return Int32Array.from(out);
}

/** Sets the hips' local rotation in `pose` so that the pelvis's is `pelvis` (canonical, world; changed: it is scratch). */
function setHipsToInPlace(setup: MuscleSetup, pelvis: Quaternion, pose: IRigPose): void {
    const hips = setup.joint[HumanBone.Hips];
    const hp = setup.rigParent[hips];
    const w = pelvis;
    QuaternionMultiplyToRef(setup.c0, w, w);
    QuaternionMultiplyToRef(w, setup.tposeCanonical[HumanBone.Hips], w);
    if (hp >= 0) {
        QuaternionConjugateToRef(setup.work.world[hp], parentInverse);
        QuaternionMultiplyToRef(parentInverse, w, pose.rotations[hips]);
    } else {
        pose.rotations[hips].copyFrom(w);
    }
}

/**
 * A pelvis's rotation (canonical, world) with its roll scaled: the line between its hip joints
 * (its right, `pelvis * (1, 0, 0)`) turned by the least rotation that takes the sine of its rise
 * out of the ground plane from r to `r - (1 - share) r (g + (1 - g) exp(-(r / HIPS_ROLL_FADE)^2))`
 * (`share` and `g` clamped to 0..1; `g` 0 when not given), its direction across the ground kept.
 * Returns false, `result` the pelvis as it is, for a share of 1 or more, a level line or one
 * standing straight up. Allocation-free (the numbers come in an array: a number handed to a call
 * V8 does not inline is boxed).
 * @param pelvis the pelvis's rotation (canonical, world; unit)
 * @param share `share[0]`: how much of a small roll is kept (0 to 1); `share[1]`, optional: how
 *   much the body stands on its feet (0 to 1: 1 keeps a large roll scaled as a small one, 0 lets
 *   it go by {@link HIPS_ROLL_FADE})
 * @param result where the scaled rotation goes (may be `pelvis`)
 */
export function ScaleHipsRollToRef(pelvis: Quaternion, share: Float64Array, result: Quaternion): boolean {
    const x = pelvis.x;
    const y = pelvis.y;
    const z = pelvis.z;
    const w = pelvis.w;
    // The line: pelvis * (1, 0, 0).
    const lx = 1 - 2 * (y * y + z * z);
    const ly = 2 * (x * y + w * z);
    const lz = 2 * (x * z - w * y);
    const across = Math.sqrt(lx * lx + lz * lz);
    const length = Math.sqrt(lx * lx + ly * ly + lz * lz);
    if (!(share[0] < 1) || ly === 0 || !(across > 1e-6 * length)) {
        result.copyFrom(pelvis);
        return false;
    }
    const k = share[0] > 0 ? share[0] : 0;
    lineNow.x = lx / length;
    lineNow.y = ly / length;
    lineNow.z = lz / length;
    const r = lineNow.y;
    // The fade, none over feet that stand.
    const g = share.length > 1 && share[1] > 0 ? (share[1] < 1 ? share[1] : 1) : 0;
    const rise = r - (1 - k) * r * (g + (1 - g) * Math.exp(-(r * r) / (HIPS_ROLL_FADE * HIPS_ROLL_FADE)));
    const level = Math.sqrt(1 - rise * rise) / across;
    lineScaled.x = lx * level;
    lineScaled.y = rise;
    lineScaled.z = lz * level;
    QuaternionFromUnitVectorsToRef(lineNow, lineScaled, lineTurn);
    QuaternionMultiplyToRef(lineTurn, pelvis, result);
    return true;
}

/**
 * Whether a clip's proportions (the array form of `ClipProportionsToArray`) let `"legs"` seat the
 * body on the legs: a leg length over 0, an ankle height and a hip width of at least 0 (the rig
 * solver's test; a clip of file version 1 has none).
 * @param values the array form
 */
export function HasLegProportions(values: Float64Array): boolean {
    return values[0] > 0 && values[1] >= 0 && values[2] >= 0;
}
