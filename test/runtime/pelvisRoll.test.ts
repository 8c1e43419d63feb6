import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import fc from "fast-check";
import { BuildHumanoidAvatar, BuildSampleRig, ComputeRigWorldPose, HumanBone, HumanPose, HumanoidRigSolver, SampleCharacters } from "../../src/index.js";
import { HIPS_ROLL_FADE, ScaleHipsRollToRef } from "../../src/muscle/hipsTurn.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { MeasureQualityPairAsync } from "../../src/node/qualityReport.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { PlainHumanoidPoints, RigFromPoints } from "../helpers/rigs.js";
import type { IRig } from "../../src/index.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** The line between a pelvis's hip joints, `q * (1, 0, 0)`. */
const lineOf = (q: Quaternion): Vector3 => new Vector3(1, 0, 0).applyRotationQuaternion(q);

describe("ScaleHipsRollToRef", () => {
    const unitQuaternion = fc
        .tuple(
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
        )
        .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.01)
        .map(([x, y, z, w]) => new Quaternion(x, y, z, w).normalize());

    it("scales the sine of the hip line's rise by the share, faded out for large rolls; its direction across the ground kept", () => {
        fc.assert(
            fc.property(unitQuaternion, fc.double({ min: 0, max: 0.999, noNaN: true }), (q, share) => {
                const out = new Quaternion();
                const line = lineOf(q);
                // A rise under 1e-12 is level for both forms (a quaternion with components of
                // 1e-323 gave a rise of a few denormals in Babylon's line and 0 in the written-out
                // one): left out.
                fc.pre(Math.hypot(line.x, line.z) > 1e-3 && Math.abs(line.y) > 1e-12);
                expect(ScaleHipsRollToRef(q, Float64Array.of(share), out)).toBe(true);
                expect(Math.abs(out.length() - 1)).toBeLessThan(1e-9);
                const scaled = lineOf(out);
                const r = line.y;
                expect(scaled.y).toBeCloseTo(r - (1 - share) * r * Math.exp(-((r / HIPS_ROLL_FADE) ** 2)), 9);
                // Across the ground it points as it did.
                expect(Math.abs(Math.atan2(scaled.z, scaled.x) - Math.atan2(line.z, line.x))).toBeLessThan(1e-6);
                // The least turn: about a level axis square to the line.
                const turn = out.multiply(Quaternion.Inverse(q));
                expect(Math.abs(turn.y)).toBeLessThan(1e-6 + 1e-6 * Math.abs(turn.w));
            }),
        );
    });

    it("keeps a large roll scaled as far as the body stands on its feet (share[1])", () => {
        fc.assert(
            fc.property(unitQuaternion, fc.double({ min: 0, max: 0.999, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (q, share, ground) => {
                const line = lineOf(q);
                fc.pre(Math.hypot(line.x, line.z) > 1e-3 && Math.abs(line.y) > 1e-12);
                const out = new Quaternion();
                expect(ScaleHipsRollToRef(q, Float64Array.of(share, ground), out)).toBe(true);
                const r = line.y;
                const fade = ground + (1 - ground) * Math.exp(-((r / HIPS_ROLL_FADE) ** 2));
                expect(lineOf(out).y).toBeCloseTo(r - (1 - share) * r * fade, 9);
            }),
        );
    });

    it("leaves a share of 1 or more, and a level line, as they are", () => {
        const q = Quaternion.RotationAxis(new Vector3(0, 0, 1), 0.2);
        const out = new Quaternion();
        for (const share of [1, 1.7]) {
            expect(ScaleHipsRollToRef(q, Float64Array.of(share), out)).toBe(false);
            expect(out.equals(q)).toBe(true);
        }
        const level = Quaternion.RotationAxis(new Vector3(0, 1, 0), 0.7);
        expect(ScaleHipsRollToRef(level, Float64Array.of(0.3), out)).toBe(false);
    });
});

/** A solver on a character (default a sample one) told its clip's source had hips of `hipShare` of its leg length, no IK. */
function solverWithSourceHips(hipShare: number, rig: IRig = BuildSampleRig(SampleCharacters[0])): HumanoidRigSolver {
    const solver = new HumanoidRigSolver(BuildHumanoidAvatar(rig));
    solver.sourceProportions.set([0.5, 0.08, hipShare, NaN, NaN, NaN, 0]);
    solver.positionWeights.fill(0);
    return solver;
}

/** The hips rolled 5 degrees about the body's forward (canonical +z), the pose otherwise at rest. */
function rolledPose(): HumanPose {
    const pose = new HumanPose();
    Quaternion.RotationAxisToRef(new Vector3(0, 0, 1), (5 * Math.PI) / 180, pose.hipsRotation);
    return pose;
}

/**
 * `pose` decoded on `rig` (default a sample character) from a source with hips of `hipShare` of
 * its leg length, without a step (a pose set directly: the fade of a large roll applies, `HIPS_ROLL_FADE`):
 * the world pose, the joint of a bone, the hip joints' line's rise out of the ground plane (sine)
 * and the source's hip width, scaled, over this one's.
 */
function decodeRolled(pose: HumanPose, hipShare: number, rig?: IRig) {
    const solver = solverWithSourceHips(hipShare, rig);
    solver.decode(pose);
    const world = ComputeRigWorldPose(solver.avatar.rig, solver.pose);
    const joint = (b: HumanBone): number => solver.avatar.getJoint(b);
    const line = world.positions[joint(HumanBone.RightUpperLeg)].subtract(world.positions[joint(HumanBone.LeftUpperLeg)]);
    const share = (hipShare * solver.positionScale[0]) / MuscleSetup.For(solver.avatar).hipWidth;
    return { avatar: solver.avatar, world, joint, rise: Vector3.Dot(line, solver.avatar.frame.up) / line.length(), share };
}

describe("the pelvis's roll on a character wider at the hips than the source", () => {
    const pose = rolledPose();
    const decoded = (hipShare: number, rig?: IRig) => decodeRolled(pose, hipShare, rig);

    it("rises as the source's hip joints did, scaled; the trunk and legs turned as the source's roll turns them", () => {
        const narrow = decoded(0.05);
        const wide = decoded(0.9);
        expect(narrow.share).toBeLessThan(0.8);
        expect(wide.share).toBeGreaterThan(1);
        const r = Math.sin((5 * Math.PI) / 180);
        // A source as wide or wider: the source's roll as it is.
        expect(Math.abs(wide.rise)).toBeCloseTo(r, 6);
        expect(Math.abs(narrow.rise)).toBeCloseTo(r - (1 - narrow.share) * r * Math.exp(-((r / HIPS_ROLL_FADE) ** 2)), 6);
        // What hangs from the hips has the same world rotations either way.
        for (const b of [HumanBone.Spine, HumanBone.Chest, HumanBone.Head, HumanBone.LeftUpperLeg, HumanBone.RightLowerLeg]) {
            const a = narrow.world.rotations[narrow.joint(b)];
            const c = wide.world.rotations[wide.joint(b)];
            expect([b, Math.abs(Quaternion.Dot(a, c))]).toEqual([b, expect.closeTo(1, 9)]);
        }
    });

    it("leaves a joint no decode writes as it is, however many frames (a tail on the hips)", () => {
        const points = PlainHumanoidPoints();
        points.splice(1, 0, ["Tail", "Hips", 0, 0.85, -0.15]);
        const rig = RigFromPoints("a tail on the hips", points);
        const solver = solverWithSourceHips(0.05, rig);
        const tail = rig.joints.findIndex((j) => j.name === "Tail");
        solver.decode(pose);
        const first = solver.pose.rotations[tail].clone();
        for (let f = 0; f < 50; f++) solver.decode(pose);
        expect(Math.abs(Quaternion.Dot(first, solver.pose.rotations[tail]))).toBeCloseTo(1, 12);
    });
});

describeWithData("the pelvis's roll on a skeleton with joints between the hips and the thighs", () => {
    it("moves the hip joints as the scaled roll says (the joints between turn with the hips) and keeps the legs' and the spine's turns", async () => {
        // The CMU skeleton: LHipJoint and RHipJoint between the hips and the thighs.
        const rig = (await LoadRigFromFileAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"))).rig;
        const narrow = decodeRolled(rolledPose(), 0.05, rig);
        const wide = decodeRolled(rolledPose(), 0.9, rig);
        expect(narrow.avatar.rig.joints[narrow.avatar.rig.joints[narrow.joint(HumanBone.LeftUpperLeg)].parent].name).toBe("LHipJoint");
        expect(narrow.share).toBeLessThan(0.8);
        // The T-pose's hip line is level (the enforcement levels it); the rise is the roll's.
        const r = Math.abs(wide.rise);
        expect(r).toBeGreaterThan(0.05);
        // (Keeping the helpers' world turns, the thighs rose by the source's whole roll: 0.087.)
        expect(Math.abs(narrow.rise)).toBeCloseTo(r - (1 - narrow.share) * r * Math.exp(-((r / HIPS_ROLL_FADE) ** 2)), 3);
        for (const b of [HumanBone.Spine, HumanBone.Chest, HumanBone.LeftUpperLeg, HumanBone.RightUpperLeg, HumanBone.LeftLowerLeg]) {
            const a = narrow.world.rotations[narrow.joint(b)];
            const c = wide.world.rotations[wide.joint(b)];
            expect([b, Math.abs(Quaternion.Dot(a, c))]).toEqual([b, expect.closeTo(1, 9)]);
        }
    });
});

describeWithData("a pelvis rolled over a standing leg, onto a wide pelvis", () => {
    it("keeps the source's legs: the X Bot's agree clip onto the KayKit mannequin", async () => {
        const p = await MeasureQualityPairAsync(dataFile("glb/mixamo_xbot.glb"), dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"), {
            clip: "Armature|Armature|agree_Armature",
            skipAnimatorAvatar: true,
        });
        // The X Bot stands with its pelvis rolled 2-3 degrees over its left leg. Rolled as much,
        // the mannequin's pelvis (nearly as wide as its legs are long) lowered its left hip by 4% of
        // a leg: left thigh 3.3 and shin 4.5 degrees off the source's, planted feet 0.015 leg off
        // the floor. Measured with the roll scaled: 0.26, 0.24 and 0.0014.
        for (const segment of ["left thigh", "left shin", "right thigh", "right shin"])
            expect([segment, p.ours.segmentErrorDeg[segment] < 1]).toEqual([segment, true]);
        expect(p.ours.contactHeightError).toBeLessThan(0.005);
        expect(p.ours.segmentErrorDeg.spine).toBeLessThan(1.2);
    }, 60_000);
});

describe("a large roll over feet on the ground", () => {
    /** The hips rolled `deg` about the body's forward on a sample character, from a source whose hips are 0.05 of its leg wide, with the feet's ground shares `ground` on each decode in turn (one frame of 30 fps each); the hip line's rise (sine) after each. */
    function rises(deg: number, ground: number[]): number[] {
        const solver = solverWithSourceHips(0.05);
        const pose = new HumanPose();
        Quaternion.RotationAxisToRef(new Vector3(0, 0, 1), (deg * Math.PI) / 180, pose.hipsRotation);
        const step = Float64Array.of(1 / 30);
        const world = (): number => {
            const w = ComputeRigWorldPose(solver.avatar.rig, solver.pose);
            const line = w.positions[solver.avatar.getJoint(HumanBone.RightUpperLeg)].subtract(w.positions[solver.avatar.getJoint(HumanBone.LeftUpperLeg)]);
            return Vector3.Dot(line, solver.avatar.frame.up) / line.length();
        };
        return ground.map((g) => {
            solver.footGroundShare.fill(g);
            solver.decode(pose, step);
            return world();
        });
    }

    it("keeps the roll scaled whole while a foot stands (the fade is for a body off the ground: a flying kick, a cartwheel)", () => {
        const r = Math.sin((20 * Math.PI) / 180);
        const [inAir] = rises(20, [0]);
        const [standing] = rises(20, [1]);
        // The source's hip width, scaled, over this one's (after a decode, which sets the scale).
        const solver = solverWithSourceHips(0.05);
        solver.decode(new HumanPose());
        const share = (0.05 * solver.positionScale[0]) / MuscleSetup.For(solver.avatar).hipWidth;
        // Off the ground: the fade lets most of a 20 degree roll through (as before).
        expect(Math.abs(inAir)).toBeCloseTo(r - (1 - share) * r * Math.exp(-((r / HIPS_ROLL_FADE) ** 2)), 6);
        // On it: scaled whole, so the stance does not lift a planted foot with its hip joint (Mixamo's chicken dance onto the KayKit mannequin: 7 cm).
        expect(Math.abs(standing)).toBeLessThan(Math.abs(inAir));
        expect(Math.abs(standing)).toBeCloseTo(share * r, 6);
    });

    it("follows the feet's ground share slowly: a run's flight between two steps barely changes the roll's scale", () => {
        const standing = rises(20, [1, 1, 1, 1]);
        const flight = rises(20, [1, 1, 0, 0, 1, 1]);
        // Two frames of flight at 30 fps move the rise by under a quarter of the way to the air's (all of it, followed at once).
        const [air] = rises(20, [0]);
        expect(Math.abs(flight[3] - standing[3])).toBeLessThan(0.25 * Math.abs(air - standing[3]));
    });
});
