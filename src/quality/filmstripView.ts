// The filmstrip's view: how each row's character is projected (from which side, at what scale,
// over which floor) and which of its joints are joined into lines.
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { BodySide, HUMAN_BONE_COUNT, HumanBone, HumanBoneSides, IsFingerBone } from "../humanoid/humanBones.js";

const B = HumanBone;

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

/** Radius of the head's circle, share of the character's stature. */
const HEAD_RADIUS_SHARE = 0.06;

/** Samples of the source's whole clip used to find its direction of travel and its facing (at most). */
const DIRECTION_SAMPLES = 512;

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

/**
 * One row's character, prepared once: what to draw and how to project it.
 * @internal
 */
export interface IFilmstripRow {
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

/**
 * Finite value or NaN from a recording.
 * @internal
 */
export function FilmstripCoord(positions: Float32Array | undefined, joint: number, axis: number): number {
    if (!positions || joint < 0 || 3 * joint + 2 >= positions.length) return NaN;
    return positions[3 * joint + axis];
}

/**
 * Dot product of a joint's position at a frame with a direction, NaN when unknown.
 * @internal
 */
export function FilmstripAlong(positions: Float32Array | undefined, joint: number, dir: Vector3): number {
    return FilmstripCoord(positions, joint, 0) * dir.x + FilmstripCoord(positions, joint, 1) * dir.y + FilmstripCoord(positions, joint, 2) * dir.z;
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
 * @internal
 * The view's screen-right direction in the source's T-pose frame, as (forward, left) weights: the
 * main direction of the hips' ground path when the clip travels (pointing from where it starts to
 * where it ends), else the body's facing averaged over the clip, else the T-pose's forward.
 */
export function FilmstripViewDirection(rec: IFilmstripRecording): [number, number] {
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
    const at = (p: Float32Array, j: number): Vector3 => new Vector3(FilmstripCoord(p, j, 0), FilmstripCoord(p, j, 1), FilmstripCoord(p, j, 2));
    for (let f = 0; f < frames; f += step) {
        const p = rec.positions[f];
        const a = FilmstripAlong(p, hips, forward);
        const b = FilmstripAlong(p, hips, left);
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

/**
 * Prepares one row: which joints to join, on which side, and the projection.
 * @internal
 */
export function PrepareFilmstripRow(label: string, rec: IFilmstripRecording | null, dir: [number, number], floorOffset: number): IFilmstripRow {
    const empty: IFilmstripRow = {
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
