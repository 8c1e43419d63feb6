/** The characters the quality reports retarget onto, as paths inside ../shared/data. */
export declare const REPORT_TARGETS: readonly string[];
