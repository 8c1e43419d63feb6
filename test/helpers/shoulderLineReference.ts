// The readable form of decode's shoulder step (`MatchShoulderLine`, src/muscle/shoulderLine.ts),
// with its angles as angles (atan2, cos, sin, asin) and Babylon's allocating math: the oracle of
// that file's test. The library's form keeps the angles as unit complex numbers and allocates nothing.
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HumanBone, HUMAN_BONE_COUNT } from "../../src/humanoid/humanBones.js";
import type { MuscleSetup } from "../../src/muscle/setup.js";

const B = HumanBone;

/** `a` wrapped into (-pi, pi]. */
function wrap(a: number): number {
    return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

/** The angle (as atan2(z, x)) of the line from a layout's right upper-arm joint to its left, its collarbones turned by `left` and `right`, the whole turned by `frame`. */
function lineAngle(layout: Float64Array, left = Quaternion.Identity(), right = Quaternion.Identity(), frame = Quaternion.Identity()): number {
    const v = (i: number): Vector3 => new Vector3(layout[i], layout[i + 1], layout[i + 2]);
    const line = v(0)
        .add(v(3).applyRotationQuaternion(left))
        .subtract(v(6).add(v(9).applyRotationQuaternion(right)));
    const seen = line.applyRotationQuaternion(frame);
    return Math.atan2(seen.z, seen.x);
}

/** `MatchShoulderLine`, readably: the same arguments, the same result. */
export function MatchShoulderLineReference(
    setup: MuscleSetup,
    q: Quaternion[],
    source: Float64Array,
    sourceLeft: Quaternion,
    sourceRight: Quaternion,
    sourceTrunk: Quaternion,
): void {
    if (Number.isNaN(source[0])) return;
    const share = source.length > 12 ? source[12] : 1;
    if (!(share > 0)) return;
    const own = setup.clipShoulderOffsets;
    const top = own ? setup.parentBone[B.LeftShoulder] : setup.parentBone[B.LeftUpperArm];
    const shoulderless = setup.joint[B.LeftShoulder] < 0 && setup.joint[B.RightShoulder] < 0;
    if (!own && !(shoulderless && top >= 0 && top === setup.parentBone[B.RightUpperArm])) return;
    // This character's bone the shoulders (or arms) hang from, relative to its hips.
    let chain = Quaternion.Identity();
    for (let b = top; b > 0; b = setup.parentBone[b]) chain = q[b].multiply(chain);
    const toOwn = Quaternion.Inverse(chain).multiply(sourceTrunk);
    // The source's line's turn against its chest, plus its trunk's twist about up against this one's.
    const trunkTwist = -2 * Math.atan2(toOwn.y, toOwn.w);
    const sourceTurn = wrap(lineAngle(source, sourceLeft, sourceRight) + trunkTwist - lineAngle(source));
    const turnAboutUp = (radians: number): Quaternion => Quaternion.RotationAxis(Vector3.Up(), radians);
    if (own) {
        let want = lineAngle(own) + sourceTurn;
        const d = new Vector3(own[0] - own[6], 0, own[2] - own[8]);
        const l = new Vector3(own[3], own[4], own[5]).applyRotationQuaternion(q[B.LeftShoulder]);
        const r = new Vector3(own[9], own[10], own[11]).applyRotationQuaternion(q[B.RightShoulder]);
        const c = new Vector3(l.x - r.x, 0, l.z - r.z);
        if (d.lengthSquared() > c.lengthSquared()) {
            // Past the collarbones' reach: the nearest edge.
            const toward = Math.atan2(d.z, d.x);
            const reach = Math.asin(c.length() / d.length());
            const off = wrap(want - toward);
            if (off > reach) want = toward + reach;
            else if (off < -reach) want = toward - reach;
        }
        // The line is d + turned c: |lambda u - d| = |c| for the wanted direction u.
        const u = new Vector3(Math.cos(want), 0, Math.sin(want));
        const ud = Vector3.Dot(u, d);
        const lambda = ud + Math.sqrt(Math.max(ud * ud - d.lengthSquared() + c.lengthSquared(), 0));
        const w = u.scale(lambda).subtract(d);
        const a = share * wrap(Math.atan2(c.z, c.x) - Math.atan2(w.z, w.x));
        if (!(Math.abs(a) > 1e-9)) return;
        const turn = turnAboutUp(a);
        for (const [shoulder, arm] of [
            [B.LeftShoulder, B.LeftUpperArm],
            [B.RightShoulder, B.RightUpperArm],
        ] as const) {
            const before = q[shoulder].clone();
            q[shoulder].copyFrom(turn.multiply(before));
            q[arm].copyFrom(Quaternion.Inverse(q[shoulder]).multiply(before).multiply(q[arm]));
        }
        return;
    }
    const a = -share * sourceTurn;
    if (!(Math.abs(a) > 1e-9)) return;
    const turn = turnAboutUp(a);
    q[top].copyFrom(q[top].multiply(turn));
    for (let b = 0; b < HUMAN_BONE_COUNT; b++) {
        if (setup.joint[b] >= 0 && setup.parentBone[b] === top) q[b].copyFrom(Quaternion.Inverse(turn).multiply(q[b]));
    }
}
