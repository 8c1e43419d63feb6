import { BuildHumanoidAvatar, HumanBoneNames, type IRig } from "../../src/index.js";
import { CONVENTION_RIGS } from "../helpers/conventions.js";

describe("naming conventions beyond the real files", () => {
    it.each(CONVENTION_RIGS.map((c) => [c.name, c] as const))("%s maps as Unity users expect", (_name, c) => {
        const avatar = BuildHumanoidAvatar(c.rig);
        expect(avatar.toBoneMapJson()).toEqual(c.expected);
    });

    it.each(CONVENTION_RIGS.map((c) => [c.name, c] as const))("%s maps the same without names (except the bones only names can find)", (_name, c) => {
        const nameless: IRig = { ...c.rig, joints: c.rig.joints.map((j) => ({ ...j, name: "" })) };
        const named = BuildHumanoidAvatar(c.rig);
        const avatar = BuildHumanoidAvatar(nameless);
        for (let b = 0; b < HumanBoneNames.length; b++) {
            if (!c.nameOnly.includes(HumanBoneNames[b]) && HumanBoneNames[b] !== "jaw") {
                expect([HumanBoneNames[b], avatar.getJoint(b)]).toEqual([HumanBoneNames[b], named.getJoint(b)]);
            }
        }
    });
});
