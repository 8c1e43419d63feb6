import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import {
    ALL_MUSCLE_COUNT,
    CreateReferenceRigPose,
    DecodeHumanPose,
    HumanBone,
    HumanPose,
    MuscleClip,
    MuscleSetup,
    type HumanoidAvatar,
} from "../../src/index.js";
import { TRUNK_BONES } from "../../src/muscle/setup.js";
import { TRUNK_PLACE_SECONDS, TrunkPlaceLowPass } from "../../src/muscle/trunkMatch.js";
import { CreateTransformNodesFromRig } from "../../src/io/rigNodes.js";
import { ConvertFileToMuscleClipsAsync, LoadHumanoidAvatarFromFileAsync } from "../../src/node/index.js";
import { MeasureQualityPairAsync, RecordHumanoidRetarget } from "../../src/node/qualityReport.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { JointPathJerk } from "../helpers/jointJerk.js";
import { YoungBytesPerCall } from "../helpers/allocation.js";
import { HumanoidClipPlayer } from "../../src/runtime/clipPlayer.js";

Logger.LogLevels = Logger.ErrorLogLevel;

const FILES = {
    zombie: "bvh/animated_drawings/fair1_zombie_8yo.bvh",
    cmu: "bvh/cmu_cgspeed/cmu_walk.bvh",
    xbot: "glb/mixamo_xbot.glb",
    figure: "glb/khronos_RiggedFigure.glb",
    mannequin: "glb/kaykit_mannequin/manny_med_mod.gltf",
    vrm: "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm",
} as const;

/** A seeded pseudo-random sequence in [-1, 1) (mulberry32). */
function random(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
    };
}

/** A pose with every muscle at a random value within 0.8 of its range. */
function randomPose(next: () => number): HumanPose {
    const pose = new HumanPose();
    for (let m = 0; m < ALL_MUSCLE_COUNT; m++) pose.values[m] = 0.8 * next();
    return pose;
}

/** An avatar's trunk layout over its scale, as a clip keeps its source's (`IClipProportions.trunkOffsets`). */
function trunkOf(avatar: HumanoidAvatar): Float64Array {
    return MuscleSetup.For(avatar).clipTrunkOffsets;
}

/** Decodes and returns every bone's canonical rotation (`Dc`, hips at their T-pose turn) and the rig pose. */
function decode(avatar: HumanoidAvatar, pose: HumanPose, trunk?: Float64Array, place?: TrunkPlaceLowPass): { dc: Quaternion[]; rotations: Quaternion[] } {
    const rig = DecodeHumanPose(avatar, pose, CreateReferenceRigPose(avatar), null, trunk, null, null, null, place);
    return { dc: MuscleSetup.For(avatar).work.dc.map((q) => q.clone()), rotations: rig.rotations.map((q) => q.clone()) };
}

/** The mapped trunk bones of an avatar with their T-pose offsets from the one before (canonical), bottom up. */
function chainOf(avatar: HumanoidAvatar): { bone: HumanBone; offset: Vector3 }[] {
    const setup = MuscleSetup.For(avatar);
    const world = avatar.referenceWorld.positions;
    let prev = world[avatar.getJoint(HumanBone.LeftUpperLeg)].add(world[avatar.getJoint(HumanBone.RightUpperLeg)]).scale(0.5);
    const out: { bone: HumanBone; offset: Vector3 }[] = [];
    for (const bone of TRUNK_BONES) {
        const j = avatar.getJoint(bone);
        if (j < 0) continue;
        out.push({ bone, offset: world[j].subtract(prev).applyRotationQuaternion(setup.c0Inverse) });
        prev = world[j];
    }
    return out;
}

/** Points along a path (piecewise linear), at a distance from its start. */
function pointAt(points: Vector3[], along: number[], d: number): Vector3 {
    for (let k = 1; k < points.length; k++) {
        if (d <= along[k] || k === points.length - 1) {
            const span = along[k] - along[k - 1];
            const t = span > 1e-12 ? Math.min(1, Math.max(0, (d - along[k - 1]) / span)) : 1;
            return Vector3.Lerp(points[k - 1], points[k], t);
        }
    }
    return points[points.length - 1];
}

/** The least rotation taking unit `a` to unit `b`. */
function turnBetween(a: Vector3, b: Vector3): Quaternion {
    const axis = Vector3.Cross(a, b);
    const s = axis.length();
    return s < 1e-12 ? Quaternion.Identity() : Quaternion.RotationAxis(axis.scale(1 / s), Math.atan2(s, Vector3.Dot(a, b)));
}

/**
 * The readable oracle: the direction (canonical, hips at their T-pose turn) each segment of the
 * target's trunk should take for a pose, from the source's trunk as the pose turns it on the
 * source's own skeleton (decoded there, bone by bone): the source's chord over the segment's
 * shares of the trunk's length, turned from its T-pose to its pose, applied to the segment's T-pose
 * direction (`chord`, keyed by the bone the segment starts from). And the first segment's (the
 * spine's) direction by place (`aimed`): from its joint, where the hips put it, at where the hips'
 * piece turned as the source's chord over its shares and then the segment so turned would end.
 */
function expectedDirections(source: HumanoidAvatar, target: HumanoidAvatar, pose: HumanPose): { chord: Map<HumanBone, Vector3>; aimed: Vector3 } {
    const dc = decode(source, pose).dc;
    const rest: Vector3[] = [Vector3.Zero()];
    const posed: Vector3[] = [Vector3.Zero()];
    const along = [0];
    let below = Quaternion.Identity();
    for (const { bone, offset } of chainOf(source)) {
        rest.push(rest[rest.length - 1].add(offset));
        posed.push(posed[posed.length - 1].add(offset.applyRotationQuaternion(below)));
        along.push(along[along.length - 1] + offset.length());
        below = dc[bone];
    }
    const sourceLength = along[along.length - 1];
    const chain = chainOf(target);
    const targetLength = chain.reduce((s, c) => s + c.offset.length(), 0);
    /** The source's chord from distance `a` to `b` along its trunk, turned from its T-pose to its pose. */
    const chordTurn = (a: number, b: number): Quaternion => {
        const chordRest = pointAt(rest, along, b)
            .subtract(pointAt(rest, along, a))
            .normalize();
        const chordPosed = pointAt(posed, along, b)
            .subtract(pointAt(posed, along, a))
            .normalize();
        return turnBetween(chordRest, chordPosed);
    };
    const chord = new Map<HumanBone, Vector3>();
    let at = chain[0].offset.length();
    // Where the hips' piece (hip joints' middle to spine joint) would end, turned as its chord.
    const hipsEnd = chain[0].offset.applyRotationQuaternion(chordTurn(0, (at / targetLength) * sourceLength));
    let aimed = Vector3.Zero();
    for (let k = 0; k + 1 < chain.length; k++) {
        const piece = chain[k + 1].offset.length();
        const a = (at / targetLength) * sourceLength;
        const b = ((at + piece) / targetLength) * sourceLength;
        at += piece;
        // A segment of no length (the CMU skeleton's neck sits on its upper chest) has no direction.
        if (!(piece > 1e-9)) continue;
        const want = chain[k + 1].offset.normalizeToNew().applyRotationQuaternion(chordTurn(a, b));
        chord.set(chain[k].bone, want);
        if (k === 0) aimed = hipsEnd.add(want.scale(piece)).subtract(chain[0].offset).normalize();
    }
    return { chord, aimed };
}

/** Where the trunk segment starting at `bone` points for decoded rotations `dc` (canonical). */
function segmentDirection(avatar: HumanoidAvatar, dc: Quaternion[], bone: HumanBone): Vector3 {
    const chain = chainOf(avatar);
    return chain[chain.findIndex((c) => c.bone === bone) + 1].offset.applyRotationQuaternion(dc[bone]);
}

const angleDeg = (a: Vector3, b: Vector3): number =>
    (Math.acos(Math.max(-1, Math.min(1, Vector3.Dot(a.normalizeToNew(), b.normalizeToNew())))) * 180) / Math.PI;
const turnDeg = (a: Quaternion, b: Quaternion): number => (2 * Math.acos(Math.min(1, Math.abs(Quaternion.Dot(a, b)))) * 180) / Math.PI;

describeWithData("trunk segments turned as the source's trunk (IClipProportions.trunkOffsets)", () => {
    const avatars = new Map<string, HumanoidAvatar>();
    beforeAll(async () => {
        for (const [name, file] of Object.entries(FILES)) avatars.set(name, (await LoadHumanoidAvatarFromFileAsync(dataFile(file))).avatar);
    });

    test.each([
        ["zombie", "figure"],
        ["zombie", "xbot"],
        ["cmu", "mannequin"],
        ["xbot", "vrm"],
        ["mannequin", "cmu"],
    ] as const)(
        "%s onto %s: each trunk segment points where the source's chord over its shares turned, the head and arms keep their decoded turns",
        (from, onto) => {
            const source = avatars.get(from)!;
            const target = avatars.get(onto)!;
            const trunk = trunkOf(source);
            const next = random(from.length * 31 + onto.length);
            let moved = 0;
            for (let n = 0; n < 25; n++) {
                const pose = randomPose(next);
                const plain = decode(target, pose);
                const matched = decode(target, pose, trunk);
                for (const [bone, want] of expectedDirections(source, target, pose).chord) {
                    const got = segmentDirection(target, matched.dc, bone);
                    expect(angleDeg(got, want)).toBeLessThan(1e-4);
                    moved = Math.max(moved, angleDeg(got, segmentDirection(target, plain.dc, bone)));
                }
                // Only the trunk's segments change: the head, the upper arms and the legs keep their decoded turns.
                for (const bone of [
                    HumanBone.Head,
                    HumanBone.LeftUpperArm,
                    HumanBone.RightUpperArm,
                    HumanBone.LeftHand,
                    HumanBone.LeftUpperLeg,
                    HumanBone.RightFoot,
                ])
                    expect(turnDeg(matched.dc[bone], plain.dc[bone])).toBeLessThan(1e-4);
            }
            // The trunks differ: some segment really turned.
            expect(moved).toBeGreaterThan(1);
        },
    );

    test.each([
        ["zombie", "figure"],
        ["zombie", "xbot"],
        ["mannequin", "cmu"],
    ] as const)(
        "%s onto %s with the hips' piece's low-pass: the spine takes the fast part of its turn to its direction by place, nothing on a first decode or a pose held",
        (from, onto) => {
            const source = avatars.get(from)!;
            const target = avatars.get(onto)!;
            const trunk = trunkOf(source);
            const spine = chainOf(target)[0].bone;
            const next = random(from.length * 17 + onto.length);
            const place = new TrunkPlaceLowPass();
            const step = Float64Array.of(1 / 30);
            const spineDirection = (dc: Quaternion[]): Vector3 => segmentDirection(target, dc, spine);
            let byPlace = 0;
            for (let n = 0; n < 10; n++) {
                const a = randomPose(next);
                const b = randomPose(next);
                // A first decode after a reset: its slow part starts at its own turn, the chords' directions.
                place.reset();
                place.noteStep(null);
                const first = expectedDirections(source, target, a);
                expect(angleDeg(spineDirection(decode(target, a, trunk, place).dc), first.chord.get(spine)!)).toBeLessThan(1e-4);
                // The next, a step later: the turn's fast part. Slow: the first's turn followed by 1 - exp(-step / T).
                place.noteStep(step);
                const second = expectedDirections(source, target, b);
                const turnA = turnBetween(first.chord.get(spine)!, first.aimed);
                const turnB = turnBetween(second.chord.get(spine)!, second.aimed);
                const f = 1 - Math.exp(-step[0] / TRUNK_PLACE_SECONDS);
                // The low-pass's step, a normalized lerp on turnA's hemisphere.
                const b1 = Quaternion.Dot(turnA, turnB) < 0 ? turnB.scale(-1) : turnB;
                const slow = turnA.add(b1.subtract(turnA).scale(f)).normalize();
                const want = second.chord.get(spine)!.applyRotationQuaternion(turnB.multiply(Quaternion.Inverse(slow)));
                const matched = decode(target, b, trunk, place).dc;
                expect(angleDeg(spineDirection(matched), want)).toBeLessThan(1e-4);
                byPlace = Math.max(byPlace, angleDeg(want, second.chord.get(spine)!));
                // The segments above keep their chords' directions.
                for (const [bone, dir] of second.chord) {
                    if (bone === spine) continue;
                    expect(angleDeg(segmentDirection(target, matched, bone), dir)).toBeLessThan(1e-4);
                }
                // Held for 2 s: the slow part has caught up, the chords' directions again.
                for (let h = 0; h < 60; h++) decode(target, b, trunk, place);
                expect(angleDeg(spineDirection(decode(target, b, trunk, place).dc), second.chord.get(spine)!)).toBeLessThan(0.01);
            }
            // Those two trunks' spine joints sit higher than the source's: the piece really turned.
            expect(byPlace).toBeGreaterThan(0.5);
        },
    );

    test.each(Object.keys(FILES))(
        "%s onto itself: its own trunk layout (skipped) and the same twice as large (matched) change nothing; the T-pose stays the T-pose whatever the source",
        (name) => {
            const avatar = avatars.get(name)!;
            const next = random(7 + name.length);
            for (let n = 0; n < 10; n++) {
                const pose = randomPose(next);
                const plain = decode(avatar, pose).rotations;
                const matched = decode(avatar, pose, trunkOf(avatar)).rotations;
                plain.forEach((q, j) => expect(turnDeg(matched[j], q)).toBeLessThan(1e-5));
                // The same layout twice as large is not taken for its own (decode matches it), and only
                // its shares and directions count: nothing changes either.
                const larger = decode(
                    avatar,
                    pose,
                    trunkOf(avatar).map((x) => 2 * x),
                ).rotations;
                plain.forEach((q, j) => expect(turnDeg(larger[j], q)).toBeLessThan(1e-5));
            }
            const rest = new HumanPose();
            const plain = decode(avatar, rest).rotations;
            for (const other of avatars.values()) {
                const matched = decode(avatar, rest, trunkOf(other)).rotations;
                plain.forEach((q, j) => expect(turnDeg(matched[j], q)).toBeLessThan(1e-5));
            }
        },
    );

    test("matching another skeleton's layout makes no garbage (no number boxed)", () => {
        const target = avatars.get("figure")!;
        const trunk = trunkOf(avatars.get("zombie")!);
        const pose = randomPose(random(3));
        const rig = CreateReferenceRigPose(target);
        const plain = (): void => void DecodeHumanPose(target, pose, rig, null, null);
        const matched = (): void => void DecodeHumanPose(target, pose, rig, null, trunk);
        for (let n = 0; n < 2000; n++) matched();
        const base = YoungBytesPerCall(plain, 4, 500);
        const bytes = YoungBytesPerCall(matched, 4, 500);
        if (base !== null && bytes !== null) expect(bytes).toBeLessThan(base + 8);
    });

    test("a cross-fade from a clip with a trunk layout to one without (an older file) keeps the layout", async () => {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile(FILES.zombie)))[0].clip;
        const { trunkOffsets: _dropped, ...older } = clip.proportions!;
        const layoutless = new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], proportions: older });
        const player = new HumanoidClipPlayer("in-place");
        player.play(clip, { loop: true });
        player.update(0.1);
        const own = Array.from(player.proportions.subarray(15, 30));
        expect(own.every(Number.isFinite)).toBe(true);
        player.crossFade(layoutless, 0.5);
        for (let f = 0; f < 20; f++) {
            player.update(1 / 60);
            // Summed by weight from the clips that have one: the same directions and shares.
            const now = Array.from(player.proportions.subarray(15, 30));
            const k = now[4] / own[4];
            now.forEach((x, i) => expect(x).toBeCloseTo(own[i] * k, 9));
        }
        // Once the older clip plays alone: no layout.
        for (let f = 0; f < 60; f++) player.update(1 / 60);
        expect(player.proportions[15]).toBeNaN();
    });

    test("the zombie mocap onto RiggedFigure, whose spine joint sits far higher up its trunk: the hips' piece's turn goes on to the spine, and no joint jerks more than 1.5 times the source's", async () => {
        // The source's path over RiggedFigure's hips' piece turns with the zombie's low spine bone;
        // left out, the chest point moved by less than the source's and the turns back that keep
        // the source's neck still went on to the neck and arms (worst bone 1.76 times the source's
        // jerk, now 1.24 with the turn's fast part handed on; the report's pair jerk 1.00 -> 0.86).
        const pair = await MeasureQualityPairAsync(dataFile(FILES.zombie), dataFile(FILES.figure), { skipAnimatorAvatar: true });
        expect(pair.ours.boneJerkMax).toBeLessThan(1.5);
    }, 60_000);

    test("the zombie mocap onto RiggedFigure: its head jerks far less than with its trunk turned bone by bone", async () => {
        const clip = (await ConvertFileToMuscleClipsAsync(dataFile(FILES.zombie)))[0].clip;
        expect(clip.proportions?.trunkOffsets).toHaveLength(15);
        const { trunkOffsets: _dropped, ...older } = clip.proportions!;
        const boneByBone = new MuscleClip({ ...clip, curves: [...clip.curves], warnings: [...clip.warnings], proportions: older });
        const target = await LoadHumanoidAvatarFromFileAsync(dataFile(FILES.figure));
        const scene = new Scene(new NullEngine());
        const nodes = CreateTransformNodesFromRig(target.avatar.rig, scene).nodes;
        const head = target.avatar.getJoint(HumanBone.Head);
        /** RMS third difference of the head's path (metres). */
        const headJerk = (c: MuscleClip): number => JointPathJerk(RecordHumanoidRetarget(c, target.avatar, nodes).positions, head);
        const matched = headJerk(clip);
        const plain = headJerk(boneByBone);
        expect(matched).toBeLessThan(0.85 * plain);
        scene.getEngine().dispose();
        target.loaded.dispose();
    });
});
