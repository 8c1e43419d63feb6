import { Observable } from "@babylonjs/core/Misc/observable.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { ClipProportionsToArray, type IClipProportions } from "../clip/clipProportions.js";
import type { MuscleClip } from "../clip/muscleClip.js";
import { HumanoidError } from "../errors.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { JointLimits } from "../ik/jointLimits.js";
import { HumanIKGoal, type HumanPose } from "../muscle/humanPose.js";
import { QuaternionMultiplyToRef, QuaternionRotationAxisToRef, Vector3CopyToRef } from "../math/hotMath.js";
import { MuscleSetup } from "../muscle/setup.js";
import { TranslationDofBones } from "../muscle/translationDof.js";
import { HumanoidClipPlayer } from "../runtime/clipPlayer.js";
import type { IClipPlayOptions } from "../runtime/clipPlayOptions.js";
import { type HumanBodyPart } from "../runtime/bodyParts.js";
import { type HumanoidClipState } from "../runtime/clipLayer.js";
import { HumanoidFootPlanting } from "../runtime/footPlanting.js";
import { DEFAULT_CONTACT_BLEND_SECONDS, FLOOR_EASE_SECONDS } from "../runtime/plantingEases.js";
import { HumanoidRigSolver } from "../runtime/rigSolver.js";
import { HumanoidLookAt } from "../runtime/lookAt.js";
import { HumanoidWorldGoals } from "../runtime/worldGoals.js";
import { BoundRigToWorldToRef } from "../io/babylonRig.js";
import { HumanoidRigWriter, type HumanoidTargets } from "./rigTargets.js";
import { AnimatorStretchOption, AnimatorWeightOption, CheckAnimatorOptions, type IHumanoidAnimatorOptions } from "./animatorOptions.js";
import { HumanoidScenePlugin, RegisterHumanoidPlugin } from "./humanoidScenePlugin.js";

/** Root motion of one frame, for `rootMotion: "delta"` (also filled in the other modes). */
export interface IHumanoidRootMotion {
    /** Travel this frame, rig space (the character's own frame as loaded), metres. */
    readonly deltaPosition: Vector3;
    /** Turn this frame about the character's up axis, radians. */
    deltaYaw: number;
}

const tmpV = new Vector3();
const tmpV2 = new Vector3();
const tmpQ = new Quaternion();
const ONE = Vector3.One();
const UP = new Vector3(0, 1, 0);

/**
 * Plays muscle clips on one character, every frame: samples and blends the clips (layers with
 * body-part masks, cross-fades), handles root motion, decodes onto the character's avatar (body
 * placed by its centre of mass and orientation, scaled to the character), moves feet (and hands)
 * onto the clip's IK goals with squash-and-stretch, holds planted feet, and writes the character's
 * nodes. The per-frame path ({@link update}) never throws, logs or allocates.
 *
 * ```ts
 * RegisterHumanoidPlugin(scene);
 * const animator = new HumanoidAnimator(avatar, nodes, { scene });
 * animator.play(clip);
 * ```
 * `nodes` is the scene object of every rig joint (`BindRigToTransformNode(root).nodes` for the rig
 * the avatar was built from). Stopping leaves the character as it is (no snap to the rest pose).
 */
export class HumanoidAnimator {
    /** The avatar played on. */
    public readonly avatar: HumanoidAvatar;
    /** Clips, layers, blending and root motion. */
    public readonly player: HumanoidClipPlayer;
    /** Decode and limb IK (weights, stretch and each limb's status are on it). */
    public readonly solver: HumanoidRigSolver;
    /** Foot planting (set `enabled` false to switch off). */
    public readonly planting: HumanoidFootPlanting;
    /** Whether planted feet are held. */
    public footPlanting: boolean;
    /**
     * Goals the program sets (Unity's `SetIKPosition`/`SetIKRotation`/`SetIKHintPosition` and
     * weights), in the scene's world space, solved every frame after the clip, its IK and planting.
     * Made on first use (with {@link lookAt}): an animator whose program never sets a goal or a
     * look-at point does without their state (about 40 KB).
     */
    public get goals(): HumanoidWorldGoals {
        if (!this._goals) this._makeGoalsAndLookAt();
        return this._goals!;
    }
    /**
     * Look-at (Unity's `SetLookAtPosition`/`SetLookAtWeight`), the point in the scene's world
     * space. Made on first use, with {@link goals}.
     */
    public get lookAt(): HumanoidLookAt {
        if (!this._lookAt) this._makeGoalsAndLookAt();
        return this._lookAt!;
    }
    /** The world goals and look-at once made (see {@link goals}); null until then. */
    private _goals: HumanoidWorldGoals | null = null;
    /** The limits the animator last gave the world goals (the solver's): while `goals.clamp` is still these, it follows the solver's. */
    private _goalsClamp: JointLimits | null = null;
    private _lookAt: HumanoidLookAt | null = null;
    /** This frame's root motion (rig space). */
    public readonly rootMotionDelta: IHumanoidRootMotion = { deltaPosition: new Vector3(), deltaYaw: 0 };
    /** Root motion each frame a clip plays (`"delta"` mode hands it over here). */
    public readonly onRootMotionObservable = new Observable<IHumanoidRootMotion>();
    /** Set by {@link dispose}. */
    public isDisposed = false;
    private readonly _writer: HumanoidRigWriter;
    private readonly _setup: MuscleSetup;
    private readonly _rootNode: TransformNode | null;
    /** The root node's local rotation and position at the last re-anchoring. */
    private readonly _rootStart = { q: new Quaternion(), p: new Vector3() };
    /**
     * Y = (rig space -> the root's parent space) * inverse(the root's rigid local transform), as
     * bound, and its inverse: the root node moves by `Y^-1 * G * Y` after its start transform, G
     * being the root motion in rig space (row-vector matrices, Babylon's order).
     */
    private readonly _y = new Matrix();
    private readonly _yInverse = new Matrix();
    private readonly _m = [new Matrix(), new Matrix(), new Matrix()];
    private readonly _scaleOut = new Vector3();
    private _scene: Scene | null = null;
    /** Numbers handed over without boxing: [0] the root's turn. */
    private readonly _num = new Float64Array(1);
    /** `rootWorld(bound) * inverse(rigToWorld)`: with the root's world now, what turns the scene's world into rig space. */
    private readonly _rootBoundToRig = new Matrix();
    private readonly _worldToRig = new Matrix();
    private readonly _zeroStep = new Float64Array(1);
    /** The span, seconds, over which a foot's ground share eases (the contact blend), handed to the player. */
    private readonly _groundSpan = new Float64Array(1);

    /**
     * @param avatar the character's avatar
     * @param targets the scene object of every rig joint, in `avatar.rig.joints` order
     * @param options scene, root motion, IK, stretch, planting
     */
    constructor(avatar: HumanoidAvatar, targets: HumanoidTargets, options: IHumanoidAnimatorOptions = {}) {
        CheckAnimatorOptions(options);
        this.avatar = avatar;
        this._setup = MuscleSetup.For(avatar);
        // The player refuses a root-motion mode it does not know (the first thing built).
        this.player = new HumanoidClipPlayer(options.rootMotion ?? "in-place");
        this.solver = new HumanoidRigSolver(avatar);
        const foot = AnimatorWeightOption(options.footIK, 1, "footIK");
        const hand = AnimatorWeightOption(options.handIK, 0, "handIK");
        this.solver.positionWeights.set([foot, foot, hand, hand]);
        this.solver.rotationWeights.set([foot, foot, hand, hand]);
        const st = options.stretch;
        const legs = AnimatorStretchOption(typeof st === "number" ? st : st?.legs, "stretch.legs");
        const arms = AnimatorStretchOption(typeof st === "number" ? st : st?.arms, "stretch.arms");
        this.solver.stretch.set([legs, legs, arms, arms]);
        const proportions = options.proportions ?? "legs";
        if (proportions !== "legs" && proportions !== "com") {
            throw new HumanoidError("BAD_OPTION", `proportions must be "legs" or "com" (got ${JSON.stringify(proportions)})`);
        }
        this.solver.proportions = proportions;
        this.solver.translationDoF = options.translationDoF ?? true;
        const limits = options.jointLimits ?? true;
        if (limits !== false && limits !== "none") this.solver.jointLimits = new JointLimits(avatar, limits === true ? undefined : limits);
        this.planting = new HumanoidFootPlanting(avatar);
        this.planting.blendSeconds = options.contactBlendSeconds ?? DEFAULT_CONTACT_BLEND_SECONDS;
        this.footPlanting = options.footPlanting ?? true;
        // Joints decode writes (the hips and everything it places below them), positions of the hips and the limb chains.
        const setup = this._setup;
        const joints: number[] = [];
        for (const j of setup.fkJoints) if (setup.belowHips[j]) joints.push(j);
        const positions = new Set<number>([setup.joint[HumanBone.Hips]]);
        for (let g = 0; g < 4; g++) {
            const u = this.solver.ik.upperJoint(g);
            const e = this.solver.ik.endJoint(g);
            for (let j = e; j !== u && j >= 0; j = avatar.rig.joints[j].parent) positions.add(j);
        }
        // ... and of the bones with a translation DoF (decode moves them when a clip does).
        for (const b of TranslationDofBones) if (setup.joint[b] >= 0) positions.add(setup.joint[b]);
        this._writer = new HumanoidRigWriter(avatar, targets, joints, positions, options.rigSpace);
        // Root node for "apply".
        const hipsTarget = targets[setup.joint[HumanBone.Hips]] as TransformNode | null | undefined;
        let root: TransformNode | null = options.rootNode ?? null;
        if (!root && hipsTarget && typeof (hipsTarget as TransformNode).computeWorldMatrix === "function") {
            root = hipsTarget;
            while (root.parent && typeof (root.parent as TransformNode).computeWorldMatrix === "function") root = root.parent as TransformNode;
        }
        this._rootNode = root;
        // The world -> rig space of goals and look-at: rig = world * inverse(rootWorldNow) * rootWorld(bound) * inverse(rigToWorld).
        // Rig space in the world as it stands now: the rig's own node; else, for nodes bound from
        // the scene, where the node they were read under has moved since the binding; else the
        // world itself.
        const rigToWorldBound = options.rigSpace ? options.rigSpace.computeWorldMatrix(true).clone() : Matrix.Identity();
        if (!options.rigSpace) BoundRigToWorldToRef(targets, rigToWorldBound);
        const rootWorldBound = root ? root.computeWorldMatrix(true).clone() : Matrix.Identity();
        rootWorldBound.multiplyToRef(Matrix.Invert(rigToWorldBound), this._rootBoundToRig);
        if (root) {
            if (!root.rotationQuaternion) root.rotationQuaternion = Quaternion.FromEulerVector(root.rotation);
            // Rig space -> world (as above); then -> the root's parent.
            const parent = root.parent as TransformNode | null;
            const parentWorld = parent && typeof parent.computeWorldMatrix === "function" ? parent.computeWorldMatrix(true) : Matrix.Identity();
            const rigToParent = rigToWorldBound.multiply(Matrix.Invert(parentWorld));
            const rootRigid = Matrix.Compose(Vector3.One(), root.rotationQuaternion, root.position);
            rigToParent.multiplyToRef(Matrix.Invert(rootRigid), this._y);
            this._y.invertToRef(this._yInverse);
        }
        if (options.scene) this.attachToScene(options.scene);
    }

    /** The scene the animator runs in, if any. */
    public get scene(): Scene | null {
        return this._scene;
    }

    /** Runs the animator on a scene's frames (registers the plugin there). */
    public attachToScene(scene: Scene): void {
        this._checkNotDisposed("attachToScene");
        if (this._scene === scene) return;
        this.detachFromScene();
        RegisterHumanoidPlugin(scene)._add(this);
        this._scene = scene;
    }

    /** Stops running on the scene's frames (the character stays as it is). */
    public detachFromScene(): void {
        if (!this._scene) return;
        HumanoidScenePlugin.For(this._scene)?._remove(this);
        this._scene = null;
    }

    /** A clip looped on some layer. */
    public get onLoopObservable(): Observable<HumanoidClipState> {
        return this.player.onLoopObservable;
    }

    /** A clip that does not loop reached its end. */
    public get onEndObservable(): Observable<HumanoidClipState> {
        return this.player.onEndObservable;
    }

    /** Plays a clip now on a layer (default the base layer), replacing what it played. */
    public play(clip: MuscleClip, options?: IClipPlayOptions, layer = 0): HumanoidClipState {
        this._checkNotDisposed("play");
        return this.player.play(clip, options, layer);
    }

    /** Throws when the animator is disposed (it would take the call and never play). */
    private _checkNotDisposed(call: string): void {
        if (this.isDisposed) throw new HumanoidError("BAD_OPTION", `${call}: the animator is disposed`);
    }

    /** Fades a clip in over `seconds` while the layer's other clips fade out. */
    public crossFade(clip: MuscleClip, seconds: number, options?: IClipPlayOptions, layer = 0): HumanoidClipState {
        this._checkNotDisposed("crossFade");
        return this.player.crossFade(clip, seconds, options, layer);
    }

    /** Adds a layer above the others, limited to some body parts (all when not given). Returns its index. */
    public addLayer(weight = 1, parts?: readonly HumanBodyPart[]): number {
        return this.player.addLayer(weight, parts);
    }

    /** Stops a layer (every layer when not given); the character keeps its last pose. */
    public stop(layer?: number): void {
        this.player.stop(layer);
    }

    /** Moves every clip to a time, seconds from its start. */
    public seek(seconds: number): void {
        this.player.seek(seconds);
    }

    /** Whether any clip plays. */
    public get isPlaying(): boolean {
        return this.player.isPlaying;
    }

    /**
     * Advances by `deltaSeconds` and poses the character. Never throws, logs or allocates; does
     * nothing when no clip plays.
     */
    public update(deltaSeconds: number): void {
        // One clean time step for every part (NaN, infinite or negative steps count as 0): the
        // player's, read from its array so that no number is boxed on the way.
        if (this.isDisposed || !this.player.update(deltaSeconds)) return;
        const player = this.player;
        const solver = this.solver;
        solver.sourceProportions.set(player.proportions);
        // A jump (a seek, a new clip) forgets the body's smoothing before decoding, whose steps use it.
        if (player.jumped) solver.resetSmoothing();
        // The stride's carry starts afresh with the motion, and, where the body goes where the clip
        // puts it, jumps back with it at a loop.
        if (player.restarted || (player.looped && player.rootMotion === "clip")) solver.resetCarry();
        // How much each foot stands on the ground by the clip's contacts, eased over the contact blend.
        this._groundSpan[0] = this.planting.blendSeconds;
        player.groundSharesToRef(this._groundSpan, 0, solver.footGroundShare);
        // The stride's carry weighs each foot by that share while planting is on, eased over at
        // least the height's ease (a blend of 0 makes the share a step, which turned the body's
        // velocity round in a frame at every landing of a spin).
        if (!this.footPlanting) solver.footCarryWeight.fill(0);
        else if (this.planting.blendSeconds >= FLOOR_EASE_SECONDS) solver.footCarryWeight.set(solver.footGroundShare);
        else {
            this._groundSpan[0] = FLOOR_EASE_SECONDS;
            player.groundSharesToRef(this._groundSpan, 0, solver.footCarryWeight);
        }
        // The stride's carry moves the body where the body goes where the clip puts it, and else
        // the ground under it (before planting holds the feet on that ground).
        solver.carryBody = player.rootMotion === "clip";
        solver.groundYaw[0] = player.groundRoot[2] - player.shownRoot[2];
        this._noteArmGoals();
        solver.decode(player.pose, player.step);
        if (!solver.carryBody && (solver.carry[0] !== 0 || solver.carry[1] !== 0)) this._carryGround();
        if (this.footPlanting && (solver.positionWeights[0] > 0 || solver.positionWeights[1] > 0)) {
            this.planting.update(player, solver);
        } else {
            // Planting off (or no foot IK): a foot it held is let go, so that turning it back on
            // later starts afresh rather than from where the foot was then.
            const planting = this.planting;
            if (player.jumped || planting.holding) planting.reset();
            solver.clearFootHolds();
        }
        if (player.jumped && this._lookAt) this._lookAt.reset();
        solver.solveIK(0, player.step);
        // Root motion first, so that world goals are read where the character now is; the joint
        // limits last, so that nothing before them bends a knee backwards.
        this._rootMotion();
        this._worldGoals(player.step);
        // A limit that held a limb back leaves it short of its world goal: its status says so.
        if (solver.applyJointLimits() && this._goals && this._goals.active) this._goals.measure(solver);
        this._writer.write(solver.pose, this.avatar.rig);
        player.clearJump();
    }

    /**
     * Poses the character from a {@link HumanPose} directly (as Unity's `HumanPoseHandler.SetHumanPose`),
     * with the animator's IK settings; the goals are the pose's own, then the world goals and
     * look-at (not smoothed), no planting, no root motion; the next {@link update} starts the body's
     * smoothing afresh.
     * Clips keep their time: the next {@link update} poses from them again. Never throws, logs or allocates.
     * @param pose the pose (canonical frame, avatar scales)
     * @param proportions the source proportions to decode it with (the `proportions` of the clip it
     * was sampled from, which {@link play} decodes that clip with); default none: the pose decodes
     * as from a clip without them, whatever played before (with the last clip's, a knee differed
     * by 13 degrees between an animator that had played a clip and a fresh one)
     */
    public applyPose(pose: HumanPose, proportions: IClipProportions | null = null): void {
        if (this.isDisposed) return;
        // The next update takes the player's own again.
        ClipProportionsToArray(proportions, this.solver.sourceProportions);
        this.solver.resetSmoothing();
        // A pose has no contacts: every foot's height is the pose's, and none is held (what
        // planting left from a clip played before would keep its floor limit on the legs).
        this.solver.footGroundShare.fill(1);
        this.solver.footCarryWeight.fill(0);
        this.solver.clearFootHolds();
        // A pose set directly is no step of the motion: no stride's carry.
        this.solver.carryBody = false;
        this._noteArmGoals();
        this.solver.decode(pose);
        this.solver.solveIK(0);
        if (this._lookAt) this._lookAt.reset();
        this._worldGoals(this._zeroStep);
        if (this.solver.applyJointLimits() && this._goals && this._goals.active) this._goals.measure(this.solver);
        this._writer.write(this.solver.pose, this.avatar.rig);
        // Nothing of it goes on into the next update's smoothing or carry (a pose that is not
        // finite left the body's filters NaN for good).
        this.solver.resetSmoothing();
    }

    /** The world goals' hand weights, for the solver's elbows (`HumanoidRigSolver.armGoalWeights`). */
    private _noteArmGoals(): void {
        const goals = this._goals;
        const w = this.solver.armGoalWeights;
        w[0] = goals ? goals.positionWeights[HumanIKGoal.LeftHand] : 0;
        w[1] = goals ? goals.positionWeights[HumanIKGoal.RightHand] : 0;
    }

    /** The world goals and look-at, made on first use (never by the per-frame path, which skips them until then). */
    private _makeGoalsAndLookAt(): void {
        this._goals = new HumanoidWorldGoals(this.avatar);
        // The chain IK of the world goals moves the trunk within the same joint limits.
        this._goals.clamp = this._goalsClamp = this.solver.jointLimits ?? null;
        this._lookAt = new HumanoidLookAt(this.avatar);
    }

    /** World goals and look-at on the solved pose (after the clip's IK and planting): their world space turned into rig space as the character stands now. */
    private _worldGoals(step: Float64Array): void {
        const goals = this._goals;
        const lookAt = this._lookAt;
        // Both are made together (see `goals`): neither made, nothing to do.
        if (!goals || !lookAt || (!goals.active && !lookAt.active)) return;
        // The trunk's chain IK within the solver's joint limits as they are now (set after the
        // goals were made, they were kept at the old ones), unless the caller gave the goals
        // limits of their own.
        if (goals.clamp === this._goalsClamp) goals.clamp = this._goalsClamp = this.solver.jointLimits;
        const m = this._worldToRig;
        const root = this._rootNode;
        if (root) {
            // The root's world matrix as it stands: recomputed (forced) only when something may
            // have changed it since it was last computed; else Babylon's own, the same numbers. A
            // forced computation marks every child of the root out of date (its child update id),
            // and the scene then recomputed the character's meshes' world matrices and bounding
            // boxes every frame, though the root had not moved.
            const world = root.isSynchronized() && !(root as unknown as { _isDirty: boolean })._isDirty ? root.getWorldMatrix() : root.computeWorldMatrix(true);
            world.invertToRef(m);
            m.multiplyToRef(this._rootBoundToRig, m);
        } else {
            m.copyFrom(this._rootBoundToRig);
        }
        goals.goalSpaceToRig.copyFrom(m);
        lookAt.goalSpaceToRig.copyFrom(m);
        goals.apply(this.solver, lookAt, step);
    }

    /**
     * The stride's carry of this update (`HumanoidRigSolver.carry`, the shown frame) as travel: added
     * to the player's root delta (so a root node or the caller moves by it, `"apply"` and
     * `"delta"`) and to its ground root (so planting holds the feet on a ground that moved by it
     * under the body, which stays where the clip puts it). Written out: no number crosses a call.
     */
    private _carryGround(): void {
        const player = this.player;
        const c = this.solver.carry;
        const sr = player.shownRoot;
        const gr = player.groundRoot;
        const d = player.rootDelta;
        // turn(v, a) = (x cos a + z sin a, -x sin a + z cos a), Babylon's turn about +Y; the root's
        // own frame turned by the shown yaw is the shown frame, so the delta is the step turned
        // back by it; the ground frame is the shown one turned by the ground's yaw less the shown's.
        let cs = Math.cos(sr[2]);
        let sn = Math.sin(sr[2]);
        d[0] += c[0] * cs - c[1] * sn;
        d[1] += c[0] * sn + c[1] * cs;
        cs = Math.cos(gr[2] - sr[2]);
        sn = Math.sin(gr[2] - sr[2]);
        gr[0] += c[0] * cs + c[1] * sn;
        gr[1] += -c[0] * sn + c[1] * cs;
    }

    /** The frame's root motion: the delta for the caller, and the root node in "apply" mode. */
    private _rootMotion(): void {
        // Babylon's arithmetic through `hotMath` and written out: no number crosses a call (V8
        // boxes those it does not inline, which allocates).
        const setup = this._setup;
        const player = this.player;
        const d = player.rootDelta;
        const sr = player.shownRoot;
        // The travel scales as the feet do (the legs, or the centre of mass: solver.proportions).
        const scale = this.solver.positionScale[0];
        // Delta: the root's own frame -> the shown frame (canonical) -> rig space, metres.
        const c = Math.cos(sr[2]);
        const s = Math.sin(sr[2]);
        tmpV.x = (d[0] * c + d[1] * s) * scale;
        tmpV.y = 0;
        tmpV.z = (-d[0] * s + d[1] * c) * scale;
        tmpV.applyRotationQuaternionToRef(setup.c0, this.rootMotionDelta.deltaPosition);
        this.rootMotionDelta.deltaYaw = d[2];
        this.onRootMotionObservable.notifyObservers(this.rootMotionDelta);
        const root = this._rootNode;
        if (player.rootMotion !== "apply" || !root) return;
        if (player.jumped) {
            this._rootStart.q.copyFrom(root.rotationQuaternion!);
            Vector3CopyToRef(root.position, this._rootStart.p);
        }
        // G (canonical) = A * S^-1: turn by gamma = A.yaw - S.yaw, then move so S lands on A.
        const gr = player.groundRoot;
        const num = this._num;
        const gamma = (num[0] = gr[2] - sr[2]);
        const cg = Math.cos(gamma);
        const sg = Math.sin(gamma);
        // t = A.pos - R(gamma) * S.pos
        tmpV.x = (gr[0] - (sr[0] * cg + sr[1] * sg)) * scale;
        tmpV.y = 0;
        tmpV.z = (gr[1] - (-sr[0] * sg + sr[1] * cg)) * scale;
        // Rig space: q = c0 R c0^-1; t' = o - q o + c0 (t * scale).
        QuaternionRotationAxisToRef(UP, num, 0, tmpQ);
        QuaternionMultiplyToRef(setup.c0, tmpQ, tmpQ);
        QuaternionMultiplyToRef(tmpQ, setup.c0Inverse, tmpQ);
        tmpV.applyRotationQuaternionInPlace(setup.c0).addInPlace(setup.groundOrigin);
        setup.groundOrigin.applyRotationQuaternionToRef(tmpQ, tmpV2);
        tmpV.subtractInPlace(tmpV2);
        // The root's new rigid local transform: K = Y^-1 * G * Y * K0.
        const m = this._m;
        const g = m[0];
        const a = m[1];
        const b = m[2];
        Matrix.ComposeToRef(ONE, tmpQ, tmpV, g);
        this._yInverse.multiplyToRef(g, a);
        a.multiplyToRef(this._y, b);
        const k0 = this._rootStart;
        Matrix.ComposeToRef(ONE, k0.q, k0.p, g);
        b.multiplyToRef(g, a);
        a.decompose(this._scaleOut, root.rotationQuaternion!, root.position);
    }

    /** Stops, leaves the scene and frees the observers. The character keeps its last pose. */
    public dispose(): void {
        if (this.isDisposed) return;
        this.detachFromScene();
        this.player.stop();
        this.onRootMotionObservable.clear();
        this.player.onLoopObservable.clear();
        this.player.onEndObservable.clear();
        this.isDisposed = true;
    }
}
