import { BuildHumanoidAvatar, type HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBoneNames, HumanBoneRequired, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import type { IRig } from "../humanoid/rig.js";
import { ParseBvh } from "../io/bvh.js";
import { CreateRigFromBvh } from "../io/bvhRig.js";
import { WriteBvhRestPose } from "../io/bvhWriter.js";
import { BuildSampleRig, SampleCharacters } from "../samples/sampleCharacters.js";

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

/**
 * The demo on built-in samples (no files needed): builds each sample skeleton, maps it onto the
 * humanoid and makes its T-pose; one sample goes through a BVH file written and read back (Z-up,
 * inches) to show the BVH path. Returns the report text.
 */
export function RunDemo(): string {
    const out: string[] = ["babylon-humanoid demo: built-in sample characters, mapped onto the humanoid", ""];
    for (const spec of SampleCharacters) {
        let rig: IRig = BuildSampleRig(spec);
        let extra = `${spec.naming === "none" ? "unnamed joints" : `${spec.naming} names`}, ${spec.height} m ${spec.build}, arms ${spec.armsDownDeg} deg below horizontal${spec.oddLocalAxes ? ", scrambled local axes" : ""}`;
        if (spec.naming === "cmu-asf") {
            const text = WriteBvhRestPose(rig, { upAxis: "z", units: "inches" });
            const bvh = CreateRigFromBvh(ParseBvh(text, `${spec.name}.bvh`));
            rig = bvh.rig;
            extra += `; read back from a BVH written Z-up in inches (${text.length} bytes): detected ${bvh.conversion.upAxis.toUpperCase()}-up, ${bvh.conversion.unitsName}`;
        }
        out.push(...describeAvatar(spec.name, BuildHumanoidAvatar(rig), extra), "");
    }
    out.push("Next: `babylon-humanoid inspect <file>` on your own GLB, glTF, VRM or BVH files.");
    return out.join("\n");
}
