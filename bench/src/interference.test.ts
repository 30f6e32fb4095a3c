import { describe, expect, it } from 'vitest';
import { classify, DEFAULT_THRESHOLDS, describeInterference, interferenceBetween, parseCpuTicks, parseLoadAverage, parsePidStat, parseSchedstat, readThreadSchedstats, runQueueWaitBetween, type Interference, type Snapshot } from './interference.ts';

describe('parseCpuTicks', () => {
  it('separates work, idle (with iowait) and steal', () => {
    const t = parseCpuTicks('cpu  100 5 50 1000 20 1 2 30 7 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n');
    expect(t).toEqual({ work: 100 + 5 + 50 + 1 + 2, idle: 1020, steal: 30, total: 100 + 5 + 50 + 1000 + 20 + 1 + 2 + 30 });
  });
  it('refuses text without a cpu line, or with garbage in it', () => {
    expect(() => parseCpuTicks('intr 1 2 3\n')).toThrow(/no "cpu" line/);
    expect(() => parseCpuTicks('cpu  1 x 3 4\n')).toThrow(/unreadable/);
  });
});

describe('parseLoadAverage', () => {
  it('reads the three averages and the runnable count', () => {
    expect(parseLoadAverage('12.50 8.01 3.00 7/1234 99999\n')).toEqual({ one: 12.5, five: 8.01, fifteen: 3, runnable: 7 });
  });
  it('refuses anything else', () => {
    expect(() => parseLoadAverage('busy')).toThrow(/unreadable/);
  });
});

describe('parsePidStat', () => {
  it('reads utime + stime even when the name holds spaces and parentheses', () => {
    const fields = ['S', '1', '1', '1', '0', '-1', '4194560', '100', '0', '0', '0', '250', '50', '0', '0', '20'];
    expect(parsePidStat(`4242 (Web Content (x)) ${fields.join(' ')}`)).toEqual({ pid: 4242, comm: 'Web Content (x)', ticks: 300 });
  });
  it('returns null for a truncated line', () => {
    expect(parsePidStat('4242 (cc1plus')).toBeNull();
    expect(parsePidStat('4242 (cc1plus) S 1')).toBeNull();
  });
});

function snapshot(t_s: number, work: number, steal: number, total: number, ours_ns: number, processes: [number, string, number][], our: number[] = []): Snapshot {
  return {
    t_s,
    cpu: { work, idle: total - work - steal, steal, total },
    load: { one: 9.5, five: 5, fifteen: 2, runnable: 6 },
    processes: new Map(processes.map(([pid, comm, ticks]) => [pid, [comm, ticks]])),
    ours_ns,
    our_pids: new Set(our),
    harness_pid: 1,
  };
}

describe('interferenceBetween', () => {
  // 10 s, 2 cores (2,000 ticks at 100 Hz): the machine did 1,400 ticks of work = 1.4 cores;
  // our cgroups 0.9 cores, the harness 0.1: others 0.4 cores.
  const a = snapshot(100, 0, 0, 0, 0, [[1, 'node', 0], [10, 'cc1plus', 500], [11, 'chromium', 0], [20, 'replicant-go', 0]], [20]);
  const b = snapshot(110, 1400, 100, 2000, 9e9, [[1, 'node', 100], [10, 'cc1plus', 800], [11, 'chromium', 100], [12, 'rustc', 50], [20, 'replicant-go', 900]], [20]);

  it('attributes what our cgroups and the harness did not use to other processes', () => {
    const i = interferenceBetween(a, b);
    expect(i.window_s).toBe(10);
    expect(i.other_cores).toBeCloseTo(0.4);
    expect(i.steal_share).toBeCloseTo(0.05);
    expect(i.load_1m).toBe(9.5);
  });

  it('names the busiest outside programs, ours and the harness excluded, a newborn counted from zero', () => {
    expect(interferenceBetween(a, b).top_others).toEqual([
      { comm: 'cc1plus', processes: 1, cores: 0.3 },
      { comm: 'chromium', processes: 1, cores: 0.1 },
      { comm: 'rustc', processes: 1, cores: 0.05 },
    ]);
  });

  it('adds up processes of one program', () => {
    const b4 = snapshot(110, 1400, 0, 2000, 9e9, [[10, 'cc1plus', 600], [13, 'cc1plus', 200], [14, 'cc1plus', 0]]);
    expect(interferenceBetween(a, b4).top_others).toEqual([{ comm: 'cc1plus', processes: 2, cores: 0.3 }]);
  });

  it('skips a pid reused by another program instead of charging it a negative or huge figure', () => {
    const b2 = snapshot(110, 1400, 0, 2000, 9e9, [[10, 'sh', 3]]);
    expect(interferenceBetween(a, b2).top_others).toEqual([]);
  });

  it('never reports negative interference when our accounting runs ahead of /proc/stat', () => {
    const b3 = snapshot(110, 100, 0, 2000, 9e9, []);
    expect(interferenceBetween(a, b3).other_cores).toBe(0);
  });

  it('refuses snapshots out of order', () => {
    expect(() => interferenceBetween(b, a)).toThrow(/out of order/);
  });
});

describe('classify', () => {
  const quiet: Interference = { window_s: 10, other_cores: 0.05, steal_share: 0, load_1m: 1.2, runnable: 2, top_others: [] };

  it('calls a quiet probe clean', () => {
    expect(classify(quiet, DEFAULT_THRESHOLDS)).toEqual({ disturbed: false, reasons: [] });
  });

  it('calls a probe disturbed when other processes took more than the threshold, naming them', () => {
    const busy = { ...quiet, other_cores: 1.3, top_others: [{ comm: 'cc1plus', processes: 3, cores: 0.9 }, { comm: 'chromium', processes: 1, cores: 0.4 }] };
    const v = classify(busy, DEFAULT_THRESHOLDS);
    expect(v.disturbed).toBe(true);
    expect(v.reasons).toEqual(['other processes used 1.30 cores (threshold 0.25): cc1plus ×3 0.90, chromium 0.40']);
  });

  it('calls a probe disturbed on hypervisor steal alone', () => {
    const v = classify({ ...quiet, steal_share: 0.2 }, DEFAULT_THRESHOLDS);
    expect(v).toEqual({ disturbed: true, reasons: ['hypervisor steal 20.0 % (threshold 5.0 %)'] });
  });

  it('is exactly at the threshold still clean (strictly above is disturbed)', () => {
    expect(classify({ ...quiet, other_cores: 0.25 }, DEFAULT_THRESHOLDS).disturbed).toBe(false);
    expect(classify({ ...quiet, other_cores: 0.251 }, DEFAULT_THRESHOLDS).disturbed).toBe(true);
  });

  it('describes the evidence in one line', () => {
    expect(describeInterference({ ...quiet, top_others: [{ comm: 'cc1plus', processes: 1, cores: 0.05 }] })).toBe(
      'other processes 0.05 cores (cc1plus 0.05), steal 0.0 %, load average 1.20 over 10 s',
    );
  });
});

describe('parseSchedstat', () => {
  it('reads run time, run-queue wait and slices of one thread', () => {
    expect(parseSchedstat('123456789 4567 89\n')).toEqual({ run_ns: 123456789, wait_ns: 4567, slices: 89 });
  });
  it('returns null for anything else', () => {
    for (const bad of ['', '1 2', '1 2 3 4', '1 x 3', '-1 2 3']) expect(parseSchedstat(bad), bad).toBeNull();
  });
  it('reads this process\'s own threads from /proc', () => {
    const st = readThreadSchedstats([process.pid]);
    expect(st.get(process.pid)?.slices).toBeGreaterThan(0);
    expect(readThreadSchedstats([2 ** 22 + 17]).size).toBe(0); // no such process: nothing, no throw
  });
});

describe('runQueueWaitBetween', () => {
  const before = new Map([[1, { run_ns: 1e9, wait_ns: 1e8, slices: 1000 }], [2, { run_ns: 5e8, wait_ns: 0, slices: 10 }], [3, { run_ns: 1, wait_ns: 1, slices: 1 }]]);
  // over 2 s: thread 1 ran 0.5 s and waited 0.1 s in 500 slices; thread 2 idle; thread 3 ended;
  // thread 4 was born and ran 0.1 s, waited 0.1 s in 500 slices
  const after = new Map([[1, { run_ns: 1.5e9, wait_ns: 2e8, slices: 1500 }], [2, { run_ns: 5e8, wait_ns: 0, slices: 10 }], [4, { run_ns: 1e8, wait_ns: 1e8, slices: 500 }]]);
  it('adds up the threads that ran, a newborn from zero, idle and ended ones left out', () => {
    expect(runQueueWaitBetween(before, after, 2)).toEqual({ threads: 2, run_cores: 0.3, wait_cores: 0.1, wait_share: 0.25, wait_per_slice_us: 200 });
  });
  it('counts a reused thread id (counters went backwards) from zero', () => {
    const reused = new Map([[1, { run_ns: 2e8, wait_ns: 2e8, slices: 100 }]]);
    expect(runQueueWaitBetween(before, reused, 1)).toMatchObject({ threads: 1, wait_per_slice_us: 2000, wait_share: 0.5 });
  });
  it('is zero, not NaN, when nothing ran', () => {
    expect(runQueueWaitBetween(before, before, 1)).toEqual({ threads: 0, run_cores: 0, wait_cores: 0, wait_share: 0, wait_per_slice_us: 0 });
  });
  it('is carried by interferenceBetween when both snapshots read the threads', () => {
    const a2 = { ...snapshot(100, 0, 0, 0, 0, []), our_threads: before };
    const b2 = { ...snapshot(102, 0, 0, 400, 0, []), our_threads: after };
    expect(interferenceBetween(a2, b2).bench_wait?.wait_per_slice_us).toBe(200);
    expect(interferenceBetween(snapshot(100, 0, 0, 0, 0, []), b2).bench_wait).toBeNull();
  });
});

describe('classify under cpu.shares (judged by the benchmark\'s run-queue wait)', () => {
  const byWait = { ...DEFAULT_THRESHOLDS, judge_by: 'wait' as const };
  const wait = (us: number) => ({ threads: 70, run_cores: 0.8, wait_cores: 0.05, wait_share: 0.06, wait_per_slice_us: us });
  const busyOthers: Interference = { window_s: 10, other_cores: 1.7, steal_share: 0, load_1m: 40, runnable: 30, top_others: [{ comm: 'cc1plus', processes: 3, cores: 1.2 }] };

  it('calls a probe clean while others use idle cycles, if the benchmark did not wait for a CPU', () => {
    expect(classify({ ...busyOthers, bench_wait: wait(120) }, byWait)).toEqual({ disturbed: false, reasons: [] });
    expect(classify({ ...busyOthers, bench_wait: wait(120) }, DEFAULT_THRESHOLDS).disturbed).toBe(true); // the old rule
  });
  it('calls it disturbed when the benchmark\'s threads waited beyond the threshold, with the evidence', () => {
    const v = classify({ ...busyOthers, bench_wait: wait(2400) }, byWait);
    expect(v.disturbed).toBe(true);
    expect(v.reasons[0]).toMatch(/waited 2400 µs for a CPU per slice \(threshold 500 µs; .*\) while other processes used 1.70 cores \(threshold 0.25\)/);
  });
  it('calls a long wait with nobody else on the CPUs the benchmark\'s own (clean): it queued behind its own threads', () => {
    expect(classify({ ...busyOthers, other_cores: 0.18, top_others: [], bench_wait: wait(1275) }, byWait)).toEqual({ disturbed: false, reasons: [] });
  });
  it('never calls a probe clean that it could not judge', () => {
    expect(classify(busyOthers, byWait).disturbed).toBe(true);
  });
  it('still counts steal', () => {
    expect(classify({ ...busyOthers, steal_share: 0.2, bench_wait: wait(10) }, byWait).reasons).toEqual(['hypervisor steal 20.0 % (threshold 5.0 %)']);
  });
  it('puts the wait into the one-line evidence', () => {
    expect(describeInterference({ ...busyOthers, top_others: [], bench_wait: wait(120) })).toBe(
      'other processes 1.70 cores, steal 0.0 %, benchmark run-queue wait 120 µs per slice, 6.0 % of runnable time, 70 threads, load average 40.00 over 10 s',
    );
  });
});
