/**
 * Calls `run(start, end)` for each run of `value` in `flags` (per-frame flags; `end` one past the
 * run's last frame), in order. `run` may change `flags` within the run; the walk goes on from `end`.
 * @param flags one flag a frame
 * @param value the flag whose runs are walked
 * @param run called with each run's first frame and the frame after its last
 */
export function ForEachFrameRun(flags: Uint8Array, value: number, run: (start: number, end: number) => void): void {
    let f = 0;
    while (f < flags.length) {
        if (flags[f] !== value) {
            f++;
            continue;
        }
        let e = f;
        while (e < flags.length && flags[e] === value) e++;
        run(f, e);
        f = e;
    }
}
