import { describe, expect, it } from 'vitest';
import { Prng } from '../core/prng.ts';
import { Network, unitExponential } from './network.ts';

describe('network', () => {
  it('latency + serialization by bandwidth; the link is busy while it sends', () => {
    const n = new Network({ one_way_latency_us: 100, jitter_us: 0, bandwidth_gbps: 1 }, new Prng(1, 1));
    // 1 Gbit/s = 125 bytes per µs
    expect(n.arrival(0, 1, 1250, 0)).toBe(110);
    // sent at the same instant: waits for the first to leave the wire
    expect(n.arrival(0, 1, 1250, 0)).toBe(120);
    // another link is independent
    expect(n.arrival(1, 0, 125, 0)).toBe(101);
  });

  it('FIFO per link even when jitter would reorder', () => {
    const n = new Network({ one_way_latency_us: 100, jitter_us: 500, bandwidth_gbps: 10 }, new Prng(2, 1));
    let last = 0;
    let reordersPrevented = 0;
    for (let i = 0; i < 5000; i++) {
      const sent = i * 10;
      const a = n.arrival(0, 2, 100, sent);
      expect(a).toBeGreaterThanOrEqual(last);
      expect(a).toBeGreaterThanOrEqual(sent + 100);
      if (a === last) reordersPrevented++;
      last = a;
    }
    expect(reordersPrevented).toBeGreaterThan(0);
  });

  it('the receiver\'s thread hand-off adds its mean to each message, in the link\'s order', () => {
    const plain = new Network({ one_way_latency_us: 100, jitter_us: 0, bandwidth_gbps: 10 }, new Prng(3, 1));
    const handed = new Network({ one_way_latency_us: 100, jitter_us: 0, bandwidth_gbps: 10, handoff_mean_us: 300 }, new Prng(3, 1));
    let extra = 0;
    let last = 0;
    let outOfOrder = 0;
    const N = 5000;
    // Messages far apart (10 ms) on one link: each hand-off stands alone.
    for (let i = 0; i < N; i++) {
      const sent = i * 10_000;
      const a = handed.arrival(0, 1, 100, sent);
      if (a < last) outOfOrder++;
      extra += a - plain.arrival(0, 1, 100, sent);
      last = a;
    }
    expect(outOfOrder).toBe(0);
    expect(extra / N).toBeGreaterThan(270);
    expect(extra / N).toBeLessThan(330);
    // Close together (10 µs apart), a slow hand-off holds up the messages behind it.
    const busy = new Network({ one_way_latency_us: 100, jitter_us: 0, bandwidth_gbps: 10, handoff_mean_us: 300 }, new Prng(4, 1));
    let lag = 0;
    for (let i = 0; i < N; i++) lag += busy.arrival(0, 1, 100, i * 10) - (i * 10 + 100.08);
    expect(lag / N).toBeGreaterThan(600);
    expect(() => new Network({ one_way_latency_us: 100, jitter_us: 0, bandwidth_gbps: 10, handoff_mean_us: -1 }, new Prng(4, 1))).toThrow(/handoff_mean_us/);
  }, 60_000);

  it('jitter is exponential: mean 1, the right tail, close to −ln(1−u) everywhere', () => {
    const rng = new Prng(9, 1);
    let sum = 0;
    let over3 = 0;
    const N = 200_000;
    for (let i = 0; i < N; i++) {
      const x = unitExponential(rng.nextDouble());
      sum += x;
      if (x > 3) over3++;
    }
    expect(sum / N).toBeCloseTo(1, 2);
    expect(over3 / N).toBeCloseTo(Math.exp(-3), 2);
    // linear interpolation between quantiles: within 0.1 % of the exact value
    for (const u of [0.1, 0.5, 0.9, 0.999, 0.99999]) expect(Math.abs(unitExponential(u) / -Math.log(1 - u) - 1)).toBeLessThan(1e-3);
    expect(unitExponential(0)).toBe(0);
  });

  it('one-way cuts and heal; bad parameters are refused', () => {
    const n = new Network({ one_way_latency_us: 1, jitter_us: 0, bandwidth_gbps: 1 }, new Prng(3, 1));
    n.cutLink(0, 1);
    expect(n.isCut(0, 1)).toBe(true);
    expect(n.isCut(1, 0)).toBe(false);
    expect(n.cutLinks()).toEqual([[0, 1]]);
    n.heal();
    expect(n.isCut(0, 1)).toBe(false);
    expect(() => new Network({ one_way_latency_us: -1, jitter_us: 0, bandwidth_gbps: 1 }, new Prng(3, 1))).toThrow(/one_way_latency_us/);
    expect(() => new Network({ one_way_latency_us: 1, jitter_us: 0, bandwidth_gbps: 0 }, new Prng(3, 1))).toThrow(/bandwidth_gbps/);
  });
});
