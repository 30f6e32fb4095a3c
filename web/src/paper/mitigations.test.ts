import { describe, expect, it } from 'vitest';
import { BLADE_VALUES, MITMEM_VALUES, mitmemSentence, mitmemTailSeries, percentileLabel, table7Sentence, table7Series } from './mitigations.ts';

describe('BLADE Table 7 as chart series', () => {
  const series = table7Series(BLADE_VALUES);
  it('has the three set-ups in the table’s column order, six percentiles each, every point stated with its quote', () => {
    expect(series.map((s) => s.name)).toEqual(['BLADE', 'GC-Off', 'GC-On']);
    for (const s of series) {
      expect(s.points.map((p) => p.x)).toEqual(['95th', '99th', '99.9th', '99.99th', '99.999th', '99.9999th']);
      for (const p of s.points) {
        expect(p.status).toBe('stated');
        expect(p.detail.quote).toMatch(/th [0-9.]+ [0-9.]+ [0-9.]+/);
        expect(p.detail.where).toBe('§5.2, Table 7');
      }
    }
    expect(series[2]!.points[2]).toMatchObject({ x: '99.9th', y: 28.81 });
  });
  it('says the finding with the numbers from the rows', () => {
    const s = table7Sentence(BLADE_VALUES);
    expect(s).toContain('GC-on etcd takes 28.81 ms while BLADE stays at 0.62 ms (GC off: 0.67 ms), about 46× less');
  });
  it('labels percentiles as the table does', () => {
    expect(percentileLabel('p99.99')).toBe('99.99th');
  });
});

describe('MITMEM’s stated tail shares', () => {
  const [series] = mitmemTailSeries(MITMEM_VALUES);
  it('draws Raw 5 % as stated and MITMEM / Best “< 1 %” as upper bounds, never as exact values', () => {
    expect(series!.points.map((p) => [p.x, p.y, p.status])).toEqual([
      ['Raw (GC noise, no mitigation)', 5, 'stated'],
      ['MITMEM', 1, 'upper_bound'],
      ['Best (no contention)', 1, 'upper_bound'],
    ]);
    expect(series!.points[1]!.label).toBe('<1 %');
  });
  it('states the retry cost and prediction error from the rows', () => {
    const s = mitmemSentence(MITMEM_VALUES);
    expect(s).toContain('5 % of Cassandra’s requests');
    expect(s).toContain('±4 ms in about 8 % of predictions');
    expect(s).toContain('120 µs');
  });
  it('a missing row is an error, not a silent gap', () => {
    expect(() => mitmemTailSeries(MITMEM_VALUES.filter((r) => r.id !== 'fig6-cassandra-raw-tail-share'))).toThrow(/no tail share for Raw/);
  });
});
