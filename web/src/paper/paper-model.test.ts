import { describe, expect, it } from 'vitest';
import { buildPaperModel } from './paper-model.ts';
import { PAPER, UNAVAILABLE, collectOverlays, type ResultRow, type ResultsFile } from './results.ts';

const model = buildPaperModel(PAPER.rows, UNAVAILABLE, []);
const panel = (key: string) => model.flatMap((f) => f.panels).find((p) => p.spec.key === key)!;
const point = (key: string, series: string, x: string | number) =>
  panel(key)
    .series.find((s) => s.name === series)!
    .points.find((p) => p.x === x)!;

/** A results file of one Java workload-A SLO sweep (the overlay tests' shape). */
function javaSweep(metadata: Pick<ResultsFile['metadata'], 'source_kind' | 'title' | 'machine' | 'date' | 'command'> & Partial<ResultsFile['metadata']>, rows: (Pick<ResultRow, 'id' | 'memory_gib' | 'value' | 'unit' | 'provenance'> & Partial<ResultRow>)[]): ResultsFile {
  return {
    schema_version: '1.0.0',
    metadata: { engines: {}, git_commit: 'abcdef1', ...metadata },
    rows: rows.map((r): ResultRow => ({ language: 'Java', workload: 'A', vcpus: 8, metric: 'max_throughput_slo', qualifier: 'exact', ...r })),
  };
}

describe('the paper explorer model', () => {
  it('shows every row of every figure and table it covers, drawn or listed', () => {
    const labels = new Set(model.map((f) => f.spec.label));
    const covered = PAPER.rows.filter((r) => r.figure_or_table && labels.has(r.figure_or_table));
    const shown = new Set(model.flatMap((f) => [...f.panels.flatMap((p) => p.drawnRowIds), ...f.facts.map((r) => r.id)]));
    expect(covered.length).toBeGreaterThan(90);
    expect(covered.filter((r) => !shown.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('draws or lists every series the text omits for those figures', () => {
    const labels = new Set(model.map((f) => f.spec.label));
    const omitted = UNAVAILABLE.filter((u) => labels.has(u.figure_or_table));
    const shown = new Set(model.flatMap((f) => [...f.panels.flatMap((p) => p.drawnUnavailableIds), ...f.gaps.map((g) => g.id)]));
    expect(omitted.filter((u) => !shown.has(u.id)).map((u) => u.id)).toEqual([]);
  });

  it('states every headline number from the data (no "?" in a sentence)', () => {
    for (const p of model.flatMap((f) => f.panels)) {
      if (p.empty) continue;
      expect(p.sentence, p.spec.key).not.toMatch(/\?(?!\))/);
      expect(p.sentence.length, p.spec.key).toBeGreaterThan(40);
    }
  });

  it('draws Java at 8 and 6 GiB in Fig 6(a) as missing, never interpolated', () => {
    expect(point('fig6a', 'Java', 8)).toMatchObject({ y: null, status: 'missing' });
    expect(point('fig6a', 'Java', 6)).toMatchObject({ y: null, status: 'missing' });
    expect(point('fig6a', 'Java', 32)).toMatchObject({ y: 18, status: 'stated', label: '18' });
    expect(panel('fig6a').sentence).toContain('The text does not state Java at 8 and 6 GiB');
    expect(panel('fig6a').sentence).toContain('C++ holds 28.7 Kops/s');
  });

  it('marks Go at 5 GiB as an upper bound (the SLO cannot be met)', () => {
    expect(point('fig9a', 'Go', 5)).toMatchObject({ y: 0.1, status: 'upper_bound', label: '<0.1' });
    expect(point('fig9a', 'Rust', 8)).toMatchObject({ y: 69.5, status: 'implied' });
  });

  it('borrows a configuration another figure states, and says so', () => {
    const p = point('fig7a', 'C++', 8);
    expect(p).toMatchObject({ y: 28.7, status: 'elsewhere' });
    expect(p.detail.heading).toContain('from Fig 6(a)');
    expect(point('fig10a', 'Go', 8)).toMatchObject({ y: 49.8, status: 'elsewhere' });
    expect(point('fig10a', 'Go', 4)).toMatchObject({ y: null, status: 'missing' });
  });

  it('carries the quote and section of a point', () => {
    const d = point('fig4b', 'Java', 'Java').detail;
    expect(d.quote).toBeTruthy();
    expect(d.where).toBe('§4.5, Fig 4(b)');
    expect(d.id).toBe('fig4b-java-a-5gib-8vcpu-p99-latency-intended');
  });

  it('shows a panel with no number as unavailable', () => {
    expect(panel('fig11b').empty).toBe(true);
    expect(panel('fig13a').empty).toBe(true);
    expect(panel('fig6a').empty).toBe(false);
  });

  it('puts Table 1 side by side per language and machine', () => {
    expect(point('table1', 'm5.metal', 'C++')).toMatchObject({ y: 36 });
    expect(point('table1', 'm5.2xlarge', 'C++')).toMatchObject({ y: 28.7 });
    expect(panel('table1').sentence).toContain('C++ 20.3 %');
  });

  it('overlays a simulated results file on the matching points, labelled as simulated', () => {
    const sim = javaSweep(
      { source_kind: 'simulated', title: 'a sweep', machine: { description: 'simulated m5.2xlarge' }, date: '2026-11-23', model_card_version: '0.3.0', seed: 7, command: 'npm run sim -- sweep' },
      [
        { id: 'j32', memory_gib: 32, value: 17000, unit: 'ops/s', provenance: { kind: 'simulation' } },
        { id: 'j16', memory_gib: 16, value: 12000, unit: 'ops/s', provenance: { kind: 'simulation' } },
      ],
    );
    const overlays = collectOverlays({ '../../../data/simulated/x.json': sim, '../../../data/simulated/bad.json': { rows: 3 } });
    expect(overlays.map((o) => o.path)).toEqual(['data/simulated/x.json']);
    const m = buildPaperModel(PAPER.rows, UNAVAILABLE, overlays);
    const fig6a = m.flatMap((f) => f.panels).find((p) => p.spec.key === 'fig6a')!;
    const s = fig6a.series.find((x) => x.kind === 'simulated')!;
    expect(s.name).toBe('Java · simulated, model card 0.3.0');
    expect(s.points).toHaveLength(1); // 16 GiB is not a point of Fig 6
    expect(s.points[0]).toMatchObject({ x: 32, y: 17, status: 'simulated' });
    expect(s.points[0]!.detail.lines[0]).toContain('not a measurement');
  });

  it('draws a scaled native run at the paper setting of the same memory:data ratio, and says so', () => {
    const native = javaSweep(
      { source_kind: 'native', title: 'a scaled run', machine: { description: '2-core test machine' }, date: '2026-11-22', command: 'npm run bench' },
      [
        { id: 'j-r8', memory_gib: 0.2, memory_data_ratio: 8, value: 2.6, unit: 'Kops/s', provenance: { kind: 'measurement' } },
        { id: 'j-r1p25', memory_gib: 0.04, memory_data_ratio: 1.25, value: 0.1, unit: 'Kops/s', qualifier: 'upper_bound', provenance: { kind: 'measurement' } },
        // Without a ratio, 0.2 GiB is simply not a setting of the paper.
        { id: 'j-abs', memory_gib: 0.2, value: 9, unit: 'Kops/s', provenance: { kind: 'measurement' } },
      ],
    );
    const m = buildPaperModel(PAPER.rows, UNAVAILABLE, collectOverlays({ '../../../data/native/run/results.json': native }));
    const fig6a = m.flatMap((f) => f.panels).find((p) => p.spec.key === 'fig6a')!;
    const s = fig6a.series.find((x) => x.kind === 'native')!;
    expect(s.name).toBe('Java · native, 2026-11-22');
    expect(s.points.map((p) => [p.x, p.y])).toEqual([[32, 2.6], [5, 0.1]]);
    expect(s.points[0]!.status).toBe('measured');
    expect(s.points[0]!.detail.lines.join(' ')).toContain('memory:data ratio 8, 0.2 GiB per node, drawn at the paper’s 32 GiB');
    // "not even 100 ops/s met the SLO" reads as an upper bound, like the paper's Go at 5 GiB.
    expect(s.points[1]!.detail.heading).toBe('Java · 5 GiB: <0.1 Kops/s (native)');
  });
});

describe('headline qualifiers', () => {
  it('says "about" and "more than" where the text does', () => {
    const m = buildPaperModel(PAPER.rows, UNAVAILABLE, []);
    const s = m.flatMap((f) => f.panels).find((p) => p.spec.key === 'fig12b')!.sentence;
    expect(s).toContain('about 40 % of the time with 6 GiB and more than 60 % with 5 GiB');
    expect(s).toContain('The text does not state Go at 32 and 8 GiB; they are drawn as missing');
  });
});
