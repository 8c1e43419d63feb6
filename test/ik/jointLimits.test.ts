import fc from "fast-check";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    CreateReferenceRigPose,
    DecodeHumanPose,
    HumanBone,
    HumanBoneNames,
    HumanPose,
    JointLimits,
    JointLimitShapes,
    MuscleNames,
    MuscleSetup,
    SampleCharacters,
    SerializeJointLimits,
    SwingTwistDecompose,
} from "../../src/index.js";
import { FibonacciSphere, GridInside, NearestAngle } from "../helpers/sphereGrid.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";

const DEG = Math.PI / 180;
const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
const setup = MuscleSetup.For(avatar);
const limits = new JointLimits(avatar, "all");
const shapes = JointLimitShapes.For(avatar);
const BONES = [
    HumanBone.LeftLowerLeg,
    HumanBone.RightLowerArm,
    HumanBone.LeftUpperArm,
    HumanBone.RightUpperLeg,
    HumanBone.LeftFoot,
    HumanBone.LeftHand,
    HumanBone.Spine,
    HumanBone.Head,
    HumanBone.LeftIndexProximal,
];
/** About 0.4 degrees between neighbours. */
const GRID = FibonacciSphere(250_000);
const inside = new Map(BONES.map((b) => [b, GridInside(shapes.bones[b]!.polygon, GRID)]));

const unitQuat = UnitQuaternionArbitrary();

const direction = (bone: HumanBone, q: Quaternion): Vector3 => setup.twistAxis[bone].applyRotationQuaternion(q);
const twistOf = (bone: HumanBone, q: Quaternion): number => SwingTwistDecompose(q, setup.twistAxis[bone], null, null);
const within = (bone: HumanBone, a: number, eps: number): boolean => {
    const s = shapes.bones[bone]!;
    return [a, a - 2 * Math.PI, a + 2 * Math.PI].some((x) => x >= s.twistMin - eps && x <= s.twistMax + eps);
};
/** Angle between two twists, radians, modulo a turn. */
const twistGap = (a: number, b: number): number => Math.abs(a - b - 2 * Math.PI * Math.round((a - b) / (2 * Math.PI)));

describe("joint limits: the clamp of a bone's rotation", () => {
    test("a clamped rotation is inside its limits and the nearest such rotation (direction within 0.5 degrees of a dense-grid search, twist at the nearer end)", () => {
        fc.assert(
            fc.property(fc.constantFrom(...BONES), unitQuat, (bone, q) => {
                const out = new Quaternion();
                const moved = limits.clampCanonicalToRef(bone, q, out);
                expect(Number.isFinite(out.x + out.y + out.z + out.w)).toBe(true);
                expect(Math.abs(out.length() - 1)).toBeLessThan(1e-9);
                expect(limits.isCanonicalInside(bone, out)).toBe(true);
                const d = direction(bone, q);
                const dOut = direction(bone, out);
                const moveDeg = Math.acos(Math.min(1, Vector3.Dot(d, dOut))) / DEG;
                expect(moveDeg).toBeLessThanOrEqual(NearestAngle(inside.get(bone)!, d.x, d.y, d.z) / DEG + 0.5);
                if (!moved) expect(out.equals(q)).toBe(true);
                // The twist, away from the half-turn swing (where it is undefined).
                if (Vector3.Dot(d, setup.twistAxis[bone]) < -0.99) return;
                const t0 = twistOf(bone, q);
                const t1 = twistOf(bone, out);
                expect(within(bone, t1, 1e-6)).toBe(true);
                // A twist inside its range is kept.
                if (within(bone, t0, 0)) expect(twistGap(t0, t1)).toBeLessThan(1e-6);
                if (!within(bone, t0, 1e-6)) {
                    const s = shapes.bones[bone]!;
                    // The nearer end of the range.
                    expect(twistGap(t1, twistGap(t0, s.twistMin) <= twistGap(t0, s.twistMax) ? s.twistMin : s.twistMax)).toBeLessThan(1e-6);
                }
            }),
            { numRuns: 600, seed: 7 },
        );
    });

    test("rotations already inside are untouched, to the bit (clamped ones, and small turns from the T-pose)", () => {
        fc.assert(
            fc.property(fc.constantFrom(...BONES), unitQuat, fc.double({ min: 0, max: 1, noNaN: true }), (bone, q, k) => {
                const once = new Quaternion();
                limits.clampCanonicalToRef(bone, q, once);
                const twice = new Quaternion();
                expect(limits.clampCanonicalToRef(bone, once, twice)).toBe(false);
                expect(twice.equals(once)).toBe(true);
                // A fraction of the way from the T-pose to the clamped rotation is inside too (the
                // polygons hold their centre's whole sector; the twist range holds 0).
                const small = Quaternion.Slerp(Quaternion.Identity(), once, k * 0.2);
                if (limits.isCanonicalInside(bone, small)) {
                    const out = new Quaternion();
                    expect(limits.clampCanonicalToRef(bone, small, out)).toBe(false);
                    expect(out.equals(small)).toBe(true);
                }
            }),
            { numRuns: 400, seed: 3 },
        );
        for (const b of BONES) expect(limits.clampCanonicalToRef(b, Quaternion.Identity(), new Quaternion())).toBe(false);
        // The T-pose is inside whether its knees and elbows are straight (the enforced T-pose's,
        // above) or bent a little (the sample as bound: elbows 1.44 degrees, knees 5.35).
        const bound = new JointLimits(BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]), { tPose: "rest" }), "all");
        for (const b of BONES)
            expect([HumanBoneNames[b], bound.clampCanonicalToRef(b, Quaternion.Identity(), new Quaternion())]).toEqual([HumanBoneNames[b], false]);
    });

    test("no NaN at the poles of the swing: the bone along its T-pose direction, opposite it, and a hair from either", () => {
        const out = new Quaternion();
        for (const bone of BONES) {
            const t = setup.twistAxis[bone];
            const across = setup.axisY[bone];
            const probes: Quaternion[] = [];
            for (const twist of [0, 1e-12, 0.3, Math.PI - 1e-9, Math.PI, -Math.PI + 1e-9]) {
                const tw = Quaternion.RotationAxis(t, twist);
                for (const swing of [0, 1e-10, Math.PI - 1e-10, Math.PI, Math.PI + 1e-10]) {
                    for (const axis of [across, setup.axisZ[bone], across.add(setup.axisZ[bone]).normalize()]) {
                        probes.push(Quaternion.RotationAxis(axis, swing).multiply(tw));
                    }
                }
            }
            // A quaternion a hair from unit length, with w = 0 (a half turn).
            probes.push(new Quaternion(across.x, across.y, across.z, 0), new Quaternion(t.x, t.y, t.z, 0));
            for (const q of probes) {
                limits.clampCanonicalToRef(bone, q, out);
                expect(Number.isFinite(out.x + out.y + out.z + out.w)).toBe(true);
                expect(limits.isCanonicalInside(bone, out)).toBe(true);
            }
        }
    });

    test("clampLocalToRef on rig-space local rotations is the canonical clamp seen through the joint's T-pose (bones without a give; with one: test/ik/hingeGive.test.ts)", () => {
        // The knees and elbows give past straight by default, and the pass after IK keeps what
        // the give returns: here no bone gives, so that the canonical clamp is the whole answer.
        const limits = new JointLimits(avatar, "all");
        limits.overshoot.fill(0);
        fc.assert(
            fc.property(fc.constantFrom(...BONES), unitQuat, (bone, q) => {
                const j = avatar.getJoint(bone);
                const k = setup.tposeCanonical[bone];
                const l0 = avatar.referencePose.rotations[j];
                // local = L0 K^-1 Q K
                const local = l0.multiply(Quaternion.Inverse(k).multiply(q).multiply(k));
                const out = new Quaternion();
                const moved = limits.clampLocalToRef(bone, local, out);
                const want = new Quaternion();
                expect(moved).toBe(limits.clampCanonicalToRef(bone, q, want));
                const back = k.multiply(Quaternion.Inverse(l0).multiply(out)).multiply(Quaternion.Inverse(k));
                expect(Math.abs(Math.abs(Quaternion.Dot(back, want)) - 1)).toBeLessThan(1e-9);
            }),
            { numRuns: 300, seed: 9 },
        );
    });

    test("the last clamp's result, read back through a rig pose, is taken as inside: the same answer as a limiter without that memory", () => {
        fc.assert(
            fc.property(fc.constantFrom(...BONES), unitQuat, (bone, q) => {
                const j = avatar.getJoint(bone);
                const k = setup.tposeCanonical[bone];
                const l0 = avatar.referencePose.rotations[j];
                const clamped = new Quaternion();
                limits.clampCanonicalToRef(bone, q, clamped);
                // local = L0 K^-1 Q K, as decode writes it
                const local = l0.multiply(Quaternion.Inverse(k).multiply(clamped).multiply(k));
                const out = new Quaternion();
                // A limiter that has clamped nothing yet.
                const fresh = (): JointLimits => new JointLimits(avatar, "all");
                const want = new Quaternion();
                const moved = limits.clampLocalToRef(bone, local, out);
                expect(moved).toBe(fresh().clampLocalToRef(bone, local, want));
                expect(moved).toBe(false);
                expect(out.equals(local)).toBe(true);
                expect(Math.abs(Math.abs(Quaternion.Dot(out, want)) - 1)).toBeLessThan(1e-12);
                // Any other rotation is tested: the unclamped one, and ones a hair (1e-7) off the clamped one.
                const hair = (dx: number, dy: number): Quaternion => new Quaternion(clamped.x + dx, clamped.y + dy, clamped.z, clamped.w).normalize();
                for (const other of [q, hair(1e-7, 0), hair(-1e-7, 0), hair(0, 1e-7), hair(0, -1e-7)]) {
                    const l = l0.multiply(Quaternion.Inverse(k).multiply(other).multiply(k));
                    limits.clampCanonicalToRef(bone, clamped, new Quaternion());
                    expect(limits.clampLocalToRef(bone, l, out)).toBe(fresh().clampLocalToRef(bone, l, want));
                    expect(Math.abs(Math.abs(Quaternion.Dot(out, want)) - 1)).toBeLessThan(1e-12);
                }
            }),
            { numRuns: 300, seed: 11 },
        );
    });

    test("decoded poses whose muscles stay within Mecanim's spans are inside the default limits", () => {
        const rig = CreateReferenceRigPose(avatar);
        const pose = new HumanPose();
        const out = new Quaternion();
        const HINGES = [HumanBone.LeftLowerLeg, HumanBone.RightLowerLeg, HumanBone.LeftLowerArm, HumanBone.RightLowerArm];
        const OTHERS = [HumanBone.LeftUpperLeg, HumanBone.RightUpperArm, HumanBone.Spine, HumanBone.Head, HumanBone.LeftHand];
        const outside = new Map<HumanBone, number>();
        let total = 0;
        fc.assert(
            fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: pose.values.length, maxLength: pose.values.length }), (u) => {
                // Each muscle somewhere in its span (from the T-pose, degrees -> value).
                for (let i = 0; i < pose.values.length; i++) {
                    pose.values[i] = SPAN_VALUES[i][0] + (SPAN_VALUES[i][1] - SPAN_VALUES[i][0]) * u[i];
                }
                DecodeHumanPose(avatar, pose, rig);
                total++;
                for (const b of [...HINGES, ...OTHERS]) {
                    if (limits.clampLocalToRef(b, rig.rotations[avatar.getJoint(b)], out)) outside.set(b, (outside.get(b) ?? 0) + 1);
                }
            }),
            { numRuns: 400, seed: 1 },
        );
        // Elsewhere nothing; a hinge now and then: a sideways knee or elbow turned by the twist
        // handed down from the bone above can point backwards in its own frame, which hinges never do.
        for (const b of OTHERS) expect(outside.get(b) ?? 0).toBe(0);
        for (const b of HINGES) expect((outside.get(b) ?? 0) / total).toBeLessThan(0.1);
    });

    test("saved limits load back to the same shapes; bad settings get one clear error", () => {
        const saved = SerializeJointLimits(avatar);
        const again = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]), { jointLimits: JSON.parse(JSON.stringify(saved)) });
        const a = JointLimitShapes.For(again);
        for (const b of BONES) {
            const x = shapes.bones[b]!;
            const y = a.bones[b]!;
            expect(y.twistMin).toBeCloseTo(x.twistMin, 6);
            expect(y.twistMax).toBeCloseTo(x.twistMax, 6);
            expect(y.polygon.vertexCount).toBe(x.polygon.vertexCount);
            y.polygon.vertices.forEach((v, i) => expect(v).toBeCloseTo(x.polygon.vertices[i], 6));
        }
        // An edited knee: at most 90 degrees of bend.
        const knee = saved.limits!.leftLowerLeg;
        const edited = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]), {
            jointLimits: {
                bones: "hinges",
                limits: {
                    leftLowerLeg: {
                        ...knee,
                        swingDeg: [
                            [-20, 0],
                            [20, 0],
                            [20, -90],
                            [-20, -90],
                        ],
                    },
                },
            },
        });
        const l = new JointLimits(edited);
        const bent = Quaternion.RotationAxis(MuscleSetup.For(edited).axisZ[HumanBone.LeftLowerLeg], -120 * DEG);
        const o = new Quaternion();
        expect(l.clampCanonicalToRef(HumanBone.LeftLowerLeg, bent, o)).toBe(true);
        // Onto the far edge (its vertices 92.2 degrees from straight; the arc between them a little further).
        const bend = Math.acos(Vector3.Dot(direction(HumanBone.LeftLowerLeg, o), setup.twistAxis[HumanBone.LeftLowerLeg])) / DEG;
        expect(bend).toBeGreaterThan(90);
        expect(bend).toBeLessThan(95);
        expect(l.isCanonicalInside(HumanBone.LeftLowerLeg, o)).toBe(true);
        const rig = BuildSampleRig(SampleCharacters[0]);
        expect(() => BuildHumanoidAvatar(rig, { jointLimits: { bones: "some" as "all" } })).toThrow(/jointLimits.bones must be/);
        expect(() => BuildHumanoidAvatar(rig, { jointLimits: { marginDeg: -1 } })).toThrow(/marginDeg must be/);
        expect(() => BuildHumanoidAvatar(rig, { jointLimits: { limits: { leftKnee: {} } } })).toThrow(/unknown or unlimited bone 'leftKnee'/);
        expect(() => BuildHumanoidAvatar(rig, { jointLimits: { limits: { leftLowerLeg: { twistDeg: [10, 20] } } } })).toThrow(/twistDeg must be/);
        expect(() => BuildHumanoidAvatar(rig, { jointLimits: { limits: { leftLowerLeg: { swingDeg: [[0, 1]] } } } })).toThrow(/at least 3 vertices/);
        const fan = BuildHumanoidAvatar(rig, {
            jointLimits: {
                limits: {
                    leftLowerLeg: {
                        swingDeg: [
                            [1, 1],
                            [2, 1],
                            [3, 1],
                        ],
                        centerDeg: [0, 0],
                    },
                },
            },
        });
        expect(() => new JointLimits(fan)).toThrow(/leftLowerLeg/);
        expect(HumanBoneNames[HumanBone.LeftLowerLeg]).toBe("leftLowerLeg");
    });
});

/** Per muscle, the value range of its span from the T-pose (Mecanim's range about its zero, holding 0), read from the default limits' construction. */
const SPAN_VALUES: [number, number][] = (() => {
    // Mecanim's zero from the T-pose for the limbs (reference §2), as in src/ik/jointLimitShapes.ts.
    const offsets: Record<string, number> = {
        "Upper Leg Front-Back": 29.8,
        "Upper Leg In-Out": -1.1,
        "Upper Leg Twist In-Out": 12.6,
        "Lower Leg Stretch": 80.2,
        "Lower Leg Twist In-Out": -12.4,
        "Arm Down-Up": 39.8,
        "Arm Front-Back": 30,
        "Arm Twist In-Out": -2.8,
        "Forearm Stretch": 80,
        "Forearm Twist In-Out": 3.3,
    };
    const out: [number, number][] = [];
    for (let i = 0; i < setup.minDeg.length; i++) {
        const name = MuscleNames[i].replace(/^(Left|Right) /, "");
        const off = i < 95 ? (offsets[name] ?? 0) : 0;
        const lo = Math.min(0, setup.minDeg[i] - off);
        const hi = Math.max(0, setup.maxDeg[i] - off);
        // degrees -> values (negative by |min|, positive by max)
        out.push([lo / -setup.minDeg[i], hi / setup.maxDeg[i]]);
    }
    return out;
})();
