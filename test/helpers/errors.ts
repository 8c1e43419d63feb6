import { HumanoidError } from "../../src/index.js";

/** Runs `fn`, expects it to throw a HumanoidError, and returns it. */
export function errorOf(fn: () => unknown): HumanoidError {
    try {
        fn();
    } catch (e) {
        expect(e).toBeInstanceOf(HumanoidError);
        return e as HumanoidError;
    }
    throw new Error("expected a HumanoidError");
}

/** Awaits `p`, expects it to reject with a HumanoidError, and returns it. */
export async function errorOfAsync(p: Promise<unknown>): Promise<HumanoidError> {
    try {
        await p;
    } catch (e) {
        expect(e).toBeInstanceOf(HumanoidError);
        return e as HumanoidError;
    }
    throw new Error("expected a HumanoidError");
}
