/** What the browser tests read (test/e2e/playground.e2e.test.ts): `window.__studio` and `window.__ready`. */
import { HumanBone, HumanBoneNames, MuscleSetup } from "../src/index.js";
import type { Studio } from "./studio.js";

declare global {
    interface Window {
        __ready?: boolean;
        __studio?: unknown;
    }
}

/** The read-only view of the studio the tests use; panels may add their own entries with {@link AddTestHook}. */
export function InstallTestHooks(studio: Studio): void {
    const targets = studio.targets;
    window.__studio = {
        time: () => studio.time,
        playing: () => studio.playing,
        source: () => studio.source?.name ?? null,
        frameCount: () => studio.source?.clip.frameCount ?? 0,
        targets: () => targets.map((t) => ({ name: t.name, error: t.error, boneMap: JSON.parse(t.avatar.serializeBoneMap()) as unknown })),
        boneRotation: (target: number, bone: string): number[] => {
            const t = targets[target];
            const j = t.avatar.getJoint(HumanBoneNames.indexOf(bone) as HumanBone);
            return j >= 0 ? t.nodes[j].rotationQuaternion!.asArray() : [];
        },
        hipsPosition: (target: number): number[] => targets[target].nodes[targets[target].avatar.getJoint(HumanBone.Hips)].getAbsolutePosition().asArray(),
        /** Per foot of a character: whether it is planted, where along it it is held (0 ankle, 1 toes), whether its mark is shown, and the mark's, ankle's and toes' (or tip's) world positions. */
        held: (target: number) => {
            const t = targets[target];
            const setup = MuscleSetup.For(t.avatar);
            return [0, 1].map((s) => ({
                planted: t.animator?.planting.planted[s] ?? false,
                along: t.animator?.planting.heldAlong[s] ?? 0,
                visible: t.debug[5 + s].isVisible,
                mark: t.debug[5 + s].position.asArray(),
                ankle: t.nodes[setup.joint[s === 0 ? HumanBone.LeftFoot : HumanBone.RightFoot]].getAbsolutePosition().asArray(),
                tip: setup.footTip[s] >= 0 ? t.nodes[setup.footTip[s]].getAbsolutePosition().asArray() : null,
            }));
        },
        /** Per character: its slot across the view ([x, width], metres) and its height as loaded (metres). */
        slots: (): number[][] => targets.map((t) => [t.slotX, t.slotWidth, t.height]),
        /** The view's camera: [alpha, beta] (radians) and its radius. */
        camera: (): number[] => [studio.view.camera.alpha, studio.view.camera.beta, studio.view.camera.radius],
    };
}

/** Adds `name` to `window.__studio` (call after {@link InstallTestHooks}). */
export function AddTestHook(name: string, value: unknown): void {
    (window.__studio as Record<string, unknown>)[name] = value;
}
