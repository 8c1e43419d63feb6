import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    BuildHumanoidAvatar,
    GetCurveTolerance,
    HumanBone,
    MuscleCurveNames,
    MuscleSetup,
    SplineSlopesToRef,
    TRUNK_CLIP_CURVES,
    type MuscleClip,
    DEFAULT_TOLERANCE_DEG,
} from "../../src/index.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync, LoadRigFromFileAsync } from "../../src/node/index.js";
import { HermiteValueAt } from "../helpers/splineOracle.js";
import { RecordHumanoidRetarget } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { JointPathJerk } from "../helpers/jointJerk.js";

const JUMP = "bvh/animated_drawings/fair1_jumping_8yo.bvh";
const CMU = "bvh/cmu_cgspeed/cmu_walk.bvh";

describeWithData("the trunk's curves on shared key frames (real mocap)", () => {
    it("keys the trunk's moving curves on the same frames, and the rest on frames of their own", async () => {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile(JUMP)))[0].clip;
        const framesOf = (name: string): string => Array.from(clip.curves[MuscleCurveNames.indexOf(name)].frames).join(",");
        const shared = framesOf("Spine Front-Back");
        // The root too: played in place, the body is the body less the root.
        for (const name of ["Chest Left-Right", "Head Nod Down-Up", "bodyPosition.y", "bodyRotation.w", "hips.position.x", "hips.turn.z", "root.x", "root.yaw"])
            expect(framesOf(name)).toBe(shared);
        expect(framesOf("Left Arm Down-Up")).not.toBe(shared);
        // Not every frame: a reduction still (the clip has 654 frames).
        expect(clip.curves[MuscleCurveNames.indexOf("Spine Front-Back")].frames.length).toBeLessThan(654 / 3);
    });

    it("keeps every curve, smoothed and keyed, the trunk's together, within its tolerance of the samples", async () => {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile(JUMP)))[0].clip;
        // The samples the reduction starts from: every frame, the source denoised as the default conversion denoises it.
        const exact = (await ConvertFileToMuscleClipsAsync(dataFile(JUMP), { toleranceDeg: 0, denoiseToleranceDeg: DEFAULT_TOLERANCE_DEG }))[0].clip;
        const setup = MuscleSetup.For(BuildHumanoidAvatar((await LoadRigFromFileAsync(dataFile(JUMP))).rig));
        expect(clip.proportions!.trunkSteadyPoint).toBeGreaterThan(0);
        /** A curve's value at a frame, in its own unit (angle units for muscles), as the clip's spline puts it. */
        const at = (c: MuscleClip, curve: number): ((f: number) => number) => {
            const { frames, values } = c.curves[curve];
            const slopes = SplineSlopesToRef(frames, values, new Float64Array(frames.length));
            return (f) => HermiteValueAt(frames, values, slopes, f);
        };
        let trunkMoved = 0;
        for (let c = 0; c < clip.curves.length; c++) {
            const tolerance = GetCurveTolerance(setup, c, clip.toleranceDeg);
            const ours = at(clip, c);
            const samples = at(exact, c);
            let worst = 0;
            for (let f = 0; f < clip.frameCount; f++) {
                const s = samples(f);
                const d = Math.abs(ours(f) - s);
                expect(d).toBeLessThanOrEqual(tolerance * (1 + 1e-6) + 4e-7 * Math.abs(s));
                worst = Math.max(worst, d / tolerance);
            }
            // The trunk's curves on shared keys, smoothed together and keyed together, too.
            if (TRUNK_CLIP_CURVES.includes(c)) trunkMoved = Math.max(trunkMoved, worst);
        }
        // Not a vacuous check: the trunk's curves come well into their tolerance (half of it, measured).
        expect(trunkMoved).toBeGreaterThan(0.25);
    });

    it("keys a curve that one value holds within its whole tolerance once, the trunk's on shared keys aside", async () => {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile(JUMP)))[0].clip;
        // The samples the reduction starts from: every frame, the source denoised as the default conversion denoises it.
        const exact = (await ConvertFileToMuscleClipsAsync(dataFile(JUMP), { toleranceDeg: 0, denoiseToleranceDeg: DEFAULT_TOLERANCE_DEG }))[0].clip;
        const setup = MuscleSetup.For(BuildHumanoidAvatar((await LoadRigFromFileAsync(dataFile(JUMP))).rig));
        let held = 0;
        let moving = 0;
        for (let c = 0; c < clip.curves.length; c++) {
            if (TRUNK_CLIP_CURVES.includes(c)) continue;
            // Tolerance 0 keys every frame that moves (its values are the samples, as float32).
            const { frames, values } = exact.curves[c];
            const slopes = SplineSlopesToRef(frames, values, new Float64Array(frames.length));
            const samples = Array.from({ length: clip.frameCount }, (_, f) => HermiteValueAt(frames, values, slopes, f));
            const range = Math.max(...samples) - Math.min(...samples);
            const tolerance = GetCurveTolerance(setup, c, clip.toleranceDeg);
            // Clear of the edge either side, where float32 rounding of the samples decides.
            if (range < 2 * tolerance * (1 - 1e-4)) {
                expect([MuscleCurveNames[c], clip.curves[c].frames.length]).toEqual([MuscleCurveNames[c], 1]);
                held++;
            } else if (range > 2 * tolerance * (1 + 1e-4)) {
                expect([MuscleCurveNames[c], clip.curves[c].frames.length]).not.toEqual([MuscleCurveNames[c], 1]);
                moving++;
            }
        }
        // Both kinds are there (measured: about half the curves of a mocap take hold still).
        expect(held).toBeGreaterThan(10);
        expect(moving).toBeGreaterThan(10);
    });

    it("the child's jump onto the CMU skeleton: its head jerks as little as with every frame kept, a third less than with each curve keyed on its own", async () => {
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile(CMU));
        const scene = new Scene(new NullEngine());
        const nodes = CreateTransformNodesFromRig(target.avatar.rig, scene).nodes;
        const head = target.avatar.getJoint(HumanBone.Head);
        /** RMS third difference of the head's path (metres). */
        const headJerk = (c: MuscleClip): number => JointPathJerk(RecordHumanoidRetarget(c, target.avatar, nodes).positions, head);
        const convert = async (options: { shareTrunkKeys?: boolean; toleranceDeg?: number }): Promise<number> =>
            headJerk((await ConvertFileToMuscleClipsAsync(dataFile(JUMP), options))[0].clip);
        const shared = await convert({});
        const own = await convert({ shareTrunkKeys: false });
        const exact = await convert({ toleranceDeg: 0 });
        // Measured: shared 0.67x own, 0.91x exact.
        expect(shared).toBeLessThan(0.8 * own);
        expect(shared).toBeLessThan(1.05 * exact);
        scene.getEngine().dispose();
        target.loaded.dispose();
    });
});
