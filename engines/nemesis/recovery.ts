// The issue's recovery targets after a leader kill, read from a nemesis run's acknowledgements:
// a new leader serving within 1 s (the first acknowledged operation after the kill: nothing is
// acknowledged without a leader), and the survivors back to at least 80 % of the pre-kill rate
// within 3 s (acknowledgements per second in the second after the 3 s, against the second
// before the kill). Pure: the nemesis records, this judges.

export const NEW_LEADER_BOUND_MS = 1000;
export const RATE_RECOVERY_MS = 3000;
export const RATE_WINDOW_MS = 1000;
export const RATE_FRACTION = 0.8;

export interface KillMark {
  at_ms: number;
  kind: 'kill' | 'pause' | 'restart';
  node: number;
  was_leader: boolean;
}

export interface LeaderKillRecovery {
  at_ms: number;
  /** first acknowledged operation after the kill, ms after it; null: none before the end */
  first_ack_ms: number | null;
  /** acknowledgements per second in the second before the kill */
  pre_rate_per_s: number;
  /** acknowledgements per second in [3 s, 4 s) after the kill; null when the run ended before */
  post_rate_per_s: number | null;
  /** no other fault from the kill to the end of the post window (the killed node's own restart
   * aside): the rate check is about this kill alone */
  window_clean: boolean;
  new_leader_ok: boolean;
  /** null: not measurable (another fault in the window, the run ended, or nothing acknowledged before) */
  rate_ok: boolean | null;
}

export function leaderKillRecoveries(faults: readonly KillMark[], acks_us: readonly number[], end_ms: number): LeaderKillRecovery[] {
  const count = (from_ms: number, to_ms: number) => acks_us.filter((t) => t >= from_ms * 1000 && t < to_ms * 1000).length;
  const out: LeaderKillRecovery[] = [];
  for (const f of faults) {
    if (f.kind !== 'kill' || !f.was_leader) continue;
    const first = acks_us.find((t) => t >= f.at_ms * 1000);
    const first_ack_ms = first === undefined ? null : Math.round(first / 1000 - f.at_ms);
    const preFrom = Math.max(0, f.at_ms - RATE_WINDOW_MS);
    const pre_rate_per_s = f.at_ms > preFrom ? (count(preFrom, f.at_ms) * 1000) / (f.at_ms - preFrom) : 0;
    const postFrom = f.at_ms + RATE_RECOVERY_MS;
    const postTo = postFrom + RATE_WINDOW_MS;
    const post_rate_per_s = postTo <= end_ms ? (count(postFrom, postTo) * 1000) / RATE_WINDOW_MS : null;
    const window_clean = !faults.some((g) => g !== f && g.at_ms >= f.at_ms && g.at_ms < postTo && !(g.kind === 'restart' && g.node === f.node));
    const rate_ok = post_rate_per_s === null || !window_clean || pre_rate_per_s === 0 ? null : post_rate_per_s >= RATE_FRACTION * pre_rate_per_s;
    out.push({ at_ms: f.at_ms, first_ack_ms, pre_rate_per_s, post_rate_per_s, window_clean, new_leader_ok: first_ack_ms !== null && first_ack_ms <= NEW_LEADER_BOUND_MS, rate_ok });
  }
  return out;
}

/** One line per missed target, for a run's problems. */
export function recoveryProblems(rs: readonly LeaderKillRecovery[]): string[] {
  const out: string[] = [];
  for (const r of rs) {
    if (!r.new_leader_ok)
      out.push(`recovery: after the leader kill at ${r.at_ms} ms the first acknowledgement came ${r.first_ack_ms === null ? 'never' : `after ${r.first_ack_ms} ms`} (bound ${NEW_LEADER_BOUND_MS} ms)`);
    if (r.rate_ok === false)
      out.push(`recovery: ${r.post_rate_per_s!.toFixed(0)} ops/s 3–4 s after the leader kill at ${r.at_ms} ms, below ${RATE_FRACTION * 100} % of the ${r.pre_rate_per_s.toFixed(0)} ops/s before it`);
  }
  return out;
}
