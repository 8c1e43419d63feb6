import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { BodySide, HUMAN_BONE_COUNT, HumanBone, HumanBoneSides, IsFingerBone } from "../humanoid/humanBones.js";
import { EscapeMarkup, FileNameOf } from "./markup.js";

const B = HumanBone;

/** Figures per row when {@link IFilmstripOptions.frames} is not given. */
export const FILMSTRIP_FRAMES = 8;

/** Most figures per row {@link IFilmstripOptions.frames} may ask for (more would not fit a page). */
export const FILMSTRIP_MAX_FRAMES = 64;

/** The filmstrip's layout, SVG pixels (user units). */
export const FILMSTRIP_LAYOUT = {
    /** Width of the column of row labels on the left. */
    labelWidth: 96,
    /** Height of the header line with each column's time. */
    headerHeight: 16,
    /** Width of one figure's cell. */
    cellWidth: 110,
    /** Height of one row, at least (a row whose figures reach further is taller, see `RenderFilmstripSvg`). */
    cellHeight: 130,
    /** The floor line's distance below the top of its row, at least. */
    floorY: 108,
    /** Height of a character's T-pose stature (its highest drawn joint, the head, above its floor) on screen. */
    figureHeight: 80,
    /** Room on the right of the last column, for a figure lying down that reaches out of its cell. */
    rightMargin: 16,
} as const;

/**
 * The hips must spread at least this share of the character's stature along their main direction
 * (two standard deviations of their ground path) for the clip to count as travelling; below it the
 * view is taken across the body's facing. 0.25 of 1.7 m is about 0.4 m.
 */
const TRAVEL_MIN_SHARE = 0.25;

/** The facing averaged over the clip must be at least this long (unit vectors averaged) to be used; a spin averages out. */
const FACING_MIN_LENGTH = 0.3;

/** Time each foot's path and the hips' travel cover around a figure's frame, seconds (within the figure's share of the clip). */
const TRAIL_SECONDS = 1;

/** Points of each foot's path per figure (at most; points closer than {@link TRAIL_MIN_STEP} to the previous one are dropped). */
const TRAIL_POINTS = 11;

/** A foot path's points closer than this to the previous point kept are dropped, tenths of a pixel. */
const TRAIL_MIN_STEP = 10;

/** Radius of the head's circle, share of the character's stature. */
const HEAD_RADIUS_SHARE = 0.06;

/** Largest coordinate written, pixels: a runaway joint is clamped rather than written as a huge number. */
const MAX_PX = 1e5;

/** Samples of the source's whole clip used to find its direction of travel and its facing (at most). */
const DIRECTION_SAMPLES = 512;

/** The hips' ground path (its travel over the cell's time) is drawn this far below the floor line, pixels. */
const TRAVEL_LINE_DROP = 5;
/** Room kept between a row's figures and the next row, pixels. */
const ROW_PAD = 4;
/** The most a row reaches above or below its floor line, in statures (a figure thrown far off is drawn cut rather than making the picture huge). */
const MAX_ROW_REACH = 3;

/** What the filmstrip reads of an avatar: its rig's joints (parents), its bone map, its T-pose and its body frame. */
export type FilmstripAvatar = Pick<HumanoidAvatar, "rig" | "referenceWorld" | "frame" | "getJoint">;

/**
 * A recorded motion as the filmstrip reads it: every rig joint's world position per frame (rig
 * space, metres, `avatar.rig.joints` order, 3 floats a joint), as `IMotionRecording` in
 * metrics.ts, which is one.
 */
export interface IFilmstripRecording {
    /** The character (its rig's joints are the ones recorded). */
    readonly avatar: FilmstripAvatar;
    /** Frames per second (for the column times; not a positive number: frame numbers are shown instead). */
    readonly frameRate: number;
    /** Per frame, 3 floats per rig joint, in `avatar.rig.joints` order. */
    readonly positions: readonly Float32Array[];
}

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

/** One row's character, prepared once: what to draw and how to project it. */
interface IRow {
    readonly label: string;
    readonly rec: IFilmstripRecording | null;
    /** Screen right, screen up and the view direction (into the picture), rig space unit vectors. */
    readonly right: Vector3;
    readonly up: Vector3;
    readonly view: Vector3;
    /** Pixels per metre. */
    readonly scale: number;
    /** Floor height along up, metres. */
    readonly floor: number;
    /** Polylines of joints (child first, up to the top) per side: centre, left, right. */
    readonly chains: [number[][], number[][], number[][]];
    /** The joints each side's depth is judged by (left, right). */
    readonly sideJoints: [number[], number[]];
    readonly hips: number;
    readonly head: number;
    /** The joint the head's circle grows from (the head's parent), -1 for none. */
    readonly headBase: number;
    /** The point each foot's path follows (toes, else the foot), -1 for none: left, right. */
    readonly trail: [number, number];
    /** Head circle radius, pixels. */
    readonly headRadius: number;
}

/** Finite value or NaN from a recording. */
function coord(positions: Float32Array | undefined, joint: number, axis: number): number {
    if (!positions || joint < 0 || 3 * joint + 2 >= positions.length) return NaN;
    return positions[3 * joint + axis];
}

/** Dot product of a joint's position at a frame with a direction, NaN when unknown. */
function along(positions: Float32Array | undefined, joint: number, dir: Vector3): number {
    return coord(positions, joint, 0) * dir.x + coord(positions, joint, 1) * dir.y + coord(positions, joint, 2) * dir.z;
}

/** A unit vector, or the fallback when the vector has no length or is not finite. */
function unitOr(v: Vector3, fallback: Vector3): Vector3 {
    const l = v.length();
    return l > 1e-9 && Number.isFinite(l) ? v.scale(1 / l) : fallback.clone();
}

/** Whether a human bone is drawn: mapped body bones, without fingers, eyes and jaw. */
function drawnBone(avatar: FilmstripAvatar, b: HumanBone): boolean {
    return !IsFingerBone(b) && b !== B.LeftEye && b !== B.RightEye && b !== B.Jaw && avatar.getJoint(b) >= 0;
}

/** The avatar's T-pose up, forward and left, sanitized (unit, finite). */
function bodyAxes(avatar: FilmstripAvatar): { up: Vector3; forward: Vector3; left: Vector3 } {
    const up = unitOr(avatar.frame.up.clone(), Vector3.Up());
    const forward = unitOr(avatar.frame.forward.subtract(up.scale(Vector3.Dot(avatar.frame.forward, up))), Vector3.Forward());
    const left = unitOr(Vector3.Cross(forward, up), Vector3.Left());
    return { up, forward, left };
}

/** T-pose floor (lowest drawn foot joint along up) and stature (highest drawn joint above it), metres. */
function restFloorAndStature(avatar: FilmstripAvatar, up: Vector3): { floor: number; stature: number } {
    const ref = avatar.referenceWorld.positions;
    const height = (j: number): number => (j >= 0 && j < ref.length ? Vector3.Dot(ref[j], up) : NaN);
    let floor = Infinity;
    for (const b of [B.LeftFoot, B.RightFoot, B.LeftToes, B.RightToes]) {
        const h = height(avatar.getJoint(b));
        if (Number.isFinite(h)) floor = Math.min(floor, h);
    }
    let top = -Infinity;
    let low = Infinity;
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (!drawnBone(avatar, b)) continue;
        const h = height(avatar.getJoint(b));
        if (!Number.isFinite(h)) continue;
        top = Math.max(top, h);
        low = Math.min(low, h);
    }
    if (!Number.isFinite(floor)) floor = Number.isFinite(low) ? low : 0;
    const stature = top - floor;
    return { floor, stature: stature > 1e-6 && Number.isFinite(stature) ? stature : 1 };
}

/**
 * The view's screen-right direction in the source's T-pose frame, as (forward, left) weights: the
 * main direction of the hips' ground path when the clip travels (pointing from where it starts to
 * where it ends), else the body's facing averaged over the clip, else the T-pose's forward.
 */
function viewDirection(rec: IFilmstripRecording): [number, number] {
    const avatar = rec.avatar;
    const { up, forward, left } = bodyAxes(avatar);
    const { stature } = restFloorAndStature(avatar, up);
    const frames = rec.positions.length;
    const step = Math.max(1, Math.ceil(frames / DIRECTION_SAMPLES));
    const hips = avatar.getJoint(B.Hips);
    const xs: number[] = [];
    const ys: number[] = [];
    let fx = 0;
    let fy = 0;
    let facings = 0;
    const lul = avatar.getJoint(B.LeftUpperLeg);
    const rul = avatar.getJoint(B.RightUpperLeg);
    const lua = avatar.getJoint(B.LeftUpperArm);
    const rua = avatar.getJoint(B.RightUpperArm);
    const at = (p: Float32Array, j: number): Vector3 => new Vector3(coord(p, j, 0), coord(p, j, 1), coord(p, j, 2));
    for (let f = 0; f < frames; f += step) {
        const p = rec.positions[f];
        const a = along(p, hips, forward);
        const b = along(p, hips, left);
        if (Number.isFinite(a) && Number.isFinite(b)) {
            xs.push(a);
            ys.push(b);
        }
        // Body left from the legs and the arms, forward = up x left (rig space is left-handed).
        const l = unitOr(at(p, lul).subtract(at(p, rul)), Vector3.Zero()).add(unitOr(at(p, lua).subtract(at(p, rua)), Vector3.Zero()));
        const fwd = Vector3.Cross(up, l);
        const u = Vector3.Dot(fwd, forward);
        const v = Vector3.Dot(fwd, left);
        const n = Math.hypot(u, v);
        if (n > 1e-9 && Number.isFinite(n)) {
            fx += u / n;
            fy += v / n;
            facings++;
        }
    }
    let facing: [number, number] = [1, 0];
    if (facings && Math.hypot(fx, fy) / facings >= FACING_MIN_LENGTH) {
        const n = Math.hypot(fx, fy);
        facing = [fx / n, fy / n];
    }
    if (xs.length < 2) return facing;
    const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
    const my = ys.reduce((s, y) => s + y, 0) / ys.length;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (let i = 0; i < xs.length; i++) {
        sxx += (xs[i] - mx) ** 2;
        syy += (ys[i] - my) ** 2;
        sxy += (xs[i] - mx) * (ys[i] - my);
    }
    sxx /= xs.length;
    syy /= xs.length;
    sxy /= xs.length;
    const most = (sxx + syy) / 2 + Math.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy);
    if (!(2 * Math.sqrt(most) >= TRAVEL_MIN_SHARE * stature)) return facing;
    let ax = Math.abs(sxy) > 1e-12 ? most - syy : sxx >= syy ? 1 : 0;
    let ay = Math.abs(sxy) > 1e-12 ? sxy : sxx >= syy ? 0 : 1;
    const n = Math.hypot(ax, ay);
    if (!(n > 0)) return facing;
    ax /= n;
    ay /= n;
    // Point it the way the clip goes (start to end); a clip that comes back to its start: the way it faces.
    const net = (xs[xs.length - 1] - xs[0]) * ax + (ys[ys.length - 1] - ys[0]) * ay;
    const sign = Math.abs(net) > 0.5 * Math.sqrt(most) ? Math.sign(net) : facing[0] * ax + facing[1] * ay < 0 ? -1 : 1;
    return [sign * ax, sign * ay];
}

/** Prepares one row: which joints to join, on which side, and the projection. */
function prepareRow(label: string, rec: IFilmstripRecording | null, dir: [number, number], floorOffset: number): IRow {
    const empty: IRow = {
        label,
        rec: null,
        right: Vector3.Right(),
        up: Vector3.Up(),
        view: Vector3.Forward(),
        scale: 1,
        floor: 0,
        chains: [[], [], []],
        sideJoints: [[], []],
        hips: -1,
        head: -1,
        headBase: -1,
        trail: [-1, -1],
        headRadius: 0,
    };
    if (!rec) return empty;
    const avatar = rec.avatar;
    const joints = avatar.rig.joints;
    const { up, forward, left } = bodyAxes(avatar);
    const right = unitOr(forward.scale(dir[0]).add(left.scale(dir[1])), forward);
    // Babylon's camera looking along +Z sees +X to the right and +Y up: view = right x up.
    const view = unitOr(Vector3.Cross(right, up), Vector3.Forward());
    const rest = restFloorAndStature(avatar, up);
    const scale = FILMSTRIP_LAYOUT.figureHeight / rest.stature;
    const floor = rest.floor + (Number.isFinite(floorOffset) ? floorOffset : 0);

    // Joints drawn: the drawn bones' joints and the rig joints on the way from each to the nearest
    // drawn ancestor (an unmapped neck, twist or clavicle joint). A joint's segment to its parent
    // takes the side of the bones below it, centre when bones of both sides (or the centre) share it.
    const drawn = new Int8Array(joints.length).fill(-1); // side of the joint's segment to its parent, -1: none
    const kept = new Uint8Array(joints.length);
    const bones: HumanBone[] = [];
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const j = avatar.getJoint(b);
        if (drawnBone(avatar, b) && j < joints.length) {
            kept[j] = 1;
            bones.push(b);
        }
    }
    for (const b of bones) {
        const side = HumanBoneSides[b];
        const path: number[] = [];
        let j = avatar.getJoint(b);
        while (j >= 0) {
            path.push(j);
            const p = joints[j].parent;
            if (p >= 0 && kept[p]) {
                for (const c of path) drawn[c] = drawn[c] < 0 || drawn[c] === side ? side : BodySide.Center;
                break;
            }
            j = p;
        }
    }
    // Polylines: from each segment whose joint no other drawn segment hangs from, up while the
    // segments go on in the same colour (legs, arms and the spine each one line).
    const chains: [number[][], number[][], number[][]] = [[], [], []];
    const hasChild = new Uint8Array(joints.length);
    for (let c = 0; c < joints.length; c++) {
        const p = joints[c].parent;
        if (drawn[c] >= 0 && drawn[p] === drawn[c]) hasChild[p] = 1;
    }
    const done = new Uint8Array(joints.length);
    for (let c = joints.length - 1; c >= 0; c--) {
        if (drawn[c] < 0 || hasChild[c] || done[c]) continue;
        const side = drawn[c];
        const chain = [c];
        let cur = c;
        while (drawn[cur] === side && !done[cur]) {
            done[cur] = 1;
            cur = joints[cur].parent;
            chain.push(cur);
        }
        chains[side].push(chain);
    }
    const sideJoints: [number[], number[]] = [[], []];
    for (let c = 0; c < joints.length; c++) {
        if (drawn[c] === BodySide.Left) sideJoints[0].push(c);
        if (drawn[c] === BodySide.Right) sideJoints[1].push(c);
    }
    const head = avatar.getJoint(B.Head);
    const trailJoint = (toes: HumanBone, foot: HumanBone): number => (avatar.getJoint(toes) >= 0 ? avatar.getJoint(toes) : avatar.getJoint(foot));
    return {
        label,
        rec,
        right,
        up,
        view,
        scale,
        floor,
        chains,
        sideJoints,
        hips: avatar.getJoint(B.Hips),
        head,
        headBase: head >= 0 && head < joints.length ? joints[head].parent : -1,
        trail: [trailJoint(B.LeftToes, B.LeftFoot), trailJoint(B.RightToes, B.RightFoot)],
        headRadius: HEAD_RADIUS_SHARE * FILMSTRIP_LAYOUT.figureHeight,
    };
}

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
function figureSvg(row: IRow, frame: number, from: number, to: number, cellLeft: number, floorY: number): string {
    const rec = row.rec!;
    const p = rec.positions[frame];
    const hipsX = along(p, row.hips, row.right);
    if (!Number.isFinite(hipsX)) return "";
    const cx = cellLeft + FILMSTRIP_LAYOUT.cellWidth / 2;
    const point = (q: Float32Array | undefined, j: number): [number, number] => [
        tenths(cx + (along(q, j, row.right) - hipsX) * row.scale),
        tenths(floorY - (along(q, j, row.up) - row.floor) * row.scale),
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
    const depth = (joints: number[]): number => joints.reduce((s, j) => s + along(p, j, row.view), 0) / Math.max(1, joints.length);
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
function rowReach(row: IRow, frames: readonly number[]): [number, number] {
    const L = FILMSTRIP_LAYOUT;
    let above = L.floorY - ROW_PAD;
    let below = L.cellHeight - L.floorY - ROW_PAD;
    const rec = row.rec;
    if (!rec) return [L.floorY, L.cellHeight - L.floorY];
    const joints = row.chains.flat(2);
    for (const f of frames) {
        const p = rec.positions[f];
        for (const j of joints) {
            const h = (along(p, j, row.up) - row.floor) * row.scale;
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
        dir = viewDirection(source);
    } catch {
        // A recording too odd to find a direction in: the T-pose's forward.
    }
    const rows = [
        prepareRow("source", source, dir, options.sourceFloorOffset ?? 0),
        prepareRow("ours", ours, dir, 0),
        prepareRow("AnimatorAvatar", animatorAvatar, dir, 0),
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
