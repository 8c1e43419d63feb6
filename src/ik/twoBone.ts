import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";

/** How far either side of their crossing the soft start and (1 - s) L are rounded into each other, a share of the stretch s L. */
const SOFT_START_ROUNDING = 0.5;

/**
 * Where lengthening the bones and straightening the joint cost the same, as a share of the stretch:
 * a pose bent by b (its reach 1 - b of the limb's length) takes a share c / (c + b) of a small
 * length change as the bones' length and the rest as bend, c = STRAIGHT_BEND_SHARE s. Near straight
 * the bend's angle moves as the square root of the length change (a knee 5 degrees from straight
 * turns 5 more for 0.1% of the leg), so a rigid solve there snaps; the bones' length moves as the
 * length change itself.
 */
const STRAIGHT_BEND_SHARE = 0.25;
/** The most the bones' length takes of a length change before any bend (log of the factor), a share of the stretch's (ln(1 + s)). */
const LENGTH_SHARE_CAP = 0.5;

/**
 * A chain bent against its pole (a knee or elbow past straight) that must bend more goes through
 * straight (see {@link SolveTwoBonePositionsToRef}): while the offset the added bend leaves still
 * points against the pole, the chain bends that offset's share of the bend asked for (down to
 * straight where it is zero); once its part toward the pole passes the line, the bend comes up to
 * the one asked for as that part grows to this share of it (a smoothstep). Meanwhile the end stops
 * on the line past the target: on a 0.9 m leg whose knee is 5 degrees past straight at most 5.0
 * mm (its goal 2.7% of the leg nearer; 1.8 mm at 3 degrees); with the goal 10% nearer, none. A
 * knee swinging 5 degrees either side of straight with its goal 1% nearer moves at most 2.4
 * times as far in a frame as the pose's (half this share: 3.2; a whole one: 1.9, but the goal
 * 10% nearer missed by 4 mm).
 */
const THROUGH_STRAIGHT_SPAN = 0.75;

/** Shortening near straight is scaled as for this stretch at most (it only takes the snap out of a near-straight joint; a large stretch option is for lengthening). */
const SQUASH_STRETCH_MAX = 0.05;

/** Numbers of {@link SolveTwoBonePositionsToRef}'s call of {@link SolveTwoBonePositionsInPlace}. */
const scratch = new Float64Array(5);

/**
 * Where a two-bone chain (root `a`, middle joint `b`, end `c`) puts its middle joint and end to
 * reach `target`, with squash-and-stretch. Positions only; see `HumanoidLimbIK` for the rotations.
 *
 * Reach: with `stretch` = s > 0 the chain starts to lengthen when the target is beyond a start
 * distance d0 (at least (1 - s) of its length L; `softStart` may put it further, up to L), following
 * a soft curve: the straight-line distance the bent chain covers is `d0 + (L - d0)(1 - exp(-(d - d0)
 * / (L - d0)))`, always short of L, so the middle joint never snaps straight, and the bones lengthen
 * by the factor k that makes the end meet the target, up to k = 1 + s. Past that the end stops
 * short on the line to the target. With s = 0 the chain is rigid and reaches up to L (a straight
 * limb).
 *
 * Near straight, length before bend: when `softStart` gives the pose's own reach r within s L of
 * full, a share of a small change of reach (most of it for a straight pose) first lengthens the
 * bones (at most about s / 2, softly) or shortens them (at most 2.4%, softly, whatever the
 * stretch), since a near-straight joint would turn as the square root of the change and snap;
 * the rest is solved as above. A target at r changes nothing.
 *
 * Bend direction, continuous from frame to frame: the current middle joint's offset from the
 * chain's own line (root to end), turned onto the root-target line by the shortest rotation
 * between the two lines, plus, for any bend the chain must add, `pole` (any vector; its part across
 * the line is used): a straight chain bends the pole's way, a bent one keeps its plane, and a goal
 * passing the chain's line flips nothing. Reaching the end where it is changes nothing. A chain
 * bent against the pole (a knee or elbow past straight) that must bend more goes through straight
 * toward the pole rather than turning round: where the offset the added bend leaves is short
 * (`THROUGH_STRAIGHT_SPAN`), the chain bends less than asked, and the end stops on the line past
 * the target while it does.
 *
 * Allocation-free. `outB` and `outC` must not alias the inputs.
 * @param a root joint position (world)
 * @param b middle joint position now
 * @param c end position now
 * @param target where the end should go
 * @param pole fallback bend direction (world)
 * @param upperLength length a-b at rest (k = 1)
 * @param lowerLength length b-c at rest
 * @param stretch the most the chain may lengthen, as a share of its length (0.05 = 5%)
 * @param softStart where the soft curve starts, metres (clamped to [(1 - stretch) L, L]); default (1 - stretch) L
 * @param outB the middle joint's new position
 * @param outC the end's new position: `target` when reached, else on the line to it (short of it out of reach, past it while a chain goes through straight)
 * @returns the length factor k applied to both bones (1 = rest length, at most 1 + stretch; below 1 when a near-straight pose's target is nearer than its reach)
 */
export function SolveTwoBonePositionsToRef(
    a: Vector3,
    b: Vector3,
    c: Vector3,
    target: Vector3,
    pole: Vector3,
    upperLength: number,
    lowerLength: number,
    stretch: number,
    softStart: number,
    outB: Vector3,
    outC: Vector3,
): number {
    const io = scratch;
    io[0] = upperLength;
    io[1] = lowerLength;
    io[2] = stretch;
    io[3] = softStart;
    SolveTwoBonePositionsInPlace(a, b, c, target, pole, io, outB, outC);
    return io[4];
}

/**
 * {@link SolveTwoBonePositionsToRef} for the per-frame path, its numbers in an array rather than
 * passed and returned (V8 boxes a number passed to or returned from a call it does not inline,
 * which allocates): reads `io[0]` upper length, `io[1]` lower length, `io[2]` stretch and `io[3]`
 * soft start, writes the length factor k into `io[4]`. Same results. Allocation-free.
 * @internal
 */
export function SolveTwoBonePositionsInPlace(
    a: Vector3,
    b: Vector3,
    c: Vector3,
    target: Vector3,
    pole: Vector3,
    io: Float64Array,
    outB: Vector3,
    outC: Vector3,
): void {
    // Babylon's vector arithmetic written out, coordinates read and written one by one (see `hotMath`).
    const upperLength = io[0];
    const lowerLength = io[1];
    const stretch = io[2];
    const softStart = io[3];
    const full = upperLength + lowerLength;
    if (!(full > 0)) {
        // No length to bend: the chain stays a point on its root.
        outB.x = outC.x = a.x;
        outB.y = outC.y = a.y;
        outB.z = outC.z = a.z;
        io[4] = 1;
        return;
    }
    // dir: unit root -> target (or root -> end)
    let dx = target.x - a.x;
    let dy = target.y - a.y;
    let dz = target.z - a.z;
    let d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (!(d > 1e-9 * full)) {
        // Target on the root: aim along the current end instead.
        dx = c.x - a.x;
        dy = c.y - a.y;
        dz = c.z - a.z;
        d = 0;
        const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (l > 1e-12) {
            const inv = 1 / l;
            dx *= inv;
            dy *= inv;
            dz *= inv;
        } else {
            dx = 0;
            dy = -1;
            dz = 0;
        }
    } else {
        const inv = 1 / d;
        dx *= inv;
        dy *= inv;
        dz *= inv;
    }
    // Near straight, the length change goes into the bones' length before the bend (see
    // `STRAIGHT_BEND_SHARE`): with x = w ln(d / r), w = (1 - b/s)^2 c/(c + b) for a pose bent by
    // b = 1 - r / L < s (r: the pose's reach, the soft start, at most L; c = STRAIGHT_BEND_SHARE s),
    // k0 = exp(x / (1 + (x / S)^4)^(1/4)), S = LENGTH_SHARE_CAP ln(1 + s) (of the stretch's log,
    // so k0 stays under 1 + s for any s; s at most SQUASH_STRETCH_MAX when shortening); 1 when
    // d = r. The rest is solved on bones k0 times as long.
    let k0 = 1;
    let upper = upperLength;
    let lower = lowerLength;
    let s1 = stretch;
    let full1 = full;
    let start1 = softStart;
    if (stretch > 0 && softStart > 0 && softStart < Infinity && d > 0) {
        const r = softStart < full ? softStart : full;
        const bend = 1 - r / full;
        if (bend < stretch) {
            const f = 1 - bend / stretch;
            const c0 = STRAIGHT_BEND_SHARE * stretch;
            const w = (f * f * c0) / (c0 + bend);
            const x = w * Math.log(d / r);
            const cap = LENGTH_SHARE_CAP * Math.log(1 + (x < 0 && stretch > SQUASH_STRETCH_MAX ? SQUASH_STRETCH_MAX : stretch));
            const u = x / cap;
            const u2 = u * u;
            k0 = Math.exp(x / Math.sqrt(Math.sqrt(1 + u2 * u2)));
            upper *= k0;
            lower *= k0;
            full1 = full * k0;
            start1 = r * k0;
            s1 = (1 + stretch) / k0 - 1;
        }
    }
    let k = 1;
    let reach = d;
    if (s1 > 0) {
        // The larger of (1 - s) L and the soft start, rounded within h = SOFT_START_ROUNDING s L of
        // their crossing (a parabola that meets both with their slopes): a plain max bends where the
        // pose's own reach crosses (1 - s) L, and the knee's acceleration steps there.
        const lo = full1 - s1 * full1;
        const gap = start1 - lo;
        const h = SOFT_START_ROUNDING * s1 * full1;
        let start = gap >= h ? start1 : gap <= -h ? lo : lo + ((gap + h) * (gap + h)) / (4 * h);
        // A straight pose's soft start is the full length: its own reach changes nothing, and a
        // target past it lengthens the straight chain (the soft curve has no room left).
        if (start > full1) start = full1;
        const soft = full1 - start;
        if (d > start) {
            const along = soft > 0 ? start + soft * (1 - Math.exp(-(d - start) / soft)) : full1;
            k = d / along;
            if (k > 1 + s1) {
                k = 1 + s1;
                reach = along * k;
            }
        }
    } else if (d > full1) {
        reach = full1;
    }
    const l1 = upper * k;
    const l2 = lower * k;
    k *= k0;
    const shortest = Math.abs(l1 - l2) * 1.0001;
    if (reach < shortest) reach = shortest;
    // Bend direction, continuous frame to frame: the middle joint's offset across the limb's own
    // line (root to end, not root to target, so a goal passing the limb's line flips nothing),
    // carried onto the target line by the shortest rotation between the two; any bend the limb
    // must add goes toward the pole, so a straight limb bends the pole's way and a bent one keeps
    // its plane (reaching the end as it is changes nothing).
    let ex = c.x - a.x;
    let ey = c.y - a.y;
    let ez = c.z - a.z;
    const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (el > 1e-12) {
        ex /= el;
        ey /= el;
        ez /= el;
    } else {
        ex = dx;
        ey = dy;
        ez = dz;
    }
    let bx = b.x - a.x;
    let by = b.y - a.y;
    let bz = b.z - a.z;
    let dot = bx * ex + by * ey + bz * ez;
    bx -= ex * dot;
    by -= ey * dot;
    bz -= ez * dot;
    const y0 = Math.sqrt(bx * bx + by * by + bz * bz);
    // Rotate it by the shortest rotation taking e (the end's direction) to d (the target's):
    // v' = v cos + (k x v) sin + k (k.v)(1 - cos), k = e x d / |e x d|; here v is across e.
    const cx = ey * dz - ez * dy;
    const cy = ez * dx - ex * dz;
    const cz = ex * dy - ey * dx;
    const cosT = ex * dx + ey * dy + ez * dz;
    if (cosT > -0.999) {
        // With s = |e x d|: v' = v cos + (c x v) + c (c.v)(1 - cos) / s^2, c = e x d.
        const kx = cy * bz - cz * by;
        const ky = cz * bx - cx * bz;
        const kz = cx * by - cy * bx;
        const kv = (cx * bx + cy * by + cz * bz) / (1 + cosT);
        bx = bx * cosT + kx + cx * kv;
        by = by * cosT + ky + cy * kv;
        bz = bz * cosT + kz + cz * kv;
    }
    // The new bend (the middle joint's distance from the target line), to know how much is added.
    const xNew = (reach * reach + l1 * l1 - l2 * l2) / (2 * reach);
    const yNewSq = l1 * l1 - xNew * xNew;
    const yNew = yNewSq > 0 ? Math.sqrt(yNewSq) : 0;
    const added = yNew > y0 ? yNew - y0 : 0;
    let px = pole.x;
    let py = pole.y;
    let pz = pole.z;
    dot = px * dx + py * dy + pz * dz;
    px -= dx * dot;
    py -= dy * dot;
    pz -= dz * dot;
    const pl = Math.sqrt(px * px + py * py + pz * pz);
    // How far the middle joint sits against the pole (a joint given past straight), 0 to 1: the
    // smoothstep of its offset's part against the pole over the offset's length.
    let against = 0;
    if (added > 0 && pl > 1e-9 && y0 > 0) {
        const u = -(bx * px + by * py + bz * pz) / (pl * y0);
        if (u > 0) against = u < 1 ? u * u * (3 - 2 * u) : 1;
    }
    if (pl > 1e-9) {
        const k = added / pl;
        bx += px * k;
        by += py * k;
        bz += pz * k;
    }
    dot = bx * dx + by * dy + bz * dz;
    bx -= dx * dot;
    by -= dy * dot;
    bz -= dz * dot;
    let bl = Math.sqrt(bx * bx + by * by + bz * bz);
    // A joint against the pole that must bend more goes through straight toward the pole, not the
    // full bend asked for on whichever side the offset the added bend leaves ends (which turned it
    // round within a frame where the added bend passed twice its offset, and bent it further
    // against the pole before that). With rho that offset's length over the bend asked for: while
    // the offset is still against the pole, the bend is rho of the one asked for (less than the
    // pose's own, down to straight); once its part toward the pole is past the line, it comes up
    // from there to the bend asked for as that part grows to THROUGH_STRAIGHT_SPAN of it (a
    // smoothstep; the same on both sides of the line, a sideways offset too). Blended in by
    // `against`. The share g is of the bend's angle (see below); where it is less than 1 the end
    // lies on the target's line past the target.
    let g = 1;
    if (against > 0 && yNew > 0) {
        const rho = bl < yNew ? bl / yNew : 1;
        const toward = (bx * px + by * py + bz * pz) / (pl * yNew);
        let share = rho;
        if (toward > 0) {
            const t = toward < THROUGH_STRAIGHT_SPAN ? toward / THROUGH_STRAIGHT_SPAN : 1;
            share = rho + (1 - rho) * t * t * (3 - 2 * t);
        }
        g = 1 - against * (1 - share);
    }
    if (!(bl > 1e-9 * upperLength)) {
        bx = pl > 1e-9 ? px : 0;
        by = pl > 1e-9 ? py : 0;
        bz = pl > 1e-9 ? pz : 0;
        bl = pl;
        if (!(bl > 1e-9)) {
            // Pole along the line too: any direction across it, from the axis the line leans on least.
            const ax = Math.abs(dx);
            const ay = Math.abs(dy);
            const az = Math.abs(dz);
            bx = ax <= ay && ax <= az ? 1 : 0;
            by = bx === 0 && ay <= az ? 1 : 0;
            bz = bx === 0 && by === 0 ? 1 : 0;
            dot = bx * dx + by * dy + bz * dz;
            bx -= dx * dot;
            by -= dy * dot;
            bz -= dz * dot;
            bl = Math.sqrt(bx * bx + by * by + bz * bz);
        }
    }
    const inv = 1 / bl;
    bx *= inv;
    by *= inv;
    bz *= inv;
    let x = xNew;
    let y = yNew;
    if (g < 1) {
        // The bend g of the one asked for (the angle between the bones' directions, from the
        // asked reach by the law of cosines), and the triangle on it: each bone keeps its length,
        // and nothing has two sides to choose from.
        let c = (reach * reach - l1 * l1 - l2 * l2) / (2 * l1 * l2);
        c = c > 1 ? 1 : c < -1 ? -1 : c;
        const cb = Math.cos(Math.acos(c) * g);
        reach = Math.sqrt(l1 * l1 + l2 * l2 + 2 * l1 * l2 * cb);
        x = reach > 0 ? (reach * reach + l1 * l1 - l2 * l2) / (2 * reach) : 0;
        const ySq = l1 * l1 - x * x;
        y = ySq > 0 ? Math.sqrt(ySq) : 0;
    }
    outB.x = a.x + dx * x + bx * y;
    outB.y = a.y + dy * x + by * y;
    outB.z = a.z + dz * x + bz * y;
    outC.x = a.x + dx * reach;
    outC.y = a.y + dy * reach;
    outC.z = a.z + dz * reach;
    io[4] = k;
}
