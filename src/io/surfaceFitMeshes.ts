import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { HumanoidError } from "../errors.js";
import { SkinVerticesToRef } from "../skin/linearBlendSkinning.js";
import type { ISurfaceFitRig } from "../skin/fitRig.js";
import type { ISurfaceFitSource } from "../skin/surfaceFitRun.js";
import { BindSkinnedMesh, ComputeWorldSkinMatricesToRef, GetJointWorldMatrixToRef, type ISkinnedMeshBinding } from "./skinnedMesh.js";

/**
 * Babylon meshes as the two sides of a surface fit: a character's skinned meshes as a rig to fit
 * (their bind pose, bone slots and weights), and as a moving source surface (its clip played
 * through CPU skinning).
 */

/** A character's skinned meshes read for surface fitting. */
export interface ISurfaceFitMeshes {
    /** One binding per mesh, in the order their vertices are concatenated. */
    readonly bindings: readonly ISkinnedMeshBinding[];
    /** The rig: every mesh's vertices in one list, world space in the bind pose. */
    readonly rig: ISurfaceFitRig;
    /**
     * World matrix of every bone's joint in the rest pose, 16 numbers per bone (Babylon's
     * row-vector layout). A fitted transform `T` poses the joint at `restJointWorld * T`.
     */
    readonly restJointWorld: Float64Array;
}

/** The skinned meshes under a loaded character that share the skeleton of the one with the most vertices. */
export function FindSkinnedMeshes(meshes: readonly AbstractMesh[]): AbstractMesh[] {
    const skinned = meshes.filter((m) => m.skeleton && m.getTotalVertices() > 0);
    if (!skinned.length) return [];
    const main = skinned.reduce((a, b) => (b.getTotalVertices() > a.getTotalVertices() ? b : a));
    return skinned.filter((m) => m.skeleton === main.skeleton);
}

/**
 * Reads skinned meshes sharing one skeleton as a surface-fit rig, in the pose their joints are in
 * now, which becomes the rest pose of the fit: call it before playing any clip (a file loaded with
 * its animations not started is in its nodes' rest pose). Throws a {@link HumanoidError}
 * `NOT_SKINNED` naming `source` when there are none. Cold path; allocates.
 * @param meshes the meshes (see {@link FindSkinnedMeshes})
 * @param source name for messages (the file)
 */
export function CreateSurfaceFitMeshes(meshes: readonly AbstractMesh[], source: string): ISurfaceFitMeshes {
    if (!meshes.length) throw new HumanoidError("NOT_SKINNED", `${source}: no skinned mesh to fit`);
    const bindings = meshes.map((m) => BindSkinnedMesh(m));
    const skeleton = bindings[0].skeleton;
    if (bindings.some((b) => b.skeleton !== skeleton)) throw new HumanoidError("NOT_SKINNED", `${source}: the skinned meshes do not share one skeleton`);
    const boneCount = Math.max(...bindings.map((b) => b.geometry.boneCount));
    const vertexCount = bindings.reduce((s, b) => s + b.geometry.vertexCount, 0);
    const influences = Math.max(...bindings.map((b) => b.geometry.influences));
    const restPositions = new Float64Array(3 * vertexCount);
    const boneIndices = new Int32Array(vertexCount * influences);
    const boneWeights = new Float64Array(vertexCount * influences);
    // The rest pose: every mesh skinned by its joints as they are now (the nodes' rest transforms).
    let base = 0;
    for (const b of bindings) {
        const g = b.geometry;
        const matrices = ComputeWorldSkinMatricesToRef(b, new Float64Array(16 * g.boneCount));
        const out = new Float64Array(3 * g.vertexCount);
        SkinVerticesToRef(g, matrices, out);
        restPositions.set(out, 3 * base);
        for (let v = 0; v < g.vertexCount; v++) {
            for (let k = 0; k < g.influences; k++) {
                boneIndices[(base + v) * influences + k] = g.boneIndices[v * g.influences + k];
                boneWeights[(base + v) * influences + k] = g.boneWeights[v * g.influences + k];
            }
        }
        base += g.vertexCount;
    }
    // Rest joint worlds (the joints as they are now), from the first mesh's binding.
    const first = bindings[0];
    const meshWorld = first.mesh.getWorldMatrix();
    const restJointWorld = new Float64Array(16 * boneCount);
    const boneRestPositions = new Float64Array(3 * boneCount);
    const boneParents = new Int32Array(boneCount).fill(-1);
    const boneNames: string[] = new Array<string>(boneCount).fill("");
    for (let s = 0; s < boneCount; s++) {
        const bone = first.bones[s];
        if (!bone) {
            restJointWorld.set(meshWorld.m, 16 * s);
            continue;
        }
        GetJointWorldMatrixToRef(bone, meshWorld, restJointWorld, 16 * s);
        boneRestPositions.set(restJointWorld.subarray(16 * s + 12, 16 * s + 15), 3 * s);
        boneNames[s] = bone.name;
        for (let p = bone.getParent(); p; p = p.getParent()) {
            if (p.getIndex() >= 0) {
                boneParents[s] = p.getIndex();
                break;
            }
        }
    }
    const rig: ISurfaceFitRig = { vertexCount, restPositions, influences, boneIndices, boneWeights, boneCount, boneParents, boneRestPositions, boneNames };
    return { bindings, rig, restJointWorld };
}

/**
 * A character's clip as a moving surface: at frame `f` the group is sent to
 * `from + f / frameRate` seconds and every mesh is skinned on the CPU (world space), vertices
 * concatenated as in {@link CreateSurfaceFitMeshes}, whose rest pose it shares. The group
 * is started and paused here; the caller stops it.
 * @param fit the character's meshes
 * @param group the clip
 * @param frameRate frames per second to sample the clip at (default 30)
 */
export function CreateSurfaceFitSource(fit: ISurfaceFitMeshes, group: AnimationGroup, frameRate = 30): ISurfaceFitSource {
    const fps = group.targetedAnimations[0]?.animation.framePerSecond ?? 60;
    const duration = Math.max(0, (group.to - group.from) / fps);
    const frameCount = Math.floor(duration * frameRate + 1e-6) + 1;
    const matrices = fit.bindings.map((b) => new Float64Array(16 * b.geometry.boneCount));
    const outputs = fit.bindings.map((b) => new Float64Array(3 * b.geometry.vertexCount));
    group.start(false);
    group.pause();
    return {
        vertexCount: fit.rig.vertexCount,
        restPositions: fit.rig.restPositions,
        frameCount,
        frameToRef(f: number, out: Float64Array): void {
            group.goToFrame(group.from + Math.min(f / frameRate, duration) * fps);
            let base = 0;
            fit.bindings.forEach((b, i) => {
                ComputeWorldSkinMatricesToRef(b, matrices[i]);
                SkinVerticesToRef(b.geometry, matrices[i], outputs[i]);
                out.set(outputs[i], base);
                base += outputs[i].length;
            });
        },
    };
}
