import { readFileSync } from "node:fs";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ConvertBvhToMuscleClip,
    ConvertRigPosesToMuscleClip,
    CreateRigFromBvh,
    FootContact,
    HumanoidAnimator,
    HumanoidClipPlayer,
    MuscleClipSampler,
    ParseBvh,
    SampleCharacters,
    type MuscleClip,
} from "../../src/index.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { SampleWalkSource } from "../../src/samples/sampleMotion.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { WithContactEnds } from "../helpers/clips.js";

Logger.LogLevels = Logger.ErrorLogLevel;

/**
 * The obvious answer: step time on by a hundredth of a frame until it reaches a later frame that
 * has the foot in contact (a contact starts on its first frame: between two frames a foot is down
 * only when it is on both), wrapping a looping clip (its last frame is its first).
 */
function nextContactByScan(clip: MuscleClip, side: number, seconds: number, horizon: number, loop: boolean, mirror: boolean): number {
    const bit = (mirror ? 1 - side : side) === 0 ? 1 : 2;
    const last = clip.frameCount - 1;
    const now = Math.floor(seconds * clip.frameRate + 1e-6);
    for (let i = 1; i <= Math.ceil(horizon * clip.frameRate * 100); i++) {
        const t = seconds + i / (100 * clip.frameRate);
        const x = t * clip.frameRate;
        const f = Math.round(x);
        // Not on a frame yet, or on the one shown now.
        if (Math.abs(x - f) > 0.005 || f <= now) continue;
        if (f > last && !loop) return Infinity;
        if (clip.contacts[f > last ? f % last : f] & bit) return t - seconds;
    }
    return Infinity;
}

/**
 * The obvious answer, looking back: step time back by a hundredth of a frame until the foot is held
 * (on a frame that has it, or between two frames that both have it), wrapping a looping clip.
 */
function previousContactByScan(clip: MuscleClip, side: number, seconds: number, horizon: number, loop: boolean, mirror: boolean): number {
    const bit = (mirror ? 1 - side : side) === 0 ? 1 : 2;
    const last = clip.frameCount - 1;
    const held = (x: number): boolean => {
        if (x < 0) {
            if (!loop) return false;
            x = (x % last) + last;
        }
        const f = Math.round(x);
        if (Math.abs(x - f) <= 0.005) return (clip.contacts[f] & bit) !== 0;
        const a = Math.floor(x);
        return (clip.contacts[a] & bit) !== 0 && (clip.contacts[a + 1 > last ? (loop ? 1 : last) : a + 1] & bit) !== 0;
    };
    for (let i = 0; i <= Math.ceil(horizon * clip.frameRate * 100); i++) {
        const x = seconds * clip.frameRate - i / 100;
        if (x < 0 && !loop) return Infinity;
        if (held(x)) return i / 100 / clip.frameRate;
    }
    return Infinity;
}

describe("the clip player's look-ahead of foot contacts", () => {
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    const clip = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30));

    test.each([
        [false, false],
        [true, false],
        [true, true],
    ])("matches a plain scan of the clip's contacts at every frame (loop %s, mirror %s)", (loop, mirror) => {
        expect(clip.contacts.some((c) => c !== 3 && c !== 0)).toBe(true); // the walk has single-foot contacts
        const player = new HumanoidClipPlayer();
        player.play(clip, { loop, mirror });
        const io = new Float64Array(1);
        let found = 0;
        for (let f = 0; f < 2 * clip.frameCount; f++) {
            player.update(f === 0 ? 0 : 1 / clip.frameRate);
            const t = loop ? (f % (clip.frameCount - 1)) / clip.frameRate : Math.min(f, clip.frameCount - 1) / clip.frameRate;
            for (const side of [0, 1]) {
                for (const horizon of [0.1, 0.5]) {
                    io[0] = horizon;
                    player.nextContactToRef(side, io, 0);
                    const expected = nextContactByScan(clip, side, t, horizon, loop, mirror);
                    if (expected === Infinity) expect(io[0]).toBe(Infinity);
                    else {
                        expect(Math.abs(io[0] - expected)).toBeLessThanOrEqual(0.01 / clip.frameRate + 1e-9);
                        found++;
                    }
                }
            }
        }
        expect(found).toBeGreaterThan(10);
    });

    test.each([
        [false, false],
        [true, false],
        [true, true],
    ])("looks back as a plain scan of the clip's contacts does (loop %s, mirror %s)", (loop, mirror) => {
        const player = new HumanoidClipPlayer();
        player.play(clip, { loop, mirror });
        const io = new Float64Array(1);
        let found = 0;
        let inContact = 0;
        // Every half frame, so that times between frames are looked back from too.
        for (let f = 0; f < 4 * clip.frameCount; f++) {
            player.update(f === 0 ? 0 : 0.5 / clip.frameRate);
            const h = (f / 2) % (loop ? clip.frameCount - 1 : Infinity);
            const t = Math.min(h, clip.frameCount - 1) / clip.frameRate;
            for (const side of [0, 1]) {
                io[0] = 0.3;
                player.previousContactToRef(side, io, 0);
                const expected = previousContactByScan(clip, side, t, 0.3, loop, mirror);
                if (expected === Infinity) expect(io[0]).toBe(Infinity);
                else {
                    expect([f, side, Math.abs(io[0] - expected) <= 0.011 / clip.frameRate]).toEqual([f, side, true]);
                    found++;
                    if (expected === 0) inContact++;
                }
            }
        }
        expect(found).toBeGreaterThan(20);
        expect(inContact).toBeGreaterThan(10);
    });

    test("a foot's ground share: 1 in a contact, 0 half a second from any, and continuous in between", () => {
        const player = new HumanoidClipPlayer();
        player.play(clip, { loop: true });
        const span = Float64Array.of(0.2);
        const shares = new Float64Array(2);
        const io = new Float64Array(1);
        let previous: number[] | null = null;
        let ones = 0;
        let zeros = 0;
        // A twentieth of a frame a step: a share eased over 0.2 s moves by little more than 1.875 x its step over the span (smootherstep's steepest slope) a step.
        const step = 0.05 / clip.frameRate;
        for (let k = 0; k < 40 * clip.frameCount; k++) {
            player.update(k === 0 ? 0 : step);
            player.groundSharesToRef(span, 0, shares);
            for (const side of [0, 1]) {
                io[0] = 1;
                player.previousContactToRef(side, io, 0);
                if (io[0] === 0) {
                    expect(shares[side]).toBe(1);
                    ones++;
                }
                const back = io[0];
                io[0] = 1;
                player.nextContactToRef(side, io, 0);
                if (back >= 0.2 && io[0] >= 0.2) {
                    expect(shares[side]).toBe(0);
                    zeros++;
                }
                expect(shares[side]).toBeGreaterThanOrEqual(0);
                expect(shares[side]).toBeLessThanOrEqual(1);
                if (previous) expect(Math.abs(shares[side] - previous[side])).toBeLessThanOrEqual((1.875 * step) / 0.2 + 1e-9);
            }
            previous = [shares[0], shares[1]];
        }
        expect(ones).toBeGreaterThan(100);
        expect(zeros).toBeGreaterThan(0);
        // Nothing playing: every foot's height stays the clip's.
        new HumanoidClipPlayer().groundSharesToRef(span, 0, shares);
        expect(Array.from(shares)).toEqual([1, 1]);
    });

    test("a foot held between two frames is in contact whatever the look-back's horizon", () => {
        const player = new HumanoidClipPlayer();
        player.play(clip, { loop: false });
        player.update(0);
        // The first pair of frames both down for the left foot, and half way between them.
        const f = clip.contacts.findIndex((c, i) => i + 1 < clip.frameCount && (c & 1) !== 0 && (clip.contacts[i + 1] & 1) !== 0);
        expect(f).toBeGreaterThanOrEqual(0);
        player.update((f + 0.5) / clip.frameRate);
        const io = new Float64Array(1);
        for (const horizon of [0, 0.001, 0.5]) {
            io[0] = horizon;
            player.previousContactToRef(0, io, 0);
            expect([horizon, io[0]]).toEqual([horizon, 0]);
        }
    });

    test("ground shares: a clip of one frame gives its frame's contacts, a stopped one 1, an endless span ends", () => {
        const span = Float64Array.of(0.2);
        const shares = new Float64Array(2);
        const one = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 0, 30));
        expect(one.frameCount).toBe(1);
        // Its one frame with the left foot down and the right one up.
        (one.contacts as Uint8Array)[0] = 1;
        const player = new HumanoidClipPlayer();
        player.play(one);
        player.update(0);
        player.groundSharesToRef(span, 0, shares);
        expect(Array.from(shares)).toEqual([1, 0]);
        player.play(one, { mirror: true });
        player.update(0);
        player.groundSharesToRef(span, 0, shares);
        expect(Array.from(shares)).toEqual([0, 1]);
        player.play(clip, { loop: true });
        player.update(0.3);
        player.stop();
        player.update(1 / 30);
        player.groundSharesToRef(span, 0, shares);
        expect(Array.from(shares)).toEqual([1, 1]);
        // A looping clip looked through with an endless span: once round, then an answer.
        player.play(clip, { loop: true });
        player.update(0.3);
        span[0] = Infinity;
        player.groundSharesToRef(span, 0, shares);
        for (const x of shares) expect(x >= 0 && x <= 1).toBe(true);
    });

    test("ground shares move smoothly through a cross-fade to another clip", () => {
        const player = new HumanoidClipPlayer();
        player.play(clip, { loop: true });
        const span = Float64Array.of(0.2);
        const shares = new Float64Array(2);
        const step = 1 / 240;
        let previous: number[] | null = null;
        let worst = 0;
        for (let k = 0; k < 480; k++) {
            // Half a second in, half a second's fade to the same walk mirrored (its feet the other way round).
            if (k === 120) player.crossFade(clip, 0.5, { loop: true, mirror: true });
            player.update(k === 0 ? 0 : step);
            player.groundSharesToRef(span, 0, shares);
            if (previous) for (const side of [0, 1]) worst = Math.max(worst, Math.abs(shares[side] - previous[side]));
            previous = [shares[0], shares[1]];
        }
        // Each clip's share moves at most 1.875 / 0.2 a second, the weights 2 a second.
        expect(worst).toBeLessThanOrEqual(step * (1.875 / 0.2 + 2) + 1e-9);
    });

    test("nothing playing, or a horizon of 0: no contact ahead", () => {
        const player = new HumanoidClipPlayer();
        const io = new Float64Array([1]);
        player.nextContactToRef(0, io, 0);
        expect(io[0]).toBe(Infinity);
        player.play(clip);
        player.update(0);
        io[0] = 0;
        player.nextContactToRef(0, io, 0);
        expect(io[0]).toBe(Infinity);
    });
});

describeWithData("planting on a child's jump onto the X Bot (fair1_jumping_8yo: quick steps at 120 fps)", () => {
    test("a released foot is back on its clip path before it lands again: no touch-down while the release still eases out", async () => {
        const file = "bvh/animated_drawings/fair1_jumping_8yo.bvh";
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file));
        const clip = ConvertBvhToMuscleClip(bvh, BuildHumanoidAvatar(bvh.rig));
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        try {
            const animator = new HumanoidAnimator(target.avatar, target.loaded.binding!.nodes, { rootMotion: "clip" });
            animator.play(clip, { loop: false });
            const was = [false, false];
            const grounded = [0, 0];
            let touchdowns = 0;
            let early = 0;
            for (let f = 0; f < clip.frameCount; f++) {
                animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                for (const s of [0, 1]) {
                    const now = animator.planting.planted[s];
                    // footGrounded eases from 1 to 0 with the release: above 0 the foot still catches up.
                    if (now && !was[s] && f > 0) {
                        touchdowns++;
                        if (grounded[s] > 1e-9) early++;
                    }
                    was[s] = now;
                    grounded[s] = animator.solver.footGrounded[s];
                }
            }
            expect(touchdowns).toBeGreaterThanOrEqual(4);
            expect(early).toBe(0);
            animator.dispose();
        } finally {
            target.loaded.dispose();
        }
    }, 120_000);
});

describeWithData("a released foot's IK weight on a child's jump onto the X Bot", () => {
    test("eases out without a kink where the release's ease crosses the foot's height weight", async () => {
        const file = "bvh/animated_drawings/fair1_jumping_8yo.bvh";
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile(file), "utf8"), file));
        const clip = ConvertBvhToMuscleClip(bvh, BuildHumanoidAvatar(bvh.rig));
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        try {
            const animator = new HumanoidAnimator(target.avatar, target.loaded.binding!.nodes, { rootMotion: "clip" });
            animator.play(clip, { loop: false });
            const w: number[][] = [[], []];
            // The two eases the weight combines: the hold's (planting's) and the height's (the body
            // placement's, a private field read for this test: renamed, this test fails loudly).
            const hold: number[][] = [[], []];
            const near: number[][] = [[], []];
            const ground = (animator.solver as unknown as { _body: { ground: Float64Array } })._body.ground;
            const releasing: boolean[][] = [[], []];
            for (let f = 0; f < clip.frameCount; f++) {
                animator.update(f === 0 ? 0 : 1 / clip.frameRate);
                for (const s of [0, 1]) {
                    w[s].push(animator.solver.appliedPositionWeights[s]);
                    hold[s].push(animator.solver.footGoalHold[s]);
                    near[s].push(ground[s]);
                    const g = animator.solver.footGrounded[s];
                    releasing[s].push(g > 0 && g < 1);
                }
            }
            // The release eases the hold out along a quintic over the blend's N frames, whose third
            // difference is at most 60 / N^3 a frame; the weight combines it with the height's own
            // ease as 1 - (1 - near)(1 - hold), which adds no kink: the weight is no rougher than
            // the rougher of the two (0.89 of it here), where the larger of the two (the rule before)
            // had a kink, 1.9 times it. Against the quintic's bound the weight read 2.4 while
            // contacts ended as their feet reached the contact speed, 4.2 since they end as the feet
            // start to leave: the child's take-offs let go five frames sooner, while the height's
            // ease (4.7) falls too; the larger of the two read 12.3 then, 9.2 now.
            const n = animator.planting.blendSeconds * clip.frameRate;
            const d3 = (v: readonly number[], f: number): number => Math.abs(v[f] - 3 * v[f - 1] + 3 * v[f - 2] - v[f - 3]);
            let worst = 0;
            let rougherInput = 0;
            let kinked = 0;
            let frames = 0;
            for (const s of [0, 1]) {
                const larger = hold[s].map((h, f) => Math.max(h, near[s][f]));
                for (let f = 3; f < clip.frameCount; f++) {
                    if (!releasing[s][f - 1]) continue;
                    frames++;
                    worst = Math.max(worst, d3(w[s], f));
                    rougherInput = Math.max(rougherInput, d3(hold[s], f), d3(near[s], f));
                    kinked = Math.max(kinked, d3(larger, f));
                }
            }
            animator.dispose();
            expect(frames).toBeGreaterThan(50);
            expect(worst).toBeLessThan(5 * (60 / n ** 3));
            expect(worst).toBeLessThanOrEqual(rougherInput);
            expect(worst).toBeLessThan(0.5 * kinked);
        } finally {
            target.loaded.dispose();
        }
    });
});

describe("contacts held between frames", () => {
    /** The sampler's contacts held at a frame position. */
    const heldAt = (sampler: MuscleClipSampler, frame: number): number => {
        sampler.frameSlot[0] = frame;
        return sampler.contactsHeldAtSlot();
    };
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    const walk = ConvertRigPosesToMuscleClip(avatar, new SampleWalkSource(avatar, 2.2, 30));

    test("a foot is down between two frames only when it is down on both; on a frame, as that frame says", () => {
        const sampler = new MuscleClipSampler(walk);
        const flags = walk.contacts;
        const at = (frame: number): number => heldAt(sampler, frame);
        let edges = 0;
        for (let f = 0; f + 1 < walk.frameCount; f++) {
            expect(at(f)).toBe(flags[f]);
            // Within a millionth of a frame counts as on it (time summed over updates drifts).
            expect(at(f + 1e-9)).toBe(flags[f]);
            for (const x of [0.25, 0.5, 0.75]) expect(at(f + x)).toBe(flags[f] & flags[f + 1]);
            if (flags[f] !== flags[f + 1]) edges++;
        }
        // The walk has touch-downs and lift-offs to test.
        expect(edges).toBeGreaterThan(4);
        // Clamped to the clip.
        expect(at(-3)).toBe(flags[0]);
        expect(at(walk.frameCount + 5)).toBe(flags[walk.frameCount - 1]);
    });

    test("a held foot's still end between two frames is the nearer frame's (a switch of ends falls where the frames meet)", () => {
        const ended = WithContactEnds(walk);
        const sampler = new MuscleClipSampler(ended);
        const flags = ended.contacts;
        const at = (frame: number): number => heldAt(sampler, frame);
        let switches = 0;
        for (let f = 0; f + 1 < ended.frameCount; f++) {
            expect(at(f)).toBe(flags[f]);
            const feet = flags[f] & flags[f + 1] & (FootContact.Left | FootContact.Right);
            // Each held foot's two end flags (left: 4 and 16, right: 8 and 32).
            const ends =
                (feet & FootContact.Left ? FootContact.LeftAnkleStill | FootContact.LeftToesStill : 0) |
                (feet & FootContact.Right ? FootContact.RightAnkleStill | FootContact.RightToesStill : 0);
            expect(at(f + 0.25)).toBe(feet | (flags[f] & ends));
            expect(at(f + 0.75)).toBe(feet | (flags[f + 1] & ends));
            if (feet && (flags[f] & ends) !== (flags[f + 1] & ends)) switches++;
        }
        // Every contact of the walk switches from ankle to toes once.
        expect(switches).toBeGreaterThan(4);
    });
});
