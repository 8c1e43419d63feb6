import { BuildHumanoidAvatar, RigJointKind, type IRig } from "../../src/index.js";
import { errorOf } from "../helpers/errors.js";
import { PlainHumanoid, PlainHumanoidPoints, Quadruped, RigFromPoints } from "../helpers/rigs.js";

describe("skeletons that are not humanoids get a clear error, not a wrong map", () => {
    it("a chain of bones", () => {
        // As many bones as a humanoid has, in one chain: the shape is what is wrong.
        const chain = RigFromPoints(
            "chain",
            Array.from({ length: 16 }, (_, i): [string, string | null, number, number, number] => [`b${i}`, i ? `b${i - 1}` : null, 0, i, 0]),
        );
        const e = errorOf(() => BuildHumanoidAvatar(chain));
        expect(e.code).toBe("NOT_HUMANOID");
        expect(e.message).toMatch(/^chain: not a humanoid skeleton: no joint was found where two legs and a spine branch/);
    });

    it("fewer joints than a humanoid has bones (a mesh with no skeleton, a prop's rig): said so, naming them", () => {
        const short = RigFromPoints("short", [
            ["a", null, 0, 0, 0],
            ["b", "a", 0, 1, 0],
            ["c", "b", 0, 2, 0],
            ["d", "c", 0, 3, 0],
        ]);
        const e = errorOf(() => BuildHumanoidAvatar(short));
        expect(e.code).toBe("NOT_HUMANOID");
        expect(e.message).toBe(
            "short: no humanoid skeleton: only 4 joints (a, b, c, d), fewer than the 15 bones every humanoid has (hips, spine, head, two arms and two legs of three)",
        );
    });

    it("a quadruped (legs under a horizontal spine)", () => {
        const e = errorOf(() => BuildHumanoidAvatar(Quadruped()));
        expect(e.code).toBe("NOT_HUMANOID");
        expect(e.message).toMatch(/quadruped: not a humanoid: the legs under 'pelvis' do not hang below the spine/);
        expect(e.message).toMatch(/quadruped\?/);
    });

    it("feet kept beside the legs for IK (a foot under a control at the root, the lower leg a leaf): the error names the feet, their parents and the footless lower legs", () => {
        // As three.js's RobotExpressive and Blender rigs with IK controls are exported: each foot
        // (and its toes) under a `FootControl` beside the legs.
        const points = PlainHumanoidPoints().map(([name, parent, x, y, z]): [string, string | null, number, number, number] =>
            /^(Left|Right)Foot$/.test(name) ? [name, `${name.replace("Foot", "")}FootControl`, x, y, z] : [name, parent, x, y, z],
        );
        const controls: Array<[string, string | null, number, number, number]> = [
            ["Root", null, 0, 0, 0],
            ["LeftFootControl", "Root", -0.09, 0, 0],
            ["RightFootControl", "Root", 0.09, 0, 0],
        ];
        // Parents first: the root and the controls, then the body with Hips under the root.
        const rig = RigFromPoints("ik feet", [
            ...controls,
            ...points.map(([n, p, x, y, z]): [string, string | null, number, number, number] => [n, p ?? "Root", x, y, z]),
        ]);
        const e = errorOf(() => BuildHumanoidAvatar(rig));
        expect(e.code).toBe("NOT_HUMANOID");
        expect(e.message).toMatch(/The feet 'LeftFoot' \(under 'LeftFootControl'\), 'RightFoot' \(under 'RightFootControl'\) hang outside the legs/);
        expect(e.message).toMatch(/the lower legs 'LeftLeg', 'RightLeg' end without a foot/);
        // A humanoid whose legs simply lack feet gets no such note (no foot stands elsewhere).
        const footless = RigFromPoints(
            "footless",
            PlainHumanoidPoints().filter(([n]) => !/Foot|Toe/.test(n)),
        );
        expect(errorOf(() => BuildHumanoidAvatar(footless)).message).not.toMatch(/hang outside the legs/);
    });

    it("a single joint", () => {
        const e = errorOf(() => BuildHumanoidAvatar(RigFromPoints("dot", [["a", null, 0, 0, 0]])));
        expect(e.code).toBe("NOT_HUMANOID");
        expect(e.message).toMatch(/^dot: no humanoid skeleton: only 1 joint \(a\), fewer than the 15 bones/);
    });

    it("a node that is no joint (a glTF mesh with no skin): no joint among its nodes, named", () => {
        const rig = RigFromPoints("Base_Man.glb", [["Base_Man", null, 0, 2.36, 0]]);
        const mesh: IRig = { ...rig, joints: rig.joints.map((j) => ({ ...j, kind: RigJointKind.Node })) };
        expect(errorOf(() => BuildHumanoidAvatar(mesh)).message).toMatch(
            /^Base_Man\.glb: no humanoid skeleton: no joint among its 1 node \(Base_Man\), fewer than/,
        );
    });

    it("a humanoid without arms", () => {
        const rig = PlainHumanoid();
        const armless: IRig = { ...rig, source: "armless", joints: rig.joints.filter((j) => !/Arm|Hand|Shoulder/.test(j.name)) };
        // Re-index parents after the filter.
        const keep = rig.joints.map((j) => !/Arm|Hand|Shoulder/.test(j.name));
        const newIndex: number[] = [];
        let k = 0;
        keep.forEach((kept, i) => (newIndex[i] = kept ? k++ : -1));
        const fixed: IRig = { ...armless, joints: armless.joints.map((j) => ({ ...j, parent: j.parent >= 0 ? newIndex[j.parent] : -1 })) };
        expect(errorOf(() => BuildHumanoidAvatar(fixed)).code).toBe("NOT_HUMANOID");
    });

    it("a broken hierarchy (parent after child) is BAD_HIERARCHY", () => {
        const rig = PlainHumanoid();
        const broken: IRig = { ...rig, joints: rig.joints.map((j, i) => (i === 1 ? { ...j, parent: 5 } : j)) };
        const e = errorOf(() => BuildHumanoidAvatar(broken));
        expect(e.code).toBe("BAD_HIERARCHY");
        expect(e.message).toMatch(/joint 'Spine' \(index 1\) has parent index 5/);
    });

    it("an empty rig is BAD_HIERARCHY", () => {
        expect(errorOf(() => BuildHumanoidAvatar({ source: "empty", joints: [] })).code).toBe("BAD_HIERARCHY");
    });

    it("non-finite numbers are BAD_HIERARCHY", () => {
        const rig = PlainHumanoid();
        rig.joints[3].restPosition.x = NaN;
        expect(errorOf(() => BuildHumanoidAvatar(rig)).message).toMatch(/joint 'Neck' has a rest transform that is not finite/);
    });
});

describe("a plain hand-made humanoid", () => {
    it("maps every bone it has and no others", () => {
        const avatar = BuildHumanoidAvatar(PlainHumanoid());
        expect(avatar.toBoneMapJson()).toEqual({
            hips: "Hips",
            spine: "Spine",
            chest: "Chest",
            neck: "Neck",
            head: "Head",
            leftShoulder: "LeftShoulder",
            leftUpperArm: "LeftArm",
            leftLowerArm: "LeftForeArm",
            leftHand: "LeftHand",
            rightShoulder: "RightShoulder",
            rightUpperArm: "RightArm",
            rightLowerArm: "RightForeArm",
            rightHand: "RightHand",
            leftUpperLeg: "LeftUpLeg",
            leftLowerLeg: "LeftLeg",
            leftFoot: "LeftFoot",
            leftToes: "LeftToe",
            rightUpperLeg: "RightUpLeg",
            rightLowerLeg: "RightLeg",
            rightFoot: "RightFoot",
            rightToes: "RightToe",
        });
        expect(avatar.rig.joints.every((j) => j.kind === RigJointKind.Bone)).toBe(true);
    });
});
