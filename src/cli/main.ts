#!/usr/bin/env node
/**
 * The `babylon-humanoid` command-line tool.
 */
import { readFileSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import type { ILoadAvatarOptions } from "../node/loadAvatar.js";
import { MAX_UPDATES_PER_FRAME } from "../node/qualityReport.js";
import { RunFullDemoAsync } from "./demo.js";
import { RunInspectAsync } from "./inspect.js";
import { ParseShard, RunConvertAsync } from "./convert.js";
import { RunRetargetAsync } from "./retarget.js";
import { RunReportAsync } from "./report.js";
import { RunFitAsync } from "./fit.js";
import { ErrorLine } from "./errorLine.js";

/** This package's version, from the nearest package.json above this file (src/ or dist/lib/). */
function packageVersion(): string {
    for (let dir = new URL(".", import.meta.url); dir.pathname !== "/"; dir = new URL("..", dir)) {
        try {
            const pkg = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as { name?: string; version?: string };
            if (pkg.name === "babylon-humanoid") return pkg.version ?? "0.0.0";
        } catch {
            // keep looking upwards
        }
    }
    return "0.0.0";
}

/** Prints one line naming the input and the problem, and sets exit code 1. */
function fail(input: string, e: unknown): void {
    process.stderr.write(`babylon-humanoid: ${ErrorLine(input, e)}\n`);
    process.exitCode = 1;
}

function parseUnits(value: string): NonNullable<NonNullable<ILoadAvatarOptions["bvh"]>["units"]> {
    if (["auto", "m", "cm", "mm", "inches", "cmu"].includes(value)) {
        return value as "auto";
    }
    const n = Number(value);
    if (!(n > 0 && Number.isFinite(n))) {
        throw new InvalidArgumentError("use auto, m, cm, mm, inches, cmu, or metres per unit (a positive number)");
    }
    return n;
}

/** `--stretch <fraction>`: a share of the limb's length from 0 to 0.5. */
function parseStretch(v: string): number {
    const n = Number(v);
    if (!(v.trim() !== "" && n >= 0 && n <= 0.5)) {
        throw new InvalidArgumentError("--stretch must be a share of the limb's length from 0 to 0.5, for example 0.05");
    }
    return n;
}

/** `--denoise <deg>`: how far a source's joints may move when denoised, 0 to 45 degrees. */
function parseDenoise(v: string): number {
    const n = Number(v);
    if (!(v.trim() !== "" && n >= 0 && n <= 45)) throw new InvalidArgumentError("--denoise must be between 0 and 45 degrees");
    return n;
}

/** `--tolerance <deg>`: a keyframe reduction tolerance from 0 to 45 degrees of muscle angle. */
function parseTolerance(v: string): number {
    const n = Number(v);
    if (!(v.trim() !== "" && n >= 0 && n <= 45)) throw new InvalidArgumentError("--tolerance must be between 0 and 45 degrees");
    return n;
}

/** `--updates-per-frame <n>`: animator updates per clip frame, a whole number from 1 to `MAX_UPDATES_PER_FRAME`. */
function parseUpdatesPerFrame(v: string): number {
    const n = Number(v);
    if (!(v.trim() !== "" && Number.isInteger(n) && n >= 1 && n <= MAX_UPDATES_PER_FRAME)) {
        throw new InvalidArgumentError(
            `--updates-per-frame must be a whole number from 1 to ${MAX_UPDATES_PER_FRAME}, for example 2 (a 30 fps clip shown at 60 Hz)`,
        );
    }
    return n;
}

/** `--proportions legs|com`: how a clip's positions scale to the character (the runtime's `proportions`). */
function proportionsOption(): Option {
    return new Option(
        "--proportions <mode>",
        "how the clip's stride, feet and travel scale to the character: legs (by the leg length, body on the legs) or com (Mecanim: by the centre-of-mass height)",
    )
        .choices(["legs", "com"])
        .default("legs");
}

/** `--joint-limits [set]`: the runtime's joint limits; the flag alone turns on the full set (the animator's `jointLimits`). */
function jointLimitsOption(): Option {
    return new Option(
        "--joint-limits [set]",
        "joint limits: all (every bone, also when the flag is given alone), hinges (knees and elbows: the default without the flag) or none",
    )
        .choices(["all", "hinges", "none"])
        .preset("all");
}

const program = new Command();
program.name("babylon-humanoid").description("Humanoid retargeting for Babylon.js: map skeletons onto a normalized humanoid.").version(packageVersion());

program
    .command("inspect")
    .description("Load a GLB/glTF/VRM/VRMA/BVH file, build its humanoid avatar and print the bone map, facing, T-pose corrections and warnings.")
    .argument("<file>", "character or motion file (.glb, .gltf, .vrm, .vrma, .bvh)")
    .option("--json", "print exactly one JSON object: {file, boneMap, facing, warnings}")
    .option("--bone-map <file>", 'a bone map JSON (saved map, or {"leftUpperArm": "LeftArm", ...}) that overrides the automatic one')
    .addOption(
        new Option("--t-pose <mode>", "reference pose: auto (enforce where needed), rest (trust the rest pose), strict (align every bone)")
            .choices(["auto", "rest", "strict"])
            .default("auto"),
    )
    .addOption(new Option("--up-axis <axis>", "BVH up axis").choices(["auto", "y", "z"]).default("auto"))
    .option("--units <units>", "BVH length units: auto, m, cm, mm, inches, cmu, or metres per unit", parseUnits, "auto")
    .action(
        async (
            file: string,
            opts: { json?: boolean; boneMap?: string; tPose: "auto" | "rest" | "strict"; upAxis: "auto" | "y" | "z"; units: ReturnType<typeof parseUnits> },
        ) => {
            try {
                const out = await RunInspectAsync(file, {
                    json: opts.json,
                    boneMap: opts.boneMap ? { file: opts.boneMap } : undefined,
                    tPose: opts.tPose,
                    bvh: { upAxis: opts.upAxis, units: opts.units },
                });
                process.stdout.write(out + "\n");
            } catch (e) {
                fail(file, e);
            }
        },
    );

program
    .command("demo")
    .description("Run the demo on the built-in sample characters (no files needed); writes its files to ./demo-output.")
    .option("-o, --output <dir>", "where to write the demo's BVH and GLB files", "demo-output")
    .action(async (opts: { output: string }) => {
        try {
            process.stdout.write((await RunFullDemoAsync(opts.output)) + "\n");
        } catch (e) {
            fail("demo", e);
        }
    });

function parsePositive(what: string, max: number) {
    return (value: string): number => {
        const n = Number(value);
        if (!(n > 0 && n <= max)) throw new InvalidArgumentError(`${what} must be a number above 0 and at most ${max}`);
        return n;
    };
}

program
    .command("convert")
    .description(
        "Convert every clip of every input (BVH, GLB, glTF, VRM, VRMA) to a muscle clip file, or to a VRM Animation (--format vrma). Several files convert at once; one failing input is reported and the others still convert.",
    )
    .argument("<inputs...>", "motion files")
    .option(
        "-o, --out <file or dir>",
        "output directory (made if missing), or one .muscle.json/.muscle.bin/.vrma file for a single clip; default: beside each input",
    )
    .option("--clip <name>", "only the clip of this name")
    .option("--rate <hz>", "frames per second of the muscle clips (default: each source's own rate)", parsePositive("--rate", 10000))
    .option(
        "--tolerance <deg>",
        "keyframe reduction tolerance in degrees of muscle angle (half smooths the curves, half places the keys; 0: every frame as sampled)",
        parseTolerance,
        0.1,
    )
    .option(
        "--denoise <deg>",
        "how far the source's joints may move when denoised before conversion, degrees along each joint's shortest bone (default: the tolerance; 0: the source as it is)",
        parseDenoise,
    )
    .option(
        "--keep-floor-tilt",
        "keep a floor that tilts under a take as it is (default: a capture floor a few degrees at most off level, which the planted feet show clearly, is leveled, with a warning)",
    )
    .option(
        "--keep-end-poses",
        "keep a held pose a take jumps from at its start or to at its end, such as the T-pose frame 0 of the cgspeed CMU files (default: left out, with a warning)",
    )
    .addOption(
        new Option("--format <format>", "file format: json or bin (muscle clips) or vrma (VRM Animation); default: from the -o extension, else json").choices([
            "json",
            "bin",
            "vrma",
        ]),
    )
    .option("--jobs <n>", "files converted at once (worker threads; default: the number of cores)", (v: string) => {
        const n = Number(v);
        if (!(Number.isInteger(n) && n >= 1 && n <= 256)) throw new InvalidArgumentError("--jobs must be a whole number from 1 to 256");
        return n;
    })
    .option("--avatar <file>", "for glTF clips kept in their own file: the model whose skeleton they drive (matched by node name)")
    .option("--mirror", "write each clip's mirror image: left and right swapped in muscle space (muscles, body, goals, root motion, foot contacts)")
    .option(
        "--shard <i/n>",
        "convert only shard i of n (i from 0 to n-1, as a Kubernetes JOB_COMPLETION_INDEX): a stable split by a hash of each input's path under the inputs' common directory",
        (v: string) => {
            try {
                return ParseShard(v);
            } catch (e) {
                // ParseShard's message starts by naming the option and value, as commander's own line does.
                throw new InvalidArgumentError((e as Error).message.replace(/^--shard '[^']*': /, ""));
            }
        },
    )
    .option("--manifest <out.json>", "also write a JSON manifest, one line per input: its output files, frames, warnings and error")
    .addOption(new Option("--t-pose <mode>", "reference pose of the avatars").choices(["auto", "rest", "strict"]).default("auto"))
    .addOption(new Option("--up-axis <axis>", "BVH up axis").choices(["auto", "y", "z"]).default("auto"))
    .option("--units <units>", "BVH length units: auto, m, cm, mm, inches, cmu, or metres per unit", parseUnits, "auto")
    .action(
        async (
            inputs: string[],
            opts: {
                out?: string;
                clip?: string;
                rate?: number;
                tolerance: number;
                denoise?: number;
                keepFloorTilt?: boolean;
                keepEndPoses?: boolean;
                format?: "json" | "bin" | "vrma";
                jobs?: number;
                avatar?: string;
                mirror?: boolean;
                shard?: ReturnType<typeof ParseShard>;
                manifest?: string;
                tPose: "auto" | "rest" | "strict";
                upAxis: "auto" | "y" | "z";
                units: ReturnType<typeof parseUnits>;
            },
        ) => {
            try {
                process.exitCode = await RunConvertAsync(
                    inputs,
                    {
                        out: opts.out,
                        clip: opts.clip,
                        rate: opts.rate,
                        tolerance: opts.tolerance,
                        denoise: opts.denoise,
                        keepFloorTilt: Boolean(opts.keepFloorTilt),
                        keepEndPoses: Boolean(opts.keepEndPoses),
                        format: opts.format,
                        jobs: opts.jobs,
                        avatar: opts.avatar,
                        mirror: Boolean(opts.mirror),
                        shard: opts.shard,
                        manifest: opts.manifest,
                        tPose: opts.tPose,
                        bvh: { upAxis: opts.upAxis, units: opts.units },
                    },
                    {
                        out: (t) => process.stdout.write(t),
                        err: (t) => process.stderr.write(t + "\n"),
                        progress: Boolean(process.stderr.isTTY),
                    },
                );
            } catch (e) {
                fail("convert", e);
            }
        },
    );

program
    .command("report")
    .description(
        "Retarget every source onto every target with this library and with Babylon's AnimatorAvatar, and write an HTML page of quality figures and plots.",
    )
    .argument("<sources...>", "motion files (.bvh, or .glb/.gltf/.vrm/.vrma with animations)")
    .requiredOption("--onto <targets...>", "characters (any file with a skeleton; a BVH too: a clip onto its own rig is the self round trip)")
    .requiredOption("-o, --output <report.html>", "the HTML page to write")
    .option("--json <out.json>", "also write the summary figures as JSON")
    .option("--clip <name>", "the clip of glTF sources (default: their first)")
    .option("--no-animator-avatar", "skip Babylon's AnimatorAvatar (faster)")
    .option("--no-foot-ik", "our runtime without foot IK (and so without planting)")
    .option("--no-planting", "our runtime without foot planting")
    .option("--stretch <fraction>", "our runtime's squash-and-stretch, share of the limb's length (0 disables)", parseStretch, 0.05)
    .addOption(proportionsOption())
    .option("--no-translation-dof", "rotations only: leave out the clip's translations of spine, neck, shoulders, upper arms and upper legs")
    .addOption(jointLimitsOption())
    .option("--tolerance <deg>", "keyframe reduction tolerance of the sources' conversion, degrees of muscle angle (0: a key every frame)", parseTolerance, 0.1)
    .option(
        "--denoise <deg>",
        "how far the sources' joints may move when denoised before conversion, degrees (default: the tolerance; 0: as they are)",
        parseDenoise,
    )
    .addOption(
        new Option("--t-pose <mode>", "reference pose of our avatars (AnimatorAvatar uses the rest poses)").choices(["auto", "rest", "strict"]).default("auto"),
    )
    .option(
        "--updates-per-frame <n>",
        "our animator updated n times per clip frame, measured at the frames (a display faster than the clip: 2 for 30 fps at 60 Hz)",
        parseUpdatesPerFrame,
        1,
    )
    .action(
        async (
            sources: string[],
            opts: {
                tolerance: number;
                denoise?: number;
                onto: string[];
                output: string;
                json?: string;
                clip?: string;
                animatorAvatar: boolean;
                footIk: boolean;
                planting: boolean;
                stretch: number;
                proportions: "legs" | "com";
                translationDof: boolean;
                jointLimits?: "all" | "hinges" | "none";
                updatesPerFrame: number;
                tPose: "auto" | "rest" | "strict";
            },
        ) => {
            try {
                process.exitCode = await RunReportAsync(
                    sources,
                    {
                        onto: opts.onto,
                        output: opts.output,
                        json: opts.json,
                        clip: opts.clip,
                        animatorAvatar: opts.animatorAvatar,
                        toleranceDeg: opts.tolerance,
                        denoiseToleranceDeg: opts.denoise,
                        updatesPerFrame: opts.updatesPerFrame,
                        tPose: opts.tPose,
                        animator: {
                            footIK: opts.footIk,
                            footPlanting: opts.planting,
                            stretch: opts.stretch,
                            proportions: opts.proportions,
                            translationDoF: opts.translationDof,
                            jointLimits: opts.jointLimits === undefined || opts.jointLimits === "hinges" ? undefined : opts.jointLimits,
                        },
                    },
                    { err: (s) => process.stderr.write(s), out: (s) => process.stdout.write(s) },
                );
            } catch (e) {
                fail(opts.output, e);
            }
        },
    );

program
    .command("retarget")
    .description(
        "Play a motion (muscle clip, BVH, or glTF/VRM/VRMA animations) on a character with foot IK and squash-and-stretch, and write the character with the baked animation as one GLB; or write the motion as a VRM Animation (-o x.vrma).",
    )
    .argument("<source>", "motion file (.muscle.json, .muscle.bin, .bvh, .glb, .gltf, .vrm, .vrma)")
    .option(
        "--onto <character>",
        "the character to retarget onto (.glb, .gltf, .vrm); for a .vrma output, optional: the skeleton (bones, proportions) to write on",
    )
    .requiredOption(
        "-o, --out <file.glb|file.vrma>",
        "the GLB to write (the character and only the new animation(s)), or a .vrma: the motion as a VRM Animation (one clip; no IK)",
    )
    .option("--clip <name>", "only the source clip of this name (default: every clip of the source, one animation each)")
    .option("--no-foot-ik", "leave the feet where the muscles put them (no foot IK, no planting)")
    .option("--hand-ik", "move the hands onto the clip's hand goals with IK")
    .option(
        "--stretch <fraction>",
        "squash-and-stretch: the most a limb may lengthen, share of its length (0 disables; near straight it may also shorten by up to 2.4%)",
        parseStretch,
        0.05,
    )
    .addOption(proportionsOption())
    .option("--no-translation-dof", "rotations only: leave out the clip's translations of spine, neck, shoulders, upper arms and upper legs")
    .addOption(jointLimitsOption())
    .addOption(
        new Option(
            "--root-motion <mode>",
            "the clip's travel: clip (the hips carry it), in-place (removed), apply (kept in the file: same as clip, a GLB has no separate root track)",
        )
            .choices(["in-place", "clip", "apply"])
            .default("clip"),
    )
    .option("--rate <hz>", "frames per second of the written keys (default: each clip's own rate)", parsePositive("--rate", 10000))
    .option("--bone-map <file>", "a bone map JSON for the character that overrides the automatic one")
    .option("--keep-floor-tilt", "keep a motion file's tilted capture floor as it is (default: leveled as convert does, with a warning)")
    .option("--keep-end-poses", "keep a held pose a motion file jumps from at its start or to at its end (default: left out as convert does, with a warning)")
    .addOption(new Option("--t-pose <mode>", "reference pose of the avatars").choices(["auto", "rest", "strict"]).default("auto"))
    .addOption(new Option("--up-axis <axis>", "BVH up axis").choices(["auto", "y", "z"]).default("auto"))
    .option("--units <units>", "BVH length units: auto, m, cm, mm, inches, cmu, or metres per unit", parseUnits, "auto")
    .action(
        async (
            source: string,
            opts: {
                onto?: string;
                out: string;
                clip?: string;
                footIk: boolean;
                handIk?: boolean;
                stretch: number;
                rootMotion: "in-place" | "clip" | "apply";
                proportions: "legs" | "com";
                translationDof: boolean;
                jointLimits?: "all" | "hinges" | "none";
                rate?: number;
                boneMap?: string;
                keepFloorTilt?: boolean;
                keepEndPoses?: boolean;
                tPose: "auto" | "rest" | "strict";
                upAxis: "auto" | "y" | "z";
                units: ReturnType<typeof parseUnits>;
            },
        ) => {
            try {
                process.exitCode = await RunRetargetAsync(
                    source,
                    {
                        onto: opts.onto,
                        out: opts.out,
                        clip: opts.clip,
                        footIK: opts.footIk,
                        handIK: Boolean(opts.handIk),
                        stretch: opts.stretch,
                        proportions: opts.proportions,
                        translationDoF: opts.translationDof,
                        jointLimits: opts.jointLimits,
                        rootMotion: opts.rootMotion,
                        frameRate: opts.rate,
                        boneMap: opts.boneMap ? { file: opts.boneMap } : undefined,
                        levelFloor: !opts.keepFloorTilt,
                        keepEndPoses: Boolean(opts.keepEndPoses),
                        tPose: opts.tPose,
                        bvh: { upAxis: opts.upAxis, units: opts.units },
                    },
                    { out: (t) => process.stdout.write(t) },
                );
            } catch (e) {
                fail(source, e);
            }
        },
    );

program
    .command("fit")
    .description(
        "Move a clip between two skinned characters through their surfaces: play it on the source's skin and fit the other rig's bone transforms to that surface, frame by frame; writes the rig with the fitted animation as one GLB and reports the control run (the source fitted to itself) beside the transfer.",
    )
    .argument("<source>", "skinned character with the clip (.glb, .gltf, .vrm)")
    .requiredOption("--clip <name>", "the source clip (its name, or a part of it only one clip has)")
    .requiredOption("--rig <target>", "the skinned character to fit (.glb, .gltf, .vrm)")
    .requiredOption("-o, --out <file.glb>", "the GLB to write: the rig and the fitted animation")
    .option("--rotation-only", "fit joint rotations only, keeping every bone's length")
    .option("--vertices <n>", "vertices of each rig the fit uses (large meshes are subsampled)", (v: string) => {
        const n = Number(v);
        if (!(Number.isInteger(n) && n >= 10)) throw new InvalidArgumentError("--vertices must be a whole number of at least 10");
        return n;
    })
    .option("--rate <hz>", "frames per second the clip is sampled and keyed at", parsePositive("--rate", 1000), 30)
    .option(
        "--json",
        "print exactly one JSON object: controlMeanError, controlMaxError, meanError, maxError (fractions of the diagonal), transferQuality, frames, seconds...",
    )
    .action(
        async (source: string, opts: { clip: string; rig: string; out: string; rotationOnly?: boolean; vertices?: number; rate: number; json?: boolean }) => {
            try {
                process.exitCode = await RunFitAsync(
                    source,
                    {
                        clip: opts.clip,
                        rig: opts.rig,
                        out: opts.out,
                        rotationOnly: opts.rotationOnly,
                        vertices: opts.vertices,
                        frameRate: opts.rate,
                        json: opts.json,
                    },
                    { out: (t) => process.stdout.write(t), progress: Boolean(process.stderr.isTTY) && !opts.json },
                );
            } catch (e) {
                fail(source, e);
            }
        },
    );

await program.parseAsync(process.argv);
