import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGoGctrace, parseJvmGcLog, summarizeGc } from './gclog.ts';

const testdata = (f: string) => readFileSync(join(import.meta.dirname, 'testdata', f), 'utf8');

describe('Go gctrace', () => {
  it('reads every cycle of a real server log and skips other lines', () => {
    const text = testdata('go-gctrace.log');
    const events = parseGoGctrace(text);
    expect(events).toHaveLength(text.split('\n').filter((l) => l.startsWith('gc ')).length);
    expect(events.length).toBeGreaterThan(5);
  });

  it('splits clock and cpu phases as the runtime prints them', () => {
    const [e] = parseGoGctrace(
      'gc 3 @2.025s 1%: 4.8+30+0.002 ms clock, 9.7+29/0.24/0+0.004 ms cpu, 33->33->12 MB, 34 MB goal, 0 MB stacks, 0 MB globals, 2 P',
    );
    expect(e!.t_s).toBe(2.025);
    expect(e!.pause_ms).toBeCloseTo(4.802);
    expect(e!.duration_ms).toBeCloseTo(34.802);
    expect(e!.cpu_ms).toBeCloseTo(9.7 + 29 + 0.24 + 0.004);
    expect(e!.heap_live_mib).toBeCloseTo((12 * 1e6) / 2 ** 20);
    expect(e!.procs).toBe(2);
  });

  it('reads forced cycles too', () => {
    const events = parseGoGctrace('gc 9 @1.0s 0%: 0.1+1+0.1 ms clock, 0.1+0/1/0+0.1 ms cpu, 4->4->1 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 1 P (forced)');
    expect(events).toHaveLength(1);
  });
});

describe('JVM -Xlog:gc*', () => {
  const events = parseJvmGcLog(testdata('jvm-g1-gc.log'));

  it('reads young pauses, full GCs and concurrent cycles from a real G1 log', () => {
    const kinds = new Set(events.map((e) => e.kind));
    expect(kinds.has('young')).toBe(true);
    expect(kinds.has('full')).toBe(true);
    expect(kinds.has('young-concurrent-start')).toBe(true);
    expect(kinds.has('concurrent-mark-cycle')).toBe(true);
  });

  it('takes sizes, durations and the cpu line of the same GC id', () => {
    const first = events.find((e) => e.kind === 'young')!;
    // [1.325s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(48M) 6.799ms
    // [1.325s][info][gc,cpu] GC(0) User=0.01s Sys=0.00s Real=0.01s
    expect(first.heap_before_mib).toBe(6);
    expect(first.heap_after_mib).toBe(3);
    expect(first.pause_ms).toBeCloseTo(6.799);
    expect(first.t_s).toBeCloseTo(1.325 - 0.006799, 4); // logged at its end; stored at its start
    expect(first.cpu_ms).toBeCloseTo(10);
    const cycle = events.find((e) => e.kind === 'concurrent-mark-cycle')!;
    expect(cycle.pause_ms).toBe(0);
    expect(cycle.duration_ms).toBeGreaterThan(0);
  });

  it('ignores lines from other tags and unfinished cycles', () => {
    const text = [
      '[0.025s][info][gc] Using G1',
      '[1.646s][info][gc          ] GC(5) Concurrent Mark Cycle',
      '[1.700s][info][gc,heap     ] GC(6) Eden regions: 1->0(2)',
      '[1.777s][info][gc          ] GC(5) Concurrent Mark Cycle 130.785ms',
    ].join('\n');
    expect(parseJvmGcLog(text).map((e) => e.kind)).toEqual(['concurrent-mark-cycle']);
  });
});

describe('summarizeGc', () => {
  it('sums a window and finds the busiest bucket; remark/cleanup inside a cycle count once', () => {
    const s = summarizeGc(
      [
        { t_s: 0.5, kind: 'young', pause_ms: 10, duration_ms: 10, cpu_ms: 15 },
        { t_s: 1.0, kind: 'concurrent-mark-cycle', pause_ms: 0, duration_ms: 100, cpu_ms: 0 },
        { t_s: 1.05, kind: 'remark', pause_ms: 5, duration_ms: 5, cpu_ms: 5 },
        { t_s: 6.0, kind: 'young', pause_ms: 20, duration_ms: 20, cpu_ms: 20 },
        { t_s: 20, kind: 'young', pause_ms: 99, duration_ms: 99, cpu_ms: 99 },
      ],
      0,
      10,
    );
    expect(s.count).toBe(3); // pauses only: young, remark, young
    expect(s.pause_total_ms).toBe(35);
    expect(s.pause_max_ms).toBe(20);
    expect(s.cpu_ms).toBe(40);
    expect(s.active_share).toBeCloseTo(130 / 10_000);
    expect(s.active_share_max_bucket).toBeCloseTo(110 / 5000);
  });
});
