import { describe, expect, it } from 'vitest';
import { parseProcStatCpu, usageInWindow, type Sample } from './sampler.ts';

describe('parseProcStatCpu', () => {
  it('counts idle and iowait as not busy', () => {
    const s = parseProcStatCpu('cpu  100 5 50 1000 20 1 2 3 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n');
    expect(s.total).toBe(100 + 5 + 50 + 1000 + 20 + 1 + 2 + 3);
    expect(s.busy).toBe(s.total - 1020);
  });
});

describe('usageInWindow', () => {
  // Two groups: one at half a core, one at a quarter; the machine busy at 1.5 cores.
  const samples: Sample[] = Array.from({ length: 11 }, (_, i) => ({
    t_s: 1000 + i,
    cpu_ns: [i * 0.5e9, i * 0.25e9],
    memory_bytes: [100 + i, 200],
    rss_bytes: [50 + i, null],
    machine_busy_ticks: i * 150,
    machine_total_ticks: i * 200,
  }));

  it('averages cores over the window and attributes the rest of the machine to others', () => {
    const u = usageInWindow(samples, 1002, 1008);
    expect(u.cores[0]).toBeCloseTo(0.5);
    expect(u.cores[1]).toBeCloseTo(0.25);
    expect(u.machine_cores_busy).toBeCloseTo(1.5);
    expect(u.other_cores_busy).toBeCloseTo(0.75);
    expect(u.memory_peak_bytes).toEqual([108, 200]);
    expect(u.rss_peak_bytes).toEqual([58, null]);
    expect(u.timeline[0]!.every(([, c]) => Math.abs(c - 0.5) < 1e-9)).toBe(true);
  });

  it('refuses a window with too few samples', () => {
    expect(() => usageInWindow(samples, 2000, 2001)).toThrow(/too few samples/);
  });
});
