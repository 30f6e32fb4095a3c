// Parsers for the runtimes' GC logs: Go's GODEBUG=gctrace=1 lines and the JVM's unified
// -Xlog:gc* lines (uptime decoration). Pure functions: text in, events out.

export interface GcEvent {
  /** Seconds since the process started (Go: @t; JVM: the uptime decoration). */
  t_s: number;
  /** go-cycle | young | mixed | young-concurrent-start | full | remark | cleanup | concurrent-mark … */
  kind: string;
  /** Stop-the-world time, ms. */
  pause_ms: number;
  /** Wall time from start to end of the cycle (concurrent phases included), ms. */
  duration_ms: number;
  /** CPU the collector used, ms (Go: assist + background + STW; JVM: User+Sys when logged). */
  cpu_ms: number;
  heap_before_mib?: number;
  heap_after_mib?: number;
  /** Go only: heap marked live by the cycle (the third of gctrace's A->B->C). */
  heap_live_mib?: number;
  /** Go only: Ps (GOMAXPROCS) during the cycle. */
  procs?: number;
}

// gc 12 @3.412s 2%: 0.031+1.5+0.004 ms clock, 0.063+0.21/1.3/0.40+0.009 ms cpu, 4->4->1 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 2 P
const GO_LINE =
  /^gc (\d+) @([\d.]+)s (\d+)%: ([\d.]+)\+([\d.]+)\+([\d.]+) ms clock, ([\d.]+)\+([\d.]+)\/([\d.]+)\/([\d.]+)\+([\d.]+) ms cpu, (\d+)->(\d+)->(\d+) MB, (\d+) MB goal,.*?(\d+) P/;

/** Events from a Go program's stderr; lines that are not gctrace lines are ignored. */
export function parseGoGctrace(text: string): GcEvent[] {
  const events: GcEvent[] = [];
  for (const line of text.split('\n')) {
    const m = GO_LINE.exec(line.trim());
    if (!m) continue;
    const n = m.slice(1).map(Number) as number[];
    const [, t, , sweepTerm, mark, markTerm, cpuSweepTerm, assist, background, , cpuMarkTerm, before, after, live, , procs] = n;
    events.push({
      t_s: t!,
      kind: 'go-cycle',
      pause_ms: sweepTerm! + markTerm!,
      duration_ms: sweepTerm! + mark! + markTerm!,
      // Idle-time marking only uses Ps that had nothing else to do, so it is left out.
      cpu_ms: cpuSweepTerm! + assist! + background! + cpuMarkTerm!,
      heap_before_mib: before! * (1e6 / 2 ** 20),
      heap_after_mib: after! * (1e6 / 2 ** 20),
      heap_live_mib: live! * (1e6 / 2 ** 20),
      procs: procs!,
    });
  }
  return events;
}

// [1.240s][info][gc          ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 24M->8M(256M) 6.123ms
// [2.000s][info][gc          ] GC(5) Concurrent Mark Cycle 45.678ms
// [1.240s][info][gc,cpu      ] GC(3) User=0.01s Sys=0.00s Real=0.01s
const JVM_PREFIX = /^\[([\d.]+)s\](?:\[[^\]]*\])*?\[(gc(?:,[a-z]+)*)\s*\]\s*GC\((\d+)\)\s+(.*)$/;
const JVM_EVENT = /^(Pause [A-Za-z]+(?: \([A-Za-z ]+\))?|Concurrent [A-Za-z ]+?)(?: \(.*?\))*\s*(?:(\d+)M->(\d+)M\((\d+)M\)\s+)?([\d.]+)ms$/;
const JVM_CPU = /^User=([\d.]+)s Sys=([\d.]+)s Real=([\d.]+)s$/;

function jvmKind(what: string): string {
  const w = what.toLowerCase();
  if (w.startsWith('pause young')) {
    if (w.includes('mixed')) return 'mixed';
    if (w.includes('concurrent start')) return 'young-concurrent-start';
    if (w.includes('prepare mixed')) return 'young-prepare-mixed';
    return 'young';
  }
  if (w.startsWith('pause full')) return 'full';
  if (w.startsWith('pause remark')) return 'remark';
  if (w.startsWith('pause cleanup')) return 'cleanup';
  return w.replace(/\s+/g, '-');
}

/** Events from a JVM's -Xlog:gc*:…:uptime,level,tags file. */
export function parseJvmGcLog(text: string): GcEvent[] {
  const byId = new Map<number, GcEvent[]>();
  const events: GcEvent[] = [];
  for (const line of text.split('\n')) {
    const m = JVM_PREFIX.exec(line.trim());
    if (!m) continue;
    const [, uptime, tags, idText, rest] = m;
    const id = Number(idText);
    if (tags === 'gc,cpu') {
      const c = JVM_CPU.exec(rest!.trim());
      const list = byId.get(id);
      if (c && list) {
        // The cpu line closes the last pause of this GC id.
        const last = list[list.length - 1]!;
        last.cpu_ms = (Number(c[1]) + Number(c[2])) * 1000;
      }
      continue;
    }
    if (tags !== 'gc') continue;
    const e = JVM_EVENT.exec(rest!.trim());
    if (!e) continue;
    const [, what, before, after, , ms] = e;
    const duration = Number(ms);
    const isPause = what!.startsWith('Pause');
    const ev: GcEvent = {
      t_s: Number(uptime) - duration / 1000, // logged at the end; events carry their start
      kind: jvmKind(what!),
      pause_ms: isPause ? duration : 0,
      duration_ms: duration,
      cpu_ms: 0,
      ...(before !== undefined ? { heap_before_mib: Number(before), heap_after_mib: Number(after) } : {}),
    };
    events.push(ev);
    const list = byId.get(id) ?? [];
    list.push(ev);
    byId.set(id, list);
  }
  return events.sort((a, b) => a.t_s - b.t_s);
}

export interface GcSummary {
  count: number;
  pause_total_ms: number;
  pause_max_ms: number;
  cpu_ms: number;
  /** Share of the window during which a collection (any phase) was running, 0..1. */
  active_share: number;
  /** The largest share of any `bucket_s` bucket spent with a collection running (Fig 12(b)). */
  active_share_max_bucket: number;
}

/** Sums the events that start inside [from_s, to_s) of process time. */
export function summarizeGc(events: GcEvent[], from_s: number, to_s: number, bucket_s = 5): GcSummary {
  const inWindow = events.filter((e) => e.t_s >= from_s && e.t_s < to_s);
  const window_s = Math.max(to_s - from_s, 1e-9);
  const buckets = new Array<number>(Math.max(1, Math.ceil(window_s / bucket_s))).fill(0);
  let activeMs = 0;
  for (const e of inWindow) {
    // G1's remark and cleanup pauses happen inside its concurrent cycle: count the cycle once.
    if (e.kind === 'remark' || e.kind === 'cleanup') continue;
    activeMs += e.duration_ms;
    const b = Math.min(buckets.length - 1, Math.floor((e.t_s - from_s) / bucket_s));
    buckets[b]! += e.duration_ms;
  }
  const fullBucket_ms = bucket_s * 1000;
  return {
    count: inWindow.filter((e) => e.kind === 'go-cycle' || e.pause_ms > 0).length,
    pause_total_ms: inWindow.reduce((s, e) => s + e.pause_ms, 0),
    pause_max_ms: inWindow.reduce((m, e) => Math.max(m, e.pause_ms), 0),
    cpu_ms: inWindow.reduce((s, e) => s + e.cpu_ms, 0),
    active_share: Math.min(1, activeMs / (window_s * 1000)),
    active_share_max_bucket: Math.min(1, Math.max(...buckets) / fullBucket_ms),
  };
}
