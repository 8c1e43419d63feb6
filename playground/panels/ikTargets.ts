/**
 * "IK and look-at": draggable targets the characters follow, through the animator's world goals
 * (the two hands) and look-at, every frame; the joint-limit set (none, knees and elbows, all); and
 * the limit cone of a picked bone. The targets are placed in front of the first character when
 * switched on; each other character reaches for the same spot relative to itself (the hand targets
 * moved from the first character's shoulders to its own and scaled by their arm lengths), and all
 * look at the one look-at point.
 */
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, HumanBoneNames, HumanIKGoal, JointLimits, JointLimitShapes, MuscleSetup, type JointLimitBoneSet } from "../../src/index.js";
import { CreateElement as element, CreateRow as row } from "../dom.js";
import { DragTargets } from "../dragTargets.js";
import { LimitCone } from "../limitCone.js";
import type { ITarget, Studio } from "../studio.js";
import { InstallIkTestHooks } from "../ikTestHooks.js";
import { CreatePanelSection, type IStudioPanel } from "./panel.js";

/** The hands' world goals: the drag target, the goal, and the bones that place the default spot. */
const HANDS = [
    { name: "leftHand", goal: HumanIKGoal.LeftHand, upper: HumanBone.LeftUpperArm, lower: HumanBone.LeftLowerArm, hand: HumanBone.LeftHand, side: -1 },
    { name: "rightHand", goal: HumanIKGoal.RightHand, upper: HumanBone.RightUpperArm, lower: HumanBone.RightLowerArm, hand: HumanBone.RightHand, side: 1 },
] as const;
/** Look-at weights besides the overall one (Unity's `SetLookAtWeight`): the trunk a little, the head and eyes fully, up to 90 degrees. */
const LOOK_BODY_WEIGHT = 0.3;
const LOOK_HEAD_WEIGHT = 1;
const LOOK_EYES_WEIGHT = 1;
const LOOK_CLAMP_WEIGHT = 0.5;
/** Default hand target, in arm lengths from the shoulder: forward, down, toward the middle (about 0.76 of the reach). */
const HAND_FORWARD = 0.7;
const HAND_DOWN = 0.25;
const HAND_INWARD = 0.15;
/** Default look-at point from the head, metres: in front, and to the character's right so the turn shows. */
const LOOK_FORWARD = 0.8;
const LOOK_SIDE = 0.35;
/** The camera's distance when framing the first character, in its arm lengths. */
const FRAME_RADIUS_ARMS = 5;
/** Frames re-posed while paused after a change (a goal switched off, the limits changed). */
const SETTLE_FRAMES = 2;
/** Seconds between refreshes of the status line. */
const STATUS_SECONDS = 0.25;

/** Rig space to world of a character, into `out`: the rig's own node (samples), or the world it was loaded in, moved with its root. */
function RigToWorldToRef(t: ITarget, out: Matrix): Matrix {
    if (t.rigSpace) out.copyFrom(t.rigSpace.getWorldMatrix());
    else t.rootBindInverse.multiplyToRef(t.root.getWorldMatrix(), out);
    return out;
}

/** The world position of a character's bone (its joint), as last computed. */
const jointPosition = (t: ITarget, bone: HumanBone): Vector3 => t.nodes[t.avatar.getJoint(bone)].getAbsolutePosition().clone();

/** A character's arm length in the world (shoulder to elbow to hand, as it stands), metres. */
function armLength(t: ITarget, h: (typeof HANDS)[number]): number {
    const elbow = jointPosition(t, h.lower);
    return Vector3.Distance(jointPosition(t, h.upper), elbow) + Vector3.Distance(elbow, jointPosition(t, h.hand));
}

/** Builds the panel's section and drives the animators' goals and the drawing every frame. */
export function MountIkTargetsPanel(studio: Studio): IStudioPanel {
    const { scene } = studio.view;
    const section = CreatePanelSection("IK and look-at", { id: "ik-targets" });
    const range = (id: string, value: number): HTMLInputElement =>
        element("input", { id, type: "range", min: "0", max: "1", step: "0.05", value: String(value) });
    const goalsOn = element("input", { id: "ik-goals", type: "checkbox" });
    const weights = [range("ik-left-weight", 1), range("ik-right-weight", 1)];
    const lookOn = element("input", { id: "ik-look", type: "checkbox" });
    const lookWeight = range("ik-look-weight", 1);
    const limits = element("select", { id: "ik-limits" });
    for (const [v, label] of [
        ["none", "none"],
        ["hinges", "knees and elbows"],
        ["all", "all bones"],
    ])
        limits.add(new Option(label, v));
    limits.value = studio.settings.jointLimits;
    const coneTarget = element("select", { id: "ik-cone-target" });
    const coneBone = element("select", { id: "ik-cone-bone" });
    const frame = element("button", { id: "ik-frame", type: "button", textContent: "Frame the first character" });
    const status = element("div", { id: "ik-status", className: "note" });
    section.append(
        element("div", {
            className: "note",
            textContent:
                "Drag the spheres (or the gizmo's arrows) in the view: purple the hand targets, yellow the look-at point. " +
                "Blue lines: the picked bone's limit cone; its line green inside, red outside.",
        }),
        row("World goals: hands", goalsOn),
        row("Left hand weight", weights[0]),
        row("Right hand weight", weights[1]),
        row("Look-at", lookOn),
        row("Look-at weight", lookWeight),
        row("Joint limits", limits),
        row("Limit cone: character", coneTarget),
        row("Limit cone: bone", coneBone),
        frame,
        status,
    );

    const targets = new DragTargets(scene, [
        { name: "lookAt", color: new Color3(0.95, 0.75, 0.05) },
        { name: "leftHand", color: new Color3(0.75, 0.2, 0.9) },
        { name: "rightHand", color: new Color3(0.55, 0.1, 0.7) },
    ]);
    const meshes = HANDS.map((h) => targets.get(h.name).mesh);
    const lookMesh = targets.get("lookAt").mesh;
    const cone = new LimitCone(scene);
    const m = new Matrix();
    /** The first character's shoulders (world, this frame). */
    const shoulder0 = [new Vector3(), new Vector3()];
    /** A character's shoulder (upper-arm joint) in its T-pose, rig space. */
    const shoulderOf = (t: ITarget, h: number): Vector3 => t.avatar.referenceWorld.positions[t.avatar.getJoint(HANDS[h].upper)];
    const offset = new Vector3();
    const goal = new Vector3();
    /** The sliders' values: left and right hand weight, look-at weight (read per frame without touching the DOM). */
    const weight = new Float64Array([1, 1, 1]);
    [...weights, lookWeight].forEach((input, k) => input.addEventListener("input", () => (weight[k] = Number(input.value))));
    /** Each character's arm length (world, measured once): the hand targets scale by it from the first character's. */
    const arms = new WeakMap<ITarget, number>();
    const armOf = (t: ITarget): number => {
        let a = arms.get(t);
        if (a === undefined) arms.set(t, (a = armLength(t, HANDS[1]) || 1));
        return a;
    };
    let settle = 0;
    let statusClock = 0;

    /** The first character's frame as it stands: its forward, right and up in the world (unit). */
    function axesOf(t: ITarget): { forward: Vector3; right: Vector3; up: Vector3 } {
        const c0 = MuscleSetup.For(t.avatar).c0;
        RigToWorldToRef(t, m);
        const dir = (x: number, y: number, z: number): Vector3 => Vector3.TransformNormal(new Vector3(x, y, z).applyRotationQuaternion(c0), m).normalize();
        return { forward: dir(0, 0, 1), right: dir(1, 0, 0), up: dir(0, 1, 0) };
    }

    /** Puts the hand targets (or the look-at point) at their default spots in front of the first character. */
    function placeDefaults(which: "hands" | "look"): void {
        const t = studio.targets[0];
        if (!t) return;
        for (const n of scene.transformNodes) n.computeWorldMatrix(true);
        const { forward, right, up } = axesOf(t);
        if (which === "look") {
            const head = jointPosition(t, HumanBone.Head);
            targets.place("lookAt", head.add(forward.scale(LOOK_FORWARD)).add(right.scale(LOOK_SIDE)));
            return;
        }
        for (const h of HANDS) {
            const shoulder = jointPosition(t, h.upper);
            const arm = armLength(t, h);
            const spot = shoulder
                .add(forward.scale(HAND_FORWARD * arm))
                .subtract(up.scale(HAND_DOWN * arm))
                .subtract(right.scale(h.side * HAND_INWARD * arm));
            targets.place(h.name, spot);
        }
        targets.attachGizmo(meshes[1]);
    }

    frame.addEventListener("click", () => {
        // From the front, the chest in the middle, the arms' reach in view.
        const t = studio.targets[0];
        if (!t) return;
        const camera = studio.view.camera;
        camera.setTarget(jointPosition(t, t.avatar.getJoint(HumanBone.Chest) >= 0 ? HumanBone.Chest : HumanBone.Spine));
        camera.alpha = Math.PI / 2;
        camera.beta = Math.PI / 2.3;
        camera.radius = FRAME_RADIUS_ARMS * armOf(t);
    });
    goalsOn.addEventListener("change", () => {
        if (goalsOn.checked) placeDefaults("hands");
        for (const h of HANDS) targets.setVisible(h.name, goalsOn.checked);
        settle = SETTLE_FRAMES;
    });
    lookOn.addEventListener("change", () => {
        if (lookOn.checked) placeDefaults("look");
        targets.setVisible("lookAt", lookOn.checked);
        if (lookOn.checked && !goalsOn.checked) targets.attachGizmo(lookMesh);
        settle = SETTLE_FRAMES;
    });
    limits.addEventListener("change", () => {
        const mode = limits.value as JointLimitBoneSet;
        studio.settings.jointLimits = mode;
        // As the animator's `jointLimits` option does: the solver's limits, which the world goals' chain IK uses too.
        for (const t of studio.targets) {
            const a = t.animator;
            if (!a) continue;
            a.solver.jointLimits = mode === "none" ? null : new JointLimits(a.avatar, mode);
            a.goals.clamp = a.solver.jointLimits;
        }
        settle = SETTLE_FRAMES;
    });

    function refreshBones(): void {
        const t = studio.targets[Number(coneTarget.value)] ?? null;
        const keep = coneBone.value;
        coneBone.innerHTML = "";
        coneBone.add(new Option("(none)", ""));
        if (t) JointLimitShapes.For(t.avatar).bones.forEach((s, b) => s && coneBone.add(new Option(HumanBoneNames[b], HumanBoneNames[b])));
        coneBone.value = [...coneBone.options].some((o) => o.value === keep) ? keep : "";
        const b = HumanBoneNames.indexOf(coneBone.value);
        cone.select(t, b >= 0 ? (b as HumanBone) : null);
    }
    function refreshTargets(): void {
        const keep = coneTarget.value || "0";
        coneTarget.innerHTML = "";
        studio.targets.forEach((t, i) => coneTarget.add(new Option(t.name, String(i))));
        coneTarget.value = Number(keep) < studio.targets.length ? keep : "0";
        refreshBones();
    }
    coneTarget.addEventListener("change", refreshBones);
    coneBone.addEventListener("change", refreshBones);
    studio.onTargetsChanged.add(refreshTargets);
    refreshTargets();

    function showStatus(): void {
        const parts: string[] = [];
        if (goalsOn.checked) {
            // The farthest any character's hand is from its goal, measured in the world as drawn (the goals'
            // own status is the two-bone IK's, before the joint limits' last pass, which may pull a hand away).
            let worst = 0;
            for (const t of studio.targets) {
                const a = t.animator;
                if (a) for (const h of HANDS) worst = Math.max(worst, Vector3.Distance(jointPosition(t, h.hand), a.goals.positions[h.goal]));
            }
            parts.push(`hands: at most ${(100 * worst).toFixed(1)} cm from their targets`);
        }
        if (cone.target && cone.bone !== null) {
            const held = !!cone.target.animator?.solver.jointLimits?.enabled[cone.bone];
            parts.push(`${HumanBoneNames[cone.bone]}: ${cone.inside ? "inside" : "outside"} its cone, ${held ? "held" : "not held"} by the limits`);
        }
        status.textContent = parts.join("; ");
    }

    function update(dt: number): void {
        const list = studio.targets;
        if (!list.length) return;
        RigToWorldToRef(list[0], m);
        for (let h = 0; h < HANDS.length; h++) Vector3.TransformCoordinatesToRef(shoulderOf(list[0], h), m, shoulder0[h]);
        const arm0 = armOf(list[0]);
        const goals = goalsOn.checked;
        const look = lookOn.checked;
        const paused = !studio.playing || !studio.source;
        for (let i = 0; i < list.length; i++) {
            const t = list[i];
            const a = t.animator;
            if (!a) continue;
            // The hand targets move with each character: from the first one's shoulder (T-pose, where the
            // character stands now) to its own, scaled by the arm lengths, so a spot the first one reaches
            // every other one reaches too; the look-at point is shared.
            RigToWorldToRef(t, m);
            const k = armOf(t) / arm0;
            for (let h = 0; h < HANDS.length; h++) {
                Vector3.TransformCoordinatesToRef(shoulderOf(t, h), m, offset);
                meshes[h].position.subtractToRef(shoulder0[h], goal).scaleInPlace(k).addInPlace(offset);
                a.goals.setPosition(HANDS[h].goal, goal, goals ? weight[h] : 0);
            }
            a.lookAt.position.copyFrom(lookMesh.position);
            // The weights as `setWeights` would set them (all within 0..1 here), field by field: no call per frame.
            const l = a.lookAt;
            l.weight = look ? weight[2] : 0;
            l.bodyWeight = LOOK_BODY_WEIGHT;
            l.headWeight = LOOK_HEAD_WEIGHT;
            l.eyesWeight = LOOK_EYES_WEIGHT;
            l.clampWeight = LOOK_CLAMP_WEIGHT;
            // Paused, nothing else poses the characters: pose them here, at the clip's time (or the muscle sliders' pose).
            if (paused && (goals || look || settle > 0)) {
                if (studio.posingByMuscles) a.applyPose(studio.musclePose, studio.source?.clip.proportions ?? null);
                else {
                    a.lookAt.reset();
                    a.update(0);
                }
            }
        }
        if (settle > 0) settle--;
        cone.update();
        statusClock += dt;
        if (statusClock >= STATUS_SECONDS) {
            statusClock = 0;
            showStatus();
        }
    }

    InstallIkTestHooks(studio, targets, cone);
    return { name: "ik-targets", update };
}
