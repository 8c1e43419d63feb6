/**
 * What is drawn over the figures every frame: the name labels, the stick figures, and each
 * character's centre of mass, body orientation, IK goals, foot contacts and the point each
 * planted foot is held at.
 */
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateLines } from "@babylonjs/core/Meshes/Builders/linesBuilder.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { HumanBone, MuscleSetup } from "../src/index.js";
import type { ITarget, Studio } from "./studio.js";
import type { IStudioPanel } from "./panels/panel.js";

/** Rig space to world: the rig's own node (samples), or the world the character was loaded in, moved with its root. */
function rigToWorld(t: ITarget): Matrix {
    return t.rigSpace ? t.rigSpace.getWorldMatrix() : t.rootBindInverse.multiply(t.root.getWorldMatrix());
}

/** A little above the highest node: where a figure's label goes. */
function topOf(nodes: readonly TransformNode[]): Vector3 {
    let best = nodes[0].getAbsolutePosition();
    for (const n of nodes) if (n.getAbsolutePosition().y > best.y) best = n.getAbsolutePosition();
    return best.add(new Vector3(0, 0.15, 0));
}

/** Draws the figures, labels and debug marks after every frame. */
export function MountOverlay(studio: Studio): IStudioPanel {
    const { scene, engine, materials, labels } = studio.view;
    const tmp = new Vector3();
    const q = new Quaternion();
    const settings = studio.settings;
    function update(): void {
        for (const n of scene.transformNodes) n.computeWorldMatrix();
        const sourceFigure = studio.sourceFigure;
        if (sourceFigure) {
            sourceFigure.figure.update(settings.show.skeletons || !!studio.source?.bvh);
            labels.set("source", `source: ${studio.source?.name ?? ""}`, topOf(sourceFigure.nodes));
        }
        for (const t of studio.targets) {
            t.figure.update(settings.show.skeletons);
            labels.set(`t-${t.name}`, t.name, topOf(t.nodes));
            const a = t.animator;
            const setup = a ? MuscleSetup.For(t.avatar) : null;
            t.debug.forEach((m, k) => {
                m.isVisible = !!a && (k === 0 ? settings.show.body : settings.show.goals);
                if (!a || !setup) return;
                if (k >= 5) {
                    // Where a planted foot is held across the ground: its ankle, its toes (or its
                    // tip), or between while the hold goes over (the source's still end, or the
                    // end its pitch stands on).
                    const s = k - 5;
                    m.isVisible = m.isVisible && a.planting.planted[s];
                    if (!m.isVisible) return;
                    // A foot with neither toes nor a tip of its own is held at its ankle.
                    const tip = setup.footTip[s];
                    const ankle = t.nodes[setup.joint[s === 0 ? HumanBone.LeftFoot : HumanBone.RightFoot]].getAbsolutePosition();
                    if (tip < 0) m.position.copyFrom(ankle);
                    else Vector3.LerpToRef(ankle, t.nodes[tip].getAbsolutePosition(), a.planting.heldAlong[s], m.position);
                } else if (k === 0) {
                    // Centre of mass: the pose's body position on the character (rig space), then the world.
                    a.player.pose.bodyPosition.scaleToRef(setup.scale, tmp).applyRotationQuaternionInPlace(setup.c0).addInPlace(setup.groundOrigin);
                    m.position.copyFrom(Vector3.TransformCoordinates(tmp, rigToWorld(t)));
                    // Body orientation: an arrow along the body's forward (canonical +Z turned by the body rotation).
                    const fwd = new Vector3(0, 0, 0.35).applyRotationQuaternion(a.player.pose.bodyRotation).applyRotationQuaternion(setup.c0);
                    const tip = Vector3.TransformCoordinates(tmp.add(fwd.scale(setup.scale / 1.7)), rigToWorld(t));
                    t.facing = CreateLines(`facing-${t.name}`, { points: [m.position.clone(), tip], instance: t.facing ?? undefined, updatable: true }, scene);
                    t.facing.color = new Color3(0.95, 0.6, 0.05);
                    t.facing.renderingGroupId = 1;
                    t.facing.isVisible = settings.show.body;
                } else {
                    // The clip's goal, scaled to the character (where IK aims when it is on).
                    a.solver.goalToRig(k - 1, tmp, q);
                    m.position.copyFrom(Vector3.TransformCoordinates(tmp, rigToWorld(t)));
                    if (k <= 2) {
                        // Feet, coloured by the quality metric: green planted, red when the clip says the foot
                        // is down but it slides faster than the report's threshold (0.5 m/s at a 0.9 m leg).
                        const foot = t.nodes[t.avatar.getJoint(k === 1 ? HumanBone.LeftFoot : HumanBone.RightFoot)].getAbsolutePosition();
                        const last = t.lastFeet[k - 1];
                        const dt = engine.getDeltaTime() / 1000;
                        const speed = dt > 0 ? Math.hypot(foot.x - last.x, foot.z - last.z) / dt : 0;
                        last.copyFrom(foot);
                        const contact = (a.player.contacts & k) !== 0;
                        const limit = (0.5 * a.solver.ik.limbLength(k - 1)) / 0.9;
                        m.material =
                            contact && studio.playing && speed > limit ? materials.sliding : a.planting.planted[k - 1] ? materials.planted : materials.free;
                    }
                }
            });
        }
    }
    return { name: "overlay", update };
}
