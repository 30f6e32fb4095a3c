// A node's processors: c cores and the Log mutex (Replicant's serialized section). Work is
// placed by reservation, in the order events arrive: a job takes the core that frees first and
// starts no earlier than it is ready; the serialized part starts when the mutex is free. A
// thread waiting for the mutex gives its core back (its work is accounted on the core as one
// contiguous piece) — the utilisation counts work done, never waiting.
//
// Stop-the-world pauses stop every core and the mutex holder; a GC that occupies whole cores
// (Go's dedicated mark workers) makes those cores unavailable for a while.

/** The least vCPU count a node may have (a twentieth of a core). */
export const MIN_VCPUS = 0.05;

export interface Interval {
  start_us: number;
  end_us: number;
}

export class CpuPool {
  /** Whole cores the node's threads run on: a fractional vCPU count is rounded up. */
  readonly cores: number;
  /** Work per µs of wall time on each core: 1 for whole vCPUs; vcpus / cores for a fractional
   * count (a node given 0.4 of a shared core runs its work at 0.4 the speed, the fluid view of
   * CFS sharing), so a job of w µs of CPU holds its core w / speed µs. */
  readonly speed: number;
  readonly free_at: Float64Array;
  mutex_free_us = 0;
  /** The last interval place() or placeSerial() gave: [start_us, end_us]. */
  readonly placed = new Float64Array(2);
  /** Stop-the-world pauses, in start order (older ones pruned). */
  private pauses: Interval[] = [];
  readonly usage: UsageTimeline;

  constructor(
    vcpus: number,
    bucket_us: number,
  ) {
    if (!Number.isFinite(vcpus) || vcpus < MIN_VCPUS || vcpus > 256) throw new RangeError(`vCPUs must be a number in [${MIN_VCPUS}, 256]: ${vcpus}`);
    this.cores = Math.ceil(vcpus);
    this.speed = Number.isInteger(vcpus) ? 1 : vcpus / this.cores;
    this.free_at = new Float64Array(this.cores);
    this.usage = new UsageTimeline(this.cores, bucket_us);
  }

  /** Wall time a job of `work_us` of CPU holds a core. */
  private wall(work_us: number): number {
    return this.speed === 1 ? work_us : work_us / this.speed;
  }

  /** Runs `work_us` of parallel work ready at `ready_us` on the earliest free core. */
  run(ready_us: number, work_us: number, gc = false): Interval {
    this.place(ready_us, work_us, gc);
    return { start_us: this.placed[0]!, end_us: this.placed[1]! };
  }

  /** The serialized section: starts when the mutex is free (FIFO in arrival order). */
  serial(ready_us: number, work_us: number): Interval {
    this.placeSerial(ready_us, work_us);
    return { start_us: this.placed[0]!, end_us: this.placed[1]! };
  }

  /** run() without an object: the interval goes into `placed` ([start, end]). Every step of a
   * load run places its work twice (fast mode: five steps an operation), so it allocates nothing. */
  place(ready_us: number, work_us: number, gc = false): void {
    const free = this.free_at;
    let best = 0;
    for (let i = 1; i < this.cores; i++) if (free[i]! < free[best]!) best = i;
    const wall_us = this.wall(work_us);
    this.stretch(Math.max(ready_us, free[best]!), wall_us);
    const end_us = this.placed[1]!;
    free[best] = end_us;
    if (work_us > 0) this.usage.add(this.placed[0]!, end_us, wall_us, gc);
  }

  /** serial() without an object: the interval goes into `placed` ([start, end]). */
  placeSerial(ready_us: number, work_us: number): void {
    this.stretch(Math.max(ready_us, this.mutex_free_us), this.wall(work_us));
    this.mutex_free_us = this.placed[1]!;
  }

  /** All cores stop for [start, end) (a stop-the-world pause); GC threads use `gc_cores` of them. */
  pause(start_us: number, end_us: number, gc_cores: number): void {
    if (end_us <= start_us) return;
    this.pauses.push({ start_us, end_us });
    if (this.pauses.length > 64) this.pauses = this.pauses.filter((p) => p.end_us > start_us - 1e7);
    // A core busy when the pause begins finishes its job that much later; later jobs are
    // stretched by stretch() when they meet the pause.
    for (let i = 0; i < this.cores; i++) if (this.free_at[i]! > start_us) this.free_at[i] = this.free_at[i]! + (end_us - start_us);
    this.usage.add(start_us, end_us, (end_us - start_us) * Math.min(gc_cores, this.cores), true);
  }

  /** The `n` cores that free up first (ties by index): where a GC puts its own threads. */
  pickCores(n: number): number[] {
    const order = [...this.free_at.keys()].sort((a, b) => this.free_at[a]! - this.free_at[b]! || a - b);
    return order.slice(0, Math.min(this.cores, Math.floor(n)));
  }

  /** The given cores are busy with GC work for [start, end); `share` cores' worth of CPU is
   * counted (a fractional worker adds to the count without holding a core). */
  occupyCores(cores: number[], start_us: number, end_us: number, share = cores.length): void {
    if (end_us <= start_us) return;
    for (const i of cores) this.free_at[i] = Math.max(this.free_at[i]!, start_us) + (end_us - start_us);
    this.usage.add(start_us, end_us, (end_us - start_us) * Math.min(share, this.cores), true);
  }

  /** `n` cores become busy with GC work for [start, end) (e.g. G1's concurrent mark threads). */
  occupy(n: number, start_us: number, end_us: number): void {
    if (end_us <= start_us || n <= 0) return;
    this.occupyCores(this.pickCores(n), start_us, end_us, Math.min(n, this.cores));
  }

  /** When a job of `work_us` starting at `t` starts and ends, given the pauses it meets: into `placed`. */
  private stretch(t: number, work_us: number): void {
    let start = t;
    let end = t + work_us;
    const pauses = this.pauses;
    for (let i = 0; i < pauses.length; i++) {
      const p = pauses[i]!;
      if (p.end_us <= start) continue;
      if (p.start_us <= start) {
        const shift = p.end_us - start;
        start += shift;
        end += shift;
      } else if (p.start_us < end) end += p.end_us - p.start_us;
    }
    this.placed[0] = start;
    this.placed[1] = end;
  }
}

/** CPU time used per time bucket, split into mutator and GC work. */
export class UsageTimeline {
  readonly busy: number[] = [];
  readonly gc: number[] = [];

  constructor(
    readonly cores: number,
    readonly bucket_us: number,
  ) {}

  /** Spreads `work_us` of CPU evenly over [start, end). */
  add(start_us: number, end_us: number, work_us: number, gc: boolean): void {
    if (work_us <= 0) return;
    const span = Math.max(end_us - start_us, 1e-9);
    let b = Math.floor(start_us / this.bucket_us);
    let t = start_us;
    while (t < end_us) {
      const bEnd = (b + 1) * this.bucket_us;
      const piece = Math.min(end_us, bEnd) - t;
      const w = (work_us * piece) / span;
      while (this.busy.length <= b) { this.busy.push(0); this.gc.push(0); }
      this.busy[b] = this.busy[b]! + w;
      if (gc) this.gc[b] = this.gc[b]! + w;
      t = bEnd;
      b++;
    }
  }

  /** Mean share of the cores busy over [from, to). */
  utilization(from_us: number, to_us: number): { total: number; gc: number } {
    let busy = 0;
    let gc = 0;
    const b0 = Math.floor(from_us / this.bucket_us);
    const b1 = Math.ceil(to_us / this.bucket_us);
    for (let b = b0; b < b1; b++) {
      busy += this.busy[b] ?? 0;
      gc += this.gc[b] ?? 0;
    }
    const cap = (b1 - b0) * this.bucket_us * this.cores;
    return { total: cap > 0 ? Math.min(1, busy / cap) : 0, gc: cap > 0 ? Math.min(1, gc / cap) : 0 };
  }
}
