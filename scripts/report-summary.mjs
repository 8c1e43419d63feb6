// The summary `npm run report:extra` and `npm run report:variants` print after their reports: each
// pair that misses a threshold with what it misses (value > limit), then how many pass.

/**
 * Prints the pairs of a report that miss a threshold and how many meet every one.
 * @param {readonly { clip: string; target: string; misses: readonly { check: string; value: number; limit: number }[] }[]} pairs the report's pairs (its JSON's `pairs`)
 * @param {string} json where the report's JSON was written, named on the last line
 */
export function PrintReportSummary(pairs, json) {
    const name = (p) => `${p.clip} -> ${p.target.split(/[\\/]/).pop()}`;
    for (const p of pairs.filter((q) => q.misses.length)) {
        process.stdout.write(`  ${name(p)}: ${p.misses.map((m) => `${m.check} ${+m.value.toPrecision(3)} > ${+m.limit.toPrecision(3)}`).join("; ")}\n`);
    }
    process.stdout.write(`${pairs.filter((p) => !p.misses.length).length} of ${pairs.length} pairs meet every threshold; ${json}\n`);
}
