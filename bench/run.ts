/**
 * `npm run bench`: every benchmark of the project, one table of figures (ratios against a
 * baseline measured in the same run), and bench/results.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { RunConvertBenchAsync } from "./convert.js";
import { RunMuscleBench } from "./muscles.js";

const m = RunMuscleBench();
const c = await RunConvertBenchAsync();
const rows: Array<[string, string, string]> = [
    [
        "encode (rig pose -> HumanPose)",
        `${m.encodeMicroseconds.toFixed(1)} us/pose`,
        `${(m.referenceEncodeMicroseconds / m.encodeMicroseconds).toFixed(0)}x faster than the reference`,
    ],
    [
        "decode (HumanPose -> rig pose)",
        `${m.decodeMicroseconds.toFixed(1)} us/pose`,
        `${(m.referenceDecodeMicroseconds / m.decodeMicroseconds).toFixed(0)}x faster than the reference`,
    ],
];
if (c) {
    rows.push(
        ["convert (CMU jump, 2752 frames, 1 thread)", `${Math.round(c.convertFramesPerSecond)} frames/s`, "target: at least 20000 frames/s"],
        [
            "convert vs AnimatorAvatar (X Bot clips)",
            `${c.oursMillisecondsPerClip.toFixed(1)} ms/clip`,
            `${c.convertTimeRatioVsAnimatorAvatar.toFixed(2)}x the time of Babylon's retargetAnimationGroup (${c.animatorAvatarMillisecondsPerClip.toFixed(1)} ms/clip)`,
        ],
        ["clip size vs BVH (CMU jump, binary)", `${(100 * c.clipSizeRatioVsBvh).toFixed(1)}%`, "of the BVH text; target: at most 30%"],
        ["clip size vs glTF (X Bot clips, binary)", `${(100 * c.clipSizeRatioVsGltf).toFixed(1)}%`, "of the glTF animation key bytes; target: at most 30%"],
    );
} else {
    rows.push(["convert", "skipped", "needs ../shared/data beside the project"]);
}
const w0 = Math.max(...rows.map((r) => r[0].length));
const w1 = Math.max(...rows.map((r) => r[1].length));
process.stdout.write(`babylon-humanoid benchmarks (${m.subject}; reference = slow matrix implementation in test/helpers)\n\n`);
for (const r of rows) process.stdout.write(`  ${r[0].padEnd(w0)}  ${r[1].padStart(w1)}  ${r[2]}\n`);
const results = {
    encodeMicroseconds: m.encodeMicroseconds,
    decodeMicroseconds: m.decodeMicroseconds,
    encodeSpeedupVsReference: m.referenceEncodeMicroseconds / m.encodeMicroseconds,
    decodeSpeedupVsReference: m.referenceDecodeMicroseconds / m.decodeMicroseconds,
    subject: m.subject,
    ...(c ?? {}),
};
mkdirSync("bench", { recursive: true });
writeFileSync("bench/results.json", JSON.stringify(results, null, 2) + "\n");
process.stdout.write(`\nwritten bench/results.json\n`);
