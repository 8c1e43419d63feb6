import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    ALL_MUSCLE_COUNT,
    BoneMuscles,
    GetFingerBone,
    HumanBone,
    HumanBoneChainChild,
    HumanBoneParents,
    HUMAN_BONE_COUNT,
    HINGE_BLEND_BEND_DEG,
    LimbBones,
    MuscleSetup,
    Muscles,
    RigJointKind,
    BodySide,
    type HumanoidAvatar,
    type IRigPose,
} from "../../src/index.js";

/**
 * The slow, obvious reference for muscle space: 4x4 matrices for every transform, nothing cached
 * between calls, swing measured as the shortest rotation taking the bone axis to where it points,
 * twist as the angle a perpendicular turns by. It follows docs/muscles.md step by step; the fast
 * path (quaternions, cached setup, no allocation) must agree with it.
 */

const B = HumanBone;

/** Rotation part of a row-vector matrix as a quaternion. */
function rot(m: Matrix): Quaternion {
    const s = new Vector3();
    const q = new Quaternion();
    m.decompose(s, q, new Vector3());
    return q.normalize();
}
/** Matrix of a quaternion. */
function mat(q: Quaternion): Matrix {
    return Matrix.FromQuaternionToRef(q, new Matrix());
}
/** Applies a rotation matrix to a vector. */
function apply(m: Matrix, v: Vector3): Vector3 {
    return Vector3.TransformNormal(v, m);
}
/** `a * b` for rotations (b applied first), as matrices: row vectors apply b then a. */
function compose(a: Matrix, b: Matrix): Matrix {
    return b.multiply(a);
}
function inv(m: Matrix): Matrix {
    return Matrix.Invert(m);
}
/** Rotation about a unit axis by an angle (radians). */
function axisAngle(axis: Vector3, angle: number): Matrix {
    return Matrix.RotationAxis(axis.normalizeToNew(), angle);
}

/** World matrices of every joint (forward kinematics with full matrices). */
function worldMatrices(avatar: HumanoidAvatar, pose: IRigPose): Matrix[] {
    const w: Matrix[] = [];
    avatar.rig.joints.forEach((j, i) => {
        const local = Matrix.Compose(j.restScale, pose.rotations[i], pose.positions[i]);
        w[i] = j.parent >= 0 ? local.multiply(w[j.parent]) : local;
    });
    return w;
}

/** Swing (rotation vector, shortest arc taking `t` to `Q t`) and twist angle of a rotation about unit `t`. */
function swingTwist(q: Matrix, t: Vector3): { swing: Vector3; twist: number } {
    const v = apply(q, t).normalize();
    const c = Math.max(-1, Math.min(1, Vector3.Dot(t, v)));
    const angle = Math.acos(c);
    const axis = Vector3.Cross(t, v);
    const swing = axis.length() > 1e-12 ? axis.normalize().scale(angle) : Vector3.Zero();
    const swingM = swing.length() > 1e-12 ? axisAngle(swing, swing.length()) : Matrix.Identity();
    const twistM = compose(inv(swingM), q);
    const p = Math.abs(t.x) < 0.9 ? Vector3.Cross(t, new Vector3(1, 0, 0)).normalize() : Vector3.Cross(t, new Vector3(0, 1, 0)).normalize();
    const tp = apply(twistM, p);
    const twist = Math.atan2(Vector3.Dot(Vector3.Cross(p, tp), t), Vector3.Dot(p, tp));
    return { swing, twist };
}

/** Everything the reference derives from the avatar, fresh on every call. */
function derive(avatar: HumanoidAvatar) {
    const f = avatar.frame;
    const C = mat(Quaternion.RotationQuaternionFromAxis(f.left.scale(-1), f.up, f.forward));
    const Ci = inv(C);
    const ref = avatar.referenceWorld;
    const joint = (b: number): number => avatar.getJoint(b);
    const parentBone = (b: number): number => {
        let p = HumanBoneParents[b];
        while (p >= 0 && joint(p) < 0) p = HumanBoneParents[p];
        return p;
    };
    const canon = (v: Vector3): Vector3 => apply(Ci, v);
    const children = avatar.rig.joints.map(() => [] as number[]);
    avatar.rig.joints.forEach((j, i) => j.parent >= 0 && children[j.parent].push(i));
    const dirTo = (b: number, next: number): Vector3 | null => {
        const j = joint(b);
        if (j < 0) return null;
        if (next >= 0 && joint(next) >= 0) return canon(ref.positions[joint(next)].subtract(ref.positions[j])).normalize();
        let best: Vector3 | null = null;
        for (const c of children[j]) {
            if (avatar.rig.joints[c].kind === RigJointKind.Node) continue;
            const d = ref.positions[c].subtract(ref.positions[j]);
            if (d.length() > 1e-6 && (!best || d.length() > best.length())) best = d;
        }
        return best ? canon(best).normalize() : null;
    };
    const t: Vector3[] = [];
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const finger = b >= B.LeftThumbProximal;
        const digit = finger ? (b - B.LeftThumbProximal) % 3 : -1;
        let v: Vector3 | null;
        if (b <= B.Head) v = new Vector3(0, 1, 0);
        else if (b === B.LeftEye || b === B.RightEye || b === B.Jaw) v = new Vector3(0, 0, 1);
        else v = dirTo(b, HumanBoneChainChild[b]);
        if (!v && finger && digit > 0 && joint(b - 1) >= 0) v = t[b - 1].clone();
        t.push(v ?? (BoneMuscles[b][2] >= 0 ? new Vector3(...Muscles[BoneMuscles[b][2]].motion.tip).normalize() : new Vector3(0, 1, 0)));
    }
    // The hand twists about the forearm's axis; the foot about its own.
    t[B.LeftHand] = t[B.LeftLowerArm].clone();
    t[B.RightHand] = t[B.RightLowerArm].clone();
    // The shoulders' muscles are read about the body's side axis; the collarbones point as they do.
    const collar = [B.LeftShoulder, B.RightShoulder].map((b) => t[b].clone());
    for (const b of [B.LeftShoulder, B.RightShoulder]) t[b] = new Vector3(...Muscles[BoneMuscles[b][2]].motion.tip).normalize();
    const ay: Vector3[] = [];
    const az: Vector3[] = [];
    const sign: number[] = [];
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const [mx, my, mz] = BoneMuscles[b];
        const axisOf = (mi: number): Vector3 => {
            const a = Vector3.Cross(new Vector3(...Muscles[mi].motion.tip), new Vector3(...Muscles[mi].motion.toward));
            return a.subtract(t[b].scale(Vector3.Dot(a, t[b]))).normalize();
        };
        const z = mz >= 0 ? axisOf(mz) : Vector3.Cross(t[b], new Vector3(1, 0, 0)).normalize(); // the hips have no muscles
        const y = my >= 0 ? axisOf(my) : Vector3.Cross(z, t[b]).normalize();
        az.push(z);
        ay.push(y.subtract(z.scale(Vector3.Dot(y, z))).normalize());
        sign.push(mx >= 0 && Vector3.Dot(Vector3.Cross(t[b], new Vector3(...Muscles[mx].motion.tip)), new Vector3(...Muscles[mx].motion.toward)) < 0 ? -1 : 1);
    }
    const setup = MuscleSetup.For(avatar); // ranges and twist shares as given to the avatar
    return { C, Ci, joint, parentBone, t, ay, az, sign, setup, collar };
}

/** Reference encode: muscle values (all 117) of a rig pose. */
export function ReferenceEncode(avatar: HumanoidAvatar, pose: IRigPose): Float64Array {
    const d = derive(avatar);
    const { C, Ci, joint, parentBone, t } = d;
    const w = worldMatrices(avatar, pose);
    const w0 = avatar.referenceWorld.rotations;
    // D = C^-1 W W0^-1 C ; Q = D(parent)^-1 D
    const D: Matrix[] = [];
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (joint(b) < 0) continue;
        D[b] = compose(Ci, compose(mat(rot(w[joint(b)])), compose(inv(mat(w0[joint(b)])), C)));
    }
    const Q: Matrix[] = [];
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        if (joint(b) < 0) continue;
        Q[b] = compose(inv(D[parentBone(b)]), D[b]);
    }
    const out = new Float64Array(ALL_MUSCLE_COUNT);
    const toMuscle = (mi: number, rad: number): number => {
        const deg = (rad * 180) / Math.PI;
        return deg >= 0 ? deg / d.setup.maxDeg[mi] : deg / -d.setup.minDeg[mi];
    };
    const write = (b: number, twistNear?: number): void => {
        const { swing, twist } = swingTwist(Q[b], t[b]);
        // A tracked limb twist: the same rotation, on the turn nearest the tracked number.
        const tw = twistNear === undefined ? twist : twist + 2 * Math.PI * Math.round((twistNear - twist) / (2 * Math.PI));
        const [mx, my, mz] = BoneMuscles[b];
        if (mx >= 0) out[mx] = toMuscle(mx, d.sign[b] * tw);
        if (my >= 0) out[my] = toMuscle(my, Vector3.Dot(swing, d.ay[b]));
        if (mz >= 0) out[mz] = toMuscle(mz, Vector3.Dot(swing, d.az[b]));
    };
    const near = (angle: number, target: number): number => angle + 2 * Math.PI * Math.round((target - angle) / (2 * Math.PI));
    const limb = (root: number, up: number, lo: number, end: number, share: number, lowerShare: number): void => {
        // Twists tracked as numbers, so a limb twisted more than half a turn keeps its sign.
        const along = Vector3.Dot(t[up], t[lo]);
        let upTwist = swingTwist(Q[up], t[up]).twist;
        let loTwist = swingTwist(Q[lo], t[lo]).twist;
        if (root >= 0 && joint(root) >= 0 && parentBone(up) === root) {
            // The shoulder keeps the turn about an axis across the side axis that points its
            // collarbone where it points (an axis at the same angle to the collarbone before and
            // after); the rest, a turn about the collarbone, goes to the upper arm.
            const c0 = d.collar[root === B.LeftShoulder ? 0 : 1];
            const c1 = apply(Q[root], c0).normalize();
            const axis = Vector3.Cross(t[root], c1.subtract(c0));
            if (axis.length() > 1e-9 * c1.subtract(c0).length() && c1.subtract(c0).length() > 1e-12) {
                const a = axis.normalize();
                const p0 = c0.subtract(a.scale(Vector3.Dot(c0, a)));
                const p1 = c1.subtract(a.scale(Vector3.Dot(c1, a)));
                const S = axisAngle(a, Math.atan2(Vector3.Dot(a, Vector3.Cross(p0, p1)), Vector3.Dot(p0, p1)));
                const rest = compose(inv(S), Q[root]);
                Q[root] = S;
                Q[up] = compose(rest, Q[up]);
                upTwist += swingTwist(rest, c0).twist * Vector3.Dot(c0, t[up]);
            } else {
                const { twist } = swingTwist(Q[root], t[root]);
                Q[root] = compose(Q[root], axisAngle(t[root], -twist));
                Q[up] = compose(axisAngle(t[root], twist), Q[up]);
                upTwist += twist * Vector3.Dot(t[root], t[up]);
            }
        }
        // The hand's twist about the forearm goes to the forearm; the foot keeps its own (its roll).
        const endTwists = BoneMuscles[end][0] >= 0;
        if (!endTwists) {
            const chi = swingTwist(Q[end], t[lo]).twist;
            Q[lo] = compose(Q[lo], axisAngle(t[lo], chi));
            Q[end] = compose(axisAngle(t[lo], -chi), Q[end]);
            loTwist += chi;
        }
        if (share < 0.999) {
            const a = near(swingTwist(Q[up], t[up]).twist, upTwist);
            const extra = a / (1 - share) - a;
            Q[up] = compose(Q[up], axisAngle(t[up], extra));
            Q[lo] = compose(axisAngle(t[up], -extra), Q[lo]);
            upTwist = a + extra;
            loTwist -= extra * along;
        }
        // The split of the limb's twist (docs/muscles.md step 5): turn the upper bone about its
        // axis by tau (the lower bone back) until z = bend e^(i psi) + blend e^(i chi) points the
        // flexing way, psi the lower bone's bend direction (atan2(Y swing, -Z swing)), chi =
        // s * its twist / along, s = sign((Y x Z) . twist axis). Found by scanning tau over a
        // whole turn for the root of Im z with Re z > 0 nearest 0, then bisecting.
        const hs = Vector3.Dot(Vector3.Cross(d.ay[lo], d.az[lo]), t[lo]) < 0 ? -1 : 1;
        const blend = (HINGE_BLEND_BEND_DEG * Math.PI) / 180;
        const z = (tau: number): { re: number; im: number } => {
            const q = compose(axisAngle(t[up], -tau), Q[lo]);
            const { swing, twist } = swingTwist(q, t[lo]);
            const y = Vector3.Dot(swing, d.ay[lo]);
            const zz = Vector3.Dot(swing, d.az[lo]);
            const bend = Math.hypot(y, zz);
            const psi = Math.atan2(y, -zz);
            const chi = (hs * near(twist, loTwist - tau * along)) / Math.max(0.5, along);
            return { re: bend * Math.cos(psi) + blend * Math.cos(chi), im: bend * Math.sin(psi) + blend * Math.sin(chi) };
        };
        const steps = 1440;
        let best = NaN;
        for (let k = -steps / 2; k < steps / 2; k++) {
            const a = (k / steps) * 2 * Math.PI;
            const b = ((k + 1) / steps) * 2 * Math.PI;
            const za = z(a);
            const zb = z(b);
            if (za.im * zb.im > 0 || za.re + zb.re <= 0) continue;
            let lo2 = a;
            let hi2 = b;
            for (let it = 0; it < 60; it++) {
                const mid = (lo2 + hi2) / 2;
                if (z(lo2).im * z(mid).im <= 0) hi2 = mid;
                else lo2 = mid;
            }
            const root = (lo2 + hi2) / 2;
            if (z(root).re > 0 && !(Math.abs(root) >= Math.abs(best))) best = root;
        }
        if (best === best) {
            Q[up] = compose(Q[up], axisAngle(t[up], best));
            Q[lo] = compose(axisAngle(t[up], -best), Q[lo]);
            upTwist += best;
            loTwist = near(swingTwist(Q[lo], t[lo]).twist, loTwist - best * along);
        }
        if (endTwists && lowerShare < 0.999) {
            // The shin keeps (1 - share) of its twist when decoded, the foot gets the rest.
            const a = near(swingTwist(Q[lo], t[lo]).twist, loTwist);
            const extra = a / (1 - lowerShare) - a;
            Q[lo] = compose(Q[lo], axisAngle(t[lo], extra));
            Q[end] = compose(axisAngle(t[lo], -extra), Q[end]);
            loTwist = a + extra;
        }
        if (root >= 0 && joint(root) >= 0) write(root);
        write(up, upTwist);
        write(lo, loTwist);
        write(end);
    };
    const s = d.setup.twistShare;
    limb(B.LeftShoulder, B.LeftUpperArm, B.LeftLowerArm, B.LeftHand, s.upperArm, s.lowerArm);
    limb(B.RightShoulder, B.RightUpperArm, B.RightLowerArm, B.RightHand, s.upperArm, s.lowerArm);
    limb(-1, B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot, s.upperLeg, s.lowerLeg);
    limb(-1, B.RightUpperLeg, B.RightLowerLeg, B.RightFoot, s.upperLeg, s.lowerLeg);
    for (const side of [BodySide.Left, BodySide.Right] as const) {
        for (let f = 0; f < 5; f++) {
            for (let k = 0; k < 2; k++) {
                const b = GetFingerBone(side, f, k);
                if (joint(b) < 0 || joint(b + 1) < 0 || parentBone(b + 1) !== b) continue;
                const { twist } = swingTwist(Q[b], t[b]);
                Q[b] = compose(Q[b], axisAngle(t[b], -twist));
                Q[b + 1] = compose(axisAngle(t[b], twist), Q[b + 1]);
            }
        }
    }
    const limbBones = new Set<number>(LimbBones);
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) if (joint(b) >= 0 && !limbBones.has(b)) write(b);
    return out;
}

/** Reference decode: the world rotation of every mapped bone's joint, hips in its T-pose orientation. */
export function ReferenceDecodeWorldRotations(avatar: HumanoidAvatar, muscles: ArrayLike<number>): Map<number, Quaternion> {
    const d = derive(avatar);
    const { C, joint, parentBone, t } = d;
    const rad = (mi: number): number => {
        const v = muscles[mi];
        return ((v >= 0 ? v * d.setup.maxDeg[mi] : v * -d.setup.minDeg[mi]) * Math.PI) / 180;
    };
    const swingM = (b: number): Matrix => {
        const [, my, mz] = BoneMuscles[b];
        const v = d.ay[b].scale(my >= 0 ? rad(my) : 0).add(d.az[b].scale(mz >= 0 ? rad(mz) : 0));
        return v.length() > 1e-12 ? axisAngle(v, v.length()) : Matrix.Identity();
    };
    const twistOf = (b: number): number => (BoneMuscles[b][0] >= 0 ? d.sign[b] * rad(BoneMuscles[b][0]) : 0);
    const Q: Matrix[] = [];
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) Q[b] = compose(swingM(b), axisAngle(t[b], twistOf(b)));
    if (joint(B.Chest) < 0) Q[B.Spine] = compose(Q[B.Spine], Q[B.Chest]);
    if (joint(B.UpperChest) < 0) Q[joint(B.Chest) >= 0 ? B.Chest : B.Spine] = compose(Q[joint(B.Chest) >= 0 ? B.Chest : B.Spine], Q[B.UpperChest]);
    if (joint(B.Neck) < 0) Q[B.Head] = compose(Q[B.Neck], Q[B.Head]);
    if (joint(B.LeftShoulder) < 0) Q[B.LeftUpperArm] = compose(Q[B.LeftShoulder], Q[B.LeftUpperArm]);
    if (joint(B.RightShoulder) < 0) Q[B.RightUpperArm] = compose(Q[B.RightShoulder], Q[B.RightUpperArm]);
    const s = d.setup.twistShare;
    for (const [up, lo, end, su, sl] of [
        [B.LeftUpperArm, B.LeftLowerArm, B.LeftHand, s.upperArm, s.lowerArm],
        [B.RightUpperArm, B.RightLowerArm, B.RightHand, s.upperArm, s.lowerArm],
        [B.LeftUpperLeg, B.LeftLowerLeg, B.LeftFoot, s.upperLeg, s.lowerLeg],
        [B.RightUpperLeg, B.RightLowerLeg, B.RightFoot, s.upperLeg, s.lowerLeg],
    ]) {
        // The upper bone keeps (1 - su) of its twist (after a missing shoulder was folded in),
        // taken on the turn its muscle asks for.
        const measured = swingTwist(Q[up], t[up]).twist;
        const a = (measured + 2 * Math.PI * Math.round((twistOf(up) - measured) / (2 * Math.PI))) * su;
        const b = twistOf(lo) * sl;
        Q[up] = compose(Q[up], axisAngle(t[up], -a));
        Q[lo] = compose(axisAngle(t[up], a), compose(Q[lo], axisAngle(t[lo], -b)));
        Q[end] = compose(axisAngle(t[lo], b), Q[end]);
    }
    const D: Matrix[] = [Matrix.Identity()];
    const out = new Map<number, Quaternion>();
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (joint(b) < 0) continue;
        if (b > 0) D[b] = compose(D[parentBone(b)], Q[b]);
        // W = C D C^-1 W0
        const w = compose(C, compose(D[b], compose(inv(C), mat(avatar.referenceWorld.rotations[joint(b)]))));
        out.set(b, rot(w));
    }
    return out;
}
