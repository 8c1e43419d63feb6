import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { HumanoidAvatar } from "../../src/humanoid/avatar.js";
import { HumanBone } from "../../src/humanoid/humanBones.js";
import { CanonicalPointToRef } from "../../src/muscle/encode.js";
import { MuscleSetup } from "../../src/muscle/setup.js";
import type { HumanoidClipPlayer } from "../../src/runtime/clipPlayer.js";

/** A clip player as foot planting reads it, its fields writable by the test. */
export interface IPlantingPlayerStub {
    jumped: boolean;
    readonly shownRoot: Float64Array;
    readonly groundRoot: Float64Array;
    /** `FootContact` flags of the update (left 1, right 2). */
    contacts: number;
    readonly contactFrameRate: number;
    readonly step: Float64Array;
    /** Seconds to each foot's next contact, as `nextContactToRef` gives it (default: none coming). */
    nextContact: number;
    /** The stub as the player type planting takes. */
    readonly player: HumanoidClipPlayer;
}

/**
 * A player for `HumanoidFootPlanting.update` without a clip: no root motion, both feet down,
 * stepping by one frame of `frameRate` a second, no contact announced.
 */
export function PlantingPlayerStub(frameRate: number): IPlantingPlayerStub {
    const stub = {
        jumped: false,
        shownRoot: new Float64Array(3),
        groundRoot: new Float64Array(3),
        contacts: 3,
        contactFrameRate: frameRate,
        step: Float64Array.of(1 / frameRate),
        nextContact: Infinity,
        nextContactToRef: (_s: number, io: Float64Array, i: number): void => {
            io[i] = stub.nextContact;
        },
    };
    return Object.assign(stub, { player: stub as unknown as HumanoidClipPlayer });
}

/**
 * A foot of an avatar at rest as planting sees it (canonical frame, the avatar's own scales, from
 * its T-pose ground): its ankle, and its toes' (or its tip's) offset from the ankle.
 * @param side 0 left, 1 right
 */
export function FootAtRest(avatar: HumanoidAvatar, side: 0 | 1): { ankle: Vector3; toeOffset: Vector3 } {
    const setup = MuscleSetup.For(avatar);
    const ref = avatar.referenceWorld.positions;
    const canon = (j: number): Vector3 => CanonicalPointToRef(setup, ref[j], new Vector3());
    const ankle = canon(setup.joint[side === 0 ? HumanBone.LeftFoot : HumanBone.RightFoot]);
    return { ankle, toeOffset: canon(setup.footTip[side]).subtract(ankle) };
}
