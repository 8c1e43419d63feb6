import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";

const dir = new Vector3();
const bend = new Vector3();
const tmp = new Vector3();

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
 * Bend direction: the plane of the current middle joint (its offset from the root-target line);
 * when the chain is straight along that line, `pole` (any vector; its part across the line is used).
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
 * @param outC the end's new position (equals `target` when reached)
 * @returns the length factor k applied to both bones (1 = rest length, at most 1 + stretch)
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
    const full = upperLength + lowerLength;
    target.subtractToRef(a, dir);
    let d = dir.length();
    if (!(d > 1e-9 * full)) {
        // Target on the root: aim along the current end instead.
        c.subtractToRef(a, dir);
        d = 0;
        const l = dir.length();
        if (l > 1e-12) dir.scaleInPlace(1 / l);
        else dir.set(0, -1, 0);
    } else {
        dir.scaleInPlace(1 / d);
    }
    let k = 1;
    let reach = d;
    if (stretch > 0) {
        let start = full - stretch * full;
        if (softStart > start) start = softStart < full * (1 - 1e-6) ? softStart : full * (1 - 1e-6);
        const soft = full - start;
        if (d > start) {
            const along = start + soft * (1 - Math.exp(-(d - start) / soft));
            k = d / along;
            if (k > 1 + stretch) {
                k = 1 + stretch;
                reach = along * k;
            }
        }
    } else if (d > full) {
        reach = full;
    }
    const l1 = upperLength * k;
    const l2 = lowerLength * k;
    const shortest = Math.abs(l1 - l2) * 1.0001;
    if (reach < shortest) reach = shortest;
    // Bend direction: the middle joint's offset across the line, else the pole's.
    b.subtractToRef(a, bend);
    bend.subtractInPlace(tmp.copyFrom(dir).scaleInPlace(Vector3.Dot(bend, dir)));
    let bl = bend.length();
    if (bl < 1e-4 * upperLength) {
        bend.copyFrom(pole);
        bend.subtractInPlace(tmp.copyFrom(dir).scaleInPlace(Vector3.Dot(bend, dir)));
        bl = bend.length();
        if (bl < 1e-9) {
            // Pole along the line too: any direction across it.
            tmp.set(dir.y, dir.z, dir.x);
            Vector3.CrossToRef(dir, tmp, bend);
            bl = bend.length();
        }
    }
    bend.scaleInPlace(1 / bl);
    const x = (reach * reach + l1 * l1 - l2 * l2) / (2 * reach);
    const y2 = l1 * l1 - x * x;
    const y = y2 > 0 ? Math.sqrt(y2) : 0;
    outB.copyFrom(a).addInPlace(tmp.copyFrom(dir).scaleInPlace(x)).addInPlace(tmp.copyFrom(bend).scaleInPlace(y));
    outC.copyFrom(a).addInPlace(tmp.copyFrom(dir).scaleInPlace(reach));
    return k;
}
