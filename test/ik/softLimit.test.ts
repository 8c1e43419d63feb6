import fc from "fast-check";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    HumanBone,
    JointLimits,
    JointLimitShapes,
    MuscleSetup,
    SampleCharacters,
    SOFT_LIMIT_KNEE,
    SwingTwistDecompose,
} from "../../src/index.js";
import { UnitQuaternionArbitrary } from "../helpers/arbitraries.js";

const DEG = Math.PI / 180;
const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]), {
    // Twist ranges the sample's own (symmetric, within 50 degrees) do not have: one that ends at 0,
    // one that reaches past a half turn, one of a whole turn and more (free).
    jointLimits: { limits: { chest: { twistDeg: [0, 40] }, neck: { twistDeg: [-10, 300] }, leftShoulder: { twistDeg: [-200, 200] } } },
});
const setup = MuscleSetup.For(avatar);
const limits = new JointLimits(avatar, "all");
const shapes = JointLimitShapes.For(avatar);
/** The bones decode limits softly (they hand on what it takes off), and some that it does not (the method is any bone's). */
const BONES = [HumanBone.Spine, HumanBone.Chest, HumanBone.Neck, HumanBone.LeftShoulder, HumanBone.RightShoulder, HumanBone.LeftUpperArm, HumanBone.Head];
const unitQuat = UnitQuaternionArbitrary();

/** A share of the way to a range's end, eased as SOFT_LIMIT_KNEE's documentation says. */
function ease(r: number): number {
    const k = SOFT_LIMIT_KNEE;
    return r <= k ? r : k + (1 - k) * Math.tanh((r - k) / (1 - k));
}

/** Angle between two rotations, radians (either sign; from the quaternions' distance, which keeps small angles exact where acos of their dot does not). */
const gap = (a: Quaternion, b: Quaternion): number => {
    const d = Math.min(Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w), Math.hypot(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w));
    return 4 * Math.asin(Math.min(1, d / 2));
};

/**
 * The readable reference of the soft limit: the twist by `SwingTwistDecompose`, the swing
 * polygon's reach toward the bone's direction by bisection along the great circle from the centre
 * with the polygon's own inside test (not `boundaryAngleTowards`), rebuilt with Babylon's products.
 * Only for a twist range that holds 0 and a direction not opposite the centre (what it checks).
 */
function referenceSoftLimit(bone: HumanBone, q: Quaternion): Quaternion {
    const shape = shapes.bones[bone]!;
    const t = setup.twistAxis[bone];
    const raw = SwingTwistDecompose(q, t, null, null);
    const [lo, hi] = [shape.twistMin, shape.twistMax];
    let twist = raw;
    if (hi - lo < 2 * Math.PI - 1e-9) {
        // The turn of the twist nearest the range (0 away: inside), by trying each.
        const outBy = (x: number): number => Math.max(lo - x, x - hi, 0);
        const along = [raw - 2 * Math.PI, raw, raw + 2 * Math.PI].reduce((a, b) => (outBy(b) < outBy(a) - 1e-12 ? b : a));
        const end = outBy(along) > 0 ? (Math.abs(along - lo) < Math.abs(along - hi) ? lo : hi) : along >= 0 ? hi : lo;
        if (end === 0) twist = outBy(along) > 0 ? 0 : raw;
        else if (along / end > SOFT_LIMIT_KNEE) twist = end * ease(along / end);
    }
    let d = t.applyRotationQuaternion(q);
    const c = new Vector3(shape.polygon.center[0], shape.polygon.center[1], shape.polygon.center[2]);
    const u = d.subtract(c.scale(Vector3.Dot(d, c)));
    if (u.length() > 1e-9) {
        u.normalize();
        const along = (a: number): Vector3 => c.scale(Math.cos(a)).add(u.scale(Math.sin(a)));
        let lo = 0;
        let hi = Math.PI;
        for (let i = 0; i < 60; i++) {
            const m = (lo + hi) / 2;
            if (shape.polygon.containsDirection(along(m))) lo = m;
            else hi = m;
        }
        const angle = Math.atan2(Vector3.Dot(d, u), Vector3.Dot(d, c));
        if (angle / lo > SOFT_LIMIT_KNEE) d = along(lo * ease(angle / lo));
    }
    const swing = new Quaternion();
    Quaternion.FromUnitVectorsToRef(t, d, swing);
    return swing.multiply(Quaternion.RotationAxis(t, twist));
}

describe("joint limits: the soft limit decode eases the trunk, neck and shoulders in with", () => {
    test("inside the limits; untouched to the bit within the first three quarters of the way; the readable reference's rotation (1e-6 rad) past them", () => {
        let eased = 0;
        fc.assert(
            fc.property(
                fc.constantFrom(...BONES),
                unitQuat,
                fc.integer({ min: 0, max: 1500 }).map((x) => x / 1000),
                (bone, r, k) => {
                    // A rotation some share of the way from the T-pose to a random one: many near and past the limits.
                    const q = Quaternion.Slerp(Quaternion.Identity(), r, k);
                    const out = new Quaternion();
                    const moved = limits.softLimitCanonicalToRef(bone, q, out);
                    expect(Number.isFinite(out.x + out.y + out.z + out.w)).toBe(true);
                    expect(Math.abs(out.length() - 1)).toBeLessThan(1e-9);
                    expect(limits.isCanonicalInside(bone, out)).toBe(true);
                    if (!moved) expect(out.equals(q)).toBe(true);
                    // In place (as decode calls it) the same, on q's side too (no sign flip for a blend).
                    const inPlace = q.clone();
                    limits.softLimitCanonicalToRef(bone, inPlace, inPlace);
                    expect(inPlace.equals(out)).toBe(true);
                    expect(Quaternion.Dot(out, q)).toBeGreaterThanOrEqual(0);
                    const clamped = q.clone();
                    limits.clampCanonicalToRef(bone, clamped, clamped);
                    expect(Quaternion.Dot(clamped, q)).toBeGreaterThanOrEqual(0);
                    const t = setup.twistAxis[bone];
                    const d = t.applyRotationQuaternion(q);
                    const c = shapes.bones[bone]!.polygon.center;
                    // Near opposite the centre the direction is clamped, not eased; near a half-turn swing the twist is undefined.
                    if (d.x * c[0] + d.y * c[1] + d.z * c[2] < -0.9 || Vector3.Dot(d, t) < -0.99) return;
                    // Every rotation, eased or not, is the reference's, and said to have changed exactly when it did.
                    const ref = referenceSoftLimit(bone, q);
                    expect(gap(out, ref)).toBeLessThan(1e-6);
                    // (A rotation rebuilt unchanged differs by rounding.)
                    if (gap(ref, q) > 1e-5) expect(moved).toBe(true);
                    if (!moved) expect(gap(ref, q)).toBeLessThan(1e-6);
                    if (moved) eased++;
                },
            ),
            { numRuns: 800, seed: 17 },
        );
        // The property checked eased rotations, not only untouched ones.
        expect(eased).toBeGreaterThan(200);
    });

    test("a rotation well inside is untouched; a bone swung out from its polygon's centre goes on out, slower and slower, never past the limit", () => {
        const out = new Quaternion();
        for (const bone of BONES) {
            const t = setup.twistAxis[bone];
            // Small turns about the bone's two swing axes and its twist: within the first three quarters of every range.
            for (const axis of [setup.axisY[bone], setup.axisZ[bone], t]) {
                const q = Quaternion.RotationAxis(axis, 2 * DEG);
                expect(limits.softLimitCanonicalToRef(bone, q, out)).toBe(false);
                expect(out.equals(q)).toBe(true);
            }
            // The bone's direction swung from the polygon's centre out along one great circle (at
            // several azimuths): its eased angle from the centre grows with it, first as it, then
            // less and less, inside the limits all the way.
            const polygon = shapes.bones[bone]!.polygon;
            const c = new Vector3(polygon.center[0], polygon.center[1], polygon.center[2]);
            const e1 = Vector3.Cross(c, t.add(new Vector3(0.3, 0.2, 0.1))).normalize();
            const e2 = Vector3.Cross(c, e1);
            for (let k = 0; k < 8; k++) {
                const u = e1.scale(Math.cos((k * Math.PI) / 4)).add(e2.scale(Math.sin((k * Math.PI) / 4)));
                const reach = polygon.boundaryAngleTowards(c.add(u.scale(0.01)).normalize());
                let last = -1;
                let lastStep = Infinity;
                for (let a = 1; a <= 150; a += 1) {
                    const d = c.scale(Math.cos(a * DEG)).add(u.scale(Math.sin(a * DEG)));
                    const q = new Quaternion();
                    Quaternion.FromUnitVectorsToRef(t, d, q);
                    limits.softLimitCanonicalToRef(bone, q, out);
                    expect(limits.isCanonicalInside(bone, out)).toBe(true);
                    const now = Math.acos(Math.min(1, Vector3.Dot(t.applyRotationQuaternion(out), c)));
                    if (a * DEG <= SOFT_LIMIT_KNEE * reach) expect(Math.abs(now - a * DEG)).toBeLessThan(1e-9);
                    expect(now).toBeGreaterThanOrEqual(last - 1e-12);
                    expect(now).toBeLessThan(reach + 1e-9);
                    // Slower and slower (1e-9: rounding where the ease has flattened out).
                    if (last >= 0) expect(now - last).toBeLessThanOrEqual(Math.min(lastStep, DEG) + 1e-9);
                    if (last >= 0) lastStep = now - last;
                    last = now;
                }
            }
        }
    });

    test("continuous: along random smooth paths, the eased rotation turns at most 3 times as far as the rotation each step (no jump)", () => {
        let worst = 0;
        fc.assert(
            // Not the neck: its range here ([-10, 300] degrees) leaves out an arc whose middle (-35)
            // is where any limit jumps from one end to the other, as the clamp's nearer end does.
            fc.property(fc.constantFrom(...BONES.filter((b) => b !== HumanBone.Neck)), unitQuat, unitQuat, (bone, a, b) => {
                const prev = new Quaternion();
                const out = new Quaternion();
                limits.softLimitCanonicalToRef(bone, a, prev);
                const steps = 400;
                for (let i = 1; i <= steps; i++) {
                    const q = Quaternion.Slerp(a, b, i / steps);
                    limits.softLimitCanonicalToRef(bone, q, out);
                    // Away from the direction opposite the polygon's centre (where the ease gives way to
                    // the clamp) and from a twist of half a turn (where any twist limit jumps from
                    // one end of its range to the other, as the clamp's nearer end does). Steeper than
                    // 1 where the polygon's reach changes fast with the azimuth (a corner).
                    const t = setup.twistAxis[bone];
                    const d = t.applyRotationQuaternion(q);
                    const c = shapes.bones[bone]!.polygon.center;
                    const step = gap(q, Quaternion.Slerp(a, b, (i - 1) / steps));
                    const twist = Math.abs(SwingTwistDecompose(q, t, null, null));
                    if (d.x * c[0] + d.y * c[1] + d.z * c[2] > -0.5 && twist < 150 * DEG && step > 1e-9) worst = Math.max(worst, gap(out, prev) / step);
                    prev.copyFrom(out);
                }
            }),
            { numRuns: 150, seed: 23 },
        );
        expect(worst).toBeGreaterThan(0.5);
        expect(worst).toBeLessThan(3);
    });

    test("no NaN at the poles: the bone along its centre, opposite it, and twisted half a turn", () => {
        const out = new Quaternion();
        for (const bone of BONES) {
            const t = setup.twistAxis[bone];
            const c = shapes.bones[bone]!.polygon.center;
            const centre = new Vector3(c[0], c[1], c[2]);
            const onCentre = Quaternion.FromUnitVectorsToRef(t, centre, new Quaternion());
            const probes = [
                onCentre,
                Quaternion.FromUnitVectorsToRef(t, centre.scale(-1), new Quaternion()),
                Quaternion.RotationAxis(t, Math.PI),
                onCentre.multiply(Quaternion.RotationAxis(t, -Math.PI + 1e-12)),
            ];
            for (const q of probes) {
                limits.softLimitCanonicalToRef(bone, q, out);
                expect(Number.isFinite(out.x + out.y + out.z + out.w)).toBe(true);
                expect(limits.isCanonicalInside(bone, out)).toBe(true);
            }
        }
    });
});
