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
