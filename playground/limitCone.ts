/**
 * The limit cone of one bone of one character, drawn every frame: the boundary of the bone's swing
 * polygon (`JointLimitShapes`: the directions the bone may point in, relative to its parent) as a
 * closed line at the bone's joint, in the parent's frame as it is now, scaled to the bone's length,
 * with spokes from the joint; and the bone's current direction as a line, green inside the polygon
 * and red outside.
 *
 * Frames (docs/runtime.md, joint limits): a polygon direction `d` is canonical (the bone's `Q_b t`);
 * with `L0` the joint's T-pose local rotation and `K = c0^-1 W0` (`MuscleSetup.tposeCanonical`),
 * `L0 K^-1 d` is that direction in the parent joint's frame (since `L = L0 K^-1 Q K` and
 * `K^-1 t` is the bone's own axis), and the parent's world matrix takes it to the world. The
 * current direction is `L K^-1 t` in the parent's frame; `K L0^-1` of it is tested against the
 * polygon. Everything per frame reuses the arrays made in {@link select}.
 */
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateLineSystem } from "@babylonjs/core/Meshes/Builders/linesBuilder.js";
import type { LinesMesh } from "@babylonjs/core/Meshes/linesMesh.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { JointLimitShapes, MuscleSetup, type HumanBone, type HumanoidAvatar, type SphericalPolygon } from "../src/index.js";
import type { ITarget } from "./studio.js";

/** Points per polygon edge (its great-circle arc drawn as chords). */
const ARC_STEPS = 4;
/** A spoke from the joint to every this many polygon vertices. */
const SPOKE_EVERY = 4;
/** Length of the cone of a bone without a child joint to measure, metres. */
const FALLBACK_LENGTH = 0.08;
const IDENTITY = Matrix.Identity();
const NO_TURN = Quaternion.Identity();
const CONE_COLOR = new Color3(0.1, 0.55, 0.95);
const INSIDE_COLOR = new Color3(0.1, 0.75, 0.2);
const OUTSIDE_COLOR = new Color3(0.9, 0.1, 0.1);

/** The limit cone drawing (one bone at a time). */
export class LimitCone {
    /** The boundary loop and spokes, or null when nothing is selected. */
    cone: LinesMesh | null = null;
    /** The bone's current direction, or null. */
    direction: LinesMesh | null = null;
    /** Whether the bone's current direction was inside its polygon at the last {@link update}. */
    inside = true;
    /** The character shown (null: none). */
    target: ITarget | null = null;
    /** The bone shown (null: none). */
    bone: HumanBone | null = null;

    private _avatar: HumanoidAvatar | null = null;
    private _polygon: SphericalPolygon | null = null;
    /** Boundary and spoke-end directions in the parent joint's frame (unit, constant per selection), x y z each. */
    private _local = new Float64Array(0);
    /** Nodes from the top ancestor down to the joint's child (or the joint): recomputed in order each frame. */
    private _chain: TransformNode[] = [];
    private _joint: TransformNode | null = null;
    private _child: TransformNode | null = null;
    private _parent: TransformNode | null = null;
    /** `K^-1 t`: the bone's own axis; `K L0^-1`: parent frame -> canonical. */
    private readonly _axis = new Vector3();
    private readonly _toCanonical = new Quaternion();
    /** The line system's lines (the loop, then the spokes) and the direction line: Vector3s written in place. */
    private _lines: Vector3[][] = [];
    private readonly _dirLines: Vector3[][] = [[new Vector3(), new Vector3()]];
    /** The options of the per-frame updates of the two line systems (made once per selection). */
    private _coneUpdate: { lines: Vector3[][]; instance: LinesMesh } | null = null;
    private _directionUpdate: { lines: Vector3[][]; instance: LinesMesh } | null = null;
    private readonly _origin = new Vector3();
    private readonly _v = new Vector3();
    private readonly _d = new Vector3();

    /** @param _scene the scene to draw in */
    constructor(private readonly _scene: Scene) {}

    /** The joint node of the bone shown (null: none). */
    get jointNode(): TransformNode | null {
        return this.cone ? this._joint : null;
    }

    /** The child joint node that measures the bone's length (null: none, or no child). */
    get childNode(): TransformNode | null {
        return this.cone ? this._child : null;
    }

    /** Shows the cone of `bone` on `target` (null for either: none). Cold path: builds the meshes. */
    select(target: ITarget | null, bone: HumanBone | null): void {
        this.cone?.dispose();
        this.direction?.dispose();
        this.cone = this.direction = null;
        this._coneUpdate = this._directionUpdate = null;
        this.target = target;
        this.bone = bone;
        this._avatar = target?.avatar ?? null;
        const shape = target && bone !== null ? JointLimitShapes.For(target.avatar).bones[bone] : null;
        if (!target || bone === null || !shape) return;
        const avatar = target.avatar;
        const setup = MuscleSetup.For(avatar);
        const j = setup.joint[bone];
        const rig = avatar.rig;
        this._polygon = shape.polygon;
        this._joint = target.nodes[j];
        this._parent = setup.rigParent[j] >= 0 ? target.nodes[setup.rigParent[j]] : (this._joint.parent as TransformNode | null);
        // The child joint most in line with the bone's T-pose direction measures its length.
        const axisRig = setup.twistAxis[bone].applyRotationQuaternion(setup.c0);
        const ref = avatar.referenceWorld.positions;
        let best = -1;
        let bestDot = 1e-6;
        rig.joints.forEach((joint, k) => {
            if (joint.parent !== j) return;
            const along = Vector3.Dot(ref[k].subtract(ref[j]), axisRig);
            if (along > bestDot) {
                best = k;
                bestDot = along;
            }
        });
        this._child = best >= 0 ? target.nodes[best] : null;
        this._chain = [];
        for (let n: TransformNode | null = this._child ?? this._joint; n; n = n.parent as TransformNode | null) this._chain.unshift(n);
        // Constant rotations: canonical -> parent frame (L0 K^-1) and back; the bone's own axis K^-1 t.
        const k = setup.tposeCanonical[bone];
        const kInv = Quaternion.Inverse(k);
        const toParent = avatar.referencePose.rotations[j].multiply(kInv);
        Quaternion.InverseToRef(toParent, this._toCanonical);
        setup.twistAxis[bone].applyRotationQuaternionToRef(kInv, this._axis);
        // The boundary: every edge's arc in ARC_STEPS chords, closed; then the spokes' ends.
        const p = shape.polygon;
        const n = p.vertexCount;
        const spokes = Math.ceil(n / SPOKE_EVERY);
        const loopPoints = n * ARC_STEPS + 1;
        this._local = new Float64Array(3 * (loopPoints + spokes));
        const vertex = (i: number): Vector3 => Vector3.FromArray(p.vertices, 3 * (i % n));
        const put = (i: number, d: Vector3): void => {
            const q = d.applyRotationQuaternion(toParent).normalize();
            this._local.set([q.x, q.y, q.z], 3 * i);
        };
        for (let e = 0; e < n; e++) for (let s = 0; s < ARC_STEPS; s++) put(e * ARC_STEPS + s, Vector3.Lerp(vertex(e), vertex(e + 1), s / ARC_STEPS));
        put(n * ARC_STEPS, vertex(0));
        for (let s = 0; s < spokes; s++) put(loopPoints + s, vertex(s * SPOKE_EVERY));
        const loop: Vector3[] = [];
        for (let i = 0; i < loopPoints; i++) loop.push(new Vector3());
        this._lines = [loop];
        for (let s = 0; s < spokes; s++) this._lines.push([this._origin, new Vector3()]);
        this.cone = CreateLineSystem(`limit-cone-${target.name}`, { lines: this._lines, updatable: true }, this._scene);
        this.cone.color = CONE_COLOR;
        this.direction = CreateLineSystem(`limit-direction-${target.name}`, { lines: this._dirLines, updatable: true }, this._scene);
        for (const m of [this.cone, this.direction]) {
            m.renderingGroupId = 1;
            m.isPickable = false;
            // Its vertices move every frame; its bounding box would not follow.
            m.alwaysSelectAsActiveMesh = true;
        }
        this._coneUpdate = { lines: this._lines, instance: this.cone };
        this._directionUpdate = { lines: this._dirLines, instance: this.direction };
        this.update();
    }

    /** Moves the drawing onto the bone as it stands now (after the pose was written). Allocation-free apart from Babylon's update of the lines. */
    update(): void {
        const target = this.target;
        const coneUpdate = this._coneUpdate;
        const directionUpdate = this._directionUpdate;
        if (!target || !coneUpdate || !directionUpdate || !this._joint || !this._polygon) return;
        if (target.avatar !== this._avatar) {
            // The avatar was rebuilt (bone map, ranges): its shapes changed; select again.
            this.select(target, this.bone);
            return;
        }
        const chain = this._chain;
        for (let i = 0; i < chain.length; i++) chain[i].computeWorldMatrix(true);
        const origin = this._origin;
        origin.copyFrom(this._joint.getAbsolutePosition());
        const length = this._child ? Vector3.Distance(origin, this._child.getAbsolutePosition()) : FALLBACK_LENGTH;
        const world = this._parent ? this._parent.getWorldMatrix() : IDENTITY;
        const local = this._local;
        const v = this._v;
        const lines = this._lines;
        const loop = lines[0];
        const loopPoints = loop.length;
        for (let i = 0; i < local.length / 3; i++) {
            v.set(local[3 * i], local[3 * i + 1], local[3 * i + 2]);
            const out = i < loopPoints ? loop[i] : lines[1 + i - loopPoints][1];
            this._toWorld(v, world, length, out);
        }
        CreateLineSystem("", coneUpdate, this._scene);
        // The current direction: L K^-1 t in the parent's frame; K L0^-1 of it tested against the polygon.
        const d = this._d;
        this._axis.applyRotationQuaternionToRef(this._joint.rotationQuaternion ?? NO_TURN, d);
        const line = this._dirLines[0];
        line[0].copyFrom(origin);
        this._toWorld(d, world, length * 1.1, line[1]);
        d.applyRotationQuaternionInPlace(this._toCanonical);
        this.inside = this._polygon.containsDirection(d);
        directionUpdate.instance.color.copyFrom(this.inside ? INSIDE_COLOR : OUTSIDE_COLOR);
        CreateLineSystem("", directionUpdate, this._scene);
    }

    /** `origin + length * normalize(dir in the parent's frame, to the world)` into `out`. */
    private _toWorld(dir: Vector3, world: Matrix, length: number, out: Vector3): void {
        Vector3.TransformNormalToRef(dir, world, out);
        const l = out.length();
        out.scaleInPlace(l > 0 ? length / l : 0).addInPlace(this._origin);
    }

    /** Removes the drawing. */
    dispose(): void {
        this.select(null, null);
    }
}
