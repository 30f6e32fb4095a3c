import { describe, expect, it } from 'vitest';
import { DEFAULT_CARD } from '../models/card.ts';
import { simulate } from '../run/simulate.ts';
import { applyCpuSplit, base, calibrateCpu, calibrateGo5, calibrateJava5, calibrateJavaYoung, deriveJavaStep, leaderBytesPerOp, matchJava5Period, messageUs, paperLeaderUsPerOp, PER_KIB_SHARE, POINTS, VCPUS } from './fit.ts';

const GiB = 1024 ** 3;

describe('calibration points', () => {
  it('reads the leader CPU per operation off the paper: utilisation x vCPUs / throughput', () => {
    const us = paperLeaderUsPerOp();
    expect(us.cpp).toBeCloseTo((0.75 * 8e6) / 28_700, 9);
    expect(us.rust).toBeCloseTo((0.58 * 8e6) / 69_500, 9);
    for (const p of Object.values(POINTS)) expect(p.ids).toHaveLength(2);
  });

  it('counts a workload-A operation as request, two accepts, two votes and a reply on the leader', () => {
    const bytes = leaderBytesPerOp();
    // the 500-byte value goes into the request and both accepts (updates only: half the ops)
    expect(bytes).toBeGreaterThan(3 * 250);
    expect(bytes).toBeLessThan(3 * 600 + 4 * 200);
  });
});

describe('the CPU split', () => {
  it('spends exactly the leader CPU the paper states: GC, steps, allocations and messages add up', () => {
    const card = structuredClone(DEFAULT_CARD);
    const cTotal = paperLeaderUsPerOp().rust;
    const bytes = leaderBytesPerOp();
    const sigma = 4.5;
    const gc = 1.25;
    const alloc = 0.5;
    const m = messageUs(cTotal, gc, sigma, alloc, bytes);
    applyCpuSplit(card, 'rust', m, sigma, cTotal, gc, bytes, POINTS.rust);
    const v = (k: string) => card.parameters[k]!.value;
    const spent = gc + alloc + 3 * v('cpu.rust.step_us') + 3 * v('cpu.rust.in_us') + 3 * v('cpu.rust.out_us') + (v('cpu.rust.per_kib_us') * bytes) / 1024;
    expect(spent).toBeCloseTo(cTotal, 2); // the card rounds to 0.001 µs
    expect(v('cpu.rust.per_kib_us')).toBeCloseTo(PER_KIB_SHARE * m, 3);
    expect(card.parameters['cpu.rust.step_us']!.note).toContain('fig9a-rust-a-32gib-8vcpu-max-throughput-slo');
  });

  it('derives Java\'s step from C++\'s and spends the rest of Fig 6(b)\'s Java CPU on messages', () => {
    const card = structuredClone(DEFAULT_CARD);
    card.parameters['cpu.java.step_us']!.value = 99; // anything: the derivation replaces it
    deriveJavaStep(card);
    const v = (k: string) => card.parameters[k]!.value;
    expect(v('cpu.java.step_us')).toBe(v('cpu.cpp.step_us'));
    expect(card.parameters['cpu.java.step_us']!.source).toBe('derived');
    const allocUs = (3 * v('alloc.java.allocs_per_event') * (card.parameters['alloc.java.ns_per_allocation']?.value ?? 0)) / 1000;
    const spent = allocUs + 3 * v('cpu.java.step_us') + 3 * v('cpu.java.in_us') + 3 * v('cpu.java.out_us') + (v('cpu.java.per_kib_us') * leaderBytesPerOp()) / 1024;
    expect(spent).toBeCloseTo(paperLeaderUsPerOp().java, 2); // no GC subtracted: the card's stated simplification
    for (const k of ['in_us', 'out_us']) expect(card.parameters[`cpu.java.${k}`]!.note).toContain("with Java's step taken from C++");
  });

  it('refuses a point where GC and steps leave no CPU for messages', () => {
    expect(messageUs(10, 8, 1, 0, 1000)).toBeLessThan(0);
  });
});

describe('Go at 5 GiB (Fig 9(a): no rate meets the SLO)', () => {
  it('fits the least record size that fills GOMEMLIMIT and the least mark cost that misses p99 <= 20 ms at 100 ops/s', () => {
    const card = structuredClone(DEFAULT_CARD);
    const lines: string[] = [];
    calibrateGo5(card, (l) => lines.push(l));
    const p = (k: string) => card.parameters[k]!;
    const record = p('memory.go.bytes_per_record').value;
    const logBytes = (100 * 2 * 0.15 + 64) * p('memory.go.bytes_per_log_instance').value;
    const live = (r: number) => 7_500_000 * r + logBytes + p('memory.go.non_heap_bytes').value;
    expect(live(record)).toBeGreaterThanOrEqual(5 * GiB);
    expect(live(record - 8)).toBeLessThan(5 * GiB);
    expect(p('memory.go.bytes_per_record').source).toBe('derived');
    const mark = p('go.mark_ns_per_live_byte').value;
    expect(mark).toBeGreaterThanOrEqual(0.3);
    expect(lines.length).toBe(Math.round((mark - 0.3) / 0.05) + 1);
    expect(simulate(base(card, 'go', 5, 100, 120), null).latency.all.p99_us).toBeGreaterThan(20_000);
    if (mark > 0.3) {
      card.parameters['go.mark_ns_per_live_byte']!.value = Math.round((mark - 0.05) * 100) / 100;
      expect(simulate(base(card, 'go', 5, 100, 120), null).latency.all.p99_us).toBeLessThanOrEqual(20_000);
    }
    expect(VCPUS).toBe(8);
  });
});

describe('the CPU fit, end to end on a small synthetic point', () => {
  // A low rate keeps the runs short; the fit is the same arithmetic and the same simulator.
  const point = { x32: 400, u32: 0.5, ids: ['synthetic-max-throughput', 'synthetic-utilization'] };
  it('sets step, message and per-KiB costs so the simulated max at the SLO lands on the point', () => {
    const card = structuredClone(DEFAULT_CARD);
    const lines: string[] = [];
    calibrateCpu(card, 'rust', (l) => lines.push(l), { point, duration_s: 2, warmup_s: 1, window: 'fixed' });
    expect(lines).toHaveLength(2);
    const found = lines.map((l) => Number(/max (\d+) ops\/s at SLO/.exec(l)![1]));
    // The secant step brings the second iteration closer to the target than the first.
    expect(Math.abs(found[1]! - point.x32)).toBeLessThanOrEqual(Math.abs(found[0]! - point.x32));
    expect(Math.abs(found[1]! - point.x32) / point.x32).toBeLessThan(0.05);
    const v = (k: string) => card.parameters[k]!;
    for (const k of ['step_us', 'in_us', 'out_us']) {
      expect(v(`cpu.rust.${k}`).source).toBe('derived');
      expect(v(`cpu.rust.${k}`).note).toContain('synthetic-max-throughput and synthetic-utilization');
    }
    // Rust has no GC: allocations, three steps and the messages spend all of the point's leader CPU.
    const cTotal = (point.u32 * VCPUS * 1e6) / point.x32;
    const allocUs = (3 * v('alloc.rust.allocs_per_event').value * (v('alloc.rust.ns_per_allocation')?.value ?? 0)) / 1000;
    const bytes = leaderBytesPerOp();
    const spent = allocUs + 3 * v('cpu.rust.step_us').value + 3 * v('cpu.rust.in_us').value + 3 * v('cpu.rust.out_us').value + (v('cpu.rust.per_kib_us').value * bytes) / 1024;
    expect(spent).toBeCloseTo(cTotal, 1);
  });
});

describe('Java\'s young pauses at 32 GiB (Fig 6(a): 18 Kops/s)', () => {
  it('bisects the copy cost from its prior: up while the SLO is met, down when missed, and keeps the last cost that met it', () => {
    const card = structuredClone(DEFAULT_CARD);
    const lines: string[] = [];
    calibrateJavaYoung(card, (l) => lines.push(l), { iterations: 2 });
    const probes = lines.map((l) => {
      const m = /copy ([\d.]+) ns\/B.*\((met|missed)\)/.exec(l)!;
      return { copy: Number(m[1]), met: m[2] === 'met' };
    });
    expect(probes).toHaveLength(2);
    expect(probes[0]!.copy).toBeCloseTo((1.5 + 12) / 2, 9); // the prior and the bracket's top
    const [lo, hi] = probes[0]!.met ? [probes[0]!.copy, 12] : [1.5, probes[0]!.copy];
    expect(probes[1]!.copy).toBeCloseTo((lo + hi) / 2, 9);
    const kept = probes.filter((p) => p.met).pop()?.copy ?? 1.5;
    const fitted = card.parameters['g1.copy_ns_per_byte']!;
    expect(fitted.value).toBeCloseTo(kept, 3);
    expect(fitted.source).toBe('derived');
    expect(card.parameters['cpu.java.step_us']!.value).toBe(card.parameters['cpu.cpp.step_us']!.value);
  });
});

describe('Java at 5 GiB, carried over from a reference card', () => {
  it('matched against itself, finds a reclaimable share whose full-collection period is the reference\'s', () => {
    const reference = structuredClone(DEFAULT_CARD);
    const card = structuredClone(DEFAULT_CARD);
    const lines: string[] = [];
    matchJava5Period(card, reference, (l) => lines.push(l));
    const periods = lines.map((l) => Number(/every ([\d.]+) s \(card/.exec(l)![1]));
    const refPeriod = Number(/card [^:]+: ([\d.]+) s\)/.exec(lines[0]!)![1]);
    expect(periods).toHaveLength(3); // the two bracketing dry runs, then the interpolated share
    expect(periods[0]!).toBeLessThanOrEqual(refPeriod);
    expect(periods[1]!).toBeGreaterThanOrEqual(refPeriod);
    const fitted = card.parameters['g1.mixed_reclaimable_fraction']!;
    expect(fitted.value).toBeGreaterThanOrEqual(0.1);
    expect(fitted.value).toBeLessThanOrEqual(0.2);
    expect(fitted.source).toBe('derived');
    expect(fitted.note).toContain(`with it ${periods[2]} s`);
  });

  it('says so when the reference card has no full collection to match', () => {
    const reference = structuredClone(DEFAULT_CARD);
    reference.parameters['g1.reclaim_once']!.value = 0;
    expect(() => matchJava5Period(structuredClone(DEFAULT_CARD), reference)).toThrow(/no full collection at 5 GiB/);
  });
});

describe('the Java 5 GiB fit, end to end on a small synthetic target', () => {
  it('bisects the mixed collections\' reach toward the target and keeps the closest probe', () => {
    const card = structuredClone(DEFAULT_CARD);
    const lines: string[] = [];
    const target = 1000;
    calibrateJava5(card, (l) => lines.push(l), { target_ops_per_s: target, duration_s: 2, warmup_s: 1, probe_operations: 2000, max_duration_s: 3, iterations: 3 });
    const probes = lines.map((l) => {
      const m = /mixed reclaimable ([\d.]+) → max (\d+) ops\/s \(target 1000\)/.exec(l)!;
      return { f: Number(m[1]), x: Number(m[2]) };
    });
    expect(probes).toHaveLength(3);
    expect(probes[0]!.f).toBe(0.5);
    // Too fast means the reach is too large: the next probe halves toward 0, else toward 1.
    for (let i = 1; i < probes.length; i++) {
      const step = 0.5 ** (i + 1);
      expect(probes[i]!.f).toBeCloseTo(probes[i - 1]!.f + (probes[i - 1]!.x > target ? -step : step), 9);
    }
    const best = probes.reduce((b, p) => (Math.abs(p.x - target) < Math.abs(b.x - target) ? p : b));
    const fitted = card.parameters['g1.mixed_reclaimable_fraction']!;
    expect(fitted.value).toBe(best.f);
    expect(fitted.source).toBe('derived');
    expect(fitted.note).toContain(`at 5 GiB is ${target} ops/s (got ${best.x} ops/s`);
  });
});
