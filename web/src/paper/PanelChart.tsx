// One panel of a paper figure: the chart with its sentence and sources, or, when the text
// states no number for it, a box that says so.
import { useMemo } from 'react';
import { ChartFrame, SERIES_CSV_HEADER, legendOf, seriesCsvRows } from '../charts/ChartFrame.tsx';
import { XYChart } from '../charts/XYChart.tsx';
import { toCsv } from '../charts/csv.ts';
import type { PanelModel } from './panel-model.ts';
import type { UnavailableSeries } from './results.ts';

export function PanelChart({ model, gaps }: { model: PanelModel; gaps: UnavailableSeries[] }) {
  const { spec } = model;
  const x = useMemo(
    () => ({ kind: 'band' as const, categories: spec.x.values, label: spec.x.label }),
    [spec.x.values, spec.x.label],
  );
  if (model.empty) {
    const relevant = gaps.filter((g) => spec.panel === null || g.panel.includes(spec.panel));
    return (
      <figure className="chart" data-testid={`chart-${spec.key}`} data-empty="true">
        <header>
          <h3>{spec.title}</h3>
        </header>
        <div className="unavailable-box">
          <p>
            <strong>No number to draw.</strong> The paper’s text does not state any value of this panel, and the figure image is not
            part of the text this lab reads; nothing here is estimated.
          </p>
          {relevant.length > 0 && (
            <ul>
              {relevant.map((g) => (
                <li key={g.id}>
                  {g.series}: {g.what_text_gives}.
                </li>
              ))}
            </ul>
          )}
        </div>
      </figure>
    );
  }
  const overlays = model.series.filter((s) => s.kind !== 'paper').length;
  return (
    <ChartFrame
      id={spec.key}
      title={spec.title}
      legend={legendOf(model.series)}
      sentence={model.sentence}
      source={
        <>
          Numbers stated in the paper’s text (§{model.series[0]?.points.find((p) => p.detail.where)?.detail.where?.replace(/^§/, '') ?? ''}); hover
          or focus a point for its quote. Filled: stated · hollow: implied or from another figure · ?: not stated.
          {overlays > 0 && ` Dotted series are simulated (they say so) or measured natively.`}
        </>
      }
      csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(model.series))}
    >
      {(svgRef) => <XYChart svgRef={svgRef} title={spec.title} series={model.series} x={x} y={spec.y} mode={spec.mode} references={spec.references} />}
    </ChartFrame>
  );
}
