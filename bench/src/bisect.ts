// The paper's SLO search (§5.1): fix the client threads, vary YCSB's target rate, and find
// the highest rate whose intended p99 stays within the SLO. Bisection between a rate known to
// meet it and one known to miss it; geometric steps while the bracket is wide (rates span
// 100 ops/s to tens of thousands), arithmetic once it is narrow.

export interface ProbeOutcome {
  target_ops_per_s: number;
  /** Intended-latency p99, ms; null when nothing completed. */
  p99_ms: number | null;
  achieved_ops_per_s: number;
  met: boolean;
  /** Why a probe missed, when it was not only the p99 (crash, load not delivered…). */
  reason?: string;
  /**
   * Other tenants took the machine during the probe (after its bounded repeats). A disturbed
   * probe that met the SLO still met it; one that missed says nothing about the system.
   */
  disturbed?: boolean;
}

export interface SearchOptions {
  min_ops_per_s: number;
  max_ops_per_s: number;
  /** Stop when (hi - lo) / hi ≤ tolerance. */
  tolerance: number;
  max_probes: number;
}

export interface SearchResult {
  /** The highest rate that met the SLO; null when even the minimum missed it. */
  best: ProbeOutcome | null;
  /** True when the maximum itself met the SLO: the true limit may be higher. */
  ceiling_reached: boolean;
  /**
   * The disturbed probe that missed and ended the search, when one did: above `best` nothing
   * is known (best is then a lower bound), and with no best the setting is undecided.
   */
  stopped_by: ProbeOutcome | null;
  probes: ProbeOutcome[];
}

export function checkSearchOptions(o: SearchOptions): void {
  if (!(o.min_ops_per_s > 0)) throw new Error(`min rate must be > 0, got ${o.min_ops_per_s}`);
  if (!(o.max_ops_per_s > o.min_ops_per_s)) throw new Error(`max rate (${o.max_ops_per_s}) must exceed min rate (${o.min_ops_per_s})`);
  if (!(o.tolerance > 0 && o.tolerance < 1)) throw new Error(`tolerance must be in (0, 1), got ${o.tolerance}`);
  if (!(Number.isInteger(o.max_probes) && o.max_probes >= 2)) throw new Error(`max probes must be an integer ≥ 2, got ${o.max_probes}`);
}

/** The next rate to try inside (lo, hi). */
export function nextRate(lo: number, hi: number): number {
  const mid = hi / lo > 4 ? Math.sqrt(lo * hi) : (lo + hi) / 2;
  return Math.round(mid);
}

export async function searchMaxRate(
  probe: (target_ops_per_s: number) => Promise<ProbeOutcome>,
  options: SearchOptions,
): Promise<SearchResult> {
  checkSearchOptions(options);
  const probes: ProbeOutcome[] = [];
  const run = async (rate: number) => {
    const p = await probe(Math.round(rate));
    probes.push(p);
    return p;
  };
  // Start high, as the paper did: at ample resources the first probe may already answer.
  const top = await run(options.max_ops_per_s);
  if (top.met) return { best: top, ceiling_reached: true, stopped_by: null, probes };
  const bottom = await run(options.min_ops_per_s);
  if (!bottom.met) return { best: null, ceiling_reached: false, stopped_by: bottom.disturbed ? bottom : null, probes };
  // A miss under interference is no upper edge of the bracket: stop with what is known.
  if (top.disturbed) return { best: bottom, ceiling_reached: false, stopped_by: top, probes };
  let lo = bottom;
  let hi = top;
  while (probes.length < options.max_probes && (hi.target_ops_per_s - lo.target_ops_per_s) / hi.target_ops_per_s > options.tolerance) {
    const rate = nextRate(lo.target_ops_per_s, hi.target_ops_per_s);
    if (rate <= lo.target_ops_per_s || rate >= hi.target_ops_per_s) break;
    const p = await run(rate);
    if (p.met) lo = p;
    else if (p.disturbed) return { best: lo, ceiling_reached: false, stopped_by: p, probes };
    else hi = p;
  }
  return { best: lo, ceiling_reached: false, stopped_by: null, probes };
}
