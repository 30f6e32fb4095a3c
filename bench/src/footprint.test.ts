import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOOTPRINT_WORKLOAD_FILE, SERVER_LOG_BOUND_ENTRIES, combineFootprints, followerToStop, footprintFromRuns, heldLogAtBound, untrimmedLogMax, type Footprint } from './measure.ts';
import { emptySummary } from './memory-watch.ts';
import { BENCH_DIR } from './ycsb.ts';

const MiB = 2 ** 20;
const run = (bytes_mib: number, rate: number, perNode: number[], untrimmed: (number | null)[]): Footprint => ({
  bytes: bytes_mib * MiB,
  per_node_bytes: perNode.map((m) => m * MiB),
  how: 'cgroup memory.max_usage_in_bytes',
  saturation_ops_per_s: rate,
  memory: perNode.map(emptySummary),
  untrimmed_log_max: untrimmed,
  runs: [{ bytes: bytes_mib * MiB, saturation_ops_per_s: rate }],
});

describe('combineFootprints', () => {
  it('takes the largest bytes, per node too, at the lowest rate of the runs', () => {
    // Rust on this machine: one run's peak is one draw (14 MiB in the failed CI run, 10–16 here)
    const f = combineFootprints([run(14, 15371, [14, 12, 13], [2600, 3900, null]), run(11, 19544, [9, 11, 10], [5700, 1200, null]), run(16, 12963, [12, 16, 9], [null, 4100, null])]);
    expect(f.bytes).toBe(16 * MiB);
    expect(f.per_node_bytes).toEqual([14 * MiB, 16 * MiB, 13 * MiB]);
    expect(f.saturation_ops_per_s).toBe(12963);
    expect(f.untrimmed_log_max).toEqual([5700, 4100, null]);
    expect(f.runs.map((r) => r.bytes / MiB)).toEqual([14, 11, 16]);
    expect(f.how).toBe('cgroup memory.max_usage_in_bytes, the largest of 3 runs');
  });

  it('is one run unchanged', () => {
    const one = run(12, 9000, [12, 11, 10], [100, 200, 300]);
    expect(combineFootprints([one])).toEqual(one);
  });

  it('refuses no runs', () => {
    expect(() => combineFootprints([])).toThrow(/no footprint runs/);
  });
});

describe('footprintFromRuns', () => {
  it('combines the runs that succeeded when a later one failed every attempt, and says which failed', () => {
    // 2026-11-27-blade, Java: runs 1 and 2 held the log at its bound, run 3 fell short three
    // times under load; the footprint was dropped and the nodes got ratio × data only
    const missed = new Error('java: footprint run 3 did not hold the log at its bound (16384 entries) with n0 stopped: most untrimmed per node null/5051/5051');
    const f = footprintFromRuns([run(50, 4200, [50, 48, 49], [16384, 16384, null]), run(58, 3900, [55, 58, 57], [null, 16384, 16384]), missed]);
    expect(f.bytes).toBe(58 * MiB);
    expect(f.saturation_ops_per_s).toBe(3900);
    expect(f.runs.map((r) => r.bytes / MiB)).toEqual([50, 58]);
    expect(f.how).toBe('cgroup memory.max_usage_in_bytes, the largest of 2 runs (run 3 of 3 failed every attempt and is left out)');
  });

  it('is combineFootprints when every run succeeded', () => {
    const runs = [run(14, 15371, [14, 12, 13], [1, 2, 3]), run(16, 12963, [12, 16, 9], [4, 5, 6])];
    expect(footprintFromRuns(runs)).toEqual(combineFootprints(runs));
  });

  it('throws the last error when no run succeeded', () => {
    expect(() => footprintFromRuns([new Error('first'), new Error('last')])).toThrow('last');
    expect(() => footprintFromRuns([])).toThrow(/no footprint runs/);
  });
});

describe('untrimmedLogMax', () => {
  it('is the most entries above the global last executed over the status lines', () => {
    const log = [
      'replicant-server[1]: node 1 of 3: peers on 127.0.0.1:1',
      'replicant-server[1]: status {"role":"leader","last_index":2632,"last_executed":2628,"global_last_executed":1386}',
      'replicant-server[1]: status {"role":"leader","last_index":30624,"last_executed":30621,"global_last_executed":26329}',
      'replicant-server[1]: status {"role":"leader","last_index":48332,"last_executed":48287,"global_last_executed":44331}',
    ].join('\n');
    expect(untrimmedLogMax(log)).toBe(4295);
  });

  it('skips lines cut short or without the fields, and is null with no status at all', () => {
    expect(untrimmedLogMax('status {"last_index":10,"global_last\nstatus {"role":"follower"}\nstatus {"last_index":7,"global_last_executed":5}')).toBe(2);
    expect(untrimmedLogMax('node 0 started\n')).toBeNull();
    expect(untrimmedLogMax('status {"last_index":"9","global_last_executed":1}')).toBeNull();
  });
});

describe('followerToStop', () => {
  it('is never the leader, and a different follower on each run', () => {
    expect([1, 2, 3, 4].map((run) => followerToStop(0, 3, run))).toEqual([1, 2, 1, 2]);
    expect([1, 2, 3].map((run) => followerToStop(1, 3, run))).toEqual([0, 2, 0]);
    expect([1, 2].map((run) => followerToStop(2, 3, run))).toEqual([0, 1]);
  });

  it('is null with no leader known or no follower', () => {
    expect(followerToStop(null, 3, 1)).toBeNull();
    expect(followerToStop(0, 1, 1)).toBeNull();
  });
});

describe('heldLogAtBound', () => {
  it('is whether some node held the bound untrimmed', () => {
    // the local run of 2026-11-27 06:42: 17,923/17,969/6,948 with a follower behind, 6,948 without
    expect(heldLogAtBound([17923, 17969, 6948])).toBe(true);
    expect(heldLogAtBound([6948, 5200, null])).toBe(false);
    expect(heldLogAtBound([null, null, null])).toBe(false);
    expect(heldLogAtBound([SERVER_LOG_BOUND_ENTRIES, 0, 0])).toBe(true);
    expect(heldLogAtBound([4095, 4096], 4096)).toBe(true);
  });
});

describe('the footprint workload', () => {
  const props = (file: string) => Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter((l) => /^\w+=/.test(l)).map((l) => l.split('=', 2) as [string, string]));
  it('is workload A with every operation an update: the largest entry the log can hold', () => {
    const f = props(FOOTPRINT_WORKLOAD_FILE);
    const a = props(join(BENCH_DIR, 'ycsb/workloads/workloada'));
    expect(Number(f.updateproportion)).toBe(1);
    for (const k of ['readproportion', 'scanproportion', 'insertproportion', 'readmodifywriteproportion']) expect(Number(f[k]), k).toBe(0);
    for (const k of ['fieldcount', 'fieldlength', 'fieldlengthdistribution', 'requestdistribution', 'insertorder', 'workload']) expect(f[k], k).toBe(a[k]);
  });
});
