/** The studio's 3D scene: engine, camera, light, ground and the debug-mark materials. */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { Labels } from "./labels.js";

/** Materials of the debug marks (centre of mass, IK goals, foot contacts). */
export interface IStudioMaterials {
    readonly com: StandardMaterial;
    readonly goal: StandardMaterial;
    readonly planted: StandardMaterial;
    readonly free: StandardMaterial;
    readonly sliding: StandardMaterial;
    /** The point a planted foot is held at (its ankle, its toes, or between). */
    readonly held: StandardMaterial;
}

/** What the rest of the studio draws into. */
export interface IStudioScene {
    readonly canvas: HTMLCanvasElement;
    readonly engine: Engine;
    readonly scene: Scene;
    readonly camera: ArcRotateCamera;
    readonly materials: IStudioMaterials;
    /** The HTML labels over the view. */
    readonly labels: Labels;
}

/** Horizontal distance between two figures of a grown-up's size, metres (the source's slot, and the least a character takes). */
export const SLOT = 1.4;
/**
 * The height of the figure {@link SLOT} is made for, metres: a character taller than this takes a
 * slot as much wider (three.js's RobotExpressive, 4.5 m tall, stood over its neighbours).
 */
export const SLOT_FIGURE_HEIGHT = 1.8;

/** The width of a character's slot, metres: {@link SLOT}, or more for a character taller than {@link SLOT_FIGURE_HEIGHT}. */
export function SlotWidth(height: number): number {
    return height > SLOT_FIGURE_HEIGHT ? (SLOT * height) / SLOT_FIGURE_HEIGHT : SLOT;
}

/** Creates the engine (pixels readable back, for the browser tests), the scene and its fixtures on `canvas`, labels in `labelBox`. */
export function CreateStudioScene(canvas: HTMLCanvasElement, labelBox: HTMLElement): IStudioScene {
    const engine = new Engine(canvas, true, { preserveDrawingBuffer: true });
    const scene = new Scene(engine);
    scene.clearColor = new Color4(0.95, 0.96, 0.98, 1);
    const camera = new ArcRotateCamera("camera", Math.PI / 2, Math.PI / 2.4, 5, new Vector3(0, 0.8, 0), scene);
    camera.attachControl(canvas, true);
    // Left and right arrows step the timeline (panels/timeline.ts); the camera's keyboard input
    // turned the view round at the same time, so a frame-by-frame look at a pose was seen from a
    // new angle each frame. Up and down still turn it.
    camera.keysLeft = [];
    camera.keysRight = [];
    camera.wheelPrecision = 60;
    camera.minZ = 0.05;
    new HemisphericLight("light", new Vector3(0.2, 1, 0.4), scene);
    const ground = CreateGround("ground", { width: 14, height: 8 }, scene);
    const groundMat = new StandardMaterial("ground", scene);
    groundMat.diffuseColor = new Color3(0.86, 0.87, 0.89);
    groundMat.specularColor = Color3.Black();
    ground.material = groundMat;

    const material = (name: string, color: Color3): StandardMaterial => {
        const m = new StandardMaterial(name, scene);
        m.diffuseColor = color;
        m.emissiveColor = color.scale(0.4);
        return m;
    };
    const materials: IStudioMaterials = {
        com: material("com", new Color3(0.95, 0.7, 0.1)),
        goal: material("goal", new Color3(0.6, 0.2, 0.8)),
        planted: material("planted", new Color3(0.1, 0.7, 0.2)),
        free: material("free", new Color3(0.75, 0.75, 0.75)),
        sliding: material("sliding", new Color3(0.9, 0.1, 0.1)),
        held: material("held", new Color3(0.05, 0.35, 0.45)),
    };
    const labels = new Labels(labelBox, { canvas, engine, scene, camera });
    return { canvas, engine, scene, camera, materials, labels };
}
