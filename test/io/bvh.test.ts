import { readFileSync } from "node:fs";
import { HumanoidError, ParseBvh } from "../../src/index.js";
import { TINY_BVH } from "../helpers/bvhText.js";
import { dataFile, describeWithData, listDataFiles } from "../helpers/data.js";

describe("ParseBvh", () => {
    it("reads hierarchy, each joint's own channel order, End Sites and motion", () => {
        const bvh = ParseBvh(TINY_BVH, "tiny.bvh");
        expect(bvh.joints.map((j) => j.name)).toEqual(["Hips", "Spine", "Spine/EndSite"]);
        expect(bvh.joints[0].channels).toEqual(["Xposition", "Yposition", "Zposition", "Zrotation", "Xrotation", "Yrotation"]);
        expect(bvh.joints[1].channels).toEqual(["Yrotation", "Xrotation", "Zrotation"]);
        expect(bvh.joints[1].channelStart).toBe(6);
        expect(bvh.joints[2].isEndSite).toBe(true);
        expect(bvh.joints[2].parent).toBe(1);
        expect(bvh.joints[1].offset).toEqual([0, 10, 0]);
        expect(bvh.channelCount).toBe(9);
        expect(bvh.frameCount).toBe(2);
        expect(bvh.frameTimeSeconds).toBeCloseTo(1 / 30, 6);
        expect(Array.from(bvh.motion.subarray(0, 9))).toEqual([1, 2, 3, 10, 20, 30, 40, 50, 60]);
        expect(bvh.motion[17]).toBe(90);
    });

    it("accepts CRLF line ends, tabs, lower-case channel names and blank lines", () => {
        const text = TINY_BVH.replace(/\n/g, "\r\n").replace("Yrotation Xrotation Zrotation", "yrotation xrotation zrotation").replace("MOTION", "\r\nMOTION");
        const bvh = ParseBvh(text, "crlf.bvh");
        expect(bvh.joints[1].channels).toEqual(["Yrotation", "Xrotation", "Zrotation"]);
        expect(bvh.frameCount).toBe(2);
    });

    const bad: Array<[string, (t: string) => string, RegExp]> = [
        ["not a BVH", () => "hello world", /bad\.bvh:1: expected 'HIERARCHY'/],
        ["empty file", () => "", /bad\.bvh:1: unexpected end of file, expected HIERARCHY/],
        ["missing brace", (t) => t.replace("\t{\n\t\tOFFSET 0 10 0", "\t\tOFFSET 0 10 0"), /bad\.bvh:7: expected '\{' after joint 'Spine', found 'OFFSET'/],
        ["OFFSET with two numbers", (t) => t.replace("OFFSET 0 10 0", "OFFSET 0 10"), /bad\.bvh:8: OFFSET needs 3 numbers, found 2/],
        ["OFFSET not a number", (t) => t.replace("OFFSET 0 10 0", "OFFSET 0 ten 0"), /bad\.bvh:8: OFFSET y is not a number: 'ten'/],
        [
            "channel count mismatch",
            (t) => t.replace("CHANNELS 3 Yrotation", "CHANNELS 4 Yrotation"),
            /bad\.bvh:9: joint 'Spine' declares 4 channels but lists 3/,
        ],
        ["unknown channel", (t) => t.replace("CHANNELS 3 Yrotation", "CHANNELS 3 Wrotation"), /bad\.bvh:9: unknown channel 'Wrotation' in joint 'Spine'/],
        ["channel twice", (t) => t.replace("Yrotation Xrotation Zrotation", "Yrotation Yrotation Zrotation"), /bad\.bvh:9: channel 'Yrotation' listed twice/],
        [
            "seven channels",
            (t) => t.replace("CHANNELS 3 Yrotation Xrotation Zrotation", "CHANNELS 7 Yrotation Xrotation Zrotation"),
            /bad\.bvh:9: joint 'Spine' declares 7 channels/,
        ],
        ["duplicate joint name", (t) => t.replace("JOINT Spine", "JOINT Hips"), /bad\.bvh:6: joint name 'Hips' is used twice/],
        ["End Site with a child", (t) => t.replace("\t\t\tOFFSET 0 5 0", "\t\t\tOFFSET 0 5 0\n\t\t\tJOINT X"), /bad\.bvh:13: an End Site has no children/],
        ["missing MOTION", (t) => t.replace("MOTION", "MOTON"), /bad\.bvh:16: expected MOTION, found 'MOTON'/],
        ["bad frame count", (t) => t.replace("Frames: 2", "Frames: -1"), /bad\.bvh:17: frame count must be an integer/],
        ["huge frame count", (t) => t.replace("Frames: 2", "Frames: 99999999999"), /bad\.bvh:17: frame count must be an integer from 0 to/],
        ["zero frame time", (t) => t.replace("Frame Time: 0.0333333", "Frame Time: 0"), /bad\.bvh:18: frame time must be positive/],
        [
            "short frame",
            (t) => t.replace("1 2 3 10 20 30 40 50 60", "1 2 3 10 20 30 40 50"),
            /bad\.bvh:19: frame 1 has 8 values, the hierarchy declares 9 channels/,
        ],
        ["NaN in a frame", (t) => t.replace("0 0 0 0 0 0 0 0 90", "0 0 0 0 NaN 0 0 0 90"), /bad\.bvh:20: frame 2, value 5 is not a number: 'NaN'/],
        [
            "truncated motion",
            (t) => t.replace("0 0 0 0 0 0 0 0 90\n", ""),
            /bad\.bvh:\d+: unexpected end of file, expected frame 2 of 2 \(the file is truncated\)/,
        ],
        ["extra frame", (t) => t + "1 1 1 1 1 1 1 1 1\n", /bad\.bvh:21: unexpected data after the last of 2 frames/],
        ["second ROOT", (t) => t.replace("MOTION", "ROOT Other\n{\n}\nMOTION"), /bad\.bvh:16: a second ROOT is not supported/],
    ];
    it.each(bad)("rejects %s with the line number", (_name, edit, message) => {
        let err: unknown;
        try {
            ParseBvh(edit(TINY_BVH), "bad.bvh");
        } catch (e) {
            err = e;
        }
        expect(err).toBeInstanceOf(HumanoidError);
        expect((err as HumanoidError).code).toBe("BVH_PARSE");
        expect((err as Error).message).toMatch(message);
    });
});

describeWithData("ParseBvh on every BVH file in ../shared/data", () => {
    it.each(listDataFiles(/\.bvh$/i))("%s", (file) => {
        const text = readFileSync(dataFile(file), "utf8");
        const bvh = ParseBvh(text, file);
        const declared = Number(/Frames:\s*(\d+)/.exec(text)![1]);
        expect(bvh.frameCount).toBe(declared);
        expect(bvh.motion.length).toBe(declared * bvh.channelCount);
        expect(bvh.joints.filter((j) => !j.isEndSite).length).toBe((text.match(/^\s*(ROOT|JOINT)\s/gm) ?? []).length);
        expect(bvh.motion.every(Number.isFinite)).toBe(true);
    });
});

describe("ParseBvh on hostile input", () => {
    it("rejects nesting deeper than the cap with a line number, not a stack overflow", () => {
        const depth = 2000;
        const lines = ["HIERARCHY", "ROOT r", "{", "OFFSET 0 0 0", "CHANNELS 3 Xrotation Yrotation Zrotation"];
        for (let i = 0; i < depth; i++) lines.push(`JOINT j${i}`, "{", "OFFSET 0 1 0", "CHANNELS 3 Xrotation Yrotation Zrotation");
        for (let i = 0; i <= depth; i++) lines.push("}");
        lines.push("MOTION", "Frames: 0", "Frame Time: 0.1");
        expect(() => ParseBvh(lines.join("\n"), "deep.bvh")).toThrow(/^deep\.bvh:\d+: joints are nested more than 1000 levels deep$/);
    });

    it("takes only decimal numbers", () => {
        expect(() => ParseBvh(TINY_BVH.replace("OFFSET 0 10 0", "OFFSET 0 0x10 0"), "hex.bvh")).toThrow(/hex\.bvh:8: OFFSET y is not a number: '0x10'/);
        expect(() => ParseBvh(TINY_BVH.replace("Frames: 2", "Frames:"), "empty.bvh")).toThrow(/empty\.bvh:17: /);
        expect(() => ParseBvh(TINY_BVH.replace("1 2 3 10", "1 2 3 Infinity"), "inf.bvh")).toThrow(/inf\.bvh:19: frame 1, value 4 is not a number: 'Infinity'/);
    });
});
