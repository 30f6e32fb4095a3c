// The paper's stated numbers as lessons cite them: one row of data/paper/paper-results.json per
// id, with its value, unit, where it is in the paper and the exact quote. The row type is the one
// results type of @replicant/data (generated beside results.schema.json).
import type { ResultsFile } from '@replicant/data/results';

export interface PaperFact {
  id: string;
  value: number | string;
  unit: string;
  where: string;
  quote: string;
}

export type PaperIndex = ReadonlyMap<string, PaperFact>;

export function paperIndex(results: Pick<ResultsFile, 'rows'>): PaperIndex {
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
