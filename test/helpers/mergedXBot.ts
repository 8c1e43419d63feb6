/**
 * The bones of the Mixamo X Bot merged into their parents to make a second, coarser rig for the
 * surface fit without new data: `Spine2` (into `Spine1`) and every finger joint (up its chain into
 * the hand), with the `_end` tips below them.
 */
export const XBOT_MERGED_BONES = /mixamorig:Spine2$|mixamorig:(Left|Right)Hand(Thumb|Index|Middle|Ring|Pinky)\d/;
