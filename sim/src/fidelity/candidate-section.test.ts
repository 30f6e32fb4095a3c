import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CARD } from '../models/card.ts';
import { changedRows, differingNonStorageParameters } from './candidate-section.ts';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const params = (v: string) => (JSON.parse(readFileSync(root(`data/models/${v}.json`), 'utf8')) as { parameters: Record<string, { value: unknown }> }).parameters;

describe('the candidate card section of docs/fidelity.md', () => {
  it('lists only the rows whose simulated value differs, in the default table order', () => {
    const row = (id: string, sim: number) => ({ id, paper: '1 x', sim, error: '+0 %', card: '1.4.0' });
    const out = changedRows([row('a', 1), row('b', 2), row('c', 3)], [row('c', 4), row('b', 2), row('a', 5)]);
    expect(out.map((r) => [r.id, r.default_sim, r.candidate_sim])).toEqual([['a', 1, 5], ['c', 3, 4]]);
  });
  it('refuses a candidate table that lacks a row of the default one', () => {
    const row = (id: string) => ({ id, paper: '1 x', sim: 1, error: '', card: '1.4.0' });
    expect(() => changedRows([row('a'), row('b')], [row('a')])).toThrow(/no row b/);
  });
  it('card 1.7.1 (the default) is 1.7.0 with two Go runtime constants, 1.7.0 differs from 1.6.0 only in Java, and 1.6.0 from 1.5.0 only in Go, so the other engines\' searches are shared', () => {
    expect(DEFAULT_CARD.version).toBe('1.7.1');
    expect(differingNonStorageParameters(params('1.7.0'), params('1.7.1'))).toEqual(['go.drain_check_bytes', 'go.limit_headroom_fraction']);
    expect(differingNonStorageParameters(params('1.6.0'), params('1.7.0'))).toEqual(['cpu.java.in_us', 'cpu.java.out_us', 'cpu.java.per_kib_us', 'cpu.java.step_us', 'g1.mixed_reclaimable_fraction', 'g1.reclaim_once']);
    expect(differingNonStorageParameters(params('1.2.0'), params('1.3.0'))).toEqual([]);
    expect(differingNonStorageParameters(params('1.5.0'), params('1.6.0'))).toEqual(['go.chain_cycles', 'go.independent_phases']);
  });
  it('docs/fidelity.md names the default card and compares it with the previous default 1.7.0, then each earlier default with its own', () => {
    const md = readFileSync(root('docs/fidelity.md'), 'utf8');
    expect(md).toContain(`with model card ${DEFAULT_CARD.version}, the Lab's default`);
    expect(md).toContain(`## Card ${DEFAULT_CARD.version} against the previous default 1.7.0`);
    expect(md).toContain('**An idle-time worker gives its core back at its next check for work**');
    expect(md).toContain('## Card 1.7.0 against its previous default 1.6.0');
    expect(md).toContain('| fig8a-java-b-5gib-8vcpu-max-throughput-slo | 17 Kops/s |');
    expect(md).toContain('## Card 1.6.0 against its previous default 1.3.0');
    expect(md).toContain('## Candidate card 1.8.1 against card 1.7.0, its base');
  });
  it('candidate card 1.8.1 differs from its base 1.7.0 only in G1 (dense candidates and per-node phases), so its table shares every other engine\'s searches', () => {
    expect(differingNonStorageParameters(params('1.7.0'), params('1.8.1'))).toEqual(['g1.dense_candidates', 'g1.independent_phases', 'g1.mixed_live_threshold_fraction']);
    expect(differingNonStorageParameters(params('1.8.0'), params('1.8.1'))).toEqual(['g1.independent_phases']);
  });
});
