import { HumanoidError } from "../errors.js";

/**
 * One line naming the input and the problem: a {@link HumanoidError}'s message (which names its
 * file, line or field), or `<input>: <message>` for anything else; line breaks folded.
 */
export function ErrorLine(input: string, e: unknown): string {
    const msg = e instanceof HumanoidError ? e.message : `${input}: ${(e as Error)?.message ?? String(e)}`;
    return msg.replace(/\s*\n\s*/g, " ");
}
