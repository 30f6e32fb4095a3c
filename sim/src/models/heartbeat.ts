// The paper's commit heartbeat and the elections it leads to (card 1.8.2 on,
// commit.waits_for_all_peers). In the paper's Replicant the leader's commit round, which is also
// the heartbeat, waits for an answer from every peer before the next one goes out, and a
// follower that hears no commit during a random wait of 1.5 to 2 commit intervals starts an
// election (paper §3.2.2; the paper's implementations' design, shared facts on the protocol).
// Our own engines do not wait for every peer (docs/protocol.md, "Steady leadership"); this is a
// model of the paper's system for the fast mode. Pure functions of the card: the run
// (run/hosts.ts) takes the decisions.
import type { ModelCard } from '../api.ts';
import { param } from './card.ts';

export interface HeartbeatModel {
  /** A follower's wait between two looks for a commit, in µs: [min, max). */
  election_wait_min_us: number;
  election_wait_max_us: number;
}

/** The card's heartbeat model at this commit interval, or null when the leader's heartbeat never
 * waits for a slow peer (cards before 1.8.2: node 0 leads the whole run). */
export function heartbeatModel(card: ModelCard, commit_interval_us: number): HeartbeatModel | null {
  if ((card.parameters['commit.waits_for_all_peers']?.value ?? 0) <= 0) return null;
  const min = param(card, 'commit.election_wait_min_intervals');
  const max = param(card, 'commit.election_wait_max_intervals');
  if (!(min > 0) || !(max >= min)) throw new RangeError(`commit.election_wait_*_intervals must satisfy 0 < min <= max, got ${min} and ${max}`);
  return { election_wait_min_us: min * commit_interval_us, election_wait_max_us: max * commit_interval_us };
}

/** The wait for one uniform draw u in [0, 1). */
export function electionWait_us(m: HeartbeatModel, u: number): number {
  return m.election_wait_min_us + u * (m.election_wait_max_us - m.election_wait_min_us);
}

/** The paper's new leader replays the merged log one instance per round trip (its accept phase
 * run again for each; the bounded elections of our cores keep 256 in flight, models/mitigation.ts). */
export const PAPER_REPLAY_BATCH = 1;

/** The next ballot a candidate picks (the cores' rule: the round above its current ballot's,
 * its own id in the low 8 bits), and the leader a ballot names. */
export function nextBallot(ballot: number, id: number): number {
  return (Math.floor(ballot / 256) + 1) * 256 + id;
}

export function leaderOfBallot(ballot: number): number {
  return ballot % 256;
}
