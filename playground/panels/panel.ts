/**
 * The studio's extension point: a panel is one file in this folder exporting a `Mount...Panel(studio)`
 * function that returns an {@link IStudioPanel}, and one line in main.ts that mounts it. A panel
 * finds its markup by id (the built-in ones, in index.html) or makes its own section in the side
 * bar with {@link CreatePanelSection}; it reads and drives the {@link Studio}, hears of changes
 * through the studio's observables, and may draw every frame from `update`. Panels never import
 * each other: what two panels share lives in the studio.
 *
 * A new panel (say, IK and look-at targets) is: `panels/ikTargets.ts` with
 * `export function MountIkTargetsPanel(studio: Studio): IStudioPanel`, a section from
 * `CreatePanelSection("IK and look-at")`, its gizmos made in `studio.view.scene`, and
 * `MountIkTargetsPanel(studio)` added to the list in main.ts.
 */
import type { Studio } from "../studio.js";

/** What the studio keeps of a mounted panel. */
export interface IStudioPanel {
    /** For messages and tests. */
    readonly name: string;
    /** Called after every rendered frame with the seconds since the last one (draw overlays here). */
    update?(dt: number): void;
}

/** The signature of a panel file's mount function. */
export type StudioPanelMount = (studio: Studio) => IStudioPanel;

/**
 * A collapsible section at the end of the side bar (a `<details>` with a `<summary>` title), for
 * panels that build their own markup. Returns the section; append the panel's elements to it.
 */
export function CreatePanelSection(title: string, options: { open?: boolean; id?: string } = {}): HTMLDetailsElement {
    const aside = document.querySelector("aside");
    if (!aside) throw new Error("the studio page has no <aside> side bar for the panel '" + title + "'");
    const section = document.createElement("details");
    if (options.id) section.id = options.id;
    section.open = !!options.open;
    const summary = document.createElement("summary");
    summary.textContent = title;
    section.appendChild(summary);
    aside.appendChild(section);
    return section;
}
