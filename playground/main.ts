import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { CreateLineSystem } from "@babylonjs/core/Meshes/Builders/linesBuilder.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    ComputeRigWorldPose,
    HumanBoneNames,
    HUMAN_BONE_COUNT,
    RigJointKind,
    SampleCharacters,
    type HumanoidAvatar,
    type IRigPose,
} from "../src/index.js";

declare global {
    interface Window {
        __ready?: boolean;
        __info?: Record<string, unknown>;
    }
}

/** Colour per body part, by human bone name. */
function partColor(bone: string): Color3 {
    if (/Thumb|Index|Middle|Ring|Little/.test(bone)) return new Color3(0.9, 0.6, 0.2);
    if (/^left/.test(bone)) return new Color3(0.2, 0.5, 0.95);
    if (/^right/.test(bone)) return new Color3(0.9, 0.25, 0.25);
    return new Color3(0.2, 0.7, 0.3);
}

const canvas = document.getElementById("canvas") as HTMLCanvasElement;
const engine = new Engine(canvas, true, { preserveDrawingBuffer: true });
const scene = new Scene(engine);
scene.clearColor = new Color4(0.95, 0.96, 0.98, 1);
// In front of the characters (they face +Z), so their left is on the screen's right.
const camera = new ArcRotateCamera("camera", Math.PI / 2, Math.PI / 2.3, 4, new Vector3(0, 0.9, 0), scene);
camera.attachControl(canvas, true);
camera.wheelPrecision = 80;
new HemisphericLight("light", new Vector3(0.2, 1, -0.4), scene);
const ground = CreateGround("ground", { width: 6, height: 3 }, scene);
const groundMat = new StandardMaterial("ground", scene);
groundMat.diffuseColor = new Color3(0.85, 0.86, 0.88);
ground.material = groundMat;

let holder: TransformNode | null = null;

/** Draws a rig pose as lines and joint spheres, offset along X. */
function drawPose(avatar: HumanoidAvatar, pose: IRigPose | undefined, offsetX: number, parent: TransformNode): void {
    const rig = avatar.rig;
    const w = ComputeRigWorldPose(rig, pose).positions;
    const lowest = Math.min(...w.map((p) => p.y));
    const shift = new Vector3(offsetX - w[avatar.getJoint(0)].x, -lowest, -w[avatar.getJoint(0)].z);
    const lines: Vector3[][] = [];
    rig.joints.forEach((j, i) => {
        if (j.parent >= 0 && j.kind !== RigJointKind.Node && rig.joints[j.parent].kind !== RigJointKind.Node) {
            lines.push([w[j.parent].add(shift), w[i].add(shift)]);
        }
    });
    const ls = CreateLineSystem("bones", { lines }, scene);
    ls.color = new Color3(0.25, 0.25, 0.3);
    ls.parent = parent;
    const height = Math.max(...w.map((p) => p.y)) - lowest;
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        const j = avatar.getJoint(b);
        if (j < 0) continue;
        const s = CreateSphere(HumanBoneNames[b], { diameter: height * (b >= 25 ? 0.008 : 0.022), segments: 8 }, scene);
        s.position = w[j].add(shift);
        const m = new StandardMaterial(HumanBoneNames[b], scene);
        m.diffuseColor = partColor(HumanBoneNames[b]);
        s.material = m;
        s.parent = parent;
    }
}

function show(index: number): void {
    holder?.dispose(false, true);
    holder = new TransformNode("character", scene);
    const spec = SampleCharacters[index];
    const avatar = BuildHumanoidAvatar(BuildSampleRig(spec));
    const scale = 1.7 / spec.height;
    holder.scaling.setAll(scale);
    // Seen from the front, +X is on the screen's left: the rest pose on the left, the T-pose on the right.
    drawPose(avatar, undefined, 0.55 / scale, holder);
    drawPose(avatar, avatar.referencePose, -0.55 / scale, holder);
    const mapped = [...Array(HUMAN_BONE_COUNT).keys()].filter((b) => avatar.isMapped(b));
    (document.getElementById("summary") as HTMLElement).textContent =
        `Left: the skeleton as it rests (${spec.armsDownDeg ? `arms ${spec.armsDownDeg} deg down` : "T-pose"}). ` +
        `Right: its reference T-pose (${avatar.tPoseCorrections.length} bones turned). ${mapped.length} of 55 human bones mapped.`;
    const table = document.getElementById("map") as HTMLTableElement;
    table.innerHTML = "";
    for (const b of mapped) {
        const row = table.insertRow();
        const a = row.insertCell();
        a.className = "bone";
        a.textContent = HumanBoneNames[b];
        const c = row.insertCell();
        c.textContent = avatar.getJointLabel(b) ?? "";
        const doubt = avatar.doubtful.get(b);
        if (doubt) {
            c.className = "doubt";
            c.title = doubt;
            c.textContent += " ?";
        }
    }
    window.__info = { sample: spec.name, mapped: mapped.length, corrections: avatar.tPoseCorrections.length };
}

const select = document.getElementById("sample") as HTMLSelectElement;
SampleCharacters.forEach((s, i) => select.add(new Option(s.name, String(i))));
select.addEventListener("change", () => show(Number(select.value)));
(document.getElementById("legend") as HTMLElement).innerHTML =
    '<span style="background:#3380f2"></span>left <span style="background:#e64040"></span>right ' +
    '<span style="background:#33b34d"></span>centre <span style="background:#e69933"></span>fingers';
document.getElementById("inspector")!.addEventListener("click", async () => {
    const { ShowInspector } = await import("@babylonjs/inspector");
    ShowInspector(scene);
});
select.value = "1";
show(1);
engine.runRenderLoop(() => scene.render());
window.addEventListener("resize", () => engine.resize());
void scene.whenReadyAsync().then(() => {
    window.__ready = true;
});
