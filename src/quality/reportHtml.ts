import type { IQualityMiss } from "./grade.js";
import { EscapeMarkup, FileNameOf } from "./markup.js";
import type { IRetargetQuality, IRetargetQualitySummary } from "./metrics.js";

/** One pair of a report: a source clip onto a target, ours and Babylon's AnimatorAvatar. */
export interface IQualityReportPair {
    /** The source file, as given. */
    readonly source: string;
    /** The clip's name. */
    readonly clip: string;
    /** The target file, as given. */
    readonly target: string;
    /** Frames compared. */
    readonly frames: number;
    /** Our retarget (default animator settings, `rootMotion: "clip"`). */
    readonly ours: IRetargetQuality;
    /** Babylon's `AnimatorAvatar.retargetAnimationGroup`, or null when it could not run (see `warnings`). */
    readonly animatorAvatar: IRetargetQuality | null;
    /** What went wrong or was worked around. */
    readonly warnings: readonly string[];
    /** Foot skating of the source's own motion on its own contacts (leg lengths per contact second). */
    readonly sourceFootSkate: number;
    /** The source's own planted feet from its floor, leg lengths (`GradeQualityPair`). */
    readonly sourceContactHeight: number;
    /** Leg length over the centre-of-mass height of the source and the target (`GradeQualityPair`). */
    readonly sourceLegRatio: number;
    readonly targetLegRatio: number;
    /** Our runtime's settings for the pair (proportions, whether feet were planted). */
    readonly settings: {
        readonly proportions: "legs" | "com";
        readonly planting: boolean;
        readonly footIK: boolean;
        /** Animator updates per clip frame (1 when absent, as in reports before the option). */
        readonly updatesPerFrame?: number;
        /** How the avatars' reference T-poses were made (`"auto"` when absent, as in reports before the option). */
        readonly tPose?: "auto" | "rest" | "strict";
    };
    /** The thresholds the pair misses, worst first (`GradeQualityPair`); empty when it meets them all. */
    readonly misses: readonly IQualityMiss[];
    /**
     * The stick-figure filmstrip of the pair (source, ours, AnimatorAvatar at a few frames): `<svg>`
     * markup from `RenderFilmstripSvg`, shown above the plots; absent: none shown. Not in the JSON.
     */
    readonly filmstrip?: string;
}

/** The headline figures, in the order of the summary table: key, label, digits. */
export const SUMMARY_METRICS: ReadonlyArray<readonly [keyof IRetargetQualitySummary, string, number]> = [
    ["footSkate", "foot skating (leg/s)", 4],
    ["contactHeightError", "contact height (leg)", 4],
    ["goalError", "goal error (leg)", 4],
    ["maxStretch", "max stretch (x rest)", 3],
    ["poseErrorDeg", "pose error (deg)", 2],
    ["jerkRatio", "jerk / source", 2],
    ["boneJerkMax", "worst bone jerk / source", 2],
    ["floorOffset", "planted feet above floor (leg)", 4],
];

/**
 * The pairs worst first: by how far past its worst-missed threshold each is (figure over limit),
 * then those that meet every threshold, in their order. Returns a new array.
 */
export function SortQualityPairsWorstFirst<T extends Pick<IQualityReportPair, "misses">>(pairs: readonly T[]): T[] {
    const worst = (p: T): number => (p.misses.length ? p.misses[0].excess : 0);
    return pairs
        .map((p, i) => [p, i] as const)
        .sort(([a, i], [b, j]) => worst(b) - worst(a) || i - j)
        .map(([p]) => p);
}

/** The report's JSON (`--json`): the summary figures of every pair, worst first, with the thresholds it misses and the per-segment and per-bone figures. */
export function QualityReportJson(pairs: readonly IQualityReportPair[]): {
    pairs: Array<{
        source: string;
        clip: string;
        target: string;
        frames: number;
        ours: IRetargetQualitySummary;
        animatorAvatar: IRetargetQualitySummary | null;
        misses: readonly IQualityMiss[];
        sourceFootSkate: number;
        sourceContactHeight: number;
        sourceLegRatio: number;
        targetLegRatio: number;
        settings: IQualityReportPair["settings"];
        segmentErrorDeg: Record<string, number>;
        boneJerkRatio: Record<string, number>;
    }>;
} {
    const pick = (q: IRetargetQuality | null): IRetargetQualitySummary | null =>
        q && (Object.fromEntries(SUMMARY_METRICS.map(([k]) => [k, q[k]])) as unknown as IRetargetQualitySummary);
    return {
        pairs: SortQualityPairsWorstFirst(pairs).map((p) => ({
            source: p.source,
            clip: p.clip,
            target: p.target,
            frames: p.frames,
            ours: pick(p.ours)!,
            animatorAvatar: pick(p.animatorAvatar),
            misses: p.misses,
            sourceFootSkate: p.sourceFootSkate,
            sourceContactHeight: p.sourceContactHeight,
            sourceLegRatio: p.sourceLegRatio,
            targetLegRatio: p.targetLegRatio,
            settings: p.settings,
            segmentErrorDeg: p.ours.segmentErrorDeg,
            boneJerkRatio: p.ours.boneJerkRatio,
        })),
    };
}

/** The runtime settings of a report's pairs, in words. */
function settingsText(pairs: readonly IQualityReportPair[]): string {
    const s = pairs[0]?.settings;
    if (!s) return "default settings";
    const updates = s.updatesPerFrame !== undefined && s.updatesPerFrame > 1 ? `, ${s.updatesPerFrame} updates per clip frame` : "";
    const tPose = s.tPose !== undefined && s.tPose !== "auto" ? `, T-poses ${s.tPose}` : "";
    return `proportions ${s.proportions}${s.footIK ? "" : ", no foot IK"}${s.planting ? "" : ", no planting"}${updates}${tPose}`;
}

/** Every `step`-th value of an array, at most `max` values, rounded (for the embedded plot data). */
function thin(values: ArrayLike<number>, step: number, digits = 4): number[] {
    const out: number[] = [];
    for (let i = 0; i < values.length; i += step) out.push(Number(values[i].toFixed(digits)));
    return out;
}

/** The plot data of one pair: time, foot heights and speeds, contacts, stretch, goal error, per-segment errors. */
function plotData(p: IQualityReportPair): unknown {
    const q = p.ours;
    const step = Math.max(1, Math.ceil(q.frames / 600));
    const series = (r: IRetargetQuality | null) =>
        r && {
            footHeight: r.footHeight.map((s) => thin(s, step)),
            footSpeed: r.footSpeed.map((s) => thin(s, step)),
            stretch: thin(r.stretch, step),
            goalError: thin(r.goalErrorPerFrame, step),
            segments: r.segmentErrorDeg,
        };
    return {
        time: thin(
            Array.from({ length: q.frames }, (_, f) => f / q.frameRate),
            step,
        ),
        contacts: [
            thin(
                Array.from(q.contacts, (c) => c & 1),
                step,
                0,
            ),
            thin(
                Array.from(q.contacts, (c) => (c & 2) >> 1),
                step,
                0,
            ),
        ],
        ours: series(q),
        theirs: series(p.animatorAvatar),
    };
}

/** The script that draws the plots from the embedded data with uPlot. */
const PLOT_SCRIPT = `
(function () {
    var data = JSON.parse(document.getElementById("report-data").textContent);
    var OURS = "#1f77b4", THEIRS = "#d62728", OURS2 = "#6baed6", THEIRS2 = "#fc9272";
    function bands(contacts) {
        // Shade the frames where a foot touches the ground (left and right, two tints).
        return function (u) {
            var ctx = u.ctx, top = u.bbox.top, h = u.bbox.height, xs = u.data[0];
            ctx.save();
            contacts.forEach(function (c, s) {
                ctx.fillStyle = s === 0 ? "rgba(44,160,44,0.10)" : "rgba(148,103,189,0.10)";
                for (var i = 0; i < c.length; i++) {
                    if (!c[i]) continue;
                    var j = i;
                    while (j + 1 < c.length && c[j + 1]) j++;
                    var x0 = u.valToPos(xs[i], "x", true), x1 = u.valToPos(xs[Math.min(j + 1, xs.length - 1)], "x", true);
                    ctx.fillRect(x0, top + (s === 0 ? 0 : h / 2), Math.max(1, x1 - x0), h / 2);
                    i = j;
                }
            });
            ctx.restore();
        };
    }
    function plot(el, title, yLabel, time, lines, contacts) {
        var width = Math.min(560, el.parentElement.clientWidth || 560);
        var opts = {
            title: title, width: width, height: 220,
            scales: { x: { time: false } },
            axes: [{ label: "seconds" }, { label: yLabel }],
            series: [{}].concat(lines.map(function (l) { return { label: l.label, stroke: l.color, width: 1.5 }; })),
            hooks: contacts ? { drawClear: [bands(contacts)] } : {},
        };
        new uPlot(opts, [time].concat(lines.map(function (l) { return l.values; })), el);
    }
    function bars(el, title, segments) {
        var names = Object.keys(segments.ours);
        var xs = names.map(function (_, i) { return i; });
        var opts = {
            title: title, width: Math.min(560, el.parentElement.clientWidth || 560), height: 240,
            scales: { x: { time: false, range: [-0.5, names.length - 0.5] } },
            axes: [{ values: function (u, splits) { return splits.map(function (v) { return names[v] || ""; }); }, rotate: -40, size: 80, incrs: [1] }, { label: "degrees" }],
            series: [{}, { label: "ours", fill: OURS, stroke: OURS, paths: uPlot.paths.bars({ size: [0.35], align: -1 }) }]
                .concat(segments.theirs ? [{ label: "AnimatorAvatar", fill: THEIRS, stroke: THEIRS, paths: uPlot.paths.bars({ size: [0.35], align: 1 }) }] : []),
        };
        var d = [xs, names.map(function (n) { return segments.ours[n]; })];
        if (segments.theirs) d.push(names.map(function (n) { return segments.theirs[n] || 0; }));
        new uPlot(opts, d, el);
    }
    data.forEach(function (p, k) {
        var t = p.time, o = p.ours, a = p.theirs;
        function both(get, label) {
            var l = [{ label: "ours " + label[0], color: OURS, values: get(o, 0) }, { label: "ours " + label[1], color: OURS2, values: get(o, 1) }];
            if (a) l.push({ label: "AnimatorAvatar " + label[0], color: THEIRS, values: get(a, 0) }, { label: "AnimatorAvatar " + label[1], color: THEIRS2, values: get(a, 1) });
            return l;
        }
        plot(document.getElementById("height-" + k), "Foot height above its T-pose (m); shaded: left / right contact", "metres", t,
            both(function (r, s) { return r.footHeight[s]; }, ["left", "right"]), p.contacts);
        plot(document.getElementById("speed-" + k), "Foot speed, standing point (m/s); shaded: contact", "m/s", t,
            both(function (r, s) { return r.footSpeed[s]; }, ["left", "right"]), p.contacts);
        var st = [{ label: "ours", color: OURS, values: o.stretch }];
        if (a) st.push({ label: "AnimatorAvatar", color: THEIRS, values: a.stretch });
        plot(document.getElementById("stretch-" + k), "Longest limb (x its rest length)", "ratio", t, st);
        var ge = [{ label: "ours", color: OURS, values: o.goalError }];
        if (a) ge.push({ label: "AnimatorAvatar", color: THEIRS, values: a.goalError });
        plot(document.getElementById("goal-" + k), "Feet and hands from the scaled goals (leg lengths)", "leg lengths", t, ge);
        bars(document.getElementById("bones-" + k), "Limb direction error per segment (deg)", { ours: o.segments, theirs: a && a.segments });
    });
    document.body.setAttribute("data-plots-ready", String(document.querySelectorAll(".uplot").length));
})();
`;

/**
 * The quality report as one self-contained HTML page: a summary table (ours against Babylon's
 * AnimatorAvatar, the better figure of each pair highlighted), then per pair the plots over time
 * (foot height and speed with the contact frames shaded, limb stretch, goal error) and the per-segment
 * pose error, drawn by uPlot (inlined, so the file opens anywhere without a network), below the
 * pair's stick-figure filmstrip when it has one (`IQualityReportPair.filmstrip`, inlined as is).
 * @param pairs the measured pairs
 * @param uplot the uPlot library: its IIFE script and its CSS
 * @param title page title
 */
export function RenderQualityReportHtml(
    pairs: readonly IQualityReportPair[],
    uplot: { js: string; css: string },
    title = "babylon-humanoid retarget quality",
): string {
    const head = SUMMARY_METRICS.map(([, label]) => `<th colspan="2">${EscapeMarkup(label)}</th>`).join("");
    const sub = SUMMARY_METRICS.map(() => "<th>ours</th><th>AnimatorAvatar</th>").join("");
    const order = SortQualityPairsWorstFirst(pairs.map((p, k) => ({ p, k, misses: p.misses })));
    const rows = order
        .map(({ p, k }) => {
            const self = p.source === p.target ? ' <span class="tag">self round trip</span>' : "";
            const cells = SUMMARY_METRICS.map(([key, , digits]) => {
                const o = p.ours[key];
                const a = p.animatorAvatar ? p.animatorAvatar[key] : null;
                // Lower is better, except the jerk ratio, where nearer 1 is (below 1 the source's motion was smoothed away).
                const off = (v: number): number => (key === "jerkRatio" ? Math.abs(Math.log(v > 0 ? v : 1e-9)) : v);
                const oursBetter = a !== null && off(o) < off(a) - 1e-12;
                const theirsBetter = a !== null && off(a) < off(o) - 1e-12;
                return `<td class="${oursBetter ? "better" : ""}">${o.toFixed(digits)}</td><td class="${theirsBetter ? "better" : ""}">${a === null ? "n/a" : a.toFixed(digits)}</td>`;
            }).join("");
            const missed = p.misses.length
                ? `<td class="miss">${p.misses.map((m) => `${EscapeMarkup(m.check)} ${m.value.toPrecision(3)} &gt; ${m.limit.toPrecision(3)}`).join("<br>")}</td>`
                : '<td class="ok">all met</td>';
            return `<tr><td><a href="#pair-${k}">${EscapeMarkup(p.clip)}</a>${self}</td><td title="${EscapeMarkup(p.target)}">${EscapeMarkup(FileNameOf(p.target))}</td><td>${p.frames}</td>${cells}${missed}</tr>`;
        })
        .join("\n");
    const sections = pairs
        .map(
            (p, k) => `<section id="pair-${k}">
<h2>${EscapeMarkup(p.clip)} &rarr; ${EscapeMarkup(FileNameOf(p.target))}</h2>
<p class="meta">${EscapeMarkup(p.source)} onto ${EscapeMarkup(p.target)} &middot; ${p.frames} frames &middot; root path error ${p.ours.rootTrajectoryError.toFixed(4)} (ours)${p.animatorAvatar ? `, ${p.animatorAvatar.rootTrajectoryError.toFixed(4)} (AnimatorAvatar)` : ""} CoM heights &middot; sliding share ${(100 * p.ours.slidingShare).toFixed(1)}% (ours)${p.animatorAvatar ? `, ${(100 * p.animatorAvatar.slidingShare).toFixed(1)}% (AnimatorAvatar)` : ""}</p>
${p.warnings.length ? `<details><summary>${p.warnings.length} note(s)</summary><ul>${p.warnings.map((w) => `<li>${EscapeMarkup(w)}</li>`).join("")}</ul></details>` : ""}
${p.filmstrip ? `<details open class="film" id="film-${k}"><summary>stick figures</summary>${p.filmstrip}</details>` : ""}
<div class="grid"><div class="plot" id="height-${k}"></div><div class="plot" id="speed-${k}"></div><div class="plot" id="stretch-${k}"></div><div class="plot" id="goal-${k}"></div><div class="plot" id="bones-${k}"></div></div>
</section>`,
        )
        .join("\n");
    const data = JSON.stringify(pairs.map(plotData)).replace(/</g, "\\u003c");
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${EscapeMarkup(title)}</title>
<style>${uplot.css}</style>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: right; }
th { background: #f3f3f3; }
td:first-child, td:nth-child(2) { text-align: left; }
td.better { background: #d9f2d9; font-weight: 600; }
td.miss { background: #fbe3e3; text-align: left; font-size: 12px; }
td.ok { color: #2a7a2a; text-align: left; }
.tag { font-size: 11px; background: #eee; border-radius: 3px; padding: 0 4px; }
.grid { display: flex; flex-wrap: wrap; gap: 12px; }
.plot { min-width: 320px; }
.meta { color: #555; }
section { margin-top: 2em; border-top: 1px solid #ddd; }
.film { overflow-x: auto; margin: 0.5em 0 1em; }
.film summary { color: #555; cursor: pointer; }
</style>
</head>
<body>
<h1>${EscapeMarkup(title)}</h1>
<p>Every source clip onto every target: our runtime (muscle space, foot IK and planting, ${EscapeMarkup(settingsText(pairs))}) against Babylon's
<code>AnimatorAvatar.retargetAnimationGroup</code> on the same pair. Lower is better (the jerk ratio: nearer 1); the better of each pair is green.
The pairs that miss a threshold come first, worst first. Formulas and thresholds: docs/metrics.md.</p>
<p>Stick figures, per pair: the source, ours and AnimatorAvatar at the same frames, seen from the side (screen right: the source's direction of travel,
else its facing), each row in its own character's height, centred on the hips; left limbs green, right purple; the grey line is the character's
T-pose floor. Thin lines: each foot's path (toes) over the second around the frame (a planted foot is a dot, a sliding one a streak along the
floor) and, below the floor, the hips' travel. docs/metrics.md says more.</p>
<table id="summary">
<thead><tr><th rowspan="2">clip</th><th rowspan="2">target</th><th rowspan="2">frames</th>${head}<th rowspan="2">thresholds missed (docs/metrics.md)</th></tr><tr>${sub}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
${sections}
<script>${uplot.js}</script>
<script type="application/json" id="report-data">${data}</script>
<script>${PLOT_SCRIPT}</script>
</body>
</html>
`;
}
