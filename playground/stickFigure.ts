/** Stick figures: a skeleton drawn as lines from its nodes' world positions. */
import type { Scene } from "@babylonjs/core/scene.js";
import type { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateLineSystem } from "@babylonjs/core/Meshes/Builders/linesBuilder.js";
import type { LinesMesh } from "@babylonjs/core/Meshes/linesMesh.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { RigJointKind, type IRig } from "../src/index.js";

/**
 * One line per bone (joint to parent joint; plain nodes left out), redrawn from the nodes every
 * frame; only the hips and what hangs from them when the hips' joint is given (joints above them,
 * as Bandai's `joint_Root` at the origin while the hips travel, are not animated).
 */
export class StickFigure {
    private readonly _pairs: [number, number][] = [];
    private readonly _lines: Vector3[][] = [];
    private _mesh: LinesMesh | null = null;
    constructor(
        private readonly _name: string,
        private readonly _nodes: readonly TransformNode[],
        rig: IRig,
        private readonly _color: Color3,
        private readonly _scene: Scene,
        hips = -1,
    ) {
        // Parents come first: a joint is below the hips when its parent is the hips or below them.
        const below = rig.joints.map(() => hips < 0);
        rig.joints.forEach((j, i) => {
            if (i === hips || (j.parent >= 0 && below[j.parent])) below[i] = true;
            if (j.parent >= 0 && below[j.parent] && j.kind !== RigJointKind.Node && rig.joints[j.parent].kind !== RigJointKind.Node)
                this._pairs.push([j.parent, i]);
        });
        for (let k = 0; k < this._pairs.length; k++) this._lines.push([new Vector3(), new Vector3()]);
    }
    update(visible: boolean): void {
        if (!visible) {
            if (this._mesh) this._mesh.isVisible = false;
            return;
        }
        this._pairs.forEach(([a, b], k) => {
            this._lines[k][0].copyFrom(this._nodes[a].getAbsolutePosition());
            this._lines[k][1].copyFrom(this._nodes[b].getAbsolutePosition());
        });
        if (!this._mesh) {
            this._mesh = CreateLineSystem(this._name, { lines: this._lines, updatable: true }, this._scene);
            this._mesh.color = this._color;
            this._mesh.renderingGroupId = 1;
        } else {
            CreateLineSystem(this._name, { lines: this._lines, instance: this._mesh }, this._scene);
        }
        this._mesh.isVisible = true;
    }
    dispose(): void {
        this._mesh?.dispose();
    }
}
