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
  /**
   * A warm start: the rate that decided a neighbouring setting (the same setting's previous
   * repetition, else the same system, workload and vCPUs at the previous memory size). It is
   * probed first, and its neighbour one tolerance away next, so a search whose answer moved less
   * than the tolerance ends in two probes; the top and the minimum are probed only when the
   * bracket must widen to them (warmSearch). Only an order of probes: the answer is still a rate
   * that met the SLO with a missed rate within the tolerance above it (or the top, or nothing),
   * as without it.
   */
  hint_ops_per_s?: number;
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
  const hint = options.hint_ops_per_s === undefined ? NaN : Math.round(options.hint_ops_per_s);
  if (hint > options.min_ops_per_s && hint < Math.round(options.max_ops_per_s)) {
    const warm = await warmSearch(run, hint, probes, options);
    if (warm) return warm;
    // A disturbed miss at the hint says nothing: search the whole bracket as without a hint.
  }
  // Start high, as the paper did: at ample resources the first probe may already answer.
  const top = await run(options.max_ops_per_s);
  if (top.met) return { best: top, ceiling_reached: true, stopped_by: null, probes };
  return searchFromBottom(run, top, probes, options);
}

/**
 * A search warm-started at `hint`: the hint first, then the rate one tolerance away on the side
 * its outcome points to, so an answer that has not moved is decided in two probes. The bracket
 * the hint implies is checked, never assumed: a met rate one tolerance above the hint widens it
 * up to the top (probed only then, so a met top is still a ceiling), a missed rate one tolerance
 * below it widens it down to the minimum (probed only then, so a miss there is still "not even
 * the minimum"). The answer keeps a cold search's guarantee: a met rate with a clean miss within
 * the tolerance above it, the top, or nothing. Null when a disturbed miss at the hint decided
 * nothing.
 */
async function warmSearch(run: (rate: number) => Promise<ProbeOutcome>, hint: number, probes: ProbeOutcome[], options: SearchOptions): Promise<SearchResult | null> {
  const h = await run(hint);
  if (h.met) {
    // Just above the hint: a clean miss there closes the bracket at once.
    const up = Math.floor(hint / (1 - options.tolerance)); // floor: the bracket then is within the tolerance
    // (room left for the top after it: a search that has not decided keeps an upper edge)
    if (up < options.max_ops_per_s && probes.length + 2 <= options.max_probes) {
      const u = await run(up);
      if (!u.met) return u.disturbed ? { best: h, ceiling_reached: false, stopped_by: u, probes } : bisect(run, h, u, probes, options);
      return fromMetUpToTop(run, u, probes, options);
    }
    return fromMetUpToTop(run, h, probes, options);
  }
  if (h.disturbed) return null;
  // The hint missed: just below it, where a met rate closes the bracket at once.
  const down = Math.ceil(hint * (1 - options.tolerance));
  // (room left for the minimum after it, which tells "not even the minimum" from a low answer)
  if (down > options.min_ops_per_s && probes.length + 2 <= options.max_probes) {
    const d = await run(down);
    if (d.met) return bisect(run, d, h, probes, options);
    if (d.disturbed) {
      const bottom = await run(options.min_ops_per_s);
      if (!bottom.met) return { best: null, ceiling_reached: false, stopped_by: bottom.disturbed ? bottom : d, probes };
      return { best: bottom, ceiling_reached: false, stopped_by: d, probes };
    }
    return searchFromBottom(run, d, probes, options);
  }
  return searchFromBottom(run, h, probes, options);
}

/** A met rate below the top, the answer above it: the top, then bisection up to it. */
async function fromMetUpToTop(run: (rate: number) => Promise<ProbeOutcome>, lo: ProbeOutcome, probes: ProbeOutcome[], options: SearchOptions): Promise<SearchResult> {
  const top = await run(options.max_ops_per_s);
  if (top.met) return { best: top, ceiling_reached: true, stopped_by: null, probes };
  if (top.disturbed) return { best: lo, ceiling_reached: false, stopped_by: top, probes };
  return bisect(run, lo, top, probes, options);
}

/** Probes the minimum rate, then bisects up to `hi` (a missed probe). */
async function searchFromBottom(run: (rate: number) => Promise<ProbeOutcome>, hi: ProbeOutcome, probes: ProbeOutcome[], options: SearchOptions): Promise<SearchResult> {
  const top = hi;
  const bottom = await run(options.min_ops_per_s);
  if (!bottom.met) return { best: null, ceiling_reached: false, stopped_by: bottom.disturbed ? bottom : null, probes };
  // A miss under interference is no upper edge of the bracket: stop with what is known.
  if (top.disturbed) return { best: bottom, ceiling_reached: false, stopped_by: top, probes };
  return bisect(run, bottom, top, probes, options);
}

/** The rest of the search once a met rate `lo` and a missed rate `hi` bracket the answer. */
async function bisect(run: (rate: number) => Promise<ProbeOutcome>, lo: ProbeOutcome, hi: ProbeOutcome, probes: ProbeOutcome[], options: SearchOptions): Promise<SearchResult> {
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
