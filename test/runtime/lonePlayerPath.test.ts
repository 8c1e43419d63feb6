import { BuildHumanoidAvatar, BuildSampleRig, ConvertRigPosesToMuscleClip, HumanoidClipPlayer, SampleCharacters, type HumanPose } from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";

/** Every number of a pose, in one array (muscles, body, hips, goals, translations). */
function numbers(p: HumanPose): number[] {
    const out = [...p.values];
    const v = (x: { x: number; y: number; z: number }): void => void out.push(x.x, x.y, x.z);
    const q = (x: { x: number; y: number; z: number; w: number }): void => void out.push(x.x, x.y, x.z, x.w);
    v(p.bodyPosition);
    q(p.bodyRotation);
    v(p.hipsPosition);
    q(p.hipsRotation);
    p.goalPositions.forEach(v);
    p.goalRotations.forEach(q);
    p.translations.forEach(v);
    return out;
}

describe("a lone clip is sampled straight into the player's pose", () => {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    const walk = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30));

    test.each(["in-place", "apply", "clip"] as const)(
        "root motion %s: the same pose, root motion and contacts to the bit as through the blend, through loops, a mirrored clip and cross-fades",
        (rootMotion) => {
            // `lone` takes the direct path whenever one clip plays; `blended` always blends, since an
            // upper layer holds a clip of weight (its mask drives no part, so it changes nothing).
            const lone = new HumanoidClipPlayer(rootMotion);
            const blended = new HumanoidClipPlayer(rootMotion);
            const top = blended.addLayer(1, []);
            blended.play(walk, { loop: true, startSeconds: 0.3 }, top);
            const both = (f: (p: HumanoidClipPlayer) => void): void => {
                f(lone);
                f(blended);
            };
            both((p) => p.play(walk, { loop: true }));
            let lonePaths = 0;
            const steps: [number, (() => void) | null][] = [
                [0, null],
                ...Array.from({ length: 90 }, (): [number, null] => [1 / 30, null]),
                [0.05, () => both((p) => p.crossFade(walk, 0.4, { loop: true, mirror: true, startSeconds: 1 }))],
                ...Array.from({ length: 40 }, (): [number, null] => [1 / 30, null]),
                [0.7, null], // a long step across a loop
                [1 / 30, () => both((p) => p.crossFade(walk, 0.2, { loop: false, speed: -1, startSeconds: 2 }))],
                ...Array.from({ length: 80 }, (): [number, null] => [1 / 30, null]),
            ];
            for (const [dt, before] of steps) {
                before?.();
                expect(lone.update(dt)).toBe(blended.update(dt));
                const playing = lone.layers[0].states.filter((s) => s.clip && s.weight * s.fade > 0).length;
                if (playing === 1) lonePaths++;
                expect(numbers(lone.pose)).toEqual(numbers(blended.pose));
                expect([...lone.rootDelta]).toEqual([...blended.rootDelta]);
                expect([...lone.groundRoot]).toEqual([...blended.groundRoot]);
                expect(lone.contacts).toBe(blended.contacts);
            }
            // Both paths were taken: the lone one, and the blend during the cross-fades.
            expect(lonePaths).toBeGreaterThan(150);
            expect(lonePaths).toBeLessThan(steps.length - 10);
        },
    );
});
