import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    BvhPoseSource,
    ComputeRigWorldPose,
    ConvertBvhToMuscleClip,
    CreateRigFromBvh,
    FootContact,
    GetRigRestPose,
    HumanBone,
    HumanoidError,
    ParseBvh,
    SampleCharacters,
    type HumanoidAvatar,
    type IRigPose,
} from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { CreateAnimationGroupFromRigPoses, CreateTransformNodesFromRig, RigPoseFrameCount } from "../../src/io/rigNodes.js";
import { RetargetWithAnimatorAvatarAsync } from "../../src/node/animatorAvatarBaseline.js";
import type { IBaselineRetarget } from "../../src/node/animatorAvatarBaselineOptions.js";
import { CombineFootSkates, ComputeLegLength, MeasureFootSkate, REFERENCE_LEG_LENGTH, SLIDING_SPEED, type IFootSkate } from "../../src/quality/footSkate.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { errorOfAsync } from "../helpers/errors.js";
import { EditGlbJson } from "../helpers/glbJson.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** A foot track: 3 floats per frame from a function of the frame. */
function track(frames: number, at: (f: number) => [number, number, number]): Float32Array {
    const out = new Float32Array(3 * frames);
    for (let f = 0; f < frames; f++) out.set(at(f), 3 * f);
    return out;
}

describe("MeasureFootSkate", () => {
    const rate = 30;
    const leg = 0.9;

    it("is zero for a planted foot, and ignores vertical motion (a heel lifting)", () => {
        const frames = 31;
        const still = MeasureFootSkate(
            track(frames, (f) => [0.1, 0.05 * Math.sin(f), -0.2]),
            new Uint8Array(frames).fill(1),
            rate,
            leg,
        );
        expect(still.drift).toBe(0);
        expect(still.maxSpeed).toBe(0);
        expect(still.slidingShare).toBe(0);
        expect(still.contactIntervals).toBe(30);
        expect(still.contactSeconds).toBeCloseTo(1, 12);
    });

    it("is the horizontal speed over the leg length for a foot sliding steadily while planted", () => {
        const frames = 61;
        const v = 0.3; // m/s along X and Z together
        const contacts = new Uint8Array(frames).fill(1);
        const r = MeasureFootSkate(
            track(frames, (f) => [((v / Math.SQRT2) * f) / rate, 0.02 * f, ((v / Math.SQRT2) * f) / rate]),
            contacts,
            rate,
            leg,
        );
        expect(r.pathLength).toBeCloseTo(v * 2, 5);
        expect(r.drift).toBeCloseTo(v / leg, 5);
        expect(r.maxSpeed).toBeCloseTo(v, 5);
        expect(r.slidingShare).toBe(0); // 0.3 m/s is below 0.5 m/s for a 0.9 m leg
        // A shorter leg slides at a lower speed: 0.3 m/s is above 0.5 * 0.45 / 0.9.
        const short = MeasureFootSkate(
            track(frames, (f) => [(v * f) / rate, 0, 0]),
            contacts,
            rate,
            0.45,
        );
        expect(short.slidingShare).toBe(1);
        expect(short.drift).toBeCloseTo(v / 0.45, 5);
        expect(SLIDING_SPEED * (0.45 / REFERENCE_LEG_LENGTH)).toBeLessThan(v);
    });

    it("counts only intervals between two contact frames: the swing between two plants is not skating", () => {
        // Planted at x = 0 for frames 0-9, swings to x = 1 over frames 10-19, planted at x = 1 for frames 20-29.
        const frames = 30;
        const x = (f: number): number => (f < 10 ? 0 : f < 20 ? (f - 9) / 11 : 1);
        const contacts = Uint8Array.from({ length: frames }, (_, f) => (f < 10 || f >= 20 ? 1 : 0));
        const r = MeasureFootSkate(
            track(frames, (f) => [x(f), 0, 0]),
            contacts,
            rate,
            leg,
        );
        expect(r.contactIntervals).toBe(18);
        expect(r.drift).toBe(0);
        // A single contact frame gives no interval.
        const lone = MeasureFootSkate(
            track(3, (f) => [f, 0, 0]),
            [0, 1, 0],
            rate,
            leg,
        );
        expect(lone.contactIntervals).toBe(0);
        expect(lone.drift).toBe(0);
    });

    it("takes the point that stays put when given ankle and toes (a foot rolling over its toes)", () => {
        const frames = 11;
        const contacts = new Uint8Array(frames).fill(1);
        const ankle = track(frames, (f) => [0.01 * f, 0.01 * f, 0]);
        const toes = track(frames, () => [0.15, 0, 0]);
        expect(MeasureFootSkate(ankle, contacts, rate, leg).drift).toBeGreaterThan(0.3);
        expect(MeasureFootSkate([ankle, toes], contacts, rate, leg).drift).toBe(0);
    });

    it("measures across any up direction", () => {
        const frames = 11;
        const contacts = new Uint8Array(frames).fill(1);
        // Z-up: motion along Z is vertical, along Y horizontal.
        const z = MeasureFootSkate(
            track(frames, (f) => [0, 0, 0.1 * f]),
            contacts,
            rate,
            leg,
            new Vector3(0, 0, 2),
        );
        expect(z.drift).toBe(0);
        const y = MeasureFootSkate(
            track(frames, (f) => [0, 0.01 * f, 0]),
            contacts,
            rate,
            leg,
            new Vector3(0, 0, 1),
        );
        expect(y.drift).toBeCloseTo((0.01 * rate) / leg, 5);
    });

    it("combines feet as one measure and rejects bad input", () => {
        const contacts = new Uint8Array(11).fill(1);
        const a = MeasureFootSkate(
            track(11, (f) => [0.01 * f, 0, 0]),
            contacts,
            rate,
            leg,
        );
        const b = MeasureFootSkate(
            track(11, () => [0, 0, 0]),
            contacts,
            rate,
            leg,
        );
        const both = CombineFootSkates([a, b]);
        expect(both.drift).toBeCloseTo(a.drift / 2, 9);
        expect(both.contactIntervals).toBe(20);
        expect(both.maxSpeed).toBe(a.maxSpeed);
        const bad: Array<() => unknown> = [
            () => MeasureFootSkate(new Float32Array(9), contacts, 0, leg),
            () => MeasureFootSkate(new Float32Array(9), contacts, rate, -1),
            () => MeasureFootSkate(new Float32Array(9), contacts, rate, leg, Vector3.Zero()),
            () => MeasureFootSkate([], contacts, rate, leg),
            () => CombineFootSkates([]),
            () => CombineFootSkates([a, MeasureFootSkate(new Float32Array(9), contacts, rate, 2 * leg)]),
        ];
        for (const f of bad) expect(f).toThrow(HumanoidError);
    });
});

describe("rig nodes and AnimationGroups from rig poses", () => {
    it("makes one node per joint at the rig's rest, and a group that plays the source's poses on its grid", () => {
        const scene = new Scene(new NullEngine());
        try {
            const rig = BuildSampleRig(SampleCharacters[0]);
            const avatar = BuildHumanoidAvatar(rig);
            const { root, nodes } = CreateTransformNodesFromRig(rig, scene, { prefix: "A_" });
            expect(nodes.length).toBe(rig.joints.length);
            expect(root.name).toBe("A___rig__");
            expect(nodes[0].name).toBe(`A_${rig.joints[0].name || "joint0"}`);
            const rest = ComputeRigWorldPose(rig).positions;
            nodes.forEach((n, i) => expect(Vector3.Distance(n.computeWorldMatrix(true).getTranslation(), rest[i])).toBeLessThan(1e-6));

            const source = new SampleWalkSource(avatar, 1.1, 30);
            const group = CreateAnimationGroupFromRigPoses("walk", nodes, source, rig, scene, { frameRate: 24 });
            const frameCount = RigPoseFrameCount(1.1, 24);
            expect(frameCount).toBe(27);
            expect(group.from).toBe(0);
            expect(group.to).toBe(frameCount - 1);
            // Position tracks only where the local position leaves the rest: the hips.
            const moved = group.targetedAnimations.filter((ta) => ta.animation.targetProperty === "position").map((ta) => ta.target as TransformNode);
            expect(moved).toEqual([nodes[avatar.getJoint(HumanBone.Hips)]]);

            const pose: IRigPose = GetRigRestPose(rig);
            for (const f of [0, 7, frameCount - 1]) {
                for (const ta of group.targetedAnimations) {
                    const value = ta.animation.evaluate(f) as Quaternion | Vector3;
                    if (ta.animation.targetProperty === "position") (ta.target as TransformNode).position.copyFrom(value as Vector3);
                    else (ta.target as TransformNode).rotationQuaternion!.copyFrom(value as Quaternion);
                }
                source.samplePoseToRef(Math.min(f / 24, 1.1), pose);
                const want = ComputeRigWorldPose(rig, pose).positions;
                nodes.forEach((n, i) => expect(Vector3.Distance(n.computeWorldMatrix(true).getTranslation(), want[i])).toBeLessThan(1e-5));
            }
        } finally {
            scene.getEngine().dispose();
        }
    });
});

/** The foot points (ankle, and toes when mapped) of one side, per frame, from a baseline recording. */
function footTracks(r: IBaselineRetarget, side: "left" | "right"): Float32Array[] {
    const bones = side === "left" ? [HumanBone.LeftFoot, HumanBone.LeftToes] : [HumanBone.RightFoot, HumanBone.RightToes];
    return bones
        .map((b) => r.targetAvatar.getJoint(b))
        .filter((j) => j >= 0)
        .map((j) => {
            const out = new Float32Array(3 * r.frameCount);
            r.jointWorldPositions.forEach((p, f) => out.set(p.subarray(3 * j, 3 * j + 3), 3 * f));
            return out;
        });
}

/** Skating of both feet of a recording, with the source clip's contacts (same grid). */
function skateOf(r: IBaselineRetarget, contacts: Uint8Array): IFootSkate {
    const leg = ComputeLegLength(r.targetAvatar);
    return CombineFootSkates([
        MeasureFootSkate(
            footTracks(r, "left"),
            Uint8Array.from(contacts, (c) => c & FootContact.Left),
            r.frameRate,
            leg,
        ),
        MeasureFootSkate(
            footTracks(r, "right"),
            Uint8Array.from(contacts, (c) => c & FootContact.Right),
            r.frameRate,
            leg,
        ),
    ]);
}

/** The source BVH's foot contacts (our conversion) and its own skating on its own skeleton, as a floor. */
function sourceInfo(file: string): { contacts: Uint8Array; frameRate: number; frameCount: number; start: number; own: IFootSkate } {
    const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file));
    const avatar: HumanoidAvatar = BuildHumanoidAvatar(bvh.rig);
    const clip = ConvertBvhToMuscleClip(bvh, avatar);
    const poses = new BvhPoseSource(bvh);
    const pose = GetRigRestPose(bvh.rig);
    const joints = [HumanBone.LeftFoot, HumanBone.LeftToes, HumanBone.RightFoot, HumanBone.RightToes].map((b) => avatar.getJoint(b));
    const tracks = joints.map(() => new Float32Array(3 * clip.frameCount));
    for (let f = 0; f < clip.frameCount; f++) {
        // The source from where the clip starts in it (a T-pose frame 0 left out), as the report reads it.
        poses.samplePoseToRef(Math.min(clip.sourceStartSeconds + f / clip.frameRate, poses.durationSeconds), pose);
        const w = ComputeRigWorldPose(bvh.rig, pose).positions;
        joints.forEach((j, k) => tracks[k].set([w[j].x, w[j].y, w[j].z], 3 * f));
    }
    const leg = ComputeLegLength(avatar);
    const own = CombineFootSkates([
        MeasureFootSkate(
            tracks.slice(0, 2),
            Uint8Array.from(clip.contacts, (c) => c & FootContact.Left),
            clip.frameRate,
            leg,
        ),
        MeasureFootSkate(
            tracks.slice(2),
            Uint8Array.from(clip.contacts, (c) => c & FootContact.Right),
            clip.frameRate,
            leg,
        ),
    ]);
    return { contacts: clip.contacts, frameRate: clip.frameRate, frameCount: clip.frameCount, start: clip.sourceStartSeconds, own };
}

const rows: string[] = [];
const row = (source: string, target: string, s: IFootSkate, extra = ""): void =>
    void rows.push(
        `${source.padEnd(34)} ${target.padEnd(40)} drift ${s.drift.toFixed(3)} leg/s  max ${s.maxSpeed.toFixed(2)} m/s  sliding ${(100 * s.slidingShare).toFixed(1).padStart(5)}%${extra}`,
    );

describeWithData("Babylon's AnimatorAvatar on real files (baseline)", () => {
    afterAll(() => {
        if (rows.length) console.log(`Foot skating (ankle or toes, whichever stays put; drift in leg lengths per contact second):\n${rows.join("\n")}`);
    });

    it("retargets a BVH onto itself exactly, at another frame rate (the recording is faithful)", async () => {
        const file = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const r = await RetargetWithAnimatorAvatarAsync(file, file, { frameRate: 50 });
        try {
            const bvh = CreateRigFromBvh(ParseBvh(readFileSync(file, "utf8"), file));
            const poses = new BvhPoseSource(bvh);
            const pose = GetRigRestPose(bvh.rig);
            expect(r.frameCount).toBe(RigPoseFrameCount(poses.durationSeconds, 50));
            let worst = 0;
            for (let f = 0; f < r.frameCount; f++) {
                poses.samplePoseToRef(Math.min(f / 50, poses.durationSeconds), pose);
                const want = ComputeRigWorldPose(bvh.rig, pose).positions;
                const got = r.jointWorldPositions[f];
                want.forEach((w, j) => (worst = Math.max(worst, Math.hypot(w.x - got[3 * j], w.y - got[3 * j + 1], w.z - got[3 * j + 2]))));
            }
            expect(worst).toBeLessThan(1e-4);
        } finally {
            r.dispose();
        }
    });

    it("retargets the CMU walk onto the X Bot: no NaN, the hips walk, the feet skate a finite, positive amount", async () => {
        const src = "bvh/cmu_cgspeed/cmu_walk.bvh";
        const info = sourceInfo(src);
        const r = await RetargetWithAnimatorAvatarAsync(dataFile(src), dataFile("glb/mixamo_xbot.glb"), { startSeconds: info.start });
        try {
            expect(r.frameRate).toBe(info.frameRate);
            expect(r.frameCount).toBe(info.frameCount);
            expect(r.jointWorldPositions.length).toBe(r.frameCount);
            for (const p of r.jointWorldPositions) {
                expect(p.length).toBe(3 * r.targetAvatar.rig.joints.length);
                expect(p.every(Number.isFinite)).toBe(true);
            }
            expect(r.mappedBones).toEqual(expect.arrayContaining([HumanBone.Hips, HumanBone.LeftUpperLeg, HumanBone.LeftFoot, HumanBone.RightToes]));
            const hips = 3 * r.targetAvatar.getJoint(HumanBone.Hips);
            const a = r.jointWorldPositions[0];
            const b = r.jointWorldPositions[r.frameCount - 1];
            // The CMU walk goes about 3.9 m straight; the X Bot's legs are about as long.
            expect(Math.hypot(b[hips] - a[hips], b[hips + 2] - a[hips + 2])).toBeGreaterThan(2.5);
            // Feet on the ground: the lowest ankle within 15 cm of the T-pose's ankle height.
            const ankle = 3 * r.targetAvatar.getJoint(HumanBone.LeftFoot);
            const lowest = Math.min(...r.jointWorldPositions.map((p) => p[ankle + 1]));
            expect(Math.abs(lowest - r.targetAvatar.referenceWorld.positions[ankle / 3].y)).toBeLessThan(0.15);
            const s = skateOf(r, info.contacts);
            expect(Number.isFinite(s.drift)).toBe(true);
            expect(s.drift).toBeGreaterThan(0);
            expect(s.contactSeconds).toBeGreaterThan(1);
        } finally {
            r.dispose();
        }
    });

    const sources = ["bvh/cmu_cgspeed/cmu_walk.bvh", "bvh/bandai/dataset-1_walk_normal_001.bvh", "bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh"];
    const targets = [
        "glb/mixamo_xbot.glb",
        "glb/kaykit_mannequin/manny_med_mod.gltf",
        "glb/khronos_RiggedFigure.glb",
        "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm",
    ];
    const pairs = sources.flatMap((s) => targets.map((t) => [s, t] as const));
    const infos = new Map<string, ReturnType<typeof sourceInfo>>();

    it.each(pairs)("%s onto %s: finite skating, printed", async (src, tgt) => {
        let info = infos.get(src);
        if (!info) {
            info = sourceInfo(src);
            infos.set(src, info);
            row(src.split("/").pop()!, "(itself, the mocap's own skating)", info.own);
        }
        const r = await RetargetWithAnimatorAvatarAsync(dataFile(src), dataFile(tgt), { startSeconds: info.start });
        try {
            expect(r.frameCount).toBe(info.frameCount);
            expect(r.jointWorldPositions.every((p) => p.every(Number.isFinite))).toBe(true);
            const s = skateOf(r, info.contacts);
            expect(Number.isFinite(s.drift) && s.drift > 0).toBe(true);
            const file = await RetargetWithAnimatorAvatarAsync(dataFile(src), dataFile(tgt), { restPose: "file", startSeconds: info.start });
            let asFile: IFootSkate;
            try {
                asFile = skateOf(file, info.contacts);
            } finally {
                file.dispose();
            }
            row(
                src.split("/").pop()!,
                tgt.split("/").pop()!,
                s,
                `  (files' rests: drift ${asFile.drift.toFixed(3)})  bones ${r.mappedBones.length}, tracks ${r.trackCounts.source} -> ${r.trackCounts.retargeted}`,
            );
        } finally {
            r.dispose();
        }
    });

    it("drives a character whose meshes have a skin each over the same joints (three.js's RobotExpressive) as one with a single skin", async () => {
        // The X Bot's two meshes share one skin; here its surface gets a copy of it: Babylon makes
        // a skeleton per skin, their bones linked to the same joint nodes.
        const dir = mkdtempSync(join(tmpdir(), "baseline-skins-"));
        const twoSkins = join(dir, "xbot_two_skins.glb");
        try {
            EditGlbJson<{ skins: unknown[]; nodes: { name?: string; skin?: number }[] }>(
                dataFile("glb/mixamo_xbot.glb"),
                (json) => {
                    json.skins.push(structuredClone(json.skins[0]));
                    json.nodes.find((n) => n.name === "Beta_Surface")!.skin = 1;
                },
                twoSkins,
            );
            const src = "bvh/cmu_cgspeed/cmu_walk.bvh";
            const info = sourceInfo(src);
            const one = await RetargetWithAnimatorAvatarAsync(dataFile(src), dataFile("glb/mixamo_xbot.glb"), { startSeconds: info.start });
            const two = await RetargetWithAnimatorAvatarAsync(dataFile(src), twoSkins, { startSeconds: info.start });
            try {
                expect(two.mappedBones).toEqual(one.mappedBones);
                expect(two.mappedBones.length).toBeGreaterThan(20);
                expect(two.frameCount).toBe(one.frameCount);
                let worst = 0;
                two.jointWorldPositions.forEach((p, f) => p.forEach((x, i) => (worst = Math.max(worst, Math.abs(x - one.jointWorldPositions[f][i])))));
                expect(worst).toBeLessThan(1e-6);
            } finally {
                one.dispose();
                two.dispose();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it("names the file and the problem in its errors", async () => {
        const walk = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const xbot = dataFile("glb/mixamo_xbot.glb");
        const missing = dataFile("bvh/nope.bvh");
        expect((await errorOfAsync(RetargetWithAnimatorAvatarAsync(missing, xbot))).message).toContain(missing);
        expect((await errorOfAsync(RetargetWithAnimatorAvatarAsync(walk, xbot, { rootFix: "all" as never }))).code).toBe("BAD_OPTION");
        const clip = await errorOfAsync(RetargetWithAnimatorAvatarAsync(xbot, xbot, { clip: "dance" }));
        expect(clip.code).toBe("BAD_OPTION");
        expect(clip.message).toContain("Armature|Armature|walk_Armature");
        const logger = { log: Logger.Log, warn: Logger.Warn };
        await errorOfAsync(RetargetWithAnimatorAvatarAsync(walk, dataFile("glb/nope.glb")));
        expect(Logger.Log).toBe(logger.log);
        expect(Logger.Warn).toBe(logger.warn);
    });
});
