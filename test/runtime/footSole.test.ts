import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { HumanoidAnimator, HumanBone } from "../../src/index.js";
import type { MuscleClip } from "../../src/clip/muscleClip.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import {
    HumanoidFootSole,
    RiseByRotationToRef,
    SOLE_CORNER,
    SOLE_HZ,
    SOLE_SOFTNESS,
    SOLE_UPRIGHT_FROM_DEG,
    SOLE_UPRIGHT_TO_DEG,
    SoftLowerEndInPlace,
    SoleUprightShare,
} from "../../src/runtime/footSole.js";
import { WithoutProportionKeys } from "../helpers/clips.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

// The feet's soles (src/runtime/footSole.ts): the whole figure goes up or down so that the lower
// end of each foot on the ground (its ankle or its front) stands as high as the source's did.
// Found on KayKit's clips whose feet stand on tiptoe, onto characters whose feet are shorter for
// their legs: RiggedFigure's walking backwards floated 0.079 leg over the floor.

/** Deterministic numbers in [-1, 1). */
function numbers(seed: number): () => number {
    let s = seed;
    return () => {
        s = (s * 1664525 + 1013904223) % 4294967296;
        return (s / 4294967296) * 2 - 1;
    };
}

describe("the feet's soles: the numbers", () => {
    test("a direction's rise under a rotation is Babylon's rotation of it, its y less the direction's", () => {
        const next = numbers(7);
        const out = new Float64Array(1);
        for (let i = 0; i < 200; i++) {
            const q = new Quaternion(next(), next(), next(), next()).normalize();
            const v = new Vector3(next(), next(), next());
            RiseByRotationToRef(q, v, out, 0);
            expect(out[0]).toBeCloseTo(v.applyRotationQuaternion(q).y - v.y, 12);
        }
    });

    test("the soft lower end is 0 at 0, never above 0 nor far from min(r, 0), and rises with r", () => {
        const v = new Float64Array(1);
        const soft = (r: number): number => {
            v[0] = r;
            SoftLowerEndInPlace(v, 0);
            return v[0];
        };
        expect(soft(0)).toBe(0);
        let last = -Infinity;
        for (let r = -0.3; r <= 0.3; r += 0.001) {
            const s = soft(r);
            expect(s).toBeLessThanOrEqual(SOLE_SOFTNESS / 2 + 1e-15);
            expect(Math.abs(s - Math.min(r, 0))).toBeLessThanOrEqual(SOLE_SOFTNESS / 2 + 1e-12);
            expect(s).toBeGreaterThan(last);
            last = s;
        }
    });
});

describe("the feet's soles: the figure's move", () => {
    /** A sole of a character whose feet are 0.13 of its leg long (leg 1 m), the source's 0.44 of its. */
    const source = Float64Array.of(0.44, 1);
    const make = (): HumanoidFootSole => new HumanoidFootSole([0.13, 0.13], 1);
    /** One update: both feet pitched so that a unit direction's front rises by `pitch` (the same turn on both skeletons), shares and step as given. */
    function update(sole: HumanoidFootSole, pitch: [number, number], share: [number, number], step: number | null, length = source): number {
        sole.rise.set([pitch[0], pitch[1], pitch[0], pitch[1]]);
        const out = new Float64Array(3);
        sole.update(length, Float64Array.from(share), Float64Array.of(1), step === null ? null : Float64Array.of(step), out);
        return out[0];
    }
    /** The drop of one foot pitched by `pitch` (a unit direction's rise), by the smooth lower ends: source's less this one's. */
    function drop(pitch: number): number {
        const v = Float64Array.of(pitch * 0.44, pitch * 0.13);
        SoftLowerEndInPlace(v, 0);
        SoftLowerEndInPlace(v, 1);
        return v[0] - v[1];
    }

    test("one foot on the ground pitched down: the figure goes down by what its front and the source's drop differ by, at once without a step", () => {
        const d = drop(-0.5);
        expect(d).toBeLessThan(-0.1);
        expect(update(make(), [-0.5, 0], [1, 0], null)).toBeCloseTo(d, 12);
        // The other foot's pitch does not count while it is off the ground.
        expect(update(make(), [-0.5, -0.9], [1, 0], null)).toBeCloseTo(d, 12);
        // Pitched up (on its heel) or flat: no move.
        expect(Math.abs(update(make(), [0.5, 0], [1, 0], null))).toBeLessThan(SOLE_SOFTNESS / 2);
        expect(Math.abs(update(make(), [0, 0], [1, 0], null))).toBeLessThan(1e-15);
        expect(Math.abs(update(make(), [0, 0], [1, 1], null))).toBeLessThan(1e-15);
    });

    test("feet as long as the source's, for their legs, or longer: no move however they pitch", () => {
        for (const length of [0.44, 0.6]) {
            const sole = new HumanoidFootSole([length, length], 1);
            for (const p of [-0.9, -0.5, -0.1, 0, 0.3]) {
                expect(Math.abs(update(sole, [p, p], [1, 1], null))).toBeLessThan(1e-12);
                expect(Math.abs(update(sole, [p, 0], [1, 0], null))).toBeLessThan(1e-12);
            }
        }
    });

    test("in the air no move; in a double stance the lesser of the two feet's drops; halfway there, by the shares", () => {
        expect(Math.abs(update(make(), [-0.5, -0.5], [0, 0], null))).toBe(0);
        const d = drop(-0.5);
        // The other foot flat: its none, less half the corner (the smooth maximum far from its corner).
        expect(update(make(), [-0.5, 0], [1, 1], null)).toBeCloseTo(-SOLE_CORNER / 2, 3);
        expect(update(make(), [-0.5, -0.5], [1, 1], null)).toBeCloseTo(d, 12);
        expect(update(make(), [-0.5, -0.2], [1, 1], null)).toBeCloseTo(drop(-0.2), 2);
        expect(update(make(), [-0.5, 0], [0.5, 0], null)).toBeCloseTo(d * 0.5, 12);
    });

    test("a pitch that lasts comes through; a push-off's brief roll only in part; never much past what the foot needs now", () => {
        const rate = 60;
        const d = drop(-0.5);
        // Held for half a second from flat: within 2% of the drop (a critically damped step at 2 Hz: 1 - (1 + wt) e^-wt).
        let sole = make();
        update(sole, [0, 0], [1, 0], 1 / rate);
        let last = 0;
        for (let i = 0; i < rate / 2; i++) last = update(sole, [-0.5, 0], [1, 0], 1 / rate);
        const w = 2 * Math.PI * SOLE_HZ;
        expect(last / d).toBeGreaterThan(1 - (1 + w / 2) * Math.exp(-w / 2) - 0.02);
        expect(last / d).toBeGreaterThan(0.95);
        // A roll of 0.1 s, then flat: at most four tenths of the drop, and then no more than the softness below none.
        sole = make();
        update(sole, [0, 0], [1, 0], 1 / rate);
        let most = 0;
        for (let i = 0; i < rate / 10; i++) most = Math.min(most, update(sole, [-0.5, 0], [1, 0], 1 / rate));
        expect(most / d).toBeGreaterThan(0.2);
        expect(most / d).toBeLessThan(0.4);
        const after = update(sole, [0, 0], [1, 0], 1 / rate);
        expect(after).toBeLessThan(0);
        expect(after).toBeGreaterThan(-SOLE_SOFTNESS - SOLE_CORNER);
    });

    test("a zero step holds the low-pass where it is; no step or a reset starts it afresh", () => {
        const sole = make();
        update(sole, [0, 0], [1, 0], 1 / 60);
        const a = update(sole, [-0.5, 0], [1, 0], 1 / 60);
        expect(update(sole, [-0.5, 0], [1, 0], 0)).toBe(a);
        expect(update(sole, [-0.5, 0], [1, 0], null)).toBeCloseTo(drop(-0.5), 12);
        update(sole, [0, 0], [1, 0], 1 / 60);
        sole.reset();
        expect(update(sole, [-0.5, 0], [1, 0], 1 / 60)).toBeCloseTo(drop(-0.5), 12);
    });

    test("no source foot length (a file before version 11), or a character's foot without a front: no move", () => {
        expect(update(make(), [-0.5, -0.5], [1, 1], null, Float64Array.of(NaN, NaN))).toBe(0);
        expect(update(new HumanoidFootSole([0, 0], 1), [-0.5, -0.5], [1, 1], null)).toBe(0);
    });
});

describeWithData("the feet's soles on real files", () => {
    /** Mean height of the planted feet's lower ends (ankle or toes, each from its T-pose height) over the clip's contact frames, leg lengths; per frame the hips' height and the sole's move (metres). */
    async function planted(clip: MuscleClip, character: string): Promise<{ height: number; sole: number; hips: number[]; moves: number[] }> {
        const loaded = await LoadHumanoidAvatarFromFileAsync(dataFile(character));
        const av = loaded.avatar;
        const setup = MuscleSetup.For(av);
        const up = av.frame.up;
        const a = new HumanoidAnimator(av, loaded.loaded.binding!.nodes, { rootMotion: "clip" });
        a.play(clip, { loop: false });
        const nodes = loaded.loaded.binding!.nodes;
        const points = [0, 1].map((s) => [av.getJoint(s === 0 ? HumanBone.LeftFoot : HumanBone.RightFoot), setup.footTip[s]]);
        const rest = (j: number): number => Vector3.Dot(av.referenceWorld.positions[j].subtract(setup.groundOrigin), up);
        const heightOf = (j: number): number => {
            const n = nodes[j];
            n.computeWorldMatrix(true);
            return Vector3.Dot(n.getAbsolutePosition().subtract(setup.groundOrigin), up);
        };
        let sum = 0;
        let count = 0;
        let sole = 0;
        const hips: number[] = [];
        const moves: number[] = [];
        for (let f = 0; f < clip.frameCount; f++) {
            a.update(f === 0 ? 0 : 1 / clip.frameRate);
            sole = Math.min(sole, a.solver.soleShift[0]);
            moves.push(a.solver.soleShift[0]);
            hips.push(heightOf(av.getJoint(HumanBone.Hips)));
            for (let s = 0; s < 2; s++) {
                if (!(clip.contacts[f] & (s === 0 ? 1 : 2))) continue;
                sum += Math.abs(Math.min(...points[s].map((j) => heightOf(j) - rest(j))));
                count++;
            }
        }
        a.dispose();
        loaded.loaded.dispose();
        return { height: sum / count / setup.legLength, sole: sole / setup.legLength, hips, moves };
    }

    /** Where the sole moves the figure most, the hips' height less the run without it, over that move. */
    function bodyShare(now: { hips: number[]; moves: number[] }, before: { hips: number[] }): number {
        let f = 0;
        now.moves.forEach((m, i) => {
            if (m < now.moves[f]) f = i;
        });
        return (now.hips[f] - before.hips[f]) / now.moves[f];
    }

    // KayKit's walk backwards, on tiptoe, stood RiggedFigure's planted feet 0.079 leg up without
    // the source's foot length; its feet slide back through every step (a cycle in place), and its
    // only contact, of two frames where the slide slowed, is no longer found (footContacts.ts,
    // dropUnlanded). Its idle before a jump stands on tiptoe in a contact of four frames.
    test("KayKit's idle before a jump (on tiptoe) onto RiggedFigure (a foot 0.13 of its leg long, KayKit's 0.44): its planted feet on the floor", async () => {
        const clips = await ConvertFileToMuscleClipsAsync(dataFile("glb/kaykit_anims/Med_MovementBasic.glb"));
        const clip = clips.find((c) => c.clip.name === "Rig_Medium|Jump_Idle")!.clip;
        expect(clip.proportions!.footLength! / clip.proportions!.legLength).toBeGreaterThan(0.4);
        const now = await planted(clip, "glb/khronos_RiggedFigure.glb");
        // Without the source's foot length (a file before version 11) the feet stood 0.1 leg up.
        const before = await planted(WithoutProportionKeys(clip, "footLength"), "glb/khronos_RiggedFigure.glb");
        expect(before.height).toBeGreaterThan(0.06);
        expect(before.sole).toBe(0);
        expect(now.height).toBeLessThan(0.03);
        expect(now.sole).toBeLessThan(-0.03);
        // The whole figure goes down: the hips by the sole's move (where it is largest), not the feet alone.
        expect(bodyShare(now, before)).toBeGreaterThan(0.8);
        expect(bodyShare(now, before)).toBeLessThan(1.2);
        // So without the thigh share and leg directions (the leg's shape fit off: no lift).
        const plain = WithoutProportionKeys(clip, "thighShare", "thighDirection", "shinDirection");
        const plainNow = await planted(plain, "glb/khronos_RiggedFigure.glb");
        const plainBefore = await planted(WithoutProportionKeys(plain, "footLength"), "glb/khronos_RiggedFigure.glb");
        expect(plainNow.sole).toBeLessThan(-0.03);
        expect(bodyShare(plainNow, plainBefore)).toBeGreaterThan(0.8);
        expect(bodyShare(plainNow, plainBefore)).toBeLessThan(1.2);
    }, 120_000);
});

describe("the feet's soles: only a body standing up", () => {
    test("full up to 30 degrees of tilt, none from 60, rising smoothly between", () => {
        const share = (deg: number): number => {
            const out = new Float64Array(1);
            SoleUprightShare(Float64Array.of(Math.cos((deg * Math.PI) / 360)), 0, out);
            return out[0];
        };
        expect(share(0)).toBe(1);
        expect(share(SOLE_UPRIGHT_FROM_DEG)).toBeCloseTo(1, 12);
        expect(share(SOLE_UPRIGHT_TO_DEG)).toBeCloseTo(0, 12);
        expect(share(90)).toBe(0);
        expect(share(180)).toBe(0);
        let last = 2;
        for (let d = 0; d <= 90; d += 0.5) {
            const s = share(d);
            expect(s).toBeLessThanOrEqual(last);
            last = s;
        }
        // The sole's move goes by it.
        const sole = new HumanoidFootSole([0.13, 0.13], 1);
        sole.rise.set([-0.5, 0, -0.5, 0]);
        const full = new Float64Array(3);
        sole.update(Float64Array.of(0.44, 1), Float64Array.of(1, 0), Float64Array.of(1), null, full);
        sole.rise.set([-0.5, 0, -0.5, 0]);
        const half = new Float64Array(3);
        sole.update(Float64Array.of(0.44, 1), Float64Array.of(1, 0), Float64Array.of(0.5), null, half);
        expect(full[0]).toBeLessThan(-0.1);
        expect(half[0]).toBeCloseTo(full[0] / 2, 12);
        // Each foot goal's share of the move: the move times the foot's ground share.
        expect(full[1]).toBe(full[0]);
        expect(Math.abs(full[2])).toBe(0);
    });
});

describe("the feet's soles: never up, and eased over a cross-fade", () => {
    test("a character's front dropping more than the source's (its T-pose foot pitched otherwise): no move up", () => {
        const sole = new HumanoidFootSole([0.13, 0.13], 1);
        // The source's foot turned level from its pitched T-pose (its front up), the character's pitched down.
        sole.rise.set([0.2, 0.2, -0.9, -0.9]);
        const out = new Float64Array(3);
        sole.update(Float64Array.of(0.44, 1), Float64Array.of(1, 1), Float64Array.of(1), null, out);
        expect(out[0]).toBe(0);
    });

    test("the share of the pose from clips that give the length scales the drop; with none it eases out through the low-pass", () => {
        const run = (given: number, step: number | null): number => {
            const sole = new HumanoidFootSole([0.13, 0.13], 1);
            sole.rise.set([-0.5, 0, -0.5, 0]);
            const out = new Float64Array(3);
            sole.update(Float64Array.of(0.44, given), Float64Array.of(1, 0), Float64Array.of(1), step === null ? null : Float64Array.of(step), out);
            return out[0];
        };
        const full = run(1, null);
        expect(full).toBeLessThan(-0.1);
        expect(run(0.25, null)).toBeCloseTo(full * 0.25, 3);
        expect(run(NaN, null)).toBe(0);
        // Held, then the length goes away (a cross-fade to a file before version 11): no step to none.
        const sole = new HumanoidFootSole([0.13, 0.13], 1);
        const out = new Float64Array(3);
        const step = Float64Array.of(1 / 60);
        const update = (given: number): number => {
            sole.rise.set([-0.5, 0, -0.5, 0]);
            sole.update(Float64Array.of(0.44, given), Float64Array.of(1, 0), Float64Array.of(1), step, out);
            return out[0];
        };
        let before = update(1);
        for (let i = 0; i < 60; i++) before = update(1);
        const after = update(NaN);
        expect(after).toBeLessThan(before * 0.9);
        expect(Math.abs(after - before)).toBeLessThan(0.05 * Math.abs(before));
    });
});
