// The GC-mitigation papers' numbers (data/mitigations) as chart series: BLADE's Table 7 (etcd,
// percentile against latency for BLADE, GC off and GC on) and MITMEM's stated tail shares
// (Cassandra, Fig 6). Pure functions; the figures (MitigationFigures.tsx) only draw them.
import bladeCsv from '@replicant/data/mitigations/blade-values.csv?raw';
import mitmemCsv from '@replicant/data/mitigations/mitmem-values.csv?raw';
import { bladeTable7, parseMitigationValues, type MitigationValue } from '@replicant/data/mitigations';
import type { ChartSeries, PointStatus } from '../charts/types.ts';
import { readableQuote } from './quote.ts';

export type { MitigationValue };

export const BLADE_VALUES: MitigationValue[] = parseMitigationValues(bladeCsv, 'data/mitigations/blade-values.csv');
export const MITMEM_VALUES: MitigationValue[] = parseMitigationValues(mitmemCsv, 'data/mitigations/mitmem-values.csv');

export const BLADE_CITATION = 'Terei and Levy, “BLADE: A Data Center Garbage Collector” (arXiv 1504.02578)';
export const MITMEM_CITATION =
  'Kurniawan, Stuardo, O. S. and Gunawi, “Notification and Prediction of Heap Management Pauses in Managed Languages for Latency Stable Systems” (MITMEM)';

/** "p99.9" → "99.9th", as Table 7 labels its rows. */
export function percentileLabel(p: string): string {
  return `${p.replace(/^p/, '')}th`;
}

const STATUS: Record<MitigationValue['qualifier'], PointStatus> = {
  exact: 'stated',
  approx: 'approx',
  lower_bound: 'lower_bound',
  upper_bound: 'upper_bound',
  implied: 'implied',
};

function detail(r: MitigationValue, heading: string) {
  return {
    heading,
    lines: r.note ? [r.note] : [],
    quote: readableQuote(r.exact_quote),
    where: `§${r.section}${r.figure_or_table === 'text' ? '' : `, ${r.figure_or_table}`}`,
    id: r.id,
  };
}

/** Table 7 as three series over the six percentiles, in the table's column order. */
export function table7Series(rows: MitigationValue[]): ChartSeries[] {
  const table = bladeTable7(rows);
  return (['BLADE', 'GC-Off', 'GC-On'] as const).map((configuration, c) => ({
    name: configuration,
    styleKey: `mitigation:${configuration}`,
    kind: 'paper' as const,
    points: table.map((t) => {
      const cell = t.cells[c]!;
      return {
        x: percentileLabel(t.percentile),
        y: cell.latency_ms,
        status: 'stated' as const,
        // Only the GC-on tail is labelled: the sub-millisecond values would print over each other.
        label: cell.latency_ms >= 10 ? cell.printed : undefined,
        detail: detail(cell.row, `${configuration}, ${percentileLabel(t.percentile)} percentile: ${cell.printed} ms`),
      };
    }),
  }));
}

/** The finding of Table 7 in words, every number read from the rows. */
export function table7Sentence(rows: MitigationValue[]): string {
  const t = bladeTable7(rows);
  const at = (p: string) => t.find((r) => r.percentile === p)!.cells.map((c) => c.latency_ms);
  const [b999, off999, on999] = at('p99.9');
  const [b99, off99, on99] = at('p99');
  const ratio = Math.round(on999! / b999!);
  return (
    `Up to the 99th percentile the three set-ups are within a few hundredths of a millisecond (${b99} / ${off99} / ${on99} ms); ` +
    `at the 99.9th, GC-on etcd takes ${on999} ms while BLADE stays at ${b999} ms (GC off: ${off999} ms), about ${ratio}× less.`
  );
}

/** MITMEM's Fig 6 as the text states it: the share of requests in the long tail per set-up. */
export function mitmemTailSeries(rows: MitigationValue[]): ChartSeries[] {
  const order = ['Raw', 'MITMEM', 'Best'];
  const words: Record<string, string> = { Raw: 'Raw (GC noise, no mitigation)', MITMEM: 'MITMEM', Best: 'Best (no contention)' };
  const tail = order.map((c) => {
    const r = rows.find((x) => x.metric === 'tail_request_share' && x.configuration === c && x.system === 'Cassandra');
    if (!r || typeof r.value !== 'number') throw new Error(`MITMEM: no tail share for ${c}`);
    return r;
  });
  return [
    {
      name: 'share of requests in the long tail',
      styleKey: 'mitigation:MITMEM',
      kind: 'paper',
      points: tail.map((r) => ({
        x: words[r.configuration]!,
        y: r.value as number,
        status: STATUS[r.qualifier],
        label: `${r.qualifier === 'upper_bound' ? '<' : ''}${r.value} %`,
        detail: detail(r, `${words[r.configuration]}: ${r.qualifier === 'upper_bound' ? 'under ' : ''}${r.value} % of requests in the long tail`),
      })),
    },
  ];
}

export function mitmemSentence(rows: MitigationValue[]): string {
  const get = (id: string) => {
    const r = rows.find((x) => x.id === id);
    if (!r) throw new Error(`MITMEM: no row ${id}`);
    return r.value;
  };
  return (
    `Without mitigation, GC noise puts ${get('fig6-cassandra-raw-tail-share')} % of Cassandra’s requests in the long tail; ` +
    `with MITMEM’s busy replies and retries elsewhere, under ${get('fig6-cassandra-mitmem-tail-share')} % remain, as in the run without contention ` +
    `(the paper: ${get('fig6-cassandra-mitmem-gc-tail-removed')} % of the GC-caused tail removed). A retry costs one round trip ` +
    `(${get('sec4-1-cassandra-retry-overhead')} µs there); its pause prediction is off by ±${get('fig7d-prediction-error')} ms in about ` +
    `${get('fig7d-prediction-error-share')} % of predictions.`
  );
}

/** Rows of a paper not drawn in a chart, for the figure's list of other stated numbers. */
export function otherValues(rows: MitigationValue[], drawnIds: Set<string>): MitigationValue[] {
  return rows.filter((r) => !drawnIds.has(r.id));
}
