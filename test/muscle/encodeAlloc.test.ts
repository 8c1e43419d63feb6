import { BuildHumanoidAvatar, BuildSampleRig, EncodeHumanPose, GetRigRestPose, HumanPose, SampleCharacters } from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { YoungBytesPerCall } from "../helpers/allocation.js";

/**
 * The encoder on the per-frame path of a conversion: no short-lived garbage (no number boxed)
 * once it has run on the avatar, on a walk with shoulders, elbows and knees that bend and twist.
 */
describe("EncodeHumanPose allocates nothing per frame", () => {
    test.each(SampleCharacters.map((c, i) => [c.name, i] as const))("%s", (_name, i) => {
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
        for (let n = 0; n < 5000; n++) step();
        // 1000 calls a round: the reading itself allocates about 2 kB.
        const perFrame = YoungBytesPerCall(() => EncodeHumanPose(avatar, pose, human), 8, 1000);
        if (perFrame !== null) expect(perFrame).toBeLessThan(16);
        expect(Number.isFinite(human.values[10])).toBe(true);
    });
});
