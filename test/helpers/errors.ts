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
