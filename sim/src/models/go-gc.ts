// Go's garbage collector as its GC guide (go.dev/doc/gc-guide) describes it:
// - heap goal = live heap · (1 + GOGC/100), capped by the memory limit (GOMEMLIMIT) less the
//   runtime's non-heap memory;
// - a cycle starts before the goal (the trigger) and marks concurrently: 25 % of GOMAXPROCS as
//   dedicated mark workers, plus assists — goroutines that allocate while marking do mark work
//   in proportion to what they allocate, so that marking ends by the time the heap reaches the
//   goal — plus idle-time mark workers: a processor with nothing else to run marks instead, so
//   while a cycle runs the collector takes nearly all the CPU the program leaves idle (the
//   bursts of Fig 12(a)). An idle worker gives its core back as soon as work arrives;
// - mark work is proportional to the live heap;
// - the GC CPU limiter caps GC at 50 % of the CPU (over a window): beyond it, assists stop and
//   the heap may overshoot the goal;
// - two short stop-the-world phases per cycle (sweep termination, mark termination);
// - an assist that cannot pay its debt parks (card 1.5.0 on): a goroutine whose allocation owes
//   more mark work than it can find waits on the runtime's assist queue until background credit
//   or the end of the cycle wakes it (runtime/mgcmark.go: gcAssistAlloc, gcParkAssist,
//   gcWakeAllAssists). With the heap at its goal there is no runway left, every allocation owes
//   the rest of the cycle, and the request that allocated waits for the cycle to end: at
//   GOMEMLIMIT, where cycles run back to back, nearly every request waits for one.
import type { CpuPool } from './cpu.ts';
import type { CollectionGate, GcEvent, GcPending, RuntimeModel } from './runtime.ts';

export interface GoGcParams {
  gogc: number; // 100
  memory_limit_bytes: number; // GOMEMLIMIT (Infinity = off)
  non_heap_bytes: number; // runtime memory outside the heap (stacks, metadata)
  gomaxprocs: number;
  mark_ns_per_live_byte: number; // CPU to mark one byte of live heap
  trigger_runway_fraction: number; // trigger at live + fraction · (goal − live)
  stw_us: number; // each of the two stop-the-world phases
  dedicated_fraction: number; // 0.25
  cpu_limit_fraction: number; // 0.5
  cpu_limit_window_us: number; // the limiter's averaging window
  idle_workers: boolean; // idle processors mark while a cycle runs
  park_assists: boolean; // an allocation past the heap goal waits for the cycle's end
  /** Where in its cycle sequence the process is at t = 0, in [0, 1): 0 is a fresh heap at the
   * live set (every node of a run then collects in step); otherwise the heap is that far into
   * the runway to the trigger or, with no runway, the first cycle has that share of its mark
   * work done. Separately started processes are not in step. */
  start_phase: number;
  /** Back-to-back cycles follow each other when one ends, whether or not an event arrives then
   * (card 1.6.0 on). Off (cards before 1.6.0), a cycle that finished between two events ends at
   * the next event's time and the next one starts only then, so a node that receives nothing
   * for a while starts a fresh cycle just as the next request arrives. */
  chain_cycles: boolean;
  /** How long an idle-time worker marks between its checks for other work (card 1.7.1 on; 0 =
   * it yields the moment work arrives). The runtime's idle worker drains until pollWork reports
   * runnable goroutines or network readiness, and checks that only every drainCheckThreshold
   * units of scan work (runtime/mgcmark.go), so work that arrives on a processor it holds waits
   * for its next check, and that wait is GC time. */
  idle_check_us: number;
  /** The share of the memory-limit heap goal the pacer keeps free (card 1.7.1 on; 0 before):
   * memoryLimitHeapGoalHeadroomPercent, 3 % (runtime/mgcpacer.go, memoryLimitHeapGoal). */
  limit_headroom_fraction: number;
}

/** When a cycle with `remaining_work_us` of mark work left ends, if the dedicated workers and
 * every core the program leaves idle mark from `t_us` on (the idle-time workers' pace). */
export function projectedCycleEnd_us(t_us: number, remaining_work_us: number, dedicated: number, idle_cores: number): number {
  return t_us + Math.max(0, remaining_work_us) / Math.max(dedicated + idle_cores, 1e-9);
}

/** The heap goal for a live heap, GOGC and memory limit (bytes); the limit's goal keeps
 * `limit_headroom_fraction` of itself free, as the runtime's memoryLimitHeapGoal does. */
export function heapGoal(live_bytes: number, gogc: number, memory_limit_bytes: number, non_heap_bytes: number, limit_headroom_fraction = 0): number {
  const byGogc = gogc < 0 ? Infinity : live_bytes * (1 + gogc / 100);
  const byLimit = (memory_limit_bytes - non_heap_bytes) * (1 - limit_headroom_fraction);
  return Math.max(Math.min(byGogc, byLimit), 0);
}

/** When an idle-time worker that took a core at `idle_since_us` gives it back, if work arrives
 * at `t_us`: at its first check for other work at or after `t_us` (at once with no check period). */
export function idleWorkerYield_us(idle_since_us: number, t_us: number, check_us: number): number {
  if (check_us <= 0 || t_us <= idle_since_us) return t_us;
  return idle_since_us + Math.ceil((t_us - idle_since_us) / check_us) * check_us;
}

/** Where the next cycle starts. When the live heap leaves no runway the trigger is the live
 * heap itself: collection runs back to back. */
export function triggerPoint(live_bytes: number, goal_bytes: number, runway_fraction: number): number {
  return goal_bytes <= live_bytes ? live_bytes : live_bytes + runway_fraction * (goal_bytes - live_bytes);
}

/** CPU µs of mark work for a live heap. */
export function markWork_us(live_bytes: number, ns_per_byte: number): number {
  return (live_bytes * ns_per_byte) / 1000;
}

/** Mark work a goroutine must do per byte it allocates during a cycle, so that the remaining
 * work is done when the heap reaches the goal. With no runway left (heap past the goal) the
 * ratio is the remaining work per byte of minimum runway: the allocator does it all. */
export function assistWorkPerByte_us(remaining_work_us: number, heap_bytes: number, goal_bytes: number, min_runway_bytes = 1 << 20): number {
  const runway = Math.max(goal_bytes - heap_bytes, min_runway_bytes);
  return Math.max(0, remaining_work_us) / runway;
}

const OCCUPY_SLICE_US = 5_000;

export class GoRuntime implements RuntimeModel {
  readonly events: GcEvent[] = [];
  oom_at_us: number | null = null;
  private heap: number;
  private liveMarked: number;
  private goal: number;
  private trigger: number;
  private marking = false;
  private markStart_us = 0;
  private markEnd_us = 0; // when the dedicated workers alone would finish
  private occupiedUntil = 0; // dedicated workers are placed on the cores slice by slice
  private workerCores: number[] = [];
  private workLeft = 0; // mark work not yet done by assists or accounted to workers
  private workTotal = 0;
  private assistCpu = 0;
  private idleCpu = 0; // mark work done by idle-time workers this cycle
  private allocDuringMark = 0;
  // Limiter: GC CPU and total CPU capacity in the current window.
  private windowStart_us = 0;
  private windowGc = 0;
  private gate: CollectionGate | null = null;
  private off = false;
  private parkedUntil = 0; // the last charged allocation's goroutine waits until then
  private firstCycleDone: number; // share of the first cycle's mark work done before t = 0
  private placedTo_us = 0; // the idle-time workers' work is accounted up to here

  constructor(
    private readonly p: GoGcParams,
    private readonly live_bytes: number,
    private readonly pool: CpuPool,
  ) {
    this.heap = live_bytes;
    this.liveMarked = live_bytes;
    this.goal = heapGoal(live_bytes, p.gogc, p.memory_limit_bytes, p.non_heap_bytes, p.limit_headroom_fraction);
    this.trigger = triggerPoint(live_bytes, this.goal, p.trigger_runway_fraction);
    const phase = Math.min(Math.max(p.start_phase, 0), 0.999);
    this.firstCycleDone = this.trigger > live_bytes ? 0 : phase;
    if (this.trigger > live_bytes) this.heap = live_bytes + phase * (this.trigger - live_bytes);
  }

  private dedicated(): number {
    return this.p.gomaxprocs * this.p.dedicated_fraction;
  }

  private startCycle(t: number): void {
    this.marking = true;
    this.markStart_us = t;
    this.placedTo_us = t;
    this.workTotal = markWork_us(this.live_bytes, this.p.mark_ns_per_live_byte);
    this.workLeft = this.workTotal * (1 - this.firstCycleDone);
    this.firstCycleDone = 0;
    this.assistCpu = 0;
    this.idleCpu = 0;
    this.allocDuringMark = 0;
    this.pool.pause(t, t + this.p.stw_us, this.p.gomaxprocs);
    const d = this.dedicated();
    this.markEnd_us = t + this.p.stw_us + this.workLeft / Math.max(d, 1e-9);
    this.occupiedUntil = t + this.p.stw_us;
    this.workerCores = this.pool.pickCores(d);
    this.placeWorkers(t);
  }

  /** Keeps the dedicated workers on the cores up to one slice ahead of `t`, and gives the
   * idle-time workers the time every other core has been idle since the cycle began, up to `t`
   * and on to each worker's next check for other work (idleWorkerYield_us; with no check
   * period, up to `t`: the worker yields to the next piece of work at once). */
  private placeWorkers(t: number): void {
    const until = Math.min(this.markEnd_us, t + OCCUPY_SLICE_US);
    if (until > this.occupiedUntil) {
      this.pool.occupyCores(this.workerCores, this.occupiedUntil, until, this.dedicated());
      this.occupiedUntil = until;
    }
    if (!this.p.idle_workers) return;
    const from = this.markStart_us + this.p.stw_us;
    this.placedTo_us = Math.max(this.placedTo_us, t);
    for (let i = 0; i < this.pool.cores; i++) {
      if (this.workerCores.includes(i)) continue;
      const idleSince = Math.max(this.pool.free_at[i]!, from);
      if (idleSince >= t) continue;
      const yieldAt = idleWorkerYield_us(idleSince, t, this.p.idle_check_us);
      this.pool.occupyCores([i], idleSince, yieldAt);
      this.idleCpu += yieldAt - idleSince;
    }
  }

  /** Mark work done by the dedicated and idle-time workers by `t`. */
  private workerWork(t: number): number {
    return Math.max(0, t - this.markStart_us - this.p.stw_us) * this.dedicated() + this.idleCpu;
  }

  private endCycle(t: number): void {
    this.marking = false;
    this.pool.pause(t, t + this.p.stw_us, this.p.gomaxprocs);
    const dedicatedCpu = (t - this.markStart_us) * this.dedicated();
    this.events.push({
      t_s: this.markStart_us / 1e6,
      kind: 'go_cycle',
      pause_ms: (2 * this.p.stw_us) / 1000,
      cpu_ms: (dedicatedCpu + this.idleCpu + this.assistCpu + 2 * this.p.stw_us * this.p.gomaxprocs) / 1000,
      duration_ms: (t + this.p.stw_us - this.markStart_us) / 1000,
    });
    // What was allocated during marking is black (kept) this cycle: it counts as marked.
    this.liveMarked = this.live_bytes + this.allocDuringMark;
    this.heap = this.liveMarked;
    this.goal = heapGoal(this.live_bytes, this.p.gogc, this.p.memory_limit_bytes, this.p.non_heap_bytes, this.p.limit_headroom_fraction);
    this.trigger = triggerPoint(this.live_bytes, this.goal, this.p.trigger_runway_fraction);
  }

  /** When the workers would have finished this cycle's mark work, if that is by `t_us`: the
   * dedicated workers at their pace and every other core from when it went idle (its work since
   * the last accounting); null if the work is not done by then. */
  private cycleEnd_us(t_us: number): number | null {
    const from = this.markStart_us + this.p.stw_us;
    const idleSince: number[] = [];
    if (this.p.idle_workers) for (let i = 0; i < this.pool.cores; i++) if (!this.workerCores.includes(i)) idleSince.push(Math.max(this.pool.free_at[i]!, from));
    const workBy = (tau: number) => {
      let w = Math.max(0, tau - from) * this.dedicated() + this.idleCpu;
      for (const s of idleSince) w += Math.max(0, tau - s);
      return w;
    };
    if (workBy(t_us) < this.workLeft && t_us < this.markEnd_us) return null;
    let lo = Math.max(from, this.placedTo_us);
    let hi = Math.min(t_us, this.markEnd_us);
    if (lo >= hi) return hi;
    for (let k = 0; k < 40 && hi - lo > 1; k++) {
      const mid = (lo + hi) / 2;
      if (workBy(mid) >= this.workLeft) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  advance(t_us: number): void {
    if (this.p.chain_cycles) {
      // Each cycle that finished by t_us ends when it finished; with the heap still past the
      // trigger the next starts right then (back to back), not at the next event.
      for (let n = 0; this.marking && n < 1_000_000; n++) {
        const end = this.cycleEnd_us(t_us);
        if (end === null) {
          this.placeWorkers(t_us);
          break;
        }
        this.placeWorkers(end);
        this.endCycle(end);
        if (this.heap >= this.trigger && this.mayStart(end)) this.startCycle(end);
      }
      if (!this.marking && this.heap >= this.trigger && this.mayStart(t_us)) this.startCycle(t_us);
      return;
    }
    if (this.marking) {
      // Dedicated and idle-time workers do work at their rate; assists shortened the remaining work.
      this.placeWorkers(t_us);
      if (this.workerWork(t_us) >= this.workLeft || t_us >= this.markEnd_us) this.endCycle(Math.min(t_us, this.markEnd_us));
    }
    if (!this.marking && this.heap >= this.trigger && this.mayStart(t_us)) this.startCycle(t_us);
  }

  /** BLADE's gate, unless holding would pass the heap goal: then the cycle starts now. */
  private mayStart(t_us: number): boolean {
    if (this.off) return false;
    if (!this.gate || this.heap >= this.goal) return true;
    return this.gate(t_us, this.pending(t_us));
  }

  disableCollector(): void {
    this.off = true;
  }

  setGate(gate: CollectionGate | null): void {
    this.gate = gate;
  }

  /** The next cycle: its "pause" is how long it would mark (the node runs slower, not stopped,
   * apart from the two short stop-the-world phases). */
  pending(_t_us: number): GcPending {
    const work = markWork_us(this.live_bytes, this.p.mark_ns_per_live_byte);
    return {
      kind: 'go_cycle',
      bytes_to_collection: Math.max(0, this.trigger - this.heap),
      predicted_pause_ms: (2 * this.p.stw_us + work / Math.max(this.dedicated(), 1e-9)) / 1000,
    };
  }

  collectingUntil_us(): number {
    return this.marking ? this.markEnd_us + this.p.stw_us : 0;
  }

  /** Until when the goroutine of the last charged allocation is parked on the assist queue
   * (≤ the allocation's time when it is not). */
  assistParkedUntil_us(): number {
    return this.parkedUntil;
  }

  charge(t_us: number, alloc_bytes: number, _allocs: number): number {
    this.advance(t_us);
    this.parkedUntil = 0;
    this.heap += alloc_bytes;
    if (!this.marking) {
      if (this.heap >= this.trigger && this.mayStart(t_us)) this.startCycle(t_us);
      return 0;
    }
    this.allocDuringMark += alloc_bytes;
    // The limiter: GC CPU over the current window must stay under the cap.
    if (t_us - this.windowStart_us > this.p.cpu_limit_window_us) {
      this.windowStart_us = t_us;
      this.windowGc = 0;
    }
    const capacity = this.p.cpu_limit_window_us * this.p.gomaxprocs;
    const dedicatedInWindow = this.p.cpu_limit_window_us * this.dedicated();
    const limited = this.windowGc + dedicatedInWindow >= this.p.cpu_limit_fraction * capacity;
    if (limited) return 0;
    const remaining = this.workLeft - this.workerWork(t_us);
    const perByte = assistWorkPerByte_us(remaining, this.heap, this.goal);
    const assist = Math.min(remaining, alloc_bytes * perByte);
    if (this.p.park_assists && alloc_bytes > 0 && this.heap >= this.goal && remaining > 0) {
      // No runway: the debt is the rest of the cycle, more than this goroutine can find to do;
      // it marks its share, then waits on the assist queue until the cycle ends. Every
      // processor marks meanwhile — dedicated workers, idle-time workers, the other assists —
      // so the cycle's end is projected at all of GOMAXPROCS (without idle-time workers, at
      // the dedicated ones).
      const markers = this.p.idle_workers ? this.p.gomaxprocs - this.dedicated() : 0;
      this.parkedUntil = projectedCycleEnd_us(t_us, remaining - Math.max(0, assist), this.dedicated(), markers);
    }
    if (assist <= 0) return 0;
    this.workLeft -= assist;
    this.assistCpu += assist;
    this.windowGc += assist;
    // Assisting brings the end of marking closer (the dedicated workers' pace alone bounds it).
    this.markEnd_us = this.markStart_us + this.p.stw_us + (this.workLeft - this.idleCpu) / Math.max(this.dedicated(), 1e-9);
    return assist;
  }

  heapBytes(): number {
    return this.heap + this.p.non_heap_bytes;
  }
}
