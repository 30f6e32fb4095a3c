// The GC-mitigation papers in the Paper view: BLADE's Tables 6–7 (etcd) and MITMEM's stated
// tail shares (Cassandra), each number with its quote. mitigations.ts builds the series; this
// file only lays them out.
import { useMemo } from 'react';
import { ChartFrame, SERIES_CSV_HEADER, legendOf, seriesCsvRows } from '../charts/ChartFrame.tsx';
import { XYChart } from '../charts/XYChart.tsx';
import { toCsv } from '../charts/csv.ts';
import { bladeTable7 } from '@replicant/data/mitigations';
import { metricWords, readableQuote } from './RowValue.tsx';
import {
  BLADE_CITATION,
  BLADE_VALUES,
  MITMEM_CITATION,
  MITMEM_VALUES,
  mitmemSentence,
  mitmemTailSeries,
  otherValues,
  percentileLabel,
  table7Sentence,
  table7Series,
  type MitigationValue,
} from './mitigations.ts';

const QUALIFIER_PREFIX: Record<string, string> = { approx: '≈ ', lower_bound: '≥ ', upper_bound: '< ', implied: '(implied) ' };

function Value({ row }: { row: MitigationValue }) {
  const unit = row.unit === 'text' || row.unit === 'version' ? '' : ` ${row.unit}`;
  return (
    <span className="row-value">
      {QUALIFIER_PREFIX[row.qualifier] ?? ''}
      {row.printed}
      {unit}
    </span>
  );
}

function OtherNumbers({ rows }: { rows: MitigationValue[] }) {
  return (
    <details className="facts" open>
      <summary>Other numbers the text states ({rows.length})</summary>
      <ul>
        {rows.map((r) => (
          <li key={r.id} data-row-id={r.id}>
            <strong>{metricWords(r.metric)}</strong>
            {r.statistic !== 'value' ? ` (${r.statistic})` : ''}
            {r.system !== 'n/a' ? ` · ${r.system}` : ''}
            {r.configuration !== 'n/a' ? ` · ${r.configuration}` : ''}: <Value row={r} />
            {r.note ? <span className="note"> — {r.note}</span> : null}
            <q> {readableQuote(r.exact_quote)}</q>{' '}
            <span className="note">
              {r.section === 'Abstract' ? 'Abstract' : `§${r.section}`}
              {r.figure_or_table !== 'text' && r.figure_or_table !== 'Abstract' ? `, ${r.figure_or_table}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}

const TABLE7_X = { kind: 'band' as const, categories: ['95th', '99th', '99.9th', '99.99th', '99.999th', '99.9999th'], label: 'Percentile of request latency' };
const TABLE7_Y = { kind: 'log' as const, label: 'Latency (ms, log scale)', domain: [0.3, 200] as [number, number] };

function Table7({ rows }: { rows: MitigationValue[] }) {
  const t = bladeTable7(rows);
  return (
    <table className="data" data-testid="blade-table7">
      <caption className="note" style={{ captionSide: 'bottom', textAlign: 'left' }}>
        BLADE’s Table 7 (§5.2): etcd, 3 nodes, 100 requests/s, 3:1 reads to writes, mean of three 10-minute runs. Milliseconds.
      </caption>
      <thead>
        <tr>
          <th>Percentile</th>
          {t[0]!.cells.map((c) => (
            <th key={c.configuration} className="num">
              {c.configuration}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {t.map((r) => (
          <tr key={r.percentile}>
            <th scope="row">{percentileLabel(r.percentile)}</th>
            {r.cells.map((c) => (
              <td key={c.configuration} className="num" title={readableQuote(c.row.exact_quote)}>
                {c.printed}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Table6({ rows }: { rows: MitigationValue[] }) {
  const stats = ['mean', 'median', 'stddev', 'max'];
  const configs = ['GC-Off', 'BLADE', 'GC-On'];
  const cell = (c: string, s: string) => rows.find((r) => r.figure_or_table === 'Table 6' && r.configuration === c && r.statistic === s);
  return (
    <table className="data" data-testid="blade-table6">
      <caption className="note" style={{ captionSide: 'bottom', textAlign: 'left' }}>
        BLADE’s Table 6 (§5.2): latency of SET requests to the same etcd cluster, milliseconds.
      </caption>
      <thead>
        <tr>
          <th>Set-up</th>
          {stats.map((s) => (
            <th key={s} className="num">
              {s === 'stddev' ? 'std. dev.' : s}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {configs.map((c) => (
          <tr key={c}>
            <th scope="row">{c}</th>
            {stats.map((s) => {
              const r = cell(c, s);
              return (
                <td key={s} className="num" title={r ? readableQuote(r.exact_quote) : undefined}>
                  {r ? r.printed : ''}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function BladeFigure() {
  const series = useMemo(() => table7Series(BLADE_VALUES), []);
  const drawn = new Set(BLADE_VALUES.filter((r) => r.figure_or_table === 'Table 7' || r.figure_or_table === 'Table 6').map((r) => r.id));
  const title = 'BLADE Table 7: etcd request latency by percentile, BLADE vs GC off vs GC on';
  return (
    <section className="figure" id="blade" aria-labelledby="blade-title" data-testid="figure-blade">
      <h2 id="blade-title">
        BLADE: a leader hands off before it collects <span className="note">Tables 6–7, §5.2</span>
      </h2>
      <p className="lede">
        From {BLADE_CITATION}. A node about to collect asks permission so that at most a minority collects at once, and a leader first
        hands its leadership to a peer. On etcd (Go), the tail with BLADE stays where it is with the collector switched off.
      </p>
      <div className="chart-grid">
        <ChartFrame
          id="blade-table7"
          title={title}
          legend={legendOf(series)}
          sentence={table7Sentence(BLADE_VALUES)}
          source={<>Numbers stated in BLADE’s Table 7 (§5.2); hover or focus a point for the table row it comes from.</>}
          csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(series))}
        >
          {(svgRef) => <XYChart svgRef={svgRef} title={title} series={series} x={TABLE7_X} y={TABLE7_Y} mode="lines" />}
        </ChartFrame>
        <div>
          <Table7 rows={BLADE_VALUES} />
          <Table6 rows={BLADE_VALUES} />
        </div>
      </div>
      <OtherNumbers rows={otherValues(BLADE_VALUES, drawn)} />
    </section>
  );
}

const MITMEM_X = { kind: 'band' as const, categories: ['Raw (GC noise, no mitigation)', 'MITMEM', 'Best (no contention)'], label: 'Set-up (Cassandra, 3 servers, Fig 6)' };
const MITMEM_Y = { kind: 'linear' as const, label: 'Requests in the long tail (%)', domain: [0, 6] as [number, number] };

export function MitmemFigure() {
  const series = useMemo(() => mitmemTailSeries(MITMEM_VALUES), []);
  const drawn = new Set(series.flatMap((s) => s.points.map((p) => p.detail.id!)));
  const title = 'MITMEM Fig 6 as stated: share of Cassandra requests in the long tail';
  return (
    <section className="figure" id="mitmem" aria-labelledby="mitmem-title" data-testid="figure-mitmem">
      <h2 id="mitmem-title">
        MITMEM: reject what a pause would hold, retry elsewhere <span className="note">Figs 6–7, §4</span>
      </h2>
      <p className="lede">
        From {MITMEM_CITATION}. A JVM that predicts a collection’s pause answers “busy” to the requests it would hold past their
        deadline, and the client retries at another replica at once. The text states the tail shares, not the curves: the bars are the
        stated numbers (“&lt; 1 %” drawn as an upper bound), nothing read off the figure.
      </p>
      <div className="chart-grid">
        <ChartFrame
          id="mitmem-fig6"
          title={title}
          legend={legendOf(series)}
          sentence={mitmemSentence(MITMEM_VALUES)}
          source={<>Numbers stated in MITMEM’s §4.1 (Fig 6) and §4.2 (Fig 7d); hover or focus a bar for its quote.</>}
          csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(series))}
        >
          {(svgRef) => <XYChart svgRef={svgRef} title={title} series={series} x={MITMEM_X} y={MITMEM_Y} mode="bars" />}
        </ChartFrame>
      </div>
      <OtherNumbers rows={otherValues(MITMEM_VALUES, drawn)} />
    </section>
  );
}
