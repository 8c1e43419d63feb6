import {
    BuildHumanoidAvatar,
    ConvertBvhToMuscleClip,
    FootContact,
    ParseMuscleClipBinary,
    ParseMuscleClipJson,
    SerializeMuscleClipToBinary,
    SerializeMuscleClipToJson,
} from "../../src/index.js";
import { CONTACT_END_MARGIN, CONTACT_END_STILL, DetectContactEnds, STILL_TOES_LOWER } from "../../src/clip/contactEnds.js";
import type { IFootTracks } from "../../src/clip/footContacts.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";

const RATE = 120;
const N = 60;

/** Both feet's ankle and toes tracks (canonical avatar scales), the right foot standing still at x = 0.2; the left foot's from `left(f)`. */
function tracks(left: (f: number) => [number[], number[]], toes = true): IFootTracks {
    const points = [0, 1].map(() => [new Float32Array(3 * N), new Float32Array(3 * N)]);
    for (let f = 0; f < N; f++) {
        const [a, t] = left(f);
        points[0][0].set(a, 3 * f);
        points[0][1].set(t, 3 * f);
        points[1][0].set([0.2, 0.05, 0], 3 * f);
        points[1][1].set([0.2, 0.01, 0.1], 3 * f);
    }
    return {
        points: [[points[0][0], toes ? points[0][1] : null], points[1]],
        restHeight: [
            [0.05, 0.01],
            [0.05, 0.01],
        ],
    };
}

/** Per frame, the left foot's end as a letter: A ankle, T toes, ? not known, . not planted (the frames' flags checked on the way). */
function leftEnds(contacts: Uint8Array): string {
    return Array.from(contacts, (c) => {
        expect(c & (FootContact.LeftAnkleStill | FootContact.LeftToesStill)).not.toBe(FootContact.LeftAnkleStill | FootContact.LeftToesStill);
        if (!(c & FootContact.Left)) {
            expect(c & (FootContact.LeftAnkleStill | FootContact.LeftToesStill)).toBe(0);
            return ".";
        }
        return c & FootContact.LeftToesStill ? "T" : c & FootContact.LeftAnkleStill ? "A" : "?";
    }).join("");
}

/** A point moved along x by speeds (avatar scales a second) summed up to frame f. */
function along(speed: (g: number) => number, f: number): number {
    let x = 0;
    for (let g = 1; g <= f; g++) x += (speed(g - 1) + speed(g)) / 2 / RATE;
    return x;
}

/**
 * The left foot's ends (as {@link leftEnds}) for a flat foot down throughout, its toes still, its
 * ankle moving at `creep` (avatar scales a second) and from frame 30 faster by 0.01 each frame (its
 * heel rising).
 */
function heelRiseEnds(creep: number): string {
    const ankle = (g: number): number => creep + (g > 30 ? 0.01 * (g - 30) : 0);
    const feet = tracks((f) => [
        [along(ankle, f), 0.05, 0],
        [0, 0.01, 0.1],
    ]);
    const contacts = new Uint8Array(N).fill(FootContact.Left);
    DetectContactEnds(feet, contacts, RATE);
    return leftEnds(contacts);
}

describe("the still end of a planted foot, from the source (DetectContactEnds)", () => {
    it("a heel spin (the toes sweeping round an ankle that stays) turns about the ankle from the first frame", () => {
        // The toes 0.1 from the ankle, turning 0.05 radian a frame: 0.6 avatar scales a second.
        const feet = tracks((f) => [
            [0, 0.05, 0],
            [0.1 * Math.sin(0.05 * f), 0.01, 0.1 * Math.cos(0.05 * f)],
        ]);
        const contacts = new Uint8Array(N).fill(FootContact.Left);
        DetectContactEnds(feet, contacts, RATE);
        expect(leftEnds(contacts)).toBe("A".repeat(N));
        // The right foot is not planted: nothing is added to it.
        expect(contacts.every((c) => (c & (FootContact.Right | FootContact.RightAnkleStill | FootContact.RightToesStill)) === 0)).toBe(true);
    });

    it("a toe roll (the ankle slowing down to rest, then the heel coming forward over toes that stop): the going-over is placed where the two speeds cross, not where they part by the margin", () => {
        // The toes slow from 0.4 to 0 over the contact, the ankle speeds up from 0 to 0.4: they
        // cross at frame 29.5; the margin is passed from frame 37.
        const toes = (g: number): number => 0.4 * (1 - g / (N - 1));
        const ankle = (g: number): number => (0.4 * g) / (N - 1);
        expect(ankle(37) - toes(37)).toBeGreaterThan(CONTACT_END_MARGIN);
        expect(ankle(36) - toes(36)).toBeLessThan(CONTACT_END_MARGIN);
        const feet = tracks((f) => [
            [along(ankle, f), 0.05, 0],
            [along(toes, f), 0.01, 0.1],
        ]);
        const contacts = new Uint8Array(N).fill(FootContact.Left);
        DetectContactEnds(feet, contacts, RATE);
        const ends = leftEnds(contacts);
        const firstToes = ends.indexOf("T");
        expect(ends).toBe("A".repeat(firstToes) + "T".repeat(N - firstToes));
        expect(firstToes).toBeGreaterThanOrEqual(29);
        expect(firstToes).toBeLessThanOrEqual(31);
    });

    it("a choice of the margin is written back to where the two speeds parted: a flat foot standing on its ankle whose heel starts to rise turns about its toes from the rise's first frame", () => {
        // Frames 0-29 flat and still; from frame 30 the ankle speeds up (0.01 avatar scale a
        // second more each frame), the toes stay: the margin is passed only from frame 40.
        const ends = heelRiseEnds(0);
        // The ankle's first move (frames 30 to 31) is in frame 30's central speed, and in the
        // window of 2 frames either side from frame 28. Before it the foot stands still and flat:
        // on its ankle (DetectContactEnds' step 4).
        expect(ends).toBe("A".repeat(28) + "T".repeat(N - 28));
    });

    it("a change of end is not written back over the still frames step 4 chose for: a flat foot creeping on its ankle, then its heel rising", () => {
        // Frames 0-29 flat, the ankle creeping at a quarter of CONTACT_END_STILL (the two speeds'
        // difference one sign throughout), the toes still; from frame 30 the ankle speeds up.
        const ends = heelRiseEnds(CONTACT_END_STILL / 4);
        // (Found by a review: the toes, chosen when the margin was passed, were written back to the
        // contact's first frame, the still frames held on the toes.)
        expect(ends).toMatch(/^A{25,}T+$/);
    });

    it("a foot standing still stands on the end its pitch puts lower: flat on its ankle, on tiptoe on its toes; a slow slide is not still", () => {
        const still = (toesY: number) => (): [number[], number[]] => [
            [0, 0.05, 0],
            [0, toesY, 0.1],
        ];
        const ends = (feet: IFootTracks): string => {
            const contacts = new Uint8Array(N).fill(FootContact.Left);
            DetectContactEnds(feet, contacts, RATE);
            return leftEnds(contacts);
        };
        // Flat (its toes as high as in its T-pose, for its ankle's height).
        expect(ends(tracks(still(0.01)))).toBe("A".repeat(N));
        // Its toes 1 cm lower than in its T-pose: on tiptoe (or the heel up).
        expect(ends(tracks(still(0.0)))).toBe("T".repeat(N));
        // Within STILL_TOES_LOWER of flat: the ankle.
        expect(ends(tracks(still(0.01 - 0.9 * STILL_TOES_LOWER)))).toBe("A".repeat(N));
        // Both ends going along at twice CONTACT_END_STILL: moving alike, not known.
        const slow = tracks((f) => [
            [2 * CONTACT_END_STILL * (f / RATE), 0.05, 0],
            [2 * CONTACT_END_STILL * (f / RATE), 0.01, 0.1],
        ]);
        expect(ends(slow)).toBe("?".repeat(N));
        // Still from frame 20 on after such a slide: from there, its ankle (once the window is still).
        const stops = tracks((f) => [
            [2 * CONTACT_END_STILL * (Math.min(f, 20) / RATE), 0.05, 0],
            [2 * CONTACT_END_STILL * (Math.min(f, 20) / RATE), 0.01, 0.1],
        ]);
        expect(ends(stops)).toMatch(/^\?{20,23}A+$/);
    });

    it("a choice is never written back out of its contact: the speeds that parted before the foot came down stay the air's", () => {
        // Both feet's toes still, their ankles moving 0.3 avatar scales a second: the two speeds
        // part from the first frame. The left foot is down throughout (looked at first, its
        // speeds fill the frames before the right foot's contact), the right only from frame 30.
        const heel = (f: number, x: number): [number[], number[]] => [
            [x + 0.3 * (f / RATE), 0.05, 0],
            [x, 0.01, 0.1],
        ];
        const feet = tracks((f) => heel(f, 0));
        for (let f = 0; f < N; f++) {
            const [a, t] = heel(f, 0.2);
            feet.points[1][0]!.set(a, 3 * f);
            feet.points[1][1]!.set(t, 3 * f);
        }
        const contacts = new Uint8Array(N).fill(FootContact.Left);
        for (let f = 30; f < N; f++) contacts[f] |= FootContact.Right;
        DetectContactEnds(feet, contacts, RATE);
        expect(leftEnds(contacts)).toBe("T".repeat(N));
        const right = Array.from(contacts, (c) =>
            c & FootContact.Right
                ? c & FootContact.RightToesStill
                    ? "T"
                    : c & FootContact.RightAnkleStill
                      ? "A"
                      : "?"
                : c & (FootContact.RightToesStill | FootContact.RightAnkleStill)
                  ? "!"
                  : ".",
        ).join("");
        expect(right).toBe(".".repeat(30) + "T".repeat(N - 30));
    });

    it("ends moving alike (a flat foot sliding) are not known; nor is a foot without toes", () => {
        const slide = tracks((f) => [
            [0.3 * (f / RATE), 0.05, 0],
            [0.3 * (f / RATE), 0.01, 0.1],
        ]);
        const contacts = new Uint8Array(N).fill(FootContact.Left);
        DetectContactEnds(slide, contacts, RATE);
        expect(leftEnds(contacts)).toBe("?".repeat(N));
        const spin = (f: number): [number[], number[]] => [
            [0, 0.05, 0],
            [0.1 * Math.sin(0.05 * f), 0.01, 0.1 * Math.cos(0.05 * f)],
        ];
        const toeless = new Uint8Array(N).fill(FootContact.Left);
        DetectContactEnds(tracks(spin, false), toeless, RATE);
        expect(leftEnds(toeless)).toBe("?".repeat(N));
    });

    it("each contact decides afresh: not known until one end is clearly stiller, never carried over a gap", () => {
        // Frames 0-19 a heel spin; 20-29 in the air, the whole foot going along x at 0.3 avatar
        // scales a second; 30-39 down, sliding on as it was; 40-59 on its toes, the heel swinging
        // round them.
        const turned = 0.05 * 19;
        const slid = (f: number): number => 0.3 * ((f - 19) / RATE);
        const feet = tracks((f) => {
            if (f < 20)
                return [
                    [0, 0.05, 0],
                    [0.1 * Math.sin(0.05 * f), 0.01, 0.1 * Math.cos(0.05 * f)],
                ];
            const t: number[] = [0.1 * Math.sin(turned) + slid(Math.min(f, 40)), 0.01, 0.1 * Math.cos(turned)];
            if (f <= 40) return [[slid(f), 0.05, 0], t];
            const a = turned + 0.05 * (f - 40);
            return [[t[0] - 0.1 * Math.sin(a), 0.05, t[2] - 0.1 * Math.cos(a)], t];
        });
        const contacts = new Uint8Array(N);
        for (let f = 0; f < N; f++) if (f < 20 || f >= 30) contacts[f] = FootContact.Left;
        DetectContactEnds(feet, contacts, RATE);
        const ends = leftEnds(contacts);
        expect(ends.slice(0, 30)).toBe("A".repeat(20) + ".".repeat(10));
        // The ankle chosen in the contact before is not carried over: the slide is not known, up
        // to where the heel's swing shows in the speeds' window (the toes chosen are written back
        // to where the ankle's speed passed the toes').
        expect(ends.slice(30)).toMatch(/^\?{5,}T+$/);
        expect(ends.slice(42)).toBe("T".repeat(N - 42));
    });
});

describeWithData("the still ends of a real walk", () => {
    it("the CMU walk pushes off its toes: its contacts longer than 0.2 s end on their toes, none on its ankle, and both files keep the ends", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"));
        try {
            const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
            const clip = ConvertBvhToMuscleClip(loaded.bvh!, avatar);
            let contacts = 0;
            let onToes = 0;
            for (const [foot, ankle, toes] of [
                [FootContact.Left, FootContact.LeftAnkleStill, FootContact.LeftToesStill],
                [FootContact.Right, FootContact.RightAnkleStill, FootContact.RightToesStill],
            ]) {
                for (let f = 0; f < clip.frameCount; f++) {
                    const c = clip.contacts[f];
                    if (!(c & foot)) expect(c & (ankle | toes)).toBe(0);
                    expect(c & (ankle | toes)).not.toBe(ankle | toes);
                    // A contact's last frame (not the clip's): its toes are the still end.
                    if (c & foot && f + 1 < clip.frameCount && !(clip.contacts[f + 1] & foot)) {
                        let start = f;
                        while (start > 0 && clip.contacts[start - 1] & foot) start--;
                        if (start === 0 || f - start + 1 < 0.2 * clip.frameRate) continue;
                        contacts++;
                        expect(c & ankle).toBe(0);
                        if (c & toes) onToes++;
                    }
                }
            }
            // All five. On the take's climbing floor (before conversion leveled it, `FitFloorTilt`)
            // the right foot's last contact ended as its heel started to rise (frame 267), before
            // its ankle outran its toes across the ground, with no end known; on the leveled floor
            // it stands low three frames longer and ends on its toes (270), as the others do.
            expect(contacts).toBe(5);
            expect(onToes).toBe(5);
            expect(Array.from(ParseMuscleClipBinary(SerializeMuscleClipToBinary(clip), "w.bin").contacts)).toEqual(Array.from(clip.contacts));
            expect(Array.from(ParseMuscleClipJson(SerializeMuscleClipToJson(clip), "w.json").contacts)).toEqual(Array.from(clip.contacts));
        } finally {
            loaded.dispose();
        }
    }, 120_000);
});
