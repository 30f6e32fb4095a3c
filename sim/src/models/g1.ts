// OpenJDK's G1 collector (defaults, JDK 19), at the level of detail the simulator needs:
// - the heap (-Xmx) holds the old generation (the live set, promoted data and old garbage) and
//   the young generation; eden is sized between G1NewSizePercent (5 %) and G1MaxNewSizePercent
//   (60 %) of the heap, and never into the G1ReservePercent (10 %) reserve — so it is squeezed
//   as -Xmx approaches the live set;
// - a young collection is a stop-the-world pause when eden fills; its length grows with the
//   bytes it copies (survivors: data written since the last pause that is still referenced) and
//   with the remembered-set (dirty card) scanning of old-to-young references, divided among the
//   parallel GC threads;
// - when old-generation occupancy passes the initiating heap occupancy (IHOP, 45 %), a
//   concurrent marking cycle runs on ConcGCThreads, ends with the remark and cleanup pauses and
//   is followed by mixed collections that reclaim the old garbage they can (regions whose live
//   share is below G1MixedGCLiveThresholdPercent, 85 %);
// - when a young collection cannot find room (old + eden minimum > heap), a full collection
//   compacts the whole heap in one long pause;
// - the young generation is sized for the pause-time goal (MaxGCPauseMillis, 200 ms): after each
//   young pause G1 predicts, from the costs it just saw, the largest eden whose pause meets the
//   goal, within the two percentages above; it starts at the lower one (Oracle, "HotSpot Virtual
//   Machine Garbage Collection Tuning Guide", JDK 19, Garbage-First Garbage Collector, "Young-Only
//   Phase Generation Sizing"); with ageing, the prediction includes copying the survivor space
//   again once it has settled (G1 predicts it from its survivor-rate history), so a steady load
//   gets a steady eden;
// - the GC thread counts follow the machine's cores (g1GcThreads): with half the vCPUs a pause
//   has half the threads, so the same work stops the program twice as long — the reason G1
//   needs idle cores (paper §5.2, Fig 7);
// - survivors age (card 1.5.0 on): a value that survives a young pause stays in the survivor
//   space and is copied again at each later pause until it reaches the tenuring threshold
//   (MaxTenuringThreshold, 15) or the survivor space overflows its target (TargetSurvivorRatio,
//   50 % of the survivor capacity, itself the young generation over SurvivorRatio, 8): G1 then
//   lowers the threshold and promotes the oldest ages. So a young pause copies up to about a
//   sixteenth of eden, not only what was written since the last one (HotSpot's age table and
//   "Desired survivor size" in every young pause's log).
// - old garbage is reclaimable by mixed collections once, as it is made (card 1.7.0 on): of each
//   value an update replaces in the old generation, the share g1.mixed_reclaimable_fraction lies
//   in regions a marking cycle finds sparse enough to collect (below G1MixedGCLiveThresholdPercent,
//   85 % live); the rest is scattered over the dense regions that hold the 7.5 M-record map and
//   stays until a full collection. More marking cycles find no more of it: the reclaimable part
//   is a property of where the garbage lies, not of how often G1 looks. Cards before 1.7.0 take
//   that share of all old garbage at every marking cycle, so a workload that pauses often (B's
//   reads fill eden fast at a tight heap) reclaimed the scattered garbage too and never reached a
//   full collection.
// - the map's own regions become candidates once enough garbage is scattered over them (card
//   1.8.0 on, g1.dense_candidates): the garbage that stays behind lowers the live share of the
//   regions holding the 7.5 M-record map, and when it falls below G1MixedGCLiveThresholdPercent
//   (85 %) a marking cycle finds every one of them worth collecting. Its mixed collections
//   (G1MixedGCCountTarget, 8) each evacuate an eighth of those regions, copying their live part
//   (kind g1_mixed_dense): pauses of about 100 ms in bursts, at a period set by the update rate,
//   at a heap with room for that much garbage before a full collection (8 and 6 GiB, not 5).
// - each process's young collections at their own phase (card 1.8.1 on, g1.independent_phases):
//   a node starts with a seeded share of its eden already filled, so the three JVMs' young
//   pauses fall at their own times. The old generation is not shifted: every node applies the
//   same updates since the same load, so its garbage, and with it the marking cycles, dense
//   phases and full collections, comes at the same count of updates on every node, apart by at
//   most one eden's fill (the young pause that promotes it).
// - concurrent marking on a node whose every core it would take (ConcGCThreads ≥ the node's
//   cores: one marking thread on a node of one core or less, this machine's nodes) is scheduled
//   by the OS beside the program's threads, not in place of them: the marker takes its CPU in
//   slices as time passes, at most MARK_SHARE_OF_BUSY_CORE of the wall time, soaking up idle
//   time first, so the program slows but never stops for the whole cycle. With more cores than
//   marking threads (the paper's 8 vCPUs: 2 of 8) the threads hold their cores, as before.
import type { CpuPool } from './cpu.ts';
import type { CollectionGate, GcEvent, GcPending, RuntimeModel } from './runtime.ts';

/** The share of a busy core the OS gives a marking thread that shares it with the program: two
 * runnable threads of equal weight under CFS/EEVDF, half each (the marker against the server's
 * busy event loop; assumed, not measured). The native JVMs' marking cycles on the nodes' shared
 * core ran 150-255 ms for about 65 ms of marking work at a whole core
 * (data/native/2026-11-27-reference/ratios-a/details/java-a-r2-8vcpu-rep2.jsonl). */
export const MARK_SHARE_OF_BUSY_CORE = 0.5;

export interface G1Params {
  heap_bytes: number; // -Xmx
  parallel_gc_threads: number;
  conc_gc_threads: number;
  new_size_min_fraction: number; // 0.05
  new_size_max_fraction: number; // 0.60
  reserve_fraction: number; // 0.10
  ihop_fraction: number; // 0.45
  young_pause_fixed_ms: number;
  copy_ns_per_byte: number; // per GC thread
  card_scan_ns_per_update: number; // per GC thread, per old-to-young reference created
  mark_ns_per_live_byte: number; // concurrent marking, per thread
  remark_pause_ms: number;
  mixed_reclaimable_fraction: number; // share of old garbage in regions mixed GCs will take
  mixed_count: number; // G1MixedGCCountTarget (8)
  full_gc_ns_per_live_byte: number; // per GC thread
  /** MaxGCPauseMillis (200); Infinity sizes eden by the percentages alone (cards before 1.4.0). */
  pause_goal_ms: number;
  /** MaxTenuringThreshold (15); 1 promotes every survivor at its first pause (cards before 1.5.0). */
  max_tenuring_threshold: number;
  /** The survivor space's target occupancy as a share of eden: TargetSurvivorRatio / SurvivorRatio (0.5 / 8). */
  survivor_target_fraction: number;
  /** True (card 1.7.0 on): the reclaimable share applies once to each byte of old garbage as it
   * is made; false: to all old garbage at every marking cycle. */
  reclaim_once: boolean;
  /** True (card 1.8.0 on, with reclaim_once): the map's regions become mixed-collection
   * candidates once the scattered garbage puts their live share below live_threshold_fraction. */
  dense_candidates?: boolean;
  /** G1MixedGCLiveThresholdPercent (0.85). */
  live_threshold_fraction?: number;
}

/** Ages survivors by one young pause. `ages[i]` holds the bytes that have survived i + 1 pauses;
 * `fresh` bytes survive their first. Returns the new age table and the bytes promoted to the old
 * generation: those past the threshold, and the oldest ages beyond the survivor target. */
export function ageSurvivors(ages: readonly number[], fresh: number, maxThreshold: number, target_bytes: number): { ages: number[]; promoted: number } {
  const all = [fresh, ...ages];
  let promoted = 0;
  const kept: number[] = [];
  let total = 0;
  for (let i = 0; i < all.length; i++) {
    const b = all[i]!;
    // The threshold G1 computes: the first age at which the cumulative bytes pass the target.
    if (i >= maxThreshold - 1 || total + b > target_bytes) {
      const room = i >= maxThreshold - 1 ? 0 : Math.max(0, target_bytes - total);
      kept.push(room);
      total += room;
      promoted += b - room;
      for (let j = i + 1; j < all.length; j++) promoted += all[j]!;
      break;
    }
    kept.push(b);
    total += b;
  }
  while (kept.length > 0 && kept[kept.length - 1] === 0) kept.pop();
  return { ages: kept, promoted };
}

/** HotSpot's GC thread ergonomics for n vCPUs: ParallelGCThreads is n up to 8 and 8 + 5/8 of the
 * cores beyond (Oracle's GC tuning guide, JDK 19, "Parallel Collector": "a fixed fraction of N
 * ... approximately 5/8 for large values of N"; G1 uses the same count); ConcGCThreads is a
 * quarter of it, rounded: (ParallelGCThreads + 2) / 4, at least 1 (the java manual page's
 * -XX:ConcGCThreads entry: "the default value depends on the number of CPUs"; the formula is
 * HotSpot's G1 ergonomics). */
export function g1GcThreads(vcpus: number): { parallel: number; concurrent: number } {
  const parallel = vcpus <= 8 ? vcpus : 8 + Math.floor(((vcpus - 8) * 5) / 8);
  return { parallel, concurrent: Math.max(1, Math.floor((parallel + 2) / 4)) };
}

/** The eden whose young pause meets the pause-time goal, given the thread-ns each eden byte cost
 * at the last young pause (copying what survived, scanning the cards it dirtied); Infinity when
 * nothing is known yet or the goal is off. */
export function goalEdenBytes(goal_ms: number, ns_per_eden_byte: number | null, fixed_copy_ns: number, threads: number, fixed_ms: number): number {
  if (!Number.isFinite(goal_ms) || ns_per_eden_byte === null || !(ns_per_eden_byte > 0)) return Infinity;
  return Math.max(0, ((goal_ms - fixed_ms) * 1e6 * threads - fixed_copy_ns) / ns_per_eden_byte);
}

/** Eden size for a heap, current old occupancy and the young-size bounds. */
export function edenSize(heap_bytes: number, old_bytes: number, minFrac: number, maxFrac: number, reserveFrac: number): number {
  const free = heap_bytes - old_bytes - reserveFrac * heap_bytes;
  return Math.max(minFrac * heap_bytes, Math.min(maxFrac * heap_bytes, free));
}

/** A young pause in ms: fixed cost plus copying and card scanning shared by the GC threads. */
export function youngPauseMs(copied_bytes: number, old_to_young_refs: number, threads: number, p: Pick<G1Params, 'young_pause_fixed_ms' | 'copy_ns_per_byte' | 'card_scan_ns_per_update'>): number {
  return p.young_pause_fixed_ms + (copied_bytes * p.copy_ns_per_byte + old_to_young_refs * p.card_scan_ns_per_update) / threads / 1e6;
}

/** A full collection: the whole live set is marked and compacted by the parallel threads. */
export function fullPauseMs(live_bytes: number, threads: number, ns_per_byte: number): number {
  return (live_bytes * ns_per_byte) / threads / 1e6;
}

/** The collector's phase: what a run started mid-cycle needs (the steady-state shortcut). */
export interface G1State {
  edenUsed: number;
  oldGarbage: number;
  updatesSinceYoung: number;
  marking: boolean;
  markEnd_us: number;
  mixedLeft: number;
  reclaimablePerMixed: number;
  /** Thread-ns of young-pause work per eden byte at the last young pause (null: none yet). */
  youngNsPerEdenByte?: number | null;
  /** Survivor bytes by age, and the bytes an eden byte leaves surviving (card 1.5.0 on). */
  survivorAges?: number[];
  freshPerEdenByte?: number | null;
  /** Old garbage in regions mixed collections can take, not yet taken (card 1.7.0 on). */
  collectableGarbage?: number;
  /** Live bytes each mixed collection of a dense phase evacuates (0: not a dense phase; card 1.8.0 on). */
  denseLivePerMixed?: number;
}

export class G1Runtime implements RuntimeModel {
  readonly events: GcEvent[] = [];
  oom_at_us: number | null = null;
  private edenUsed = 0;
  private oldGarbage = 0;
  /** The part of oldGarbage in regions sparse enough for mixed collections (reclaim_once). */
  private collectableGarbage = 0;
  private updatesSinceYoung = 0;
  private survivorBytesPerUpdate: number;
  private marking = false;
  private markEnd_us = 0;
  private mixedLeft = 0;
  private reclaimablePerMixed = 0;
  /** Live bytes each mixed collection of the current phase copies out of the map's regions
   * (dense_candidates); 0 when the phase takes only the sparse regions. */
  private denseLivePerMixed = 0;
  private youngNsPerEdenByte: number | null = null;
  private survivorAges: number[] = [];
  private freshPerEdenByte: number | null = null;
  private gate: CollectionGate | null = null;
  /** Shared marking (the marker would take every core): the marking work still to place, in
   * wall µs of the node's cores, where its next slice may start, and the cycle's event (its
   * duration is known once the work is done). */
  private markWorkLeft_us = 0;
  private markSliceFrom_us = 0;
  private markEvent: GcEvent | null = null;
  private off = false;
  private pauseEndUs = 0;

  constructor(
    private readonly p: G1Params,
    private readonly live_bytes: number,
    private readonly log_live_bytes: number,
    value_bytes: number,
    private readonly pool: CpuPool,
  ) {
    this.survivorBytesPerUpdate = value_bytes;
  }

  /** Thread-ns per eden byte of copying the survivor space again, once it has settled: what
   * survives an eden, kept for up to the tenuring threshold's pauses, within the survivor target
   * (both per eden byte). 0 while nothing is known or survivors do not age. */
  private agedNsPerEdenByte(): number {
    if (this.p.max_tenuring_threshold <= 1 || this.freshPerEdenByte === null) return 0;
    return Math.min(this.p.survivor_target_fraction, (this.p.max_tenuring_threshold - 1) * this.freshPerEdenByte) * this.p.copy_ns_per_byte;
  }

  private old(): number {
    return this.live_bytes + this.oldGarbage;
  }

  private eden(): number {
    // (Asked at every allocation; its inputs change only at a collection or a new state.)
    if (this.oldGarbage === this.edenFor.oldGarbage && this.youngNsPerEdenByte === this.edenFor.youngNsPerEdenByte && this.freshPerEdenByte === this.edenFor.freshPerEdenByte) return this.edenFor.bytes;
    const bytes = this.edenUncached();
    this.edenFor = { oldGarbage: this.oldGarbage, youngNsPerEdenByte: this.youngNsPerEdenByte, freshPerEdenByte: this.freshPerEdenByte, bytes };
    return bytes;
  }

  /** eden() as last computed, with the inputs it was computed from. */
  private edenFor: { oldGarbage: number; youngNsPerEdenByte: number | null; freshPerEdenByte: number | null; bytes: number } = { oldGarbage: NaN, youngNsPerEdenByte: null, freshPerEdenByte: null, bytes: 0 };

  private edenUncached(): number {
    const byHeap = edenSize(this.p.heap_bytes, this.old(), this.p.new_size_min_fraction, this.p.new_size_max_fraction, this.p.reserve_fraction);
    if (!Number.isFinite(this.p.pause_goal_ms)) return byHeap;
    // Until a pause has been seen G1 starts at the minimum young size; then it sizes for the goal.
    const goal =
      this.youngNsPerEdenByte === null
        ? this.p.new_size_min_fraction * this.p.heap_bytes
        : goalEdenBytes(this.p.pause_goal_ms, this.youngNsPerEdenByte + this.agedNsPerEdenByte(), this.log_live_bytes * this.p.copy_ns_per_byte, this.p.parallel_gc_threads, this.p.young_pause_fixed_ms);
    return Math.max(this.p.new_size_min_fraction * this.p.heap_bytes, Math.min(byHeap, goal));
  }

  /** Whether the marking threads would take every core of the node (sharedMarking above). */
  private marksOnSharedCores(): boolean {
    return this.p.conc_gc_threads >= this.pool.cores;
  }

  /** Places the marker's share of the wall time since its last slice on the node's cores (at
   * most the work left); the cycle ends when the work is done. */
  private placeMarkSlices(t_us: number): void {
    const elapsed = t_us - this.markSliceFrom_us;
    if (!(elapsed > 0)) return;
    const slice = Math.min(this.markWorkLeft_us, elapsed * MARK_SHARE_OF_BUSY_CORE);
    this.pool.occupy(this.p.conc_gc_threads, this.markSliceFrom_us, this.markSliceFrom_us + slice);
    this.markWorkLeft_us -= slice;
    if (this.markWorkLeft_us <= 1e-9) {
      this.markEnd_us = this.markSliceFrom_us + slice / MARK_SHARE_OF_BUSY_CORE;
      if (this.markEvent) this.markEvent.duration_ms = (this.markEnd_us - this.markEvent.t_s * 1e6) / 1000;
      this.markEvent = null;
    }
    this.markSliceFrom_us = t_us;
  }

  advance(t_us: number): void {
    if (this.oom_at_us === null && this.live_bytes + this.log_live_bytes > this.p.heap_bytes) this.oom_at_us = t_us;
    if (this.marking && this.markEvent) this.placeMarkSlices(t_us);
    if (this.marking && !this.markEvent && t_us >= this.markEnd_us) {
      this.marking = false;
      this.pause(this.markEnd_us, this.p.remark_pause_ms, 'g1_remark');
      this.mixedLeft = this.p.mixed_count;
      this.reclaimablePerMixed = (this.p.reclaim_once ? this.collectableGarbage : this.oldGarbage * this.p.mixed_reclaimable_fraction) / this.p.mixed_count;
      this.denseLivePerMixed = 0;
      if (this.denseRegionsAreCandidates()) {
        // Every region of the map is below the liveness threshold: the phase takes all the old
        // garbage and copies the live map out, an eighth per mixed collection.
        this.reclaimablePerMixed = this.oldGarbage / this.p.mixed_count;
        this.denseLivePerMixed = this.live_bytes / this.p.mixed_count;
      }
    }
  }

  /** Whether the garbage left scattered over the map's regions has put their live share below
   * G1MixedGCLiveThresholdPercent (dense_candidates, with reclaim_once). */
  private denseRegionsAreCandidates(): boolean {
    if (!this.p.dense_candidates || !this.p.reclaim_once) return false;
    const scattered = Math.max(0, this.oldGarbage - this.collectableGarbage);
    return this.live_bytes / (this.live_bytes + scattered) < (this.p.live_threshold_fraction ?? 0.85);
  }

  /** Live bytes a mixed collection taking `reclaim` bytes of garbage copies. */
  private mixedLiveBytes(reclaim: number): number {
    if (this.denseLivePerMixed > 0) return this.denseLivePerMixed;
    const t = this.p.live_threshold_fraction ?? 0.85;
    return (reclaim * t) / (1 - t);
  }

  /** Records `count` updates that replace a value in the map: the new value survives (it is
   * referenced from the old map), the old one becomes old-generation garbage. */
  onUpdate(count = 1): void {
    this.updatesSinceYoung += count;
  }

  charge(t_us: number, alloc_bytes: number, _allocs: number): number {
    this.advance(t_us);
    this.edenUsed += alloc_bytes;
    if (this.edenUsed >= this.eden() && this.mayCollect(t_us)) this.collect(t_us);
    return 0;
  }

  /** BLADE's gate, unless holding would eat into the reserve: then the collection runs now. */
  private mayCollect(t_us: number): boolean {
    if (this.off) return false;
    if (!this.gate) return true;
    if (this.edenUsed >= this.eden() + this.p.reserve_fraction * this.p.heap_bytes) return true;
    return this.gate(t_us, this.pending(t_us));
  }

  disableCollector(): void {
    this.off = true;
  }

  setGate(gate: CollectionGate | null): void {
    this.gate = gate;
  }

  /** The next pause as collect() would take it now (young, mixed or full). */
  private survivorBytes(): number {
    let b = 0;
    for (const a of this.survivorAges) b += a;
    return b;
  }

  pending(_t_us: number): GcPending {
    const copied = this.log_live_bytes + this.survivorBytes() + this.updatesSinceYoung * this.survivorBytesPerUpdate;
    let ms = youngPauseMs(copied, this.updatesSinceYoung, this.p.parallel_gc_threads, this.p);
    let kind = this.mixedLeft > 0 ? (this.denseLivePerMixed > 0 ? 'g1_mixed_dense' : 'g1_mixed') : 'g1_young';
    if (this.mixedLeft > 0) {
      const reclaim = Math.min(this.reclaimablePerMixed, this.oldGarbage);
      ms += this.mixedLiveBytes(reclaim) * this.p.copy_ns_per_byte / this.p.parallel_gc_threads / 1e6;
    }
    const oldAfter = this.old() + this.updatesSinceYoung * this.survivorBytesPerUpdate;
    if (oldAfter + this.p.new_size_min_fraction * this.p.heap_bytes > this.p.heap_bytes) {
      ms = fullPauseMs(this.live_bytes + this.log_live_bytes, this.p.parallel_gc_threads, this.p.full_gc_ns_per_live_byte);
      kind = 'g1_full';
    }
    return { kind, bytes_to_collection: Math.max(0, this.eden() - this.edenUsed), predicted_pause_ms: ms };
  }

  collectingUntil_us(): number {
    return this.pauseEndUs;
  }

  stoppedUntil_us(): number {
    return this.pauseEndUs;
  }

  private collect(t: number): void {
    const aged = this.survivorBytes();
    const copied = this.log_live_bytes + aged + this.updatesSinceYoung * this.survivorBytesPerUpdate;
    if (this.edenUsed > 0) {
      // What this eden's own survivors and dirty cards cost, per byte: the next eden's size (the
      // survivors already held are a fixed cost of the next pause, taken off the goal first).
      const ns = this.updatesSinceYoung * (this.survivorBytesPerUpdate * this.p.copy_ns_per_byte + this.p.card_scan_ns_per_update);
      this.youngNsPerEdenByte = ns / this.edenUsed;
      this.freshPerEdenByte = (this.updatesSinceYoung * this.survivorBytesPerUpdate) / this.edenUsed;
    }
    if (this.p.max_tenuring_threshold > 1) {
      const target = this.p.survivor_target_fraction * this.eden();
      this.survivorAges = ageSurvivors(this.survivorAges, this.updatesSinceYoung * this.survivorBytesPerUpdate, this.p.max_tenuring_threshold, target).ages;
    }
    // Promoted values replace older ones: the replaced values are now old garbage.
    const replaced = this.updatesSinceYoung * this.survivorBytesPerUpdate;
    this.oldGarbage += replaced;
    if (this.p.reclaim_once) this.collectableGarbage += replaced * this.p.mixed_reclaimable_fraction;
    let ms = youngPauseMs(copied, this.updatesSinceYoung, this.p.parallel_gc_threads, this.p);
    let kind = 'g1_young';
    if (this.mixedLeft > 0) {
      // A mixed collection also evacuates the live part of the chosen old regions.
      const reclaim = Math.min(this.reclaimablePerMixed, this.oldGarbage);
      const liveInRegions = this.mixedLiveBytes(reclaim);
      ms += (liveInRegions * this.p.copy_ns_per_byte) / this.p.parallel_gc_threads / 1e6;
      // A dense phase takes the sparse regions' garbage with the rest, in proportion.
      const collectableTaken = this.denseLivePerMixed > 0 && this.oldGarbage > 0 ? (reclaim * this.collectableGarbage) / this.oldGarbage : reclaim;
      this.oldGarbage -= reclaim;
      this.collectableGarbage = Math.max(0, this.collectableGarbage - collectableTaken);
      this.mixedLeft--;
      kind = this.denseLivePerMixed > 0 ? 'g1_mixed_dense' : 'g1_mixed';
      if (this.mixedLeft === 0) this.denseLivePerMixed = 0;
    }
    if (this.old() + this.p.new_size_min_fraction * this.p.heap_bytes > this.p.heap_bytes) {
      // No room for even the minimum eden: a full, compacting collection.
      ms = fullPauseMs(this.live_bytes + this.log_live_bytes, this.p.parallel_gc_threads, this.p.full_gc_ns_per_live_byte);
      this.oldGarbage = 0;
      this.collectableGarbage = 0;
      this.survivorAges = [];
      this.marking = false;
      this.markEvent = null;
      this.mixedLeft = 0;
      this.denseLivePerMixed = 0;
      kind = 'g1_full';
    }
    this.pause(t, ms, kind);
    this.edenUsed = 0;
    this.updatesSinceYoung = 0;
    const end = t + ms * 1000;
    if (!this.marking && this.mixedLeft === 0 && this.old() >= this.p.ihop_fraction * this.p.heap_bytes) {
      // Concurrent marking on ConcGCThreads after this pause.
      this.marking = true;
      const dur_us = (this.live_bytes * this.p.mark_ns_per_live_byte) / this.p.conc_gc_threads / 1000;
      const event: GcEvent = { t_s: end / 1e6, kind: 'g1_concurrent_mark', pause_ms: 0, cpu_ms: (dur_us * this.p.conc_gc_threads) / 1000, duration_ms: dur_us / 1000 };
      this.events.push(event);
      if (this.marksOnSharedCores()) {
        // Time-shared with the program: the cycle ends once its slices are placed (until then
        // markEnd_us is its end were the marker to get its share throughout).
        this.markWorkLeft_us = (dur_us * this.p.conc_gc_threads) / this.pool.cores;
        this.markEnd_us = end + this.markWorkLeft_us / MARK_SHARE_OF_BUSY_CORE;
        this.markSliceFrom_us = end;
        this.markEvent = event;
      } else {
        this.markEnd_us = end + dur_us;
        this.pool.occupy(this.p.conc_gc_threads, end, this.markEnd_us);
      }
    }
  }

  private pause(t: number, ms: number, kind: string): void {
    const threads = this.p.parallel_gc_threads;
    this.pool.pause(t, t + ms * 1000, threads);
    this.pauseEndUs = Math.max(this.pauseEndUs, t + ms * 1000);
    this.events.push({ t_s: t / 1e6, kind, pause_ms: ms, cpu_ms: ms * Math.min(threads, this.pool.cores) });
  }

  heapBytes(): number {
    return this.old() + this.edenUsed;
  }

  state(): G1State {
    return { edenUsed: this.edenUsed, oldGarbage: this.oldGarbage, updatesSinceYoung: this.updatesSinceYoung, marking: this.marking, markEnd_us: this.markEnd_us, mixedLeft: this.mixedLeft, reclaimablePerMixed: this.reclaimablePerMixed, youngNsPerEdenByte: this.youngNsPerEdenByte, survivorAges: [...this.survivorAges], freshPerEdenByte: this.freshPerEdenByte, collectableGarbage: this.collectableGarbage, ...(this.denseLivePerMixed > 0 ? { denseLivePerMixed: this.denseLivePerMixed } : {}) };
  }

  /** Starts a fresh collector `phase` (in [0, 1)) of the way into filling its first eden: the
   * process's own point of its young-collection cycle (g1.independent_phases). */
  startInPhase(phase: number): void {
    this.edenUsed = Math.min(Math.max(phase, 0), 0.999) * this.eden();
  }

  /** Continues from a state taken at `taken_at_us` of another run, as if that instant were 0.
   * Concurrent marking in progress is not carried (its threads were placed by the other run):
   * it restarts at the next collection, as IHOP asks. */
  setState(s: G1State): void {
    this.edenUsed = s.edenUsed;
    this.oldGarbage = s.oldGarbage;
    this.updatesSinceYoung = s.updatesSinceYoung;
    this.marking = false;
    this.markEnd_us = 0;
    this.markEvent = null;
    this.markWorkLeft_us = 0;
    this.mixedLeft = s.mixedLeft;
    this.reclaimablePerMixed = s.reclaimablePerMixed;
    this.youngNsPerEdenByte = s.youngNsPerEdenByte ?? null;
    this.survivorAges = [...(s.survivorAges ?? [])];
    this.freshPerEdenByte = s.freshPerEdenByte ?? null;
    this.collectableGarbage = s.collectableGarbage ?? 0;
    this.denseLivePerMixed = s.denseLivePerMixed ?? 0;
  }
}
