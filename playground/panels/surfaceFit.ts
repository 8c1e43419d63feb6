/**
 * "Surface fit": a skinned character's clip moved through its skin onto a coarser rig made from its
 * own (issue 13), fitted in the page with a progress bar, then drawn at the clip's frames: the
 * fitted skin coloured by each vertex's error over the source's skin, with the control run's and
 * the transfer's figures beside it.
 */
import { FindSkinnedMeshes, HumanoidError } from "../../src/index.js";
import { CreateElement as element, CreateRow as row } from "../dom.js";
import { SLOT } from "../scene.js";
import type { ITarget, Studio } from "../studio.js";
import { AddTestHook } from "../testHooks.js";
import { RunSurfaceFitAsync, type IFitRecording } from "../surfaceFit/fitJob.js";
import { SurfaceFitView } from "../surfaceFit/fitView.js";
import { ERROR_SCALE_END, ErrorRampCss } from "../surfaceFit/errorColours.js";
import { CreatePanelSection, type IStudioPanel } from "./panel.js";

/** The panel's state as the browser tests read it (`window.__studio.surfaceFit()`). */
export interface ISurfaceFitPanelState {
    state: "idle" | "fitting" | "done" | "error";
    /** Frames fitted of all (control run and transfer). */
    done: number;
    total: number;
    /** How many times the progress bar moved during the last fit. */
    progressUpdates: number;
    message: string;
    /** The frame shown, -1 before a fit. */
    frame: number;
    /** Fractions of the diagonal (errors) and of the motion (quality); null before a fit. */
    figures: {
        controlMeanError: number;
        controlMaxError: number;
        meanError: number;
        maxError: number;
        transferQuality: number;
        frames: number;
        seconds: number;
    } | null;
}

/** A fraction as a percentage; tiny ones (the control run's) in powers of ten so they do not read as 0. */
const percent = (x: number, digits: number): string => (x > 0 && 100 * x < 10 ** -digits ? `${(100 * x).toExponential(1)}%` : `${(100 * x).toFixed(digits)}%`);

/** Builds the panel's section in the side bar and draws the fit after every frame. */
export function MountSurfaceFitPanel(studio: Studio): IStudioPanel {
    const section = CreatePanelSection("Surface fit", { id: "surface-fit" });
    const character = element("select", { id: "fit-character" });
    const clip = element("select", { id: "fit-clip" });
    const rotationOnly = element("input", { id: "fit-rotation-only", type: "checkbox" });
    const vertices = element("input", { id: "fit-vertices", type: "number", min: "10", step: "100", value: "3000" });
    vertices.style.width = "70px";
    const run = element("button", { id: "fit-run", type: "button", textContent: "Fit" });
    const progress = element("progress", { id: "fit-progress", max: 1, value: 0 });
    progress.style.width = "100%";
    const message = element("div", { id: "fit-status", className: "note" });
    const figures = element("table", { id: "fit-figures" });
    const showFitted = element("input", { id: "fit-show-fitted", type: "checkbox", checked: true });
    const showSource = element("input", { id: "fit-show-source", type: "checkbox", checked: true });
    const ramp = element("div");
    ramp.style.cssText = `height: 10px; border: 1px solid #999; background: ${ErrorRampCss()}`;
    const legendEnd = element("span");
    const legend = element(
        "div",
        { id: "fit-legend", className: "note" },
        "Vertex error (fraction of the model's diagonal)",
        ramp,
        element("div", {}, element("span", { textContent: "0" }), legendEnd),
    );
    (legend.lastChild as HTMLElement).style.cssText = "display: flex; justify-content: space-between";
    legendEnd.textContent = `${percent(ERROR_SCALE_END, 0)} and above`;
    section.append(
        element("div", {
            className: "note",
            textContent:
                "Moves a clip through the skin: the character's rig with the upper chest and fingers merged into their parents is fitted, frame by frame, " +
                "to the surface the clip makes on its own rig. Drop a skinned character with clips (the Mixamo X Bot, say) to fit it.",
        }),
        row("Character", character),
        row("Clip", clip),
        row("Rotations only (bone lengths kept)", rotationOnly),
        row("Vertices fitted", vertices),
        run,
        progress,
        message,
        figures,
        row("Fitted skin, coloured by error", showFitted),
        row("Source skin (grey points)", showSource),
        legend,
    );

    const state: ISurfaceFitPanelState = { state: "idle", done: 0, total: 0, progressUpdates: 0, message: "", frame: -1, figures: null };
    let recording: IFitRecording | null = null;
    let view: SurfaceFitView | null = null;
    let clock = 0;
    const skinned: ITarget[] = [];

    function say(text: string, isError = false): void {
        state.message = text;
        message.textContent = text;
        message.className = isError ? "error" : "note";
    }

    function refreshClips(): void {
        const t = skinned[Number(character.value)];
        clip.innerHTML = "";
        for (const g of t?.character?.container.animationGroups ?? []) clip.add(new Option(g.name, g.name));
        const walk = [...clip.options].find((o) => /walk/i.test(o.value));
        if (walk) clip.value = walk.value;
    }

    function refreshCharacters(): void {
        const keep = skinned[Number(character.value)];
        skinned.length = 0;
        for (const t of studio.targets) {
            if (t.character && t.fileBytes && t.character.container.animationGroups.length && FindSkinnedMeshes(t.character.container.meshes).length)
                skinned.push(t);
        }
        character.innerHTML = "";
        skinned.forEach((t, i) => character.add(new Option(t.name, String(i))));
        if (keep && skinned.includes(keep)) character.value = String(skinned.indexOf(keep));
        run.disabled = state.state === "fitting" || !skinned.length;
        if (!skinned.length && state.state === "idle") say("No skinned character with clips loaded yet.");
        else if (state.state === "idle") say("");
        refreshClips();
    }

    function showFigures(r: IFitRecording): void {
        const c = r.control;
        const t = r.transfer;
        state.figures = {
            controlMeanError: c.meanError,
            controlMaxError: c.maxError,
            meanError: t.meanError,
            maxError: t.maxError,
            transferQuality: t.transferQuality,
            frames: t.frames,
            seconds: c.seconds + t.seconds,
        };
        figures.innerHTML = "";
        const line = (name: string, value: string): void => {
            const tr = figures.insertRow();
            tr.insertCell().textContent = name;
            tr.insertCell().textContent = value;
        };
        line("control run (own rig): mean error", percent(c.meanError, 4));
        line("control run: worst vertex", percent(c.maxError, 4));
        line(`coarse rig (${r.mergedBones} bones merged): mean error`, percent(t.meanError, 3));
        line("coarse rig: worst vertex", percent(t.maxError, 3));
        line("transfer quality (motion reproduced)", percent(t.transferQuality, 2));
        line("frames, fit time", `${t.frames} at ${r.frameRate} fps, ${(c.seconds + t.seconds).toFixed(2)} s`);
        line("diagonal", `${r.diagonal.toFixed(3)} m (3% = ${(100 * ERROR_SCALE_END * r.diagonal).toFixed(1)} cm)`);
    }

    async function fitAsync(): Promise<void> {
        const t = skinned[Number(character.value)];
        if (!t || !t.fileBytes || !clip.value || state.state === "fitting") return;
        state.state = "fitting";
        run.disabled = true;
        progress.value = 0;
        state.progressUpdates = 0;
        say(`Fitting ${clip.value}...`);
        try {
            const r = await RunSurfaceFitAsync(studio.view.engine, t.fileBytes, t.name, t.avatar, clip.value, {
                rotationOnly: rotationOnly.checked,
                vertices: Number(vertices.value) || undefined,
                onProgress: (done, total, phase) => {
                    state.done = done;
                    state.total = total;
                    state.progressUpdates++;
                    progress.value = done / Math.max(1, total);
                    say(`Fitting ${clip.value}: ${phase === "control" ? "control run (own rig)" : "coarse rig"}, frame ${done} of ${total}`);
                },
            });
            view?.dispose();
            recording = r;
            view = new SurfaceFitView(r, studio.view.scene);
            view.root.position.x = 2.2 * SLOT;
            clock = 0;
            view.showFrame(0);
            view.setVisible(showFitted.checked, showSource.checked);
            // Frame the fit: seen from the front, to the left of the source.
            const centre = view.centre();
            studio.view.camera.target.copyFrom(centre);
            studio.view.camera.radius = Math.max(2, 1.4 * r.diagonal);
            showFigures(r);
            state.state = "done";
            say(`${r.clip} fitted onto ${t.name}'s coarse rig${rotationOnly.checked ? " (rotations only)" : ""}.`);
        } catch (e) {
            state.state = "error";
            say(e instanceof HumanoidError ? e.message : `${t.name}: ${(e as Error).message}`, true);
        }
        run.disabled = !skinned.length;
    }

    studio.onTargetsChanged.add(refreshCharacters);
    character.addEventListener("change", refreshClips);
    run.addEventListener("click", () => void fitAsync());
    const visibility = (): void => view?.setVisible(showFitted.checked, showSource.checked);
    showFitted.addEventListener("change", visibility);
    showSource.addEventListener("change", visibility);
    AddTestHook("surfaceFit", (): ISurfaceFitPanelState => ({ ...state, frame: view?.frame ?? -1 }));
    refreshCharacters();

    function update(dt: number): void {
        if (!view || !recording) return;
        if (studio.playing) clock += dt;
        view.showFrame(Math.floor(clock * recording.frameRate) % recording.frames);
        studio.view.labels.set("surface-fit", `surface fit: ${recording.clip}, frame ${view.frame + 1}`, view.top());
    }
    return { name: "surface fit", update };
}
