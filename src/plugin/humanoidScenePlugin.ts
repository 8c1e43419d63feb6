import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Scene } from "@babylonjs/core/scene.js";
// Type only: the animator imports this module's values (it registers itself here), so a value
// import back would make a cycle.
import type { HumanoidAnimator } from "./humanoidAnimator.js";

const plugins = new WeakMap<Scene, HumanoidScenePlugin>();

/**
 * The humanoid runtime of one scene: updates every {@link HumanoidAnimator} attached to it once per
 * frame, after Babylon's own animations and before bones and meshes are prepared for rendering
 * (`scene.onAfterAnimationsObservable`). Made by {@link RegisterHumanoidPlugin}; disposed with the
 * scene.
 */
export class HumanoidScenePlugin {
    /** The scene. */
    public readonly scene: Scene;
    /** The animators it updates. */
    public readonly animators: HumanoidAnimator[] = [];
    private _afterAnimations: Observer<Scene> | null;
    private readonly _running: (HumanoidAnimator | null)[] = [];
    private _onDispose: Observer<Scene> | null;

    private constructor(scene: Scene) {
        this.scene = scene;
        this._afterAnimations = scene.onAfterAnimationsObservable.add(() => {
            if (!scene.animationsEnabled) return;
            // The time Babylon's own animations just advanced by: one lockstep step, or the
            // constant 16 ms, or the frame's time; scaled as they are.
            const engine = scene.getEngine();
            const ms = engine.isDeterministicLockStep() ? engine.getTimeStep() : scene.useConstantAnimationDeltaTime ? 16 : engine.getDeltaTime();
            const dt = (ms / 1000) * scene.animationTimeScale;
            // A copy of the list: an animator may leave it from an event during its update.
            const list = this._running;
            const n = this.animators.length;
            for (let i = 0; i < n; i++) list[i] = this.animators[i];
            for (let i = 0; i < n; i++) {
                const animator = list[i]!;
                list[i] = null;
                animator.update(dt);
            }
        });
        this._onDispose = scene.onDisposeObservable.add(() => this.dispose());
    }

    /** The plugin of a scene, or null when it was not registered. */
    public static For(scene: Scene): HumanoidScenePlugin | null {
        return plugins.get(scene) ?? null;
    }

    /** @internal */
    public static _Create(scene: Scene): HumanoidScenePlugin {
        const p = new HumanoidScenePlugin(scene);
        plugins.set(scene, p);
        return p;
    }

    /** @internal */
    public _add(animator: HumanoidAnimator): void {
        if (!this.animators.includes(animator)) this.animators.push(animator);
    }

    /** @internal */
    public _remove(animator: HumanoidAnimator): void {
        const i = this.animators.indexOf(animator);
        if (i >= 0) this.animators.splice(i, 1);
    }

    /** Removes the plugin's observers from the scene and lets its animators go (they stay usable by hand). */
    public dispose(): void {
        if (this._afterAnimations) this.scene.onAfterAnimationsObservable.remove(this._afterAnimations);
        if (this._onDispose) this.scene.onDisposeObservable.remove(this._onDispose);
        this._afterAnimations = null;
        this._onDispose = null;
        for (const a of [...this.animators]) a.detachFromScene();
        plugins.delete(this.scene);
    }
}

/**
 * Registers the humanoid runtime on a scene: from now on every {@link HumanoidAnimator} attached to
 * the scene is updated once per frame. Idempotent (a second call returns the same plugin); nothing
 * happens on import.
 */
export function RegisterHumanoidPlugin(scene: Scene): HumanoidScenePlugin {
    return HumanoidScenePlugin.For(scene) ?? HumanoidScenePlugin._Create(scene);
}
