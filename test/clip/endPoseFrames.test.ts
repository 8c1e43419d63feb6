import { readFileSync } from "node:fs";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import {
    BuildHumanoidAvatar,
    BvhPoseSource,
    ConvertBvhToMuscleClip,
    ConvertRigPosesToMuscleClip,
    CreateRigFromBvh,
    FindEndPoseFrames,
    ParseBvh,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
    type IBvhRig,
    type IRigPoseSource,
} from "../../src/index.js";
import { POSE_JUMP_RATIO } from "../../src/clip/endPoseFrames.js";
import { AnimationGroupPoseSource } from "../../src/io/animationGroupClip.js";
import { LoadHumanoidAvatarFromFileAsync } from "../../src/node/loadAvatar.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { JoinBvhFrames, SplitBvhFrames } from "../helpers/bvhText.js";
import { EditedClipJson } from "../helpers/clips.js";
import { errorOf } from "../helpers/errors.js";

Logger.LogLevels = Logger.ErrorLogLevel;

// Held poses a take jumps from at its start or to at its end (src/clip/endPoseFrames.ts): the
// cgspeed CMU conversions hold the T-pose at frame 0 and walk from frame 1.

function rigOf(text: string, name: string): IBvhRig {
    return CreateRigFromBvh(ParseBvh(text, name));
}

function endsOf(text: string, name: string): ReturnType<typeof FindEndPoseFrames> {
    const bvh = rigOf(text, name);
    return FindEndPoseFrames(BuildHumanoidAvatar(bvh.rig), new BvhPoseSource(bvh));
}

describeWithData("held poses a take jumps from or to at its ends", () => {
    const walkText = readFileSync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"), "utf8");
    const walk = SplitBvhFrames(walkText);

    test("the cgspeed CMU walk's T-pose frame 0: found, left out with a warning, the clip starting one frame into its source", () => {
        const ends = endsOf(walkText, "cmu_walk.bvh");
        expect(ends.leading.frames).toBe(1);
        expect(ends.trailing.frames).toBe(0);
        // The joints jump most of a leg in 1/120 s, the walk's own frames a hundredth of that.
        expect(ends.leading.jump).toBeGreaterThan(0.5);
        expect(ends.leading.jump).toBeGreaterThan(POSE_JUMP_RATIO * ends.leading.next);
        const bvh = rigOf(walkText, "cmu_walk.bvh");
        const avatar = BuildHumanoidAvatar(bvh.rig);
        const clip = ConvertBvhToMuscleClip(bvh, avatar);
        expect([clip.frameCount, clip.sourceStartSeconds]).toEqual([343, 0.0083333]);
        expect(clip.warnings.filter((w) => /held pose/.test(w))).toEqual([
            expect.stringMatching(
                /^the first frame is a held pose the take jumps from .* starts 0\.0083 s into its source \(option keepEndPoses, convert --keep-end-poses, keeps it\)$/,
            ),
        ]);
        // Kept when asked: every frame of the file, no warning.
        const kept = ConvertBvhToMuscleClip(bvh, avatar, { keepEndPoses: true });
        expect([kept.frameCount, kept.sourceStartSeconds, kept.warnings.some((w) => /held pose/.test(w))]).toEqual([344, 0, false]);
    });

    test("takes that start and end in motion keep every frame (BVH files of five sources)", () => {
        for (const file of [
            "bvh/cmu_cgspeed/cmu_jump.bvh",
            "bvh/bandai/dataset-1_walk_normal_001.bvh",
            "bvh/bandai/dataset-1_kick_normal_001.bvh",
            "bvh/animated_drawings/fair1_jumping_8yo.bvh",
            "bvh/animated_drawings/cmu1_jumping_jacks.bvh",
            "bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh",
        ]) {
            const ends = endsOf(readFileSync(dataFile(file), "utf8"), file);
            // The CMU jump is another cgspeed file: its T-pose frame 0 and nothing at its end.
            const expected = file.includes("cmu_jump") ? [1, 0] : [0, 0];
            expect([file, ends.leading.frames, ends.trailing.frames]).toEqual([file, ...expected]);
        }
    });

    test("a pose held over several frames, or at the end, is found as one run", () => {
        const tpose = walk.frames[0];
        const moving = walk.frames.slice(1);
        const four = endsOf(JoinBvhFrames(walk.head, [tpose, tpose, tpose, tpose, ...moving]), "four.bvh");
        expect([four.leading.frames, four.trailing.frames]).toEqual([4, 0]);
        const atEnd = endsOf(JoinBvhFrames(walk.head, [...moving, tpose]), "end.bvh");
        expect([atEnd.leading.frames, atEnd.trailing.frames]).toEqual([0, 1]);
        const both = endsOf(JoinBvhFrames(walk.head, [tpose, ...moving, tpose, tpose]), "both.bvh");
        expect([both.leading.frames, both.trailing.frames]).toEqual([1, 2]);
        // The clip is the window between them: from the file's frame 1, its last two frames left out.
        const bvh = rigOf(JoinBvhFrames(walk.head, [tpose, ...moving, tpose, tpose]), "both.bvh");
        const clip = ConvertBvhToMuscleClip(bvh, BuildHumanoidAvatar(bvh.rig));
        expect([clip.frameCount, clip.sourceStartSeconds]).toEqual([moving.length, 0.0083333]);
        expect(clip.warnings[0]).toMatch(/^the first frame is a held pose .*; the last 2 frames hold a pose the take jumps to .*keeps them\)$/);
    });

    test("a take that moves out of its T-pose smoothly keeps it: motion, not a reference pose", () => {
        // The T-pose, then 40 frames (a third of a second) blending each channel over to the walk's first frame.
        const from = walk.frames[0].trim().split(/\s+/).map(Number);
        const to = walk.frames[1].trim().split(/\s+/).map(Number);
        const blend = Array.from({ length: 40 }, (_, k) => {
            const u = (k + 1) / 41;
            const s = u * u * (3 - 2 * u);
            return from.map((a, i) => (a + (to[i] - a) * s).toFixed(4)).join(" ");
        });
        const ends = endsOf(JoinBvhFrames(walk.head, [walk.frames[0], ...blend, ...walk.frames.slice(1)]), "smooth.bvh");
        expect([ends.leading.frames, ends.trailing.frames]).toEqual([0, 0]);
    });

    test("a held pose at the end of a take whose last step is partial, converted at another rate: the clip ends on the last frame kept", () => {
        const tpose = walk.frames[0];
        const bvh = rigOf(JoinBvhFrames(walk.head, [...walk.frames.slice(1), tpose]), "end.bvh");
        const avatar = BuildHumanoidAvatar(bvh.rig);
        const poses = new BvhPoseSource(bvh);
        // Half a frame more than the file's frames (as a glTF clip's last key can be).
        const half: IRigPoseSource = {
            name: "end",
            source: "end.bvh",
            frameRate: poses.frameRate,
            durationSeconds: poses.durationSeconds + 0.5 / poses.frameRate,
            warnings: [],
            samplePoseToRef: (t, pose) => poses.samplePoseToRef(Math.min(t, poses.durationSeconds), pose),
        };
        const clip = ConvertRigPosesToMuscleClip(avatar, half, { frameRate: 240 });
        // The file's walk has 343 frames, then the T-pose: the clip's last frame is the walk's last.
        expect(clip.sourceStartSeconds).toBe(0);
        // (Within the grid's rounding, a hundredth of a frame; half a frame past it before.)
        expect((clip.frameCount - 1) / 240).toBeCloseTo(342 / poses.frameRate, 4);
        expect(clip.warnings[0]).toMatch(/^the last frame is a held pose the take jumps to .* the clip ends 0\.0083 s before its source's last frame/);
    });

    test("a take that holds another pose is read no further than its first frames; a rate that is no number of frames, not at all", () => {
        const bvh = rigOf(walkText, "cmu_walk.bvh");
        const avatar = BuildHumanoidAvatar(bvh.rig);
        const poses = new BvhPoseSource(bvh);
        let reads = 0;
        // Ten minutes holding the walk's second frame (an idle: no reference pose).
        const idle: IRigPoseSource = {
            name: "idle",
            source: "idle",
            frameRate: 30,
            durationSeconds: 600,
            warnings: [],
            samplePoseToRef: (_t, pose) => (reads++, poses.samplePoseToRef(1 / poses.frameRate, pose)),
        };
        expect(FindEndPoseFrames(avatar, idle).leading.frames).toBe(0);
        expect(reads).toBeLessThan(10);
        reads = 0;
        expect(FindEndPoseFrames(avatar, { ...idle, frameRate: Infinity }).count).toBe(0);
        expect(FindEndPoseFrames(avatar, { ...idle, frameRate: NaN }).count).toBe(0);
        expect(reads).toBe(0);
    });

    test("frames a glTF clip does not show (KayKit's spawns, scaled to nothing) are the conversion's to hold, not left out", async () => {
        const file = dataFile("glb/kaykit_anims/Med_General.glb");
        const loaded = await LoadHumanoidAvatarFromFileAsync(file);
        try {
            const found = loaded.loaded.container!.animationGroups.filter((g) => {
                const ends = FindEndPoseFrames(loaded.avatar, new AnimationGroupPoseSource(g, loaded.avatar, file));
                return ends.leading.frames + ends.trailing.frames > 0;
            });
            expect(found.map((g) => g.name)).toEqual([]);
        } finally {
            loaded.loaded.dispose();
        }
    });
});

describeWithData("where a clip starts in its source, in files (version 12)", () => {
    const bvh = CreateRigFromBvh(ParseBvh(readFileSync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"), "utf8"), "cmu_walk.bvh"));
    const avatar = BuildHumanoidAvatar(bvh.rig);
    const trimmed = ConvertBvhToMuscleClip(bvh, avatar, { toleranceDeg: 1 });
    const whole = ConvertBvhToMuscleClip(bvh, avatar, { toleranceDeg: 1, keepEndPoses: true });

    test("both formats keep it exactly; a clip that starts with its source writes nothing for it", () => {
        expect(trimmed.sourceStartSeconds).toBe(0.0083333);
        expect(ParseMuscleClipJson(SerializeMuscleClipToJson(trimmed), "a.json").sourceStartSeconds).toBe(0.0083333);
        expect(ParseMuscleClipBinary(SerializeMuscleClipToBinary(trimmed), "a.bin").sourceStartSeconds).toBe(0.0083333);
        expect("sourceStartSeconds" in JSON.parse(SerializeMuscleClipToJson(whole))).toBe(false);
        const bin = SerializeMuscleClipToBinary(whole);
        expect(new DataView(bin.buffer, bin.byteOffset).getUint16(6, true) & 2048).toBe(0);
        expect(ParseMuscleClipBinary(bin, "b.bin").sourceStartSeconds).toBe(0);
    });

    test("a JSON file: the key in a version 11 file, a negative or non-numeric start, each one clear error naming the key", () => {
        const edited = (f: (o: Record<string, unknown>) => void): string => EditedClipJson(trimmed, f);
        expect(
            errorOf(() =>
                ParseMuscleClipJson(
                    edited((o) => (o.version = 11)),
                    "old.json",
                ),
            ).message,
        ).toMatch(/old\.json: sourceStartSeconds is a version 12 key, the file says version 11/);
        expect(
            errorOf(() =>
                ParseMuscleClipJson(
                    edited((o) => (o.sourceStartSeconds = -1)),
                    "neg.json",
                ),
            ).message,
        ).toMatch(/neg\.json.*sourceStartSeconds must be a number of seconds from 0/);
        expect(
            errorOf(() =>
                ParseMuscleClipJson(
                    edited((o) => (o.sourceStartSeconds = "1")),
                    "str.json",
                ),
            ).message,
        ).toMatch(/str\.json.*sourceStartSeconds/);
    });

    test("a binary file: the flag in a version 11 file is refused", () => {
        const bin = SerializeMuscleClipToBinary(trimmed);
        const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
        dv.setUint16(4, 11, true);
        expect(errorOf(() => ParseMuscleClipBinary(bin, "old.bin")).message).toMatch(/old\.bin: unknown flags 0x[0-9a-f]+ for version 11/);
    });
});
