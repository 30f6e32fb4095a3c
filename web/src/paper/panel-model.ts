// Turns a panel specification and the results files into chart series: every stated number
// of the panel, the same configuration stated by another figure, the points the text does not
// state (drawn as missing), and matching simulated or native results as overlays.
import type { ChartPoint, ChartSeries, PointDetail, PointStatus, ReferenceLine, YAxis } from '../charts/types.ts';
import { readableQuote } from './quote.ts';
import { overlayLabel, type OverlayFile, type ResultRow, type ResultsFile, type UnavailableSeries } from './results.ts';
import { paperGibOfRatio } from '@replicant/data/memory-ratio';

export type XDim = 'memory_gib' | 'vcpus' | 'category';
export type XValue = string | number;

export interface PanelSpec {
  key: string;
  figure: string;
  /** '(a)', '(b)' or null when the figure has one panel */
  panel: string | null;
  title: string;
  metric: string;
  workload: 'A' | 'B' | null;
  /** The series, in legend order (languages, or instance types for Table 1). */
  series: string[];
  x: { dim: XDim; values: XValue[]; label: string };
  /** The dimension a sweep holds constant (Fig 6: 8 vCPUs; Fig 7: 32 GiB). */
  fixed?: { memory_gib?: number; vcpus?: number };
  /** For category panels: which x and which series a row belongs to. */
  xOf?: (row: ResultRow) => XValue | null;
  seriesOf?: (row: ResultRow) => string | null;
  y: YAxis;
  unit: string;
  mode: 'lines' | 'bars';
  references?: ReferenceLine[];
  /** Unavailable entries automatic matching cannot place (e.g. a whole curve). */
  missingAt?: { id: string; series: string; x: XValue }[];
  /**
   * The finding in words, from the numbers (never typed in): v gives a plotted value, t the
   * same value as words with its qualifier ("about 40", "more than 60").
   */
  headline: (v: (series: string, x: XValue) => number | null, t: (series: string, x: XValue) => string) => string;
}

export interface PanelModel {
  spec: PanelSpec;
  series: ChartSeries[];
  /** Ids of the paper rows drawn (for the completeness check). */
  drawnRowIds: string[];
  drawnUnavailableIds: string[];
  /** Points the text does not state, as "Java at 8 GiB". */
  missing: string[];
  /** True when the panel has no number at all (drawn as an "unavailable" box instead). */
  empty: boolean;
  sentence: string;
}

const STATUS_OF_QUALIFIER: Record<string, PointStatus> = {
  exact: 'stated',
  approx: 'approx',
  lower_bound: 'lower_bound',
  upper_bound: 'upper_bound',
  implied: 'implied',
};

const SYMBOL_OF_STATUS: Partial<Record<PointStatus, string>> = { approx: '≈', lower_bound: '≥', upper_bound: '<' };

const QUALIFIER_WORDS: Partial<Record<PointStatus, string>> = {
  approx: 'The text gives this as an approximate value.',
  lower_bound: 'The text gives this as a lower bound ("over").',
  upper_bound: 'An upper bound: the text says the SLO cannot be met even at this rate.',
  implied: 'Implied: the text states it by reference ("does not change"), not as a number.',
  elsewhere: 'Stated by another figure for the same configuration; this figure’s text does not repeat it.',
};

export function formatValue(v: number): string {
  return String(Number(v.toPrecision(4)));
}

export function xText(dim: XDim, x: XValue): string {
  if (dim === 'memory_gib') return `${x} GiB`;
  if (dim === 'vcpus') return `${x} vCPU${x === 1 ? '' : 's'}`;
  return String(x);
}

function where(row: ResultRow): string {
  const place = row.figure_or_table && !['text', 'Abstract', 'omitted'].includes(row.figure_or_table) ? `${row.figure_or_table}${row.panel ?? ''}` : '';
  return [row.section ? (row.section === 'Abstract' ? 'Abstract' : `§${row.section}`) : '', place].filter(Boolean).join(', ');
}

/** The number to plot: the corrected reading where a correction keeps the unit. */
export function plottedValue(row: ResultRow): number | null {
  const c = row.correction;
  if (c && typeof c.corrected_value === 'number' && c.corrected_unit === row.unit) return c.corrected_value;
  return typeof row.value === 'number' ? row.value : null;
}

export function rowDetail(row: ResultRow, heading: string, status: PointStatus): PointDetail {
  const lines: string[] = [];
  const q = QUALIFIER_WORDS[status];
  if (q) lines.push(q);
  if (row.note) lines.push(row.note.replace(/^qualifier=[a-z_]+;\s*/, ''));
  if (row.correction) {
    lines.push(
      `Printed as ${row.value} ${row.unit}; corrected reading ${row.correction.corrected_value} ${row.correction.corrected_unit}: ${row.correction.reasoning}.`,
    );
  }
  return { heading, lines, quote: row.provenance.exact_quote && readableQuote(row.provenance.exact_quote), where: where(row), id: row.id };
}

function sameNumber(a: number | null | undefined, b: number | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && Math.abs(a - b) < 1e-9;
}

/** Whether a results row describes the memory setting `memory_gib` of the paper. */
function sameMemory(row: ResultRow, memory_gib: number | undefined): boolean {
  if (typeof row.memory_data_ratio === 'number' && memory_gib !== undefined) {
    return sameNumber(paperGibOfRatio(row.memory_data_ratio), memory_gib);
  }
  return sameNumber(row.memory_gib, memory_gib);
}

/** "scaled: ratio 8, 0.26 GiB per node, drawn at the paper's 32 GiB" for rows sized by ratio. */
function scaledNote(row: ResultRow): string[] {
  if (typeof row.memory_data_ratio !== 'number') return [];
  const per = row.memory_gib === null || row.memory_gib === undefined ? '' : `, ${formatValue(row.memory_gib)} GiB per node`;
  return [`Scaled run: memory:data ratio ${row.memory_data_ratio}${per}, drawn at the paper’s ${formatValue(paperGibOfRatio(row.memory_data_ratio))} GiB (the same ratio); compare shapes, not absolute values.`];
}

/** Memory and vCPUs of a point of the panel. */
function configAt(spec: PanelSpec, x: XValue): { memory_gib?: number; vcpus?: number } {
  if (spec.x.dim === 'memory_gib') return { memory_gib: Number(x), vcpus: spec.fixed?.vcpus };
  if (spec.x.dim === 'vcpus') return { memory_gib: spec.fixed?.memory_gib, vcpus: Number(x) };
  return {};
}

function defaultXOf(spec: PanelSpec, row: ResultRow): XValue | null {
  if (spec.xOf) return spec.xOf(row);
  if (spec.x.dim === 'memory_gib') return row.memory_gib ?? null;
  if (spec.x.dim === 'vcpus') return row.vcpus ?? null;
  return row.language;
}

function belongsToPanel(spec: PanelSpec, row: ResultRow): boolean {
  if (row.figure_or_table !== spec.figure || row.metric !== spec.metric) return false;
  if (spec.panel !== null && row.panel !== spec.panel) return false;
  if (spec.workload !== null && row.workload !== spec.workload) return false;
  if (spec.x.dim !== 'category') {
    const fixed = spec.fixed ?? {};
    if (fixed.vcpus !== undefined && !sameNumber(row.vcpus, fixed.vcpus)) return false;
    if (fixed.memory_gib !== undefined && !sameNumber(row.memory_gib, fixed.memory_gib)) return false;
  }
  return true;
}

function unavailableMatches(spec: PanelSpec, u: UnavailableSeries, series: string, x: XValue): boolean {
  if (u.figure_or_table !== spec.figure || u.metric !== spec.metric || u.language !== series) return false;
  if (spec.panel !== null && !u.panel.includes(spec.panel)) return false;
  if (spec.workload !== null && u.workload !== '' && u.workload !== spec.workload) return false;
  const at = configAt(spec, x);
  if (spec.x.dim === 'category') return x === series;
  return (u.memory_gib === null || sameNumber(u.memory_gib, at.memory_gib)) && (u.vcpus === null || sameNumber(u.vcpus, at.vcpus));
}

/** Converts a value to the panel's unit, or null when the units do not convert. */
export function toUnit(value: number, from: string, to: string): number | null {
  if (from === to) return value;
  const factors: Record<string, Record<string, number>> = {
    'ops/s': { 'Kops/s': 1 / 1000 },
    'Kops/s': { 'ops/s': 1000 },
    s: { ms: 1000 },
    ms: { s: 1 / 1000 },
  };
  const f = factors[from]?.[to];
  return f === undefined ? null : value * f;
}

function overlaySeries(spec: PanelSpec, overlay: OverlayFile): ChartSeries[] {
  const f: ResultsFile = overlay.file;
  const out: ChartSeries[] = [];
  for (const name of spec.series) {
    const points: ChartPoint[] = [];
    for (const x of spec.x.values) {
      const at = configAt(spec, x);
      const row = f.rows.find(
        (r) =>
          r.metric === spec.metric &&
          (spec.seriesOf ? spec.seriesOf(r) : r.language) === name &&
          (spec.workload === null || r.workload === spec.workload) &&
          (spec.x.dim === 'category' ? defaultXOf(spec, r) === x : sameMemory(r, at.memory_gib) && sameNumber(r.vcpus, at.vcpus)),
      );
      if (!row || typeof row.value !== 'number') continue;
      const y = toUnit(row.value, row.unit, spec.unit);
      if (y === null) continue;
      const status: PointStatus = f.metadata.source_kind === 'simulated' ? 'simulated' : 'measured';
      points.push({
        x,
        y,
        status,
        detail: {
          heading: `${name} · ${xText(spec.x.dim, x)}: ${SYMBOL_OF_STATUS[STATUS_OF_QUALIFIER[row.qualifier] ?? 'stated'] ?? ''}${formatValue(y)} ${spec.unit} (${f.metadata.source_kind})`,
          lines: [
            f.metadata.source_kind === 'simulated'
              ? `Simulated by model card ${f.metadata.model_card_version ?? '?'}, seed ${f.metadata.seed ?? '?'} — not a measurement.`
              : `Measured on ${f.metadata.machine.description}.`,
            ...scaledNote(row),
            `${f.metadata.title} (${f.metadata.date}${f.metadata.git_commit ? `, commit ${f.metadata.git_commit.slice(0, 10)}` : ''})`,
            ...(row.stddev !== undefined ? [`standard deviation ${formatValue(row.stddev)} over ${row.repetitions ?? '?'} runs`] : []),
          ],
          where: overlay.path,
          id: row.id,
        },
      });
    }
    if (points.length > 0) out.push({ name: `${name} · ${overlayLabel(f)}`, styleKey: name, kind: f.metadata.source_kind === 'simulated' ? 'simulated' : 'native', points });
  }
  return out;
}

function joinWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function buildPanel(spec: PanelSpec, paper: ResultRow[], unavailable: UnavailableSeries[], overlays: OverlayFile[] = []): PanelModel {
  const drawnRowIds: string[] = [];
  const drawnUnavailableIds: string[] = [];
  const missingBySeries = new Map<string, string[]>();
  const values = new Map<string, number | null>();
  const statuses = new Map<string, PointStatus>();
  const seriesOf = (r: ResultRow) => (spec.seriesOf ? spec.seriesOf(r) : r.language);

  const series: ChartSeries[] = spec.series.map((name) => {
    const points: ChartPoint[] = [];
    for (const x of spec.x.values) {
      const heading = `${name} · ${xText(spec.x.dim, x)}`;
      const own = paper.find((r) => belongsToPanel(spec, r) && seriesOf(r) === name && defaultXOf(spec, r) === x);
      if (own) {
        const status = STATUS_OF_QUALIFIER[own.qualifier] ?? 'stated';
        const y = plottedValue(own);
        drawnRowIds.push(own.id);
        values.set(`${name}|${x}`, y);
        statuses.set(`${name}|${x}`, status);
        points.push({
          x,
          y,
          status,
          label: y === null ? undefined : `${SYMBOL_OF_STATUS[status] ?? ''}${formatValue(y)}`,
          detail: rowDetail(own, `${heading}: ${SYMBOL_OF_STATUS[status] ?? ''}${y} ${spec.unit}`, status),
        });
        continue;
      }
      if (spec.x.dim !== 'category') {
        const at = configAt(spec, x);
        const elsewhere = paper.find(
          (r) =>
            r.figure_or_table !== spec.figure &&
            r.metric === spec.metric &&
            r.language === name &&
            (spec.workload === null || r.workload === spec.workload) &&
            sameNumber(r.memory_gib, at.memory_gib) &&
            sameNumber(r.vcpus, at.vcpus) &&
            (r.instance_type ?? 'm5.2xlarge') === 'm5.2xlarge' &&
            typeof r.value === 'number',
        );
        if (elsewhere) {
          const y = plottedValue(elsewhere);
          values.set(`${name}|${x}`, y);
          points.push({
            x,
            y,
            status: 'elsewhere',
            label: y === null ? undefined : formatValue(y),
            detail: rowDetail(elsewhere, `${heading}: ${y} ${spec.unit}, from ${elsewhere.figure_or_table}${elsewhere.panel ?? ''}`, 'elsewhere'),
          });
          continue;
        }
      }
      const gap =
        unavailable.find((u) => unavailableMatches(spec, u, name, x)) ??
        unavailable.find((u) => spec.missingAt?.some((m) => m.id === u.id && m.series === name && m.x === x));
      if (gap) {
        drawnUnavailableIds.push(gap.id);
        missingBySeries.set(name, [...(missingBySeries.get(name) ?? []), xText(spec.x.dim, x)]);
        points.push({
          x,
          y: null,
          status: 'missing',
          detail: {
            heading: `${heading}: not stated in the text`,
            lines: [`What the text gives: ${gap.what_text_gives}.`, ...(gap.note ? [gap.note] : [])],
            where: `${gap.figure_or_table}${gap.panel}`,
            id: gap.id,
          },
        });
      }
    }
    return { name, styleKey: name, kind: 'paper' as const, points };
  });

  const kept = series.filter((s) => s.points.length > 0);
  const empty = kept.every((s) => s.points.every((p) => p.y === null));
  const withOverlays = [...kept, ...overlays.flatMap((o) => overlaySeries(spec, o))];
  const missing = [...missingBySeries.entries()].map(([name, xs]) =>
    spec.x.dim === 'category' ? name : `${name} at ${joinWords(xs.map((x) => x.replace(/ (GiB|vCPUs?)$/, '')))} ${spec.x.dim === 'memory_gib' ? 'GiB' : 'vCPUs'}`,
  );
  const v = (name: string, x: XValue) => values.get(`${name}|${x}`) ?? null;
  const t = (name: string, x: XValue) => {
    const y = v(name, x);
    if (y === null) return '?';
    const words: Partial<Record<PointStatus, string>> = { approx: 'about ', lower_bound: 'more than ', upper_bound: 'under ' };
    return `${words[statuses.get(`${name}|${x}`) ?? 'stated'] ?? ''}${formatValue(y)}`;
  };
  const headline = empty ? '' : spec.headline(v, t);
  const missingCount = [...missingBySeries.values()].reduce((n, xs) => n + xs.length, 0);
  const sentence = [headline, missing.length ? `The text does not state ${joinWords(missing)}; ${missingCount === 1 ? 'it is' : 'they are'} drawn as missing (?).` : '']
    .filter(Boolean)
    .join(' ');
  return { spec, series: withOverlays, drawnRowIds, drawnUnavailableIds, missing, empty, sentence };
}
