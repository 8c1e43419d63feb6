/** "Muscles": a slider per muscle that poses every character, and each muscle's range in degrees. */
import { GetHumanBodyPart, HumanBodyPart, Muscles } from "../../src/index.js";
import { $, ShowStatus } from "../dom.js";
import type { Studio } from "../studio.js";
import type { IStudioPanel } from "./panel.js";

/** Builds the sliders into the panel's markup in index.html. */
export function MountMusclesPanel(studio: Studio): IStudioPanel {
    const sliders: HTMLInputElement[] = [];
    const pose = studio.musclePose;
    const showValue = (s: HTMLInputElement, text: string): void => {
        (s.previousElementSibling!.lastChild as HTMLOutputElement).textContent = text;
    };

    /** Pauses and poses every character from the sliders, starting from the pose shown now. */
    function startPosing(): void {
        studio.setPlaying(false);
        studio.posingByMuscles = true;
        const from = studio.targets[0]?.animator?.player.pose;
        if (from) pose.copyFrom(from);
        pose.bodyPosition.set(0, pose.bodyPosition.y, 0);
        sliders.forEach((s, i) => {
            s.value = String(pose.values[i]);
            showValue(s, pose.values[i].toFixed(2));
        });
    }

    const box = $("muscles");
    const groups = new Map<HumanBodyPart, number[]>();
    Muscles.forEach((m, i) => {
        const part = GetHumanBodyPart(m.bone);
        if (!groups.has(part)) groups.set(part, []);
        groups.get(part)!.push(i);
    });
    for (const [part, list] of groups) {
        const h = document.createElement("div");
        h.className = "group";
        h.textContent = HumanBodyPart[part].replace(/([a-z])([A-Z])/g, "$1 $2");
        box.appendChild(h);
        for (const i of list) {
            const m = Muscles[i];
            const row = document.createElement("div");
            row.className = "muscle";
            const label = document.createElement("label");
            const id = `muscle-${i}`;
            label.htmlFor = id;
            const name = document.createElement("span");
            name.textContent = m.name;
            const value = document.createElement("output");
            value.textContent = "0";
            label.append(name, value);
            const slider = document.createElement("input");
            slider.type = "range";
            slider.id = id;
            slider.min = "-1";
            slider.max = "1";
            slider.step = "0.01";
            slider.value = "0";
            slider.dataset.muscle = m.name;
            const range = (which: 0 | 1): HTMLInputElement => {
                const n = document.createElement("input");
                n.type = "number";
                n.step = "1";
                n.value = String(which === 0 ? m.minDeg : m.maxDeg);
                n.title = which === 0 ? "degrees at -1" : "degrees at +1";
                n.setAttribute("aria-label", `${m.name} ${which === 0 ? "minimum" : "maximum"} degrees`);
                n.dataset.range = `${m.name}:${which}`;
                n.addEventListener("change", () => {
                    const lo = Number((row.querySelector('[data-range$=":0"]') as HTMLInputElement).value);
                    const hi = Number((row.querySelector('[data-range$=":1"]') as HTMLInputElement).value);
                    if (lo < 0 && hi > 0) {
                        studio.muscleRanges[m.name] = [lo, hi];
                        studio.rebuildAll();
                        if (studio.posingByMuscles) studio.applyMuscles();
                        studio.targetsChanged();
                    } else ShowStatus(`${m.name}: the range must go below and above 0 degrees`, true);
                });
                return n;
            };
            slider.addEventListener("input", () => {
                if (!studio.posingByMuscles) startPosing();
                pose.values[i] = Number(slider.value);
                value.textContent = `${Number(slider.value).toFixed(2)}`;
                studio.applyMuscles();
            });
            row.append(label, slider, range(0), range(1));
            box.appendChild(row);
            sliders[i] = slider;
        }
    }

    $("muscles-reset").addEventListener("click", () => {
        if (!studio.posingByMuscles) startPosing();
        pose.values.fill(0);
        pose.bodyRotation.set(0, 0, 0, 1);
        pose.bodyPosition.set(0, 1, 0);
        sliders.forEach((s) => {
            s.value = "0";
            showValue(s, "0.00");
        });
        studio.applyMuscles();
    });
    $("muscles-ranges-reset").addEventListener("click", () => {
        for (const k of Object.keys(studio.muscleRanges)) delete studio.muscleRanges[k];
        document.querySelectorAll<HTMLInputElement>("[data-range]").forEach((n) => {
            const [name, which] = n.dataset.range!.split(":");
            const m = Muscles.find((x) => x.name === name)!;
            n.value = String(which === "0" ? m.minDeg : m.maxDeg);
        });
        studio.rebuildAll();
        if (studio.posingByMuscles) studio.applyMuscles();
    });
    return { name: "muscles" };
}
