// The paper's stated numbers as lessons cite them: one row of data/paper/paper-results.json per
// id, with its value, unit, where it is in the paper and the exact quote.

export interface PaperFact {
  id: string;
  value: number | string;
  unit: string;
  where: string;
  quote: string;
}

interface ResultsRow {
  id: string;
  value: number | string;
  unit: string;
  section?: string | null;
  figure_or_table?: string | null;
  panel?: string | null;
  provenance?: { exact_quote?: string };
}

export type PaperIndex = ReadonlyMap<string, PaperFact>;

export function paperIndex(results: { rows: ResultsRow[] }): PaperIndex {
  const out = new Map<string, PaperFact>();
  for (const r of results.rows) {
    const fig = r.figure_or_table && r.figure_or_table !== 'text' ? `${r.figure_or_table}${r.panel ? ` ${r.panel}` : ''}, ` : '';
    out.set(r.id, { id: r.id, value: r.value, unit: r.unit, where: `${fig}§${r.section ?? '?'}`, quote: r.provenance?.exact_quote ?? '' });
  }
  return out;
}

export function formatFact(f: PaperFact): string {
  return `${f.value} ${f.unit}`;
}
