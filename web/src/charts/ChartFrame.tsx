// Every chart's frame: a title, the drawing, a legend, the sentence that says what the chart
// shows, where the numbers come from, and downloads of the chart (PNG, SVG) and its data (CSV).
import { useRef, useState, type ReactNode } from 'react';
import { downloadCsv, downloadPng, downloadSvg } from './export.ts';
import { LegendSwatch } from './Marker.tsx';
import type { ChartSeries, PointStatus } from './types.ts';

export interface ChartFrameProps {
  id?: string;
  title: string;
  sentence: ReactNode;
  source?: ReactNode;
  legend?: { label: string; styleKey: string; status?: PointStatus }[];
  csv: () => string;
  children: (svgRef: React.RefObject<SVGSVGElement | null>) => ReactNode;
}

export function legendOf(series: ChartSeries[]): { label: string; styleKey: string; status?: PointStatus }[] {
  return series.map((s) => ({
    label: s.name,
    styleKey: s.styleKey,
    status: s.kind === 'simulated' ? 'simulated' : s.kind === 'native' ? 'measured' : 'stated',
  }));
}

export function ChartFrame({ id, title, sentence, source, legend, csv, children }: ChartFrameProps) {
  const svgRef = useRef<SVGSVGElement | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = (f: () => void | Promise<void>) => {
    setError(null);
    Promise.resolve()
      .then(f)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <figure className="chart" id={id} data-testid={id ? `chart-${id}` : undefined}>
      <header>
        <h3>{title}</h3>
        <div className="chart-actions" role="group" aria-label={`Download ${title}`}>
          <button type="button" onClick={() => run(() => downloadPng(svgRef.current!, title))}>
            PNG
          </button>
          <button type="button" onClick={() => run(() => downloadSvg(svgRef.current!, title))}>
            SVG
          </button>
          <button type="button" onClick={() => run(() => downloadCsv(csv(), title))}>
            CSV
          </button>
        </div>
      </header>
      {legend && legend.length > 0 && (
        <div className="legend">
          {legend.map((l) => (
            <span key={l.label}>
              <LegendSwatch styleKey={l.styleKey} status={l.status} />
              {l.label}
            </span>
          ))}
        </div>
      )}
      {children(svgRef)}
      <figcaption>
        <p className="chart-sentence">{sentence}</p>
        {source && <p className="chart-source">{source}</p>}
        {error && (
          <p className="error-text" role="alert">
            Download failed: {error}
          </p>
        )}
      </figcaption>
    </figure>
  );
}

/** The CSV every series chart offers: one line per point, with its status and source. */
export function seriesCsvRows(series: ChartSeries[]): (string | number | null)[][] {
  return series.flatMap((s) => s.points.map((p) => [s.name, s.kind, p.x, p.y, p.status, p.detail.id ?? '', p.detail.where ?? '']));
}
export const SERIES_CSV_HEADER = ['series', 'kind', 'x', 'y', 'status', 'source_id', 'where'];
