/**
 * Reading joint names: prefixes and suffixes (`mixamorig:`, `_8`, `.L`, `_l`, `_end`), side words
 * and the body-part words of the common conventions (Mixamo, Unreal, VRM, CMU, Rigify, Biped, Daz,
 * CC, VRoid). Names help but lie, so the mapper treats what this module says as hints that add to a
 * score, never as the answer on their own.
 */

/** A body part a name may point at. */
export type NameHint =
    | "hips"
    | "spine"
    | "chest"
    | "neck"
    | "head"
    | "eye"
    | "jaw"
    | "shoulder"
    | "upperArm"
    | "lowerArm"
    | "hand"
    | "upperLeg"
    | "lowerLeg"
    | "foot"
    | "toes"
    | "thumb"
    | "index"
    | "middle"
    | "ring"
    | "little"
    | "finger"
    | "twist"
    | "nub"
    | "metacarpal"
    | "helper";

/** What a joint name says. */
export interface INameInfo {
    /** Lower-case word tokens of the name, prefixes stripped. */
    readonly tokens: readonly string[];
    /** Side the name states: -1 left, +1 right, 0 none. */
    readonly side: -1 | 0 | 1;
    /** Body parts the name points at. */
    readonly hints: ReadonlySet<NameHint>;
}

/** Splits a name into lower-case word tokens: namespace prefixes go, camelCase and digits split. */
export function TokenizeJointName(name: string): string[] {
    let s = name;
    const colon = s.lastIndexOf(":");
    if (colon >= 0) {
        s = s.slice(colon + 1);
    }
    // Prefixes that name the tool, not the part: Mixamo's without its colon, Reallusion's
    // Character Creator and ActorCore (`CC_Base_L_Upperarm`: its `Base` read as a metacarpal made
    // every joint of the skeleton one, and its upper arm mapped to the clavicle).
    s = s.replace(/^mixamorig\d*_/i, "").replace(/^CC_Base_/i, "");
    s = s
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
        .replace(/([A-Za-z])(\d)/g, "$1 $2")
        .replace(/(\d)([A-Za-z])/g, "$1 $2");
    return s
        .split(/[^A-Za-z0-9]+/)
        .filter((t) => t.length > 0)
        .map((t) => t.toLowerCase());
}

const LEFT_WORDS = new Set(["left", "l", "lft"]);
const RIGHT_WORDS = new Set(["right", "r", "rgt", "rt"]);

/** Side-prefixed single words of some conventions: `lShldr`, `lhand`, `LThumb`, `rThigh`. */
const SIDE_PREFIX =
    /^([lr])(shldr|forearm|fore|hand|thigh|shin|foot|collar|hip|knee|ankle|toe|thumb|index|mid|ring|pinky|fingers?|carpal|eye|elbow|wrist|arm|leg|up|uparm|lowarm|upleg|lowleg|clavicle|shoulder)(.*)$/;

const PART_WORDS: ReadonlyArray<[RegExp, NameHint]> = [
    [/^(hips?|pelvis|hip)$/, "hips"],
    [/^(spine|back|lowerback|abdomen|abdomenlower|abdomenupper|waist|torso|abs)$/, "spine"],
    [/^(chest|chestlower|chestupper|thorax|ribcage|breast)$/, "chest"],
    [/^(neck|neckup|necklower|neckupper|lowerneck|upperneck)$/, "neck"],
    [/^(head)$/, "head"],
    [/^(eye|eyeball|eyes)$/, "eye"],
    [/^(jaw|chin)$/, "jaw"],
    [/^(shoulder|clavicle|collar|clav|scapula)$/, "shoulder"],
    [/^(upperarm|uparm|humerus|shldr|shldrbend)$/, "upperArm"],
    [/^(forearm|lowerarm|lowarm|elbow|fore|ulna|radius|forearmbend)$/, "lowerArm"],
    [/^(hand|wrist|palm)$/, "hand"],
    [/^(thigh|upleg|upperleg|femur|thighbend)$/, "upperLeg"],
    [/^(calf|shin|knee|lowerleg|lowleg|tibia|crus)$/, "lowerLeg"],
    [/^(foot|ankle|feet)$/, "foot"],
    [/^(toe|toes|ball|toebase)$/, "toes"],
    [/^(thumb|pollex)$/, "thumb"],
    [/^(index|pointer|forefinger)$/, "index"],
    [/^(middle|mid)$/, "middle"],
    [/^(ring)$/, "ring"],
    [/^(little|pinky|pinkie|small)$/, "little"],
    [/^(twist|roll|twst)$/, "twist"],
    [/^(end|nub|tip|top|tail|dummy|null|leaf)$/, "nub"],
    [/^(metacarpal|carpal|metacarpals|base)$/, "metacarpal"],
    [/^(ik|pole|target|slot|handslot|prop|weapon|attach|socket|helper|ctrl|control|sec|share|sharebone)$/, "helper"],
];

/**
 * Reads a joint name: tokens, the side it states and the body parts it points at. Compound words
 * are recognised (`LeftUpLeg`: up + leg, `upper_arm`, `LowerBack`), as are side prefixes glued to a
 * word (`lShldrBend`, `LThumb`).
 */
export function ParseJointName(name: string): INameInfo {
    const raw = TokenizeJointName(name);
    const tokens: string[] = [];
    let side: -1 | 0 | 1 = 0;
    for (const t of raw) {
        const m = SIDE_PREFIX.exec(t);
        if (m && raw.length <= 4) {
            side = m[1] === "l" ? -1 : 1;
            tokens.push(m[2]);
            if (m[3]) {
                tokens.push(m[3]);
            }
            continue;
        }
        tokens.push(t);
    }
    const hints = new Set<NameHint>();
    for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i];
        if (LEFT_WORDS.has(t)) {
            side = -1;
            continue;
        }
        if (RIGHT_WORDS.has(t)) {
            side = 1;
            continue;
        }
        for (const [re, hint] of PART_WORDS) {
            if (re.test(t)) {
                hints.add(hint);
            }
        }
    }
    const has = (t: string): boolean => tokens.includes(t);
    const joined = tokens.join("");
    // Compound forms: up + arm, upper + arm, low(er) + leg, up + leg ...
    if (has("arm")) {
        if (has("up") || has("upper")) {
            hints.add("upperArm");
        } else if (has("low") || has("lower") || has("fore")) {
            hints.add("lowerArm");
        } else if (!hints.has("lowerArm")) {
            // Mixamo `LeftArm`, CMU `LeftArm`: the upper arm.
            hints.add("upperArm");
        }
    }
    if (has("leg")) {
        if (has("up") || has("upper")) {
            hints.add("upperLeg");
        } else if (has("low") || has("lower")) {
            hints.add("lowerLeg");
        } else {
            // Mixamo `LeftLeg`: the shin. (Some VRM exports call the thigh `Left leg`; geometry decides.)
            hints.add("lowerLeg");
        }
    }
    if (joined.includes("upperchest") || (has("upper") && has("chest"))) {
        hints.add("chest");
    }
    if (has("finger") || has("fingers") || has("digit")) {
        hints.add("finger");
    }
    if (has("in") && hints.has("hand") && (hints.has("index") || hints.has("middle") || hints.has("ring") || hints.has("little"))) {
        // Perception Neuron's `RightInHandIndex`: the metacarpal in the palm, not a hand.
        hints.delete("hand");
        hints.add("metacarpal");
    }
    if (hints.has("hips") && side !== 0) {
        // CMU-ASF `LeftHip` is the thigh.
        hints.delete("hips");
        hints.add("upperLeg");
    }
    if (hints.has("head") && hints.has("nub")) {
        hints.delete("head");
    }
    if (hints.has("eye") && tokens.some((t) => /^(brow|lid|lash|lids|lashes|eyebrow)$/.test(t))) {
        hints.delete("eye");
        hints.add("helper");
    }
    return { tokens, side, hints };
}

/** `true` when the name marks a tip, end or helper joint that should not carry a human bone. */
export function IsNubName(info: INameInfo): boolean {
    return info.hints.has("nub") || info.hints.has("helper");
}
