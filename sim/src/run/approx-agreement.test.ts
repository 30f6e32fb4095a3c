// The approximate fast mode ('fast-approx') against the plain fast run, on two cheap points
// (the whole fidelity table's settings: `npm --workspace @replicant/sim run -s approx-agreement`),
// its determinism, and the pure pieces of cycle-repeat.ts.
import { describe, expect, it } from 'vitest';
import type { EngineName, RunSpec } from '../api.ts';
import { simulate } from './simulate.ts';
import { APPROX_BOUNDS, compareApprox } from './approx-agreement.ts';
import { repeatStretch_us, repeatedLatencies, steadyLatencies } from './cycle-repeat.ts';
import { OpLog } from '../load/op-log.ts';
import { fidelityRunSpec } from '../fidelity/specs.ts';
import type { GcEvent } from '../models/runtime.ts';

function spec(engine: EngineName, memory_gib: number, rate: number, duration_s: number): RunSpec {
  const s = fidelityRunSpec(engine, 'A', memory_gib, 8, rate);
  return { ...s, load: { ...s.load, duration_s } };
}

const cycle = (t_s: number): GcEvent => ({ t_s, kind: 'go_cycle', pause_ms: 0.1, cpu_ms: 50, duration_ms: 300 });

describe('cycle-repeat', () => {
  it('takes a node\'s last period once two agree, and refuses two that do not', () => {
    expect(repeatStretch_us([cycle(1), cycle(3), cycle(5)], 0, 6e6, false, 1e6)).toBeCloseTo(2e6, 0);
    expect(repeatStretch_us([cycle(1), cycle(3), cycle(6)], 0, 7e6, false, 1e6)).toBeNull();
    // only collections inside the window count
    expect(repeatStretch_us([cycle(1), cycle(3), cycle(5)], 2e6, 6e6, false, 1e6)).toBeNull();
  });

  it('repeats a quiet stretch only where no collection is due and it is long enough (negated)', () => {
    expect(repeatStretch_us([cycle(1)], 0, 4e6, true, 1e6)).toBeCloseTo(-(4e6 - 1.3e6), 0);
    expect(repeatStretch_us([cycle(1)], 0, 4e6, false, 1e6)).toBeNull();
    expect(repeatStretch_us([cycle(3)], 0, 4e6, true, 1e6)).toBeNull();
  });

  it('counts each operation of the repeated stretch once per period that fits in the window', () => {
    const log = new OpLog();
    // one operation every 100 ms from 0 to 2 s, latency 1 ms, the last second's 10 ms
    for (let t = 0; t < 2e6; t += 1e5) log.add(t, t >= 1e6 ? 10_000 : 1000, 500, false, false);
    const w = { from_us: 0, sampled_to_us: 2e6, to_us: 5.5e6, bucket_us: 1e5 };
    const l = repeatedLatencies(log, w, 1e6, 5000);
    // 20 simulated, then [1, 2) s three times whole and half once more: 20 + 30 + 5
    expect(l.completed).toBe(55);
    expect(l.over).toBe(10 + 35);
    expect(l.read.count).toBe(55);
  });

  it('calls a stretch steady only when its p99 agrees with the one before it', () => {
    const log = new OpLog();
    for (let t = 0; t < 4e6; t += 1e3) log.add(t, t < 2e6 ? 1000 : 2000, 500, false, false);
    expect(steadyLatencies(log, 0, 4e6, 2e6)).toBe(false);
    expect(steadyLatencies(log, 2e6, 4e6, 2e6)).toBe(true); // halves of the one stretch
  });
});

describe('fast-approx against plain fast mode', () => {
  // C++ at its SLO answer (28,458 ops/s, near the Log mutex's capacity): before the stationarity
  // check (steadyLatencies) its 2 s sample read the p99 as 5.76 against 6.74 ms (14.5 %).
  it.each([
    ['cpp', 32, 28_458, 10],
    ['go', 6, 30_000, 16],
  ] as const)('%s A %d GiB at %d ops/s over %d s: within the bounds', (engine, gib, rate, duration_s) => {
    const c = compareApprox(`${engine} ${gib} GiB`, spec(engine, gib, rate, duration_s));
    expect(c.same_verdict).toBe(true);
    expect(c.throughput_error).toBeLessThanOrEqual(APPROX_BOUNDS.throughput_rel);
    expect(c.p99_error).toBeLessThanOrEqual(APPROX_BOUNDS.p99_rel);
    expect(c.cpu_error_pp).toBeLessThanOrEqual(APPROX_BOUNDS.cpu_pp);
    expect(c.gc_error_pp).toBeLessThanOrEqual(APPROX_BOUNDS.gc_pp);
    // it did approximate: fewer operations simulated than the window holds
    expect(c.approx.simulated_ops).toBeLessThan(c.approx.ops);
  });

  it('is deterministic, says it is approximate, and leaves an overloaded run plain', () => {
    const s: RunSpec = { ...spec('rust', 32, 20_000, 4), fidelity: 'fast-approx' };
    const a = simulate(s, null);
    expect(JSON.stringify(simulate(s, null))).toBe(JSON.stringify(a));
    expect(a.fidelity).toBe('fast-approx');
    expect(a.approximation!.simulated_s).toBeLessThan(4);
    const over = simulate({ ...spec('cpp', 32, 40_000, 4), fidelity: 'fast-approx' }, null);
    expect(over.approximation).toBeUndefined();
    // the same run as plain fast mode, but for what it says it is
    expect(over.fidelity).toBe('fast-approx');
    expect(JSON.stringify({ ...over, fidelity: 'fast', spec: null })).toBe(JSON.stringify({ ...simulate({ ...spec('cpp', 32, 40_000, 4), fidelity: 'fast' }, null), spec: null }));
  });
});
