import fc from "fast-check";
import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";

/**
 * Random unit quaternions for property tests: four components drawn in [-range, range], those
 * shorter than 0.1 left out (their direction is noise), normalized. Default range 1.
 */
export function UnitQuaternionArbitrary(range = 1): fc.Arbitrary<Quaternion> {
    const c = fc.double({ min: -range, max: range, noNaN: true });
    return fc
        .tuple(c, c, c, c)
        .filter((v) => Math.hypot(...v) > 0.1)
        .map(([x, y, z, w]) => new Quaternion(x, y, z, w).normalize());
}
