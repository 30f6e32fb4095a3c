import { describe, expect, it } from 'vitest';
import { DEFAULT_CARD, param } from './card.ts';
import { CpuPool } from './cpu.ts';
import { G1Runtime } from './g1.ts';
import { g1ConcurrentCoreShares, oldGarbageBytesPerS, secondsToInitiatingOccupancy } from './g1-concurrent.ts';
import { GIB, liveBytes, makeRuntime } from './node-model.ts';

// Fig 7's point: Java A, 32 GiB, 4 vCPUs; the default card's search gives 9.447 Kops/s there
// (docs/fidelity.md), 16.314 at 8 vCPUs.
const RECORDS = 7_500_000;
const POINT_4_VCPU_OPS_PER_S = 9447;
const POINT_8_VCPU_OPS_PER_S = 16314;
const card = DEFAULT_CARD;
const valueBytes = param(card, 'memory.java.bytes_per_value');
const mapBytes = liveBytes(card, 'java', RECORDS, 0).data;

describe("G1's concurrent threads by HotSpot's defaults", () => {
  it('hold the same share of the cores at 4 vCPUs as at 8: a quarter for marking, all of them for refinement', () => {
    expect(g1ConcurrentCoreShares(4)).toEqual({ marking: 0.25, refinement: 1 });
    expect(g1ConcurrentCoreShares(8)).toEqual({ marking: 0.25, refinement: 1 });
    // Only at 2 vCPUs does marking's one thread hold more (half); at 16, 3 of 16.
    expect(g1ConcurrentCoreShares(2).marking).toBe(0.5);
    expect(g1ConcurrentCoreShares(16).marking).toBe(3 / 16);
  });

  it('refuses a vCPU count that is not a whole number of at least 1', () => {
    expect(() => g1ConcurrentCoreShares(0)).toThrow(/whole number/);
    expect(() => g1ConcurrentCoreShares(2.5)).toThrow(/whole number/);
  });

  it('the initiating occupancy is an hour of updates away at 32 GiB, far beyond a 10-minute probe', () => {
    const heap = 32 * GIB;
    const ihop = param(card, 'g1.ihop_fraction');
    const at4 = secondsToInitiatingOccupancy(heap, ihop, mapBytes, oldGarbageBytesPerS(POINT_4_VCPU_OPS_PER_S, 0.5, valueBytes));
    const at8 = secondsToInitiatingOccupancy(heap, ihop, mapBytes, oldGarbageBytesPerS(POINT_8_VCPU_OPS_PER_S, 0.5, valueBytes));
    expect(at4 / 60).toBeGreaterThan(65);
    expect(at4 / 60).toBeLessThan(72);
    expect(at8 / 60).toBeGreaterThan(35);
    expect(at8).toBeGreaterThan(2 * 600);
    expect(secondsToInitiatingOccupancy(heap, ihop, heap, 1)).toBe(0);
    expect(secondsToInitiatingOccupancy(heap, ihop, mapBytes, 0)).toBe(Infinity);
  });

  it("and the model's G1 at Fig 7's point starts no marking in 20 s of warm-up and a 600 s window", () => {
    const pool = new CpuPool(4, 100_000);
    const rt = makeRuntime(card, { engine: 'java', memory_bytes: 32 * GIB, vcpus: 4, records: RECORDS, log_instances: 10_000 }, pool);
    if (!(rt instanceof G1Runtime)) throw new Error('the default card gives Java a G1 runtime');
    const perOpBytes = (param(card, 'alloc.java.leader_bytes_per_read_op') + param(card, 'alloc.java.leader_bytes_per_update_op')) / 2;
    const opsPerMs = POINT_4_VCPU_OPS_PER_S / 1000;
    for (let t_us = 0; t_us < 620e6; t_us += 1000) {
      rt.onUpdate(opsPerMs / 2);
      rt.charge(t_us, opsPerMs * perOpBytes, 0);
    }
    const kinds = rt.events.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'g1_young').length).toBeGreaterThan(5);
    expect(kinds).not.toContain('g1_concurrent_mark');
    expect(kinds).not.toContain('g1_mixed');
  });
});
