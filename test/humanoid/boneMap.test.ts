import { BONE_MAP_FORMAT, BuildHumanoidAvatar, HumanBone, ParseHumanBoneMap, ResolveJointLabel, BuildSampleRig, SampleCharacters } from "../../src/index.js";
import { errorOf } from "../helpers/errors.js";
import { PlainHumanoid } from "../helpers/rigs.js";

describe("bone maps: save, load, override, validate", () => {
    it("saves to JSON and loads back to the same map", () => {
        const rig = BuildSampleRig(SampleCharacters[0]);
        const a = BuildHumanoidAvatar(rig);
        const text = a.serializeBoneMap();
        const file = JSON.parse(text);
        expect(file.format).toBe(BONE_MAP_FORMAT);
        expect(file.version).toBe(1);
        const b = BuildHumanoidAvatar(rig, { boneMap: text });
        expect(b.toBoneMapJson()).toEqual(a.toBoneMapJson());
        expect(b.getBoneSource(HumanBone.Hips)).toBe("user");
    });

    it("a partial map overrides the automatic one and can unmap optional bones", () => {
        const rig = PlainHumanoid();
        const a = BuildHumanoidAvatar(rig, { boneMap: { leftShoulder: null, rightShoulder: null, chest: null, leftToes: null } });
        expect(a.isMapped(HumanBone.LeftShoulder)).toBe(false);
        expect(a.isMapped(HumanBone.Chest)).toBe(false);
        expect(a.getJointLabel(HumanBone.LeftUpperArm)).toBe("LeftArm");
        expect(a.getBoneSource(HumanBone.LeftUpperArm)).toBe("auto");
        const b = BuildHumanoidAvatar(rig, { boneMap: { spine: "Chest", chest: null } });
        expect(b.getJointLabel(HumanBone.Spine)).toBe("Chest");
        expect(b.getBoneSource(HumanBone.Spine)).toBe("user");
    });

    it("lists every missing required bone at once", () => {
        const e = errorOf(() => BuildHumanoidAvatar(PlainHumanoid(), { boneMap: { head: null, leftHand: null, rightFoot: null } }));
        expect(e.code).toBe("MISSING_REQUIRED_BONES");
        expect(e.message).toBe("plain humanoid: missing required bones: head, leftHand, rightFoot");
        expect(e.details).toEqual({ missing: ["head", "leftHand", "rightFoot"] });
    });

    const bad: Array<[string, object | string, RegExp]> = [
        ["not JSON", "{hips:", /boneMap option: not JSON/],
        ["an array", "[]", /a bone map must be a JSON object/],
        ["unknown bone", { leftElbow: "LeftForeArm", hips: "Hips" }, /unknown human bone 'leftElbow'/],
        ["wrong value type", { hips: 3 }, /'hips' must be a joint name or null, not 3/],
        ["unknown joint", { hips: "Pelvis" }, /hips: no joint is named 'Pelvis'/],
        ["unknown glTF index", { hips: "#99" }, /hips: no joint is glTF node 99/],
        ["joint used twice", { chest: "Spine" }, /joint 'Spine' is both spine and chest/],
        ["child above parent", { leftHand: "LeftArm", leftUpperArm: "LeftHand" }, /leftLowerArm 'LeftForeArm' is not below leftUpperArm 'LeftHand'/],
        ["wrong file version", { format: BONE_MAP_FORMAT, version: 9, bones: {} }, /'version' 9 is not supported/],
        ["extra key in a file", { format: BONE_MAP_FORMAT, version: 1, bones: {}, extra: 1 }, /unknown key 'extra'/],
    ];
    it.each(bad)("rejects %s", (_name, map, message) => {
        const e = errorOf(() => BuildHumanoidAvatar(PlainHumanoid(), { boneMap: map as never }));
        expect(e.code).toBe("BAD_BONE_MAP");
        expect(e.message).toMatch(message);
    });

    it("lists every bad entry in one error", () => {
        const e = errorOf(() => ParseHumanBoneMap({ foo: "a", bar: "b", hips: 1 }));
        expect(e.message).toBe("bone map: unknown human bone 'foo'; unknown human bone 'bar'; 'hips' must be a joint name or null, not 1");
    });

    it("resolves #N labels to unnamed glTF-style joints and asks for #N when names repeat", () => {
        const rig = BuildSampleRig(SampleCharacters[2]);
        expect(ResolveJointLabel(rig, "#1")).toBe(1);
        const dup = { ...rig, joints: rig.joints.map((j) => ({ ...j, name: "x" })) };
        expect(ResolveJointLabel(dup, "x")).toMatch(/joints are named 'x'; use '#N'/);
    });

    it("uses the user's map when automatic mapping cannot work at all", () => {
        const rig = PlainHumanoid();
        // Turn the legs sideways so the skeleton no longer looks like a standing body...
        const sideways = {
            ...rig,
            joints: rig.joints.map((j) =>
                /Leg|Foot|Toe/.test(j.name) && j.name !== "LeftUpLeg" && j.name !== "RightUpLeg"
                    ? { ...j, restPosition: j.restPosition.set(j.restPosition.y, 0, 0) }
                    : j,
            ),
        };
        expect(() => BuildHumanoidAvatar(sideways)).toThrow(/not a humanoid/);
        // ...then name every required bone by hand.
        const map = {
            hips: "Hips",
            spine: "Spine",
            head: "Head",
            leftUpperArm: "LeftArm",
            leftLowerArm: "LeftForeArm",
            leftHand: "LeftHand",
            rightUpperArm: "RightArm",
            rightLowerArm: "RightForeArm",
            rightHand: "RightHand",
            leftUpperLeg: "LeftUpLeg",
            leftLowerLeg: "LeftLeg",
            leftFoot: "LeftFoot",
            rightUpperLeg: "RightUpLeg",
            rightLowerLeg: "RightLeg",
            rightFoot: "RightFoot",
        };
        const a = BuildHumanoidAvatar(sideways, { boneMap: map });
        expect(a.toBoneMapJson()).toEqual(map);
        const e = errorOf(() => BuildHumanoidAvatar(sideways, { boneMap: { ...map, head: null } }));
        expect(e.message).toMatch(/missing required bone: head \(automatic mapping failed: plain humanoid: not a humanoid/);
    });
});

describe("joints that share a name", () => {
    it("are saved as #N so the map loads back", () => {
        const rig = PlainHumanoid();
        const dup = { ...rig, joints: rig.joints.map((j) => (/Hand$/.test(j.name) ? { ...j, name: "Hand" } : j)) };
        const a = BuildHumanoidAvatar(dup);
        const json = a.toBoneMapJson();
        expect(json.leftHand).toMatch(/^#\d+$/);
        expect(json.rightHand).toMatch(/^#\d+$/);
        expect(BuildHumanoidAvatar(dup, { boneMap: a.serializeBoneMap() }).toBoneMapJson()).toEqual(json);
    });
});
