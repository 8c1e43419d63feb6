import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanoidError } from "../errors.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone, HumanBoneNames, HUMAN_BONE_COUNT } from "../humanoid/humanBones.js";
import { DEFAULT_JOINT_LIMIT_MARGIN_DEG, HINGE_BONES, type IBoneLimitSettings, type IJointLimitSettings } from "../humanoid/jointLimitSettings.js";
import { SphericalPolygon } from "../math/sphericalPolygon.js";
import { BoneMuscles, MuscleNames } from "../muscle/muscles.js";
import { MuscleSetup } from "../muscle/setup.js";

const B = HumanBone;
const DEG = Math.PI / 180;

/**
 * Mecanim's muscle zero measured from the T-pose, degrees, by muscle (reference §2, last column:
 * the T-pose's muscle values times their ranges; right side as left). Our muscle zero is the
 * T-pose, Mecanim's a flexed pose; Mecanim's ranges span the motion about its zero, so a muscle's
 * span from the T-pose is `[min - offset, max - offset]` (a knee: 0 to 160 degrees of bend, not
 * -80 to 80 about straight). Muscles not listed: 0.
 */
const MECANIM_ZERO_FROM_TPOSE_DEG: Readonly<Record<string, number>> = {
    "Upper Leg Front-Back": 29.8,
    "Upper Leg In-Out": -1.1,
    "Upper Leg Twist In-Out": 12.6,
    "Lower Leg Stretch": 80.2,
    "Lower Leg Twist In-Out": -12.4,
    "Foot Up-Down": -0.1,
    "Foot Twist In-Out": -0.6,
    "Arm Down-Up": 39.8,
    "Arm Front-Back": 30.0,
    "Arm Twist In-Out": -2.8,
    "Forearm Stretch": 80.0,
    "Forearm Twist In-Out": 3.3,
    "Hand Down-Up": -0.2,
    "Thumb 1 Stretched": -13.7,
    "Thumb Spread": 11.4,
    "Thumb 2 Stretched": 22.6,
    "Thumb 3 Stretched": 22.6,
    "Index 1 Stretched": 33.4,
    "Index Spread": -8.0,
    "Index 2 Stretched": 36.5,
    "Index 3 Stretched": 36.5,
    "Middle 1 Stretched": 33.4,
    "Middle Spread": -4.7,
    "Middle 2 Stretched": 36.5,
    "Middle 3 Stretched": 36.5,
    "Ring 1 Stretched": 33.4,
    "Ring Spread": -4.3,
    "Ring 2 Stretched": 36.5,
    "Ring 3 Stretched": 36.5,
    "Little 1 Stretched": 33.5,
    "Little Spread": -8.8,
    "Little 2 Stretched": 36.4,
    "Little 3 Stretched": 36.4,
};

/** Vertices of a default swing polygon: rays from its centre, evenly spaced in azimuth. */
const DEFAULT_POLYGON_VERTICES = 32;
/** How far past straight a hinge's default swing polygon reaches, degrees: inside by far more than the tracing's step (2^-20 degree). */
const HINGE_STRAIGHT_MARGIN_DEG = 1e-3;

/** A default swing polygon reaches at most this far from the T-pose direction, degrees (the direction opposite it has no defined swing). */
const MAX_SWING_DEG = 170;
/** Samples of the turn a parent's twist share gives a bone, when its swing region is traced. */
const SHARE_SAMPLES = 13;
/** A swing axis without any muscle still gets this half-width, degrees, so the default polygon has an inside. */
const MIN_HALF_WIDTH_DEG = 1;

/** One bone's limit as numbers: what {@link JointLimitShapes} holds per bone. */
export interface IBoneLimitShape {
    /** Twist range, radians from the T-pose: low end (<= 0). */
    readonly twistMin: number;
    /** High end (>= 0); a span of a turn or more means no twist limit. */
    readonly twistMax: number;
    /** The swing polygon (bone directions, canonical frame). */
    readonly polygon: SphericalPolygon;
    /** The same limit in the settings' form (degrees), for saving. */
    readonly settings: Required<IBoneLimitSettings>;
}

/** A muscle's span from the T-pose, degrees: Mecanim's range about its zero, holding 0 (the T-pose). */
function spanDeg(setup: MuscleSetup, muscle: number): [number, number] {
    const name = MuscleNames[muscle].replace(/^(Left|Right) /, "");
    const offset = muscle < 95 ? (MECANIM_ZERO_FROM_TPOSE_DEG[name] ?? 0) : 0;
    return [Math.min(0, setup.minDeg[muscle] - offset), Math.max(0, setup.maxDeg[muscle] - offset)];
}

type Range = [number, number];
const addScaled = (r: Range, span: Range, k: number): void => {
    const a = span[0] * k;
    const b = span[1] * k;
    r[0] += Math.min(a, b);
    r[1] += Math.max(a, b);
};

/** The default region of one bone's rotations, from its muscles (and those folded into it), before margins: twist, swing box and the azimuth turn a parent's twist share gives. */
interface IRegion {
    twist: Range;
    y: Range;
    z: Range;
    /** Turn of the swing about the bone's axis (degrees) a twist handed down from the parent gives. */
    turn: Range;
}

/** Adds a rotation about a canonical axis (by `span` degrees) to a bone's region: along the twist axis to the twist (and, before the bone's own, to its turn), across it to the swing box. */
function addRotation(setup: MuscleSetup, bone: number, region: IRegion, axis: Vector3, span: Range, before: boolean): void {
    const at = Vector3.Dot(axis, setup.twistAxis[bone]);
    addScaled(region.twist, span, at);
    addScaled(region.y, span, Vector3.Dot(axis, setup.axisY[bone]));
    addScaled(region.z, span, Vector3.Dot(axis, setup.axisZ[bone]));
    if (before) addScaled(region.turn, span, at * setup.hingeSign[bone]);
}

/** Adds every muscle of `from` (another bone folded into `bone`) as rotations about its axes. */
function addBoneMuscles(setup: MuscleSetup, bone: number, region: IRegion, from: number, before: boolean): void {
    const [mx, my, mz] = BoneMuscles[from];
    if (mx >= 0) addRotation(setup, bone, region, setup.twistAxis[from].scale(setup.twistSign[from]), spanDeg(setup, mx), before);
    if (my >= 0) addRotation(setup, bone, region, setup.axisY[from], spanDeg(setup, my), before);
    if (mz >= 0) addRotation(setup, bone, region, setup.axisZ[from], spanDeg(setup, mz), before);
}

/** The twist share a bone keeps of its own twist muscle (decode's limb twist shares), and the parent whose share it takes. */
function shares(setup: MuscleSetup, bone: number): { keep: number; from: number; share: number } {
    const s = setup.twistShare;
    switch (bone) {
        case B.LeftUpperArm:
        case B.RightUpperArm:
            return { keep: 1 - s.upperArm, from: -1, share: 0 };
        case B.LeftLowerArm:
        case B.RightLowerArm:
            return { keep: 1 - s.lowerArm, from: bone === B.LeftLowerArm ? B.LeftUpperArm : B.RightUpperArm, share: s.upperArm };
        case B.LeftHand:
        case B.RightHand:
            return { keep: 1, from: bone === B.LeftHand ? B.LeftLowerArm : B.RightLowerArm, share: s.lowerArm };
        case B.LeftUpperLeg:
        case B.RightUpperLeg:
            return { keep: 1 - s.upperLeg, from: -1, share: 0 };
        case B.LeftLowerLeg:
        case B.RightLowerLeg:
            return { keep: 1 - s.lowerLeg, from: bone === B.LeftLowerLeg ? B.LeftUpperLeg : B.RightUpperLeg, share: s.upperLeg };
        case B.LeftFoot:
        case B.RightFoot:
            return { keep: 1, from: bone === B.LeftFoot ? B.LeftLowerLeg : B.RightLowerLeg, share: s.lowerLeg };
        default:
            return { keep: 1, from: -1, share: 0 };
    }
}

/** Bones whose rotation decode folds into `bone` because they are not mapped (docs/muscles.md, missing optional bones). */
function foldedInto(setup: MuscleSetup, bone: number): number[] {
    const mapped = (b: number): boolean => setup.joint[b] >= 0;
    const out: number[] = [];
    if (bone === B.Spine && !mapped(B.Chest)) out.push(B.Chest);
    if (!mapped(B.UpperChest) && bone === (mapped(B.Chest) ? B.Chest : B.Spine)) out.push(B.UpperChest);
    if (bone === B.Head && !mapped(B.Neck)) out.push(B.Neck);
    if (bone === B.LeftUpperArm && !mapped(B.LeftShoulder)) out.push(B.LeftShoulder);
    if (bone === B.RightUpperArm && !mapped(B.RightShoulder)) out.push(B.RightShoulder);
    return out;
}

/** The rotation region decode gives a bone from muscles within their spans. */
function defaultRegion(setup: MuscleSetup, bone: number): IRegion {
    const region: IRegion = { twist: [0, 0], y: [0, 0], z: [0, 0], turn: [0, 0] };
    const [mx, my, mz] = BoneMuscles[bone];
    const sh = shares(setup, bone);
    if (mx >= 0) addScaled(region.twist, spanDeg(setup, mx), sh.keep);
    if (my >= 0) addScaled(region.y, spanDeg(setup, my), 1);
    if (mz >= 0) addScaled(region.z, spanDeg(setup, mz), 1);
    if (sh.from >= 0) {
        const fx = BoneMuscles[sh.from][0];
        if (fx >= 0) {
            // The parent's share of its twist, about the parent's axis, before the bone's own rotation.
            const sp = spanDeg(setup, fx);
            addRotation(setup, bone, region, setup.twistAxis[sh.from].scale(setup.twistSign[sh.from]), [sp[0] * sh.share, sp[1] * sh.share], true);
        }
    }
    // A missing neck or shoulder comes before the bone (head = neck * head), a missing chest after (spine = spine * chest).
    for (const f of foldedInto(setup, bone)) addBoneMuscles(setup, bone, region, f, f === B.Neck || f === B.LeftShoulder || f === B.RightShoulder);
    return region;
}

/** A swing `[y, z]` (degrees about the bone's Y and Z axes) as the bone's direction: `exp(y Y + z Z) * t`, canonical. */
function swingDirection(setup: MuscleSetup, bone: number, yDeg: number, zDeg: number, out: number[], at: number): void {
    const r = setup.axisY[bone].scale(yDeg * DEG).addInPlace(setup.axisZ[bone].scale(zDeg * DEG));
    const angle = r.length();
    const q = angle < 1e-12 ? Quaternion.Identity() : Quaternion.RotationAxis(r.scale(1 / angle), angle);
    const d = setup.twistAxis[bone].applyRotationQuaternion(q);
    out[at] = d.x;
    out[at + 1] = d.y;
    out[at + 2] = d.z;
}

/**
 * The default swing polygon of a bone in the plane of its swing angles (degrees): the region of
 * swings its muscles give within their spans (a box, turned by what a parent's twist share turns
 * it), widened by the margin, a hinge's straight side kept at straight, traced as rays from its
 * centre. Returns the vertices and the centre.
 */
function tracePolygon(
    setup: MuscleSetup,
    bone: number,
    region: IRegion,
    marginDeg: number,
    hinge: boolean,
): { swing: [number, number][]; center: [number, number] } {
    // A hinge straightens as far as its bones in line (its Z swing onto the parent's direction),
    // or its T-pose when that is straighter: a T-pose knee bent a little may still straighten. A
    // hair more (HINGE_STRAIGHT_MARGIN_DEG), so that a T-pose with the limb straight (the enforced
    // T-pose's) lies inside the traced polygon, not on its edge, where the tracing's last step and
    // rounding would leave it a few 1e-9 radians out.
    const straight = hinge ? Math.max(0, straightSwingDeg(setup, bone)) + HINGE_STRAIGHT_MARGIN_DEG : 0;
    const widen = (r: Range, keepHigh: boolean): Range => {
        let lo = r[0] - marginDeg;
        let hi = keepHigh ? r[1] : r[1] + marginDeg;
        if (hi - lo < 2 * MIN_HALF_WIDTH_DEG) {
            const grow = 2 * MIN_HALF_WIDTH_DEG - (hi - lo);
            if (keepHigh) lo -= grow;
            else {
                lo -= grow / 2;
                hi += grow / 2;
            }
        }
        return [lo, hi];
    };
    const y = widen(region.y, false);
    // A hinge's Z swing is its stretch: positive bends it backwards, so its high end stays at straight.
    const z = widen(region.z, hinge);
    if (hinge && z[1] < straight) z[1] = straight;
    const turns: number[] = [];
    const [t0, t1] = region.turn;
    for (let i = 0; i < SHARE_SAMPLES; i++) turns.push((t0 + ((t1 - t0) * i) / (SHARE_SAMPLES - 1)) * DEG);
    const cosT = turns.map(Math.cos);
    const sinT = turns.map(Math.sin);
    const inside = (py: number, pz: number): boolean => {
        if (hinge && pz > straight + 1e-9) return false;
        if (Math.hypot(py, pz) > MAX_SWING_DEG) return false;
        for (let i = 0; i < turns.length; i++) {
            // Turned back by the share's turn (the box turned by it holds p when p turned back lies in the box).
            const qy = py * cosT[i] + pz * sinT[i];
            const qz = -py * sinT[i] + pz * cosT[i];
            if (qy >= y[0] && qy <= y[1] && qz >= z[0] && qz <= z[1]) return true;
        }
        return false;
    };
    // Centre: the box's middle, turned by the middle of the share's turn.
    const my = (y[0] + y[1]) / 2;
    const mz = (z[0] + z[1]) / 2;
    const mid = ((t0 + t1) / 2) * DEG;
    const center: [number, number] = [my * Math.cos(mid) - mz * Math.sin(mid), my * Math.sin(mid) + mz * Math.cos(mid)];
    if (!inside(center[0], center[1])) throw new HumanoidError("BAD_OPTION", `${HumanBoneNames[bone]}: the default swing region has no centre inside it`);
    const swing: [number, number][] = [];
    for (let k = 0; k < DEFAULT_POLYGON_VERTICES; k++) {
        const phi = (2 * Math.PI * k) / DEFAULT_POLYGON_VERTICES;
        const uy = Math.cos(phi);
        const uz = Math.sin(phi);
        let r = 0;
        while (r < 2 * MAX_SWING_DEG && inside(center[0] + (r + 1) * uy, center[1] + (r + 1) * uz)) r += 1;
        let lo = r;
        let hi = r + 1;
        for (let i = 0; i < 20; i++) {
            const m = (lo + hi) / 2;
            if (inside(center[0] + m * uy, center[1] + m * uz)) lo = m;
            else hi = m;
        }
        swing.push([center[0] + lo * uy, center[1] + lo * uz]);
    }
    return { swing, center };
}

/**
 * A hinge's Z swing (degrees) that puts it in line with its parent bone: the Z part of the
 * rotation vector of the shortest swing from its T-pose direction onto its parent's (positive when
 * its T-pose is bent, the way a positive stretch straightens it).
 */
function straightSwingDeg(setup: MuscleSetup, bone: number): number {
    const parent = setup.parentBone[bone];
    if (parent < 0) return 0;
    const t = setup.twistAxis[bone];
    const u = setup.twistAxis[parent];
    const axis = Vector3.Cross(t, u);
    const s = axis.length();
    if (s < 1e-9) return 0;
    const angle = Math.atan2(s, Vector3.Dot(t, u));
    return (Vector3.Dot(axis.scale(angle / s), setup.axisZ[bone]) * 180) / Math.PI;
}

/** A bone's limit from settings of the settings' form (degrees), as numbers. */
function shapeOf(setup: MuscleSetup, bone: number, s: Required<IBoneLimitSettings>): IBoneLimitShape {
    const dirs: number[] = [];
    for (const [y, z] of s.swingDeg) swingDirection(setup, bone, y, z, dirs, dirs.length);
    const c: number[] = [];
    swingDirection(setup, bone, s.centerDeg[0], s.centerDeg[1], c, 0);
    const polygon = SphericalPolygon.FromDirections(dirs, c, `${setup.avatar.name}: jointLimits of ${HumanBoneNames[bone]}`);
    return { twistMin: s.twistDeg[0] * DEG, twistMax: s.twistDeg[1] * DEG, polygon, settings: s };
}

/**
 * The limit shapes of one avatar's bones (twist ranges and swing polygons, canonical frame), made
 * once from its muscle ranges, twist shares and `jointLimits` settings and cached. Which bones a
 * solve holds is not here but on each {@link JointLimits}.
 */
export class JointLimitShapes {
    /** Per human bone its limit, or null (the hips, unmapped bones). */
    public readonly bones: readonly (IBoneLimitShape | null)[];
    /** The margin the defaults were made with, degrees. */
    public readonly marginDeg: number;
    /** The avatar's own default bone set, from its settings (`"hinges"` when not given). */
    public readonly defaultBones: NonNullable<IJointLimitSettings["bones"]>;

    private constructor(avatar: HumanoidAvatar) {
        const setup = MuscleSetup.For(avatar);
        const settings: IJointLimitSettings = avatar.muscleSettings.jointLimits ?? {};
        this.marginDeg = settings.marginDeg ?? DEFAULT_JOINT_LIMIT_MARGIN_DEG;
        this.defaultBones = settings.bones ?? "hinges";
        const bones: (IBoneLimitShape | null)[] = [];
        for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
            if (b === B.Hips || setup.joint[b] < 0) {
                bones.push(null);
                continue;
            }
            const given = settings.limits?.[HumanBoneNames[b]] ?? {};
            const hinge = HINGE_BONES.includes(b);
            const region = defaultRegion(setup, b);
            let twistDeg: [number, number] = [region.twist[0] - this.marginDeg, region.twist[1] + this.marginDeg];
            if (given.twistDeg) twistDeg = [given.twistDeg[0], given.twistDeg[1]];
            let swingDeg: [number, number][];
            let centerDeg: [number, number];
            if (given.swingDeg) {
                swingDeg = given.swingDeg.map((p) => [p[0], p[1]]);
                centerDeg = given.centerDeg
                    ? [given.centerDeg[0], given.centerDeg[1]]
                    : [swingDeg.reduce((a, p) => a + p[0], 0) / swingDeg.length, swingDeg.reduce((a, p) => a + p[1], 0) / swingDeg.length];
            } else {
                ({ swing: swingDeg, center: centerDeg } = tracePolygon(setup, b, region, this.marginDeg, hinge));
            }
            bones.push(shapeOf(setup, b, { twistDeg, swingDeg, centerDeg }));
        }
        this.bones = bones;
    }

    private static readonly _cache = new WeakMap<HumanoidAvatar, JointLimitShapes>();

    /** The limit shapes of an avatar, made on first use and cached. Throws a {@link HumanoidError} `BAD_OPTION` for a swing polygon that is not star-shaped about its centre. */
    public static For(avatar: HumanoidAvatar): JointLimitShapes {
        let s = JointLimitShapes._cache.get(avatar);
        if (!s) {
            s = new JointLimitShapes(avatar);
            JointLimitShapes._cache.set(avatar, s);
        }
        return s;
    }
}

/**
 * An avatar's effective joint limits in the form of its `jointLimits` option: its bone set and
 * margin, and every limited bone's twist range and swing polygon (degrees, defaults filled in).
 * Pass it back as `jointLimits` (saved with the avatar's settings) to get the same limits, or edit
 * a bone's polygon first.
 */
export function SerializeJointLimits(avatar: HumanoidAvatar): IJointLimitSettings {
    const shapes = JointLimitShapes.For(avatar);
    const limits: Record<string, IBoneLimitSettings> = {};
    shapes.bones.forEach((s, b) => {
        if (!s) return;
        const r = (x: number): number => Math.round(x * 1e6) / 1e6;
        limits[HumanBoneNames[b]] = {
            twistDeg: [r(s.settings.twistDeg[0]), r(s.settings.twistDeg[1])],
            swingDeg: s.settings.swingDeg.map((p) => [r(p[0]), r(p[1])] as [number, number]),
            centerDeg: [r(s.settings.centerDeg[0]), r(s.settings.centerDeg[1])],
        };
    });
    const bones = shapes.defaultBones;
    return { bones: typeof bones === "string" ? bones : [...bones], marginDeg: shapes.marginDeg, limits };
}
