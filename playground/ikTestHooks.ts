/** What the browser tests read and drive of the IK panel (`window.__studio.ik`; test/e2e/playground.e2e.test.ts). */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { HumanBone, HumanIKGoal } from "../src/index.js";
import type { DragTargets } from "./dragTargets.js";
import type { LimitCone } from "./limitCone.js";
import type { Studio } from "./studio.js";
import { AddTestHook } from "./testHooks.js";

/** The cone as the tests check it. */
export interface IConeReport {
    /** Vertices of the boundary-and-spokes line system. */
    points: number;
    /** Whether every coordinate of both line systems is finite. */
    finite: boolean;
    /** Least distance of the boundary points (and spoke ends) from the joint, over the bone's length (1 when drawn right). */
    radiusMin: number;
    /** Most such distance (1 when drawn right). */
    radiusMax: number;
    /** Angle between the drawn current direction and the line from the joint to its child, degrees. */
    directionErrorDeg: number;
    /** Whether the bone's direction is inside its polygon. */
    inside: boolean;
}

/** A node's world position with its ancestors' matrices recomputed first (the frame may not have drawn yet). */
function freshPosition(node: TransformNode): number[] {
    const chain: TransformNode[] = [];
    for (let n: TransformNode | null = node; n; n = n.parent as TransformNode | null) chain.unshift(n);
    for (const n of chain) n.computeWorldMatrix(true);
    return node.getAbsolutePosition().asArray();
}

/** Adds `ik` to the studio's test hooks. */
export function InstallIkTestHooks(studio: Studio, targets: DragTargets, cone: LimitCone): void {
    const hand = (side: string): { bone: HumanBone; goal: HumanIKGoal } =>
        side === "left" ? { bone: HumanBone.LeftHand, goal: HumanIKGoal.LeftHand } : { bone: HumanBone.RightHand, goal: HumanIKGoal.RightHand };
    AddTestHook("ik", {
        moveTarget: (name: string, p: number[]): void => targets.place(name, Vector3.FromArray(p)),
        target: (name: string): number[] => targets.get(name).mesh.position.asArray(),
        visible: (name: string): boolean => targets.get(name).mesh.isVisible,
        /** A character's hand joint, world. */
        hand: (i: number, side: string): number[] => {
            const t = studio.targets[i];
            return freshPosition(t.nodes[t.avatar.getJoint(hand(side).bone)]);
        },
        /** Where the panel set a character's hand goal (world), its weight, and whether the last solve found it out of reach. */
        goal: (i: number, side: string): { position: number[]; weight: number; unreachable: boolean } => {
            const g = studio.targets[i].animator!.goals;
            const k = hand(side).goal;
            return { position: g.positions[k].asArray(), weight: g.positionWeights[k], unreachable: g.status[k].unreachable };
        },
        /** How many bones a character's joint limits hold (0: none). */
        limits: (i: number): number => {
            const l = studio.targets[i].animator?.solver.jointLimits;
            return l ? l.enabled.reduce((s, x) => s + x, 0) : 0;
        },
        cone: (): IConeReport | null => {
            const joint = cone.jointNode;
            const child = cone.childNode;
            const positions = cone.cone?.getVerticesData(VertexBuffer.PositionKind);
            const dir = cone.direction?.getVerticesData(VertexBuffer.PositionKind);
            if (!joint || !child || !positions || !dir) return null;
            const o = Vector3.FromArray(freshPosition(joint));
            const length = Vector3.Distance(o, Vector3.FromArray(freshPosition(child)));
            let radiusMin = Infinity;
            let radiusMax = 0;
            // The loop comes first: every point but the spokes' (which start at the joint) is at the bone's length.
            for (let i = 0; i < positions.length; i += 3) {
                const r = Vector3.Distance(o, Vector3.FromArray(positions, i)) / length;
                if (r < 1e-6) continue;
                radiusMin = Math.min(radiusMin, r);
                radiusMax = Math.max(radiusMax, r);
            }
            const drawn = Vector3.FromArray(dir, 3).subtract(Vector3.FromArray(dir, 0)).normalize();
            const actual = child.getAbsolutePosition().subtract(o).normalize();
            return {
                points: positions.length / 3,
                finite: Array.from(positions).every(Number.isFinite) && Array.from(dir).every(Number.isFinite),
                radiusMin,
                radiusMax,
                directionErrorDeg: (Math.acos(Math.min(1, Vector3.Dot(drawn, actual))) * 180) / Math.PI,
                inside: cone.inside,
            };
        },
        /** What the pointer would pick at a place on the page (CSS pixels): in the targets' layer, and in the scene under it. */
        pickAt: (x: number, y: number): { layer: string | null; scene: string | null } => {
            const { scene, canvas, engine } = studio.view;
            const rect = canvas.getBoundingClientRect();
            const px = ((x - rect.left) * engine.getRenderWidth()) / rect.width;
            const py = ((y - rect.top) * engine.getRenderHeight()) / rect.height;
            const layer = targets.layer.utilityLayerScene.pick(px, py, undefined, false, scene.activeCamera);
            return { layer: layer?.pickedMesh?.name ?? null, scene: scene.pick(px, py)?.pickedMesh?.name ?? null };
        },
        /** A target's place on the page (CSS pixels), to drag it with the mouse. */
        screen: (name: string): number[] => {
            const { engine, scene, canvas } = studio.view;
            const w = engine.getRenderWidth();
            const h = engine.getRenderHeight();
            const p = Vector3.Project(
                targets.get(name).mesh.position,
                Matrix.IdentityReadOnly,
                scene.getTransformMatrix(),
                scene.activeCamera!.viewport.toGlobal(w, h),
            );
            const rect = canvas.getBoundingClientRect();
            return [rect.left + (p.x * rect.width) / w, rect.top + (p.y * rect.height) / h];
        },
    });
}
