import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import { BuildHumanoidAvatar, BuildSampleRig, HumanBone, HumanoidAnimator, HumanoidError, SampleCharacters } from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { BakeMuscleClipToAnimationGroup, CreateBakeStats } from "../../src/plugin/bake.js";
import { sampleWalkClip } from "../helpers/retargetFixtures.js";

// The bake under `babylon-humanoid retarget`: a muscle clip keyed onto a character's nodes as an animation group.

describe("BakeMuscleClipToAnimationGroup", () => {
    const clip = sampleWalkClip(0);

    function character(index: number): { scene: Scene; nodes: readonly TransformNode[]; root: TransformNode; avatar: ReturnType<typeof BuildHumanoidAvatar> } {
        const scene = new Scene(new NullEngine());
        const rig = BuildSampleRig(SampleCharacters[index]);
        const { root, nodes } = CreateTransformNodesFromRig(rig, scene);
        return { scene, nodes, root, avatar: BuildHumanoidAvatar(rig) };
    }

    it("keys every written node at whole frames, as the animator poses them, and puts the nodes back", () => {
        const { scene, nodes, avatar } = character(1);
        const before = nodes.map((n) => ({ q: n.rotationQuaternion!.clone(), p: n.position.clone(), qObject: n.rotationQuaternion }));
        const stats = CreateBakeStats();
        const group = BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, stats });
        expect(group.name).toBe(clip.name);
        expect(scene.animationGroups).toContain(group);
        expect(group.from).toBe(0);
        expect(group.to).toBe(clip.frameCount - 1);
        expect(stats.frames).toBe(clip.frameCount);
        expect(stats.frameRate).toBe(clip.frameRate);
        expect(stats.durationSeconds).toBeCloseTo(clip.durationSeconds, 9);
        expect(stats.maxStretch).toBeGreaterThanOrEqual(1);
        expect(stats.maxStretch).toBeLessThanOrEqual(1.05 + 1e-9);
        expect(stats.maxFootErrorMetres).toBeLessThan(0.01);
        expect(stats.animationCount).toBe(group.targetedAnimations.length);
        // Nodes are as before, same objects.
        nodes.forEach((n, i) => {
            expect(n.rotationQuaternion).toBe(before[i].qObject);
            expect(n.rotationQuaternion!.equalsWithEpsilon(before[i].q, 0)).toBe(true);
            expect(n.position.equalsWithEpsilon(before[i].p, 0)).toBe(true);
        });
        // Hips travel (clip mode): a position track on the hips node; every key at a whole frame, at the clip's rate.
        const hips = nodes[avatar.getJoint(HumanBone.Hips)];
        const hipsPosition = group.targetedAnimations.find((ta) => ta.target === hips && ta.animation.targetProperty === "position")!;
        expect(hipsPosition).toBeDefined();
        const hk = hipsPosition.animation.getKeys();
        expect(Vector3.Distance(hk[0].value, hk[hk.length - 1].value)).toBeGreaterThan(1);
        for (const ta of group.targetedAnimations) {
            expect(ta.animation.framePerSecond).toBe(clip.frameRate);
            const keys = ta.animation.getKeys();
            expect(keys).toHaveLength(clip.frameCount);
            keys.forEach((k, f) => expect(k.frame).toBe(f));
            // Quaternion keys stay in one hemisphere from key to key.
            if (ta.animation.targetProperty === "rotationQuaternion") {
                for (let f = 1; f < keys.length; f++) expect(Quaternion.Dot(keys[f - 1].value, keys[f].value)).toBeGreaterThanOrEqual(0);
            }
        }
        // Every key is what the animator writes at that frame.
        const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
        animator.play(clip, { loop: false });
        for (let f = 0; f < clip.frameCount; f++) {
            animator.update(f === 0 ? 0 : 1 / clip.frameRate);
            for (const ta of group.targetedAnimations) {
                const node = ta.target as TransformNode;
                const v = ta.animation.getKeys()[f].value;
                if (ta.animation.targetProperty === "position") expect(Vector3.Distance(v, node.position)).toBeLessThan(1e-12);
                else expect(Math.abs(Quaternion.Dot(v, node.rotationQuaternion!))).toBeCloseTo(1, 12);
            }
        }
        scene.getEngine().dispose();
    });

    it("leaves the travel out in place, and moves (and keys) the root node in 'apply' mode", () => {
        const { scene, nodes, root, avatar } = character(0);
        const hips = nodes[avatar.getJoint(HumanBone.Hips)];
        const travel = (g: AnimationGroup, target: TransformNode): number => {
            const ta = g.targetedAnimations.find((t) => t.target === target && t.animation.targetProperty === "position");
            if (!ta) return 0;
            const k = ta.animation.getKeys();
            return Math.hypot(k[k.length - 1].value.x - k[0].value.x, k[k.length - 1].value.z - k[0].value.z);
        };
        const inPlace = BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, rootMotion: "in-place", name: "in place" });
        expect(travel(inPlace, hips)).toBeLessThan(0.1);
        expect(inPlace.targetedAnimations.some((t) => t.target === root)).toBe(false);
        const apply = BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, rootMotion: "apply", name: "apply" });
        expect(travel(apply, root)).toBeGreaterThan(1);
        expect(apply.targetedAnimations.filter((t) => t.target === root).map((t) => t.animation.targetProperty)).toEqual(["rotationQuaternion", "position"]);
        expect(root.position.length()).toBe(0);
        scene.getEngine().dispose();
    });

    it("keys at another rate, one more frame holding the end when the length is not whole", () => {
        const { scene, nodes, avatar } = character(2);
        const stats = CreateBakeStats();
        // 2.2 s at 24 fps = 52.8 frames: 0..53, the last holding the end.
        const group = BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, frameRate: 24, stats });
        expect(stats.frames).toBe(54);
        expect(group.to).toBe(53);
        expect(group.targetedAnimations[0].animation.framePerSecond).toBe(24);
        scene.getEngine().dispose();
    });

    it("rejects bad options by name and changes nothing", () => {
        const { scene, nodes, avatar } = character(0);
        const groups = scene.animationGroups.length;
        const err = (o: object): HumanoidError => {
            try {
                BakeMuscleClipToAnimationGroup(clip, avatar, { targets: nodes, ...o });
            } catch (e) {
                expect(e).toBeInstanceOf(HumanoidError);
                return e as HumanoidError;
            }
            throw new Error("expected a HumanoidError");
        };
        expect(err({ frameRate: 0 }).message).toMatch(/frameRate must be .* \(got 0\)/);
        expect(err({ rootMotion: "delta" }).message).toMatch(/rootMotion must be "clip", "in-place" or "apply" for a bake \(got "delta"\)/);
        expect(err({ stretch: 2 }).message).toMatch(/stretch\.legs must be .* \(got 2\)/);
        expect(err({ targets: nodes.slice(1) }).code).toBe("BAD_OPTION");
        expect(scene.animationGroups.length).toBe(groups);
        const rest = BuildSampleRig(SampleCharacters[0]).joints;
        nodes.forEach((n, i) => expect(n.rotationQuaternion!.equalsWithEpsilon(rest[i].restRotation, 1e-12)).toBe(true));
        scene.getEngine().dispose();
    });
});
