import { readFileSync } from "node:fs";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { AngleBetweenDeg, BuildHumanoidAvatar, HumanBone, HumanBoneNames, ReadGltfJson, type HumanoidAvatar, type IRig } from "../../src/index.js";
import { LoadRigFromFileAsync, type ILoadedRig } from "../../src/node/index.js";
import { dataFile, describeWithData, listDataFiles } from "../helpers/data.js";
import { EXPECTED_MAPS, IsNameOnlyBone } from "../helpers/expectedMaps.js";

const cache = new Map<string, ILoadedRig>();
async function load(file: string): Promise<ILoadedRig> {
    let r = cache.get(file);
    if (!r) {
        r = await LoadRigFromFileAsync(dataFile(file));
        cache.set(file, r);
    }
    return r;
}
afterAll(() => {
    for (const r of cache.values()) r.dispose();
});

/** A deep, comparable copy of a rig's numbers and names. */
function snapshot(rig: IRig): unknown {
    return rig.joints.map((j) => [j.name, j.parent, j.kind, j.restPosition.asArray(), j.restRotation.asArray(), j.restScale.asArray()]);
}

describeWithData("automatic mapping of every skeleton in ../shared/data", () => {
    it("has an expected map for every skeleton file", () => {
        expect(listDataFiles()).toEqual(Object.keys(EXPECTED_MAPS).sort());
    });

    it.each(Object.keys(EXPECTED_MAPS))("%s maps as expected (names, structure and geometry)", async (file) => {
        const loaded = await load(file);
        const before = snapshot(loaded.rig);
        const avatar = BuildHumanoidAvatar(loaded.rig); // automatic, even for VRM files
        expect(avatar.toBoneMapJson()).toEqual(EXPECTED_MAPS[file]);
        expect(snapshot(loaded.rig)).toEqual(before); // the input is never modified
        // Sides follow the geometry: the left limbs are on the character's left in the T-pose.
        const w = avatar.referenceWorld.positions;
        const hips = w[avatar.getJoint(HumanBone.Hips)];
        for (const b of [HumanBone.LeftUpperArm, HumanBone.LeftHand, HumanBone.LeftUpperLeg, HumanBone.LeftFoot]) {
            expect(Vector3.Dot(w[avatar.getJoint(b)].subtract(hips), avatar.frame.left)).toBeGreaterThan(0);
        }
        expect(avatar.warnings.filter((x) => /mirrored|swapped|guess/.test(x))).toEqual([]);
    });

    it.each(Object.keys(EXPECTED_MAPS))("%s maps the same with every joint name removed (structure and geometry only)", async (file) => {
        const loaded = await load(file);
        const nameless: IRig = { ...loaded.rig, joints: loaded.rig.joints.map((j) => ({ ...j, name: "" })) };
        const avatar = BuildHumanoidAvatar(nameless);
        const named = BuildHumanoidAvatar(loaded.rig);
        for (let b = 0; b < HumanBoneNames.length; b++) {
            const name = HumanBoneNames[b];
            const nameOnly = IsNameOnlyBone(name, file) || (/Eye/.test(name) && file.startsWith("vrm/"));
            if (!nameOnly) {
                expect([name, avatar.getJoint(b)]).toEqual([name, named.getJoint(b)]);
            }
        }
    });
});

describeWithData("VRM humanoid maps are trusted", () => {
    const VRM_BONE = (n: string): string =>
        n.replace(
            /^(left|right)Thumb(Metacarpal|Proximal|Distal)$/,
            (_m, s: string, d: string) => `${s}Thumb${d === "Metacarpal" ? "Proximal" : d === "Proximal" ? "Intermediate" : "Distal"}`,
        );

    it.each(["vrm/VRM1_skeleton_only_mtoon_UV_test.vrm", "vrm/three-vrm_test.vrma"])("%s: the map equals the file's own, bone for bone", async (file) => {
        const loaded = await load(file);
        const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
        const doc = ReadGltfJson(new Uint8Array(readFileSync(dataFile(file))), file);
        const ext = (doc.extensions!["VRMC_vrm"] ?? doc.extensions!["VRMC_vrm_animation"]) as { humanoid: { humanBones: Record<string, { node: number }> } };
        const expected: Record<string, string> = {};
        for (const [bone, { node }] of Object.entries(ext.humanoid.humanBones)) {
            expected[VRM_BONE(bone)] = doc.nodes![node].name!;
        }
        expect(avatar.toBoneMapJson()).toEqual(expected);
        expect(Object.keys(expected)).toHaveLength(file.endsWith(".vrm") ? 53 : 51);
        for (let b = 0; b < HumanBoneNames.length; b++) {
            if (avatar.isMapped(b)) expect(avatar.getBoneSource(b)).toBe("file");
        }
    });
});

describeWithData("T-pose", () => {
    const enforced = [
        "glb/khronos_RiggedFigure.glb",
        "bvh/animated_drawings/cmu1_jumping_jacks.bvh",
        ...listDataFiles(/\.bvh$/).filter((f) => f.startsWith("bvh/bandai/")),
    ];
    /** Angles of the arm and leg segments from their T-pose directions (degrees). */
    function limbErrors(avatar: HumanoidAvatar): Record<string, number> {
        const w = avatar.referenceWorld.positions;
        const seg = (a: HumanBone, b: HumanBone): Vector3 => w[avatar.getJoint(b)].subtract(w[avatar.getJoint(a)]);
        const { left, up } = avatar.frame;
        const right = left.scale(-1);
        const down = up.scale(-1);
        const B = HumanBone;
        return {
            leftUpperArm: AngleBetweenDeg(seg(B.LeftUpperArm, B.LeftLowerArm), left),
            leftLowerArm: AngleBetweenDeg(seg(B.LeftLowerArm, B.LeftHand), left),
            rightUpperArm: AngleBetweenDeg(seg(B.RightUpperArm, B.RightLowerArm), right),
            rightLowerArm: AngleBetweenDeg(seg(B.RightLowerArm, B.RightHand), right),
            leftUpperLeg: AngleBetweenDeg(seg(B.LeftUpperLeg, B.LeftLowerLeg), down),
            leftLowerLeg: AngleBetweenDeg(seg(B.LeftLowerLeg, B.LeftFoot), down),
            rightUpperLeg: AngleBetweenDeg(seg(B.RightUpperLeg, B.RightLowerLeg), down),
            rightLowerLeg: AngleBetweenDeg(seg(B.RightLowerLeg, B.RightFoot), down),
        };
    }

    it.each(enforced)("%s: arms horizontal and sideways, legs straight down (within 5 degrees)", async (file) => {
        const loaded = await load(file);
        const avatar = BuildHumanoidAvatar(loaded.rig);
        // Horizontal means in the world: the body frame's up is world up.
        expect(AngleBetweenDeg(avatar.frame.up, Vector3.Up())).toBeLessThan(1e-6);
        expect(Math.abs(avatar.frame.left.y)).toBeLessThan(1e-6);
        for (const [bone, err] of Object.entries(limbErrors(avatar))) {
            expect([bone, err]).toEqual([bone, expect.any(Number)]);
            expect(err).toBeLessThan(5);
        }
        expect(avatar.tPoseCorrections.length).toBeGreaterThan(0);
    });

    it("turns the A-pose arms of RiggedFigure by about 28 degrees (62 from down, so 28 below horizontal)", async () => {
        const avatar = BuildHumanoidAvatar((await load("glb/khronos_RiggedFigure.glb")).rig);
        const upper = avatar.tPoseCorrections.find((c) => c.bone === HumanBone.LeftUpperArm)!;
        expect(upper.angleDeg).toBeGreaterThan(24);
        expect(upper.angleDeg).toBeLessThan(32);
    });

    it("reads the Bandai skeletons from a motion frame, their zero pose being every bone along +X", async () => {
        const avatar = BuildHumanoidAvatar((await load("bvh/bandai/dataset-1_walk_normal_001.bvh")).rig);
        expect(avatar.tPoseSource).toBe("frame 0");
        expect(avatar.warnings.join(" ")).toMatch(/rest pose is not anatomical/);
    });

    it.each(["glb/mixamo_xbot.glb", "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm", "bvh/animated_drawings/fair1_jumping_8yo.bvh"])(
        "%s: a rest pose that is a T-pose is captured, arms untouched",
        async (file) => {
            const loaded = await load(file);
            const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
            expect(avatar.tPoseSource).toBe("rest pose");
            const armFixes = avatar.tPoseCorrections.filter((c) => /Arm|Shoulder|Hand/.test(HumanBoneNames[c.bone]));
            expect(armFixes).toEqual([]);
            for (const err of Object.values(limbErrors(avatar))) expect(err).toBeLessThan(5);
        },
    );

    it("faces +Z for every character file (Babylon's forward, the files' own facing)", async () => {
        for (const file of listDataFiles(/\.(glb|gltf|vrm|vrma)$/)) {
            const loaded = await load(file);
            const avatar = BuildHumanoidAvatar(loaded.rig, { declaredBoneMap: loaded.declaredBoneMap });
            expect([file, AngleBetweenDeg(avatar.frame.forward, Vector3.Forward()) < 5]).toEqual([file, true]);
        }
    });
});
