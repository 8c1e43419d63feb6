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
