import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../humanoid/avatar.js";
import { HumanBone } from "../humanoid/humanBones.js";
import { MuscleSetup } from "../muscle/setup.js";

const B = HumanBone;

/**
 * Watches a source's poses, as conversion encodes them, for arms on the wrong sides of the chest:
 * the line from the right upper-arm joint to the left turned more than a quarter turn from where
 * the chest's own turn carries its T-pose line. No body does that; a take does when its shoulders'
 * labels are swapped, or when its collarbones are turned half a turn against a rest pose that
 * points them the other way (one of the AnimatedDrawings project's takes of a child skipping: every
 * frame, its arms crossed over on every character it played on; on most of a take's frames,
 * conversion now leaves such collarbones out, `FindReversedCollarbones`, and the arms stay on
 * their own sides), or when its arms were mapped the
 * wrong way round (a rest pose with both arms in one place mapped so, before the mapping paired
 * such arms by their names). Nothing in muscle space can undo
 * it, so conversion says so (`ConvertRigPosesToMuscleClip`'s warnings) rather than making a clip
 * that looks broken for no reason given.
 *
 * Reads the encoder's work arrays (`MuscleSetup.work`: the joints' world positions and the bones'
 * turns from their T-pose, canonical), so {@link check} goes right after `EncodeHumanPose`. Nothing
 * allocated per frame. A rig without both upper arms mapped is never warned about.
 */
export class ShoulderSideWatch {
    private readonly _setup: MuscleSetup;
    private readonly _left: number;
    private readonly _right: number;
    /** The bone the left arm hangs from (through its shoulder when that is mapped), -1 when an arm is not mapped. */
    private readonly _chest: number;
    /** The T-pose line from the right upper-arm joint to the left, canonical, unit. */
    private readonly _rest = new Vector3();
    private readonly _now = new Vector3();
    private readonly _want = new Vector3();
    private _frames = 0;
    private _crossed = 0;
    private _first = -1;
    private _last = -1;

    /** @param avatar the source's avatar (the one its poses are encoded for) */
    constructor(avatar: HumanoidAvatar) {
        const setup = (this._setup = MuscleSetup.For(avatar));
        this._left = setup.joint[B.LeftUpperArm];
        this._right = setup.joint[B.RightUpperArm];
        // The bone the left shoulder hangs from, or without one the left upper arm.
        const chest = this._left >= 0 && this._right >= 0 ? setup.parentBone[setup.joint[B.LeftShoulder] >= 0 ? B.LeftShoulder : B.LeftUpperArm] : -1;
        this._chest = chest >= 0 && setup.joint[chest] >= 0 ? chest : -1;
        if (this._chest < 0) return;
        const p = avatar.referenceWorld.positions;
        p[this._left].subtractToRef(p[this._right], this._rest).applyRotationQuaternionInPlace(setup.c0Inverse);
        const n = this._rest.length();
        if (n > 0) this._rest.scaleInPlace(1 / n);
        else this._chest = -1;
    }

    /**
     * One frame, right after `EncodeHumanPose` encoded it (its work arrays hold that pose).
     * @param frame the frame's index, for the warning
     */
    public check(frame: number): void {
        if (this._chest < 0) return;
        this._frames++;
        const { pos, dc } = this._setup.work;
        pos[this._left].subtractToRef(pos[this._right], this._now).applyRotationQuaternionInPlace(this._setup.c0Inverse);
        this._rest.applyRotationQuaternionToRef(dc[this._chest], this._want);
        if (Vector3.Dot(this._now, this._want) < 0) {
            this._crossed++;
            if (this._first < 0) this._first = frame;
            this._last = frame;
        }
    }

    /** The warning to give, or null when no frame had its arms crossed over. */
    public warning(): string | null {
        if (this._crossed === 0) return null;
        const where = this._first === this._last ? `frame ${this._first}` : `frames ${this._first}-${this._last}`;
        return (
            `the arms are on the wrong sides of the chest in ${this._crossed} of ${this._frames} frames (${where}: the line between the upper-arm joints ` +
            `turned more than 90 degrees from where the chest's turn carries the T-pose's): the take's shoulders may be labelled the wrong way round, ` +
            `its collarbones turned half a turn against its rest pose, or its rest pose put both arms in one place; each arm of a character does what the other side's does`
        );
    }
}
