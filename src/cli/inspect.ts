import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBoneNames, HumanBoneRequired, HUMAN_BONE_COUNT, IsFingerBone } from "../humanoid/humanBones.js";
import { LoadHumanoidAvatarFromFileAsync, type ILoadAvatarOptions } from "../node/loadAvatar.js";
import type { ILoadedRig } from "../node/loadFile.js";
import { AttachedFeetNotes } from "../io/detachedFeetGltf.js";

/** What `babylon-humanoid inspect --json` prints: exactly these keys. */
export interface IInspectJson {
    /** The file as given on the command line. */
    file: string;
    /** Human bone name to joint name (`#N` for an unnamed glTF node, N its index in `nodes`). */
    boneMap: Record<string, string>;
    /** The direction the character faces in rig space (Babylon's left-handed, Y-up world). */
    facing: [number, number, number];
    /** Readable warnings. */
    warnings: string[];
}

/** Rounds for display and JSON: 4 decimals, no negative zero. */
function round(x: number): number {
    const r = Math.round(x * 1e4) / 1e4;
    return r === 0 ? 0 : r;
}

/** The JSON report of an avatar. */
export function InspectJson(file: string, avatar: HumanoidAvatar, loaded?: ILoadedRig): IInspectJson {
    const f = avatar.frame.forward;
    return {
        file,
        boneMap: avatar.toBoneMapJson(),
        facing: [round(f.x), round(f.y), round(f.z)],
        warnings: [...AttachedFeetNotes(loaded?.attachedFeet ?? []), ...avatar.warnings],
    };
}

/** The text report of an avatar, for people. */
export function InspectText(file: string, avatar: HumanoidAvatar, loaded: ILoadedRig): string {
    const lines: string[] = [];
    const rig = avatar.rig;
    const bones = rig.joints.filter((j) => j.kind === 0).length;
    lines.push(`${file}`);
    const fmt = loaded.format.toUpperCase();
    let what = `${fmt}, ${rig.joints.length} nodes, ${bones} joints`;
    if (loaded.bvh) {
        const c = loaded.bvh.conversion;
        what += `, ${loaded.bvh.bvh.frameCount} frames at ${(1 / loaded.bvh.bvh.frameTimeSeconds).toFixed(2)} fps, ${c.upAxis.toUpperCase()}-up, units: ${c.unitsName}`;
    }
    if (loaded.vrm) {
        what += `, ${loaded.vrm.kind} humanoid map (trusted)`;
    }
    lines.push(`  ${what}`);
    const f = avatar.frame.forward;
    lines.push(`  facing [${round(f.x)}, ${round(f.y)}, ${round(f.z)}] (Babylon world: left-handed, Y-up)`);
    const mapped = [...Array(HUMAN_BONE_COUNT).keys()].filter((b) => avatar.isMapped(b));
    lines.push("");
    lines.push(`bone map: ${mapped.length} of ${HUMAN_BONE_COUNT} human bones`);
    for (const b of mapped) {
        const src = avatar.getBoneSource(b);
        const doubt = avatar.doubtful.get(b);
        const mark = src === "user" ? "  (your map)" : "";
        lines.push(`  ${HumanBoneNames[b].padEnd(24)} ${avatar.getJointLabel(b)}${mark}${doubt ? `   ? ${doubt}` : ""}`);
    }
    const missing = [...Array(HUMAN_BONE_COUNT).keys()].filter((b) => !avatar.isMapped(b) && !HumanBoneRequired[b]);
    if (missing.length) {
        // A hand with no finger bones at all is one entry, not fifteen.
        const names: string[] = [];
        for (const side of ["left", "right"]) {
            const fingers = missing.filter((b) => IsFingerBone(b) && HumanBoneNames[b].startsWith(side));
            if (fingers.length === 15) names.push(`${side} fingers`);
        }
        for (const b of missing) {
            if (!IsFingerBone(b) || !names.includes(`${HumanBoneNames[b].startsWith("left") ? "left" : "right"} fingers`)) names.push(HumanBoneNames[b]);
        }
        lines.push(`  not in this skeleton (optional): ${names.join(", ")}`);
    }
    lines.push("");
    if (avatar.tPoseCorrections.length) {
        lines.push(`T-pose: enforced from the ${avatar.tPoseSource}; ${avatar.tPoseCorrections.length} bones turned:`);
        for (const c of avatar.tPoseCorrections) {
            lines.push(`  ${HumanBoneNames[c.bone].padEnd(24)} ${c.angleDeg.toFixed(1)} deg`);
        }
    } else {
        lines.push(`T-pose: captured from the ${avatar.tPoseSource} (already a T-pose)`);
    }
    lines.push("");
    const warnings = [...AttachedFeetNotes(loaded.attachedFeet ?? []), ...avatar.warnings];
    if (warnings.length) {
        lines.push("warnings:");
        for (const w of warnings) lines.push(`  - ${w}`);
    } else {
        lines.push("warnings: none");
    }
    return lines.join("\n");
}

/**
 * Runs `inspect` on one file: loads it, builds the avatar and returns the report (text or JSON).
 * Errors propagate as {@link HumanoidError}s.
 */
export async function RunInspectAsync(file: string, options: { json?: boolean } & ILoadAvatarOptions = {}): Promise<string> {
    const { avatar, loaded } = await LoadHumanoidAvatarFromFileAsync(file, options);
    try {
        return options.json ? JSON.stringify(InspectJson(file, avatar, loaded)) : InspectText(file, avatar, loaded);
    } finally {
        loaded.dispose();
    }
}
