import fc from "fast-check";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BoneMuscles,
    BuildHumanoidAvatar,
    BuildSampleRig,
    ELBOW_OVERSHOOT_DEG,
    HumanBone,
    KNEE_OVERSHOOT_DEG,
    HumanoidAnimator,
    JointLimits,
    MuscleNames,
    MuscleSetup,
    SampleCharacters,
    SwingTwistDecompose,
} from "../../src/index.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";

// The elbows' and knees' give past straight (`JointLimits.giveCanonicalToRef`, `overshoot`) and
// the pass after IK that keeps it (`clampLocalToRef`): the slow readable forms below (the clamp's
// direction turned toward the asked one by h tanh(e / h), or by at most h, on Babylon's own
// rotations) are the oracles of the written-out ones.

const DEG = Math.PI / 180;
const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
const setup = MuscleSetup.For(avatar);
const ELBOWS = [HumanBone.LeftLowerArm, HumanBone.RightLowerArm];
const KNEES = [HumanBone.LeftLowerLeg, HumanBone.RightLowerLeg];
const HINGES = [...ELBOWS, ...KNEES];
/** A hinge's default give, radians. */
const giveOf = (bone: HumanBone): number => (ELBOWS.includes(bone) ? ELBOW_OVERSHOOT_DEG : KNEE_OVERSHOOT_DEG) * DEG;

const direction = (bone: HumanBone, q: Quaternion): Vector3 => setup.twistAxis[bone].applyRotationQuaternion(q);
/** The angle between two directions (atan2: exact near 0, where acos loses half the digits). */
const angle = (a: Vector3, b: Vector3): number => Math.atan2(Vector3.Cross(a, b).length(), Vector3.Dot(a, b));

/** The readable give: the clamp's direction turned toward the asked one by h tanh(e / h). */
function referenceGiveDirection(limits: JointLimits, bone: HumanBone, q: Quaternion, h: number): Vector3 {
    const clamped = new Quaternion();
    limits.clampCanonicalToRef(bone, q, clamped);
    const from = direction(bone, clamped);
    const to = direction(bone, q);
    const e = angle(from, to);
    if (e < 1e-9) return from;
    const axis = Vector3.Cross(from, to).normalize();
    return from.applyRotationQuaternion(Quaternion.RotationAxis(axis, h * Math.tanh(e / h)));
}

/** The hinge's bend axis (its stretch muscle's, Z: `BoneMuscles[bone][2]`; canonical). */
const bendAxis = (bone: HumanBone): Vector3 => {
    expect(MuscleNames[BoneMuscles[bone][2]]).toMatch(/(Forearm|Lower Leg) Stretch/);
    return setup.axisZ[bone];
};
/** The hinge's bend `b` radians from its T-pose about its bend axis. */
const bend = (bone: HumanBone, b: number): Quaternion => Quaternion.RotationAxis(bendAxis(bone), b);
/** The signed bend of a rotation's direction from the T-pose's, about the bend axis (radians). */
function bendOf(bone: HumanBone, q: Quaternion): number {
    const t = setup.twistAxis[bone];
    const d = direction(bone, q);
    return Math.atan2(Vector3.Dot(Vector3.Cross(t, d), bendAxis(bone)), Vector3.Dot(t, d));
}

describe("the elbows' and knees' give past straight", () => {
    const limits = new JointLimits(avatar);

    test("defaults: the elbows give ELBOW_OVERSHOOT_DEG, the knees KNEE_OVERSHOOT_DEG, every other bone none", () => {
        for (let b = 0; b < limits.overshoot.length; b++) expect(limits.overshoot[b]).toBe(HINGES.includes(b) ? giveOf(b) : 0);
        expect(ELBOW_OVERSHOOT_DEG).toBeGreaterThan(0);
        expect(KNEE_OVERSHOOT_DEG).toBeGreaterThan(0);
    });

    test("inside the limits, or with no give, it is the clamp, to the bit", () => {
        fc.assert(
            fc.property(fc.constantFrom(...HINGES, HumanBone.LeftFoot), UnitQuaternionArbitrary(), (bone, q) => {
                const clamp = new Quaternion();
                const give = new Quaternion();
                const movedClamp = limits.clampCanonicalToRef(bone, q, clamp);
                const movedGive = limits.giveCanonicalToRef(bone, q, give);
                expect(movedGive).toBe(movedClamp);
                if (!movedClamp || limits.overshoot[bone] === 0) expect(give.asArray()).toEqual(clamp.asArray());
            }),
            { seed: 5, numRuns: 400 },
        );
        const none = new JointLimits(avatar);
        none.overshootShare.fill(0);
        fc.assert(
            fc.property(fc.constantFrom(...HINGES), UnitQuaternionArbitrary(), (bone, q) => {
                const clamp = new Quaternion();
                const give = new Quaternion();
                none.clampCanonicalToRef(bone, q, clamp);
                none.giveCanonicalToRef(bone, q, give);
                expect(give.asArray()).toEqual(clamp.asArray());
            }),
            { seed: 6, numRuns: 200 },
        );
    });

    test("outside, the direction goes past the clamp's by h tanh(e / h) toward the asked one, the twist the clamp's (the readable form's to 1e-9)", () => {
        let outside = 0;
        fc.assert(
            fc.property(fc.constantFrom(...HINGES), UnitQuaternionArbitrary(), fc.constantFrom(1, 0.5), (bone, q, share) => {
                const H = giveOf(bone);
                const l = new JointLimits(avatar);
                l.overshootShare[bone] = share;
                const clamp = new Quaternion();
                if (!l.clampCanonicalToRef(bone, q, clamp)) return;
                const give = new Quaternion();
                l.giveCanonicalToRef(bone, q, give);
                expect(Math.abs(give.length() - 1)).toBeLessThan(1e-12);
                const want = referenceGiveDirection(l, bone, q, H * share);
                const got = direction(bone, give);
                expect(angle(got, want)).toBeLessThan(1e-9);
                // Never more than h past where the clamp stops.
                expect(angle(got, direction(bone, clamp))).toBeLessThanOrEqual(H * share + 1e-12);
                // The twist about the bone is the clamp's.
                const t = setup.twistAxis[bone];
                const gap = SwingTwistDecompose(give, t, null, null) - SwingTwistDecompose(clamp, t, null, null);
                expect(Math.abs(gap - 2 * Math.PI * Math.round(gap / (2 * Math.PI)))).toBeLessThan(1e-9);
                outside++;
            }),
            { seed: 7, numRuns: 400 },
        );
        expect(outside).toBeGreaterThan(100);
    });

    test("the pass after IK (clampLocalToRef) keeps a hinge within its give as it is and moves one further to its give's reach (the readable form's to 1e-9)", () => {
        let within = 0;
        let beyond = 0;
        fc.assert(
            fc.property(fc.constantFrom(...HINGES), UnitQuaternionArbitrary(), fc.constantFrom(1, 0.5, 0), (bone, q, share) => {
                // A limiter that has clamped nothing yet (nothing remembered as inside).
                const l = new JointLimits(avatar);
                l.overshootShare[bone] = share;
                const h = giveOf(bone) * share;
                const clamp = new Quaternion();
                if (!l.clampCanonicalToRef(bone, q, clamp)) return;
                const j = avatar.getJoint(bone);
                const k = setup.tposeCanonical[bone];
                const l0 = avatar.referencePose.rotations[j];
                // local = L0 K^-1 Q K, as decode writes it; back: Q = K L0^-1 L K^-1
                const local = l0.multiply(Quaternion.Inverse(k).multiply(q).multiply(k));
                const out = new Quaternion();
                const fresh = new JointLimits(avatar);
                fresh.overshootShare[bone] = share;
                const moved = fresh.clampLocalToRef(bone, local, out);
                const back = k.multiply(Quaternion.Inverse(l0).multiply(out)).multiply(Quaternion.Inverse(k));
                const from = direction(bone, clamp);
                const asked = direction(bone, q);
                const e = angle(from, asked);
                if (Math.abs(e - h) < 1e-9) return;
                // Near a half-turn swing the twist is ill-defined (a few 1e-6 radians of rounding): left out.
                if (angle(asked, setup.twistAxis[bone]) > (170 * Math.PI) / 180) return;
                // Within the give the direction stays as asked; beyond, it goes h past the clamp's
                // toward the asked one. The twist is the clamp's either way (its range is held).
                const axis = Vector3.Cross(from, asked).normalize();
                const want = e < h ? asked : h > 0 ? from.applyRotationQuaternion(Quaternion.RotationAxis(axis, h)) : from;
                expect(angle(direction(bone, back), want)).toBeLessThan(1e-9);
                const t = setup.twistAxis[bone];
                const gap = SwingTwistDecompose(back, t, null, null) - SwingTwistDecompose(clamp, t, null, null);
                expect(Math.abs(gap - 2 * Math.PI * Math.round(gap / (2 * Math.PI)))).toBeLessThan(1e-9);
                if (e < h) {
                    within++;
                    if (!moved) expect(out.equals(local)).toBe(true);
                } else {
                    expect(moved).toBe(true);
                    beyond++;
                }
                // Taken again, it stays (the widened polygon's projection keeps its results).
                const again = new JointLimits(avatar);
                again.overshootShare[bone] = share;
                const twice = new Quaternion();
                again.clampLocalToRef(bone, out, twice);
                expect(Math.abs(Math.abs(Quaternion.Dot(twice, out)) - 1)).toBeLessThan(1e-12);
            }),
            { seed: 8, numRuns: 600 },
        );
        expect(within).toBeGreaterThan(30);
        expect(beyond).toBeGreaterThan(20);
    });

    test("a hinge straightening past straight at a steady rate slows into its give: no kink (the clamp stops it within one step)", () => {
        for (const bone of HINGES) {
            const H = giveOf(bone);
            // Which way is past straight: the side the clamp moves.
            const probe = new Quaternion();
            const past = limits.clampCanonicalToRef(bone, bend(bone, 10 * DEG), probe) ? 1 : -1;
            expect(limits.clampCanonicalToRef(bone, bend(bone, -past * 10 * DEG), probe)).toBe(false);
            const step = 0.1 * DEG;
            const path = (f: (q: Quaternion, out: Quaternion) => void): number[] => {
                const out = new Quaternion();
                const bends: number[] = [];
                for (let b = -20 * DEG; b <= 20 * DEG; b += step) {
                    f(bend(bone, past * b), out);
                    bends.push(past * bendOf(bone, out));
                }
                return bends;
            };
            const second = (v: number[]): number => Math.max(...v.slice(2).map((x, i) => Math.abs(x - 2 * v[i + 1] + v[i])));
            const clamp = path((q, out) => limits.clampCanonicalToRef(bone, q, out));
            const give = path((q, out) => limits.giveCanonicalToRef(bone, q, out));
            // The clamp's velocity steps by a whole step where it stops; the give's changes smoothly.
            expect(second(clamp)).toBeGreaterThan(0.5 * step);
            expect(second(give)).toBeLessThan(0.05 * step);
            // Far past straight, the give is nearly all of h past where the clamp stops (tanh(3)).
            const stop = Math.max(...clamp);
            expect(Math.max(...give) - stop).toBeGreaterThan(0.99 * H);
            expect(Math.max(...give) - stop).toBeLessThanOrEqual(H + 1e-12);
        }
    });

    test("an arm under IK gives nothing: the animator's hand weights and world goals take the elbows' share", () => {
        const own = new HumanoidAnimator(
            avatar,
            avatar.rig.joints.map(() => null),
            { handIK: true },
        );
        own.applyPose(new (own.player.pose.constructor as new () => typeof own.player.pose)());
        const l = own.solver.jointLimits!;
        for (const b of ELBOWS) expect(l.overshootShare[b]).toBe(0);
        const free = new HumanoidAnimator(
            avatar,
            avatar.rig.joints.map(() => null),
            {},
        );
        free.goals.positionWeights[2] = 0.25;
        free.applyPose(new (free.player.pose.constructor as new () => typeof free.player.pose)());
        expect(free.solver.jointLimits!.overshootShare[HumanBone.LeftLowerArm]).toBeCloseTo(0.75, 6);
        expect(free.solver.jointLimits!.overshootShare[HumanBone.RightLowerArm]).toBe(1);
    });
});
