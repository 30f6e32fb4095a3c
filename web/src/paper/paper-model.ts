// The whole paper explorer as data: each figure's panels, the other numbers it states, and
// what its text leaves out.
import { buildPanel, type PanelModel } from './panel-model.ts';
import { makeFigures, type FigureSpec } from './figures.ts';
import type { OverlayFile, ResultRow, UnavailableSeries } from './results.ts';
import { plottedValue } from './panel-model.ts';

export interface FigureModel {
  spec: FigureSpec;
  panels: PanelModel[];
  /** Rows of this figure not drawn in a panel (set-up values, ratios, corrections). */
  facts: ResultRow[];
  /** What the text does not give for this figure, beyond the points drawn as missing. */
  gaps: UnavailableSeries[];
}

export function buildPaperModel(rows: ResultRow[], unavailable: UnavailableSeries[], overlays: OverlayFile[]): FigureModel[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const valueOf = (id: string) => {
    const r = byId.get(id);
    return r ? plottedValue(r) : null;
  };
  return makeFigures(valueOf).map((spec) => {
    const panels = spec.panels.map((p) => buildPanel(p, rows, unavailable, overlays));
    const drawn = new Set(panels.flatMap((p) => p.drawnRowIds));
    const drawnGaps = new Set(panels.flatMap((p) => p.drawnUnavailableIds));
    return {
      spec,
      panels,
      facts: rows.filter((r) => r.figure_or_table === spec.label && !drawn.has(r.id)),
      gaps: unavailable.filter((u) => u.figure_or_table === spec.label && !drawnGaps.has(u.id)),
    };
  });
}
