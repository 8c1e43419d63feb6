import { join } from "node:path";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ConvertFileToMuscleClipsAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import {
    cli,
    closeRetargetScratch,
    expectSameMotionAsync,
    GLTF_LOADER_FPS,
    loadWrittenGlbAsync,
    openRetargetScratch,
    worldOf,
} from "../helpers/retargetFixtures.js";

// The options of `babylon-humanoid retarget` that change the motion it bakes: --keep-floor-tilt and --proportions.

let dir: string;
beforeAll(() => {
    dir = openRetargetScratch();
});
afterAll(() => closeRetargetScratch(dir));

describeWithData("babylon-humanoid retarget on real files", () => {
    it("--keep-floor-tilt bakes the CMU walk with its floor as it is: the clip converted with levelFloor false", async () => {
        const bvh = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const xbot = dataFile("glb/mixamo_xbot.glb");
        const out = join(dir, "cmu_walk-kept-on-xbot.glb");
        const r = cli("retarget", bvh, "--onto", xbot, "-o", out, "--keep-floor-tilt");
        expect(r.code).toBe(0);
        expect(r.stdout).not.toMatch(/floor under the take/);
        const [{ clip }] = await ConvertFileToMuscleClipsAsync(bvh, { levelFloor: false });
        await expectSameMotionAsync(clip, xbot, out);
    });

    it("--proportions com bakes Mecanim's centre-of-mass rule: the CMU walk on the short-legged mannequin as the live animator plays it with 'com', unlike 'legs'", async () => {
        const bvh = dataFile("bvh/cmu_cgspeed/cmu_walk.bvh");
        const manny = dataFile("glb/kaykit_mannequin/manny_med_mod.gltf");
        const [{ clip }] = await ConvertFileToMuscleClipsAsync(bvh);
        const feetAt = async (file: string): Promise<Vector3[]> => {
            const scene = new Scene(new NullEngine());
            try {
                const container = await loadWrittenGlbAsync(file, scene);
                const group = container.animationGroups[0];
                group.start(false);
                group.pause();
                group.goToFrame((clip.frameCount / 2 / clip.frameRate) * GLTF_LOADER_FPS);
                return ["foot.l", "foot.r"].map((n) => worldOf(scene.getTransformNodeByName(n)!).clone());
            } finally {
                scene.dispose();
                scene.getEngine().dispose();
            }
        };
        const written: Record<string, Vector3[]> = {};
        for (const mode of ["com", "legs"] as const) {
            const out = join(dir, `cmu_walk-on-manny-${mode}.glb`);
            const r = cli("retarget", bvh, "--onto", manny, "-o", out, "--proportions", mode);
            expect(r.stderr).toBe("");
            expect(r.code).toBe(0);
            await expectSameMotionAsync(clip, manny, out, { rootMotion: "clip", proportions: mode });
            written[mode] = await feetAt(out);
        }
        // The two rules put the feet apart: 'com' scales the stride by the centre of mass's height,
        // which on this chibi (legs 0.53 of it) is further than its legs reach.
        const apart = Math.max(...[0, 1].map((s) => Vector3.Distance(written.com[s], written.legs[s])));
        expect(apart).toBeGreaterThan(0.02);
    }, 120_000);
});
