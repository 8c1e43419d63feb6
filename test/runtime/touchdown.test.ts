import { readFileSync } from "node:fs";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    ConvertBvhToMuscleClip,
    CreateRigFromBvh,
    HumanBone,
    HumanoidAnimator,
    ParseBvh,
    type HumanoidAvatar,
    type MuscleClip,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { CONTACT_SPEED } from "../../src/clip/footContacts.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { HumanoidFootPlanting } from "../../src/runtime/footPlanting.js";
import { DEFAULT_TOUCHDOWN_SECONDS } from "../../src/runtime/plantingEases.js";
import { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { PlantingPlayerStub } from "../helpers/plantingPlayer.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/**
 * Plays a clip with planting and returns, per touch-down of a foot landing at some speed, the
 * foot's horizontal speed over the frame after the touch-down as a share of its speed over the frame
 * before (the slower of ankle and toes, as the skating measure takes them).
 */
function speedAfterTouchdown(clip: MuscleClip, avatar: HumanoidAvatar, nodes: readonly TransformNode[], minSpeed: number): number[] {
    const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
    animator.play(clip, { loop: false });
    const feet = [
        [avatar.getJoint(HumanBone.LeftFoot), avatar.getJoint(HumanBone.LeftToes)],
        [avatar.getJoint(HumanBone.RightFoot), avatar.getJoint(HumanBone.RightToes)],
    ].map((js) => js.filter((j) => j >= 0));
    const track: number[][][] = [[], []];
    const landed: number[][] = [[], []];
    const was = [false, false];
    for (let f = 0; f < clip.frameCount; f++) {
        animator.update(f === 0 ? 0 : 1 / clip.frameRate);
        for (const s of [0, 1]) {
            track[s].push(
                feet[s].flatMap((j) => {
                    const n = nodes[j];
                    n.computeWorldMatrix(true);
                    const p = n.getAbsolutePosition();
                    return [p.x, p.z];
                }),
            );
            const now = animator.planting.planted[s];
            if (now && !was[s] && f > 1) landed[s].push(f);
            was[s] = now;
        }
    }
    animator.dispose();
    const speed = (s: number, f: number): number => {
        let v = Infinity;
        for (let i = 0; i < track[s][f].length; i += 2)
            v = Math.min(v, Math.hypot(track[s][f][i] - track[s][f - 1][i], track[s][f][i + 1] - track[s][f - 1][i + 1]) * clip.frameRate);
        return v;
    };
    const shares: number[] = [];
    for (const s of [0, 1])
        for (const f of landed[s]) {
            if (f + 1 >= clip.frameCount) continue;
            const before = speed(s, f);
            if (before > minSpeed) shares.push(speed(s, f + 1) / before);
        }
    return shares;
}

describeWithData("touch-down: a landing foot stops over the landing's time in a finely sampled take, at once in a coarse one", () => {
    test("the child's jump at 120 fps onto the CMU skeleton slows each landing foot over more than a frame; the zombie walk at 30 fps stops at once", () => {
        const scene = new Scene(new NullEngine());
        const target = (): { avatar: HumanoidAvatar; nodes: readonly TransformNode[] } => {
            const file = "bvh/cmu_cgspeed/cmu_walk.bvh";
            const rig = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file)).rig;
            return { avatar: BuildHumanoidAvatar(rig), nodes: CreateTransformNodesFromRig(rig, scene).nodes };
        };
        const clipOf = (file: string): MuscleClip => {
            const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file));
            return ConvertBvhToMuscleClip(bvh, BuildHumanoidAvatar(bvh.rig));
        };
        const { avatar, nodes } = target();
        // Feet landing at over a thirtieth of a leg per second (0.03 m/s on this 0.9 m leg). A contact
        // starts once its foot has stopped slowing down (or is slower than a quarter of the contact
        // speed), so feet land slower than they did when it started on the first low frame: at
        // over a tenth of a leg per second (0.09 m/s) the jump now lands once, and the zombie 20 times.
        const fine = speedAfterTouchdown(clipOf("bvh/animated_drawings/fair1_jumping_8yo.bvh"), avatar, nodes, 0.03);
        const coarse = speedAfterTouchdown(clipOf("bvh/animated_drawings/fair1_zombie_8yo.bvh"), avatar, nodes, 0.03);
        expect(fine.length).toBeGreaterThanOrEqual(4);
        expect(coarse.length).toBeGreaterThanOrEqual(4);
        const mean = (x: number[]): number => x.reduce((a, b) => a + b, 0) / x.length;
        // 120 fps: the hold eases in over 0.025 s less a frame (2 frames): the foot keeps about
        // three quarters of its speed over the first frame (a stop at once: none of it).
        expect(mean(fine)).toBeGreaterThan(0.4);
        // 30 fps: the source's own samples show the stop as a step; the hold stops the foot at once.
        expect(mean(coarse)).toBeLessThan(0.1);
        scene.getEngine().dispose();
    }, 120_000);
});

describeWithData("touch-down: the ease is fixed when the foot lands", () => {
    test("changing touchdownSeconds while a foot eases in leaves its path as it was (the next landing takes the new time)", () => {
        const scene = new Scene(new NullEngine());
        const file = "bvh/cmu_cgspeed/cmu_walk.bvh";
        const rig = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file)).rig;
        const avatar = BuildHumanoidAvatar(rig);
        const nodes = CreateTransformNodesFromRig(rig, scene).nodes;
        const jump = "bvh/animated_drawings/fair1_jumping_8yo.bvh";
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(jump), "utf8"), jump));
        const clip = ConvertBvhToMuscleClip(bvh, BuildHumanoidAvatar(bvh.rig));
        const run = (change: boolean): { feet: number[]; landings: number[] } => {
            const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip" });
            animator.play(clip, { loop: false });
            const feet: number[] = [];
            const landings: number[] = [];
            const was = [false, false];
            for (let f = 0; f < clip.frameCount; f++) {
                animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                for (const s of [0, 1]) {
                    const g = animator.solver.goalPositions[s];
                    feet.push(g.x, g.z);
                    const now = animator.planting.planted[s];
                    if (now && !was[s] && f > 1) {
                        landings.push(f);
                        // Right after the first landing, a much longer stop for the landings to come.
                        if (change && landings.length === 1) animator.planting.touchdownSeconds = 0.2;
                    }
                    was[s] = now;
                }
            }
            animator.dispose();
            return { feet, landings };
        };
        const a = run(false);
        const b = run(true);
        expect(a.landings.length).toBeGreaterThanOrEqual(3);
        expect(b.landings).toEqual(a.landings);
        // Up to the second landing (the first the new time applies to), both feet's goals are the same.
        const upTo = 4 * (a.landings[1] + 1);
        let before = 0;
        for (let i = 0; i < upTo; i++) before = Math.max(before, Math.abs(a.feet[i] - b.feet[i]));
        expect(before).toBe(0);
        // After it the longer stop shows.
        let after = 0;
        for (let i = upTo; i < a.feet.length; i++) after = Math.max(after, Math.abs(a.feet[i] - b.feet[i]));
        expect(after).toBeGreaterThan(1e-4);
        scene.getEngine().dispose();
    }, 120_000);
});

// A foot landing faster than a still one (`CONTACT_SPEED`, in the character's own scales) stops
// over as much longer as it is faster, up to twice the touch-down's time, so its velocity does not
// step: its speed was cut to a still foot's in the landing's frame (a CMU run onto the KayKit
// mannequin, whose short legs landed its feet at 0.8-1.0 scales a second: the feet 2.1-2.3 times
// the source's jerk).
describeWithData("touch-down: a foot landing faster than a still one stops over a longer time, its velocity unbroken", () => {
    const RATE = 120;

    /** Left foot's goal z (the character's scales) per update: moving along z at `speed` of the character's scales a second, down from frame `landing`. */
    async function run(speed: number, landing: number, frames: number): Promise<number[]> {
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"));
        const solver = new HumanoidRigSolver(target.avatar);
        const planting = new HumanoidFootPlanting(target.avatar);
        const scale = MuscleSetup.For(target.avatar).scale;
        // Pose units other than the character's scales (as "legs" maps a source with other legs:
        // each 0.6 of this character's scale), so that a speed measured in the pose's units shows.
        solver.positionScale[0] = 0.6 * scale;
        const stub = PlantingPlayerStub(RATE);
        const out: number[] = [];
        for (let f = 0; f < frames; f++) {
            stub.contacts = (f >= landing ? 1 : 0) | 2;
            // Pose units are the source's scales, positionScale[0] metres each.
            const perPose = scale / solver.positionScale[0];
            for (let s = 0; s < 2; s++) {
                solver.goalPositions[s].set(s ? -0.1 : 0.1, solver.positionScale[1], s ? 0 : (speed * perPose * f) / RATE);
                solver.goalRotations[s].set(0, 0, 0, 1);
            }
            planting.update(stub.player, solver);
            out.push(solver.goalPositions[0].z / perPose);
        }
        return out;
    }

    /** Where a foot landing at `v` (scales a second) with a stop of `ease` seconds at a steady rate is `t` seconds after touch-down, from where it landed. */
    const stopAt = (v: number, ease: number, t: number): number => (t < ease ? v * t * (1 - t / (2 * ease)) : (v * ease) / 2);

    test.each([0.3, 0.8, 3])(
        "landing at %p scales a second: a steady stop over the touch-down's time times its speed over a still foot's, at most twice",
        async (speed) => {
            const landing = 20;
            const z = await run(speed, landing, 40);
            const e0 = DEFAULT_TOUCHDOWN_SECONDS - 1 / RATE;
            const v = Math.min(speed, 2 * CONTACT_SPEED);
            const ease = e0 * Math.max(1, v / CONTACT_SPEED);
            for (let f = landing; f < 40; f++) expect(z[f] - z[landing]).toBeCloseTo(stopAt(v, ease, (f - landing) / RATE), 6);
            // Landing at 0.8, the foot keeps 84% of its speed over the frame after touch-down (its speed
            // was cut to 0.5 of the pose's units in the landing's frame: 28% of it here).
            if (speed === 0.8) expect((z[landing + 1] - z[landing]) * RATE).toBeGreaterThan(0.8 * speed);
        },
        60_000,
    );
});
