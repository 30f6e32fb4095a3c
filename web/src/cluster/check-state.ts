// The decisions of the Cluster view's "Check linearizability": one check goes idle → checking →
// done, failed, or undecided (its time limit passed, or the user stopped it). The panel owns the
// DOM, the worker and the clock; this module owns what each event means, and it is pure: the
// clock is an argument, so its test drives it without waiting.
//
// Why the page keeps the time, not the worker: Porcupine runs in the check worker as Go compiled
// to js/wasm, which has no preemption, so Porcupine's own timer cannot fire while its search
// runs, and the search is exponential in the operations that overlap on one key. The only way
// to end it is to terminate the worker; the next check gets a fresh one. (The torture replays
// run Porcupine in the engine worker without this limit: their histories are bounded by the
// torture schedule, and they are checked once when the replay opens.)
import type { Verdict } from '@replicant/checker/lincheck';
import type { SessionHistory } from './history.ts';

/**
 * The default time limit. Measured with the wasm build in Node (bench/porcupine-slow-run.ts on
 * the runs of e2e/slow-run.ts, load 5-7 on 2 cores): a small run (5 or 9 operations, what a run
 * driven by hand makes) checks in 0.04-0.24 s; what makes Porcupine slow is many writes
 * overlapping on one key ended by a violation: 12 overlapping puts 1.2-1.9 s, 14 7-10 s, 16 41 s,
 * 24 no verdict at all (its Go runtime ran out of memory after 214 s). 30 s lets everything up to
 * about 14 overlapping puts decide, and nobody waits longer than half a minute to be told it did not.
 */
export const CHECK_LIMIT_DEFAULT_S = 30;

/** The longest limit the test hook accepts (an hour: beyond it the hook is surely a mistake). */
const CHECK_LIMIT_MAX_S = 3600;

/**
 * The limit of the next check: the default, or a test's value from the window property
 * `__replicantCheckLimitS` (not a user-facing setting: the browser test sets it to see a time-out
 * in seconds). A value that is not a number of seconds in (0, 3600] throws rather than being used.
 */
export function checkLimitS(hook: unknown): number {
  if (hook === undefined) return CHECK_LIMIT_DEFAULT_S;
  if (typeof hook !== 'number' || !Number.isFinite(hook) || hook <= 0 || hook > CHECK_LIMIT_MAX_S)
    throw new Error(`the test hook __replicantCheckLimitS must be a number of seconds above 0 and at most ${CHECK_LIMIT_MAX_S}, got ${typeof hook === 'number' ? hook : JSON.stringify(hook) ?? String(hook)}`);
  return hook;
}

/** What Porcupine was given: the run's history up to a step. */
export interface Checked {
  history: SessionHistory;
  at_step: number;
  operations: number;
  keys: number;
}

export type CheckState =
  | { state: 'idle' }
  /** `checked` is absent while the run's history is still being read; the clock runs from the
   * button press (reading the history and starting the worker take a fraction of a second) */
  | { state: 'checking'; id: number; started_ms: number; limit_s: number; checked?: Checked }
  | { state: 'done'; checked: Checked; verdict: Verdict; html: string | undefined }
  | { state: 'failed'; message: string }
  /** Porcupine's own "unknown": neither shown linearizable nor shown violating */
  | { state: 'undecided'; why: 'time-limit' | 'stopped'; after_ms: number; limit_s: number; checked?: Checked };

export type CheckEvent =
  /** `id`: new for every check (the panel counts them), so a late reply is told from the current one */
  | { type: 'start'; id: number; now_ms: number; limit_s: number }
  /** the check could not start (its time limit is not valid) */
  | { type: 'refused'; message: string }
  | { type: 'history'; id: number; history: SessionHistory; at_step: number }
  | { type: 'history-failed'; id: number; message: string }
  | { type: 'verdict'; id: number; verdict: Verdict; html: string | undefined }
  | { type: 'worker-failed'; id: number; message: string }
  | { type: 'tick'; now_ms: number }
  | { type: 'stop'; now_ms: number };

/** What the panel must do after an event. */
export type CheckEffect =
  | { kind: 'send'; id: number; history: SessionHistory }
  /** end the check worker (its search cannot be interrupted); the next check makes a new one */
  | { kind: 'terminate-worker' };

export interface Advanced {
  state: CheckState;
  effects: CheckEffect[];
}

function keysOf(history: SessionHistory): number {
  return new Set(history.ops.map((o) => o.key)).size;
}

/** The state after `event`. Replies for another check than the current one (a worker since
 * terminated, a check since stopped) change nothing. */
export function advance(s: CheckState, event: CheckEvent): Advanced {
  const same = (now: CheckState): Advanced => ({ state: now, effects: [] });
  switch (event.type) {
    case 'start':
      if (s.state === 'checking') return same(s);
      return same({ state: 'checking', id: event.id, started_ms: event.now_ms, limit_s: event.limit_s });
    case 'refused':
      if (s.state === 'checking') return same(s);
      return same({ state: 'failed', message: event.message });
    case 'history': {
      if (s.state !== 'checking' || s.id !== event.id || s.checked) return same(s);
      const checked: Checked = { history: event.history, at_step: event.at_step, operations: event.history.ops.length, keys: keysOf(event.history) };
      return { state: { ...s, checked }, effects: [{ kind: 'send', id: s.id, history: event.history }] };
    }
    case 'history-failed':
      if (s.state !== 'checking' || s.id !== event.id) return same(s);
      return same({ state: 'failed', message: event.message });
    case 'verdict':
      if (s.state !== 'checking' || s.id !== event.id || !s.checked) return same(s);
      return same({ state: 'done', checked: s.checked, verdict: event.verdict, html: event.html });
    case 'worker-failed':
      if (s.state !== 'checking' || s.id !== event.id) return same(s);
      return { state: { state: 'failed', message: event.message }, effects: [{ kind: 'terminate-worker' }] };
    case 'tick':
      if (s.state !== 'checking' || event.now_ms - s.started_ms < s.limit_s * 1000) return same(s);
      return undecided(s, 'time-limit', event.now_ms);
    case 'stop':
      if (s.state !== 'checking') return same(s);
      return undecided(s, 'stopped', event.now_ms);
  }
}

function undecided(s: Extract<CheckState, { state: 'checking' }>, why: 'time-limit' | 'stopped', now_ms: number): Advanced {
  const state: CheckState = { state: 'undecided', why, after_ms: now_ms - s.started_ms, limit_s: s.limit_s };
  if (s.checked) state.checked = s.checked;
  return { state, effects: [{ kind: 'terminate-worker' }] };
}

/** Seconds since the check started, for the panel's running clock. */
export function elapsedS(s: CheckState, now_ms: number): number {
  return s.state === 'checking' ? Math.max(0, now_ms - s.started_ms) / 1000 : 0;
}
