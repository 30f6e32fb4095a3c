// The storage model, version STORAGE_MODEL_VERSION (bump it when what a durable run does
// changes): how long a node's persist takes on a device class, how persists share the device
// (group commit), where the write sits relative to the protocol's serialized section, and how
// long a restarted node takes to come back. Parameters are the card's `storage.*` entries.
//
// Two placements of durability (FLEET, data/fleet, is the source of the contrast):
// - ordered: one log per node, written in order inside the serialized log section, as this
//   design's engines (docs/protocol.md, Durability), Raft and etcd do. One flush at a time;
//   records that arrive while it runs join the next one (group commit); every message and reply
//   waits for every persist issued before it (the cores' hold rule).
// - scattered: each entry persisted on its own, in parallel with the others and outside the
//   ordering (FLEET's scattered entries): up to the device's queue depth of flushes at once, an
//   entry's dependants wait for that entry only, and the ordered log (FLEET's Olog) is written
//   asynchronously, off the critical path.
// Pure arithmetic and bookkeeping; the run loop (run/kernel.ts) moves the events.
import type { ModelCard } from '../api.ts';
import type { Prng } from '../core/prng.ts';
import { param } from './card.ts';
import type { DeviceClass, DurabilityPlacement, RecoveryEstimate, ResolvedStorage, StorageStats } from './storage-types.ts';
import { DEFAULT_DEVICE, DEVICE_CLASSES, DURABILITY_PLACEMENTS, STORAGE_MODEL_VERSION } from './storage-types.ts';

export * from './storage-types.ts';


/** Validates a spec's storage field; throws a message naming the field and what it accepts. */
export function resolveStorage(s: unknown): ResolvedStorage {
  if (s === undefined) return { durability: 'none', device: DEFAULT_DEVICE };
  if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new Error('storage must be an object such as {"durability":"ordered","device":"local_nvme"}');
  const o = s as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'durability' && k !== 'device') throw new Error(`storage has no field "${k}" (it has durability and device)`);
  if (!DURABILITY_PLACEMENTS.includes(o.durability as DurabilityPlacement))
    throw new Error(`storage.durability must be one of ${DURABILITY_PLACEMENTS.join(', ')}, got ${JSON.stringify(o.durability)}`);
  const device = o.device ?? DEFAULT_DEVICE;
  if (!DEVICE_CLASSES.includes(device as DeviceClass)) throw new Error(`storage.device must be one of ${DEVICE_CLASSES.join(', ')}, got ${JSON.stringify(o.device)}`);
  return { durability: o.durability as DurabilityPlacement, device: device as DeviceClass };
}

// --- the device ---

export interface DeviceModel {
  class: DeviceClass;
  /** the fixed part of one flush (write + fsync acknowledged) */
  fsync_base_us: number;
  /** mean of the exponential extra delay of a flush (the device's tail) */
  fsync_tail_mean_us: number;
  write_bytes_per_us: number;
  read_bytes_per_us: number;
  /** flushes the device starts per second at most */
  iops: number;
  /** flushes in flight at once (the scattered placement's parallelism) */
  queue_depth: number;
}

const MIB = 1024 * 1024;

export function deviceModel(card: ModelCard, device: DeviceClass): DeviceModel {
  const p = (name: string) => param(card, `storage.${device}.${name}`);
  return {
    class: device,
    fsync_base_us: p('fsync_base_us'),
    fsync_tail_mean_us: p('fsync_tail_mean_us'),
    write_bytes_per_us: (p('write_bandwidth_mib_s') * MIB) / 1e6,
    read_bytes_per_us: (p('read_bandwidth_mib_s') * MIB) / 1e6,
    iops: p('iops'),
    queue_depth: Math.max(1, Math.round(p('queue_depth'))),
  };
}

/** One flush's service time for `bytes`: the fixed part, the bytes at the write bandwidth, and
 * the tail drawn from u (a uniform draw in [0, 1)). */
export function flushService_us(dev: DeviceModel, bytes: number, u: number): number {
  const tail = dev.fsync_tail_mean_us > 0 ? -dev.fsync_tail_mean_us * Math.log(1 - u) : 0;
  return dev.fsync_base_us + bytes / dev.write_bytes_per_us + tail;
}

// --- records and the CPU a write costs ---

export interface StorageCosts {
  /** bytes of an instance record beyond its command's key and value (frame header, checksum, fields) */
  record_overhead_bytes: number;
  /** a promise record, or a commit mark */
  small_record_bytes: number;
  /** CPU per persist handed to the disk (the write call, the batch's frame) */
  write_cpu_us: number;
  write_cpu_us_per_kib: number;
  /** CPU per record decoded and applied on a restart */
  replay_us_per_record: number;
  /** scattered: how far FLEET's asynchronous ordered log lags behind the scattered entries */
  olog_lag_us: number;
  /** scattered: per record and per halving, sorting the gathered tail by log index */
  sort_ns_per_record_step: number;
}

export function storageCosts(card: ModelCard): StorageCosts {
  return {
    record_overhead_bytes: param(card, 'storage.record_overhead_bytes'),
    small_record_bytes: param(card, 'storage.small_record_bytes'),
    write_cpu_us: param(card, 'storage.write_cpu_us'),
    write_cpu_us_per_kib: param(card, 'storage.write_cpu_us_per_kib'),
    replay_us_per_record: param(card, 'storage.replay_us_per_record'),
    olog_lag_us: param(card, 'storage.scattered.olog_lag_us'),
    sort_ns_per_record_step: param(card, 'storage.scattered.sort_ns_per_record_step'),
  };
}

/** CPU to hand one persist of `bytes` to the disk. Where it is charged is the placement's point:
 * ordered, inside the serialized section; scattered, on any core. */
export function writeCpu_us(c: StorageCosts, bytes: number): number {
  return c.write_cpu_us + (c.write_cpu_us_per_kib * bytes) / 1024;
}

// --- the device queue: group commit, in order or scattered ---

export interface Flush {
  slot: number;
  start_us: number;
  done_us: number;
  /** the persists this flush makes durable, in the order they were submitted */
  ids: number[];
  bytes: number;
}

export interface DiskStats {
  persists: number;
  /** persists made durable (a run may stop with some still in flight) */
  completed: number;
  flushes: number;
  bytes: number;
  flush_time_total_us: number;
  flush_time_max_us: number;
  /** persist submitted → durable, summed (the wait behind other flushes included) */
  wait_total_us: number;
}

/**
 * One node's device. `slots` flushes may run at once (1 for the ordered log: its records go to
 * disk in order, one flush after the other; the queue depth for scattered entries). A persist
 * submitted while every slot is busy waits, with every other waiting persist, for the first
 * slot to come free, and all of them go in one flush (group commit). Flushes start no faster
 * than the device's IOPS allow.
 */
export class DiskQueue {
  private readonly busy: boolean[];
  private pending: { id: number; bytes: number; at_us: number }[] = [];
  private submittedAt = new Map<number, number>();
  private lastStart_us = -Infinity;
  readonly stats: DiskStats = { persists: 0, completed: 0, flushes: 0, bytes: 0, flush_time_total_us: 0, flush_time_max_us: 0, wait_total_us: 0 };

  constructor(
    private readonly dev: DeviceModel,
    slots: number,
    private readonly rng: Prng,
  ) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`a disk queue has at least one slot: ${slots}`);
    this.busy = new Array<boolean>(slots).fill(false);
  }

  /** A persist of `bytes` is handed to the device at `now`; returns the flushes that start. */
  submit(now: number, id: number, bytes: number): Flush[] {
    this.stats.persists++;
    this.submittedAt.set(id, now);
    this.pending.push({ id, bytes, at_us: now });
    return this.startFlushes(now);
  }

  /** The flush is done: its slot is free again; returns the flushes that start now. */
  complete(now: number, f: Flush): Flush[] {
    this.busy[f.slot] = false;
    for (const id of f.ids) {
      this.stats.wait_total_us += now - (this.submittedAt.get(id) ?? now);
      this.stats.completed++;
      this.submittedAt.delete(id);
    }
    return this.startFlushes(now);
  }

  /** Persists waiting for a slot. */
  get waiting(): number {
    return this.pending.length;
  }

  private startFlushes(now: number): Flush[] {
    const started: Flush[] = [];
    for (let slot = 0; slot < this.busy.length && this.pending.length > 0; slot++) {
      if (this.busy[slot]) continue;
      // Ordered (one slot): everything waiting goes in one flush. Scattered: each free slot
      // takes one waiting persist, so entries spread over the device's queue; once every slot
      // is busy, the next free one takes everything that waits (group commit).
      const take = this.busy.length === 1 || this.busySlots() === this.busy.length - 1 ? this.pending.length : 1;
      const batch = this.pending.splice(0, take);
      const bytes = batch.reduce((a, b) => a + b.bytes, 0);
      const start = Math.max(now, this.lastStart_us + 1e6 / this.dev.iops);
      this.lastStart_us = start;
      const service = flushService_us(this.dev, bytes, this.rng.nextDouble());
      this.busy[slot] = true;
      this.stats.flushes++;
      this.stats.bytes += bytes;
      this.stats.flush_time_total_us += service;
      this.stats.flush_time_max_us = Math.max(this.stats.flush_time_max_us, service);
      started.push({ slot, start_us: start, done_us: start + service, ids: batch.map((b) => b.id), bytes });
    }
    return started;
  }

  private busySlots(): number {
    let n = 0;
    for (const b of this.busy) if (b) n++;
    return n;
  }
}

// --- recovery ---

export interface RecoveryInput {
  durability: DurabilityPlacement;
  /** records and bytes a restarted node reads back from its own disk */
  log_records: number;
  log_bytes: number;
  /** scattered: entries written per second (what the ordered log lags behind) */
  write_rate_per_s: number;
  /** the data a wiped node receives by state transfer */
  snapshot_bytes: number;
  snapshot_records: number;
  network_bytes_per_us: number;
  network_rtt_us: number;
}


/** How long a node takes to come back, by what it has to read (the election timeout that
 * notices a dead leader is the protocol's, not the disk's, and is not in here). */
export function recoveryEstimate(dev: DeviceModel, c: StorageCosts, r: RecoveryInput): RecoveryEstimate {
  if (r.durability === 'none') {
    return { log_replay_ms: 0, scattered_tail_ms: 0, snapshot_transfer_ms: round3(snapshotMs(dev, c, r)) };
  }
  const replay_us = r.log_bytes / dev.read_bytes_per_us + r.log_records * c.replay_us_per_record;
  let tail_us = 0;
  if (r.durability === 'scattered') {
    const tail = Math.ceil((r.write_rate_per_s * c.olog_lag_us) / 1e6);
    const sortSteps = tail > 1 ? Math.log2(tail) : 0;
    tail_us = r.network_rtt_us + (tail * r.log_bytes) / Math.max(1, r.log_records) / r.network_bytes_per_us + (tail * sortSteps * c.sort_ns_per_record_step) / 1000 + tail * c.replay_us_per_record;
  }
  return { log_replay_ms: round3(replay_us / 1000), scattered_tail_ms: round3(tail_us / 1000), snapshot_transfer_ms: round3(snapshotMs(dev, c, r)) };
}

function snapshotMs(dev: DeviceModel, c: StorageCosts, r: RecoveryInput): number {
  const bw = Math.min(r.network_bytes_per_us, dev.write_bytes_per_us);
  return (r.network_rtt_us + r.snapshot_bytes / bw + dev.fsync_base_us + r.snapshot_records * c.replay_us_per_record) / 1000;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

// --- what a run reports ---


export function summarise(spec: ResolvedStorage, disks: DiskStats[], recovery: RecoveryEstimate): StorageStats {
  const sum = (f: (d: DiskStats) => number) => disks.reduce((a, d) => a + f(d), 0);
  const persists = sum((d) => d.persists);
  const flushes = sum((d) => d.flushes);
  return {
    durability: spec.durability,
    device: spec.device,
    model_version: STORAGE_MODEL_VERSION,
    persists,
    flushes,
    persists_per_flush: flushes ? round3(persists / flushes) : 0,
    bytes_written: sum((d) => d.bytes),
    flush_mean_us: flushes ? round3(sum((d) => d.flush_time_total_us) / flushes) : 0,
    flush_max_us: round3(Math.max(0, ...disks.map((d) => d.flush_time_max_us))),
    persist_wait_mean_us: sum((d) => d.completed) ? round3(sum((d) => d.wait_total_us) / sum((d) => d.completed)) : 0,
    recovery,
  };
}
