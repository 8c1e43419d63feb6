// The choices a caller makes for a rig solver (`HumanoidRigSolver`) that the animator's options
// and the offline tools pass on: how a clip's positions scale to the character, and how far a limb
// may stretch by default.

/** Default squash-and-stretch of every limb: 5% of its length, as Mecanim's arm and leg stretch. */
export const DEFAULT_LIMB_STRETCH = 0.05;

/**
 * How a clip's positions are scaled to the character (docs/runtime.md, proportions):
 * - `"legs"` (default): stride, foot goals and root travel scale by the legs (the character's leg
 *   length over the source's), and the body sits where the character's own legs put it under the
 *   feet, so a short-legged character walks with bent knees and planted feet;
 * - `"com"`: Mecanim's rule: everything scales by the centre-of-mass height (a foot goal's height
 *   from the ankle, the source's ankle height taken off and the character's put back, as with
 *   `"legs"`), and the body is lowered only when the feet could not reach otherwise.
 */
export type ProportionMode = "legs" | "com";
