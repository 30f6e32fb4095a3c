import { describe, expect, it } from 'vitest';
import { Prng } from '../core/prng.ts';
import { DEFAULT_CARD } from './card.ts';
import { DiskQueue, deviceModel, flushService_us, recoveryEstimate, resolveStorage, storageCosts, summarise, writeCpu_us, type DeviceModel, type Flush } from './storage.ts';

const fixed = (over: Partial<DeviceModel> = {}): DeviceModel => ({
  class: 'cloud_block',
  fsync_base_us: 1000,
  fsync_tail_mean_us: 0,
  write_bytes_per_us: 100,
  read_bytes_per_us: 100,
  iops: Infinity,
  queue_depth: 4,
  ...over,
});

/** Runs a disk queue to the end: every flush completes at its done time, in time order. */
function drain(q: DiskQueue, started: Flush[]): Flush[] {
  const done: Flush[] = [];
  const open = [...started];
  while (open.length > 0) {
    open.sort((a, b) => a.done_us - b.done_us || a.slot - b.slot);
    const f = open.shift()!;
    done.push(f);
    open.push(...q.complete(f.done_us, f));
  }
  return done;
}

describe('storage spec', () => {
  it('defaults to none on cloud block storage and takes each placement and device', () => {
    expect(resolveStorage(undefined)).toEqual({ durability: 'none', device: 'cloud_block' });
    expect(resolveStorage({ durability: 'scattered', device: 'local_nvme' })).toEqual({ durability: 'scattered', device: 'local_nvme' });
    expect(resolveStorage({ durability: 'ordered' })).toEqual({ durability: 'ordered', device: 'cloud_block' });
  });
  it('names the field and what it accepts when a value is bad', () => {
    expect(() => resolveStorage({ durability: 'log' })).toThrow(/storage\.durability must be one of none, ordered, scattered, got "log"/);
    expect(() => resolveStorage({ durability: 'ordered', device: 'floppy' })).toThrow(/storage\.device must be one of cloud_block, local_nvme, got "floppy"/);
    expect(() => resolveStorage('ordered')).toThrow(/storage must be an object/);
    expect(() => resolveStorage({ durability: 'ordered', fsync: 'never' })).toThrow(/storage has no field "fsync"/);
  });
});

describe('device model from the card', () => {
  it('reads every storage parameter of both device classes; NVMe is faster than a network volume', () => {
    const cloud = deviceModel(DEFAULT_CARD, 'cloud_block');
    const nvme = deviceModel(DEFAULT_CARD, 'local_nvme');
    expect(cloud.fsync_base_us).toBeGreaterThan(nvme.fsync_base_us);
    expect(nvme.write_bytes_per_us).toBeCloseTo(2000, -1); // FLEET's 2 GB/s
    expect(nvme.iops).toBe(130000);
    expect(cloud.iops).toBe(3000);
    const c = storageCosts(DEFAULT_CARD);
    expect(writeCpu_us(c, 1024)).toBeCloseTo(c.write_cpu_us + c.write_cpu_us_per_kib, 9);
  });
  it('a flush takes its fixed part, its bytes at the bandwidth and a tail that grows with the draw', () => {
    const d = fixed({ fsync_tail_mean_us: 200 });
    expect(flushService_us(d, 0, 0)).toBe(1000);
    expect(flushService_us(d, 10_000, 0)).toBe(1100);
    expect(flushService_us(d, 0, 0.99)).toBeGreaterThan(flushService_us(d, 0, 0.5));
    expect(flushService_us(d, 0, 0.5)).toBeCloseTo(1000 + 200 * Math.log(2), 6);
  });
});

describe('disk queue', () => {
  it('ordered: one flush at a time; what arrives meanwhile goes together in the next (group commit), in order', () => {
    const q = new DiskQueue(fixed(), 1, new Prng(1, 9));
    const first = q.submit(0, 1, 100);
    expect(first).toEqual([{ slot: 0, start_us: 0, done_us: 1001, ids: [1], bytes: 100 }]);
    expect(q.submit(10, 2, 100)).toEqual([]);
    expect(q.submit(20, 3, 100)).toEqual([]);
    expect(q.waiting).toBe(2);
    const done = drain(q, first);
    expect(done.map((f) => f.ids)).toEqual([[1], [2, 3]]);
    expect(done[1]!.start_us).toBe(1001);
    expect(done[1]!.done_us).toBe(1001 + 1002);
    expect(q.stats).toMatchObject({ persists: 3, completed: 3, flushes: 2, bytes: 300 });
    // waits: 1001, and 2003 - 10, 2003 - 20
    expect(q.stats.wait_total_us).toBe(1001 + 1993 + 1983);
  });
  it('scattered: persists run side by side up to the queue depth, and the last free slot takes every waiting one', () => {
    const q = new DiskQueue(fixed({ queue_depth: 3 }), 3, new Prng(1, 9));
    const a = q.submit(0, 1, 0);
    const b = q.submit(0, 2, 0);
    expect(a[0]!.slot).toBe(0);
    expect(b[0]!.slot).toBe(1);
    expect(b[0]!.done_us).toBe(1000); // not behind the first: no ordering
    const c = q.submit(0, 3, 0);
    expect(c[0]!.slot).toBe(2);
    expect(q.submit(1, 4, 0)).toEqual([]);
    expect(q.submit(2, 5, 0)).toEqual([]);
    const done = drain(q, [...a, ...b, ...c]);
    expect(done.map((f) => f.ids)).toEqual([[1], [2], [3], [4, 5]]);
  });
  it('the same persists finish sooner scattered than ordered when they arrive together', () => {
    const run = (slots: number) => {
      const q = new DiskQueue(fixed(), slots, new Prng(5, 9));
      const started: Flush[] = [];
      for (let i = 1; i <= 8; i++) started.push(...q.submit(i * 100, i, 200));
      const done = drain(q, started);
      return Math.max(...done.map((f) => f.done_us));
    };
    expect(run(4)).toBeLessThan(run(1));
  });
  it('IOPS spaces flush starts', () => {
    const q = new DiskQueue(fixed({ iops: 1000 }), 4, new Prng(1, 9));
    const s = [...q.submit(0, 1, 0), ...q.submit(0, 2, 0)];
    expect(s.map((f) => f.start_us)).toEqual([0, 1000]);
  });
  it('the same seed draws the same flush times', () => {
    const times = (seed: number) => {
      const q = new DiskQueue(deviceModel(DEFAULT_CARD, 'cloud_block'), 1, new Prng(seed, 9));
      return drain(q, q.submit(0, 1, 10)).map((f) => f.done_us);
    };
    expect(times(3)).toEqual(times(3));
    expect(times(3)).not.toEqual(times(4));
  });
  it('refuses a queue without a slot', () => {
    expect(() => new DiskQueue(fixed(), 0, new Prng(1, 9))).toThrow(/at least one slot/);
  });
});

describe('recovery', () => {
  const base = { log_records: 100_000, log_bytes: 100_000 * 600, write_rate_per_s: 10_000, snapshot_bytes: 1e9, snapshot_records: 1e6, network_bytes_per_us: 625, network_rtt_us: 260 };
  const c = storageCosts(DEFAULT_CARD);
  it('a restart reads its log at the read bandwidth and replays every record', () => {
    const d = fixed({ read_bytes_per_us: 1000 });
    const r = recoveryEstimate(d, c, { ...base, durability: 'ordered' });
    expect(r.log_replay_ms).toBeCloseTo((60e6 / 1000 + 100_000 * c.replay_us_per_record) / 1000, 2);
    expect(r.scattered_tail_ms).toBe(0);
  });
  it('scattered adds gathering and sorting the tail the ordered log lacks; a faster writer has a longer tail', () => {
    const d = fixed({ read_bytes_per_us: 1000 });
    const slow = recoveryEstimate(d, c, { ...base, durability: 'scattered' });
    const fast = recoveryEstimate(d, c, { ...base, durability: 'scattered', write_rate_per_s: 100_000 });
    expect(slow.scattered_tail_ms).toBeGreaterThan(0);
    expect(fast.scattered_tail_ms).toBeGreaterThan(slow.scattered_tail_ms);
    expect(slow.log_replay_ms).toBe(recoveryEstimate(d, c, { ...base, durability: 'ordered' }).log_replay_ms);
  });
  it('a snapshot moves at the slower of the network and the disk', () => {
    const netBound = recoveryEstimate(fixed({ write_bytes_per_us: 1e6 }), c, { ...base, durability: 'none' });
    const diskBound = recoveryEstimate(fixed({ write_bytes_per_us: 100 }), c, { ...base, durability: 'none' });
    expect(netBound.snapshot_transfer_ms).toBeGreaterThan(1e9 / 625 / 1000);
    expect(diskBound.snapshot_transfer_ms).toBeGreaterThan(1e9 / 100 / 1000);
    expect(netBound.log_replay_ms).toBe(0);
  });
  it('summarises the disks of a run', () => {
    const q = new DiskQueue(fixed(), 1, new Prng(1, 9));
    drain(q, [...q.submit(0, 1, 10), ...q.submit(5, 2, 10), ...q.submit(6, 3, 10)]);
    const s = summarise({ durability: 'ordered', device: 'cloud_block' }, [q.stats], { log_replay_ms: 1, scattered_tail_ms: 0, snapshot_transfer_ms: 2 });
    expect(s).toMatchObject({ durability: 'ordered', device: 'cloud_block', model_version: '1.0.0', persists: 3, flushes: 2, persists_per_flush: 1.5, bytes_written: 30 });
    expect(s.flush_mean_us).toBeGreaterThan(1000);
  });
});
