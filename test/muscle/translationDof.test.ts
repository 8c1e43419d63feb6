import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import {
    BuildHumanoidAvatar,
    ComputeRigWorldPose,
    ConvertRigPosesToMuscleClip,
    GetRigRestPose,
    HumanBone,
    HumanoidAnimator,
    HumanPose,
    type HumanoidAvatar,
    type IRigPoseSource,
    type MuscleClip,
} from "../../src/index.js";
import { ParseMuscleClipJson, SerializeMuscleClipToJson } from "../../src/clip/clipFileJson.js";
import { ParseMuscleClipBinary, SerializeMuscleClipToBinary } from "../../src/clip/clipFileBinary.js";
import { CURVE_TRANSLATIONS } from "../../src/clip/muscleClip.js";
import { MuscleClipSampler } from "../../src/clip/clipSampler.js";
import { AnimationGroupPoseSource } from "../../src/io/animationGroupClip.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../../src/muscle/decode.js";
import { EncodeHumanPose } from "../../src/muscle/encode.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { TRANSLATION_DOF_COUNT, TranslationDofBones, TranslationDofMirrors, TranslationDofNames } from "../../src/muscle/translationDof.js";
import { LoadHumanoidAvatarFromFileAsync, LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

/**
 * Translation DoF: the KayKit clips move the hip joints (upper legs, up to 10 cm) and the shoulder
 * joints (upper arms of a rig with no shoulder bones, 6 cm) about as their style, which a
 * rotation-only muscle space loses on every character, its own included (the crawl on its own
 * rig was 4.7 deg off on every limb). Here: the offsets round-trip exactly, survive the clip
 * files, and the runtime plays them; without them the same clip is centimetres off.
 */
describeWithData("translation degrees of freedom on the KayKit crawl", () => {
    Logger.LogLevels = Logger.ErrorLogLevel;
    const file = dataFile("glb/kaykit_anims/Med_MovementAdvanced.glb");
    let avatar: HumanoidAvatar;
    let poses: IRigPoseSource;
    let clip: MuscleClip;
    let dispose: () => void;

    beforeAll(async () => {
        const loaded = await LoadRigFromFileAsync(file);
        dispose = loaded.dispose;
        avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
        const group = loaded.container!.animationGroups.find((g) => g.name === "Rig_Medium|Crawling")!;
        poses = new AnimationGroupPoseSource(group, avatar, file);
        clip = ConvertRigPosesToMuscleClip(avatar, poses, { toleranceDeg: 0 });
    });
    afterAll(() => dispose?.());

    /** Largest distance between the mapped joints of two rig poses of the avatar (metres), each relative to its hips. */
    const jointGap = (a: ReturnType<typeof ComputeRigWorldPose>, b: ReturnType<typeof ComputeRigWorldPose>): number => {
        const hips = avatar.getJoint(HumanBone.Hips);
        let worst = 0;
        for (let bone = 0; bone < 55; bone++) {
            const j = avatar.getJoint(bone as HumanBone);
            if (j < 0) continue;
            const d = a.positions[j].subtract(a.positions[hips]).subtract(b.positions[j].subtract(b.positions[hips]));
            worst = Math.max(worst, d.length());
        }
        return worst;
    };

    it("encodes the source's translations and decodes them back exactly (joints within a micrometre)", () => {
        const setup = MuscleSetup.For(avatar);
        const pose = GetRigRestPose(avatar.rig);
        const human = new HumanPose();
        const out = CreateReferenceRigPose(avatar);
        let worst = 0;
        let most = 0;
        let dropped = 0;
        for (let f = 0; f < clip.frameCount; f++) {
            poses.samplePoseToRef(f / clip.frameRate, pose);
            EncodeHumanPose(avatar, pose, human);
            for (const t of human.translations) most = Math.max(most, t.length());
            DecodeHumanPose(avatar, human, out);
            const source = ComputeRigWorldPose(avatar.rig, pose);
            worst = Math.max(worst, jointGap(source, ComputeRigWorldPose(avatar.rig, out)));
            // The same pose with the translations left out: what a rotation-only muscle space gives.
            for (const t of human.translations) t.setAll(0);
            DecodeHumanPose(avatar, human, out);
            dropped = Math.max(dropped, jointGap(source, ComputeRigWorldPose(avatar.rig, out)));
        }
        // The clip does move joints (the upper arms by several centimetres, in avatar scales)...
        expect(most * setup.scale).toBeGreaterThan(0.03);
        // ...which rotations alone cannot give...
        expect(dropped).toBeGreaterThan(0.03);
        // ...and the translations give back to a micrometre.
        expect(worst).toBeLessThan(1e-5);
    });

    it("keeps the translation curves in both file formats (version 4) and reads older files as none", () => {
        expect(clip.hasTranslations).toBe(true);
        const sampler = new MuscleClipSampler(clip);
        const expected = sampler.sampleFrameToRef(12, new HumanPose());
        for (const read of [
            ParseMuscleClipJson(SerializeMuscleClipToJson(clip), "crawl.muscle.json"),
            ParseMuscleClipBinary(SerializeMuscleClipToBinary(clip), "crawl.muscle.bin"),
        ]) {
            const got = new MuscleClipSampler(read).sampleFrameToRef(12, new HumanPose());
            for (let t = 0; t < TRANSLATION_DOF_COUNT; t++) expect(Vector3.Distance(got.translations[t], expected.translations[t])).toBeLessThan(1e-5);
        }
        // A version 3 file: the same clip without its translation curves (nor the version 5 trunk, the version 6 leg directions, the version 7 trunk layout, the version 8 muscle unit, the version 10 feet's still ends or the version 11 foot length).
        const json = JSON.parse(SerializeMuscleClipToJson(clip)) as {
            version: number;
            muscleUnit?: string;
            proportions: Record<string, unknown>;
            contacts: Record<string, unknown>;
            curves: Record<string, unknown>;
        };
        json.version = 3;
        delete json.muscleUnit;
        for (const k of ["leftAnkleStill", "rightAnkleStill", "leftToesStill", "rightToesStill"]) delete json.contacts[k];
        delete json.proportions.trunkLength;
        delete json.proportions.trunkSteadyPoint;
        delete json.proportions.thighDirection;
        delete json.proportions.shinDirection;
        delete json.proportions.trunkOffsets;
        delete json.proportions.footLength;
        for (const name of TranslationDofNames) for (const c of ["x", "y", "z"]) delete json.curves[`${name}.${c}`];
        const old = ParseMuscleClipJson(JSON.stringify(json), "crawl-v3.muscle.json");
        expect(old.hasTranslations).toBe(false);
        const got = new MuscleClipSampler(old).sampleFrameToRef(12, new HumanPose());
        for (const t of got.translations) expect(t.length()).toBe(0);
        // ...and a version 3 file that has them is refused, naming the curve.
        json.curves[`${TranslationDofNames[0]}.x`] = { frames: [0], values: [0] };
        expect(() => ParseMuscleClipJson(JSON.stringify(json), "bad.muscle.json")).toThrow(/translation\.spine\.x.*version 3/);
        expect(CURVE_TRANSLATIONS + 3 * TRANSLATION_DOF_COUNT).toBe(clip.curves.length);
    });

    it("plays them on the rig's own nodes: the hip and shoulder joints sway as the source's (translationDoF false: rotations only)", async () => {
        const target = await LoadHumanoidAvatarFromFileAsync(file);
        try {
            const nodes = target.loaded.binding!.nodes;
            const gap = (translationDoF: boolean): number => {
                const animator = new HumanoidAnimator(target.avatar, nodes, { footIK: false, footPlanting: false, rootMotion: "clip", translationDoF });
                animator.play(clip, { loop: false });
                const pose = GetRigRestPose(avatar.rig);
                let worst = 0;
                for (let f = 0; f < clip.frameCount; f++) {
                    animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                    poses.samplePoseToRef(f / clip.frameRate, pose);
                    const source = ComputeRigWorldPose(avatar.rig, pose);
                    const hips = nodes[target.avatar.getJoint(HumanBone.Hips)]!;
                    hips.computeWorldMatrix(true);
                    for (const bone of [HumanBone.LeftUpperLeg, HumanBone.RightUpperLeg, HumanBone.LeftUpperArm, HumanBone.RightUpperArm]) {
                        const node = nodes[target.avatar.getJoint(bone)]!;
                        node.computeWorldMatrix(true);
                        const ours = node.getAbsolutePosition().subtract(hips.getAbsolutePosition());
                        const j = avatar.getJoint(bone);
                        const theirs = source.positions[j].subtract(source.positions[avatar.getJoint(HumanBone.Hips)]);
                        worst = Math.max(worst, Vector3.Distance(ours, theirs));
                    }
                }
                animator.dispose();
                return worst;
            };
            expect(gap(true)).toBeLessThan(1e-4);
            expect(gap(false)).toBeGreaterThan(0.01);
        } finally {
            target.loaded.dispose();
        }
    });
});

describe("translation DoF tables and mirroring", () => {
    it("mirror left and right bones onto each other, centre bones onto themselves", () => {
        TranslationDofBones.forEach((b, s) => {
            const m = TranslationDofMirrors[s];
            expect(m).toBeGreaterThanOrEqual(0);
            expect(TranslationDofMirrors[m]).toBe(s);
            const name = HumanBone[b];
            if (name.startsWith("Left") || name.startsWith("Right")) expect(m).not.toBe(s);
            else expect(m).toBe(s);
        });
    });

    it("a mirrored pose moves the other side's joint the mirror way, and mirroring twice is the identity", () => {
        const pose = new HumanPose();
        pose.translations.forEach((t, s) => t.set(0.01 * (s + 1), -0.02 * s, 0.003 * s * s));
        const once = HumanPose.MirrorToRef(pose, new HumanPose());
        const left = TranslationDofBones.indexOf(HumanBone.LeftUpperLeg);
        const right = TranslationDofBones.indexOf(HumanBone.RightUpperLeg);
        expect(once.translations[right].x).toBeCloseTo(-pose.translations[left].x, 9);
        expect(once.translations[right].y).toBeCloseTo(pose.translations[left].y, 9);
        const twice = HumanPose.MirrorToRef(once, new HumanPose());
        twice.translations.forEach((t, s) => expect(Vector3.Distance(t, pose.translations[s])).toBeLessThan(1e-9));
    });
});
