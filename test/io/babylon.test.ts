import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { MeshBuilder } from "@babylonjs/core/Meshes/meshBuilder.js";
import { Skeleton } from "@babylonjs/core/Bones/skeleton.js";
import { Bone } from "@babylonjs/core/Bones/bone.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ComputeRigWorldPose,
    CreateRigFromSkeleton,
    CreateRigFromTransformNode,
    HumanBone,
    SampleCharacters,
} from "../../src/index.js";
import { LoadRigFromFileAsync } from "../../src/node/index.js";
import { RigJointKind } from "../../src/humanoid/rig.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import { dataFile, describeWithData } from "../helpers/data.js";

Logger.LogLevels = Logger.ErrorLogLevel;

function makeScene(): Scene {
    return new Scene(new NullEngine());
}

describe("Babylon node hierarchies and skeletons", () => {
    it("reads a TransformNode hierarchy under a handedness mirror like the glTF loader's __root__", () => {
        const scene = makeScene();
        const sample = BuildSampleRig(SampleCharacters[0]);
        const root = new TransformNode("__root__", scene);
        // glTF's right-handed data under Babylon's mirror: x -> -x, so a joint placed at +x in the
        // right-handed local frames ends on the character's left (-X in the left-handed world).
        root.rotationQuaternion = Quaternion.RotationAxis(Vector3.Up(), Math.PI);
        root.scaling = new Vector3(1, 1, -1);
        const nodes = sample.joints.map((j) => {
            const n = new TransformNode(j.name, scene);
            // Right-handed local values: mirror Z of our left-handed rig (z -> -z, quaternion (x, y, z, w) -> (-x, -y, z, w)).
            n.position = new Vector3(j.restPosition.x, j.restPosition.y, -j.restPosition.z);
            n.rotationQuaternion = new Quaternion(-j.restRotation.x, -j.restRotation.y, j.restRotation.z, j.restRotation.w);
            return n;
        });
        sample.joints.forEach((j, i) => (nodes[i].parent = j.parent >= 0 ? nodes[j.parent] : root));
        const before = nodes.map((n) => [n.position.asArray(), n.rotationQuaternion!.asArray()]);
        const rig = CreateRigFromTransformNode(root, { source: "hierarchy" });
        const a = BuildHumanoidAvatar(rig);
        const b = BuildHumanoidAvatar(sample);
        expect(a.toBoneMapJson()).toEqual(b.toBoneMapJson());
        // __root__ turns the character around (rotation Y by pi): it faces -Z there.
        expect(a.frame.forward.z).toBeLessThan(-0.99);
        expect(nodes.map((n) => [n.position.asArray(), n.rotationQuaternion!.asArray()])).toEqual(before);
        scene.getEngine().dispose();
    });

    it("a leaf without geometry that the skin leaves out ends its joint's chain (an end site): a foot's only tip gives its front", () => {
        // The Mixamo sample with its toes gone and each toe end moved under its foot, outside the
        // joints (as three.js's RobotExpressive keeps `Foot.L_end`, a Blender leaf bone the skin
        // leaves out); a box under the left hand and an empty with a child outside the joints too.
        const scene = makeScene();
        const sample = BuildSampleRig(SampleCharacters[0]);
        const root = new TransformNode("root", scene);
        const nodes: (TransformNode | null)[] = sample.joints.map(() => null);
        sample.joints.forEach((j, i) => {
            if (j.name.endsWith("ToeBase")) return;
            const n = new TransformNode(j.name, scene);
            let position = j.restPosition.clone();
            let rotation = j.restRotation.clone();
            let parent = j.parent;
            if (j.name.endsWith("Toe_End")) {
                // Under the foot, where it was: the toe base's rest composed with its own.
                const base = sample.joints[parent];
                position = base.restPosition.add(j.restPosition.applyRotationQuaternion(base.restRotation));
                rotation = base.restRotation.multiply(j.restRotation);
                parent = base.parent;
            }
            n.position = position;
            n.rotationQuaternion = rotation;
            n.parent = parent >= 0 ? nodes[parent] : root;
            nodes[i] = n;
        });
        const hand = nodes[sample.joints.findIndex((j) => j.name.endsWith("LeftHand"))]!;
        const box = MeshBuilder.CreateBox("box", { size: 0.05 }, scene);
        box.parent = hand;
        // A leaf not named as a tip (an empty socket for a prop): not a tip either.
        new TransformNode("weapon_R", scene).parent = hand;
        const empty = new TransformNode("socket", scene);
        empty.parent = hand;
        new TransformNode("socket_child", scene).parent = empty;
        const outside = new Set(["box", "weapon_R", "socket", "socket_child", "mixamorig:LeftToe_End", "mixamorig:RightToe_End"]);
        const rig = CreateRigFromTransformNode(root, { source: "toeless", isJoint: (n) => !outside.has(n.name) && !(n instanceof Mesh) });
        const kind = (name: string): RigJointKind => rig.joints.find((j) => j.name === name)!.kind;
        expect(kind("mixamorig:LeftToe_End")).toBe(RigJointKind.EndSite);
        expect(kind("mixamorig:RightToe_End")).toBe(RigJointKind.EndSite);
        // With geometry, with a child, or not named as a tip: not a tip.
        expect(kind("box")).toBe(RigJointKind.Node);
        expect(kind("weapon_R")).toBe(RigJointKind.Node);
        expect(kind("socket")).toBe(RigJointKind.Node);
        expect(kind("socket_child")).toBe(RigJointKind.Node);
        const avatar = BuildHumanoidAvatar(rig);
        expect(avatar.getJoint(HumanBone.LeftToes)).toBe(-1);
        const setup = MuscleSetup.For(avatar);
        // The foot's front is its end site (before: none, and planting held the ankle throughout).
        expect(setup.footTip.map((j) => rig.joints[j]?.name)).toEqual(["mixamorig:LeftToe_End", "mixamorig:RightToe_End"]);
        expect(setup.footLength[0]).toBeGreaterThan(0.1 * setup.legLength);
        scene.getEngine().dispose();
    });

    it("reads a skeleton without linked nodes from its bones' rest matrices", () => {
        const scene = makeScene();
        const sample = BuildSampleRig(SampleCharacters[1]);
        const skeleton = new Skeleton("hand-made", "s", scene);
        const bones: Bone[] = [];
        sample.joints.forEach((j, i) => {
            const local = Matrix.Compose(j.restScale, j.restRotation, j.restPosition);
            bones[i] = new Bone(j.name, skeleton, j.parent >= 0 ? bones[j.parent] : null, local, local);
        });
        // Pose it: the rest pose must still be used.
        bones[5].setRotationQuaternion(Quaternion.RotationAxis(Vector3.Right(), 1));
        const a = BuildHumanoidAvatar(CreateRigFromSkeleton(skeleton));
        expect(a.toBoneMapJson()).toEqual(BuildHumanoidAvatar(sample).toBoneMapJson());
        expect(a.getJointLabel(HumanBone.LeftUpperArm)).toBe("upperarm_l");
        scene.getEngine().dispose();
    });
});

describeWithData("a skeleton made by Babylon's glTF loader", () => {
    it("maps the Mixamo Xbot skeleton like the file, even when the skeleton is posed", async () => {
        const loaded = await LoadRigFromFileAsync(dataFile("glb/mixamo_xbot.glb"));
        try {
            const skeleton = loaded.container!.skeletons[0];
            const fromFile = BuildHumanoidAvatar(loaded.rig);
            const node = skeleton.bones.find((b) => b.name === "mixamorig:LeftArm")!.getTransformNode()!;
            node.rotationQuaternion = Quaternion.RotationAxis(Vector3.Forward(), 1.2); // pose the arm down
            const before = node.rotationQuaternion.asArray();
            const fromSkeleton = BuildHumanoidAvatar(CreateRigFromSkeleton(skeleton));
            expect(fromSkeleton.toBoneMapJson()).toEqual(fromFile.toBoneMapJson());
            expect(fromSkeleton.tPoseCorrections.map((c) => c.bone)).toEqual(fromFile.tPoseCorrections.map((c) => c.bone));
            expect(fromSkeleton.frame.forward.z).toBeGreaterThan(0.99);
            expect(node.rotationQuaternion.asArray()).toEqual(before);
        } finally {
            loaded.dispose();
        }
    });
});

describe("a skeleton with a plain node between bones", () => {
    it("reads the rest pose through the node, whatever pose the bones are in", () => {
        const scene = makeScene();
        const skeleton = new Skeleton("s", "s", scene);
        const nodeA = new TransformNode("A", scene);
        const nodeN = new TransformNode("N", scene);
        const nodeB = new TransformNode("B", scene);
        nodeN.parent = nodeA;
        nodeB.parent = nodeN;
        nodeN.position.set(0, 1, 0);
        nodeB.position.set(0, 1, 0);
        const a = new Bone("A", skeleton, null, Matrix.Identity(), Matrix.Identity());
        const b = new Bone("B", skeleton, a, Matrix.Translation(0, 1, 0), Matrix.Translation(0, 1, 0));
        a.linkTransformNode(nodeA);
        b.linkTransformNode(nodeB);
        nodeA.rotationQuaternion = Quaternion.RotationAxis(Vector3.Forward(), Math.PI / 2); // posed, not rest
        const rig = CreateRigFromSkeleton(skeleton);
        const world = ComputeRigWorldPose(rig).positions;
        const names = rig.joints.map((j) => j.name);
        expect(world[names.indexOf("N")].asArray().map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 1, 0]);
        expect(world[names.indexOf("B")].asArray().map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 2, 0]);
        scene.getEngine().dispose();
    });
});
