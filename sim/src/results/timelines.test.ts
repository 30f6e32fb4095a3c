import { describe, expect, it } from 'vitest';
import { UsageTimeline } from '../models/cpu.ts';
import { GIB } from '../models/node-model.ts';
import { nodeTimelines, round4, type NodeRecord } from './timelines.ts';

function record(over: Partial<NodeRecord> = {}): NodeRecord {
  const usage = new UsageTimeline(2, 1_000_000); // 2 cores, 1 s buckets
  usage.add(0, 1e6, 1e6, false); // second 0: one core busy
  usage.add(1e6, 2e6, 1.5e6, false); // second 1: 1.5 cores, a third of it GC
  usage.add(1e6, 2e6, 0.5e6, true);
  return { id: 1, engine: 'java', usage, gc_events: [{ t_s: 1.23456789, kind: 'g1_young', pause_ms: 12.345678, cpu_ms: 90.1 }], heap_bytes_now: 3 * GIB, heap_samples: [GIB], ops_entered: 4, allocated_bytes: 10, crashed_at_us: null, ...over };
}

describe('nodeTimelines', () => {
  it('per bucket over the workload: CPU, GC share, heap (the last sample carried forward)', () => {
    const t = nodeTimelines(record(), { workload_start_us: 0, from_us: 1e6, to_us: 2e6, bucket_us: 1e6 });
    expect(t.cpu_utilization).toEqual([{ t_s: 1, value: 0.5 }, { t_s: 2, value: 1 }]);
    expect(t.gc_cpu_share).toEqual([{ t_s: 1, value: 0 }, { t_s: 2, value: 0.25 }]);
    expect(t.heap_gib).toEqual([{ t_s: 1, value: 1 }, { t_s: 2, value: 1 }]);
    expect(t.mean_cpu_utilization).toBe(1); // the window is second 1 alone
    expect(t.mean_gc_cpu_share).toBe(0.25);
    expect(t.gc_events).toEqual([{ t_s: 1.234568, kind: 'g1_young', pause_ms: 12.3457, cpu_ms: 90.1 }]);
    expect(t.allocated_bytes_per_op).toBe(2.5);
    expect(t.crashed_at_s).toBeUndefined();
  });

  it('a run whose workload never started has no window means; a crash is reported in seconds', () => {
    const t = nodeTimelines(record({ heap_samples: [], crashed_at_us: 1_500_000 }), { workload_start_us: Infinity, from_us: Infinity, to_us: Infinity, bucket_us: 1e6 });
    expect(t.mean_cpu_utilization).toBe(0);
    expect(t.cpu_utilization).toHaveLength(2); // every bucket the CPU saw
    expect(t.heap_gib[0]!.value).toBe(3); // no sample: the heap at the end
    expect(t.crashed_at_s).toBe(1.5);
    expect(round4(1 / 3)).toBe(0.3333);
  });
});
