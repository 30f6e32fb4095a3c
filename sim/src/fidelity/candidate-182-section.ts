// The "Candidate card 1.8.2" section of docs/fidelity.md: the rows whose simulated value card
// 1.8.2's table (data/fidelity-candidate-1.8.2.csv) changes from card 1.8.1's, beside the
// base card 1.7.0's (the default's until card 1.7.1), the calibrated points outside their tolerance and the summary, all computed from
// the tables; and, written by hand from the runs named in it, what the paper's heartbeat does
// to Java at 5 GiB and why the card stays a candidate.
import type { CandidateFigures } from './candidate-181-section.ts';

export const CANDIDATE_182_VERSION = '1.8.2';

export interface ThreeCardRow {
  id: string;
  paper: string;
  default_cell: string;
  c181_cell: string;
  c182_cell: string;
}

export function candidate182Section(rows: ThreeCardRow[], baseVersion: string, f: CandidateFigures): string {
  const v = CANDIDATE_182_VERSION;
  const table = rows.map((r) => `| ${r.id} | ${r.paper} | ${r.default_cell} | ${r.c181_cell} | ${r.c182_cell} |`);
  const outside = f.calibratedOutside.length
    ? `Calibrated points card ${v} moves outside ±15 % (card ${baseVersion} has them inside): ${f.calibratedOutside.map((r) => `${r.id} ${r.sim} (${r.error})`).join('; ')}. So card ${v} does not become the default: a calibrated point must stay within its tolerance.`
    : `Card ${v} moves no calibrated point outside ±15 %.`;
  return `## Candidate card ${v}: the paper's heartbeat waits for every peer

Card ${v} ([data/models/${v}.json](../data/models/${v}.json), its whole table in
[data/fidelity-candidate-${v}.csv](../data/fidelity-candidate-${v}.csv)) is candidate card 1.8.1 with
what that card's section below names as missing: the paper's commit heartbeat
(\`commit.waits_for_all_peers\`, sim/src/models/heartbeat.ts). The leader's commit round goes to
every peer every commit interval (150 ms, paper §3.2.2), and a tick that finds a peer of the
last round unanswered sends nothing; a follower looks for a commit after a random wait of 1.5
to 2 commit intervals (\`commit.election_wait_min_intervals\`, \`_max_intervals\`: 225 to 300 ms,
the paper's implementations' design, which our engines share) and starts an election if none
came; a peer that promises a higher ballot steps down if it led; the winner replays the log
above the global last executed (which advances only when a round is answered by all), one
instance per round trip as the paper's election does (sim/src/models/mitigation.ts), sending
its first heartbeat at once. A candidate answers clients \`retry\`, a deposed leader names the
new one. Fast mode only: our engines do not wait for every peer and are unchanged; a run with a
GC mitigation keeps card 1.8.1's heartbeat. Nothing is fitted; the calibration set is unchanged.
A run's counters (\`RunResult.elections\`: heartbeats withheld, elections started and won) and its
leader changes show the mechanism.

${outside}

**Java A at 5 GiB: the right mechanism, too strong.** The paper's heartbeat does what card
1.8.1 lacked: each node's 1.8 s full collection now stops the cluster, the followers' too. The
probe at 3 Kops/s (the table's spec, plain run, seed 1) withholds 27 heartbeats and starts 10
elections (9 won) between 323.9 s and 329.8 s of the run, around the three nodes' full
collections (node 2 at 323.4 s, node 1 at 326.4 s, node 0 at 328.1 s, 1.83 s each), leadership passing 0 → 1 → 0 → 1 → 2 → 0 → 2 → 1 → 2 → 1;
2.36 % of its operations miss the SLO and its p99 is 3.7 s (card 1.8.1: 0.555 %, card 1.7.0:
1.11 %). Each election costs more than the pause that caused it: the winner replays every
instance above the global last executed, which stopped advancing when the paused node stopped
answering, one per round trip, and its own rounds then wait for the same silent node, so the
other node elects itself in turn. So every probe whose window holds the full collections
misses, and the search comes down to the rate where the full-collection period passes the 600 s
cap of the window: the table's answer is 1.61 Kops/s (−46.3 %; the probe at 1,609.6 ops/s has a
10 s window), and a cold search of the same spec 1.78 Kops/s, whose probe the plain run misses
(1.12 % over the SLO at 1,785 ops/s, window 537 s). Against the paper's 3 Kops/s the model now
stops too long per collection, where card 1.7.0 stopped for two coinciding pauses and card
1.8.1 for one; what the paper's own replay and re-election cost per collection is not stated
in it, and nothing here is fitted to make it so.

**Go at 5 GiB breaks.** At GOMEMLIMIT the model parks every goroutine that allocates until its
cycle ends, and a node's answers leave only when its parked work is woken (card 1.5.0,
\`go.park_assists\`), so at 5 GiB, where cycles run back to back, a commit answer is late by up to
a cycle (~200 ms). With the paper's heartbeat that withholds rounds, the followers elect, and
the replay, one round trip per instance with every round trip that late, never catches up:
the 600 s runs at 100 ops/s (Fig 9, 11, 12) end with p99s of 641 s (workload A) and 595 s (B)
against the paper's 154 and 156 ms (card 1.8.1: 300 ms), and the GC share at 5 GiB reads 110 %.
A 30 s run of the same spec serves 5.8 of its 100 ops/s, with 62 heartbeats withheld and 11
elections. The paper's Go served those operations, so its commit answers were not held like
that: the model parks the whole node where the runtime parks only the allocating goroutine.
The bounds (Go A and B at 5 GiB below 0.1 Kops/s) are still respected.

**Elsewhere nothing moves that matters.** Java A at 32, 8 and 6 GiB, Java B at 5 GiB, Go A at 6
GiB: every search's answer within 0.1 % of card 1.8.1's (Java A 15.84, 14.98, 17.52 Kops/s,
Java B 16.30, Go 42.64). At their answers the pauses in the window are shorter than an election
wait (Java A at 32 GiB, 15,837 ops/s, plain run: one heartbeat withheld, no election; 8 GiB at 14,978 ops/s and 6 GiB at 17,522 ops/s: none withheld, no election), or
(Java B at 5 GiB) the full collection falls outside the 600 s window. C++, Rust and Go at 32 GiB move by less than 0.1 %:
the followers' election waits are steps of their own (a timer event every 225 to 300 ms). Java A
at 8 GiB's leader utilisation is 38.7 % (paper 43 %; card 1.8.1 40.6 %), at 5 GiB 10.6 % (paper
12 %; card 1.8.1 19 %).

**Not the default.** Besides the calibrated points above, the p99 points within a factor of 2
fall from 4 of 6 to 2 of 6 (Go at 5 GiB). Held-out throughputs are level with card 1.7.0
(10 of 10 within ±15 %, median 2.4 % against 2.5 %), and the utilisation median is 8.3 pp
against card 1.7.0's 8.4 (card 1.8.1: 9.4).

**How it was computed.** \`npm run fidelity -- --card data/models/${v}.json --cache DIR\` at \`nice -n 10\`,
one process computing every sweep and run in order (the cache was empty; the timing line it
prints names shards, but none ran): 953 s wall, 204 s CPU, load average 31 on 2 cores at the end
(16 at the start). The counters above are from single probes of the table's spec
(sim/src/search/slo.ts \`runProbe\`) with the steady-state shortcut off. With elections the shortcut
is optimistic and no test holds it to the plain run yet: at 3 Kops/s it counts 2.11 % over the
SLO against the plain run's 2.36 %, at 1,785 ops/s 0.98 % (met) against 1.12 % (missed).
The mechanism's test: sim/src/run/heartbeat.test.ts (a 901 ms follower pause: 4 heartbeats
withheld, 2 elections, p99 1.13 s; under card 1.8.1, or a 98 ms pause, none and 2.2 to 2.4 ms).

The rows whose simulated value card ${v} changes from card 1.8.1's (simulated, error against the paper):

| paper id | paper | card ${baseVersion} (the base; default until 1.7.1) | card 1.8.1 | card ${v} |
|---|---|---|---|---|
${table.join('\n')}

Summary of card ${v}'s table:

${f.candidateSummary}

`;
}
