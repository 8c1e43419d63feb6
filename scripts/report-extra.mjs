#!/usr/bin/env node
// The quality report over clips `npm run report` leaves out: eight more clips of the KayKit files
// (the report takes each glTF's first clip) and the X Bot's walk and run, onto the same seven
// characters (70 pairs), a check that a change carries over to motion it was not looked at on.
// With `--wide`, the other 25 clips of those files instead (175 pairs, about three minutes): each
// KayKit clip neither list holds (deaths, spawns, throws, dodges sideways and back, strafes, runs
// holding weapons, the jump's parts, more walks) and the X Bot's third. Runs the report once per
// clip (`--clip`), writes report-extra/<n>.html and .json (report-extra/wide/ with `--wide`), and
// prints the pairs that miss a threshold and how many pass (a clip whose report fails is named and
// skipped; the exit code is then 1). Needs ../shared/data beside the project. Usage:
//   npm run report:extra            (about a minute)
//   npm run report:extra -- --wide  (about three minutes)
//   npm run report:extra -- --joint-limits all     (any of the report's runtime options goes on to it)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPORT_TARGETS } from "./report-targets.mjs";
import { PrintReportSummary } from "./report-summary.mjs";

const root = join(import.meta.dirname, "..");
const data = join(root, "..", "shared", "data");
if (!existsSync(data)) {
    process.stderr.write(`report-extra: ${data} is missing (the public data set beside the project)\n`);
    process.exit(1);
}
const clips = [
    ["glb/kaykit_anims/Med_MovementBasic.glb", "Rig_Medium|Walking_A"],
    ["glb/kaykit_anims/Med_MovementBasic.glb", "Rig_Medium|Running_A"],
    ["glb/kaykit_anims/Med_MovementBasic.glb", "Rig_Medium|Jump_Full_Short"],
    ["glb/kaykit_anims/Med_MovementAdvanced.glb", "Rig_Medium|Dodge_Forward"],
    ["glb/kaykit_anims/Med_MovementAdvanced.glb", "Rig_Medium|Sneaking"],
    ["glb/kaykit_anims/Med_MovementAdvanced.glb", "Rig_Medium|Walking_Backwards"],
    ["glb/kaykit_anims/Med_General.glb", "Rig_Medium|Hit_A"],
    ["glb/kaykit_anims/Med_General.glb", "Rig_Medium|PickUp"],
    ["glb/mixamo_xbot.glb", "Armature|Armature|walk_Armature"],
    ["glb/mixamo_xbot.glb", "Armature|Armature|run_Armature"],
];
const kaykit = (file, names) => names.map((n) => [`glb/kaykit_anims/${file}.glb`, `Rig_Medium|${n}`]);
/** The clips `--wide` takes: every other clip of the same files (the KayKit files' T-poses and still poses left out). */
const wideClips = [
    ...kaykit("Med_General", ["Death_B", "Hit_B", "Idle_A", "Idle_B", "Interact", "Spawn_Air", "Spawn_Ground", "Throw", "Use_Item"]),
    ...kaykit("Med_MovementAdvanced", [
        "Crawling",
        "Crouching",
        "Dodge_Backward",
        "Dodge_Left",
        "Dodge_Right",
        "Running_HoldingBow",
        "Running_HoldingRifle",
        "Running_Strafe_Left",
        "Running_Strafe_Right",
    ]),
    ...kaykit("Med_MovementBasic", ["Jump_Idle", "Jump_Land", "Jump_Start", "Running_B", "Walking_B", "Walking_C"]),
    ["glb/mixamo_xbot.glb", "Armature|Armature|agree_Armature"],
];
const targets = REPORT_TARGETS.map((t) => join(data, t));
const wide = process.argv.includes("--wide");
/** Options for every report run (the runtime's, such as `--joint-limits all` or `--no-planting`). */
const passed = process.argv.slice(2).filter((a) => a !== "--wide");
const out = join(root, "report-extra", ...(wide ? ["wide"] : []));
const list = wide ? wideClips : clips;
mkdirSync(out, { recursive: true });
const pairs = [];
const failed = [];
list.forEach(([file, clip], i) => {
    const json = join(out, `${i + 1}.json`);
    process.stdout.write(`[${i + 1}/${list.length}] ${clip}\n`);
    const args = [
        "tsx",
        "src/cli/main.ts",
        "report",
        join(data, file),
        "--clip",
        clip,
        "--onto",
        ...targets,
        "-o",
        join(out, `${i + 1}.html`),
        "--json",
        json,
        ...passed,
    ];
    try {
        execFileSync("npx", args, { cwd: root, stdio: ["ignore", "ignore", "inherit"], shell: process.platform === "win32" });
        pairs.push(...JSON.parse(readFileSync(json, "utf8")).pairs);
    } catch (e) {
        failed.push(clip);
        process.stderr.write(`report-extra: ${clip}: the report failed (${e instanceof Error ? e.message.split("\n")[0] : e})\n`);
    }
});
writeFileSync(join(out, "all.json"), JSON.stringify({ pairs }, null, 1));
PrintReportSummary(pairs, join(out, "all.json"));
if (failed.length) {
    process.stderr.write(`report-extra: no report for ${failed.join(", ")}\n`);
    process.exitCode = 1;
}
