/** Opening files: the header's file input and drag-and-drop anywhere on the page. */
import {
    AttachedFeetNotes,
    BuildHumanoidAvatar,
    BvhPoseSource,
    ConvertAnimationGroupToMuscleClip,
    ConvertBvhToMuscleClip,
    CreateRigFromBvh,
    EmbedGltfResources,
    ListGltfResources,
    GetRigRestPose,
    HumanoidError,
    LoadHumanoidCharacterAsync,
    ParseBvh,
    ParseMuscleClip,
} from "../../src/index.js";
import { $, ShowStatus } from "../dom.js";
import type { Studio } from "../studio.js";
import type { IStudioPanel } from "./panel.js";

/**
 * Reads one file by its extension: a motion becomes a source, a character a target. A `.gltf`
 * takes its buffers and images from `resources` (the other files opened with it). Errors go to
 * the status line.
 */
async function openFileAsync(studio: Studio, file: File, resources: ReadonlyMap<string, Uint8Array>): Promise<void> {
    const name = file.name;
    const lower = name.toLowerCase();
    let bytes: Uint8Array = new Uint8Array(await file.arrayBuffer());
    try {
        let missingImages: readonly string[] = [];
        if (lower.endsWith(".gltf")) ({ bytes, missingImages } = EmbedGltfResources(bytes, name, resources));
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
            const character = await LoadHumanoidCharacterAsync(bytes, name.replace(/\.vrma$/i, ".glb"), studio.view.scene, { attachDetachedFeet: false });
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
            const moved = t.character?.attachedFeet ?? [];
            const notes = [
                ...AttachedFeetNotes(moved),
                ...(moved.length ? ["its own clips are not offered (they place those feet from their old parents)"] : []),
                ...t.avatar.warnings,
                ...(missingImages.length ? [`images not given, shown blank: ${missingImages.join(", ")}`] : []),
            ];
            ShowStatus(`${name}: ${notes.length ? notes.join("; ") : "mapped"}`);
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
        const list = [...files];
        // A .gltf's buffers and images given with it (KayKit's characters are a .gltf, a .bin and
        // a texture) go into it and are not opened on their own (a .bin would read as a muscle clip).
        const gltfs = list.filter((f) => f.name.toLowerCase().endsWith(".gltf"));
        const resources = new Map<string, Uint8Array>();
        /** The file names (lower case) a .gltf names: taken by it even where it cannot be opened (its error stays on the status line). */
        const taken = new Set<string>();
        if (gltfs.length) {
            for (const f of list) if (!gltfs.includes(f)) resources.set(f.name, new Uint8Array(await f.arrayBuffer()));
            for (const g of gltfs) {
                try {
                    const named = ListGltfResources(new Uint8Array(await g.arrayBuffer()), g.name);
                    for (const path of [...named.buffers, ...named.images]) taken.add((path.split("/").pop() ?? path).toLowerCase());
                } catch {
                    // Reported when the .gltf itself is opened.
                }
            }
        }
        for (const f of list) if (!taken.has(f.name.toLowerCase())) await openFileAsync(studio, f, resources);
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
