// The filmstrip as SVG: each row's figures at evenly spaced frames, with their feet's paths and
// the hips' travel (the view, what is drawn of each character and from where: filmstripView.ts).
import { BodySide } from "../humanoid/humanBones.js";
import { EscapeMarkup, FileNameOf } from "./markup.js";
import {
    FILMSTRIP_LAYOUT,
    FilmstripAlong,
    FilmstripViewDirection,
    PrepareFilmstripRow,
    type IFilmstripRecording,
    type IFilmstripRow,
} from "./filmstripView.js";

/** Figures per row when {@link IFilmstripOptions.frames} is not given. */
export const FILMSTRIP_FRAMES = 8;

/** Most figures per row {@link IFilmstripOptions.frames} may ask for (more would not fit a page). */
export const FILMSTRIP_MAX_FRAMES = 64;

/** Time each foot's path and the hips' travel cover around a figure's frame, seconds (within the figure's share of the clip). */
const TRAIL_SECONDS = 1;

/** Points of each foot's path per figure (at most; points closer than {@link TRAIL_MIN_STEP} to the previous one are dropped). */
const TRAIL_POINTS = 11;

/** A foot path's points closer than this to the previous point kept are dropped, tenths of a pixel. */
const TRAIL_MIN_STEP = 10;

/** Largest coordinate written, pixels: a runaway joint is clamped rather than written as a huge number. */
const MAX_PX = 1e5;

/** The hips' ground path (its travel over the cell's time) is drawn this far below the floor line, pixels. */
const TRAVEL_LINE_DROP = 5;
/** Room kept between a row's figures and the next row, pixels. */
const ROW_PAD = 4;
/** The most a row reaches above or below its floor line, in statures (a figure thrown far off is drawn cut rather than making the picture huge). */
const MAX_ROW_REACH = 3;

/** Options of {@link RenderFilmstripSvg}. */
export interface IFilmstripOptions {
    /** Figures per row, evenly spaced over the clip (1 to {@link FILMSTRIP_MAX_FRAMES}; fewer when the clip has fewer frames). Default {@link FILMSTRIP_FRAMES}. */
    frames?: number;
    /**
     * Height of the source's floor above its T-pose floor, metres along its up: where the clip's
     * feet stand when that is not under the rest pose's feet (a BVH whose hips rest at the origin),
     * as the clip's `groundHeight` times the source's scale. Default 0.
     */
    sourceFloorOffset?: number;
}

/** Colour classes: centre, left, right. */
const SIDE_CLASS = ["fc", "fl", "fr"] as const;

/** Colour classes of the thin paths (feet, hips' travel): centre, left, right. */
const TRAIL_CLASS = ["tc", "tl", "tr"] as const;

const STYLE =
    "<style>.filmstrip path{fill:none;stroke-linecap:round;stroke-linejoin:round;stroke-width:1.6}" +
    ".filmstrip .fc,.filmstrip .tc{stroke:#777}.filmstrip .fl,.filmstrip .tl{stroke:#2ca02c}.filmstrip .fr,.filmstrip .tr{stroke:#9467bd}" +
    ".filmstrip .tc,.filmstrip .tl,.filmstrip .tr{stroke-width:.8;stroke-opacity:.55}.filmstrip .ff{stroke:#bbb;stroke-width:1}" +
    ".filmstrip text{fill:#333}.filmstrip .fn{fill:#888;font-size:9px}</style>";

/** Tenths of a pixel, clamped; NaN stays NaN. */
function tenths(px: number): number {
    return Math.round(10 * Math.max(-MAX_PX, Math.min(MAX_PX, px)));
}

/** A number of tenths as the shortest SVG number ("12.3", ".5", "-.5", "7"). */
function num(t: number): string {
    const s = (t / 10).toString();
    return s.startsWith("0.") ? s.slice(1) : s.startsWith("-0.") ? "-" + s.slice(2) : s;
}

/** A separator before a number: none before a minus sign. */
function sep(s: string): string {
    return s.startsWith("-") ? s : " " + s;
}

/**
 * Path data of polylines given as point lists in tenths of a pixel (NaN breaks a line): `M` to the
 * first point, then relative `l` steps. A single point is left out, or, with `dots`, drawn as a
 * dot (`l0 0`, drawn by the round cap).
 */
function pathData(lines: ReadonlyArray<ReadonlyArray<readonly [number, number]>>, dots = false): string {
    let d = "";
    for (const line of lines) {
        let run: Array<readonly [number, number]> = [];
        const flush = (): void => {
            if (!run.length || (run.length === 1 && !dots)) {
                run = [];
                return;
            }
            d += "M" + num(run[0][0]) + sep(num(run[0][1])) + "l";
            if (run.length === 1) d += "0 0";
            for (let i = 1; i < run.length; i++) {
                const dx = num(run[i][0] - run[i - 1][0]);
                d += (i === 1 ? dx : sep(dx)) + sep(num(run[i][1] - run[i - 1][1]));
            }
            run = [];
        };
        for (const pt of line) {
            if (Number.isFinite(pt[0]) && Number.isFinite(pt[1])) {
                const last = run[run.length - 1];
                if (!last || last[0] !== pt[0] || last[1] !== pt[1]) run.push(pt);
            } else flush();
        }
        flush();
    }
    return d;
}

/** A line's points without those within {@link TRAIL_MIN_STEP} of the previous one kept (the last always kept). */
function thinned(points: ReadonlyArray<readonly [number, number]>): Array<readonly [number, number]> {
    const out: Array<readonly [number, number]> = [];
    points.forEach((pt, i) => {
        const last = out[out.length - 1];
        const far = !last || !(Math.hypot(pt[0] - last[0], pt[1] - last[1]) < TRAIL_MIN_STEP);
        if (far || (i === points.length - 1 && out.length > 0 && (last[0] !== pt[0] || last[1] !== pt[1]))) out.push(pt);
    });
    return out;
}

/** The figure of one row at one frame, with its feet's paths and its hips' travel over the cell's frames. */
function figureSvg(row: IFilmstripRow, frame: number, from: number, to: number, cellLeft: number, floorY: number): string {
    const rec = row.rec!;
    const p = rec.positions[frame];
    const hipsX = FilmstripAlong(p, row.hips, row.right);
    if (!Number.isFinite(hipsX)) return "";
    const cx = cellLeft + FILMSTRIP_LAYOUT.cellWidth / 2;
    const point = (q: Float32Array | undefined, j: number): [number, number] => [
        tenths(cx + (FilmstripAlong(q, j, row.right) - hipsX) * row.scale),
        tenths(floorY - (FilmstripAlong(q, j, row.up) - row.floor) * row.scale),
    ];
    const paths: string[] = [];
    // The feet's paths (toes, else the ankle) and the hips' travel, over the second around the
    // frame (within the cell's share of the clip).
    const half = rec.frameRate > 0 && Number.isFinite(rec.frameRate) ? Math.round((TRAIL_SECONDS / 2) * rec.frameRate) : to - from;
    const first = Math.max(from, frame - half);
    const span = Math.max(0, Math.min(to - 1, frame + half) - first);
    const count = Math.min(TRAIL_POINTS, span + 1);
    const trailFrames = Array.from({ length: count }, (_, k) => first + (count > 1 ? Math.round((k * span) / (count - 1)) : 0));
    if (count > 1) {
        row.trail.forEach((j, s) => {
            if (j < 0) return;
            const d = pathData([thinned(trailFrames.map((f) => point(rec.positions[f], j)))], true);
            if (d) paths.push(`<path class="${TRAIL_CLASS[s + 1]}" d="${d}"/>`);
        });
        const x0 = point(rec.positions[trailFrames[0]], row.hips)[0];
        const x1 = point(rec.positions[trailFrames[count - 1]], row.hips)[0];
        if (Number.isFinite(x0) && Number.isFinite(x1)) {
            paths.push(`<path class="${TRAIL_CLASS[0]}" d="M${num(x0)} ${num(tenths(floorY + TRAVEL_LINE_DROP))}h${num(x1 - x0)}"/>`);
        }
    }
    // The body: the far side first, so the near side's limbs cross over it.
    const depth = (joints: number[]): number => joints.reduce((s, j) => s + FilmstripAlong(p, j, row.view), 0) / Math.max(1, joints.length);
    const leftFar = !(depth(row.sideJoints[1]) > depth(row.sideJoints[0]));
    const order = leftFar ? [BodySide.Left, BodySide.Center, BodySide.Right] : [BodySide.Right, BodySide.Center, BodySide.Left];
    for (const side of order) {
        let d = pathData(row.chains[side].map((chain) => chain.map((j) => point(p, j))));
        if (side === BodySide.Center && row.head >= 0) {
            // The head: a circle on the head joint's far side from its parent (screen direction).
            const h = point(p, row.head);
            const base = point(p, row.headBase);
            let ux = h[0] - base[0];
            let uy = h[1] - base[1];
            const n = Math.hypot(ux, uy);
            if (n > 1e-6 && Number.isFinite(n)) {
                ux /= n;
                uy /= n;
            } else {
                ux = 0;
                uy = -1;
            }
            const r = tenths(row.headRadius);
            const c = [Math.round(h[0] + ux * r), Math.round(h[1] + uy * r)];
            if (Number.isFinite(c[0]) && Number.isFinite(c[1])) {
                d += `M${num(c[0] - r)}${sep(num(c[1]))}a${num(r)} ${num(r)} 0 1 0 ${num(2 * r)} 0a${num(r)} ${num(r)} 0 1 0${sep(num(-2 * r))} 0`;
            }
        }
        if (d) paths.push(`<path class="${SIDE_CLASS[side]}" d="${d}"/>`);
    }
    return `<g>${paths.join("")}</g>`;
}

/**
 * How far a row's figures reach above and below its floor line over the frames drawn (pixels, each
 * at least the layout's own room, which holds the hips' travel line under the floor): every drawn
 * joint, the head's circle on top. A row
 * whose character floats, sinks or jumps higher than its stature gets the room it needs, so rows
 * never draw over each other. Never more than {@link MAX_ROW_REACH} statures either way.
 */
function rowReach(row: IFilmstripRow, frames: readonly number[]): [number, number] {
    const L = FILMSTRIP_LAYOUT;
    let above = L.floorY - ROW_PAD;
    let below = L.cellHeight - L.floorY - ROW_PAD;
    const rec = row.rec;
    if (!rec) return [L.floorY, L.cellHeight - L.floorY];
    const joints = row.chains.flat(2);
    for (const f of frames) {
        const p = rec.positions[f];
        for (const j of joints) {
            const h = (FilmstripAlong(p, j, row.up) - row.floor) * row.scale;
            if (!Number.isFinite(h)) continue;
            const top = h + (j === row.head ? 2 * row.headRadius : 0);
            if (top > above) above = top;
            if (-h > below) below = -h;
        }
    }
    const cap = MAX_ROW_REACH * L.figureHeight;
    return [Math.ceil(Math.min(cap, above + ROW_PAD)), Math.ceil(Math.min(cap, below + ROW_PAD))];
}

/** The file name part of a path or name, shortened. */
function shortName(name: string): string {
    const base = FileNameOf(name);
    return base.length > 18 ? base.slice(0, 17) + "\u2026" : base;
}

/**
 * A stick-figure filmstrip of a retarget, as a compact inline SVG: three rows ("source", "ours",
 * "AnimatorAvatar"), each the same frames evenly spaced over the clip (the middle of each of
 * `frames` equal shares of it), each figure its rig's joints joined to their parents (the mapped
 * body bones and the unmapped joints between them; no fingers, eyes or jaw), left limbs green,
 * right purple, centre grey, the head a circle.
 *
 * - **View**: orthographic, from the side: screen right is the source's main direction of travel
 *   (its hips' ground path, from start to end) or, when it stays in place, the way its body faces
 *   on average; the same direction, taken in each character's T-pose frame (forward, left), for
 *   every row. Not mirrored (rig space is left-handed: the view looks along right x up).
 * - **Scale**: each row in its own character's stature (its highest drawn T-pose joint above its
 *   floor is {@link FILMSTRIP_LAYOUT}`.figureHeight` pixels), so proportions compare.
 * - **Floor**: each row's line is its character's T-pose floor, the lowest foot joint (ankle or
 *   toes) of its reference pose, so a planted foot's lowest joint touches it and a float or a sink
 *   shows; the source's is raised by `sourceFloorOffset`. A row is as tall as its figures reach
 *   over the frames drawn (the layout's height at least), so a character that floats or jumps
 *   higher than its stature is drawn whole and no row draws over another.
 * - **Travel**: each figure is centred on its hips (their position along screen right subtracted);
 *   thin lines show, over the cell's share of the clip, the path of each foot's toes (a planted
 *   foot is a dot, a sliding one a streak along the floor) and, just below the floor, the hips'
 *   travel.
 *
 * Coordinates are rounded to 0.1 px; one `<path>` per colour per figure. Cold path; never throws:
 * a joint with a non-finite position breaks its line, an empty recording draws no figures, a null
 * AnimatorAvatar recording a row saying it is not available.
 * @param source the source's own motion (sets the frames, the view and the times)
 * @param ours our runtime's retarget onto the target
 * @param animatorAvatar Babylon's AnimatorAvatar retarget onto the target, or null when it did not run
 * @param options figures per row, the source's floor
 * @returns the `<svg>` element's markup (with its own `<style>`), standalone (it has its namespace)
 */
export function RenderFilmstripSvg(
    source: IFilmstripRecording,
    ours: IFilmstripRecording,
    animatorAvatar: IFilmstripRecording | null,
    options: IFilmstripOptions = {},
): string {
    const L = FILMSTRIP_LAYOUT;
    const recs = [source, ours, animatorAvatar].filter((r): r is IFilmstripRecording => r !== null);
    const frames = Math.min(...recs.map((r) => r.positions.length));
    const asked = Math.floor(Number.isFinite(options.frames) ? options.frames! : FILMSTRIP_FRAMES);
    const n = Math.max(0, Math.min(frames, Math.max(1, Math.min(FILMSTRIP_MAX_FRAMES, asked))));
    const columns = Math.max(n, 1);
    const width = L.labelWidth + columns * L.cellWidth + L.rightMargin;
    let dir: [number, number] = [1, 0];
    try {
        dir = FilmstripViewDirection(source);
    } catch {
        // A recording too odd to find a direction in: the T-pose's forward.
    }
    const rows = [
        PrepareFilmstripRow("source", source, dir, options.sourceFloorOffset ?? 0),
        PrepareFilmstripRow("ours", ours, dir, 0),
        PrepareFilmstripRow("AnimatorAvatar", animatorAvatar, dir, 0),
    ];
    const windows = Array.from({ length: n }, (_, i) => {
        const from = Math.floor((i * frames) / n);
        const to = Math.max(from + 1, Math.floor(((i + 1) * frames) / n));
        return { from, to, frame: Math.min(frames - 1, Math.floor(((i + 0.5) * frames) / n)) };
    });
    // Each row as tall as its figures need (the layout's height at least), one below the other.
    const reach = rows.map((row) =>
        rowReach(
            row,
            windows.map((w) => w.frame),
        ),
    );
    const floorYs: number[] = [];
    let y = L.headerHeight;
    for (const [above, below] of reach) {
        floorYs.push(y + above);
        y += above + below;
    }
    const height = y;
    const parts: string[] = [
        `<svg xmlns="http://www.w3.org/2000/svg" class="filmstrip" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui,sans-serif" font-size="11" role="img" aria-label="Stick figures of the source, ours and AnimatorAvatar at ${n} frames">`,
        STYLE,
    ];
    const rate = source.frameRate;
    windows.forEach((w, i) => {
        const label = rate > 0 && Number.isFinite(rate) ? `${(w.frame / rate).toFixed(2)} s` : `frame ${w.frame}`;
        parts.push(`<text x="${L.labelWidth + (i + 0.5) * L.cellWidth}" y="12" text-anchor="middle">${label}</text>`);
    });
    if (!n) parts.push(`<text x="${L.labelWidth + 4}" y="${L.headerHeight + L.cellHeight / 2}">no frames to draw</text>`);
    rows.forEach((row, r) => {
        const floorY = floorYs[r];
        // The labels where a row of the layout's height has them, from the row's top.
        const labelY = floorY - reach[r][0] + L.floorY - 44;
        const name = row.rec?.avatar.rig.source;
        parts.push(
            `<text x="4" y="${labelY}">${row.label}</text>` + (name ? `<text class="fn" x="4" y="${labelY + 12}">${EscapeMarkup(shortName(name))}</text>` : ""),
        );
        if (!row.rec) {
            parts.push(`<text class="fn" x="${L.labelWidth + 4}" y="${labelY}">not available</text>`);
            return;
        }
        if (!n) return;
        const floors = windows.map((_, i) => `M${L.labelWidth + i * L.cellWidth + 6} ${floorY}h${L.cellWidth - 12}`).join("");
        parts.push(`<path class="ff" d="${floors}"/>`);
        windows.forEach((w, i) => {
            try {
                parts.push(figureSvg(row, w.frame, w.from, Math.min(w.to, frames), L.labelWidth + i * L.cellWidth, floorY));
            } catch {
                // Never throw from a picture: a figure that cannot be drawn is left out.
            }
        });
    });
    parts.push("</svg>");
    return parts.join("");
}
