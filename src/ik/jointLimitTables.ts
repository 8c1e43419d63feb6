import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import type { SphericalPolygon } from "../math/sphericalPolygon.js";
import type { MuscleSetup } from "../muscle/setup.js";
import type { JointLimitShapes } from "./jointLimitShapes.js";

/** A full turn, radians. */
export const TWO_PI = 2 * Math.PI;
/** A twist this far past its range's end (radians) counts as at the end: a clamped twist read back through a rig pose comes out ~1e-15 beyond it. */
export const TWIST_EPSILON = 1e-9;
/** How much the fast twist test's bound is shrunk (relative), so that a twist it passes is inside by the angle's own test too, whatever the rounding. */
export const TWIST_FAST_SHRINK = 1e-9;
/**
 * Per-bone numbers of the per-frame tests, side by side in one array (one bone's in two cache
 * lines, none behind an object): the twist axis `t` (0-2), the fast twist bound (3, see
 * `JointLimits`), the swing polygon's centre (4-6) and its inner cap's
 * cosine (7, `SphericalPolygon.innerCapCos`; 2 where there is no polygon), `A = K L0^-1` (8-11,
 * x y z w) and `K^-1` (12-15).
 */
export const BONE_STRIDE = 16;
/**
 * Where `JointLimits.softLimitCanonicalToRef` starts to ease a rotation in: this share of the
 * way from the middle of a range (its twist's 0, its swing polygon's centre) to its end. Past it,
 * the share `r` becomes `K + (1 - K) tanh((r - K) / (1 - K))`: the same value, slope and curvature
 * at `K` (no kink a jerk would show), approaching the end (reaching it only by rounding, past about
 * 5.5 times the way).
 */
export const SOFT_LIMIT_KNEE = 0.75;

/**
 * An avatar's limit tables for `JointLimits` (the per-frame tests' numbers), made once per avatar
 * and shared by every instance: they depend on the avatar and its limit shapes only, and every
 * animator has a `JointLimits` of its own (which bones it holds, what each last returned), so
 * that an animator's limits brought 12 KB of tables of their own into the cache every frame.
 * Never written after construction.
 */
export class JointLimitTables {
    private static readonly _cache = new WeakMap<JointLimitShapes, JointLimitTables>();
    /** Per bone: twist low and high end (radians), 2 per bone; NaN where the bone has no limit. */
    public readonly twist = new Float64Array(2 * HUMAN_BONE_COUNT).fill(NaN);
    /**
     * Per bone, {@link BONE_STRIDE} numbers (see there). The fast twist bound: `sin^2(m / 2)`,
     * shrunk by {@link TWIST_FAST_SHRINK}, for `m` the lesser of the twist range's ends from 0
     * (epsilon included); a twist whose half-angle sine squared is below it is inside without its
     * angle being measured; -1 where the range does not hold 0 inside or is free.
     */
    public readonly bone = new Float64Array(BONE_STRIDE * HUMAN_BONE_COUNT);
    /** Per bone: `A^-1` (see `JointLimits.clampLocalToRef`; identity for a bone not mapped). */
    public readonly fromCanonical: Quaternion[] = [];
    /** Per bone: its swing polygon, null where it has no limit. */
    public readonly polygon: (SphericalPolygon | null)[] = [];
    /**
     * Per bone with limits, for `JointLimits.softLimitCanonicalToRef`'s fast test: the cosine of
     * {@link SOFT_LIMIT_KNEE} times the inner cap's radius (2: none), and `sin^2(K m / 2)` of the
     * twist's nearer end `m` (-1: the range does not hold 0 inside; 1: it is free).
     */
    public readonly soft = new Float64Array(2 * HUMAN_BONE_COUNT);

    /**
     * The tables of an avatar's limit shapes, made on first use and cached (as the shapes are).
     * @param avatar the avatar
     * @param setup its muscle setup
     * @param shapes its limit shapes (`JointLimitShapes.For(avatar)`)
     */
    public static For(avatar: HumanoidAvatar, setup: MuscleSetup, shapes: JointLimitShapes): JointLimitTables {
        let t = JointLimitTables._cache.get(shapes);
        if (!t) {
            t = new JointLimitTables(avatar, setup, shapes);
            JointLimitTables._cache.set(shapes, t);
        }
        return t;
    }

    private constructor(avatar: HumanoidAvatar, setup: MuscleSetup, shapes: JointLimitShapes) {
        const f = this.bone;
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            const s = shapes.bones[b];
            this.polygon.push(s ? s.polygon : null);
            const joint = setup.joint[b];
            // A = K * L0^-1
            const k = setup.tposeCanonical[b];
            const a = joint < 0 ? Quaternion.Identity() : k.multiply(Quaternion.Inverse(avatar.referencePose.rotations[joint]));
            const kInverse = joint < 0 ? Quaternion.Identity() : Quaternion.Inverse(k);
            this.fromCanonical.push(Quaternion.Inverse(a));
            const o = BONE_STRIDE * b;
            const t = setup.twistAxis[b];
            f[o] = t.x;
            f[o + 1] = t.y;
            f[o + 2] = t.z;
            f[o + 3] = -1;
            f[o + 7] = 2;
            f[o + 8] = a.x;
            f[o + 9] = a.y;
            f[o + 10] = a.z;
            f[o + 11] = a.w;
            f[o + 12] = kInverse.x;
            f[o + 13] = kInverse.y;
            f[o + 14] = kInverse.z;
            f[o + 15] = kInverse.w;
            if (!s) continue;
            f[o + 4] = s.polygon.center[0];
            f[o + 5] = s.polygon.center[1];
            f[o + 6] = s.polygon.center[2];
            f[o + 7] = s.polygon.innerCapCos;
            this.twist[2 * b] = s.twistMin;
            this.twist[2 * b + 1] = s.twistMax;
            const lo = s.twistMin - TWIST_EPSILON;
            const hi = s.twistMax + TWIST_EPSILON;
            const m = Math.min(-lo, hi);
            if (hi - lo < TWO_PI && m > 0) f[o + 3] = Math.sin(m / 2) ** 2 * (1 - TWIST_FAST_SHRINK);
            const cap = f[o + 7] <= 1 ? Math.acos(f[o + 7]) : 0;
            this.soft[2 * b] = cap > 0 ? Math.cos(SOFT_LIMIT_KNEE * cap) : 2;
            // The soft zone's twist bound on the range's own ends; a free range (a turn or more) is never eased.
            const near = Math.min(-s.twistMin, s.twistMax);
            this.soft[2 * b + 1] = hi - lo >= TWO_PI ? 1 : near > 0 ? Math.sin((SOFT_LIMIT_KNEE * near) / 2) ** 2 * (1 - TWIST_FAST_SHRINK) : -1;
        }
    }
}
