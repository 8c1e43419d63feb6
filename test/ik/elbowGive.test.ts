import fc from "fast-check";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BoneMuscles,
    BuildHumanoidAvatar,
    BuildSampleRig,
    ELBOW_OVERSHOOT_DEG,
    HumanBone,
    HumanoidAnimator,
    JointLimits,
    MuscleNames,
    MuscleSetup,
    SampleCharacters,
    SwingTwistDecompose,
} from "../../src/index.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";

// The elbows' give past straight (`JointLimits.giveCanonicalToRef`, `overshoot`): the slow
// readable form below (the clamp's direction turned toward the asked one by h tanh(e / h), on
// Babylon's own rotations) is the oracle of the written-out one.

const DEG = Math.PI / 180;
const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
const setup = MuscleSetup.For(avatar);
const ELBOWS = [HumanBone.LeftLowerArm, HumanBone.RightLowerArm];
const H = ELBOW_OVERSHOOT_DEG * DEG;

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

/** The elbow's bend axis (its stretch muscle's, Z: `BoneMuscles[bone][2]`; canonical). */
const bendAxis = (bone: HumanBone): Vector3 => {
    expect(MuscleNames[BoneMuscles[bone][2]]).toMatch(/Forearm Stretch/);
    return setup.axisZ[bone];
};
/** The elbow's bend `b` radians from its T-pose about its bend axis. */
const bend = (bone: HumanBone, b: number): Quaternion => Quaternion.RotationAxis(bendAxis(bone), b);
/** The signed bend of a rotation's direction from the T-pose's, about the bend axis (radians). */
function bendOf(bone: HumanBone, q: Quaternion): number {
    const t = setup.twistAxis[bone];
    const d = direction(bone, q);
    return Math.atan2(Vector3.Dot(Vector3.Cross(t, d), bendAxis(bone)), Vector3.Dot(t, d));
}

describe("the elbows' give past straight", () => {
    const limits = new JointLimits(avatar);

    test("defaults: the elbows give ELBOW_OVERSHOOT_DEG, every other bone none", () => {
        for (let b = 0; b < limits.overshoot.length; b++) expect(limits.overshoot[b]).toBe(ELBOWS.includes(b) ? H : 0);
        expect(ELBOW_OVERSHOOT_DEG).toBeGreaterThan(0);
    });

    test("inside the limits, or with no give, it is the clamp, to the bit", () => {
        fc.assert(
            fc.property(fc.constantFrom(...ELBOWS, HumanBone.LeftLowerLeg), UnitQuaternionArbitrary(), (bone, q) => {
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
            fc.property(fc.constantFrom(...ELBOWS), UnitQuaternionArbitrary(), (bone, q) => {
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
            fc.property(fc.constantFrom(...ELBOWS), UnitQuaternionArbitrary(), fc.constantFrom(1, 0.5), (bone, q, share) => {
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

    test("an elbow straightening past straight at a steady rate slows into its give: no kink (the clamp stops it within one step)", () => {
        for (const bone of ELBOWS) {
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
