import { describe, expect, it } from 'vitest';
import { binAcks } from './leader-kill-experiment.ts';

describe('the leader-kill experiment counts acknowledgements per 250 ms', () => {
  it('puts each acknowledgement and unknown outcome in its bin, with the bin’s mean latency and main node', () => {
    const acks = [
      { at_ms: -300, latency_ms: 2, node: 0 },
      { at_ms: -10, latency_ms: 4, node: 0 },
      { at_ms: 0, latency_ms: 30, node: 1 },
      { at_ms: 249.9, latency_ms: 10, node: 2 },
      { at_ms: 260, latency_ms: 10, node: 2 },
      { at_ms: 499, latency_ms: 20, node: 2 },
    ];
    const bins = binAcks(acks, [-5, 100, 120], -500, 750);
    expect(bins.map((b) => b.from_ms)).toEqual([-500, -250, 0, 250, 500]);
    expect(bins.map((b) => b.acks)).toEqual([1, 1, 2, 2, 0]);
    expect(bins.map((b) => b.unknown)).toEqual([0, 1, 2, 0, 0]);
    expect(bins.map((b) => b.latency_ms_mean)).toEqual([2, 4, 20, 15, null]);
    expect(bins[3]!.served_by).toBe(2);
    expect(bins[4]!.served_by).toBeNull();
  });
});

describe('the leader-kill summary', () => {
  it('counts the elections of the nodes that survived, and names a row by what differs from the servers', async () => {
    const { survivorElections, rowName } = await import('./leader-kill-summary.ts');
    // n0 was killed (no count at the end); n2's count at the fault is unknown
    expect(survivorElections({ elections_at_fault: [4, 1, null], elections_at_end: [null, 3, 9] })).toBe(2);
    expect(rowName({ engine: 'cpp', mode: 'kill-leader', fsync: 'always', snapshot_every: undefined })).toBe('cpp, kill-leader');
    expect(rowName({ engine: 'go', mode: 'no-fault', fsync: 'never', snapshot_every: 0 })).toBe('go, no-fault, fsync never, no checkpoints');
  });
});

describe('the leader-kill experiment takes one-engine clusters and mixes', () => {
  it('reads --engine as three nodes of each engine and each --engines as one mixed cluster, in order', async () => {
    const { parseExperimentArgs } = await import('./leader-kill-experiment.ts');
    expect(parseExperimentArgs([]).clusters).toEqual([['cpp', 'cpp', 'cpp']]);
    const both = parseExperimentArgs(['--engine', 'go,rust', '--engines', 'go,cpp,rust', '--engines', 'cpp,rust,java', '--repeats', '2', '--modes', 'no-fault,kill-leader']);
    expect(both.clusters).toEqual([['go', 'go', 'go'], ['rust', 'rust', 'rust'], ['go', 'cpp', 'rust'], ['cpp', 'rust', 'java']]);
    expect(both).toMatchObject({ repeats: 2, modes: ['no-fault', 'kill-leader'], syncs: ['always'] });
    // a mix alone runs no one-engine cluster beside it
    expect(parseExperimentArgs(['--engines', 'cpp,rust,java']).clusters).toEqual([['cpp', 'rust', 'java']]);
  });

  it('refuses bad input with a message that names it', async () => {
    const { parseExperimentArgs } = await import('./leader-kill-experiment.ts');
    expect(() => parseExperimentArgs(['--engines', 'go,cpp'])).toThrow(/three nodes' engines.*"go,cpp"/);
    expect(() => parseExperimentArgs(['--engines', 'go,cpp,python'])).toThrow(/--engines takes go, cpp, rust, java, not "python"|--engines takes .*"python"/);
    expect(() => parseExperimentArgs(['--engine', 'go+cpp+rust'])).toThrow(/--engine takes .*"go\+cpp\+rust"/);
    expect(() => parseExperimentArgs(['--repeats', '0'])).toThrow(/--repeats/);
    expect(() => parseExperimentArgs(['--modes', 'kill-everyone'])).toThrow(/unknown mode "kill-everyone"/);
    expect(() => parseExperimentArgs(['--engins', 'go,cpp,rust'])).toThrow(/--engins/);
  });

  it('exits with status 2 and the usage on bad input, running nothing', async () => {
    const { spawnSync } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const script = fileURLToPath(new URL('./leader-kill-experiment.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, '--engines', 'go,cpp'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--engines names the three nodes' engines/);
    expect(r.stderr).toMatch(/^usage: /m);
  });
});

describe('a mixed cluster’s run says which engine led before and after the fault', () => {
  it('names the leader engines of the pre-kill second and of 3-4 s after, beside the rates', async () => {
    const { rateFigures, clusterLabel } = await import('./leader-kill-experiment.ts');
    const engines = ['go', 'cpp', 'rust'] as const;
    expect(clusterLabel([...engines])).toBe('go+cpp+rust');
    expect(clusterLabel(['java', 'java', 'java'])).toBe('java');
    // node 0 (go) serves 4 per 250 ms before the kill; nothing for the first second after; then
    // node 1 (cpp) serves 5 per 250 ms
    const acks: { at_ms: number; latency_ms: number; node: number }[] = [];
    for (let t = -3000; t < 0; t += 62.5) acks.push({ at_ms: t, latency_ms: 1, node: 0 });
    for (let t = 1000; t < 5000; t += 50) acks.push({ at_ms: t, latency_ms: 1, node: 1 });
    const f = rateFigures(acks, [...engines]);
    expect(f).toMatchObject({
      pre_rate_per_s: 16, post_rate_per_s: 20, ratio: 1.25,
      leader_engine_before: 'go', leader_engine_after: 'cpp',
      before_per_s: 16, after_per_s: 20,
      empty_bins_before: 0, empty_bins_after: 0,
      leader_changes_before: 0, leader_changes_after: 0,
    });
    // nobody answered 3-4 s after: no leader engine, a ratio of 0 (a miss), not a pass
    const stalled = rateFigures(acks.filter((a) => a.at_ms < 3000), [...engines]);
    expect(stalled).toMatchObject({ post_rate_per_s: 0, ratio: 0, leader_engine_after: null, empty_bins_after: 8 });
  });
});
