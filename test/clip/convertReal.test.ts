import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    AnimationGroupPoseSource,
    BuildHumanoidAvatar,
    BvhPoseSource,
    ComputeRigWorldPose,
    ConvertAnimationGroupToMuscleClip,
    ConvertBvhToMuscleClip,
    CreateReferenceRigPose,
    DecodeHumanPose,
    FootContact,
    HUMAN_BONE_COUNT,
    HumanBone,
    HumanBoneNames,
    HumanPose,
    MuscleClipSampler,
    MuscleSetup,
    ParseMuscleClipBinary,
    SerializeMuscleClipToBinary,
    type HumanoidAvatar,
    type IMuscleClipConvertOptions,
    type IRigPose,
    type IRigPoseSource,
    type MuscleClip,
} from "../../src/index.js";
import { LoadRigFromFileAsync, type ILoadedRig } from "../../src/node/index.js";
import { dataFile, describeWithData, listDataFiles } from "../helpers/data.js";
import { BodyHeight, ComparePoses, type IPoseDifference } from "../helpers/poseMetrics.js";

const loadedFiles: ILoadedRig[] = [];
afterAll(() => loadedFiles.forEach((l) => l.dispose()));

async function load(file: string): Promise<{ loaded: ILoadedRig; avatar: HumanoidAvatar }> {
    const loaded = await LoadRigFromFileAsync(dataFile(file));
    loadedFiles.push(loaded);
    return { loaded, avatar: BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap }) };
}

/** Every clip of a file with the source it came from. */
function convertAll(loaded: ILoadedRig, avatar: HumanoidAvatar, options: IMuscleClipConvertOptions = {}): Array<{ clip: MuscleClip; source: IRigPoseSource }> {
    if (loaded.bvh) return [{ clip: ConvertBvhToMuscleClip(loaded.bvh, avatar, options), source: new BvhPoseSource(loaded.bvh) }];
    return (loaded.container?.animationGroups ?? []).map((g) => ({
        clip: ConvertAnimationGroupToMuscleClip(g, avatar, options),
        source: new AnimationGroupPoseSource(g, avatar),
    }));
}

const angleDeg = (a: Quaternion, b: Quaternion): number => (2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(a, b)))) * 180) / Math.PI;

describeWithData("converting the clips of ../shared/data to muscle clips", () => {
    const files = listDataFiles().filter((f) => f.endsWith(".bvh") || /mixamo|kaykit_anims|RiggedFigure|vrma/.test(f));
    it.each(files)("%s: every clip converts, and read back from its file it decodes within the round-trip bounds plus the tolerance", async (file) => {
        const { loaded, avatar } = await load(file);
        // The floor kept as it is: where a take's floor tilts (the CMU walk's), leveling it moves the
        // body by the floor's height under it by design (test/clip/floorTilt.test.ts checks that the
        // pose is kept and the body goes down by no more than the floor's rise).
        const converted = convertAll(loaded, avatar, { levelFloor: false });
        expect(converted.length).toBeGreaterThan(0);
        const setup = MuscleSetup.For(avatar);
        const height = BodyHeight(avatar);
        for (const { clip: made, source } of converted) {
            const clip = ParseMuscleClipBinary(SerializeMuscleClipToBinary(made), `${file}.muscle.bin`);
            const tolRad = (clip.toleranceDeg * Math.PI) / 180;
            const sampler = new MuscleClipSampler(clip);
            const human = new HumanPose();
            const out = CreateReferenceRigPose(avatar);
            const pose: IRigPose = {
                label: "source",
                rotations: avatar.rig.joints.map((j) => j.restRotation.clone()),
                positions: avatar.rig.joints.map((j) => j.restPosition.clone()),
            };
            const d: IPoseDifference = { swingMaxDeg: 0, swingSumDeg: 0, swingCount: 0, swingWorstBone: -1, twistMaxDeg: 0, hips: 0, com: 0 };
            // A decoded limb may roll differently from the source (twist moves along a limb), but it
            // must not flip between two frames: its frame-to-frame turn stays near the source's.
            let flip = 0;
            let flipAt = "";
            let prevSource: Quaternion[] = [];
            let prevDecoded: Quaternion[] = [];
            const stride = clip.frameCount > 1000 ? 2 : 1;
            // A frame whose figure the source scales to a point (KayKit's spawns, two frames each:
            // the trunk of no length, or the figure shown at no size while its poses, which drop
            // scale, turn its joints anyhow) has no pose: the clip holds the nearest one there, and
            // says so in its warnings.
            const hipsJoint = setup.joint[HumanBone.Hips];
            const rest = avatar.referenceWorld.positions;
            const restSpan = Vector3.Distance(rest[hipsJoint], rest[setup.trunkTop]);
            let held = 0;
            for (let f = 0; f < clip.frameCount; f += stride) {
                // The clip's frame f is the source's at its start plus f frames (a T-pose frame 0 left out).
                const t = clip.sourceStartSeconds + f / clip.frameRate;
                source.samplePoseToRef(t, pose);
                const world = ComputeRigWorldPose(avatar.rig, pose);
                const shown = source.figureScaleAt ? source.figureScaleAt(t) : 1;
                if (!(Vector3.Distance(world.positions[hipsJoint], world.positions[setup.trunkTop]) > 0.01 * restSpan) || !(shown > 0.01)) {
                    held++;
                    prevSource = [];
                    continue;
                }
                DecodeHumanPose(avatar, sampler.sampleFrameToRef(f, human), out);
                ComparePoses(avatar, pose, out, d);
                const ws = world.rotations;
                const wd = ComputeRigWorldPose(avatar.rig, out).rotations;
                const s: Quaternion[] = [];
                const o: Quaternion[] = [];
                for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
                    const j = avatar.getJoint(b);
                    s.push(j >= 0 ? ws[j] : Quaternion.Identity());
                    o.push(j >= 0 ? wd[j] : Quaternion.Identity());
                    if (prevSource.length && j >= 0) {
                        const extra = angleDeg(prevDecoded[b], o[b]) - angleDeg(prevSource[b], s[b]);
                        if (extra > flip) [flip, flipAt] = [extra, `${HumanBoneNames[b]} at frame ${f}`];
                    }
                }
                prevSource = s;
                prevDecoded = o;
            }
            expect([clip.name, held > 0]).toEqual([clip.name, clip.warnings.some((w) => /scaled to a point/.test(w))]);
            const what = `${clip.name}: worst ${HumanBoneNames[d.swingWorstBone]}, limb turn ${flip.toFixed(1)} deg more than the source's at ${flipAt}`;
            expect([what, d.swingSumDeg / d.swingCount]).toEqual([what, expect.any(Number)]);
            expect(d.swingSumDeg / d.swingCount).toBeLessThanOrEqual(0.1 + clip.toleranceDeg);
            expect(d.swingMaxDeg).toBeLessThanOrEqual(1 + clip.toleranceDeg);
            // Positions are reduced within the angle tolerance in radians of avatar scales, and the
            // body's turn about the hips adds as much again.
            expect(d.hips).toBeLessThanOrEqual(0.001 + (2 * tolRad * setup.scale) / height);
            expect(flip).toBeLessThan(90);
            expect(clip.warnings.every((w) => typeof w === "string" && w.length > 10)).toBe(true);
        }
    });

    it("keeps the last frame when resampling at the rate BVH frame times round (0.0083333 s at 120 fps)", async () => {
        const jump = await load("bvh/cmu_cgspeed/cmu_jump.bvh");
        // Its T-pose frame 0 kept: every frame of the file.
        expect(ConvertBvhToMuscleClip(jump.loaded.bvh!, jump.avatar, { frameRate: 120, keepEndPoses: true }).frameCount).toBe(2752);
        // Left out (the default): one frame fewer, the clip starting one frame time into the file.
        const clip = ConvertBvhToMuscleClip(jump.loaded.bvh!, jump.avatar, { frameRate: 120 });
        expect([clip.frameCount, clip.sourceStartSeconds]).toEqual([2751, 0.0083333]);
    });

    it("says what did not convert losslessly, as Mecanim does", async () => {
        // The Bandai files move their Hips under a root joint: the hips' translation is kept, no warning.
        const bandai = await load("bvh/bandai/dataset-1_walk_normal_001.bvh");
        expect(convertAll(bandai.loaded, bandai.avatar)[0].clip.warnings.filter((w) => /translation/.test(w))).toEqual([]);
        const cmu = await load("bvh/cmu_cgspeed/cmu_walk.bvh");
        expect(convertAll(cmu.loaded, cmu.avatar)[0].clip.warnings).toEqual([
            expect.stringMatching(
                /^the first frame is a held pose the take jumps from \(its joints 0\.\d\d leg apart in one frame.*starts 0\.0083 s into its source/,
            ),
            expect.stringMatching(/^intermediate trunk bones are animated.*next trunk joint stays where they put it\): Neck1$/),
            expect.stringMatching(/^intermediate bones are animated.*: LeftFingerBase, RightFingerBase$/),
            expect.stringMatching(/^the floor under the take tilts 0\.9\d degrees .*level ground/),
        ]);
        const kaykit = await load("glb/kaykit_anims/Med_General.glb");
        const spawn = kaykit.loaded.container!.animationGroups.find((g) => g.name.endsWith("Spawn_Air"))!;
        expect(ConvertAnimationGroupToMuscleClip(spawn, kaykit.avatar).warnings).toContainEqual(
            expect.stringMatching(/^scale is animated and dropped .*: chest, foot\.l/),
        );
    });

    it("converts clips kept in their own file against the model's avatar (KayKit animations onto the mannequin)", async () => {
        const model = await load("glb/kaykit_mannequin/manny_med_mod.gltf");
        const anims = await load("glb/kaykit_anims/Med_MovementBasic.glb");
        // The clip file's skeleton has joints the model lacks (hand slots).
        expect(anims.loaded.rig.joints.some((j) => j.name === "handslot.l")).toBe(true);
        expect(model.loaded.rig.joints.some((j) => j.name === "handslot.l")).toBe(false);
        for (const g of anims.loaded.container!.animationGroups) {
            // Exact keys (tolerance 0): this compares what the two avatars read, not where the
            // reduction puts keys (two sets of samples a hair apart may get other keys, each within tolerance).
            const onModel = ConvertAnimationGroupToMuscleClip(g, model.avatar, { source: "Med_MovementBasic.glb", toleranceDeg: 0 });
            const onOwn = ConvertAnimationGroupToMuscleClip(g, anims.avatar, { toleranceDeg: 0 });
            expect(onModel.warnings).toContain("the clip animates nodes the avatar does not have, ignored: handslot.l, handslot.r");
            expect(onModel.frameCount).toBe(onOwn.frameCount);
            const a = new MuscleClipSampler(onModel);
            const b = new MuscleClipSampler(onOwn);
            let worst = 0;
            for (let f = 0; f < onModel.frameCount; f++) {
                for (let c = 0; c < onModel.curves.length; c++) worst = Math.max(worst, Math.abs(a.evaluate(c, f) - b.evaluate(c, f)));
            }
            expect(worst).toBeLessThan(1e-4);
        }
    });

    it("flags foot contacts where the feet are planted (hand-checked frames of two walks)", async () => {
        const L = FootContact.Left;
        const R = FootContact.Right;
        // CMU walk, 120 fps: frames checked by looking at ankle and toe heights and speeds.
        const cmu = await load("bvh/cmu_cgspeed/cmu_walk.bvh");
        const c1 = convertAll(cmu.loaded, cmu.avatar)[0].clip;
        // The file's frames (its T-pose frame 0 is left out of the clip: the clip's frame f is the file's f + 1).
        const s1 = Math.round(c1.sourceStartSeconds * c1.frameRate);
        expect(s1).toBe(1);
        const checks1: Array<[number, number]> = [
            [48, L],
            // The foot behind pushes off its toes while the one ahead has touched down but still
            // slides forward (the left heel about 0.4 avatar scales a second until frame 149): each
            // is held only from its first frame no faster than a quarter of the contact speed to its
            // last, and neither is at frames 80 and 144 (both were, before contacts were cut to
            // their still frames).
            [74, L],
            [80, 0],
            [112, R],
            [144, 0],
            [176, L],
            [240, R],
            [304, L],
        ];
        expect(checks1.map(([f]) => [f, c1.contacts[f - s1] & (L | R)])).toEqual(checks1);
        // Each foot pushes off its toes before it leaves.
        expect([c1.contacts[74 - s1], c1.contacts[134 - s1]]).toEqual([L | FootContact.LeftToesStill, R | FootContact.RightToesStill]);
        // Bandai walk, 30 fps.
        const bandai = await load("bvh/bandai/dataset-1_walk_normal_001.bvh");
        const c2 = convertAll(bandai.loaded, bandai.avatar)[0].clip;
        const checks2: Array<[number, number]> = [
            [18, L],
            [36, R],
            [50, L],
            [84, L],
            [102, R],
            [120, L],
            [132, R],
            [180, L],
        ];
        expect(checks2.map(([f]) => [f, c2.contacts[f] & (L | R)])).toEqual(checks2);
        // The CMU jump: both feet down before the jumps, none in the air.
        const jump = await load("bvh/cmu_cgspeed/cmu_jump.bvh");
        const c3 = convertAll(jump.loaded, jump.avatar)[0].clip;
        const airborne = Array.from(c3.contacts).filter((c) => c === 0).length / c3.frameCount;
        expect(airborne).toBeGreaterThan(0.1);
        expect(airborne).toBeLessThan(0.4);
    });

    it("makes small clips: the CMU jump in binary is under 30% of its BVH", async () => {
        const jump = await load("bvh/cmu_cgspeed/cmu_jump.bvh");
        const clip = convertAll(jump.loaded, jump.avatar)[0].clip;
        const bvhBytes = (await import("node:fs")).statSync(dataFile("bvh/cmu_cgspeed/cmu_jump.bvh")).size;
        expect(SerializeMuscleClipToBinary(clip).length / bvhBytes).toBeLessThan(0.3);
    });
});
