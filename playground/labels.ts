/** Name labels: HTML boxes kept over points of the 3D view. */
import type { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import type { Engine } from "@babylonjs/core/Engines/engine.js";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Scene } from "@babylonjs/core/scene.js";

/** Keeps one HTML label per key over a world position. */
export class Labels {
    constructor(
        private readonly _box: HTMLElement,
        private readonly _view: { canvas: HTMLCanvasElement; engine: Engine; scene: Scene; camera: ArcRotateCamera },
    ) {}
    /** Shows `text` above the screen position of `at` (world). */
    set(key: string, text: string, at: Vector3): void {
        const { canvas, engine, scene, camera } = this._view;
        let el = this._box.querySelector<HTMLDivElement>(`[data-key="${CSS.escape(key)}"]`);
        if (!el) {
            el = document.createElement("div");
            el.dataset.key = key;
            this._box.appendChild(el);
        }
        el.textContent = text;
        const p = Vector3.Project(
            at,
            Matrix.IdentityReadOnly,
            scene.getTransformMatrix(),
            camera.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight()),
        );
        const scale = canvas.clientWidth / Math.max(1, engine.getRenderWidth());
        el.style.left = `${p.x * scale}px`;
        el.style.top = `${p.y * scale}px`;
    }
    /** Removes the label of `key`, if any. */
    remove(key: string): void {
        this._box.querySelector(`[data-key="${CSS.escape(key)}"]`)?.remove();
    }
}
