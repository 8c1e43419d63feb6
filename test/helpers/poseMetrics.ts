import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { ComputeRigWorldPose, HumanBone, HUMAN_BONE_COUNT, MuscleSetup, type HumanoidAvatar, type IRigPose, type IRigWorldPose } from "../../src/index.js";

/** Per-bone differences between two poses of the same rig. */
export interface IPoseDifference {
    /** Largest and mean angle between bone directions (degrees), over mapped bones. */
    swingMaxDeg: number;
    swingSumDeg: number;
    swingCount: number;
    swingWorstBone: number;
    /** Largest twist difference about the bone (degrees). */
    twistMaxDeg: number;
    /** Hips and centre-of-mass distance, as a fraction of body height. */
    hips: number;
    com: number;
}

/** Body height: vertical extent of the T-pose skeleton (joints only), metres. */
export function BodyHeight(avatar: HumanoidAvatar): number {
    const up = avatar.frame.up;
    const ys = avatar.referenceWorld.positions.filter((_, i) => avatar.rig.joints[i].kind !== 2).map((p) => Vector3.Dot(p, up));
    return Math.max(...ys) - Math.min(...ys);
}

/** Centre of mass of a world pose with the avatar's mass model, on the actual joint positions. */
export function CenterOfMass(avatar: HumanoidAvatar, w: IRigWorldPose): Vector3 {
    const s = MuscleSetup.For(avatar);
    const c = Vector3.Zero();
    let m = 0;
    for (let i = 0; i < s.massJoint.length; i++) {
        const j = s.massJoint[i];
        c.addInPlace(w.positions[j].add(s.massOffset[i].applyRotationQuaternion(w.rotations[j])).scale(s.massWeight[i]));
        m += s.massWeight[i];
    }
    return c.scale(1 / m);
}

const angleDeg = (a: Quaternion, b: Quaternion): number => (2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(a, b)))) * 180) / Math.PI;

/** Compares two poses bone by bone: direction (swing), twist, hips and centre of mass. */
export function ComparePoses(avatar: HumanoidAvatar, a: IRigPose, b: IRigPose, into?: IPoseDifference): IPoseDifference {
    const out = into ?? { swingMaxDeg: 0, swingSumDeg: 0, swingCount: 0, swingWorstBone: -1, twistMaxDeg: 0, hips: 0, com: 0 };
    const s = MuscleSetup.For(avatar);
    const wa = ComputeRigWorldPose(avatar.rig, a);
    const wb = ComputeRigWorldPose(avatar.rig, b);
    const height = BodyHeight(avatar);
    for (let bone = 0; bone < HUMAN_BONE_COUNT; bone++) {
        const j = avatar.getJoint(bone);
        if (j < 0) continue;
        const w0i = Quaternion.Inverse(avatar.referenceWorld.rotations[j]);
        const da = wa.rotations[j].multiply(w0i);
        const db = wb.rotations[j].multiply(w0i);
        // The bone's direction: its twist axis, but for the shoulders (read about the side axis) the
        // collarbone, and for a trunk bone whose next trunk bone hangs from it through joints the
        // avatar does not map (`MuscleSetup.trunkChord`) the chord to that bone's joint: muscle
        // space keeps those joints at rest and aims the bone along the chord (see `EncodeHumanPose`).
        const chord = s.trunkChord[bone];
        const axis = bone === HumanBone.LeftShoulder ? s.collarbone[0] : bone === HumanBone.RightShoulder ? s.collarbone[1] : s.twistAxis[bone];
        const t = axis.applyRotationQuaternion(s.c0);
        const c = chord ? avatar.getJoint(chord.child) : -1;
        const ta = chord ? wa.positions[c].subtract(wa.positions[j]).normalize() : t.applyRotationQuaternion(da).normalize();
        const tb = chord ? wb.positions[c].subtract(wb.positions[j]).normalize() : t.applyRotationQuaternion(db).normalize();
        const swing = (Math.acos(Math.min(1, Vector3.Dot(ta, tb))) * 180) / Math.PI;
        if (chord) {
            // Its twist: the turn left once the source bone is swung onto its own chord (the joints
            // between bent: its T-pose chord, turned with it, points elsewhere) and the chords are aligned.
            const restChord = avatar.referenceWorld.positions[c].subtract(avatar.referenceWorld.positions[j]).normalize();
            const onChord = Quaternion.Identity();
            Quaternion.FromUnitVectorsToRef(restChord.applyRotationQuaternion(da).normalize(), ta, onChord);
            const align = Quaternion.Identity();
            Quaternion.FromUnitVectorsToRef(ta, tb, align);
            out.swingSumDeg += swing;
            out.swingCount++;
            if (swing > out.swingMaxDeg) {
                out.swingMaxDeg = swing;
                out.swingWorstBone = bone;
            }
            out.twistMaxDeg = Math.max(out.twistMaxDeg, angleDeg(align.multiply(onChord).multiply(da), db));
            continue;
        }
        out.swingSumDeg += swing;
        out.swingCount++;
        if (swing > out.swingMaxDeg) {
            out.swingMaxDeg = swing;
            out.swingWorstBone = bone;
        }
        out.twistMaxDeg = Math.max(out.twistMaxDeg, angleDeg(da, db) - swing);
    }
    const hj = avatar.getJoint(0);
    out.hips = Math.max(out.hips, wa.positions[hj].subtract(wb.positions[hj]).length() / height);
    out.com = Math.max(out.com, CenterOfMass(avatar, wa).subtract(CenterOfMass(avatar, wb)).length() / height);
    return out;
}
