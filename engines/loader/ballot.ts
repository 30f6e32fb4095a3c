// Ballots as people read them: round.leader (docs/protocol.md, "Ballots").

export const NO_LEADER = 0xf;

export function leaderOf(ballot: number): number | null {
  const id = ballot % 256;
  return id === NO_LEADER ? null : id;
}

/** "2.1" for round 2 led by node 1; "0.-" for the initial ballot, which has no leader. */
export function formatBallot(ballot: number): string {
  const leader = leaderOf(ballot);
  return `${Math.floor(ballot / 256)}.${leader === null ? '-' : leader}`;
}
