/**
 * `npm run bench`: every benchmark of the project, one table of figures (ratios against a
 * baseline measured in the same run), and bench/results.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { RunMuscleBench } from "./muscles.js";

const m = RunMuscleBench();
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
};
mkdirSync("bench", { recursive: true });
writeFileSync("bench/results.json", JSON.stringify(results, null, 2) + "\n");
process.stdout.write(`\nwritten bench/results.json\n`);
