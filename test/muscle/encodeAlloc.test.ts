import { BuildHumanoidAvatar, BuildSampleRig, EncodeHumanPose, GetRigRestPose, HumanPose, SampleCharacters } from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { YoungBytesPerCall } from "../helpers/allocation.js";
import { GetBvhFramePose } from "../../src/index.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

/**
 * The encoder on the per-frame path of a conversion: no short-lived garbage (no number boxed)
 * once it has run on the avatar, on a walk with shoulders, elbows and knees that bend and twist.
 */
describe("EncodeHumanPose allocates nothing per frame", () => {
    // Two of the samples: a T-pose with named bones, and arms down with odd proportions.
    test.each([0, 3].map((i) => [SampleCharacters[i].name, i] as const))("%s", (_name, i) => {
        const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[i]));
        const source = new SampleWalkSource(avatar, 2.2, 30);
        const pose = GetRigRestPose(avatar.rig);
        const human = new HumanPose();
        const times = new Float64Array(64).map((_, k) => (k / 64) * source.durationSeconds);
        let k = 0;
        const step = (): void => {
            source.samplePoseToRef(times[k++ & 63], pose);
            EncodeHumanPose(avatar, pose, human);
        };
        for (let n = 0; n < 2000; n++) step();
        // 500 calls a round: the reading itself allocates about 2 kB.
        const perFrame = YoungBytesPerCall(() => EncodeHumanPose(avatar, pose, human), 4, 500);
        if (perFrame !== null) expect(perFrame).toBeLessThan(16);
        expect(Number.isFinite(human.values[10])).toBe(true);
    });
});

describeWithData("EncodeHumanPose allocates nothing per frame on a trunk with joints between its bones", () => {
    // The CMU skeleton's Neck1 between its neck and head: the encoder swings the neck onto its chord.
    test("the CMU walk", async () => {
        const l = await LoadRigFromFileAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"));
        try {
            const avatar = BuildHumanoidAvatar(l.rig, { declaredBoneMap: l.declaredBoneMap });
            const pose = GetBvhFramePose(l.bvh!, 100);
            const human = new HumanPose();
            for (let n = 0; n < 2000; n++) EncodeHumanPose(avatar, pose, human);
            const perFrame = YoungBytesPerCall(() => EncodeHumanPose(avatar, pose, human), 4, 500);
            if (perFrame !== null) expect(perFrame).toBeLessThan(16);
            expect(Number.isFinite(human.values[10])).toBe(true);
        } finally {
            l.dispose();
        }
    });
});
