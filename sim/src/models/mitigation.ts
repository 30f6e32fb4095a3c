// The GC-mitigation sandbox's models, version MITIGATION_MODEL_VERSION (bump it when what a
// mitigated run does changes). Two mitigations from the papers in data/mitigations:
// - BLADE: a runtime about to collect (gc_pending) asks permission; the coordinator lets at most
//   f nodes collect at once and queues the rest; a leader first hands its leadership to a peer
//   (the one that collected most recently, else the next one) and collects as a follower.
// - MITMEM: a node in a stop-the-world pause answers a request it would hold past its deadline
//   with `busy` and the pause it predicts (with MITMEM's stated error: ±4 ms in about 8 % of
//   predictions, Fig 7(d)); the client retries at another replica at once.
// Pure decisions and bookkeeping; the mitigation sandbox (run/mitigation-sandbox.ts) moves the messages.
import type { Prng } from '../core/prng.ts';

export const MITIGATION_MODEL_VERSION = '1.2.0';
export const MITIGATION_MODES = ['none', 'blade', 'mitmem', 'both'] as const;
export type MitigationMode = (typeof MITIGATION_MODES)[number];

/** MITMEM Fig 7(d) (data/mitigations/mitmem-values.csv: fig7d-prediction-error, -share). */
export const PREDICTION_ERROR_MS = 4;
export const PREDICTION_ERROR_SHARE = 0.08;
/** The request deadline MITMEM compares a pause with, unless the spec gives one: the paper's
 * SLO (p99 ≤ 20 ms, §5.1 of the main paper). */
export const DEFAULT_DEADLINE_MS = 20;
/** BLADE's handoff is an election. With the paper's election (a promise carries every instance
 * above the global last executed, which advances only at heartbeats, and the winner replays
 * them one per round trip) a successor at 1,500 ops/s replayed ~430 instances before it could
 * answer a client again: ~290 ms of silence after every handoff. BLADE runs the cores with
 * bounded elections as the native servers do (docs/protocol.md, "Bounded elections"): the
 * promise carries only what the candidate lacks and B replay entries are in flight at once. */
export const BLADE_ELECTION_BATCH = 256;
/** And with repair, as the native servers run (`repair_batch` 256): a handoff's successor then
 * replays only above the commit point the handoff carried, since repair brings a lagging
 * follower the entries it executed (docs/protocol.md, "GC mitigation"; model 1.2.0). */
export const BLADE_REPAIR_BATCH = 256;

export interface MitigationSpec {
  mode: MitigationMode;
  /** MITMEM: a request is rejected when the predicted rest of the pause exceeds what is left
   * of this deadline (counted from the operation's intended start). */
  deadline_ms?: number;
  /** "off": the collector never runs and the heap only grows (BLADE's GC-Off set-up, §5), the
   * ideal a mitigation is measured against. Only with mode "none". */
  collector?: 'on' | 'off';
}

export interface MitigationStats {
  mode: MitigationMode;
  collector: 'on' | 'off';
  model_version: string;
  /** gc_pending signals: collections announced ahead (BLADE asks permission on each). */
  gc_pending: number;
  /** BLADE: leadership handoffs before a leader's collection; collections held for a
   * permission; collections that could not wait (memory exhausted) and ran unpermitted. */
  handoffs: number;
  held_collections: number;
  forced_collections: number;
  /** The most nodes collecting at once under BLADE's permission (≤ f unless forced). */
  max_collecting_at_once: number;
  /** MITMEM: busy replies; of the retries they caused, how many another replica answered and
   * how many the other replica sent back to the busy node (it was the only leader). */
  busy_replies: number;
  busy_retries_served_elsewhere: number;
  busy_retries_redirected_back: number;
}

export function bladeOn(mode: MitigationMode): boolean {
  return mode === 'blade' || mode === 'both';
}
export function mitmemOn(mode: MitigationMode): boolean {
  return mode === 'mitmem' || mode === 'both';
}

/** Validates the spec's mitigation; throws a message naming the field. */
export function resolveMitigation(m: unknown): Required<MitigationSpec> {
  if (m === undefined) return { mode: 'none', deadline_ms: DEFAULT_DEADLINE_MS, collector: 'on' };
  if (typeof m !== 'object' || m === null) throw new Error('mitigation must be an object such as {"mode":"blade"}');
  const o = m as Record<string, unknown>;
  if (!MITIGATION_MODES.includes(o.mode as MitigationMode)) throw new Error(`mitigation.mode must be one of ${MITIGATION_MODES.join(', ')}, got ${JSON.stringify(o.mode)}`);
  const d = o.deadline_ms ?? DEFAULT_DEADLINE_MS;
  if (typeof d !== 'number' || !Number.isFinite(d) || d <= 0 || d > 3_600_000) throw new Error(`mitigation.deadline_ms must be a number of ms in (0, 3600000], got ${JSON.stringify(o.deadline_ms)}`);
  const collector = o.collector ?? 'on';
  if (collector !== 'on' && collector !== 'off') throw new Error(`mitigation.collector must be "on" or "off", got ${JSON.stringify(o.collector)}`);
  if (collector === 'off' && o.mode !== 'none') throw new Error('mitigation.collector "off" goes with mode "none": with no collector there is nothing to mitigate');
  return { mode: o.mode as MitigationMode, deadline_ms: d, collector };
}

export function emptyStats(mode: MitigationMode, collector: 'on' | 'off' = 'on'): MitigationStats {
  return {
    mode,
    collector,
    model_version: MITIGATION_MODEL_VERSION,
    gc_pending: 0,
    handoffs: 0,
    held_collections: 0,
    forced_collections: 0,
    max_collecting_at_once: 0,
    busy_replies: 0,
    busy_retries_served_elsewhere: 0,
    busy_retries_redirected_back: 0,
  };
}

/** A pause prediction as MITMEM makes it: exact, except in PREDICTION_ERROR_SHARE of the cases
 * where it is off by PREDICTION_ERROR_MS either way (never below zero). */
export function predictPause_ms(actual_ms: number, rng: Prng): number {
  if (rng.nextDouble() >= PREDICTION_ERROR_SHARE) return actual_ms;
  const sign = rng.nextDouble() < 0.5 ? -1 : 1;
  return Math.max(0, actual_ms + sign * PREDICTION_ERROR_MS);
}

/** MITMEM's rule: reject when the predicted rest of the pause is longer than the deadline left. */
export function mitmemRejects(predicted_rest_ms: number, deadline_left_ms: number): boolean {
  return predicted_rest_ms > deadline_left_ms;
}

/** The peer a leader hands off to: the live, not collecting node that collected most recently
 * (it has the most room before its next collection), else the lowest other id. In this model
 * every follower is equally up to date (the fast protocol model has no lagging followers). */
export function handoffTarget(leader: number, n: number, lastCollected: number[], usable: (id: number) => boolean): number | null {
  for (let i = lastCollected.length - 1; i >= 0; i--) {
    const c = lastCollected[i]!;
    if (c !== leader && usable(c)) return c;
  }
  for (let k = 1; k < n; k++) {
    const c = (leader + k) % n;
    if (usable(c)) return c;
  }
  return null;
}

/** BLADE's permission bookkeeping (the leader's side of Fig 5): at most f collect at once, the
 * rest wait in arrival order. */
export class PermissionBoard {
  private readonly collecting = new Set<number>();
  private readonly queue: number[] = [];

  constructor(readonly f: number) {}

  /** A request arrives: true when granted now, false when queued. */
  request(node: number): boolean {
    if (this.collecting.has(node)) return true;
    if (this.collecting.size < this.f) {
      this.collecting.add(node);
      return true;
    }
    if (!this.queue.includes(node)) this.queue.push(node);
    return false;
  }

  /** A node finished (or died): the next waiting node, if one may now collect. */
  done(node: number): number | null {
    this.collecting.delete(node);
    const i = this.queue.indexOf(node);
    if (i >= 0) this.queue.splice(i, 1);
    if (this.collecting.size >= this.f) return null;
    const next = this.queue.shift();
    if (next === undefined) return null;
    this.collecting.add(next);
    return next;
  }

  get count(): number {
    return this.collecting.size;
  }
}
