// The paper explorer: every figure and table of the paper that states numbers, redrawn from
// data/ with the quote behind each number, the points the text leaves out drawn as missing,
// and any simulated or native results laid over them.
import { useMemo, useState } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { PAPER_FIELDS } from './paper-fields.ts';
import { OVERLAYS, PAPER, UNAVAILABLE, overlayConditions, overlayLabel, type ResultRow } from './results.ts';
import { buildPaperModel, type FigureModel } from './paper-model.ts';
import { PanelChart } from './PanelChart.tsx';
import { Table1 } from './Table1.tsx';
import { BladeFigure, MitmemFigure } from './MitigationFigures.tsx';
import { RowValue, metricWords, readableQuote } from './RowValue.tsx';
import { useReady } from '../app/ready.ts';
import { nativePoint, nativeSettings, priceThis } from '../cost/price-this.ts';
import { formatNumber } from '../state/fields.ts';

function FactList({ rows }: { rows: ResultRow[] }) {
  if (rows.length === 0) return null;
  return (
    <details className="facts" open>
      <summary>Other numbers the text states for this figure ({rows.length})</summary>
      <ul>
        {rows.map((r) => (
          <li key={r.id} data-row-id={r.id}>
            <strong>{metricWords(r.metric)}</strong>
            {r.language !== 'all' && r.language !== 'n/a' ? ` · ${r.language}` : ''}
            {r.memory_gib != null ? ` · ${r.memory_gib} GiB` : ''}: <RowValue row={r} />
            {r.provenance.exact_quote && <q> {readableQuote(r.provenance.exact_quote)}</q>} <span className="note">§{r.section}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Figure({ figure }: { figure: FigureModel }) {
  const { spec } = figure;
  return (
    <section className="figure" id={spec.key} aria-labelledby={`${spec.key}-title`} data-testid={`figure-${spec.key}`}>
      <h2 id={`${spec.key}-title`}>
        {spec.label} <span className="note">§{spec.section}</span>
      </h2>
      <p className="lede">{spec.about}</p>
      <div className="chart-grid">
        {figure.panels.map((p) => (
          <PanelChart key={p.spec.key} model={p} gaps={[...figure.gaps, ...UNAVAILABLE.filter((u) => p.drawnUnavailableIds.includes(u.id))]} />
        ))}
      </div>
      {spec.key === 'table1' && <Table1 rows={PAPER.rows} />}
      <FactList rows={figure.facts} />
      {figure.gaps.length > 0 && (
        <details className="facts">
          <summary>What the text does not give ({figure.gaps.length})</summary>
          <ul>
            {figure.gaps.map((g) => (
              <li key={g.id}>
                <strong>{g.series}</strong> ({g.panel || 'whole figure'}): {g.what_text_gives}.{g.note ? ` ${g.note}.` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function AllNumbers() {
  const [filter, setFilter] = useState('');
  const rows = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    return PAPER.rows.filter((r) => {
      const hay = `${r.figure_or_table} ${r.panel ?? ''} ${r.section} ${r.language} ${r.workload ?? ''} ${r.metric} ${r.value} ${r.unit} ${r.provenance.exact_quote ?? ''}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    });
  }, [filter]);
  return (
    <section aria-labelledby="all-numbers">
      <h2 id="all-numbers">Every number the text states ({PAPER.rows.length})</h2>
      <label className="knob" style={{ maxWidth: '24rem' }}>
        <span>Filter (e.g. “java 5 gib”, “p99”, “§5.4”)</span>
        <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </label>
      <p className="note" role="status">
        {rows.length} of {PAPER.rows.length} rows
      </p>
      <div style={{ maxHeight: '28rem', overflow: 'auto' }}>
        <table className="data">
          <thead>
            <tr>
              <th>Where</th>
              <th>Language</th>
              <th>Workload</th>
              <th className="num">Memory</th>
              <th className="num">vCPUs</th>
              <th>Metric</th>
              <th className="num">Value</th>
              <th>Quote</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.figure_or_table !== 'text' ? `${r.figure_or_table}${r.panel ?? ''} ` : ''}
                  {r.section === 'Abstract' ? '' : '§'}
                  {r.section}
                </td>
                <td>{r.language}</td>
                <td>{r.workload ?? ''}</td>
                <td className="num">{r.memory_gib ?? ''}</td>
                <td className="num">{r.vcpus ?? ''}</td>
                <td>{metricWords(r.metric)}</td>
                <td className="num">
                  <RowValue row={r} />
                </td>
                <td>
                  <q>{readableQuote(r.provenance.exact_quote ?? '')}</q>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default function PaperView({ state, update }: ViewProps) {
  const { fig, overlays } = state.paper;
  const model = useMemo(() => buildPaperModel(PAPER.rows, UNAVAILABLE, overlays ? OVERLAYS : []), [overlays]);
  const shown = fig === 'all' ? model : model.filter((f) => f.spec.key === fig);
  useReady('paper', true);
  const setFig = (value: typeof fig) => update((s) => ({ ...s, paper: { ...s.paper, fig: value } }));
  return (
    <div className="paper-view">
      <h1>What the paper measured</h1>
      <p className="lede">
        {PAPER.metadata.citation} Every figure and table with numbers in its text, redrawn from <code>data/paper</code>. Hover or focus
        (Tab) a point to read the sentence it comes from. A “?” marks a point the text does not state: it is drawn as missing, never
        estimated.
      </p>
      <div className="figure-picker" role="group" aria-label="Show figure">
        {PAPER_FIELDS.fig.control.kind === 'select' &&
          PAPER_FIELDS.fig.control.options.map((o) => (
            <button key={o.value} type="button" aria-pressed={fig === o.value} onClick={() => setFig(o.value as typeof fig)}>
              {o.label}
            </button>
          ))}
      </div>
      <p className="note" data-testid="overlay-status">
        {OVERLAYS.length === 0 ? (
          <>No simulated or native results are in this build yet; when results files appear under <code>data/simulated/</code> or{' '}
            <code>data/native/</code>, their matching points are drawn over the paper’s.</>
        ) : (
          <label>
            <input
              type="checkbox"
              checked={overlays}
              onChange={(e) => update((s) => ({ ...s, paper: { ...s.paper, overlays: e.target.checked } }))}
            />{' '}
            Draw {OVERLAYS.length} results file{OVERLAYS.length === 1 ? '' : 's'} over the paper’s numbers:{' '}
            {OVERLAYS.map((o) => `${o.path} (${overlayLabel(o.file)})`).join('; ')}
          </label>
        )}
      </p>
      {overlays && OVERLAYS.length > 0 && (
        <ul className="note overlay-conditions" data-testid="overlay-conditions">
          {OVERLAYS.map((o) => (
            <li key={o.path}>
              <strong>{o.path}</strong>: {overlayConditions(o.file)}
              {o.file.metadata.source_kind === 'native' && nativeSettings(o.file).length > 0 && (
                <span className="price-this" role="group" aria-label={`Price ${o.path} in the Cost view`}>
                  {' '}Price this in the Cost view:{' '}
                  {nativeSettings(o.file).map((at) => {
                    const priced = priceThis(state.cost, nativePoint(o.file, at));
                    const words = `workload ${at.workload}, ratio ${formatNumber(at.memory_data_ratio)}, ${at.vcpus} vCPUs`;
                    return (
                      <button
                        key={words}
                        type="button"
                        data-testid={`price-native-${at.workload}-${formatNumber(at.memory_data_ratio)}-${at.vcpus}`}
                        disabled={!priced.ok}
                        title={priced.ok ? undefined : `Cannot price: ${priced.reason}`}
                        onClick={() => priced.ok && update((st) => ({ ...st, view: 'cost', cost: priced.cost }))}
                      >
                        {words}
                        {priced.ok ? '' : ` (${priced.reason})`}
                      </button>
                    );
                  })}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {shown.map((f) => (
        <Figure key={f.spec.key} figure={f} />
      ))}
      {(fig === 'all' || fig === 'blade' || fig === 'mitmem') && (
        <h2 className="mitigation-heading" data-testid="mitigation-papers">
          What two GC-mitigation papers measured
        </h2>
      )}
      {(fig === 'all' || fig === 'blade') && <BladeFigure />}
      {(fig === 'all' || fig === 'mitmem') && <MitmemFigure />}
      {fig === 'all' && <AllNumbers />}
    </div>
  );
}
