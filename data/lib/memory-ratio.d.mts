/** The paper's dataset per node, in GiB (§4.3). */
export declare const PAPER_DATASET_GIB: 4;
/** The paper's memory setting (GiB) for a memory:data ratio. */
export declare function paperGibOfRatio(ratio: number): number;
