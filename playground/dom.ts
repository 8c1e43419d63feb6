/** The few DOM helpers every part of the studio uses: find or make an element, show a status line, download a file. */

/** The element with this id (the page's markup is in index.html). */
export const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** Shows one line in the status box at the bottom left of the view (red when it is an error). */
export function ShowStatus(text: string, isError = false): void {
    const el = $("status");
    el.textContent = text;
    el.className = isError ? "error" : "";
}

/** Offers `data` as a file download named `name`. */
export function Download(name: string, data: BlobPart, type: string): void {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([data], { type }));
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** A new element of `tag` with `props` assigned and `children` appended (for panels that build their own markup). */
export function CreateElement<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    props: Partial<HTMLElementTagNameMap[K]> = {},
    ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
    const el = document.createElement(tag);
    Object.assign(el, props);
    el.append(...children);
    return el;
}

/** A side-bar row: a label's text beside its controls (the studio's `label.row` style). */
export function CreateRow(label: string, ...controls: HTMLElement[]): HTMLLabelElement {
    return CreateElement("label", { className: "row" }, CreateElement("span", { textContent: label }), ...controls);
}
