// Results files in the shared schema (data/schema/results.schema.json): the paper's, and any
// simulated or native results present at build time.
import paperResultsJson from '@replicant/data/paper/paper-results.json';
import unavailableCsv from '@replicant/data/paper/unavailable-series.csv?raw';
import { csvObjects } from '@replicant/data/csv';
import type { ResultsFile } from '@replicant/data/results';

export type { Qualifier, ResultRow, ResultsFile } from '@replicant/data/results';

export interface UnavailableSeries {
  id: string;
  figure_or_table: string;
  panel: string;
  series: string;
  language: string;
  workload: string;
  memory_gib: number | null;
  vcpus: number | null;
  metric: string;
  what_text_gives: string;
  related_ids: string[];
  note: string;
}

export const PAPER: ResultsFile = paperResultsJson as ResultsFile;

const numOrNull = (s: string | undefined) => (s === undefined || s === '' ? null : Number(s));

export function readUnavailable(csv: string): UnavailableSeries[] {
  return csvObjects(csv, 'data/paper/unavailable-series.csv').map((r) => ({
    id: r.id!,
    figure_or_table: r.figure_or_table!,
    panel: r.panel!,
    series: r.series!,
    language: r.language!,
    workload: r.workload!,
    memory_gib: numOrNull(r.memory_gib),
    vcpus: numOrNull(r.vcpus),
    metric: r.metric!,
    what_text_gives: r.what_text_gives!,
    related_ids: r.related_ids ? r.related_ids.split(';') : [],
    note: r.note ?? '',
  }));
}

export const UNAVAILABLE: UnavailableSeries[] = readUnavailable(unavailableCsv);

/** A results file found under data/simulated or data/native, with its path for the reader. */
export interface OverlayFile {
  path: string;
  file: ResultsFile;
}

/** Keeps the files that look like results files; sorted by path so the order never varies. */
export function collectOverlays(modules: Record<string, unknown>): OverlayFile[] {
  return Object.entries(modules)
    .filter(([, m]) => {
      const f = m as Partial<ResultsFile> | null;
      return !!f && Array.isArray(f.rows) && !!f.metadata && (f.metadata.source_kind === 'simulated' || f.metadata.source_kind === 'native');
    })
    .map(([path, m]) => ({ path: path.replace(/^(\.\.\/)+/, ''), file: m as ResultsFile }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

// Whatever results exist at build time (none is fine: the glob is then empty).
export const OVERLAYS: OverlayFile[] = collectOverlays(
  import.meta.glob(['@replicant/data/simulated/**/*.json', '@replicant/data/native/**/*.json'], { eager: true, import: 'default' }),
);

/** "model card 0.3.0" / "native, <machine>" — how an overlay names itself on a chart. */
export function overlayLabel(f: ResultsFile): string {
  // Short: it names a legend entry. The machine is in every point's detail.
  return f.metadata.source_kind === 'simulated'
    ? `simulated, model card ${f.metadata.model_card_version ?? '?'}`
    : `native, ${f.metadata.date}`;
}

/**
 * Where an overlay's numbers come from, for its legend: the machine and the conditions, and for
 * a native run that it is not the paper's set-up.
 */
export function overlayConditions(f: ResultsFile): string {
  if (f.metadata.source_kind === 'simulated') {
    return `Simulated in this lab with model card ${f.metadata.model_card_version ?? '?'}${f.metadata.seed !== undefined ? `, seed ${f.metadata.seed}` : ''}: an estimate, not a measurement.`;
  }
  return `Measured on ${f.metadata.date} on ${f.metadata.machine.description}.${f.metadata.description ? ` ${f.metadata.description}` : ''} Not the paper’s set-up (separate AWS instances): compare the systems within this run, not its absolute numbers with the paper’s.`;
}
