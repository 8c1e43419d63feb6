/** The header's buttons: save the source as a muscle clip, save the first character retargeted as a GLB, open the Inspector. */
import type { Node as BabylonNode } from "@babylonjs/core/node.js";
import { BakeMuscleClipToAnimationGroup, SerializeMuscleClipToJson, SetGltfExportNodeNames } from "../../src/index.js";
import { $, Download, ShowStatus } from "../dom.js";
import type { Studio } from "../studio.js";
import type { IStudioPanel } from "./panel.js";

const fileStem = (name: string): string => name.replace(/[^\w.-]+/g, "_");

/** Wires the header's export and Inspector buttons. */
export function MountExportPanel(studio: Studio): IStudioPanel {
    const { scene } = studio.view;
    $("export-clip").addEventListener("click", () => {
        const source = studio.source;
        if (source) Download(`${fileStem(source.clip.name)}.muscle.json`, SerializeMuscleClipToJson(source.clip), "application/json");
    });
    $("export-glb").addEventListener("click", async () => {
        const t = studio.targets[0];
        const source = studio.source;
        const s = studio.settings;
        if (!t || !source) return;
        try {
            const group = BakeMuscleClipToAnimationGroup(source.clip, t.avatar, {
                targets: t.nodes,
                rigSpace: t.rigSpace,
                scene,
                footIK: s.footIK,
                handIK: s.handIK,
                stretch: s.stretch,
                rootMotion: s.rootMotion === "apply" ? "clip" : s.rootMotion === "delta" ? "in-place" : s.rootMotion,
            });
            const { GLTF2Export } = await import("@babylonjs/serializers/glTF/2.0/index.js");
            const keep = new Set<BabylonNode>([t.root, ...t.root.getChildren(undefined, false)]);
            // Every node under a name of its own (`node<N>` for an unnamed node N of the character file), put back after.
            const restoreNames = SetGltfExportNodeNames(keep, t.character?.gltf);
            const data = await GLTF2Export.GLBAsync(scene, "retargeted", {
                exportWithoutWaitingForScene: true,
                shouldExportNode: (n) => keep.has(n),
                shouldExportAnimation: (a) => group.targetedAnimations.some((ta) => ta.animation === a),
            }).finally(restoreNames);
            group.dispose();
            const blob = Object.values(data.files)[0] as Blob;
            Download(`${fileStem(source.clip.name)}-on-${t.name.replace(/\.[^.]+$/, "")}.glb`, blob, "model/gltf-binary");
            studio.restartAll();
            ShowStatus("GLB written");
        } catch (e) {
            ShowStatus(`Export failed: ${(e as Error).message}`, true);
        }
    });
    $("inspector").addEventListener("click", async () => {
        const { ShowInspector } = await import("@babylonjs/inspector");
        ShowInspector(scene);
    });
    return { name: "export" };
}
