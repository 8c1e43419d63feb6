import {
    CLIP_PROPORTION_COUNT,
    CLIP_PROPORTION_FOOT_LENGTH,
    CLIP_PROPORTION_FOOT_SHARE,
    CLIP_PROPORTION_SHOULDER_OFFSETS,
    CLIP_PROPORTION_SHOULDER_SHARE,
    CLIP_PROPORTION_TRUNK_OFFSETS,
    CLIP_SHOULDER_OFFSET_COUNT,
    CLIP_TRUNK_OFFSET_COUNT,
} from "../clip/clipProportions.js";
import type { HumanoidLayer } from "./clipLayer.js";

/**
 * The source proportions of a layer's clips (`MuscleClip.proportionValues`), by their weights, into
 * `props` (`CLIP_PROPORTION_COUNT` numbers): the foot's, thigh's and shin's directions back to unit
 * length, the trunk's layout left summed by weight (decode takes only its directions and shares)
 * and the shoulders' averaged, each from the clips that have one, a mirrored clip's turned over,
 * with the share of the layer's weight those clips hold (`CLIP_PROPORTION_SHOULDER_SHARE`), the
 * foot length likewise (`CLIP_PROPORTION_FOOT_SHARE`); NaN
 * where no clip says. The clip player's, each update. Allocation-free.
 * @param layer the layer
 * @param props receives the blend
 */
export function BlendLayerProportionsToRef(layer: HumanoidLayer, props: Float64Array): void {
    props.fill(0);
    let total = 0;
    let trunked = 0;
    let shouldered = 0;
    let footed = 0;
    const t = CLIP_PROPORTION_TRUNK_OFFSETS;
    const te = CLIP_PROPORTION_TRUNK_OFFSETS + CLIP_TRUNK_OFFSET_COUNT;
    const sh = CLIP_PROPORTION_SHOULDER_OFFSETS;
    const states = layer.states;
    for (let k = 0; k < states.length; k++) {
        const s = states[k];
        if (!s.clip || !s.clip.proportions) continue;
        const w = (s.weight * s.fade) / layer.total;
        if (!(w > 0)) continue;
        total += w;
        const p = s.clip.proportionValues;
        for (let i = 0; i < t; i++) props[i] += p[i] * w;
        // The foot length from the clips that give one (a file before version 11 has none).
        if (p[CLIP_PROPORTION_FOOT_LENGTH] === p[CLIP_PROPORTION_FOOT_LENGTH]) {
            footed += w;
            props[CLIP_PROPORTION_FOOT_LENGTH] += p[CLIP_PROPORTION_FOOT_LENGTH] * w;
        }
        // The trunk's and the shoulders' layouts from the clips that have one (a file before
        // version 7 or 9 has none): a cross-fade with such a clip keeps the other's rather than none.
        if (p[t] === p[t]) {
            trunked += w;
            for (let i = t; i < te; i++) props[i] += p[i] * w;
            if (s.mirror) {
                // A mirrored clip's trunk is its source's mirror image: its layout's x turned over.
                props[t] -= 2 * p[t] * w;
                props[t + 3] -= 2 * p[t + 3] * w;
                props[t + 6] -= 2 * p[t + 6] * w;
                props[t + 9] -= 2 * p[t + 9] * w;
                props[t + 12] -= 2 * p[t + 12] * w;
            }
        }
        if (p[sh] === p[sh]) {
            shouldered += w;
            // A mirrored clip's shoulders: each side's the other's, x turned over (`MirrorShoulderOffsets`).
            const half = CLIP_SHOULDER_OFFSET_COUNT / 2;
            for (let i = 0; i < CLIP_SHOULDER_OFFSET_COUNT; i += 3) {
                const from = s.mirror ? sh + ((i + half) % CLIP_SHOULDER_OFFSET_COUNT) : sh + i;
                props[sh + i] += s.mirror ? -p[from] * w : p[from] * w;
                props[sh + i + 1] += p[from + 1] * w;
                props[sh + i + 2] += p[from + 2] * w;
            }
        }
    }
    if (!(trunked > 0)) for (let i = t; i < te; i++) props[i] = NaN;
    if (!(shouldered > 0)) for (let i = sh; i <= CLIP_PROPORTION_SHOULDER_SHARE; i++) props[i] = NaN;
    else {
        // The layouts' mean over the clips that have one, and those clips' share of the layer: a
        // cross-fade from a clip without one eases decode's shoulder step in rather than at once.
        const inv = 1 / shouldered;
        for (let i = sh; i < sh + CLIP_SHOULDER_OFFSET_COUNT; i++) props[i] *= inv;
        props[CLIP_PROPORTION_SHOULDER_SHARE] = shouldered / total;
    }
    if (!(total > 0)) {
        for (let i = 0; i < CLIP_PROPORTION_COUNT; i++) props[i] = NaN;
        return;
    }
    // Written out: the same as loops over `props`, which boxed two numbers a frame.
    const inv = 1 / total;
    props[0] *= inv;
    props[1] *= inv;
    props[2] *= inv;
    props[6] *= inv;
    props[7] *= inv;
    props[8] *= inv;
    // The foot length's mean over the clips that give one, and those clips' share of the layer.
    if (footed > 0) {
        props[CLIP_PROPORTION_FOOT_LENGTH] /= footed;
        props[CLIP_PROPORTION_FOOT_SHARE] = footed * inv;
    } else {
        props[CLIP_PROPORTION_FOOT_LENGTH] = NaN;
        props[CLIP_PROPORTION_FOOT_SHARE] = NaN;
    }
    // The trunk's and shoulders' layouts are left summed by weight: decode takes only their directions and shares.
    // The foot's, thigh's and shin's directions, blends of unit vectors, back to unit length.
    unitInPlace(props, 3);
    unitInPlace(props, 9);
    unitInPlace(props, 12);
}

/** Scales the 3-vector at `at` of `v` to unit length (NaN when it is zero or NaN). */
function unitInPlace(v: Float64Array, at: number): void {
    const x = v[at];
    const y = v[at + 1];
    const z = v[at + 2];
    const l = Math.sqrt(x * x + y * y + z * z);
    // A branch, not `l > 0 ? 1 / l : NaN`: that choice between a computed number and the NaN
    // constant made V8 box the number, 16 bytes of garbage a frame.
    if (l > 0) {
        const k = 1 / l;
        v[at] = x * k;
        v[at + 1] = y * k;
        v[at + 2] = z * k;
    } else {
        v[at] = NaN;
        v[at + 1] = NaN;
        v[at + 2] = NaN;
    }
}
