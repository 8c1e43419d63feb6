import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    AnimationGroupPoseSource,
    BuildHumanoidAvatar,
    BuildSampleRig,
    BvhPoseSource,
    ComputeRigWorldPose,
    ConvertRigPosesToMuscleClip,
    GetRigRestPose,
    HUMAN_BONE_COUNT,
    HumanBone,
    IsDenoisedBone,
    MuscleSetup,
    RigPoseDenoiser,
    SampleCharacters,
    type HumanoidAvatar,
    type IRigPose,
    type IRigPoseSource,
    type IRigWorldPose,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { LoadHumanoidAvatarFromFileAsync, LoadRigFromFileAsync, type ILoadedRig } from "../../src/node/index.js";
import { RecordHumanoidRetarget } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { JointPathJerk } from "../helpers/jointJerk.js";
import { WithSolverNoise } from "../helpers/solverNoise.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

// A child's jump at 120 frames a second (its solver's jitter at the hips and the sockets).
const JUMP = "bvh/animated_drawings/fair1_jumping_8yo.bvh";
const TOLERANCE_DEG = 0.1;
/** The added solver jitter (of the avatar's scale): three hundredths of a millimetre on a metre, well within the bands. */
const AMPLITUDE = 3e-5;

const loadedFiles: ILoadedRig[] = [];
afterAll(() => loadedFiles.forEach((l) => l.dispose()));

async function loadJump(): Promise<{ avatar: HumanoidAvatar; source: BvhPoseSource; frames: number; rate: number }> {
    const loaded = await LoadRigFromFileAsync(dataFile(JUMP));
    loadedFiles.push(loaded);
    const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
    const source = new BvhPoseSource(loaded.bvh!);
    return { avatar, source, frames: loaded.bvh!.bvh.frameCount, rate: source.frameRate };
}

/** The child's jump, every frame's pose as sampled and denoised, and their world poses. */
async function jumpWorlds(): Promise<{
    avatar: HumanoidAvatar;
    setup: MuscleSetup;
    frames: number;
    raw: IRigPose[];
    denoised: IRigPose[];
    rawWorld: IRigWorldPose[];
    newWorld: IRigWorldPose[];
}> {
    const { avatar, source, frames, rate } = await loadJump();
    const { raw, denoised } = framePoses(avatar, source, frames, rate);
    const world = (poses: IRigPose[]): IRigWorldPose[] => poses.map((p) => ComputeRigWorldPose(avatar.rig, p));
    return { avatar, setup: MuscleSetup.For(avatar), frames, raw, denoised, rawWorld: world(raw), newWorld: world(denoised) };
}

/** Every frame's pose of a source, as sampled, and denoised by a denoiser at the tolerance. */
function framePoses(avatar: HumanoidAvatar, source: IRigPoseSource, frames: number, rate: number): { raw: IRigPose[]; denoised: IRigPose[] } {
    const denoiser = new RigPoseDenoiser(avatar, frames, rate, (TOLERANCE_DEG * Math.PI) / 180);
    const sample = (f: number): IRigPose => {
        const pose = GetRigRestPose(avatar.rig);
        source.samplePoseToRef(f / rate, pose);
        return pose;
    };
    const raw = Array.from({ length: frames }, (_, f) => sample(f));
    raw.forEach((p, f) => denoiser.record(f, p));
    denoiser.smooth();
    const denoised = raw.map((_, f) => {
        const p = sample(f);
        denoiser.applyToRef(f, p);
        return p;
    });
    return { raw, denoised };
}

/** The denoised source as a pose source (frames on its grid), for converting it without the converter's own denoising. */
function poseSourceOf(poses: IRigPose[], rate: number, like: IRigPoseSource): IRigPoseSource {
    return {
        name: like.name,
        source: like.source,
        frameRate: rate,
        durationSeconds: (poses.length - 1) / rate,
        warnings: [],
        samplePoseToRef(t: number, result: IRigPose): void {
            const f = Math.min(poses.length - 1, Math.round(t * rate));
            poses[f].rotations.forEach((q, j) => result.rotations[j].copyFrom(q));
            poses[f].positions.forEach((p, j) => result.positions[j].copyFrom(p));
        },
    };
}

describeWithData("the source's joints denoised before encoding (real mocap at 120 frames a second)", () => {
    it("turns no bone's direction by more than twice the tolerance, and takes the jitter out of the joints the solver made up", async () => {
        const { avatar, setup, raw, denoised, rawWorld, newWorld } = await jumpWorlds();
        const worst = worstTurnDegrees(avatar, raw, denoised);
        expect(worst).toBeLessThanOrEqual(2 * TOLERANCE_DEG * (1 + 1e-6));
        // Not a vacuous bound: the bands bind somewhere (the take's sharpest turns).
        expect(worst).toBeGreaterThan(0.5 * TOLERANCE_DEG);
        // The hips (where the solver puts the take's noise) and a shoulder socket: far less jerky.
        const path = (w: typeof rawWorld): Float32Array[] =>
            w.map((x) => {
                const out = new Float32Array(3 * x.positions.length);
                x.positions.forEach((p, j) => p.toArray(out, 3 * j));
                return out;
            });
        const ratios = [HumanBone.Hips, HumanBone.LeftUpperArm, HumanBone.RightUpperLeg].map(
            (bone) => JointPathJerk(path(newWorld), setup.joint[bone]) / JointPathJerk(path(rawWorld), setup.joint[bone]),
        );
        if (process.env.DBG) console.log("joint jerk after / before", ratios);
        // Measured 0.89, 0.96 and 0.85 (the take is clean: its jitter is small).
        for (const r of ratios) expect(r).toBeLessThan(0.98);
    });

    it("keeps what is not a body bone as it hangs from its bone, and the hips within their band", async () => {
        const { avatar, setup, frames, rawWorld, newWorld } = await jumpWorlds();
        const hand = setup.joint[HumanBone.LeftHand];
        const lower = setup.joint[HumanBone.LeftLowerArm];
        const head = setup.joint[HumanBone.Head];
        const neckOrChest = setup.joint[setup.parentBone[HumanBone.Head]];
        const relative = (w: (typeof rawWorld)[number], child: number, parent: number): Quaternion =>
            Quaternion.Inverse(w.rotations[parent]).multiply(w.rotations[child]);
        let moved = 0;
        for (let f = 0; f < frames; f += 7) {
            // A bone with no body child below it (a hand, the head) keeps its turn relative to its parent bone.
            for (const [c, p] of [
                [hand, lower],
                [head, neckOrChest],
            ]) {
                const d = Math.abs(Quaternion.Dot(relative(rawWorld[f], c, p), relative(newWorld[f], c, p)));
                expect(d).toBeGreaterThan(1 - 1e-12);
            }
            moved = Math.max(moved, Vector3.Distance(rawWorld[f].positions[hand], newWorld[f].positions[hand]));
        }
        expect(moved).toBeGreaterThan(0);
        // The hips' own position moves by its band at most (a share of a millimetre on a child's body).
        let hipsMoved = 0;
        for (let f = 0; f < frames; f++)
            hipsMoved = Math.max(
                hipsMoved,
                Vector3.Distance(rawWorld[f].positions[setup.joint[HumanBone.Hips]], newWorld[f].positions[setup.joint[HumanBone.Hips]]),
            );
        expect(hipsMoved).toBeGreaterThan(0);
        // At most the tolerance along the hips' shortest segment (to a thigh, here).
        const shortest = Math.min(
            ...[HumanBone.Spine, HumanBone.LeftUpperLeg, HumanBone.RightUpperLeg].map((b) =>
                Vector3.Distance(avatar.referenceWorld.positions[setup.joint[HumanBone.Hips]], avatar.referenceWorld.positions[setup.joint[b]]),
            ),
        );
        expect(hipsMoved).toBeLessThanOrEqual(((TOLERANCE_DEG * Math.PI) / 180) * shortest * (1 + 1e-9));
    });

    it("is off at a tolerance of 0, and converting the denoised poses as they are is the conversion", async () => {
        const { avatar, source, frames, rate } = await loadJump();
        expect(new RigPoseDenoiser(avatar, frames, rate, 0).isActive).toBe(false);
        expect(new RigPoseDenoiser(avatar, 4, rate, 0.01).isActive).toBe(false);
        expect(new RigPoseDenoiser(avatar, frames, rate, 0.01).isActive).toBe(true);
        const off = ConvertRigPosesToMuscleClip(avatar, source, { denoiseToleranceDeg: 0 });
        const on = ConvertRigPosesToMuscleClip(avatar, source);
        const values = (c: typeof on): string => c.curves.map((x) => Array.from(x.values).join(",")).join(";");
        expect(values(on)).not.toBe(values(off));
        // Off is the conversion of the samples as they are: the same as the denoised poses' conversion only where denoising is off.
        const { denoised } = framePoses(avatar, source, frames, rate);
        const fromDenoised = ConvertRigPosesToMuscleClip(avatar, poseSourceOf(denoised, rate, source), { denoiseToleranceDeg: 0 });
        expect(values(fromDenoised)).toBe(values(on));
    });

    it("a 120 frames a second take onto a character of other proportions: hands and head as smooth as the source's, or nearer", async () => {
        const { avatar, source } = await loadJump();
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/khronos_RiggedFigure.glb"));
        const nodes = target.loaded.binding?.nodes ?? CreateTransformNodesFromRig(target.avatar.rig, new Scene(new NullEngine())).nodes;
        const ratio = (denoise: boolean): number[] => {
            const clip = ConvertRigPosesToMuscleClip(avatar, source, { denoiseToleranceDeg: denoise ? TOLERANCE_DEG : 0 });
            const rec = RecordHumanoidRetarget(clip, target.avatar, nodes, {});
            // The source on its own skeleton, at the clip's frames.
            const pose = GetRigRestPose(avatar.rig);
            const own = Array.from({ length: clip.frameCount }, (_, f) => {
                source.samplePoseToRef(f / clip.frameRate, pose);
                const w = ComputeRigWorldPose(avatar.rig, pose);
                const out = new Float32Array(3 * w.positions.length);
                w.positions.forEach((p, j) => p.toArray(out, 3 * j));
                return out;
            });
            const ss = MuscleSetup.For(avatar).scale;
            const ts = MuscleSetup.For(target.avatar).scale;
            return [HumanBone.LeftHand, HumanBone.RightHand, HumanBone.Head].map(
                (b) => JointPathJerk(rec.positions, target.avatar.getJoint(b)) / ts / (JointPathJerk(own, avatar.getJoint(b)) / ss),
            );
        };
        const before = ratio(false);
        const after = ratio(true);
        if (process.env.DBG) console.log("hands and head over the source's, before and after", before, after);
        after.forEach((r, i) => expect(r).toBeLessThan(before[i]));
    });

    it("takes out a solver's jitter at the hips that the trunk and thighs cancel, and the turns that cancel it (the child's jump)", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile(JUMP));
        loadedFiles.push(loaded);
        const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
        const clean = new BvhPoseSource(loaded.bvh!);
        expectJitterTakenOut(avatar, clean, loaded.bvh!.bvh.frameCount, clean.frameRate);
    });

    it("takes it out of a glTF clip whose hips hang from a turned, scaled armature (the X Bot's)", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        loadedFiles.push(loaded);
        const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
        const hips = MuscleSetup.For(avatar).joint[HumanBone.Hips];
        expect(avatar.rig.joints[hips].parent).toBeGreaterThanOrEqual(0);
        const group = loaded.container!.animationGroups[0];
        const clean = new AnimationGroupPoseSource(group, avatar);
        // Sampled at 120 frames a second, as mocap is.
        const rate = 120;
        const sampled: IRigPoseSource = { ...clean, frameRate: rate, samplePoseToRef: (t, r) => clean.samplePoseToRef(t, r) };
        expectJitterTakenOut(avatar, sampled, Math.floor(clean.durationSeconds * rate) + 1, rate);
    });
});

describe("the source's joints denoised before encoding (the built-in sample walk)", () => {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[1]));
    const rate = 120;
    const walk = new SampleWalkSource(avatar, 2.2, rate);
    const frames = Math.floor(2.2 * rate) + 1;

    it("turns no bone's direction by more than twice the tolerance", () => {
        const { raw, denoised } = framePoses(avatar, WithSolverNoise(walk, avatar, AMPLITUDE * MuscleSetup.For(avatar).scale), frames, rate);
        expect(worstTurnDegrees(avatar, raw, denoised)).toBeLessThanOrEqual(2 * TOLERANCE_DEG * (1 + 1e-9));
    });

    it("takes out a solver's jitter at the hips", () => {
        expectJitterTakenOut(avatar, walk, frames, rate);
    });

    it("turns no bone by more than twice the tolerance on a figure shown smaller than its T-pose (a spawn growing in)", () => {
        // Every joint's world position scaled about the first joint's, from 2% to full size over the first ten frames.
        const growing: IRigPoseSource = {
            ...walk,
            samplePoseToRef(t: number, result: IRigPose): void {
                walk.samplePoseToRef(t, result);
                const k = Math.min(1, 0.02 + (0.98 * t * rate) / 10);
                for (let j = 1; j < result.positions.length; j++) result.positions[j].scaleInPlace(k);
            },
        };
        const { raw, denoised } = framePoses(avatar, growing, frames, rate);
        expect(worstTurnDegrees(avatar, raw, denoised)).toBeLessThanOrEqual(2 * TOLERANCE_DEG * (1 + 1e-9));
    });

    it("counts conversion's progress over both passes, steadily up to every frame", () => {
        const calls: number[] = [];
        ConvertRigPosesToMuscleClip(avatar, walk, { onProgress: (done, total) => calls.push(done / total) });
        expect(calls.length).toBeGreaterThan(2);
        for (let i = 1; i < calls.length; i++) expect(calls[i]).toBeGreaterThanOrEqual(calls[i - 1]);
        expect(calls[calls.length - 1]).toBe(1);
        // The first pass reports too: half of the frames by its end.
        expect(calls.some((c) => c > 0 && c <= 0.5)).toBe(true);
    });
});

/** The most any body bone's direction (to each of its mapped children) turned between two runs of poses, degrees. */
function worstTurnDegrees(avatar: HumanoidAvatar, raw: IRigPose[], denoised: IRigPose[]): number {
    const setup = MuscleSetup.For(avatar);
    const segments: [number, number][] = [];
    for (let b = 1; b < HUMAN_BONE_COUNT; b++) {
        const p = setup.parentBone[b];
        if (setup.joint[b] >= 0 && p >= 0 && IsDenoisedBone(b as HumanBone) && IsDenoisedBone(p as HumanBone)) segments.push([setup.joint[p], setup.joint[b]]);
    }
    let worst = 0;
    const a = new Vector3();
    const b = new Vector3();
    raw.forEach((pose, f) => {
        const w0 = ComputeRigWorldPose(avatar.rig, pose);
        const w1 = ComputeRigWorldPose(avatar.rig, denoised[f]);
        for (const [pj, cj] of segments) {
            w0.positions[cj].subtractToRef(w0.positions[pj], a);
            w1.positions[cj].subtractToRef(w1.positions[pj], b);
            if (a.length() < 1e-9 || b.length() < 1e-9) continue;
            worst = Math.max(worst, (Math.acos(Math.min(1, Vector3.Dot(a.normalize(), b.normalize()))) * 180) / Math.PI);
        }
    });
    return worst;
}

/**
 * A solver's jitter added to a clean take (`WithSolverNoise`: the hips moved, the spine and thighs
 * turned against it) is taken out: the third differences the jitter adds, at the hips, along the
 * spine and a thigh, and at the chest, at most 0.3 of what they were, measured against the clean
 * take denoised alike.
 */
function expectJitterTakenOut(avatar: HumanoidAvatar, clean: IRigPoseSource, frames: number, rate: number): void {
    const setup = MuscleSetup.For(avatar);
    const noisy = WithSolverNoise(clean, avatar, AMPLITUDE * setup.scale);
    const cleanTake = framePoses(avatar, clean, frames, rate);
    const noisyTake = framePoses(avatar, noisy, frames, rate);
    const paths = (poses: IRigPose[]): Float32Array[] =>
        poses.map((p) => {
            const w = ComputeRigWorldPose(avatar.rig, p);
            const out = new Float32Array(3 * w.positions.length);
            w.positions.forEach((x, j) => x.toArray(out, 3 * j));
            return out;
        });
    const [cleanRaw, cleanDenoised, noisyRaw, noisyDenoised] = [cleanTake.raw, cleanTake.denoised, noisyTake.raw, noisyTake.denoised].map(paths);
    /** What the jitter adds to a path: the third differences of the noisy take less the clean one's, of a joint or of a bone's vector to its child. */
    const addedJerk = (noisyPath: Float32Array[], cleanPath: Float32Array[], from: HumanBone, to: HumanBone | null): number => {
        const a = setup.joint[from];
        const b = to === null ? -1 : setup.joint[to];
        const at = (x: Float32Array, k: number): number => (b < 0 ? x[3 * a + k] : x[3 * b + k] - x[3 * a + k]);
        return JointPathJerk(
            noisyPath.map((x, f) => Float32Array.of(at(x, 0) - at(cleanPath[f], 0), at(x, 1) - at(cleanPath[f], 1), at(x, 2) - at(cleanPath[f], 2))),
            0,
        );
    };
    const measured: [HumanBone, HumanBone | null][] = [
        [HumanBone.Hips, null],
        [HumanBone.Spine, HumanBone.Chest],
        [HumanBone.LeftUpperLeg, HumanBone.LeftLowerLeg],
        [HumanBone.Chest, null],
    ];
    for (const [from, to] of measured) {
        const before = addedJerk(noisyRaw, cleanRaw, from, to);
        const after = addedJerk(noisyDenoised, cleanDenoised, from, to);
        if (process.env.DBG) console.log(HumanBone[from], to === null ? "" : HumanBone[to], "added jerk", before, "denoised", after);
        // The premise: the jitter is there (at the chest too: the trunk turns against it from the spine, below the chest).
        expect(before).toBeGreaterThan(0);
        expect(after).toBeLessThan(0.3 * before);
    }
}
