import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CARD } from '../models/card.ts';
import { changedRows, differingNonStorageParameters } from './candidate-section.ts';
import { candidate1100Section } from './candidate-1100-section.ts';
import { applyMeasuredOpCpu } from '../calibrate/op-cpu.ts';
import type { ModelCard } from '../api.ts';

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
  it("candidate card 1.9.0 is the default 1.7.1 with Go's pacer and nothing else, and docs/fidelity.md has its section", () => {
    expect(differingNonStorageParameters(params('1.7.1'), params('1.9.0'))).toEqual(['go.pacer_cons_mark_mean_of_two', 'go.pacer_trigger']);
    expect(readFileSync(root('docs/fidelity.md'), 'utf8')).toContain("## Candidate card 1.9.0: Go's pacer sets the trigger from its cons/mark estimate");
  });
  it('candidate card 1.10.0 is the default 1.7.1 with the read/update CPU factors of C++, Java and Rust, as the calibrate command derives them; 1.10.1 adds card 1.9.0\'s pacer', () => {
    const factors = ['cpp', 'java', 'rust'].flatMap((e) => ['follower_read', 'follower_update', 'leader_read', 'leader_update'].map((n) => `cpu.${e}.${n}_factor`));
    expect(differingNonStorageParameters(params('1.7.1'), params('1.10.0'))).toEqual(factors.sort());
    expect(differingNonStorageParameters(params('1.10.0'), params('1.10.1'))).toEqual(['go.pacer_cons_mark_mean_of_two', 'go.pacer_trigger']);
    const derived = JSON.parse(JSON.stringify(DEFAULT_CARD)) as ModelCard;
    applyMeasuredOpCpu(derived, JSON.parse(readFileSync(root('data/models/measured/0.1.0-measured.20261122.json'), 'utf8')) as ModelCard, ['cpp', 'java', 'rust']);
    for (const k of factors) expect(derived.parameters[k]!.value, k).toBe(params('1.10.0')[k]!.value);
  });
  it('the 1.10.x section lists each candidate\'s changed rows and says whether a calibrated point left its tolerance; docs/fidelity.md has it', () => {
    const row = { id: 'fig8b-java-b-32gib-8vcpu-vcpu-utilization-leader', paper: '60 %', default_sim: 71.81, default_error: '+11.8 pp', candidate_sim: 60.84, candidate_error: '+0.8 pp', candidate_card: '1.10.0' };
    const figures = (outside: { id: string; sim: number; error: string }[]) => ({ calibratedOutside: outside, defaultSummary: 'DEFAULT', candidateSummary: 'CANDIDATE' });
    const md = candidate1100Section({ changed: [row], figures: figures([]) }, { changed: [], figures: figures([{ id: 'fig9a-go-a-32gib-8vcpu-max-throughput-slo', sim: 40, error: '-19.7 %' }]) }, '1.7.1');
    expect(md).toContain('| fig8b-java-b-32gib-8vcpu-vcpu-utilization-leader | 60 % | 71.81 (+11.8 pp) | 60.84 (+0.8 pp) |');
    expect(md).toContain('Card 1.10.0 moves no calibrated point outside ±15 %.');
    expect(md).toContain('Calibrated points card 1.10.1 moves outside ±15 % (card 1.7.1 has them inside): fig9a-go-a-32gib-8vcpu-max-throughput-slo 40 (-19.7 %)');
    expect(readFileSync(root('docs/fidelity.md'), 'utf8')).toContain('## Candidate cards 1.10.0 and 1.10.1: CPU by operation kind, from the native A/B measurement');
  });
  it("candidate card 1.8.2 is 1.8.1 with the paper's heartbeat and nothing else, and docs/fidelity.md has its section", () => {
    expect(differingNonStorageParameters(params('1.8.1'), params('1.8.2'))).toEqual(['commit.election_wait_max_intervals', 'commit.election_wait_min_intervals', 'commit.waits_for_all_peers']);
    expect(readFileSync(root('docs/fidelity.md'), 'utf8')).toContain("## Candidate card 1.8.2: the paper's heartbeat waits for every peer");
  });
});
