/**
 * Text for the quality report's HTML and SVG: `&`, `<`, `>`, `"` and `'` as entities, so any file
 * name, clip name or warning can stand in an element or an attribute.
 */
export function EscapeMarkup(s: string): string {
    return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** The last part of a path (after its last `/` or `\`), or the path itself when that is empty. */
export function FileNameOf(path: string): string {
    return path.split(/[\\/]/).pop() || path;
}
