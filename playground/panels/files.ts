/** Opening files: the header's file input and drag-and-drop anywhere on the page. */
import {
    BuildHumanoidAvatar,
    BvhPoseSource,
    ConvertAnimationGroupToMuscleClip,
    ConvertBvhToMuscleClip,
    CreateRigFromBvh,
    GetRigRestPose,
    HumanoidError,
    LoadHumanoidCharacterAsync,
    ParseBvh,
    ParseMuscleClip,
} from "../../src/index.js";
import { $, ShowStatus } from "../dom.js";
import type { Studio } from "../studio.js";
import type { IStudioPanel } from "./panel.js";

/** Reads one file by its extension: a motion becomes a source, a character a target. Errors go to the status line. */
async function openFileAsync(studio: Studio, file: File): Promise<void> {
    const name = file.name;
    const lower = name.toLowerCase();
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
        if (lower.endsWith(".bvh")) {
            const bvh = CreateRigFromBvh(ParseBvh(new TextDecoder().decode(bytes), name));
            const avatar = BuildHumanoidAvatar(bvh.rig);
            const clip = ConvertBvhToMuscleClip(bvh, avatar);
            studio.addSource({ name, clip, avatar, bvh: { rig: bvh, poses: new BvhPoseSource(bvh), pose: GetRigRestPose(bvh.rig) } });
            ShowStatus(`${name}: ${clip.frameCount} frames converted to a muscle clip, playing on ${studio.targets.length} character(s)`);
        } else if (lower.endsWith(".json") || lower.endsWith(".bin")) {
            const clip = ParseMuscleClip(bytes, name);
            studio.addSource({ name, clip, avatar: studio.sampleSource().avatar });
            ShowStatus(`${name}: muscle clip, ${clip.frameCount} frames`);
        } else if (lower.endsWith(".vrma")) {
            const character = await LoadHumanoidCharacterAsync(bytes, name.replace(/\.vrma$/i, ".glb"), studio.view.scene);
            for (const g of character.container.animationGroups) {
                g.stop();
                studio.addSource({
                    name: `${g.name} (${name})`,
                    clip: ConvertAnimationGroupToMuscleClip(g, character.avatar, { source: name }),
                    avatar: character.avatar,
                });
            }
            character.container.removeAllFromScene();
        } else if (lower.endsWith(".glb") || lower.endsWith(".gltf") || lower.endsWith(".vrm")) {
            const t = await studio.addFileTargetAsync(bytes, name);
            ShowStatus(`${name}: ${t.avatar.warnings.length ? t.avatar.warnings.join("; ") : "mapped"}`);
        } else {
            throw new HumanoidError("UNSUPPORTED_FORMAT", `${name}: use .glb, .gltf, .vrm, .vrma, .bvh, .muscle.json or .muscle.bin`);
        }
    } catch (e) {
        ShowStatus(e instanceof HumanoidError ? e.message : `${name}: ${(e as Error).message}`, true);
    }
    studio.targetsChanged();
}

/** Wires the file input and the page's drag-and-drop. */
export function MountFilesPanel(studio: Studio): IStudioPanel {
    const openFilesAsync = async (files: Iterable<File>): Promise<void> => {
        for (const f of files) await openFileAsync(studio, f);
    };
    $<HTMLInputElement>("file-input").addEventListener("change", (e) => {
        const input = e.target as HTMLInputElement;
        if (input.files) void openFilesAsync([...input.files]).then(() => (input.value = ""));
    });
    document.addEventListener("dragover", (e) => {
        e.preventDefault();
        document.body.classList.add("dragging");
    });
    document.addEventListener("dragleave", (e) => {
        if (!e.relatedTarget) document.body.classList.remove("dragging");
    });
    document.addEventListener("drop", (e) => {
        e.preventDefault();
        document.body.classList.remove("dragging");
        if (e.dataTransfer?.files.length) void openFilesAsync([...e.dataTransfer.files]);
    });
    return { name: "files" };
}
