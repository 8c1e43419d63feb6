/**
 * Targets the user drags in the 3D view: small spheres, each with Babylon's `PointerDragBehavior`
 * (drag in the plane facing the camera), and one `PositionGizmo` on the last one touched (its
 * arrows move it along one axis, for depth). The IK panel reads their positions every frame.
 *
 * The spheres live in a utility layer (a scene drawn over the main one, with the same camera, as
 * Babylon's gizmos are): always visible, even inside a body, and picked before anything in the
 * main scene (a stick figure's lines or a skin in front of a target would take the pick otherwise).
 */
// Registers the scene's picking (scene.pick and the pointer's picks): the drag behaviour starts from a pick.
import "@babylonjs/core/Culling/ray.js";
import { PointerDragBehavior } from "@babylonjs/core/Behaviors/Meshes/pointerDragBehavior.js";
import { PositionGizmo } from "@babylonjs/core/Gizmos/positionGizmo.js";
import type { Color3 } from "@babylonjs/core/Maths/math.color.js";
import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { UtilityLayerRenderer } from "@babylonjs/core/Rendering/utilityLayerRenderer.js";
import type { Scene } from "@babylonjs/core/scene.js";

/** Diameter of a target sphere, metres: big enough to grab at the studio's default zoom. */
const TARGET_DIAMETER = 0.09;
/** The gizmo's size on screen relative to Babylon's default (its arrows would hide a hand otherwise). */
const GIZMO_SCALE = 0.7;

/** One draggable target. */
export interface IDragTarget {
    /** Its name (`"lookAt"`, `"leftHand"`, `"rightHand"`: the test hooks use it). */
    readonly name: string;
    /** The sphere; its `position` is the target (world, metres). */
    readonly mesh: Mesh;
    /** The drag behaviour on the sphere. */
    readonly drag: PointerDragBehavior;
}

/** A set of draggable target spheres with one shared position gizmo. */
export class DragTargets {
    /** The targets, in the order given to the constructor. */
    readonly targets: IDragTarget[] = [];
    /** The axis gizmo, on the last target dragged or picked (none at first). */
    readonly gizmo: PositionGizmo;
    /** The utility layer the spheres and the gizmo are drawn and picked in. */
    readonly layer: UtilityLayerRenderer;

    /**
     * @param scene the scene to draw over
     * @param specs name and colour of each target
     */
    constructor(scene: Scene, specs: readonly { name: string; color: Color3 }[]) {
        this.layer = new UtilityLayerRenderer(scene);
        this.gizmo = new PositionGizmo(this.layer);
        this.gizmo.scaleRatio = GIZMO_SCALE;
        this.gizmo.updateGizmoRotationToMatchAttachedMesh = false;
        for (const spec of specs) {
            const layerScene = this.layer.utilityLayerScene;
            const mesh = CreateSphere(`ik-target-${spec.name}`, { diameter: TARGET_DIAMETER, segments: 12 }, layerScene);
            const material = new StandardMaterial(`ik-target-${spec.name}`, layerScene);
            // Flat colour: the layer has no lights of its own.
            material.disableLighting = true;
            material.emissiveColor = spec.color;
            mesh.material = material;
            mesh.isVisible = false;
            const drag = new PointerDragBehavior();
            drag.useObjectOrientationForDragging = false;
            drag.onDragStartObservable.add(() => this.attachGizmo(mesh));
            mesh.addBehavior(drag);
            this.targets.push({ name: spec.name, mesh, drag });
        }
    }

    /** The target named `name` (throws for an unknown name: a programming error). */
    get(name: string): IDragTarget {
        const t = this.targets.find((x) => x.name === name);
        if (!t) throw new Error(`no drag target named '${name}'`);
        return t;
    }

    /** Shows or hides a target (a hidden one cannot be picked; the gizmo leaves it). */
    setVisible(name: string, on: boolean): void {
        const t = this.get(name);
        t.mesh.isVisible = on;
        t.mesh.isPickable = on;
        if (!on && this.gizmo.attachedMesh === t.mesh) this.attachGizmo(this.targets.find((x) => x.mesh.isVisible)?.mesh ?? null);
    }

    /** Moves a target to `position` (world, metres). */
    place(name: string, position: Vector3): void {
        this.get(name).mesh.position.copyFrom(position);
    }

    /** Puts the axis gizmo on `mesh` (null: nowhere). */
    attachGizmo(mesh: Mesh | null): void {
        this.gizmo.attachedMesh = mesh;
    }
}
