import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import { HumanoidAnimator, type HumanoidAvatar, type MuscleClip } from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/** One character playing one clip: its animator, its joints and the frames it showed. */
interface IPlayer {
    readonly animator: HumanoidAnimator;
    readonly nodes: ReturnType<typeof CreateTransformNodesFromRig>["nodes"];
    readonly clip: MuscleClip;
    readonly frames: Float64Array[];
}

function player(scene: Scene, avatar: HumanoidAvatar, clip: MuscleClip, limits: boolean): IPlayer {
    const nodes = CreateTransformNodesFromRig(avatar.rig, scene).nodes;
    const animator = new HumanoidAnimator(avatar, nodes, { rootMotion: "clip", jointLimits: limits ? "all" : false });
    animator.play(clip, { loop: true });
    return { animator, nodes, clip, frames: [] };
}

/** Advances one frame of its clip and keeps every joint's local rotation and position (what the animator wrote). */
function step(p: IPlayer, f: number): void {
    p.animator.update(f === 0 ? 0 : 1 / p.clip.frameRate);
    const out = new Float64Array(7 * p.nodes.length);
    p.nodes.forEach((n, j) => {
        const q = n.rotationQuaternion!;
        out.set([q.x, q.y, q.z, q.w, n.position.x, n.position.y, n.position.z], 7 * j);
    });
    p.frames.push(out);
}

describeWithData("animators updated in turn pose their characters exactly as each alone", () => {
    // The runtime's per-call scratch (the solver's, the body placement's, the limb IK's, the
    // limits', the writer's) is held once per module and shared by every animator: nothing of one
    // animator's frame may stay in it for the next. Four characters on two avatars (two sharing
    // one), each with its own clip, updated one after the other every frame, against each played
    // alone: every joint's written rotation and position the same to the bit.
    it("four characters, two avatars, three clips, every joint limit or none", async () => {
        const mannequin = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/kaykit_mannequin/manny_med_mod.gltf"))).avatar;
        const figure = (await LoadHumanoidAvatarFromFileAsync(dataFile("glb/khronos_RiggedFigure.glb"))).avatar;
        const clip = async (file: string): Promise<MuscleClip> => (await ConvertFileToMuscleClipsAsync(dataFile(file)))[0].clip;
        const dance = await clip("bvh/bandai/dataset-1_dance-short_normal_001.bvh");
        const jump = await clip("bvh/animated_drawings/fair1_jumping_8yo.bvh");
        const walk = await clip("bvh/cmu_cgspeed/cmu_walk.bvh");
        const cast: [HumanoidAvatar, MuscleClip, boolean][] = [
            [mannequin, dance, false],
            [mannequin, walk, true],
            [figure, jump, false],
            [figure, dance, true],
        ];
        const frames = 120;
        const scene = new Scene(new NullEngine());
        const together = cast.map(([a, c, l]) => player(scene, a, c, l));
        for (let f = 0; f < frames; f++) for (const p of together) step(p, f);
        for (let k = 0; k < cast.length; k++) {
            const alone = player(scene, ...cast[k]);
            for (let f = 0; f < frames; f++) step(alone, f);
            let differ = 0;
            for (let f = 0; f < frames; f++) {
                const a = alone.frames[f];
                const b = together[k].frames[f];
                for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
            }
            expect({ character: k, differ }).toEqual({ character: k, differ: 0 });
            // The frames are not all alike (the test would pass on a still pose).
            expect(alone.frames[0]).not.toEqual(alone.frames[frames - 1]);
        }
        scene.getEngine().dispose();
    }, 120_000);
});
