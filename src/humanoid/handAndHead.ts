import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { type NameHint } from "./boneNames.js";
import { BodySide, GetFingerBone } from "./humanBones.js";

import { IsUsableJoint, type IChainContext } from "./mapContext.js";
/**
 * Two children of the head placed like eyes: mirror images across the midline, in front of the
 * head joint, neither named as something else. Returns [left, right] or undefined.
 */
export function FindEyePair(ctx: IChainContext, head: number, left: Vector3, forward: Vector3): [number, number] | undefined {
    const hp = ctx.pos[head];
    const cands = ctx.s.children[head].filter((c) => IsUsableJoint(ctx, c) && ctx.names[c].hints.size === 0);
    for (let a = 0; a < cands.length; a++) {
        for (let b = a + 1; b < cands.length; b++) {
            const da = ctx.pos[cands[a]].subtract(hp);
            const db = ctx.pos[cands[b]].subtract(hp);
            const la = Vector3.Dot(da, left);
            const lb = Vector3.Dot(db, left);
            const mirrored = da
                .subtract(left.scale(la))
                .subtract(db.subtract(left.scale(lb)))
                .length();
            const spread = Math.abs(la - lb);
            if (la * lb < 0 && Math.abs(la + lb) < 0.2 * spread && mirrored < 0.2 * spread && Vector3.Dot(da, forward) > 0.3 * spread) {
                return la > 0 ? [cands[a], cands[b]] : [cands[b], cands[a]];
            }
        }
    }
    return undefined;
}

const FINGER_HINTS: readonly NameHint[] = ["thumb", "index", "middle", "ring", "little"];

/** Path from `start` down the longest branch, keeping usable joints. */
function fingerChain(ctx: IChainContext, start: number): number[] {
    const { s } = ctx;
    const chain: number[] = [];
    for (let q = start; ;) {
        if (IsUsableJoint(ctx, q)) {
            chain.push(q);
        }
        if (!s.children[q].length) {
            return chain;
        }
        q = s.children[q].reduce((a, b) => (s.segment[b] + s.reach[b] > s.segment[a] + s.reach[a] ? b : a));
    }
}

/**
 * Maps the fingers under one hand. Chains start at the hand's children (a palm joint that fans out
 * into several fingers is looked through). A metacarpal (named so, or a joint much nearer the wrist
 * than the next one is to it) is skipped; the thumb keeps all its joints (its first joint is Unity's
 * thumb proximal). Which chain is which finger: the names when they tell every chain apart;
 * otherwise, with three chains or more, the thumb is the chain whose first joint is nearest the
 * wrist along the hand, and the others follow across the palm from it. Digits are the first three
 * joints.
 */
export function MapFingers(ctx: IChainContext, hand: number, side: BodySide.Left | BodySide.Right, map: Int32Array): void {
    if (hand < 0) {
        return;
    }
    const { s, pos } = ctx;
    const chains: number[][] = [];
    for (const c of s.children[hand]) {
        if (ctx.names[c].hints.has("helper") || ctx.names[c].hints.has("twist")) {
            continue;
        }
        const kids = s.children[c];
        if (kids.length >= 2 && !ctx.names[c].hints.has("thumb")) {
            for (const k of kids) {
                const sub = fingerChain(ctx, k);
                if (sub.length) chains.push(sub);
            }
            continue;
        }
        const chain = fingerChain(ctx, c);
        if (chain.length) {
            chains.push(chain);
        }
    }
    if (!chains.length) {
        return;
    }
    // Metacarpals (named so, or a joint much nearer the wrist than the next one is to it) go before
    // telling the fingers apart, so that the knuckles are compared; never on a thumb named so.
    for (let i = 0; i < chains.length; i++) {
        const ch = chains[i];
        if (ch.length < 2 || ch.some((j) => ctx.names[j].hints.has("thumb"))) continue;
        const toFirst = pos[ch[0]].subtract(pos[hand]).length();
        const firstToSecond = pos[ch[1]].subtract(pos[ch[0]]).length();
        if (ctx.names[ch[0]].hints.has("metacarpal") || toFirst < 0.5 * firstToSecond) {
            chains[i] = ch.slice(1);
        }
    }
    const byName = chains.map((ch) => FINGER_HINTS.findIndex((h) => ch.some((j) => ctx.names[j].hints.has(h))));
    const namesComplete = byName.every((f) => f >= 0) && new Set(byName).size === byName.length;
    let fingerOf: number[];
    if (namesComplete || chains.length < 3) {
        // Too few chains to tell by position: map only what the names identify.
        fingerOf = byName.map((f, i) => (byName.indexOf(f) === i ? f : -1));
    } else {
        const hp = pos[hand];
        const mean = Vector3.Zero();
        for (const ch of chains) mean.addInPlace(pos[ch[0]]);
        mean.scaleInPlace(1 / chains.length);
        const axis = mean.subtract(hp).normalize();
        const along = chains.map((ch) => Vector3.Dot(pos[ch[0]].subtract(hp), axis));
        let thumb = 0;
        along.forEach((a, i) => {
            if (a < along[thumb]) thumb = i;
        });
        const tp = pos[chains[thumb][0]];
        const lateral = (i: number): number => flattenLength(pos[chains[i][0]].subtract(tp), axis);
        const others = chains
            .map((_, i) => i)
            .filter((i) => i !== thumb)
            .sort((a, b) => lateral(a) - lateral(b));
        fingerOf = new Array<number>(chains.length).fill(-1);
        fingerOf[thumb] = 0;
        others.slice(0, 4).forEach((ci, k) => {
            fingerOf[ci] = k + 1;
        });
    }
    chains.forEach((ch, i) => {
        const f = fingerOf[i];
        if (f < 0) return;
        for (let d = 0; d < 3 && d < ch.length; d++) {
            map[GetFingerBone(side, f, d)] = ch[d];
        }
    });
}

/** Length of `v` with its component along the unit `axis` removed. */
function flattenLength(v: Vector3, axis: Vector3): number {
    return v.subtract(axis.scale(Vector3.Dot(v, axis))).length();
}
