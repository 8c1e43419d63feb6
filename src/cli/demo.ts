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
import { ParseMuscleClip, SerializeMuscleClipToBinary } from "../clip/clipFile.js";
import { FootContact, MuscleClipSampler } from "../clip/muscleClip.js";
import { ConvertBvhToMuscleClip } from "../io/bvhClip.js";

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
            ? `  T-pose enforced from the ${avatar.tPoseSource}: ${avatar.tPoseCorrections.map((c) => `${HumanBoneNames[c.bone]} ${c.angleDeg.toFixed(0)} deg`).join(", ")}`
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
    out.push("Next: `babylon-humanoid inspect <file>` and `babylon-humanoid convert <files...>` on your own GLB, glTF, VRM or BVH files.");
    return out.join("\n");
}
