import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { BuildHumanoidAvatar, BuildSampleRig, ComputeRigWorldPose, GetRigRestPose, HumanBone, SampleCharacters } from "../../src/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { RenderFilmstripSvg } from "../../src/quality/filmstrip.js";
import { FILMSTRIP_LAYOUT, type FilmstripAvatar, type IFilmstripRecording } from "../../src/quality/filmstripView.js";
import { RigFromPoints } from "../helpers/rigs.js";

const L = FILMSTRIP_LAYOUT;

/**
 * A three-joint "character" facing +Z (Babylon is left-handed: its left is -X): the hips 1 m up,
 * the left foot on the floor ahead of it, the right foot behind. Only what the filmstrip reads.
 */
function tripod(height = 1): FilmstripAvatar {
    const rig = RigFromPoints("tripod", [
        ["hips", null, 0, height, 0],
        ["leftFoot", "hips", -0.1 * height, 0, 0.25 * height],
        ["rightFoot", "hips", 0.1 * height, 0, -0.25 * height],
    ]);
    const map = new Map<HumanBone, number>([
        [HumanBone.Hips, 0],
        [HumanBone.LeftFoot, 1],
        [HumanBone.RightFoot, 2],
    ]);
    return {
        rig,
        referenceWorld: ComputeRigWorldPose(rig),
        frame: { up: new Vector3(0, 1, 0), forward: new Vector3(0, 0, 1), left: new Vector3(-1, 0, 0) },
        getJoint: (b: HumanBone) => map.get(b) ?? -1,
    };
}

/** A recording of an avatar's T-pose, moved by `offset(frame)` (metres) on every frame. */
function still(avatar: FilmstripAvatar, frames: number, offset: (f: number) => [number, number, number] = () => [0, 0, 0]): IFilmstripRecording {
    const rest = avatar.referenceWorld.positions;
    const positions = Array.from({ length: frames }, (_, f) => {
        const [x, y, z] = offset(f);
        return Float32Array.from(rest.flatMap((p) => [p.x + x, p.y + y, p.z + z]));
    });
    return { avatar, frameRate: 30, positions };
}

/** The figures (`<g>` elements) of an SVG, in order: source row first, left to right. */
function figures(svg: string): string[] {
    return [...svg.matchAll(/<g>(.*?)<\/g>/g)].map((m) => m[1]);
}

/** The polylines of one path of a figure by its class, as absolute points (arcs skipped). */
function polylines(figure: string, cls: string): Array<Array<[number, number]>> {
    const d = new RegExp(`<path class="${cls}" d="([^"]*)"`).exec(figure)?.[1];
    if (d === undefined) return [];
    const tokens = d.match(/[MlhaA]|-?(?:\d+\.?\d*|\.\d+)/g)!;
    const lines: Array<Array<[number, number]>> = [];
    let i = 0;
    let cmd = "";
    const next = (): number => Number(tokens[i++]);
    while (i < tokens.length) {
        if (/[A-Za-z]/.test(tokens[i])) cmd = tokens[i++];
        const line = lines[lines.length - 1];
        const last = line?.[line.length - 1];
        if (cmd === "M") lines.push([[next(), next()]]);
        else if (cmd === "l") line.push([last[0] + next(), last[1] + next()]);
        else if (cmd === "h") line.push([last[0] + next(), last[1]]);
        else if (cmd === "a") for (let k = 0; k < 7; k++) next();
        else throw new Error(`unexpected ${cmd}`);
    }
    return lines;
}

/** The left edge of a column and the top of a row. */
const cellLeft = (column: number): number => L.labelWidth + column * L.cellWidth;
const rowTop = (row: number): number => L.headerHeight + row * L.cellHeight;

describe("RenderFilmstripSvg", () => {
    it("draws three rows of 8 figures, each row labelled, and nothing that is not a number", () => {
        const a = tripod();
        const svg = RenderFilmstripSvg(still(a, 40), still(a, 40), still(a, 40));
        expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
        expect(svg.endsWith("</svg>")).toBe(true);
        expect(figures(svg)).toHaveLength(24);
        for (const label of [">source<", ">ours<", ">AnimatorAvatar<"]) expect(svg).toContain(label);
        expect(svg).not.toMatch(/NaN|Infinity|undefined/);
        // Column times: the middle of each eighth of 40 frames at 30 fps (frames 2, 7, 12...).
        expect(svg).toContain(">0.07 s<");
        expect(svg).toContain(">0.23 s<");
    });

    it("maps a known point to a known pixel: hips centred, the row's floor under the feet, stature = figureHeight", () => {
        const a = tripod();
        const svg = RenderFilmstripSvg(still(a, 16), still(a, 16), null);
        // In place and no arms or legs to face by: screen right is the T-pose forward (+Z), so the
        // left foot (0.25 m ahead) lands 0.25 x 80 px right of the hips, on the floor line.
        const cx = cellLeft(0) + L.cellWidth / 2;
        const floor = rowTop(0) + L.floorY;
        expect(polylines(figures(svg)[0], "fl")).toEqual([
            [
                [cx + 0.25 * L.figureHeight, floor],
                [cx, floor - L.figureHeight],
            ],
        ]);
        expect(polylines(figures(svg)[0], "fr")).toEqual([
            [
                [cx - 0.25 * L.figureHeight, floor],
                [cx, floor - L.figureHeight],
            ],
        ]);
        // The third column of the "ours" row.
        const fig = figures(svg)[8 + 2];
        expect(polylines(fig, "fl")[0][0]).toEqual([cellLeft(2) + L.cellWidth / 2 + 20, rowTop(1) + L.floorY]);
        // The floor lines: one per cell of each drawn row.
        expect(svg).toContain(`<path class="ff" d="M${cellLeft(0) + 6} ${floor}h${L.cellWidth - 12}`);
    });

    it("colours the left limbs and the right limbs apart, the far side drawn first", () => {
        const a = tripod();
        const fig = figures(RenderFilmstripSvg(still(a, 16), still(a, 16), null))[0];
        // Looking along +Z's right x up = -X, the camera is on the character's right: its left is far.
        const body = [...fig.matchAll(/<path class="(f[clr])"/g)].map((m) => m[1]);
        expect(body).toEqual(["fl", "fr"]);
        expect(fig).toMatch(/<path class="tl" d="[^"]*l0 0"/); // a still foot's path is a dot
    });

    it("looks across the direction of travel, and scales each row to its own character", () => {
        const small = tripod(1);
        const big = tripod(2);
        // Walking towards -X (the character's left), 3 m in 60 frames: -X is screen right.
        const walk = (av: FilmstripAvatar, k: number) => still(av, 60, (f) => [-0.05 * k * f, 0, 0]);
        const svg = RenderFilmstripSvg(walk(small, 1), walk(big, 2), null);
        const cx = cellLeft(0) + L.cellWidth / 2;
        // The left foot (at -0.1 m X from the hips) is ahead: 0.1 x 80 px right of the hips.
        expect(polylines(figures(svg)[0], "fl")[0][0]).toEqual([cx + 8, rowTop(0) + L.floorY]);
        // The big one: twice the size, half the pixels per metre, the same picture.
        expect(polylines(figures(svg)[8], "fl")).toEqual([
            [
                [cx + 8, rowTop(1) + L.floorY],
                [cx, rowTop(1) + L.floorY - L.figureHeight],
            ],
        ]);
        // The hips' travel over the second around the frame, under the floor: to the right.
        const travel = polylines(figures(svg)[1], "tc")[0];
        expect(travel[1][0]).toBeGreaterThan(travel[0][0]);
    });

    it("raises the source's floor by sourceFloorOffset", () => {
        const a = tripod();
        const svg = RenderFilmstripSvg(still(a, 8), still(a, 8), null, { sourceFloorOffset: 0.1, frames: 2 });
        expect(figures(svg)).toHaveLength(4);
        // The feet 0.1 m below the source's floor: 8 px under its line; ours stay on theirs.
        expect(polylines(figures(svg)[0], "fl")[0][0][1]).toBe(rowTop(0) + L.floorY + 8);
        expect(polylines(figures(svg)[2], "fl")[0][0][1]).toBe(rowTop(1) + L.floorY);
    });

    it("makes a row as tall as its figures reach, so a character floating a stature up or sunk half of one draws over no other row", () => {
        const a = tripod();
        const plain = RenderFilmstripSvg(still(a, 8), still(a, 8), still(a, 8), { frames: 2 });
        const svg = RenderFilmstripSvg(
            still(a, 8),
            still(a, 8, () => [0, -0.5, 0]),
            still(a, 8, () => [0, 1, 0]),
            { frames: 2 },
        );
        const height = (x: string): number => Number(/ height="(\d+)"/.exec(x)![1]);
        expect(height(plain)).toBe(L.headerHeight + 3 * L.cellHeight);
        const figs = figures(svg);
        /** Every drawn point's y in a row (its two figures, body and feet). */
        const ys = (row: number): number[] =>
            [figs[2 * row], figs[2 * row + 1]].flatMap((f) =>
                ["fc", "fl", "fr", "tl", "tr"].flatMap((c) =>
                    polylines(f, c)
                        .flat()
                        .map((pt) => pt[1]),
                ),
            );
        const [source, ours, theirs] = [0, 1, 2].map((r) => [Math.min(...ys(r)), Math.max(...ys(r))]);
        // Top to bottom without overlap: the sunk figure's feet 40 px under its floor, the floating one's hips 160 px over its own.
        expect(source[1]).toBeLessThan(ours[0]);
        expect(ours[1]).toBeLessThan(theirs[0]);
        expect(ours[1] - ours[0]).toBeCloseTo(L.figureHeight, 0);
        expect(theirs[0]).toBeGreaterThan(L.headerHeight);
        expect(height(svg)).toBeGreaterThan(theirs[1]);
        expect(height(svg)).toBeGreaterThan(height(plain));
    });

    it("copes with short, empty and broken recordings without throwing or writing NaN", () => {
        const a = tripod();
        const three = RenderFilmstripSvg(still(a, 3), still(a, 3), still(a, 3));
        expect(figures(three)).toHaveLength(9);
        const one = RenderFilmstripSvg(still(a, 1), still(a, 1), null, { frames: 8 });
        expect(figures(one)).toHaveLength(2);
        expect(one).toContain("not available");
        const none = RenderFilmstripSvg(still(a, 0), still(a, 5), null);
        expect(figures(none)).toHaveLength(0);
        expect(none).toContain("no frames to draw");
        // 24 frames in 8 columns: frames 1, 4, 7, 10... drawn. The right foot lost on frame 4 (the
        // second column) and on frame 3 (in its foot's path), frame 7 nothing but NaN, frame 16 too short.
        const broken = still(a, 24);
        broken.positions[4].fill(NaN, 6, 9);
        broken.positions[3].fill(NaN, 6, 9);
        broken.positions[7].fill(NaN);
        (broken.positions as Float32Array[])[16] = new Float32Array(2);
        const svg = RenderFilmstripSvg(broken, broken, broken, { frames: 8 });
        expect(svg).not.toMatch(/NaN|Infinity|undefined/);
        expect(figures(svg)).toHaveLength(3 * (8 - 2)); // frames 7 and 16: no hips, no figure
        const second = figures(svg)[1];
        expect(polylines(second, "fl")).toHaveLength(1);
        expect(polylines(second, "fr")).toHaveLength(0);
        for (const frames of [0, -3, NaN, 1000]) expect(RenderFilmstripSvg(still(a, 4), still(a, 4), null, { frames })).not.toMatch(/NaN/);
    });

    it("draws a walking sample character upright, feet forward, heads as circles, no fingers", () => {
        const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
        const source = new SampleWalkSource(avatar);
        const pose = GetRigRestPose(avatar.rig);
        const frames = Math.round(source.durationSeconds * source.frameRate);
        const positions = Array.from({ length: frames }, (_, f) => {
            source.samplePoseToRef(f / source.frameRate, pose);
            return Float32Array.from(ComputeRigWorldPose(avatar.rig, pose).positions.flatMap((p) => [p.x, p.y, p.z]));
        });
        const rec = { avatar, frameRate: source.frameRate, positions };
        const svg = RenderFilmstripSvg(rec, rec, rec);
        const all = figures(svg);
        expect(all).toHaveLength(24);
        expect(svg).not.toMatch(/NaN/);
        for (const fig of all) {
            expect(fig).toMatch(/<path class="fc" d="[^"]*a4\.8 4\.8 0 1 0 9\.6 0/); // the head
            // Each leg one line from the toes up to the hips; it walks to screen right, so the toes
            // are right of the ankle, and the hips well above the toes.
            for (const side of ["fl", "fr"]) {
                // The leg: the line that starts lowest (at the toes).
                const leg = polylines(fig, side).reduce((a, b) => (b[0][1] > a[0][1] ? b : a));
                expect(leg).toHaveLength(5);
                const [toes, ankle, , , hips] = leg;
                expect(toes[0]).toBeGreaterThan(ankle[0]);
                expect(toes[1] - hips[1]).toBeGreaterThan(0.4 * L.figureHeight);
            }
            // Lines: two legs and two arms (shoulder to wrist); the fingers would add more.
            expect(polylines(fig, "fl").length + polylines(fig, "fr").length).toBe(4);
        }
    });
});
