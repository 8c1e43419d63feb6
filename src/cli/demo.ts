import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, HumanBoneNames, HumanBoneRequired, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { ComputeRigWorldPose, type IRig } from "../humanoid/rig.js";
import { ParseBvh } from "../io/bvh.js";
import { CreateRigFromBvh } from "../io/bvhRig.js";
import { WriteBvhRestPose } from "../io/bvhWriter.js";
import { CreateReferenceRigPose, DecodeHumanPose } from "../muscle/decode.js";
import { EncodeHumanPose } from "../muscle/encode.js";
import { HumanPose } from "../muscle/humanPose.js";
import { MuscleIndexFromName, Muscles, MUSCLE_COUNT } from "../muscle/muscles.js";
import { BuildSampleRig, SampleCharacters } from "../samples/sampleCharacters.js";
import { SampleWalkBvh } from "../samples/sampleMotion.js";
import { ParseMuscleClip } from "../clip/clipFile.js";
import { SerializeMuscleClipToBinary } from "../clip/clipFileBinary.js";
import { FootContact } from "../clip/muscleClip.js";
import { MuscleClipSampler } from "../clip/clipSampler.js";
import { ConvertBvhToMuscleClip } from "../io/bvhClip.js";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import { SetGltfExportNodeNames } from "../io/gltfExportNames.js";
import { CreateTransformNodesFromRig } from "../io/rigNodes.js";
import { MeasureQualityPairAsync } from "../node/qualityReport.js";
import { RetargetFileToGlbAsync } from "../node/retargetFile.js";
import type { ISampleCharacterSpec } from "../samples/sampleCharacters.js";

/** One line per fact, for the demo's report. */
function describeAvatar(title: string, avatar: HumanoidAvatar, extra: string): string[] {
    const mapped = [...Array(HUMAN_BONE_COUNT).keys()].filter((b) => avatar.isMapped(b));
    const required = mapped.filter((b) => HumanBoneRequired[b]).length;
    const f = avatar.frame.forward;
    const lines = [
        `${title}`,
        `  ${extra}`,
        `  mapped ${mapped.length}/${HUMAN_BONE_COUNT} human bones (${required}/15 required): ` +
            ["hips", "spine", "head", "leftUpperArm", "leftHand", "leftUpperLeg", "leftFoot"]
                .map((n) => `${n}=${avatar.getJointLabel(HumanBoneNames.indexOf(n))}`)
                .join(", "),
        `  facing [${f
            .asArray()
            .map((v) => (Math.abs(v) < 5e-5 ? 0 : v).toFixed(2))
            .join(", ")}]`,
        avatar.tPoseCorrections.length
            ? `  T-pose enforced from the ${avatar.tPoseSource}: ${avatar.tPoseCorrections.map((c) => `${HumanBoneNames[c.bone]} ${c.angleDeg.toFixed(1)} deg`).join(", ")}`
            : `  T-pose captured from the ${avatar.tPoseSource}`,
    ];
    for (const w of avatar.warnings) lines.push(`  warning: ${w}`);
    for (const [b, why] of avatar.doubtful) lines.push(`  doubtful: ${HumanBoneNames[b]}: ${why}`);
    return lines;
}

/** Angle in degrees between two directions. */
function angleDeg(a: Vector3, b: Vector3): number {
    const c = Vector3.Dot(a.normalizeToNew(), b.normalizeToNew());
    return (Math.acos(Math.min(1, Math.max(-1, c))) * 180) / Math.PI;
}

/**
 * Puts one muscle pose on every avatar and measures what came out in degrees, then reads the
 * muscles back: the same numbers give the same pose on characters of any size and rig.
 */
function muscleDemo(avatars: readonly HumanoidAvatar[]): string[] {
    const pose = new HumanPose();
    const set: [string, number][] = [
        ["Left Arm Down-Up", 0.6],
        ["Right Forearm Stretch", -1],
        ["Head Turn Left-Right", 0.5],
        ["Left Upper Leg Front-Back", -0.4],
        ["Left Lower Leg Stretch", -0.6],
        ["Spine Front-Back", -0.25],
    ];
    for (const [name, value] of set) pose.values[MuscleIndexFromName(name)] = value;
    const lines = ["Muscle space: one muscle pose (" + set.map(([n, v]) => `${n} ${v}`).join(", ") + ") on every sample"];
    for (const avatar of avatars) {
        const rigPose = DecodeHumanPose(avatar, pose, CreateReferenceRigPose(avatar));
        const w = ComputeRigWorldPose(avatar.rig, rigPose).positions;
        const at = (b: HumanBone): Vector3 => w[avatar.getJoint(b)];
        const arm = at(HumanBone.LeftLowerArm).subtract(at(HumanBone.LeftUpperArm));
        const elevation = 90 - angleDeg(arm, avatar.frame.up);
        const elbow = angleDeg(
            at(HumanBone.RightLowerArm).subtract(at(HumanBone.RightUpperArm)),
            at(HumanBone.RightHand).subtract(at(HumanBone.RightLowerArm)),
        );
        const knee = angleDeg(at(HumanBone.LeftLowerLeg).subtract(at(HumanBone.LeftUpperLeg)), at(HumanBone.LeftFoot).subtract(at(HumanBone.LeftLowerLeg)));
        const back = EncodeHumanPose(avatar, rigPose, new HumanPose());
        let worst = 0;
        for (let i = 0; i < MUSCLE_COUNT; i++) {
            if (avatar.isMapped(Muscles[i].bone)) worst = Math.max(worst, Math.abs(back.values[i] - pose.values[i]));
        }
        lines.push(
            `  ${avatar.name.padEnd(28)} left arm ${elevation.toFixed(1)} deg above horizontal, right elbow bent ${elbow.toFixed(1)} deg, ` +
                `left knee bent ${knee.toFixed(1)} deg; muscles read back within ${worst.toExponential(1)}`,
        );
    }
    return lines;
}

/**
 * Converts the sample walk, written as a BVH file, into a muscle clip, through its binary file,
 * and plays one frame of it on every sample.
 */
function clipDemo(avatars: readonly HumanoidAvatar[]): string[] {
    const text = SampleWalkBvh(SampleCharacters[SampleCharacters.length - 1], { upAxis: "z", units: "inches" });
    const bvh = CreateRigFromBvh(ParseBvh(text, "sample-walk.bvh"));
    const made = ConvertBvhToMuscleClip(bvh);
    const bytes = SerializeMuscleClipToBinary(made);
    const clip = ParseMuscleClip(bytes, "sample-walk.muscle.bin");
    const planted = (bit: number): number => Array.from(clip.contacts).filter((c) => c & bit).length;
    const lines = [
        `Clip conversion: a procedural walk written as BVH (${text.length} bytes, ${bvh.bvh.frameCount} frames at ${Math.round(1 / bvh.bvh.frameTimeSeconds)} fps, Z-up inches)`,
        `  -> muscle clip: ${clip.curves.length} curves, ${clip.keyCount} keys within ${clip.toleranceDeg} deg, ${bytes.length} bytes binary (${((100 * bytes.length) / text.length).toFixed(0)}% of the BVH), loop ${clip.loop}`,
        `  feet planted: left ${planted(FootContact.Left)} frames, right ${planted(FootContact.Right)} of ${clip.frameCount}; warnings: ${clip.warnings.length ? clip.warnings.join("; ") : "none"}`,
        `  frame ${Math.floor(clip.frameCount / 4)} played on every sample (same muscles, each body's own size):`,
    ];
    const sampler = new MuscleClipSampler(clip);
    const pose = sampler.sampleFrameToRef(Math.floor(clip.frameCount / 4), new HumanPose());
    for (const avatar of avatars) {
        const w = ComputeRigWorldPose(avatar.rig, DecodeHumanPose(avatar, pose, CreateReferenceRigPose(avatar))).positions;
        const at = (b: HumanBone): Vector3 => w[avatar.getJoint(b)];
        const stride = Vector3.Dot(at(HumanBone.LeftFoot).subtract(at(HumanBone.RightFoot)), avatar.frame.forward);
        const hips =
            Vector3.Dot(at(HumanBone.Hips), avatar.frame.up) -
            Math.min(Vector3.Dot(at(HumanBone.LeftFoot), avatar.frame.up), Vector3.Dot(at(HumanBone.RightFoot), avatar.frame.up));
        lines.push(`    ${avatar.name.padEnd(28)} feet ${Math.abs(stride).toFixed(2)} m apart front to back, hips ${hips.toFixed(2)} m above the lower ankle`);
    }
    return lines;
}

/**
 * The demo on built-in samples (no files needed): builds each sample skeleton, maps it onto the
 * humanoid and makes its T-pose; one sample goes through a BVH file written and read back (Z-up,
 * inches) to show the BVH path; then one muscle pose is played on all of them and read back.
 * Returns the report text.
 */
export function RunDemo(): string {
    const out: string[] = ["babylon-humanoid demo: built-in sample characters, mapped onto the humanoid", ""];
    const avatars: HumanoidAvatar[] = [];
    for (const spec of SampleCharacters) {
        let rig: IRig = BuildSampleRig(spec);
        let extra = `${spec.naming === "none" ? "unnamed joints" : `${spec.naming} names`}, ${spec.height} m ${spec.build}, arms ${spec.armsDownDeg} deg below horizontal${spec.oddLocalAxes ? ", scrambled local axes" : ""}`;
        if (spec.naming === "cmu-asf") {
            const text = WriteBvhRestPose(rig, { upAxis: "z", units: "inches" });
            const bvh = CreateRigFromBvh(ParseBvh(text, `${spec.name}.bvh`));
            rig = bvh.rig;
            extra += `; read back from a BVH written Z-up in inches (${text.length} bytes): detected ${bvh.conversion.upAxis.toUpperCase()}-up, ${bvh.conversion.unitsName}`;
        }
        const avatar = BuildHumanoidAvatar(rig);
        avatars.push(avatar);
        out.push(...describeAvatar(spec.name, avatar, extra), "");
    }
    out.push(...muscleDemo(avatars), "");
    out.push(...clipDemo(avatars), "");
    return out.join("\n");
}

/**
 * A built-in sample character written as a GLB file (its skeleton as nodes under a `__rig__` node,
 * no mesh). Nodes are named as the joints, `joint<N>` (N the rig joint's index) for unnamed joints,
 * made unique with `_2`... if a name would repeat.
 */
export async function WriteSampleCharacterGlbAsync(spec: ISampleCharacterSpec, file: string): Promise<void> {
    const saved = { log: Logger.Log, warn: Logger.Warn };
    Logger.Log = () => undefined;
    Logger.Warn = () => undefined;
    const engine = new NullEngine();
    try {
        const scene = new Scene(engine);
        CreateTransformNodesFromRig(BuildSampleRig(spec), scene);
        SetGltfExportNodeNames(scene.transformNodes);
        const { GLTF2Export } = await import("@babylonjs/serializers/glTF/2.0/index.js");
        const data = await GLTF2Export.GLBAsync(scene, spec.name, { exportWithoutWaitingForScene: true });
        const blob = Object.values(data.files)[0] as Blob;
        await writeFile(file, new Uint8Array(await blob.arrayBuffer()));
    } finally {
        engine.dispose();
        Logger.Log = saved.log;
        Logger.Warn = saved.warn;
    }
}

/**
 * The main job end to end on built-in samples: the sample walk written as a BVH (mocap on a
 * CMU-style skeleton, Z-up inches) is converted and retargeted onto the chibi sample (big head,
 * short legs), written as a GLB any glTF viewer plays, and measured against Babylon's own
 * AnimatorAvatar on the same pair. Files go to `outputDir`. Returns the report lines.
 */
export async function RunRetargetDemoAsync(outputDir: string): Promise<string[]> {
    await mkdir(outputDir, { recursive: true });
    const source = SampleCharacters[SampleCharacters.length - 1];
    const target = SampleCharacters.find((s) => s.name.includes("chibi")) ?? SampleCharacters[0];
    const bvhFile = join(outputDir, "sample-walk.bvh");
    const characterFile = join(outputDir, `${target.name}.glb`);
    const outFile = join(outputDir, `sample-walk-on-${target.name}.glb`);
    await writeFile(bvhFile, SampleWalkBvh(source, { upAxis: "z", units: "inches" }));
    await WriteSampleCharacterGlbAsync(target, characterFile);
    const result = await RetargetFileToGlbAsync(bvhFile, characterFile, outFile);
    const a = result.animations[0];
    const lines = [
        `Retarget, end to end: ${bvhFile} (${source.name}, ${source.height} m) onto ${characterFile} (${target.name}, ${target.height} m ${target.build})`,
        `  -> ${outFile}: ${result.bytes} bytes, ${a.frames} frames at ${Number(a.frameRate.toFixed(2))} fps; feet within ${(1000 * a.maxFootErrorMetres).toFixed(1)} mm of their goals, ` +
            `limbs at most ${(100 * (a.maxStretch - 1)).toFixed(1)}% stretched, ${a.unreachableFrames} frames out of reach`,
    ];
    const q = await MeasureQualityPairAsync(bvhFile, characterFile);
    const rows: Array<[string, (r: NonNullable<typeof q.animatorAvatar>) => number, number]> = [
        ["foot skating (leg lengths per contact second)", (r) => r.footSkate, 4],
        ["planted feet off the ground (leg lengths)", (r) => r.contactHeightError, 4],
        ["feet and hands off the scaled goals (leg lengths)", (r) => r.goalError, 4],
        ["longest limb (x rest length)", (r) => r.maxStretch, 3],
        ["limb directions vs the source (deg)", (r) => r.poseErrorDeg, 2],
        ["jerk vs the source's", (r) => r.jerkRatio, 2],
    ];
    lines.push(`  quality (${q.frames} frames)                          ours    Babylon's AnimatorAvatar`);
    for (const [name, get, digits] of rows) {
        lines.push(
            `    ${name.padEnd(50)} ${get(q.ours).toFixed(digits).padStart(8)}  ${q.animatorAvatar ? get(q.animatorAvatar).toFixed(digits).padStart(8) : "n/a"}`,
        );
    }
    lines.push(`  Open ${outFile} in any glTF viewer (or the playground) to watch it.`);
    return lines;
}

/** {@link RunDemo}, then {@link RunRetargetDemoAsync} into `outputDir`. */
export async function RunFullDemoAsync(outputDir = "demo-output"): Promise<string> {
    const text = RunDemo();
    const retarget = await RunRetargetDemoAsync(outputDir);
    return [text, ...retarget, "", "Next: `babylon-humanoid inspect`, `convert` and `retarget` on your own GLB, glTF, VRM or BVH files."].join("\n");
}
