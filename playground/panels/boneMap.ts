/** "Bone map": the joint of every human bone of one character, editable, saved and loaded as JSON. */
import { GetRigJointLabel, HUMAN_BONE_COUNT, HumanBoneNames, HumanBoneRequired, ParseHumanBoneMap, RigJointKind } from "../../src/index.js";
import { $, Download } from "../dom.js";
import type { Studio } from "../studio.js";
import type { IStudioPanel } from "./panel.js";

/** Mounts the panel on its markup in index.html; it redraws when the characters change. */
export function MountBoneMapPanel(studio: Studio): IStudioPanel {
    const targetSelect = $<HTMLSelectElement>("map-target");
    const selected = () => studio.targets[Number(targetSelect.value)];

    function refreshTargets(): void {
        const keep = targetSelect.value;
        targetSelect.innerHTML = "";
        studio.targets.forEach((t, i) => targetSelect.add(new Option(t.name, String(i))));
        targetSelect.value = keep && Number(keep) < studio.targets.length ? keep : "0";
    }

    function refreshMap(): void {
        const t = selected();
        const table = $<HTMLTableElement>("map");
        table.innerHTML = "";
        $("map-error").textContent = t?.error ?? "";
        if (!t) return;
        const labels = t.rig.joints.map((j, i) => (j.kind === RigJointKind.Bone ? GetRigJointLabel(t.rig, i) : null)).filter((l): l is string => l !== null);
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            const row = table.insertRow();
            const mapped = t.avatar.getJointLabel(b);
            row.className = !mapped && HumanBoneRequired[b] ? "missing" : t.avatar.doubtful.has(b) ? "doubt" : "";
            const c0 = row.insertCell();
            c0.className = "bone";
            c0.textContent = HumanBoneNames[b];
            if (t.avatar.doubtful.has(b)) c0.title = t.avatar.doubtful.get(b)!;
            const sel = document.createElement("select");
            sel.dataset.bone = HumanBoneNames[b];
            sel.setAttribute("aria-label", `joint of ${HumanBoneNames[b]}`);
            sel.add(new Option("(none)", ""));
            for (const l of labels) sel.add(new Option(l, l));
            sel.value = mapped ?? "";
            sel.addEventListener("change", () => {
                t.overrides = { ...t.overrides, [HumanBoneNames[b]]: sel.value || null };
                studio.rebuildTarget(t);
                studio.restartAll();
                studio.targetsChanged();
            });
            row.insertCell().appendChild(sel);
        }
    }

    studio.onTargetsChanged.add(() => {
        refreshTargets();
        refreshMap();
    });
    targetSelect.addEventListener("change", refreshMap);
    $("map-save").addEventListener("click", () => {
        const t = selected();
        if (t) Download(`${t.name.replace(/\.[^.]+$/, "")}.bonemap.json`, t.avatar.serializeBoneMap(), "application/json");
    });
    $<HTMLInputElement>("map-load").addEventListener("change", async (e) => {
        const input = e.target as HTMLInputElement;
        const t = selected();
        const file = input.files?.[0];
        if (!t || !file) return;
        try {
            t.overrides = ParseHumanBoneMap(await file.text(), file.name);
            studio.rebuildTarget(t);
            studio.restartAll();
        } catch (err) {
            t.error = (err as Error).message;
        }
        input.value = "";
        studio.targetsChanged();
    });
    return { name: "bone map" };
}
