/** What the browser tests read (test/e2e/playground.e2e.test.ts): `window.__studio` and `window.__ready`. */
import { HumanBone, HumanBoneNames } from "../src/index.js";
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
        /** The view's camera: [alpha, beta] (radians) and its radius. */
        camera: (): number[] => [studio.view.camera.alpha, studio.view.camera.beta, studio.view.camera.radius],
    };
}

/** Adds `name` to `window.__studio` (call after {@link InstallTestHooks}). */
export function AddTestHook(name: string, value: unknown): void {
    (window.__studio as Record<string, unknown>)[name] = value;
}
