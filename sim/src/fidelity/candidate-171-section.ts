// The "Candidate card 1.7.1" section of docs/fidelity.md: the rows whose simulated value card
// 1.7.1's table (data/fidelity-candidate-1.7.1.csv) changes from the default's, the calibrated
// points outside their tolerance and both summaries, all computed from the tables; and, written
// by hand from the runs named in it, the two Go runtime constants it adds, Go's figures at each
// memory size, and why it stays a candidate.
import type { ComparedRow } from './candidate-section.ts';
import type { CandidateFigures } from './candidate-181-section.ts';

export const CANDIDATE_171_VERSION = '1.7.1';

export function candidate171Section(changed: ComparedRow[], defaultVersion: string, f: CandidateFigures): string {
  const table = changed.map((r) => `| ${r.id} | ${r.paper} | ${r.default_sim} (${r.default_error}) | ${r.candidate_sim} (${r.candidate_error}) |`);
  const v = CANDIDATE_171_VERSION;
  const outside = f.calibratedOutside.length
    ? `Calibrated points card ${v} moves outside ±15 % (card ${defaultVersion} has them inside): ${f.calibratedOutside.map((r) => `${r.id} ${r.sim} (${r.error})`).join('; ')}.`
    : `Card ${v} moves no calibrated point outside ±15 % (Go A at 32 GiB: 49.601 Kops/s, paper 49.8; the 5 GiB bounds, A and B, hold: neither meets the SLO at 100 ops/s).`;
  return `## Candidate card ${v}: Go's idle-time workers check for work, and the memory limit keeps headroom

Card ${v} ([data/models/${v}.json](../data/models/${v}.json), its whole table in
[data/fidelity-candidate-${v}.csv](../data/fidelity-candidate-${v}.csv)) is card ${defaultVersion} with two constants
of Go's runtime, read in its source (Go 1.26 on this machine), nothing fitted; the calibration set
is unchanged. Card ${defaultVersion} already has the idle-time mark workers (\`go.idle_workers\`, since card
1.2.0): while a cycle marks, every core the program leaves idle marks, beside the dedicated 25 % of
GOMAXPROCS, and gives its core back the instant work arrives.

- **An idle-time worker gives its core back at its next check for work** (\`go.drain_check_bytes\`,
  100,000 B). The runtime's idle-mode drain asks whether goroutines or network events wait
  (pollWork) only every drainCheckThreshold units of scan work (runtime/mgcmark.go; its comment: about
  100 µs at 1 MB/ms). At the card's 0.3 ns/B that is every 30 µs: work that arrives on a core an idle
  worker holds waits for the worker's next check, and the wait is GC time.
- **The memory limit's heap goal keeps 3 % headroom** (\`go.limit_headroom_fraction\`,
  memoryLimitHeapGoalHeadroomPercent in runtime/mgcpacer.go, added for golang/go#57069): where
  GOMEMLIMIT sets the goal (8 and 6 GiB here) the goal is 3 % below the limit less the non-heap
  memory, so the runway to the trigger is shorter and cycles come more often. The paper does not
  name its Go version; the card assumes one with the headroom.

${outside}

**Go under both cards** (the table's spec, sim/src/fidelity/specs.ts: the searches of the Lab's
sweeps, then the leader over 120 s at each memory's maximum, 600 s at 100 ops/s at 5 GiB; card
${defaultVersion} → card ${v}):

| Go | max Kops/s | leader CPU at the max | GC share while a cycle runs | time a cycle runs | cycles per s |
|---|---|---|---|---|---|
| A, 32 GiB | 49.600 → 49.601 | 70.9 → 70.9 % | 31.06 → 31.06 % | 7.30 → 7.30 % | 0.115 → 0.115 |
| A, 8 GiB | 49.600 → 49.601 | 72.9 → 72.9 % | 31.19 → 31.49 % | 12.47 → 13.38 % | 0.197 → 0.213 |
| A, 6 GiB | 42.636 → 41.082 | 69.8 → 69.0 % | 40.74 → 42.90 % | 25.84 → 28.69 % | 0.533 → 0.623 |
| A, 5 GiB | < 0.1 → < 0.1 | - | 99.24 → 99.19 % | 100.06 → 100.08 % | 5.04 → 5.04 |
| B, 32 GiB | 49.602 → 49.601 | - → 69.3 % | - | - | - |
| B, 5 GiB | < 0.1 → < 0.1 | - | - | - | - |

The frequency multipliers of Fig 12(a) follow: 32 → 8 GiB 1.71 → 1.86× (paper 2×), 6 → 5 GiB
9.46 → 8.09× (paper 5×). The 30 µs check barely moves anything: at 32 GiB the leader's cores are
already full while a cycle runs (its second-by-second utilisation is 69 % between cycles and reaches
100 % over the 0.64 s a cycle lasts: the dedicated 25 % and the 6 % the program leaves), so there is
almost no idle time left for a worker to keep. The paper's ≈ 50 % there, with the leader at 71 %
overall (Fig 9(b)), needs the program to give up cores while a cycle runs, which neither the GC guide
nor the paper describes. The headroom moves the 8 and 6 GiB points, toward the paper.

**Why it stays a candidate.** Every line of the summary is no worse than card ${defaultVersion}'s, and
the utilisation median moves from 8.40 to 8.35 pp (8.4 in both rounded summaries), still above the
issue's 7. Go's throughput per utilisation at its lowest feasible memory (§5.4, 55 Kops/s per
utilisation fraction at 6 GiB) is 61.09 (+11.1 %) → 59.54 (+8.3 %). This table first had it at
64.17 (+16.7 %), outside ±15 %, and that was the reason the card stayed a candidate. That figure
came from the sampled probe: a Go probe measures at least 2 s, and until each node's cycle has
ended (sim/src/search/slo.ts, collectorSample). Card ${v}'s 2.0 s sample at 41,082 ops/s read the
leader at 64.0 %. The whole 10 s window reads 69.0 %. A search now reads its CPU figures at the
answer from the whole window (\`wholeWindowRun\`), so the +16.7 % is gone. The card meets the rule
for a default: no held-out throughput point leaves ±15 %, and the bounds hold. It is not made the
default here. That changes the Lab's default card and every Go figure the Lab shows, a decision
for the lead. It would not bring the utilisation median to 7 pp.

**How it was computed.** \`npm run fidelity -- --card data/models/${v}.json --cache DIR\` at \`nice -n 10\`,
one process. It first ran into an empty cache (618 s wall, 146 s CPU, load average 27 on 2 cores
at the end). It was run again once the searches read their utilisation from the whole window,
into a cache that held the default table's C++, Java and Rust searches and runs. The process
searched sweeps 0 and 2 again for all four engines, warm-started from those searches; every
C++, Java and Rust answer came out the same. That run took 1292 s wall and 189 s CPU, at load average 36 on 2 cores at the start and 40 at
the end. Card
${defaultVersion}'s Go figures in the table above that the default's table does not hold (8 GiB's, and
each memory's cycle counts) come from its own runs of the same spec, \`--card data/models/${defaultVersion}.json
--cache DIR --shard run:go/A/GIB/8/OPS/SECONDS\` at its searches' answers. The cards differ only in
\`go.*\`, and every row of C++, Java and Rust came out the same to the digit as the default's. The
mechanism's tests: sim/src/models/models.test.ts (an idle-time worker keeps a core until its next
check: work arriving 31 µs after the cores went idle starts 29 µs late with a 30 µs period, at
once without; the headroom's goal and a cycle period 1.08 to 1.12 times shorter; a cycle with no
idle core stays at the dedicated 25 %, the program's work late by at most its two pauses).

The rows whose simulated value differs (simulated, error against the paper):

| paper id | paper | default ${defaultVersion} | candidate ${v} |
|---|---|---|---|
${table.join('\n')}

Summary of card ${v}'s table:

${f.candidateSummary}

`;
}
