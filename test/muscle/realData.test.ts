import { mkdirSync, writeFileSync } from "node:fs";
import {
    ALL_MUSCLE_COUNT,
    BuildHumanoidAvatar,
    CreateReferenceRigPose,
    DecodeHumanPose,
    EncodeHumanPose,
    GetBvhFramePose,
    HumanBone,
    HumanBoneNames,
    HumanPose,
    MuscleNames,
    Muscles,
    ReadRigPoseFromNodes,
    MuscleSetup,
    type HumanoidAvatar,
    type IRigPose,
} from "../../src/index.js";
import { LoadRigFromFileAsync, type ILoadedRig } from "../../src/node/index.js";
import { dataFile, describeWithData, listDataFiles } from "../helpers/data.js";
import { BodyHeight, ComparePoses, type IPoseDifference } from "../helpers/poseMetrics.js";

const cache = new Map<string, { loaded: ILoadedRig; avatar: HumanoidAvatar }>();
async function load(file: string): Promise<{ loaded: ILoadedRig; avatar: HumanoidAvatar }> {
    let r = cache.get(file);
    if (!r) {
        const loaded = await LoadRigFromFileAsync(dataFile(file));
        r = { loaded, avatar: BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap }) };
        cache.set(file, r);
    }
    return r;
}
afterAll(() => {
    for (const r of cache.values()) r.loaded.dispose();
});

/** Every frame of a file's clips as rig poses: BVH frames, or glTF AnimationGroups at 60 frames per second. */
function* clipFrames(loaded: ILoadedRig): Generator<{ clip: string; frame: number; pose: IRigPose }> {
    if (loaded.bvh) {
        for (let f = 0; f < loaded.bvh.bvh.frameCount; f++) yield { clip: "bvh", frame: f, pose: GetBvhFramePose(loaded.bvh, f) };
        return;
    }
    for (const g of loaded.container?.animationGroups ?? []) {
        g.start(false);
        g.pause();
        for (let f = Math.floor(g.from); f <= g.to; f++) {
            g.goToFrame(f);
            yield { clip: g.name, frame: f, pose: ReadRigPoseFromNodes(loaded.binding!) };
        }
        g.stop();
    }
}

const report: Record<string, unknown> = {};
afterAll(() => {
    mkdirSync("test-artifacts", { recursive: true });
    writeFileSync("test-artifacts/muscle-round-trip.json", JSON.stringify(report, null, 2));
});

describeWithData("muscle space on the real files of ../shared/data", () => {
    const files = listDataFiles();
    it.each(files)("%s: its T-pose is all zero muscles and centre-of-mass height 1", async (file) => {
        const { avatar } = await load(file);
        const p = EncodeHumanPose(avatar, avatar.referencePose, new HumanPose());
        expect(Math.max(...Array.from(p.values).map(Math.abs))).toBeLessThan(1e-3);
        expect(p.bodyPosition.y).toBeCloseTo(1, 6);
    });

    const withClips = files.filter((f) => f.endsWith(".bvh") || /mixamo|kaykit_anims|RiggedFigure|vrma/.test(f));
    it.each(withClips)("%s: every frame of every clip survives encode then decode on its own avatar", async (file) => {
        const { loaded, avatar } = await load(file);
        const hp = new HumanPose();
        const again = new HumanPose();
        const out = CreateReferenceRigPose(avatar);
        const d: IPoseDifference = { swingMaxDeg: 0, swingSumDeg: 0, swingCount: 0, swingWorstBone: -1, twistMaxDeg: 0, hips: 0, com: 0 };
        const height = BodyHeight(avatar);
        const scale = MuscleSetup.For(avatar).scale;
        let com = 0;
        let frames = 0;
        let worst = "";
        for (const { clip, frame, pose } of clipFrames(loaded)) {
            const before = d.swingMaxDeg;
            EncodeHumanPose(avatar, pose, hp);
            DecodeHumanPose(avatar, hp, out);
            ComparePoses(avatar, pose, out, d);
            // The centre of mass as muscle space measures it (joints between mapped bones at rest).
            EncodeHumanPose(avatar, out, again);
            com = Math.max(com, (again.bodyPosition.subtract(hp.bodyPosition).length() * scale) / height);
            if (d.swingMaxDeg > before) worst = `${clip} frame ${frame}`;
            frames++;
        }
        const mean = d.swingSumDeg / d.swingCount;
        report[file] = {
            frames,
            swingMeanDeg: mean,
            swingMaxDeg: d.swingMaxDeg,
            swingWorst: `${HumanBoneNames[d.swingWorstBone]} in ${worst}`,
            twistMaxDeg: d.twistMaxDeg,
            hipsErrorOfHeight: d.hips,
            comErrorOfHeight: com,
            // Centre of mass on the source's own joints: differs where joints between mapped bones
            // (kept at rest by decoding) or translations and scales of bones were animated.
            sourceComDeltaOfHeight: d.com,
        };
        expect(frames).toBeGreaterThan(0);
        expect(mean).toBeLessThanOrEqual(0.1);
        expect(d.swingMaxDeg).toBeLessThanOrEqual(1);
        expect(d.hips).toBeLessThanOrEqual(0.001);
        expect(com).toBeLessThanOrEqual(0.001);
    });
});

/** Bones whose muscles mean the same on both avatars: mapped on both, and the same optional bones around them. */
function comparableMuscles(a: HumanoidAvatar, b: HumanoidAvatar): number[] {
    const B = HumanBone;
    const same = (...bones: HumanBone[]): boolean => bones.every((x) => a.isMapped(x) === b.isMapped(x));
    const trunk = same(B.Chest, B.UpperChest);
    const neck = same(B.Neck);
    const shoulders = same(B.LeftShoulder, B.RightShoulder);
    return Muscles.map((m, i) => i).filter((i) => {
        const bone = Muscles[i].bone;
        if (!a.isMapped(bone) || !b.isMapped(bone)) return false;
        if ([B.Spine, B.Chest, B.UpperChest].includes(bone)) return trunk;
        if ([B.Neck, B.Head].includes(bone)) return neck;
        if ([B.LeftShoulder, B.RightShoulder, B.LeftUpperArm, B.RightUpperArm].includes(bone)) return shoulders;
        return true;
    });
}

describeWithData("muscle space across rigs of different conventions", () => {
    const pairs: Array<[string, string]> = [
        ["bvh/cmu_cgspeed/cmu_walk.bvh", "glb/mixamo_xbot.glb"],
        ["bvh/bandai/dataset-1_walk_normal_001.bvh", "glb/kaykit_mannequin/manny_med_mod.gltf"],
        ["glb/khronos_RiggedFigure.glb", "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"],
        ["bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh", "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"],
        ["bvh/animated_drawings/fair1_zombie_8yo.bvh", "bvh/bandai/dataset-1_run_normal_001.bvh"],
        ["glb/mixamo_xbot.glb", "bvh/cmu_cgspeed/cmu_jump.bvh"],
    ];
    it.each(pairs)("%s -> %s: encode on A, decode on B, encode on B gives the same muscles (poses within the ranges)", async (fa, fb) => {
        const A = await load(fa);
        const B = await load(fb);
        const compare = comparableMuscles(A.avatar, B.avatar);
        const pa = new HumanPose();
        const pb = new HumanPose();
        const rig = CreateReferenceRigPose(B.avatar);
        let n = 0;
        let worst = 0;
        let worstName = "";
        for (const { pose } of clipFrames(A.loaded)) {
            if (n++ % 4) continue;
            EncodeHumanPose(A.avatar, pose, pa);
            for (let i = 0; i < ALL_MUSCLE_COUNT; i++) pa.values[i] = Math.max(-1, Math.min(1, pa.values[i])); // within the ranges
            DecodeHumanPose(B.avatar, pa, rig);
            EncodeHumanPose(B.avatar, rig, pb);
            for (const i of compare) {
                const e = Math.abs(pa.values[i] - pb.values[i]);
                if (e > worst) {
                    worst = e;
                    worstName = MuscleNames[i];
                }
            }
        }
        expect(compare.length).toBeGreaterThan(20);
        expect([worstName, worst]).toEqual([worstName, expect.any(Number)]);
        expect(worst).toBeLessThanOrEqual(1e-3);
    });

    it("finger curl and spread survive a round trip on the Mixamo and VRM rigs, and between them", async () => {
        const mixamo = (await load("glb/mixamo_xbot.glb")).avatar;
        const vrm = (await load("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm")).avatar;
        const p = new HumanPose();
        const fingers = Muscles.map((m, i) => i).filter((i) => Muscles[i].bone >= HumanBone.LeftThumbProximal);
        fingers.forEach((i, k) => (p.values[i] = /Spread|In-Out/.test(MuscleNames[i]) ? 0.5 * Math.sin(k) : -0.3 - 0.5 * Math.abs(Math.cos(k))));
        for (const [a, b] of [
            [mixamo, mixamo],
            [vrm, vrm],
            [mixamo, vrm],
            [vrm, mixamo],
        ]) {
            const onA = EncodeHumanPose(a, DecodeHumanPose(a, p, CreateReferenceRigPose(a)), new HumanPose());
            const onB = EncodeHumanPose(b, DecodeHumanPose(b, onA, CreateReferenceRigPose(b)), new HumanPose());
            for (const i of fingers) {
                expect([MuscleNames[i], Math.abs(onB.values[i] - p.values[i]) < 1e-3]).toEqual([MuscleNames[i], true]);
            }
        }
    });
});
