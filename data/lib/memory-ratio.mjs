// The paper sizes memory per node against its ~4 GiB dataset: 32, 8, 6 and 5 GiB are the
// memory:data ratios 8, 2, 1.5 and 1.25 (§4.3, §5.1). Runs scaled down to a smaller machine
// keep the ratio, not the GiB; this is where the two meet.

/** The paper's dataset per node, in GiB. */
export const PAPER_DATASET_GIB = 4;

/** The paper's memory setting (GiB) for a memory:data ratio. */
export function paperGibOfRatio(ratio) {
  return ratio * PAPER_DATASET_GIB;
}
