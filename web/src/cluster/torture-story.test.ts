import { describe, expect, it } from 'vitest';
import type { Verdict } from '@replicant/checker/lincheck';
import type { TortureLive } from './cluster-protocol.ts';
import { drawnText, durabilityText, verdictText } from './torture-story.ts';

const linearizable: Verdict = { verdict: 'linearizable', operations: 32, checked: 25, dropped_reads: 5, unknown_writes: 2, unread_unknown_puts: 2, left_out_unknown_writes: 2, values_only: false, keys: 3, violating_keys: [], suspect_operations: [] };

function run(over: Partial<Omit<TortureLive, 'frame'>> = {}): Omit<TortureLive, 'frame'> {
  return {
    spec: 'rust:275;durability=none',
    seed: 275,
    engines: ['rust', 'rust', 'rust'],
    draw: { clients: 2, keys: ['k0', 'k1', 'k2'], ops_per_client: 14, fault_window_us: 520_000, tail_us: 400_000 },
    faults: [
      { index: 0, kind: 'reorder', at_us: 29_000, text: '29.0–319.0 ms: reorder' },
      { index: 1, kind: 'crash', at_us: 86_800, text: '86.8–286.8 ms: crash of n1' },
    ],
    history: [],
    verdict: linearizable,
    ok: true,
    problems: [],
    total_steps: 900,
    digest: '0123456789abcdef',
    ...over,
  };
}

describe('a torture run in words', () => {
  it('says what the seed drew', () => {
    expect(drawnText(run())).toBe(
      'Seed 275 drew 3 nodes (n0 Rust, n1 Rust, n2 Rust), 2 clients sending 14 operations each to keys k0, k1 and k2, and 2 faults inside the first 520 ms. ' +
        'Then the network is whole and every node is up for 400 ms, and the cluster must answer its clients again.',
    );
  });

  it('names what Porcupine could not place, and other failed checks', () => {
    const violation: Verdict = { ...linearizable, verdict: 'violation', checked: 30, violating_keys: ['k0'], suspect_operations: [20, 23, 25, 27] };
    const text = verdictText(run({ ok: false, verdict: violation, problems: ['not linearizable (Porcupine): keys k0; suspect operations #20 #23 #25 #27'] }));
    expect(text).toMatch(/^Porcupine caught a violation\. .* 30 operations .* key k0\. The 4 operations it could not place are marked in the history\.$/);
    expect(verdictText(run({ ok: false, problems: ['n0 traced 7 safety violation(s)'] }))).toBe(
      'Porcupine found an order for the client history (linearizable), but the run failed another check: n0 traced 7 safety violation(s).',
    );
    expect(verdictText(run())).toMatch(/^Porcupine found an order .* served again after the faults\.$/);
  });

  it('ties the outcome to durability', () => {
    expect(durabilityText(run({ ok: false }), 'none')).toMatch(/restarts as an empty process.*Run the same seed with durability log to compare\.$/);
    expect(durabilityText(run(), 'log')).toMatch(/restarts from that disk.*The same crashes now pass\.$/);
    expect(durabilityText(run({ faults: [] }), 'none')).toMatch(/No node crashes in this schedule/);
  });
});
