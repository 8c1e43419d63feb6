import { Animation } from "@babylonjs/core/Animations/animation.js";
import { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { AnimationGroupPoseSource, BuildHumanoidAvatar, HumanPose } from "../../src/index.js";
import { MuscleClipSampler } from "../../src/clip/clipSampler.js";
import { ConvertFileToMuscleClipsAsync, LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

describeWithData("frames whose figure is scaled to a point", () => {
    // KayKit's spawn from the ground scales the whole figure to 0 in its first two frames: encoded
    // as they were, the body sat on the floor there and jumped up to the hips' height (1.2 m on the
    // X Bot) in one frame. Its spawn from the air scales every bone to 0 there, its trunk keeping
    // its length, and the poses, which drop scale, have the legs pointing up (encoded as they were,
    // the X Bot's legs were 151 degrees from where they point a frame later, its hips dropped by a
    // tenth of their height in one frame): the figure shown at no size.
    it.each(["Spawn_Ground", "Spawn_Air"])("hold the nearest real pose, with a warning: KayKit's %s", async (name) => {
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_General.glb"));
        const clip = clips.map((c) => c.clip).find((c) => c.name === `Rig_Medium|${name}`)!;
        expect(clip).toBeDefined();
        expect(clip.warnings.find((w) => /scaled to a point on 2 frames/.test(w))).toMatch(/frames 0-1 \(held at frame 2\)/);
        const sampler = new MuscleClipSampler(clip);
        const at = (f: number): HumanPose => {
            const pose = new HumanPose();
            sampler.sampleFrameToRef(f, pose);
            return pose;
        };
        const [p0, p1, p2] = [at(0), at(1), at(2)];
        // Within the curves' tolerance (0.1 degree; positions 1.7 mm per CoM height) of frame 2's.
        for (const p of [p0, p1]) {
            expect(p.bodyPosition.subtract(p2.bodyPosition).length()).toBeLessThan(0.01);
            for (let i = 0; i < p.values.length; i++) expect(Math.abs(p.values[i] - p2.values[i])).toBeLessThan(0.01);
        }
        // A clip without such frames says nothing of them.
        expect(clips.some((c) => c.clip.warnings.some((w) => /scaled to a point/.test(w)) && !/Spawn_Ground|Spawn_Air/.test(c.clip.name))).toBe(false);
    });
});

describeWithData("how large a glTF clip shows its figure (AnimationGroupPoseSource.figureScaleAt)", () => {
    it("multiplies the hips' scale and its ancestors', each over its largest key, and leaves other nodes out", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile("glb/kaykit_anims/Med_General.glb"));
        try {
            const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
            const scene = loaded.container!.scene;
            const node = (name: string): TransformNode => loaded.container!.transformNodes.find((n) => n.name === name)!;
            const hips = node("hips");
            const top = node("Rig_Medium");
            expect(hips.isDescendantOf(top)).toBe(true);
            const track = (name: string, prop: string, keys: [number, Vector3 | Quaternion][]): Animation => {
                const a = new Animation(name, prop, 30, prop === "scaling" ? Animation.ANIMATIONTYPE_VECTOR3 : Animation.ANIMATIONTYPE_QUATERNION);
                a.setKeys(keys.map(([frame, value]) => ({ frame, value })));
                return a;
            };
            const s = (k: number): Vector3 => new Vector3(k, k, k);
            // The hips held still: a group must animate one of the avatar's joints.
            const still = (): Animation =>
                track("turn", "rotationQuaternion", [
                    [0, Quaternion.Identity()],
                    [30, Quaternion.Identity()],
                ]);
            const group = new AnimationGroup("scaled", scene);
            group.addTargetedAnimation(still(), hips);
            // The hips grow from nothing over a third of a second.
            group.addTargetedAnimation(
                track("grow", "scaling", [
                    [0, s(0)],
                    [10, s(1)],
                    [30, s(1)],
                ]),
                hips,
            );
            // The top node holds a unit scale of 0.01 (a Mixamo export's Armature): full size.
            group.addTargetedAnimation(
                track("units", "scaling", [
                    [0, s(0.01)],
                    [30, s(0.01)],
                ]),
                top,
            );
            // A prop scaled to nothing (not above the hips): no part of the figure's size.
            group.addTargetedAnimation(
                track("prop", "scaling", [
                    [0, s(0)],
                    [30, s(0)],
                ]),
                node("handslot.l"),
            );
            group.normalize(0, 30);
            const source = new AnimationGroupPoseSource(group, avatar);
            expect(source.figureScaleAt(0)).toBe(0);
            expect(source.figureScaleAt(5 / 30)).toBeCloseTo(0.5, 6);
            expect(source.figureScaleAt(20 / 30)).toBeCloseTo(1, 6);
            // Sampled backwards too (the report samples a clip again after converting it).
            expect(source.figureScaleAt(0)).toBe(0);
            // A clip that scales nothing shows its figure at full size.
            const plain = new AnimationGroup("plain", scene);
            plain.addTargetedAnimation(still(), hips);
            expect(new AnimationGroupPoseSource(plain, avatar).figureScaleAt(0.5)).toBe(1);
        } finally {
            loaded.dispose();
        }
    });
});
