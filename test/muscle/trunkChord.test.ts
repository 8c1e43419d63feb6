import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import {
    BuildHumanoidAvatar,
    ComputeRigWorldPose,
    CreateReferenceRigPose,
    DecodeHumanPose,
    EncodeHumanPose,
    GetBvhFramePose,
    HumanBone,
    HumanBoneNames,
    HumanPose,
    MuscleSetup,
    type HumanoidAvatar,
} from "../../src/index.js";
import { LoadRigFromFileAsync, type ILoadedRig } from "../../src/node/index.js";
import { dataFile, describeWithData } from "../helpers/data.js";
import { BodyHeight } from "../helpers/poseMetrics.js";

/**
 * Trunk bones whose next trunk bone hangs from them through joints the avatar does not map:
 * the encoder turns them so that the next trunk joint round-trips where the source put it
 * (`MuscleSetup.trunkChord`, `EncodeHumanPose`), on the real skeletons that have such joints.
 */
describeWithData("trunk joints between mapped bones (real skeletons)", () => {
    const cases: Array<[string, string, string, string]> = [
        // CMU: Neck1 between the neck and the head turns up to 21 degrees in the walk, 59 in the jump.
        ["bvh/cmu_cgspeed/cmu_walk.bvh", "neck", "head", "Neck1"],
        ["bvh/cmu_cgspeed/cmu_jump.bvh", "neck", "head", "Neck1"],
        // Animated Drawings: Spine1 between the spine and the chest (up to 25 degrees in the zombie walk),
        // and the CMU jumping jacks' Neck between its lower neck and head (28).
        ["bvh/animated_drawings/fair1_zombie_8yo.bvh", "spine", "chest", "Spine1"],
        ["bvh/animated_drawings/cmu1_jumping_jacks.bvh", "neck", "head", "Neck"],
    ];
    const boneOf = (name: string): HumanBone => HumanBoneNames.indexOf(name as never) as HumanBone;
    const loaded: ILoadedRig[] = [];
    afterAll(() => loaded.forEach((l) => l.dispose()));

    it.each(cases)("%s: the setup knows the chord from %s to %s through %s", async (file, boneName, childName, between) => {
        const bone = boneOf(boneName);
        const child = boneOf(childName);
        const l = await LoadRigFromFileAsync(dataFile(file));
        loaded.push(l);
        const avatar = BuildHumanoidAvatar(l.rig, { declaredBoneMap: l.declaredBoneMap });
        const setup = MuscleSetup.For(avatar);
        const chord = setup.trunkChord[bone];
        expect(chord?.child).toBe(child);
        expect(Array.from(setup.intermediates[child]).map((j) => avatar.rig.joints[j].name)).toEqual([between]);
        // Only that bone: the others' next trunk bone hangs from them directly.
        const withChord = setup.trunkChord.map((c, b) => (c ? HumanBoneNames[b] : null)).filter((x) => x);
        expect(withChord).toEqual([boneName]);
    });

    it.each(cases)(
        "%s: every frame's chord from the %s joint to the next trunk joint round-trips, which keeps its world rotation",
        async (file, boneName, childName) => {
            const bone = boneOf(boneName);
            const child = boneOf(childName);
            const l = await LoadRigFromFileAsync(dataFile(file));
            loaded.push(l);
            const avatar: HumanoidAvatar = BuildHumanoidAvatar(l.rig, { declaredBoneMap: l.declaredBoneMap });
            const height = BodyHeight(avatar);
            const hp = new HumanPose();
            const out = CreateReferenceRigPose(avatar);
            const b = avatar.getJoint(bone);
            const c = avatar.getJoint(child);
            const restLength = avatar.referenceWorld.positions[c].subtract(avatar.referenceWorld.positions[b]).length();
            let worstDirectionDeg = 0;
            let worstPosition = 0;
            let worstTurnDeg = 0;
            const frames = l.bvh!.bvh.frameCount;
            for (let f = 0; f < frames; f += 3) {
                const pose = GetBvhFramePose(l.bvh!, f);
                EncodeHumanPose(avatar, pose, hp);
                DecodeHumanPose(avatar, hp, out);
                const ws = ComputeRigWorldPose(avatar.rig, pose);
                const wd = ComputeRigWorldPose(avatar.rig, out);
                const src = ws.positions[c].subtract(ws.positions[b]);
                const dec = wd.positions[c].subtract(wd.positions[b]);
                const cos = Vector3.Dot(src, dec) / (src.length() * dec.length());
                worstDirectionDeg = Math.max(worstDirectionDeg, (Math.acos(Math.min(1, cos)) * 180) / Math.PI);
                // The joints between are at rest when decoded: the chord keeps its T-pose length (a bent
                // Neck1 shortens the source's by up to 2 cm in the CMU jump), and nothing else is off.
                worstPosition = Math.max(worstPosition, (src.subtract(dec).length() - Math.abs(src.length() - restLength)) / height);
                const turn = Quaternion.Inverse(ws.rotations[c]).multiply(wd.rotations[c]);
                worstTurnDeg = Math.max(worstTurnDeg, (2 * Math.acos(Math.min(1, Math.abs(turn.w))) * 180) / Math.PI);
            }
            // Float32 muscles. Turned as its own joint, the bone's chord was up to 10 degrees off on the
            // CMU walk, 23 on its jump and 8 on the zombie walk.
            expect(worstDirectionDeg).toBeLessThan(0.01);
            expect(worstPosition).toBeLessThan(1e-5);
            expect(worstTurnDeg).toBeLessThan(0.01);
        },
    );

    it("an animated translation of the next trunk bone round-trips once (the chord ends where its T-pose offset puts it)", async () => {
        const l = await LoadRigFromFileAsync(dataFile("bvh/cmu_cgspeed/cmu_walk.bvh"));
        loaded.push(l);
        const avatar = BuildHumanoidAvatar(l.rig, { declaredBoneMap: l.declaredBoneMap });
        const height = BodyHeight(avatar);
        const head = avatar.getJoint(HumanBone.Head);
        const neck = avatar.getJoint(HumanBone.Neck);
        const hp = new HumanPose();
        const out = CreateReferenceRigPose(avatar);
        const rest = avatar.referencePose.positions[head];
        let worst = 0;
        for (let f = 0; f < l.bvh!.bvh.frameCount; f += 10) {
            const pose = GetBvhFramePose(l.bvh!, f);
            const headFromNeck = (p: typeof pose): Vector3 => {
                EncodeHumanPose(avatar, p, hp);
                DecodeHumanPose(avatar, hp, out);
                const w = ComputeRigWorldPose(avatar.rig, out);
                return w.positions[head].subtract(w.positions[neck]);
            };
            const plain = headFromNeck(pose);
            const sourcePlain = ComputeRigWorldPose(avatar.rig, pose);
            // The head moved a tenth of its offset along its parent's x (a translation DoF).
            pose.positions[head].copyFrom(rest.add(new Vector3(0.1 * rest.length(), 0, 0)));
            const sourcePushed = ComputeRigWorldPose(avatar.rig, pose);
            const pushed = headFromNeck(pose);
            const wanted = sourcePushed.positions[head].subtract(sourcePlain.positions[head]);
            worst = Math.max(worst, pushed.subtract(plain).subtract(wanted).length() / height);
        }
        // Taken into the chord as well, it came out twice: off by the whole push (0.6% of the height).
        expect(worst).toBeLessThan(1e-4);
    });
});
