/**
 * `npm run bench`: every benchmark of the project, one table of figures (ratios against a
 * baseline measured in the same run), and bench/results.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { RunConvertBenchAsync } from "./convert.js";
import { RunMuscleBench } from "./muscles.js";
import { RunRuntimeBenchAsync } from "./runtime.js";
import { RunSurfaceFitBenchAsync } from "./surfaceFit.js";

const m = RunMuscleBench();
const c = await RunConvertBenchAsync();
const rt = await RunRuntimeBenchAsync();
const sf = await RunSurfaceFitBenchAsync();
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
if (rt) {
    const us = (v: number): string => `${v.toFixed(1)} us/char-frame`;
    const split = rt.updateSplit;
    rows.push(
        [
            `runtime: Babylon AnimatorAvatar groups (${rt.characters} chars)`,
            us(rt.animatorAvatarMicrosecondsPerCharacterFrame),
            `scene.render(); animate() alone ${rt.animatorAvatarAnimateMicrosecondsPerCharacterFrame.toFixed(1)} us (${rt.animatorAvatarTracksPerCharacter} tracks/char)`,
        ],
        [
            `runtime: Babylon playing our baked clip (${rt.characters} chars)`,
            us(rt.bakedMicrosecondsPerCharacterFrame),
            `scene.render(); animate() alone ${rt.bakedAnimateMicrosecondsPerCharacterFrame.toFixed(1)} us (${rt.bakedTracksPerCharacter} tracks/char, ${rt.bakedFrameRate} keys/s; ` +
                `${rt.bakedCostRatioVsAnimatorAvatar.toFixed(2)}x the AnimatorAvatar groups' cost over the idle scene; joints within ${(1000 * rt.bakedVsLiveMaxJointDistanceMetres).toFixed(1)} mm of the live pose)`,
        ],
        [
            "runtime: ours, foot IK (defaults)",
            us(rt.oursMicrosecondsPerCharacterFrame),
            `whole frame ${rt.renderTimeRatioVsAnimatorAvatar.toFixed(2)}x AnimatorAvatar's, ${rt.renderTimeRatioVsBakedPlayback.toFixed(2)}x the baked clip's; ` +
                `update alone ${rt.oursAnimateMicrosecondsPerCharacterFrame.toFixed(1)} us (${rt.animateTimeRatioVsAnimatorAvatar.toFixed(2)}x, ${rt.animateTimeRatioVsBakedPlayback.toFixed(2)}x)`,
        ],
        [
            "runtime: ours / AnimatorAvatar playback",
            `${rt.runtimeCostRatioVsAnimatorAvatar.toFixed(2)}x`,
            "cost over the idle scene, foot IK on; target: at most 0.2x",
        ],
        [
            "runtime: ours / baked clip playback",
            `${rt.runtimeCostRatioVsBakedPlayback.toFixed(2)}x`,
            "cost over the idle scene, foot IK on (the bake's settings); target: at most 0.5x",
        ],
        [
            "runtime: ours, IK off",
            us(rt.oursNoIKMicrosecondsPerCharacterFrame),
            `${rt.runtimeCostRatioNoIKVsAnimatorAvatar.toFixed(2)}x AnimatorAvatar's cost over the idle scene, ${rt.runtimeCostRatioNoIKVsBakedPlayback.toFixed(2)}x the baked clip's (baked with IK); ` +
                `update alone ${rt.oursNoIKAnimateMicrosecondsPerCharacterFrame.toFixed(1)} us`,
        ],
        [
            "runtime: ours, everything on",
            us(rt.oursAllMicrosecondsPerCharacterFrame),
            `joint limits "all", world goals for both hands, look-at: ${rt.runtimeCostRatioAllVsAnimatorAvatar.toFixed(2)}x AnimatorAvatar's cost over the idle scene (target: at most 0.3x); ` +
                `update alone ${rt.oursAllAnimateMicrosecondsPerCharacterFrame.toFixed(1)} us, ${rt.animateTimeRatioAllVsDefault.toFixed(2)}x the default update's`,
        ],
        [
            "runtime: one update by part",
            `${rt.featureUpdateMicroseconds.defaults.toFixed(1)} us defaults`,
            `limits "all" ${rt.featureUpdateMicroseconds.limitsAll.toFixed(1)}, world goals (both hands) ${rt.featureUpdateMicroseconds.worldGoals.toFixed(1)}, ` +
                `look-at ${rt.featureUpdateMicroseconds.lookAt.toFixed(1)}, all three ${rt.featureUpdateMicroseconds.all.toFixed(1)} us (one animator, outside the scene)`,
        ],
        ["runtime: idle scene (nothing playing)", us(rt.idleMicrosecondsPerCharacterFrame), "fixed cost: world matrices, skeletons, meshes"],
        [
            "runtime: write floor",
            us(rt.floorMicrosecondsPerCharacterFrame),
            `our writer writing stored poses, nothing computed: ${rt.floorCostRatioVsBakedPlayback.toFixed(2)}x the baked clip's cost over the idle scene ` +
                `(what any live animator pays here: the update itself may cost ${Math.max(0, 0.5 - rt.floorCostRatioVsBakedPlayback).toFixed(2)}x of it for the 0.5x line)`,
        ],
        split
            ? [
                  "runtime: one update, split",
                  `${split.updateMicroseconds.toFixed(1)} us/update`,
                  `sample ${split.sampleMicroseconds.toFixed(1)}, decode ${split.decodeMicroseconds.toFixed(1)}, planting ${split.plantingMicroseconds.toFixed(1)}, ` +
                      `IK ${split.ikMicroseconds.toFixed(1)}, write ${split.writeMicroseconds.toFixed(1)}, root ${split.rootMotionMicroseconds.toFixed(1)} us (timed apart)`,
              ]
            : ["runtime: one update, split", "n/a", "the animator's internals were not found"],
        [
            "runtime: heap growth, 100k updates",
            `${Math.round(rt.heapGrowthBytesPer100kFrames)} bytes`,
            rt.heapMeasuredAfterGc ? "heap used after minus before, both after full GCs" : "no GC could be forced: indicative only",
        ],
        [
            "runtime: heap per animator",
            `${(rt.animatorHeapBytes / 1024).toFixed(1)} KB`,
            rt.heapMeasuredAfterGc
                ? "one more default animator, playing: heap after minus before, both after full GCs"
                : "no GC could be forced: indicative only",
        ],
        [
            "runtime: garbage per update",
            `${Math.round(rt.allocatedBytesPerUpdate)} bytes`,
            split
                ? `short-lived; by step: ${Object.entries(split.allocatedBytes)
                      .map(([k, v]) => `${k} ${Math.round(v)}`)
                      .join(", ")}`
                : "short-lived",
        ],
    );
} else {
    rows.push(["runtime", "skipped", "needs ../shared/data beside the project"]);
}
if (sf) {
    rows.push(
        [
            `surface fit (X Bot walk onto merged X Bot, ${sf.surfaceFitFrames} frames, 1 thread)`,
            `${sf.surfaceFitSeconds.toFixed(2)} s`,
            `target: at most 2 s; ${sf.surfaceFitTimeRatioVsPlayback.toFixed(1)}x the time of only playing the source surface (${sf.surfaceFitPlaybackSeconds.toFixed(2)} s); ` +
                `${sf.surfaceFitVertices} vertices, ${(100 * sf.surfaceFitTransferQuality).toFixed(1)}% of the motion`,
        ],
        ["surface fit, rotations only", `${sf.surfaceFitRotationOnlySeconds.toFixed(2)} s`, "same fit, bone lengths kept"],
    );
} else {
    rows.push(["surface fit", "skipped", "needs ../shared/data beside the project"]);
}
const w0 = Math.max(...rows.map((r) => r[0].length));
const w1 = Math.max(...rows.map((r) => r[1].length));
process.stdout.write(`babylon-humanoid benchmarks (${m.subject}; reference = slow matrix implementation in test/helpers)\n\n`);
for (const r of rows) process.stdout.write(`  ${r[0].padEnd(w0)}  ${r[1].padStart(w1)}  ${r[2]}\n`);
if (rt) {
    process.stdout.write(`\nruntime: ${rt.subject}\n`);
    for (const n of rt.notes) process.stdout.write(`  note: ${n}\n`);
}
// The runtime figures under keys of their own (its `subject` and `notes` would collide).
const { subject: runtimeSubject, notes: runtimeNotes, ...runtimeFigures } = rt ?? { subject: undefined, notes: undefined };
const runtimeResults = rt ? { ...runtimeFigures, runtimeSubject, runtimeNotes } : {};
const results = {
    encodeMicroseconds: m.encodeMicroseconds,
    decodeMicroseconds: m.decodeMicroseconds,
    encodeSpeedupVsReference: m.referenceEncodeMicroseconds / m.encodeMicroseconds,
    decodeSpeedupVsReference: m.referenceDecodeMicroseconds / m.decodeMicroseconds,
    subject: m.subject,
    ...(c ?? {}),
    ...runtimeResults,
    ...(sf ?? {}),
};
mkdirSync("bench", { recursive: true });
writeFileSync("bench/results.json", JSON.stringify(results, null, 2) + "\n");
process.stdout.write(`\nwritten bench/results.json\n`);
