import { describe, expect, it } from 'vitest';
import { PAPER } from '../paper/results.ts';
import { SQUEEZE, publishedAt, raceSentence } from './race-model.ts';

describe('race model', () => {
  it('squeezes memory the way the paper does', () => {
    expect(SQUEEZE.map((s) => s.gib)).toEqual([32, 8, 6, 5]);
    expect(SQUEEZE.every((s) => s.ratio * 4 === s.gib)).toBe(true);
  });
  it('finds the published value of each engine at each step, or none', () => {
    expect(publishedAt(PAPER.rows, 'java', 32, 'A')?.value).toBe(18);
    expect(publishedAt(PAPER.rows, 'java', 8, 'A')).toBeNull();
    expect(publishedAt(PAPER.rows, 'go', 5, 'A')?.qualifier).toBe('upper_bound');
    expect(publishedAt(PAPER.rows, 'rust', 6, 'A')?.qualifier).toBe('implied');
  });
  it('says who misses the SLO and who collects the most', () => {
    expect(
      raceSentence(
        [
          { engine: 'cpp', throughput_kops: 15, p99_ms: 4, gc_share_pct: 0, met_slo: true, crashed: [] },
          { engine: 'java', throughput_kops: 9, p99_ms: 300, gc_share_pct: 41.5, met_slo: false, crashed: [] },
        ],
        5,
        15000,
      ),
    ).toBe("At 5 GiB and 15,000 ops/s offered, Java misses the SLO; Java's leader spends the most on GC (41.5 % of its vCPUs).");
  });
  it('names engines that lost nodes, and lists several with commas', () => {
    const lane = (engine: 'cpp' | 'rust' | 'go', crashed: { node: number; t_s: number }[]) => ({ engine, throughput_kops: 0, p99_ms: 500, gc_share_pct: 0, met_slo: false, crashed });
    expect(raceSentence([lane('cpp', [{ node: 0, t_s: 1.5 }]), lane('rust', [{ node: 0, t_s: 1 }, { node: 1, t_s: 1 }]), lane('go', [])], 5, 15000)).toBe(
      'At 5 GiB and 15,000 ops/s offered, C++, Rust and Go miss the SLO. C++ and Rust lost nodes (out of memory).',
    );
  });
});
