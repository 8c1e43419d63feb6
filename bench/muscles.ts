/**
 * Muscle-space benchmark: encode and decode time per pose, fast path against the slow reference
 * (test/helpers/referenceMuscles.ts: matrices, nothing cached) measured in the same run. Figures
 * are ratios; absolute times depend on the machine.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
    BuildHumanoidAvatar,
    BuildSampleRig,
    CreateReferenceRigPose,
    CreateRigFromBvh,
    DecodeHumanPose,
    EncodeHumanPose,
    GetBvhFramePose,
    HumanPose,
    ParseBvh,
    SampleCharacters,
    type HumanoidAvatar,
    type IRigPose,
} from "../src/index.js";
import { ReferenceDecodeWorldRotations, ReferenceEncode } from "../test/helpers/referenceMuscles.js";

export interface IMuscleBenchResult {
    subject: string;
    poses: number;
    encodeMicroseconds: number;
    decodeMicroseconds: number;
    referenceEncodeMicroseconds: number;
    referenceDecodeMicroseconds: number;
}

/** Poses to run: every frame of the CMU walk when ../shared/data is there, else the Mixamo sample's random poses. */
function subject(): { name: string; avatar: HumanoidAvatar; poses: IRigPose[] } {
    const cmu = resolve(process.cwd(), "../shared/data/bvh/cmu_cgspeed/cmu_walk.bvh");
    if (existsSync(cmu)) {
        const bvh = CreateRigFromBvh(ParseBvh(readFileSync(cmu, "utf8"), "cmu_walk.bvh"));
        const avatar = BuildHumanoidAvatar(bvh.rig);
        const poses = Array.from({ length: bvh.bvh.frameCount }, (_, f) => GetBvhFramePose(bvh, f));
        return { name: "cmu_walk.bvh (31 joints, 344 frames)", avatar, poses };
    }
    const avatar = BuildHumanoidAvatar(BuildSampleRig(SampleCharacters[0]));
    const p = new HumanPose();
    const poses: IRigPose[] = [];
    for (let k = 0; k < 300; k++) {
        for (let i = 0; i < 95; i++) p.values[i] = Math.sin(k * 0.1 + i) * 0.5;
        const r = DecodeHumanPose(avatar, p, CreateReferenceRigPose(avatar));
        poses.push({ label: `pose ${k}`, rotations: r.rotations.map((q) => q.clone()), positions: r.positions.map((v) => v.clone()) });
    }
    return { name: "built-in Mixamo sample (random poses)", avatar, poses };
}

/** Mean microseconds per call of `fn` over `items`, after a warm-up, repeated until `minMs` passed. */
function time<T>(items: T[], fn: (x: T) => void, minMs = 300): number {
    for (const x of items.slice(0, 20)) fn(x);
    let calls = 0;
    const start = performance.now();
    while (performance.now() - start < minMs) {
        for (const x of items) fn(x);
        calls += items.length;
    }
    return ((performance.now() - start) * 1000) / calls;
}

export function RunMuscleBench(): IMuscleBenchResult {
    const { name, avatar, poses } = subject();
    const hp = new HumanPose();
    const out = CreateReferenceRigPose(avatar);
    const encoded = poses.map((p) => EncodeHumanPose(avatar, p, new HumanPose()));
    const encodeUs = time(poses, (p) => EncodeHumanPose(avatar, p, hp));
    const decodeUs = time(encoded, (h) => DecodeHumanPose(avatar, h, out));
    const few = poses.slice(0, 30);
    const refEncodeUs = time(few, (p) => ReferenceEncode(avatar, p), 200);
    const refDecodeUs = time(encoded.slice(0, 30), (h) => ReferenceDecodeWorldRotations(avatar, h.values), 200);
    return {
        subject: name,
        poses: poses.length,
        encodeMicroseconds: encodeUs,
        decodeMicroseconds: decodeUs,
        referenceEncodeMicroseconds: refEncodeUs,
        referenceDecodeMicroseconds: refDecodeUs,
    };
}
