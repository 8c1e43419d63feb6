/**
 * The baseline the quality report compares against: Babylon's own retargeting,
 * `AnimatorAvatar.retargetAnimationGroup`, run on the same source clip and target character, and
 * the target's joint positions recorded frame by frame. Node only (reads files, NullEngine). Its
 * options and result are in animatorAvatarBaselineOptions.ts, the shared scene's set-up (the source
 * loaded into it, linked skeletons, T-poses) in animatorAvatarBaselineScene.ts.
 */
import "@babylonjs/core/Animations/animatable.js";
import { AnimatorAvatar, type IRetargetOptions } from "@babylonjs/core/Animations/animatorAvatar.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FootFrontNodes } from "./footFrontNodes.js";
import { HumanoidError } from "../errors.js";
import { BuildHumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HumanBoneNames, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { CreateTransformNodesFromRig, RigPoseFrameCount } from "../io/rigNodes.js";
import {
    DEFAULT_ANIMATOR_AVATAR_REST_POSE,
    DEFAULT_ANIMATOR_AVATAR_ROOT_FIX,
    type IAnimatorAvatarBaselineOptions,
    type IBaselineRetarget,
} from "./animatorAvatarBaselineOptions.js";
import { CreateLinkedSkeleton, GetTopAncestor, LoadSourceIntoSceneAsync, SetNodesToRigPose, SOURCE_NODE_PREFIX } from "./animatorAvatarBaselineScene.js";
import { GetRigFileFormat, LoadRigFromFileAsync, type ILoadedRig } from "./loadFile.js";

/** Longest list of names in one warning. */
const WARN_NAMES = 12;

function listNames(names: string[]): string {
    return names.length > WARN_NAMES ? `${names.slice(0, WARN_NAMES).join(", ")} and ${names.length - WARN_NAMES} more` : names.join(", ");
}

/** Babylon's retargeting warnings, one line per kind, with the dropped nodes named. */
function summarizeBabylonWarnings(messages: string[]): string[] {
    const dropped: string[] = [];
    const other = new Set<string>();
    for (const m of messages) {
        const d = /"(.*)" bone not found in any skeleton of avatar: animation removed/.exec(m);
        if (d) dropped.push(d[1]);
        else other.add(`AnimatorAvatar: ${m.replace(/^RetargetAnimationGroup - /, "")}`);
    }
    const out: string[] = [];
    if (dropped.length) {
        const names = [...new Set(dropped)].sort();
        out.push(`AnimatorAvatar dropped ${dropped.length} tracks of ${names.length} source nodes it found no target bone for: ${listNames(names)}`);
    }
    return [...out, ...other];
}

/**
 * Retargets a clip onto a character with Babylon's `AnimatorAvatar.retargetAnimationGroup` and
 * records the character's joint positions frame by frame: the baseline our retargeting is
 * measured against.
 *
 * - The target (GLB, glTF, VRM, or a BVH skeleton) is read with `LoadRigFromFileAsync` and mapped
 *   with `BuildHumanoidAvatar` (a VRM's own map trusted). A BVH target gets nodes from
 *   `CreateTransformNodesFromRig`. A target with no skinned mesh (a skeleton-only VRM, a BVH) gives
 *   `AnimatorAvatar` no skeleton; a `Skeleton` linked to its joint nodes is made for it (and said in
 *   `warnings`).
 * - The source is a BVH file (nodes and an AnimationGroup made in the target's scene from its
 *   poses, with `CreateTransformNodesFromRig` and `CreateAnimationGroupFromRigPoses`) or a
 *   GLB/VRM/VRMA with clips (loaded a second time into the target's scene, its nodes renamed with
 *   {@link SOURCE_NODE_PREFIX}).
 * - `mapNodeNames` maps the source node of every human bone mapped on both avatars to the target's
 *   node of that bone; other animated source nodes whose name the target's skeleton also has (same
 *   rig family: twist, toe-end, CMU's hip joints) map to it too, as Babylon's name matching would.
 * - Source and target are put at their rests (`options.restPose`, default
 *   {@link DEFAULT_ANIMATOR_AVATAR_REST_POSE}: both avatars' reference T-poses) and Babylon is called
 *   with `retargetAnimationKeys` on and the root fix of `options.rootFix` (default
 *   {@link DEFAULT_ANIMATOR_AVATAR_ROOT_FIX}: `fixRootPosition` and `fixGroundReference`, the
 *   source's hips and left foot as root and ground reference, Y up).
 * - The retargeted group is started, paused and sent with `goToFrame` to each frame of the grid,
 *   and every target joint's world position is read.
 *
 * Retargeting a file onto itself reproduces its joint positions within a few micrometres (a test
 * checks it), so what differs on other pairs is Babylon's method.
 *
 * Throws a {@link HumanoidError} naming the file: unreadable or unsupported files, non-humanoid
 * skeletons, no clip, no bone Babylon can drive. Babylon's log output is silenced meanwhile.
 * @param sourceFile the clip: .bvh, .glb, .vrm, .vrma (or a .gltf with embedded buffers)
 * @param targetFile the character: .glb, .gltf, .vrm or .bvh
 * @param options clip name (glTF sources), frame rate, start and frames, root fix, rest poses
 */
export async function RetargetWithAnimatorAvatarAsync(
    sourceFile: string,
    targetFile: string,
    options: IAnimatorAvatarBaselineOptions = {},
): Promise<IBaselineRetarget> {
    const rootFix = options.rootFix ?? DEFAULT_ANIMATOR_AVATAR_ROOT_FIX;
    const restPose = options.restPose ?? DEFAULT_ANIMATOR_AVATAR_REST_POSE;
    if (!["file", "tPose"].includes(restPose)) {
        throw new HumanoidError("BAD_OPTION", `${sourceFile}: restPose must be "file" or "tPose", got ${JSON.stringify(restPose)}`);
    }
    if (!["none", "rootPosition", "rootPositionAndGround"].includes(rootFix)) {
        throw new HumanoidError(
            "BAD_OPTION",
            `${sourceFile}: rootFix must be "none", "rootPosition" or "rootPositionAndGround", got ${JSON.stringify(rootFix)}`,
        );
    }
    if (options.frameRate !== undefined && !(options.frameRate > 0 && options.frameRate <= 10_000)) {
        throw new HumanoidError("BAD_OPTION", `${sourceFile}: frame rate must be a number of frames per second in (0, 10000], not ${options.frameRate}`);
    }
    const start = options.startSeconds ?? 0;
    if (!(start >= 0 && start < Infinity)) {
        throw new HumanoidError("BAD_OPTION", `${sourceFile}: startSeconds must be a number of seconds >= 0, not ${options.startSeconds}`);
    }
    if (options.frameCount !== undefined && !(Number.isInteger(options.frameCount) && options.frameCount >= 1)) {
        throw new HumanoidError("BAD_OPTION", `${sourceFile}: frameCount must be a whole number >= 1, not ${options.frameCount}`);
    }
    GetRigFileFormat(sourceFile);
    GetRigFileFormat(targetFile);
    const saved = { log: Logger.Log, warn: Logger.Warn };
    const babylonWarnings: string[] = [];
    Logger.Log = () => undefined;
    Logger.Warn = (message: string | unknown[]) => void babylonWarnings.push(String(message));
    const disposers: Array<() => void> = [];
    const disposeAll = (): void => {
        for (const d of disposers.splice(0).reverse()) d();
    };
    try {
        const warnings: string[] = [];
        // The target, its scene and the node of every rig joint (feet kept beside the legs for IK
        // moved under them, as the runtime's target loads).
        const target: ILoadedRig = await LoadRigFromFileAsync(targetFile, { attachDetachedFeet: true });
        disposers.push(() => target.dispose());
        const targetAvatar = BuildHumanoidAvatar(target.rig, { declaredBoneMap: target.declaredBoneMap });
        let scene: Scene;
        let targetNodes: readonly TransformNode[];
        let targetRoot: TransformNode;
        if (target.binding && target.container) {
            scene = target.container.scene;
            target.container.addAllToScene();
            targetNodes = target.binding.nodes;
            targetRoot = GetTopAncestor(targetNodes[0]);
        } else {
            const engine = new NullEngine();
            scene = new Scene(engine);
            disposers.push(() => {
                scene.dispose();
                engine.dispose();
            });
            const made = CreateTransformNodesFromRig(target.rig, scene);
            targetNodes = made.nodes;
            targetRoot = made.root;
        }
        // The fronts of feet that end at their ankles, followed by child nodes under the feet until
        // the baseline is disposed.
        const fronts = new FootFrontNodes(targetAvatar, targetNodes, options.footFrontOffsets);
        disposers.push(() => fronts.dispose());

        // The source, in the same scene, at rest.
        const source = await LoadSourceIntoSceneAsync(sourceFile, scene, { clip: options.clip, frameRate: options.frameRate });
        if (source.dispose) disposers.push(source.dispose);
        const { avatar: sourceAvatar, nodes: sourceNodes, group, frameRate: rate, durationSeconds, clipName } = source;

        // Babylon's avatar, with a skeleton of its own when the character has no skinned mesh.
        const animator = new AnimatorAvatar("AnimatorAvatarBaseline", targetRoot, false, false);
        if (!animator.skeletons.size) {
            animator.skeletons.add(
                CreateLinkedSkeleton(
                    "AnimatorAvatarBaseline",
                    targetNodes,
                    target.rig.joints.map((j) => j.parent),
                    scene,
                ),
            );
            warnings.push(
                `${targetFile}: no skinned mesh, so AnimatorAvatar finds no skeleton; one linked to its ${targetNodes.length} joint nodes was made for it`,
            );
        }
        if (restPose === "tPose") {
            // Both at their T-poses; the target's skeleton takes its T-pose as its rest, since Babylon returns it to rest.
            SetNodesToRigPose(sourceNodes, sourceAvatar.rig, sourceAvatar.referencePose);
            const locals = SetNodesToRigPose(targetNodes, targetAvatar.rig, targetAvatar.referencePose);
            const index = new Map<TransformNode, number>(targetNodes.map((n, i) => [n, i]));
            for (const s of animator.skeletons) {
                for (const b of s.bones) {
                    const i = index.get(b.getTransformNode() as TransformNode);
                    if (i !== undefined && locals[i]) b.setRestMatrix(locals[i]!);
                }
            }
        }
        // How many joint nodes go by each name. A character whose meshes have a skin each over the
        // same joints (three.js's RobotExpressive) has a skeleton per skin, their bones linked to
        // the same nodes: one node, driven once (counted per bone, every human bone of it had "N
        // bones of that name" and AnimatorAvatar drove none).
        const boneNodes = new Map<string, number>();
        const seen = new Set<TransformNode>();
        for (const s of animator.skeletons) {
            for (const b of s.bones) {
                const n = b.getTransformNode();
                if (!n || seen.has(n)) continue;
                seen.add(n);
                boneNodes.set(n.name, (boneNodes.get(n.name) ?? 0) + 1);
            }
        }

        // mapNodeNames: human bones first, then same-named nodes of one rig family.
        const mapNodeNames = new Map<string, string>();
        const mappedBones: HumanBone[] = [];
        const undrivable: string[] = [];
        for (let b = 0 as HumanBone; b < HUMAN_BONE_COUNT; b++) {
            const sj = sourceAvatar.getJoint(b);
            const tj = targetAvatar.getJoint(b);
            if (sj < 0 || tj < 0 || !sourceNodes[sj]) continue;
            const targetName = targetNodes[tj].name;
            const count = boneNodes.get(targetName) ?? 0;
            if (count !== 1) {
                undrivable.push(`${HumanBoneNames[b]} ('${targetName}'${count ? `, ${count} bones of that name` : ", not a skin joint"})`);
                continue;
            }
            mapNodeNames.set(sourceNodes[sj]!.name, targetName);
            mappedBones.push(b);
        }
        if (undrivable.length) warnings.push(`${targetFile}: AnimatorAvatar cannot drive these human bones: ${listNames(undrivable)}`);
        if (!mappedBones.length) {
            throw new HumanoidError("CONVERT", `${targetFile}: AnimatorAvatar can drive none of the human bones mapped on both skeletons (${sourceFile})`);
        }
        const targetsTaken = new Set(mapNodeNames.values());
        for (const ta of group.targetedAnimations) {
            const name = (ta.target as TransformNode)?.name;
            if (typeof name !== "string" || mapNodeNames.has(name)) continue;
            const own = name.slice(SOURCE_NODE_PREFIX.length);
            if (boneNodes.get(own) === 1 && !targetsTaken.has(own)) {
                mapNodeNames.set(name, own);
                targetsTaken.add(own);
            }
        }

        // Retarget.
        const retargetOptions: IRetargetOptions = { mapNodeNames, retargetAnimationKeys: true, fixRootPosition: false };
        if (rootFix !== "none") {
            const hips = sourceNodes[sourceAvatar.getJoint(HumanBone.Hips)];
            const foot = sourceNodes[sourceAvatar.getJoint(HumanBone.LeftFoot)];
            retargetOptions.fixRootPosition = true;
            retargetOptions.fixGroundReference = rootFix === "rootPositionAndGround";
            retargetOptions.rootNodeName = hips?.name;
            retargetOptions.groundReferenceNodeName = foot?.name;
            // Rig space is Y-up. Left to guess, Babylon takes the largest component of hips - foot
            // in the source's rest, which is X for a BVH whose zero pose has the legs along +X (Bandai).
            retargetOptions.groundReferenceVerticalAxis = "Y";
        }
        const retargeted = animator.retargetAnimationGroup(group, retargetOptions);
        warnings.push(...summarizeBabylonWarnings(babylonWarnings.splice(0)));
        if (!retargeted.targetedAnimations.length) {
            throw new HumanoidError("CONVERT", `${targetFile}: AnimatorAvatar kept no track of ${sourceFile}`);
        }

        // Play it on the grid and record the target's joints.
        if (start > durationSeconds) {
            throw new HumanoidError("BAD_OPTION", `${sourceFile}: startSeconds ${start} is past the clip's end (${durationSeconds} s)`);
        }
        const frameCount = Math.min(RigPoseFrameCount(durationSeconds - start, rate), options.frameCount ?? Infinity);
        const fps = retargeted.targetedAnimations[0].animation.framePerSecond;
        const from = group.from;
        const n = target.rig.joints.length;
        const jointWorldPositions: Float32Array[] = [];
        const footFronts: Float32Array[] = [];
        retargeted.start(false, 1, retargeted.from, retargeted.to);
        retargeted.pause();
        for (let f = 0; f < frameCount; f++) {
            retargeted.goToFrame(from + Math.min(start + f / rate, durationSeconds) * fps);
            const out = new Float32Array(3 * n);
            for (let j = 0; j < n; j++) {
                const p = targetNodes[j].computeWorldMatrix(true).getTranslation();
                out[3 * j] = p.x;
                out[3 * j + 1] = p.y;
                out[3 * j + 2] = p.z;
            }
            jointWorldPositions.push(out);
            if (fronts.any) footFronts.push(fronts.readInto(new Float32Array(6)));
        }
        retargeted.stop();
        warnings.push(...summarizeBabylonWarnings(babylonWarnings.splice(0)));
        return {
            sourceFile,
            targetFile,
            clipName,
            frameRate: rate,
            frameCount,
            durationSeconds,
            sourceAvatar,
            targetAvatar,
            jointWorldPositions,
            ...(footFronts.length ? { footFronts } : {}),
            mapNodeNames,
            mappedBones,
            trackCounts: { source: group.targetedAnimations.length, retargeted: retargeted.targetedAnimations.length },
            rootFix,
            restPose,
            warnings,
            scene,
            group: retargeted,
            dispose: disposeAll,
        };
    } catch (e) {
        disposeAll();
        throw e;
    } finally {
        Logger.Log = saved.log;
        Logger.Warn = saved.warn;
    }
}
