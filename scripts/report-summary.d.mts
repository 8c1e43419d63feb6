/** A report pair as far as its summary reads it. */
export interface IReportSummaryPair {
    readonly clip: string;
    readonly target: string;
    readonly misses: readonly { readonly check: string; readonly value: number; readonly limit: number }[];
}
/** Prints the pairs of a report that miss a threshold and how many meet every one; `json` is named on the last line. */
export declare function PrintReportSummary(pairs: readonly IReportSummaryPair[], json: string): void;
