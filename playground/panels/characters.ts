/** "Motion and characters": the source clip list, the sample characters to add, and what is loaded. */
import { SampleCharacters } from "../../src/index.js";
import { $ } from "../dom.js";
import type { Studio } from "../studio.js";
import type { IStudioPanel } from "./panel.js";

/** Mounts the panel on its markup in index.html. */
export function MountCharactersPanel(studio: Studio): IStudioPanel {
    const sourceSelect = $<HTMLSelectElement>("source");
    studio.onSourceAdded.add(() => sourceSelect.add(new Option(studio.sources.at(-1)!.name, String(studio.sources.length - 1))));
    studio.onSourceChanged.add((s) => {
        sourceSelect.value = String(studio.sources.indexOf(s));
        $("source-info").textContent =
            `${s.clip.frameCount} frames at ${Number(s.clip.frameRate.toFixed(2))} fps, ${s.clip.durationSeconds.toFixed(2)} s${s.clip.warnings.length ? `; ${s.clip.warnings.join("; ")}` : ""}`;
    });
    sourceSelect.addEventListener("change", () => studio.useSource(studio.sources[Number(sourceSelect.value)]));

    const addSample = $<HTMLSelectElement>("add-sample");
    SampleCharacters.forEach((s, i) => addSample.add(new Option(s.name, String(i))));
    addSample.addEventListener("change", () => {
        if (addSample.value !== "") studio.addSampleTarget(Number(addSample.value));
        addSample.value = "";
    });

    studio.onTargetsChanged.add(() => {
        $("targets").textContent = `Characters: ${studio.targets.map((t) => t.name + (t.error ? " (error)" : "")).join(", ") || "none"}`;
    });
    return { name: "characters" };
}
