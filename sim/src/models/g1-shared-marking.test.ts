import { describe, expect, it } from 'vitest';
import { CpuPool } from './cpu.ts';
import { G1Runtime, MARK_SHARE_OF_BUSY_CORE, type G1Params } from './g1.ts';

// A node of this machine's card: 0.565 of one core, one marking thread (g1GcThreads(1)), a
// 140 MB heap over 65 MB of live data: the old generation is past IHOP (45 %) from the first
// young pause on, so a marking cycle of 65 ms of work starts after it.
const params: G1Params = {
  heap_bytes: 140e6, parallel_gc_threads: 1, conc_gc_threads: 1, new_size_min_fraction: 0.05, new_size_max_fraction: 0.6,
  reserve_fraction: 0.1, ihop_fraction: 0.45, young_pause_fixed_ms: 1, copy_ns_per_byte: 1.5, card_scan_ns_per_update: 150,
  mark_ns_per_live_byte: 1, remark_pause_ms: 2, mixed_reclaimable_fraction: 0.144, mixed_count: 8, full_gc_ns_per_live_byte: 3,
  pause_goal_ms: 200, max_tenuring_threshold: 15, survivor_target_fraction: 0.0625, reclaim_once: true,
};

/** 2 s of a busy server, one 100 µs job a millisecond beside 20 kB of allocation: the longest a
 * job waited for the core outside the collector's stop-the-world pauses, and the events. */
function drive(vcpus: number) {
  const pool = new CpuPool(vcpus, 1_000_000);
  const rt = new G1Runtime(params, 65e6, 0, 544, pool);
  let longestWait_us = 0;
  for (let t = 0; t < 2_000_000; t += 1000) {
    rt.onUpdate(1);
    rt.charge(t, 20_000, 0);
    const job = pool.run(t, 100);
    const paused = rt.events.some((e) => e.pause_ms > 0 && t < e.t_s * 1e6 + e.pause_ms * 1000 && job.start_us >= e.t_s * 1e6);
    if (!paused) longestWait_us = Math.max(longestWait_us, job.start_us - t);
  }
  return { longestWait_us, events: rt.events };
}

describe('G1 concurrent marking on a node whose every core it would take', () => {
  it('shares the core with the program instead of stopping it for the whole cycle', () => {
    const { longestWait_us, events } = drive(0.565);
    const marks = events.filter((e) => e.kind === 'g1_concurrent_mark');
    expect(marks.length).toBeGreaterThan(0);
    // 65 MB at 1 ns/B on one thread: 65 ms of marking work. Held as one block the core ran
    // nothing else for 65 ms (a job waited that long); time-shared, a job waits a slice.
    expect(marks[0]!.cpu_ms).toBeCloseTo(65, 6);
    expect(longestWait_us).toBeLessThan(5_000);
    // The cycle takes its work over the marker's share of the wall time.
    expect(marks[0]!.duration_ms).toBeCloseTo(65 / MARK_SHARE_OF_BUSY_CORE, 0);
    // The remark comes when the marking ends.
    const remark = events.find((e) => e.kind === 'g1_remark')!;
    expect(remark.t_s).toBeCloseTo(marks[0]!.t_s + marks[0]!.duration_ms! / 1000, 3);
  });

  it('keeps the marking threads on cores of their own where the node has more cores than them', () => {
    // 2 vCPUs, one marking thread: the other core runs the program, as before.
    const { events } = drive(2);
    const mark = events.find((e) => e.kind === 'g1_concurrent_mark')!;
    expect(mark.duration_ms).toBeCloseTo(65, 6);
  });
});
