/** The timeline bar: play/pause, the time slider, speed, loop, and the keyboard (space, arrows, Home). */
import { $ } from "../dom.js";
import type { Studio } from "../studio.js";
import type { IStudioPanel } from "./panel.js";

/** Mounts the bar on its markup in index.html and drives the studio's clock before every frame. */
export function MountTimelinePanel(studio: Studio): IStudioPanel {
    const play = $("play");
    const slider = $<HTMLInputElement>("time");
    const loop = $<HTMLInputElement>("loop");
    const speed = $<HTMLSelectElement>("speed");

    studio.onPlayingChanged.add((on) => (play.textContent = on ? "Pause" : "Play"));
    studio.onSourceChanged.add((s) => {
        slider.max = String(Math.max(0.001, s.clip.durationSeconds));
        loop.checked = studio.loop;
    });
    play.addEventListener("click", () => studio.setPlaying(!studio.playing));
    slider.addEventListener("input", () => {
        studio.setPlaying(false);
        studio.posingByMuscles = false;
        studio.seek(Number(slider.value));
    });
    loop.addEventListener("change", () => {
        studio.loop = loop.checked;
        studio.restartAll();
    });

    document.addEventListener("keydown", (e) => {
        const tag = (e.target as HTMLElement).tagName;
        if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
        if (e.key === " ") {
            e.preventDefault();
            studio.setPlaying(!studio.playing);
        } else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
            e.preventDefault();
            studio.setPlaying(false);
            studio.seek(studio.time + (e.key === "ArrowRight" ? 1 : -1) / (studio.source?.clip.frameRate ?? 30));
        } else if (e.key === "Home") {
            studio.seek(0);
        }
    });

    const { scene, engine } = studio.view;
    scene.onBeforeRenderObservable.add(() => {
        if (!studio.source) return;
        if (studio.playing) {
            studio.advance((engine.getDeltaTime() / 1000) * Number(speed.value));
            slider.value = String(studio.time);
        }
        $("time-value").textContent = `${studio.time.toFixed(2)} s`;
    });
    return { name: "timeline" };
}
