import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertRigPosesToMuscleClip,
    FootContact,
    HumanoidClipPlayer,
    MuscleClip,
    SampleCharacters,
} from "../../src/index.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { HumanoidFootPlanting } from "../../src/runtime/footPlanting.js";
import { HumanoidRigSolver } from "../../src/runtime/rigSolver.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { WithContactEnds } from "../helpers/clips.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { FootAtRest, PlantingPlayerStub } from "../helpers/plantingPlayer.js";

// Which end of a planted foot is held: the end the source turns about, where the clip knows it
// (`FootContact.LeftAnkleStill`..., written at conversion), else the end the foot's pitch stands
// on. Found on the CMU twirl onto a VRM: the source spins on its heel, the character's toes stood
// 4 mm lower than its ankle, and the hold kept the toes while the clip swept them round the ankle
// (the foot 3.1 times the source's jerk).

const RATE = 120;
const yaw = (rad: number): Quaternion => Quaternion.RotationAxis(new Vector3(0, 1, 0), rad);
const pitch = (deg: number): Quaternion => Quaternion.RotationAxis(new Vector3(1, 0, 0), (deg * Math.PI) / 180);

describeWithData("planting holds the end of the foot the source turns about", () => {
    /**
     * Plays the VRM sample's right foot through `frames` updates at 120 fps, each frame's ankle and
     * rotation (canonical, pose units) and contact flags from `frame`; per frame, where its ankle and
     * toes are shown (after planting) and where along the foot planting says it holds it (`heldAlong`).
     */
    async function playFootAsync(
        frames: number,
        frame: (f: number, rest: { ankle: Vector3; toeOffset: Vector3 }) => { ankle: Vector3; rotation: Quaternion; contacts: number; step?: number },
    ): Promise<{ ankle: Vector3[]; toes: Vector3[]; toeOffset: Vector3; along: number[] }> {
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("vrm/VRM1_skeleton_only_mtoon_UV_test.vrm"));
        try {
            const solver = new HumanoidRigSolver(target.avatar);
            const planting = new HumanoidFootPlanting(target.avatar);
            const { ankle: restAnkle, toeOffset } = FootAtRest(target.avatar, 1);
            const stub = PlantingPlayerStub(RATE);
            const ankle: Vector3[] = [];
            const toes: Vector3[] = [];
            const along: number[] = [];
            for (let f = 0; f < frames; f++) {
                const k = frame(f, { ankle: restAnkle, toeOffset });
                stub.contacts = k.contacts;
                stub.step[0] = k.step ?? 1 / RATE;
                solver.goalPositions[0].copyFrom(restAnkle.multiplyByFloats(-1, 1, 1));
                solver.goalRotations[0].set(0, 0, 0, 1);
                solver.goalPositions[1].copyFrom(k.ankle);
                solver.goalRotations[1].copyFrom(k.rotation);
                planting.update(stub.player, solver);
                ankle.push(solver.goalPositions[1].clone());
                toes.push(solver.goalPositions[1].add(toeOffset.applyRotationQuaternion(k.rotation)));
                along.push(planting.heldAlong[1]);
            }
            return { ankle, toes, toeOffset, along };
        } finally {
            target.loaded.dispose();
        }
    }

    const across = (a: Vector3, b: Vector3): number => Math.hypot(a.x - b.x, a.z - b.z);
    /** The foot pitched 8 degrees toes down (its toes well lower than its ankle: the pitch's end is the toes), turned `rad` about up. */
    const spun = (rad: number): Quaternion => yaw(rad).multiply(pitch(8));
    const BOTH = FootContact.Left | FootContact.Right;

    it("a heel spin whose toes stand lower than its ankle: held at the ankle where the clip says the source turns about it; at its toes (the ankle swinging round them) where the clip says nothing", async () => {
        const spin = (ends: number) => (f: number, rest: { ankle: Vector3 }) => ({ ankle: rest.ankle, rotation: spun(0.05 * f), contacts: BOTH | ends });
        const told = await playFootAsync(24, spin(FootContact.RightAnkleStill));
        for (let f = 1; f < 24; f++) expect(across(told.ankle[f], told.ankle[0])).toBeLessThan(1e-6);
        expect(told.along.every((a) => a === 0)).toBe(true);
        // The toes lower than the ankle by more than the span over which the pitch's end goes over.
        const drop = -told.toeOffset.applyRotationQuaternion(pitch(8)).y + told.toeOffset.y;
        expect(drop).toBeGreaterThan(0.004);
        const untold = await playFootAsync(24, spin(0));
        for (let f = 1; f < 24; f++) expect(across(untold.toes[f], untold.toes[0])).toBeLessThan(1e-6);
        expect(untold.along.every((a) => a === 1)).toBe(true);
        // ... so the ankle swings round them: by 23 frames of 0.05 radian, most of the foot's length.
        expect(across(untold.ankle[23], untold.ankle[0])).toBeGreaterThan(0.5 * Math.hypot(told.toeOffset.x, told.toeOffset.z));
    }, 60_000);

    it("the held end goes over from the ankle to the toes within 0.02 s where the clip's end switches, and not at all over a zero step", async () => {
        // Frames 0-11 a heel spin on the ankle; from frame 12 the toes are the still end and the
        // heel turns round them the other way. Frames 12-14 are shown with no time passing (a
        // paused clip): the held end stays the ankle.
        const played = await playFootAsync(30, (f, rest) => {
            if (f < 12) return { ankle: rest.ankle, rotation: spun(0.05 * f), contacts: BOTH | FootContact.RightAnkleStill };
            const g = f < 15 ? 12 : f - 3;
            // Turning about the toes as they were at frame 11: the ankle is the toes less the turned offset.
            const toes11 = rest.ankle.add(rest.toeOffset.applyRotationQuaternion(spun(0.05 * 11)));
            const q = spun(0.05 * 11 - 0.05 * (g - 11));
            return {
                ankle: toes11.subtract(rest.toeOffset.applyRotationQuaternion(q)),
                rotation: q,
                contacts: BOTH | FootContact.RightToesStill,
                step: f < 15 && f > 12 ? 0 : undefined,
            };
        });
        for (let f = 1; f < 12; f++) expect(across(played.ankle[f], played.ankle[0])).toBeLessThan(1e-6);
        // Frames 13 and 14 take no time: the going-over started on frame 12 does not go on (else
        // it would be over by frame 15, and the check on frame 16 below would fail).
        // Over by 0.02 s of shown time (frame 12 and two more that take time: 15, 16): the toes stay from then on.
        for (let f = 17; f < 30; f++) expect(across(played.toes[f], played.toes[16])).toBeLessThan(1e-6);
        // ... as planting says: the ankle to frame 11, then going over (not over the zero steps), the toes from frame 16.
        expect(played.along.slice(0, 12).every((a) => a === 0)).toBe(true);
        expect(played.along[12]).toBeGreaterThan(0);
        expect(played.along[14]).toBe(played.along[12]);
        expect(played.along[15]).toBeLessThan(1);
        expect(played.along.slice(16).every((a) => a === 1)).toBe(true);
        // Not at once: on frame 16 the foot still turned about a point short of its toes (the
        // toes moved by a sixth of the foot times the turn of a frame); held there at once, they stayed from frame 12.
        expect(across(played.toes[16], played.toes[15])).toBeGreaterThan(1e-4);
    }, 60_000);

    it("a foot landing on its toes whose clip holds its ankle slows its ankle from the speed it moved with, without turning it back", async () => {
        // The ankle moves +x at 0.2 a second while the foot, pitched toes down (the pitch's end the
        // toes), turns so that its toes sweep the other way; from frame 10 the contact holds the
        // ankle (the source's still end). At touch-down the held point is between the toes and the
        // ankle, going over to the ankle within 0.02 s: the stop is the held point's own motion
        // taken away, so the ankle slows as it moved. A stop planned at touch-down from the first
        // point's speed (the toes' sweep) carried that speed over to the ankle: it went back the
        // way the toes swept (Mixamo's pushing onto the VRM sample, the knee 30-60 times the
        // source's jerk there).
        const V = 0.2 / RATE;
        const played = await playFootAsync(30, (f, rest) => ({
            ankle: rest.ankle.add(new Vector3(V * f, 0, 0)),
            rotation: yaw(-0.05 * f).multiply(pitch(8)),
            contacts: f < 10 ? FootContact.Left : BOTH | FootContact.RightAnkleStill,
        }));
        // The ankle's move over a frame across the ground (the floor lifts the pitched foot meanwhile).
        const u = (f: number): Vector3 => played.ankle[f].subtract(played.ankle[f - 1]).multiplyByFloats(1, 0, 1);
        for (let f = 1; f < 10; f++) expect(u(f).x).toBeCloseTo(V, 9);
        expect(played.along[10]).toBeGreaterThan(0.3);
        for (let f = 10; f < 30; f++) {
            // Never back, its velocity changing by less than three quarters of the speed a frame
            // (the toes sweep about five times as fast as the ankle moves) and sideways by less
            // than a third of it. (Faster for a frame or two it may be: while the held point is
            // still short of the ankle, the ankle swings round it.)
            expect(u(f).x).toBeGreaterThan(-1e-9);
            expect(
                u(f)
                    .subtract(u(f - 1))
                    .length(),
            ).toBeLessThan(0.75 * V);
            expect(Math.abs(u(f).z)).toBeLessThan(V / 3);
        }
        // Slowing over more than a frame, and at rest once the ease is over.
        expect(u(11).x).toBeGreaterThan(0.2 * V);
        for (let f = 16; f < 30; f++) expect(u(f).length()).toBeLessThan(1e-9);
    }, 60_000);
});

describe("the player's still ends", () => {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    const walk = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30));
    const ended = WithContactEnds(walk);
    /** The walk with each contact's ends the other way round (toes first). */
    const flipped = new MuscleClip({
        ...ended,
        curves: [...ended.curves],
        warnings: [...ended.warnings],
        contacts: ended.contacts.map((c) => (c & 3) | ((c & 12) << 2) | ((c & 48) >> 2)),
    });

    it("a cross-fade's end is the one that weighs more, known where clips of at least half the weight know one", () => {
        // A frame in a left contact's first half (the ankle in `ended`, the toes in `flipped`).
        const f = ended.contacts.findIndex((c) => (c & FootContact.LeftAnkleStill) !== 0);
        expect(f).toBeGreaterThanOrEqual(0);
        const t = f / walk.frameRate;
        for (const [to, before, after] of [
            [flipped, FootContact.LeftAnkleStill, FootContact.LeftToesStill],
            [walk, FootContact.LeftAnkleStill, 0],
        ] as const) {
            const player = new HumanoidClipPlayer("in-place");
            player.play(ended, { speed: 0, startSeconds: t });
            player.update(0.01);
            expect(player.contacts & (FootContact.Left | FootContact.LeftAnkleStill | FootContact.LeftToesStill)).toBe(FootContact.Left | before);
            player.crossFade(to, 1, { speed: 0, startSeconds: t });
            for (let k = 1; k <= 10; k++) {
                player.update(0.1);
                const fadedIn = k / 10;
                const ends = player.contacts & (FootContact.LeftAnkleStill | FootContact.LeftToesStill);
                expect(player.contacts & FootContact.Left).toBe(FootContact.Left);
                // Half-way the two weigh alike: the ankle (the first) holds; past it, the new clip's.
                if (fadedIn < 0.45) expect(ends).toBe(before);
                if (fadedIn > 0.55) expect(ends).toBe(after);
            }
        }
    });
});
