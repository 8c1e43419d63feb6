import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { BuildHumanoidAvatar, BuildSampleRig, ConvertRigPosesToMuscleClip, HumanBone, SampleCharacters } from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { ConvertFileToMuscleClipsAsync } from "../../src/node/convertFile.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { ChangedPoseSource } from "../helpers/poseSources.js";

// Arms on the wrong sides of the chest are a broken take (swapped labels, collarbones turned half a
// turn against the rest pose, a rest pose with both arms in one place): conversion says so
// (`ShoulderSideWatch`). Found on one of the AnimatedDrawings project's takes, a child skipping,
// whose arms crossed over on every character.
describe("conversion warns when a take's arms are on the wrong sides of its chest", () => {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    const wrongSides = (warnings: readonly string[]): string[] => warnings.filter((w) => w.includes("wrong sides of the chest"));

    test("the built-in walk: no warning", () => {
        const clip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 1, 30), { loop: false });
        expect(wrongSides(clip.warnings)).toEqual([]);
    });

    test("the walk with both collarbones turned half a turn about up from frame 20 on: one warning naming the frames", () => {
        // (From frame 20 of 31: turned on most frames, the take would be converted without its
        // shoulders, `FindReversedCollarbones`, its arms each on its own side of the chest.)
        const walk = new SampleWalkSource(avatar, 1, 30);
        const shoulders = [HumanBone.LeftShoulder, HumanBone.RightShoulder].map((b) => avatar.getJoint(b));
        expect(Math.min(...shoulders)).toBeGreaterThanOrEqual(0);
        const half = Quaternion.RotationAxis(Vector3.Up(), Math.PI);
        const source = ChangedPoseSource(walk, "crossed", (t, pose) => {
            if (Math.round(t * walk.frameRate) < 20) return;
            for (const j of shoulders) pose.rotations[j].copyFrom(half.multiply(pose.rotations[j]));
        });
        const clip = ConvertRigPosesToMuscleClip(avatar, source, { loop: false });
        const frames = clip.frameCount;
        const found = wrongSides(clip.warnings);
        expect(found).toHaveLength(1);
        expect(found[0]).toContain(`in ${frames - 20} of ${frames} frames (frames 20-${frames - 1}`);
        expect(clip.warnings.filter((w) => w.includes("collarbone ("))).toEqual([]);
    });
});

describeWithData("the arms' side watch on real clips", () => {
    test("KayKit's spawns, whose first two frames have no pose (the figure scaled to a point), and the rest of their file: no warning", async () => {
        const converted = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_General.glb"));
        expect(converted.map((c) => c.clip.name)).toEqual(
            expect.arrayContaining([expect.stringContaining("Spawn_Air"), expect.stringContaining("Spawn_Ground")]),
        );
        for (const c of converted) expect([c.clip.name, c.clip.warnings.filter((w) => w.includes("wrong sides of the chest"))]).toEqual([c.clip.name, []]);
    }, 120_000);
});
