// A short nemesis run on a native Go cluster: whatever the machine's load does to timing,
// safety must hold — Porcupine accepts the history and no acknowledged write is lost.
import { describe, expect, it } from 'vitest';
import { loadChecker } from '@replicant/checker/node';
import { runNemesis } from './nemesis.ts';

describe('nemesis', () => {
  it('kills and pauses a native cluster; the history stays linearizable', async () => {
    const checker = await loadChecker();
    const r = await runNemesis({
      engines: ['go', 'go', 'go'], seed: 7, duration_ms: 4000, tail_ms: 1500, clients: 3, keys: ['k0', 'k1'],
      faults: ['kill', 'pause'], commit_interval_ms: 50, request_timeout_ms: 1000,
      check: (h) => checker.check(h).verdict,
    });
    expect(r.faults.length).toBeGreaterThan(0);
    expect(r.acknowledged).toBeGreaterThan(50);
    expect(r.verdict.verdict).toBe('linearizable');
    expect(r.lost_writes).toEqual([]);
    expect(r.history.some((op) => op.result === 'unknown' || op.op === 'get')).toBe(true);
  });
});
