// Comparing two fidelity tables row by row (docs/fidelity.md compares the default card's table
// with the previous default's: previous-default-section.ts), and comparing two cards' parameters.

export interface ComparedRow {
  id: string;
  paper: string;
  default_sim: number;
  default_error: string;
  candidate_sim: number;
  candidate_error: string;
  candidate_card: string;
}

export interface SectionRow {
  id: string;
  paper: string;
  sim: number;
  error: string;
  card: string;
}

/** The rows whose simulated value differs between the default's table and the candidate's, in the
 * default table's order; a row missing from the candidate's table is an error (the two tables
 * must cover the same points to be compared). */
export function changedRows(defaults: SectionRow[], candidate: SectionRow[]): ComparedRow[] {
  const byId = new Map(candidate.map((r) => [r.id, r]));
  const out: ComparedRow[] = [];
  for (const d of defaults) {
    const c = byId.get(d.id);
    if (!c) throw new Error(`candidate table has no row ${d.id}`);
    if (c.sim === d.sim) continue;
    out.push({ id: d.id, paper: d.paper, default_sim: d.sim, default_error: d.error, candidate_sim: c.sim, candidate_error: c.error, candidate_card: c.card });
  }
  return out;
}

/** Parameters of two cards that differ, leaving out the storage model's (`storage.*`), which a run
 * without durability never reads. Empty: the two cards give the same figures for such runs. */
export function differingNonStorageParameters(a: Record<string, { value: unknown }>, b: Record<string, { value: unknown }>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !k.startsWith('storage.')));
  return [...keys].filter((k) => JSON.stringify(a[k]?.value) !== JSON.stringify(b[k]?.value)).sort();
}
