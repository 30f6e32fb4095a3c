// The issue's recovery targets after a leader kill, read from a nemesis run's acknowledgements:
// a new leader serving within 1 s (the first acknowledged operation after the kill: nothing is
// acknowledged without a leader), and the survivors back to at least 80 % of the pre-kill rate
// within 3 s (acknowledgements per second in the second after the 3 s). Pure: the nemesis
// records, this judges.
//
// The rate is compared like with like (docs/reliability.md, "The recovery check compares like
// with like"): the baseline is a second that the new leader's engine led. The pre-kill second
// serves when the killed leader ran the same engine; in a mixed cluster the leader's engine sets
// the rate, so after a Rust leader's kill a C++ leader is held to what a C++ leader served before
// the kill in that run, and not judged when none had led. The issue asks about the survivors, so a
// killed node that was restarting inside the window (its process starting on the same cores)
// leaves the rate unjudged; it counts only once its first status line came before the window.

export const NEW_LEADER_BOUND_MS = 1000;
export const RATE_RECOVERY_MS = 3000;
export const RATE_WINDOW_MS = 1000;
export const RATE_FRACTION = 0.8;
/** how far back (step and span) a same-engine baseline second is looked for */
const BASELINE_STEP_MS = 100;

/** What the nemesis did: kill -9, SIGSTOP for a while, a restart, a node cut off from the
 * others both ways for a while, or one node's packets to another lost for a while. */
export type FaultKind = 'kill' | 'pause' | 'restart' | 'partition' | 'cut';

export interface KillMark {
  at_ms: number;
  kind: FaultKind;
  node: number;
  was_leader: boolean;
  /** pause: how long */
  duration_ms?: number;
  /** restart: ms after it until the server wrote its first status line; null or absent: not known */
  ready_ms?: number | null;
}

/** An acknowledged operation: when its reply came, and which node sent it (-1: not known). */
export interface AckMark {
  at_us: number;
  node: number;
}

export type RateNotJudged = 'other fault in the window' | 'run ended first' | 'killed node restarting in the window' | 'new leader not known' | 'no baseline for the new leader engine';

/** What the rate verdict is made of, as one leader kill's figures. */
export interface KillWindowFigures {
  at_ms: number;
  killed_engine: string;
  /** the engine of the node that answered most acknowledgements 3–4 s after; null: not known */
  new_leader_engine: string | null;
  /** acknowledgements per second in the second before the kill (the issue's "pre-kill rate") */
  pre_rate_per_s: number;
  /** a second that nodes of the new leader's engine led alone with every node up and none
   * paused: the latest before the kill, else the earliest after the window; null when none (only
   * needed when the engines differ) */
  same_engine_rate_per_s: number | null;
  /** that second came after the window */
  same_engine_later?: boolean;
  /** acknowledgements per second in [3 s, 4 s) after the kill; null when the run ended before */
  post_rate_per_s: number | null;
  /** a fault other than the killed node's own restart from the kill to the end of the window */
  other_fault_in_window: boolean;
  /** the killed node's restart before the window ends: ms after the kill until its first status
   * line (null: not known); absent: no restart in the window */
  killed_restart_up_ms?: number | null;
}

export interface RateVerdict {
  /** the rate the window is held to (80 % of it), and where it came from */
  baseline_per_s: number | null;
  baseline: 'pre-kill second' | 'earlier second led by the same engine' | 'later second led by the same engine' | null;
  rate_ok: boolean | null;
  rate_not_judged?: RateNotJudged;
}

export function judgeRate(f: KillWindowFigures): RateVerdict {
  const none = (why: RateNotJudged): RateVerdict => ({ baseline_per_s: null, baseline: null, rate_ok: null, rate_not_judged: why });
  if (f.other_fault_in_window) return none('other fault in the window');
  if (f.post_rate_per_s === null) return none('run ended first');
  if (f.killed_restart_up_ms !== undefined && (f.killed_restart_up_ms === null || f.killed_restart_up_ms > RATE_RECOVERY_MS)) return none('killed node restarting in the window');
  if (f.new_leader_engine === null) return none('new leader not known');
  const same = f.new_leader_engine === f.killed_engine;
  const baseline_per_s = same ? f.pre_rate_per_s : f.same_engine_rate_per_s;
  if (baseline_per_s === null || baseline_per_s === 0) return none('no baseline for the new leader engine');
  const baseline = same ? 'pre-kill second' : f.same_engine_later ? 'later second led by the same engine' : 'earlier second led by the same engine';
  return { baseline_per_s, baseline, rate_ok: f.post_rate_per_s >= RATE_FRACTION * baseline_per_s };
}

export interface LeaderKillRecovery extends KillWindowFigures, RateVerdict {
  /** first acknowledged operation after the kill, ms after it; null: none before the end */
  first_ack_ms: number | null;
  new_leader: number | null;
  /** the old rule's verdict (post against the pre-kill second, whatever led and restarted), kept
   * beside the new one */
  pre_kill_rate_ok: boolean | null;
  new_leader_ok: boolean;
}

export function leaderKillRecoveries(faults: readonly KillMark[], acks: readonly AckMark[], end_ms: number, engines: readonly string[]): LeaderKillRecovery[] {
  const inWindow = (from_ms: number, to_ms: number) => acks.filter((a) => a.at_us >= from_ms * 1000 && a.at_us < to_ms * 1000);
  const out: LeaderKillRecovery[] = [];
  for (const f of faults) {
    if (f.kind !== 'kill' || !f.was_leader) continue;
    const first = acks.find((a) => a.at_us >= f.at_ms * 1000);
    const first_ack_ms = first === undefined ? null : Math.round(first.at_us / 1000 - f.at_ms);
    const preFrom = Math.max(0, f.at_ms - RATE_WINDOW_MS);
    const pre_rate_per_s = f.at_ms > preFrom ? (inWindow(preFrom, f.at_ms).length * 1000) / (f.at_ms - preFrom) : 0;
    const postFrom = f.at_ms + RATE_RECOVERY_MS;
    const postTo = postFrom + RATE_WINDOW_MS;
    const post = postTo <= end_ms ? inWindow(postFrom, postTo) : null;
    const new_leader = post === null ? null : busiestNode(post);
    // one engine everywhere: whichever node leads, it runs that engine
    const new_leader_engine = new Set(engines).size === 1 ? engines[0]! : new_leader === null ? null : (engines[new_leader] ?? null);
    const ownRestart = faults.find((g) => g.kind === 'restart' && g.node === f.node && g.at_ms >= f.at_ms && g.at_ms < postTo);
    const other_fault_in_window = faults.some((g) => g !== f && g !== ownRestart && g.at_ms >= f.at_ms && g.at_ms < postTo);
    const sameEngine = new_leader_engine === null ? null : sameEngineRate(faults, acks, engines, new_leader_engine, f.at_ms, postTo, end_ms);
    const figures: KillWindowFigures = {
      at_ms: f.at_ms,
      killed_engine: engines[f.node] ?? '?',
      new_leader_engine,
      pre_rate_per_s,
      same_engine_rate_per_s: sameEngine?.rate_per_s ?? null,
      ...(sameEngine?.later ? { same_engine_later: true } : {}),
      post_rate_per_s: post === null ? null : (post.length * 1000) / RATE_WINDOW_MS,
      other_fault_in_window,
      ...(ownRestart ? { killed_restart_up_ms: ownRestart.ready_ms == null ? null : ownRestart.at_ms + ownRestart.ready_ms - f.at_ms } : {}),
    };
    const pre_kill_rate_ok = figures.post_rate_per_s === null || other_fault_in_window || pre_rate_per_s === 0 ? null : figures.post_rate_per_s >= RATE_FRACTION * pre_rate_per_s;
    out.push({ ...figures, ...judgeRate(figures), first_ack_ms, new_leader, pre_kill_rate_ok, new_leader_ok: first_ack_ms !== null && first_ack_ms <= NEW_LEADER_BOUND_MS });
  }
  return out;
}

/** the node that sent most of these acknowledgements; null when unknown nodes sent most */
function busiestNode(acks: readonly AckMark[]): number | null {
  const count = new Map<number, number>();
  for (const a of acks) count.set(a.node, (count.get(a.node) ?? 0) + 1);
  let best: number | null = null;
  let most = 0;
  for (const [node, c] of count) if (c > most) [best, most] = [node, c];
  return best === null || best < 0 ? null : best;
}

/** when each fault impaired the cluster: a pause for its length, a kill until the node's next
 * restart wrote its first status line (for good when it never did or is not known to have) */
function impairedSpans(faults: readonly KillMark[]): [number, number][] {
  return faults.map((g): [number, number] => {
    if (g.kind === 'pause' || g.kind === 'partition' || g.kind === 'cut') return [g.at_ms, g.at_ms + (g.duration_ms ?? 0)];
    if (g.kind === 'restart') return [g.at_ms, g.ready_ms == null ? Infinity : g.at_ms + g.ready_ms];
    const back = faults.find((r) => r.kind === 'restart' && r.node === g.node && r.at_ms >= g.at_ms);
    return [g.at_ms, back === undefined || back.ready_ms == null ? Infinity : back.at_ms + back.ready_ms];
  });
}

/** acknowledgements per second in a second in which every acknowledgement came from a node of
 * `engine`, every node was up and none was paused: the latest such second before `before_ms`,
 * else the earliest from `after_ms` to `end_ms` (what that engine sustains in this cluster once
 * it leads); null: none */
function sameEngineRate(faults: readonly KillMark[], acks: readonly AckMark[], engines: readonly string[], engine: string, before_ms: number, after_ms: number, end_ms: number): { rate_per_s: number; later: boolean } | null {
  const spans = impairedSpans(faults);
  const rateIn = (from: number, to: number) => {
    if (spans.some(([a, b]) => a < to && b >= from)) return null;
    const window = acks.filter((a) => a.at_us >= from * 1000 && a.at_us < to * 1000);
    return window.length > 0 && window.every((a) => a.node >= 0 && engines[a.node] === engine) ? (window.length * 1000) / RATE_WINDOW_MS : null;
  };
  for (let to = before_ms; to - RATE_WINDOW_MS >= 0; to -= BASELINE_STEP_MS) {
    const r = rateIn(to - RATE_WINDOW_MS, to);
    if (r !== null) return { rate_per_s: r, later: false };
  }
  for (let from = after_ms; from + RATE_WINDOW_MS <= end_ms; from += BASELINE_STEP_MS) {
    const r = rateIn(from, from + RATE_WINDOW_MS);
    if (r !== null) return { rate_per_s: r, later: true };
  }
  return null;
}

/** One line per missed target, for a run's problems. */
export function recoveryProblems(rs: readonly LeaderKillRecovery[]): string[] {
  const out: string[] = [];
  for (const r of rs) {
    if (!r.new_leader_ok)
      out.push(`recovery: after the leader kill at ${r.at_ms} ms the first acknowledgement came ${r.first_ack_ms === null ? 'never' : `after ${r.first_ack_ms} ms`} (bound ${NEW_LEADER_BOUND_MS} ms)`);
    if (r.rate_ok === false)
      out.push(
        `recovery: ${r.post_rate_per_s!.toFixed(0)} ops/s 3–4 s after the leader kill at ${r.at_ms} ms (${r.killed_engine} leader killed, ${r.new_leader_engine} led after), below ${RATE_FRACTION * 100} % of the ${r.baseline_per_s!.toFixed(0)} ops/s of the ${r.baseline}`,
      );
  }
  return out;
}
