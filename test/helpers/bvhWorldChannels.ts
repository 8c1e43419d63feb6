import { readFileSync, writeFileSync } from "node:fs";
import { ParseBvh } from "../../src/io/bvh.js";
import { CreateRigFromBvh, GetBvhFramePose } from "../../src/io/bvhRig.js";
import { ComputeRigWorldPose } from "../../src/humanoid/rig.js";

/**
 * Writes `output`: the BVH file `input` with three position channels put before the rotation
 * channels of each joint named in `joints` (which must have none), holding where the joint is in
 * the world on each frame, as some exporters write them (the AnimatedDrawings project's CMU takes
 * write their thorax's and head's so). The rest of the file is the input's, character for
 * character: a reader that takes those channels as world positions, or leaves them out, reads the
 * same motion. With `stretch`, the channels hold translations from the parent instead, the OFFSET
 * scaled by 1 + 0.3 sin(frame / 10) (a joint that stretches: a translation, which a reader must
 * take as one). Returns `output`.
 */
export function WriteBvhWithWorldPositionChannels(input: string, output: string, joints: readonly string[], stretch = false): string {
    const text = readFileSync(input, "utf8");
    const bvh = ParseBvh(text, input);
    // World positions in file units and axes: a Y-up reading in file units is the file's axes with x mirrored.
    const bvhRig = CreateRigFromBvh(bvh, { upAxis: "y", units: 1, samplePoseCount: 0 });
    const indices = joints.map((name) => {
        const j = bvh.joints.findIndex((x) => x.name === name);
        if (j <= 0) throw new Error(`${input}: no joint ${name} below the root`);
        if (bvh.joints[j].channels.some((c) => c.endsWith("position"))) throw new Error(`${input}: joint ${name} already has position channels`);
        return j;
    });
    const lines = text.split(/\r?\n/);
    // The hierarchy: each named joint's CHANNELS line (the first after its declaration) gets three more.
    for (const j of indices) {
        const declared = bvh.joints[j].line - 1;
        const k = lines.findIndex((l, i) => i > declared && /^\s*CHANNELS\s/.test(l));
        const m = /^(\s*)CHANNELS\s+(\d+)\s+(.*)$/.exec(lines[k])!;
        lines[k] = `${m[1]}CHANNELS ${Number(m[2]) + 3} Xposition Yposition Zposition ${m[3]}`;
    }
    const motionAt = lines.findIndex((l) => /^\s*Frame Time:/.test(l)) + 1;
    // Insert in the values from the last joint back, so that earlier channel starts stay right.
    const order = [...indices].sort((a, b) => bvh.joints[b].channelStart - bvh.joints[a].channelStart);
    for (let f = 0; f < bvh.frameCount; f++) {
        const values = lines[motionAt + f].trim().split(/\s+/);
        const world = ComputeRigWorldPose(bvhRig.rig, GetBvhFramePose(bvhRig, f)).positions;
        for (const j of order) {
            const p = world[j];
            const k = 1 + 0.3 * Math.sin(f / 10);
            const o = bvh.joints[j].offset;
            const v = stretch ? [o[0] * k, o[1] * k, o[2] * k] : [-p.x, p.y, p.z];
            values.splice(bvh.joints[j].channelStart, 0, ...v.map((x) => x.toFixed(5)));
        }
        lines[motionAt + f] = values.join(" ");
    }
    writeFileSync(output, lines.join("\n"));
    return output;
}
