import type { IConventionRig } from "./conventionRig.js";
import { biped, rigify, ue5 } from "./conventionsAnimationTools.js";
import { characterCreator, daz, vroid } from "./conventionsCharacterCreators.js";
import { cmuAutoLabelled, perceptionNeuron } from "./conventionsMocap.js";

/** All convention rigs. */
export const CONVENTION_RIGS: readonly IConventionRig[] = [ue5(), daz(), biped(), vroid(), rigify(), characterCreator(), perceptionNeuron(), cmuAutoLabelled()];
