/**
 * The retargeting studio: a source motion on its own skeleton beside the same motion retargeted
 * onto one or more characters, playing in sync, with the bone map, muscles, settings and debug
 * drawing at hand. Works with nothing loaded (built-in samples); drop files to use your own.
 *
 * This file only wires: the scene (scene.ts), the model (studio.ts), one file per panel
 * (panels/, see panels/panel.ts for adding one), the overlay and the test hooks.
 */
import { registerBuiltInLoaders } from "@babylonjs/loaders/dynamic.js";
import { $ } from "./dom.js";
import { CreateStudioScene } from "./scene.js";
import { Studio } from "./studio.js";
import { MountOverlay } from "./overlay.js";
import { InstallTestHooks } from "./testHooks.js";
import type { IStudioPanel } from "./panels/panel.js";
import { MountCharactersPanel } from "./panels/characters.js";
import { MountSettingsPanel } from "./panels/settings.js";
import { MountBoneMapPanel } from "./panels/boneMap.js";
import { MountMusclesPanel } from "./panels/muscles.js";
import { MountTimelinePanel } from "./panels/timeline.js";
import { MountFilesPanel } from "./panels/files.js";
import { MountExportPanel } from "./panels/export.js";
import { MountSurfaceFitPanel } from "./panels/surfaceFit.js";
import { MountIkTargetsPanel } from "./panels/ikTargets.js";

registerBuiltInLoaders();
const view = CreateStudioScene($<HTMLCanvasElement>("canvas"), $("labels"));
const studio = new Studio(view);
InstallTestHooks(studio);

const panels: IStudioPanel[] = [
    MountCharactersPanel(studio),
    MountBoneMapPanel(studio),
    MountSettingsPanel(studio),
    MountMusclesPanel(studio),
    MountTimelinePanel(studio),
    MountFilesPanel(studio),
    MountExportPanel(studio),
    MountSurfaceFitPanel(studio),
    MountIkTargetsPanel(studio),
    MountOverlay(studio),
];
view.scene.onAfterRenderObservable.add(() => {
    const dt = view.engine.getDeltaTime() / 1000;
    for (const p of panels) p.update?.(dt);
});

// Start: the sample walk on two samples of other proportions.
studio.addSource(studio.sampleSource());
studio.addSampleTarget(0);
studio.addSampleTarget(2);
view.engine.runRenderLoop(() => view.scene.render());
window.addEventListener("resize", () => view.engine.resize());
void view.scene.whenReadyAsync().then(() => {
    window.__ready = true;
});
