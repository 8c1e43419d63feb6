/** "Settings": IK, stretch, foot planting, root motion, twist shares and what is drawn. */
import type { RootMotionMode } from "../../src/index.js";
import { $ } from "../dom.js";
import type { Studio } from "../studio.js";
import type { IStudioPanel } from "./panel.js";

/** Mounts the panel on its markup in index.html. Changes apply live. */
export function MountSettingsPanel(studio: Studio): IStudioPanel {
    const s = studio.settings;
    const checkbox = (id: string, set: (on: boolean) => void): void => {
        $<HTMLInputElement>(id).addEventListener("change", (e) => {
            set((e.target as HTMLInputElement).checked);
            studio.liveSettings();
        });
    };
    checkbox("foot-ik", (on) => (s.footIK = on));
    checkbox("hand-ik", (on) => (s.handIK = on));
    checkbox("planting", (on) => (s.planting = on));
    $<HTMLInputElement>("stretch").addEventListener("input", (e) => {
        s.stretch = Number((e.target as HTMLInputElement).value);
        $("stretch-value").textContent = `${Math.round(s.stretch * 100)}%`;
        studio.liveSettings();
    });
    $<HTMLSelectElement>("root-motion").addEventListener("change", (e) => {
        s.rootMotion = (e.target as HTMLSelectElement).value as RootMotionMode;
        studio.targets.forEach((t) => t.root.position.set(t.slotX, 0, 0));
        studio.rebuildAll();
    });
    for (const k of ["upperArm", "lowerArm", "upperLeg", "lowerLeg"] as const) {
        $<HTMLInputElement>(`twist-${k}`).addEventListener("change", (e) => {
            s.twist = { ...s.twist, [k]: Number((e.target as HTMLInputElement).value) };
            studio.rebuildAll();
        });
    }
    for (const k of ["skeletons", "body", "goals"] as const) {
        $<HTMLInputElement>(`show-${k}`).addEventListener("change", (e) => (s.show[k] = (e.target as HTMLInputElement).checked));
    }
    return { name: "settings" };
}
