/**
 * The surface fit drawn in the studio's scene: the coarse rig's fitted skin, coloured by each
 * vertex's error, with the source's skin over it as grey points, at one recorded frame.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import type { IFitRecording } from "./fitJob.js";
import { ErrorColoursToRef } from "./errorColours.js";

/** How far the source's points are drawn outside its surface, as a fraction of the diagonal (display only; the errors are measured without it). */
const SOURCE_LIFT = 0.002;

/** Two meshes made from a recording, moved to the recording's frames on demand. */
export class SurfaceFitView {
    /** Parent of both meshes: move it to place the view. */
    readonly root: TransformNode;
    private readonly _fitted: Mesh;
    private readonly _source: Mesh;
    private readonly _normals: Float32Array;
    private readonly _colours: Float32Array;
    private readonly _lifted: Float32Array;
    /** +1 when the triangles' normals point out of the surface, -1 when in (a mirrored file). */
    private readonly _outward: number;
    private _frame = -1;

    constructor(
        private readonly _recording: IFitRecording,
        scene: Scene,
    ) {
        const n = _recording.vertexCount;
        this.root = new TransformNode("surface-fit", scene);
        this._normals = new Float32Array(3 * n);
        this._colours = new Float32Array(4 * n);
        this._lifted = new Float32Array(3 * n);
        // Which way the normals point: out when they go away from the middle, summed over the surface.
        const p0 = _recording.source[0];
        VertexData.ComputeNormals(p0, _recording.indices, this._normals);
        const mid = [0, 1, 2].map((k) => {
            let sum = 0;
            for (let v = 0; v < n; v++) sum += p0[3 * v + k];
            return sum / Math.max(1, n);
        });
        let away = 0;
        for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) away += this._normals[3 * v + k] * (p0[3 * v + k] - mid[k]);
        this._outward = away < 0 ? -1 : 1;
        const make = (name: string, withColours: boolean): Mesh => {
            const mesh = new Mesh(name, scene);
            const data = new VertexData();
            data.positions = new Float32Array(_recording.fitted[0]);
            data.indices = _recording.indices;
            data.normals = new Float32Array(3 * n);
            if (withColours) data.colors = new Float32Array(4 * n);
            data.applyToMesh(mesh, true);
            mesh.parent = this.root;
            // The surface moves every frame: never culled on a stale bounding box.
            mesh.alwaysSelectAsActiveMesh = true;
            return mesh;
        };
        this._fitted = make("surface-fit-fitted", true);
        const fittedMat = new StandardMaterial("surface-fit-fitted", scene);
        fittedMat.diffuseColor = Color3.White();
        fittedMat.specularColor = new Color3(0.1, 0.1, 0.1);
        fittedMat.emissiveColor = new Color3(0.25, 0.25, 0.25);
        fittedMat.backFaceCulling = false;
        fittedMat.twoSidedLighting = true;
        this._fitted.material = fittedMat;
        this._source = make("surface-fit-source", false);
        const sourceMat = new StandardMaterial("surface-fit-source", scene);
        // Points, not a wireframe: about twice the frame rate in software WebGL, and the coloured skin shows between them.
        sourceMat.pointsCloud = true;
        sourceMat.pointSize = 2;
        sourceMat.diffuseColor = new Color3(0.2, 0.2, 0.2);
        sourceMat.emissiveColor = new Color3(0.15, 0.15, 0.15);
        sourceMat.alpha = 0.5;
        this._source.material = sourceMat;
    }

    /** The frame shown. */
    get frame(): number {
        return this._frame;
    }

    /** The point halfway up the source's surface at the frame shown (world), for the camera and label. */
    centre(): Vector3 {
        const box = this._source.getBoundingInfo().boundingBox;
        this.root.computeWorldMatrix(true);
        return Vector3.TransformCoordinates(box.center, this.root.getWorldMatrix());
    }

    /** The top of the source's surface at the frame shown (world). */
    top(): Vector3 {
        const box = this._source.getBoundingInfo().boundingBox;
        return Vector3.TransformCoordinates(new Vector3(box.center.x, box.maximum.y, box.center.z), this.root.getWorldMatrix());
    }

    /** Shows recorded frame `f` (clamped): both surfaces, normals and error colours. */
    showFrame(f: number): void {
        const r = this._recording;
        const frame = Math.max(0, Math.min(r.frames - 1, Math.floor(f)));
        if (frame === this._frame) return;
        this._frame = frame;
        for (const [mesh, positions] of [
            [this._fitted, r.fitted[frame]],
            [this._source, r.source[frame]],
        ] as const) {
            VertexData.ComputeNormals(positions, r.indices, this._normals);
            if (mesh === this._source) {
                // The source's points a hair outside its surface (along the normals), so they show where the two surfaces coincide.
                const lift = this._outward * SOURCE_LIFT * r.diagonal;
                for (let i = 0; i < positions.length; i++) this._lifted[i] = positions[i] + lift * this._normals[i];
            }
            mesh.updateVerticesData(VertexBuffer.PositionKind, mesh === this._source ? this._lifted : positions);
            mesh.updateVerticesData(VertexBuffer.NormalKind, this._normals);
            mesh.refreshBoundingInfo();
        }
        this._fitted.updateVerticesData(VertexBuffer.ColorKind, ErrorColoursToRef(r.errors[frame], this._colours));
    }

    /** Shows or hides both surfaces. */
    setVisible(fitted: boolean, source: boolean): void {
        this._fitted.isVisible = fitted;
        this._source.isVisible = source;
    }

    dispose(): void {
        this.root.dispose(false, true);
    }
}
